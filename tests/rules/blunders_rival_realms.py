"""Rival Realms blunder positions: one decision wins or saves the game, the web agents find it.

Each position is hand-built on a real table (``realms()`` of ``test_rival_realms``) and named
after the situation; the agents play it at the budget the web gives them
(``rules.services.agent_spec``), with fixed seeds, so a test fails only when an agent's choice
changes, never by the luck of a random stream. The rival's decisions follow one fixed rule
(``rival_choice``). Win rates over many games are measured in ``bench/agents.py`` instead
(``docs/rules/rival-realms.md``, "Measured").
"""

from __future__ import annotations

from collections.abc import Callable

from rules.engines.core import Action
from rules.engines.rival_realms import RealmsState
from rules.engines.rival_realms.state import CARD_REASON, LIFE_REASON
from tests.rules import blunders
from tests.rules.test_rival_realms import END, PASS, block, realms, to_combat

SLUG = "rival-realms"
#: every agent the web offers for this game but random (its default, ``team``, first)
AGENTS = ("team", "greedy", "mcts")
#: what every seat draws from, so no Redraw leaves a hand that locks the game (ruling 21)
DRAW = ["Grain Tithe"] * 8
#: the waiting seat's hand: cards the deciding seat cannot see, which search deals again from
#: the card set (ruling 20), so a win put off to a later turn risks an answer
HIDDEN_HAND = ["Grain Tithe"] * 5


def deciding(**zones: list[str]) -> dict[str, list[str]]:
    """The zones of the seat whose decisions are tested, for ``realms()``."""
    return {"draw": DRAW, **zones}


def waiting(**zones: list[str]) -> dict[str, list[str]]:
    """The zones of the other seat, for ``realms()``: a hand of ``HIDDEN_HAND`` unless named."""
    return {"hand": HIDDEN_HAND, "draw": DRAW, **zones}


def rival_choice(state: RealmsState) -> Action:
    """The other seat's decision: block the strongest attacker not yet blocked with the first
    unit free to block it, end or pass every other window, take the first option of a task."""
    actions = state.legal_actions()
    if state.tasks:
        return actions[0]
    blocks = [a for a in actions if a.kind == "block"]
    if blocks:
        open_attackers = [a for a in state.attackers if a not in state.blocked]
        if open_attackers:
            target = max(open_attackers, key=lambda a: (state.attack_of(a), -a))
            slot = state.field[state.active].index(target)
            return next(a for a in blocks if a.args[3] == slot)
    return PASS if PASS in actions else END


#: the seat under test plays the turn under way to its end; the other seat follows
#: ``rival_choice``
decide_for = blunders.turn_decider(SLUG, rival_choice)


# --- take lethal (§`Winning`) --------------------------------------------------------------------
def lethal_attack_into_an_empty_field() -> RealmsState:
    # §`Resolve`: an attacker nobody blocks deals its attack to the defending player.
    state = realms(deciding(field=["War Hounds"]), waiting())
    state.life[1] = 3
    return state


def lethal_attack_past_too_few_blockers() -> RealmsState:
    # §`Defend`: one blocker stops one attacker; the second War Hounds gets through for 3.
    state = realms(
        deciding(field=["War Hounds", "War Hounds"], hand=["Grain Tithe"]),
        waiting(field=["Tower Guard"]),
    )
    state.life[1] = 3
    return state


def catapult_for_the_last_two_life() -> RealmsState:
    # Catapult Crew's Deploy ability (2 supply: 2 damage to the rival) is the only way through
    # (§`Permanent cards`: an ability names its phases); the Young Dragon blocks any attack.
    state = realms(
        deciding(field=["Barracks", "Catapult Crew"], hand=["Iron Tribute"]),
        waiting(field=["Young Dragon"]),
    )
    state.life[1] = 2
    return state


def flank_the_unblocked_attacker() -> RealmsState:
    # §`Reinforce`: the attacker acts first. Flanking Charge's +3 attack on the unblocked War
    # Hounds deals 6, the rival's life; on the blocked Dire Bear it only beats the blocker.
    state = realms(
        deciding(field=["War Hounds", "Dire Bear"], hand=["Flanking Charge", "Iron Tribute"]),
        waiting(field=["Tower Guard"]),
    )
    state.life[1] = 6
    to_combat(state, "war-hounds", "dire-bear")
    block(state, "tower-guard", "dire-bear")
    state.apply(END)
    assert state.phase == "reinforce" and state.current_player() == 0
    return state


# --- take the card victory (§`Winning`, ruling 8) ------------------------------------------------
def concord_of_crowns_on_offer() -> RealmsState:
    # Six supply buys Concord of Crowns, whose three realms are on the field, or three units:
    # three blockers against four attackers next turn, at 2 life (§`Defend`).
    state = realms(
        deciding(
            field=["Grand Castle", "Temple of Dawn", "Gold Mine"],
            hand=["Concord of Crowns", "Dire Bear", "Militia", "Militia", *["Royal Coffers"] * 2],
        ),
        waiting(field=["War Hounds", "Berserker", "Wolf Pack", "Dire Bear"]),
    )
    state.life[0] = 2
    return state


def fourth_beast_for_the_menagerie() -> RealmsState:
    # Three supply buys the Giant Eagle, the fourth beast on the field, or Spearmen and a Militia.
    state = realms(
        deciding(
            field=["Beastmaster's Menagerie", "Barracks", "Dire Bear", "War Hounds", "Wolf Pack"],
            hand=["Giant Eagle", "Spearmen", "Militia", "Iron Tribute", "Grain Tithe"],
        ),
        waiting(field=["Pike Square"]),
    )
    return state


def sharpshooter_clears_the_field_for_the_usurper() -> RealmsState:
    # Usurper Prince wins with four units against none; Crossbow Sharpshooter is the fourth and
    # its deploy trigger (2 damage) loses the rival's only unit (§`Unit Cards`, ruling 15). Four
    # supply buys it or the Dire Bear.
    state = realms(
        deciding(
            field=["War Council Hall", "Archery Range", "Usurper Prince", "Militia", "Militia"],
            hand=["Crossbow Sharpshooter", "Dire Bear", "Royal Coffers", "Grain Tithe"],
        ),
        waiting(field=["War Hounds"]),
    )
    return state


# --- never attack or block into the rival's victory ----------------------------------------------
def siege_camp_waits_for_an_attacker() -> RealmsState:
    # The rival's Siege Camp wins at 15 cards in this seat's lost deck, which holds 14. The
    # Berserker (5 attack when attacking, 1 defense) is lost to the Pike Square's 2 damage
    # (§`Unit Cards`); the Dire Bear is only discarded (§`Resolve`).
    state = realms(
        deciding(field=["Dire Bear", "Berserker"], lost=["Militia"] * 14),
        waiting(field=["Siege Camp", "Pike Square"]),
    )
    return state


def siege_camp_waits_for_a_blocker() -> RealmsState:
    # Seat 0's Siege Camp needs one more card in seat 1's lost deck; a Militia blocking the Dire
    # Bear takes 4 over its 2 defense and is lost; unblocked, the Bear takes 4 of 20 life.
    state = realms(
        waiting(field=["Siege Camp", "Dire Bear"]),
        deciding(field=["Militia"], lost=["Tower Guard"] * 14),
    )
    to_combat(state, "dire-bear")
    assert state.phase == "defend" and state.current_player() == 1
    return state


def siege_camp_waits_for_a_blocked_attacker() -> RealmsState:
    # The Dire Bear, blocked by the Young Dragon, takes 6 over its 4 defense and would be the
    # 15th lost card; Field Hospital's prevention of 2 (1 supply, left over) keeps it at 4, so it
    # is discarded (§`Resolve`: the attacker's window comes first, ruling 14).
    state = realms(
        deciding(field=["Field Hospital", "Dire Bear"], lost=["Militia"] * 14),
        waiting(field=["Siege Camp", "Young Dragon"]),
    )
    to_combat(state, "dire-bear")
    block(state, "young-dragon", "dire-bear")
    state.apply(END)
    state.supply[0] = 1
    state.apply(PASS)
    state.apply(PASS)
    assert state.phase == "resolve_attacker" and state.current_player() == 0
    return state


# --- never lose the last life --------------------------------------------------------------------
def block_the_lethal_attacker() -> RealmsState:
    # Seat 1 at 4 life, attacked by the Dire Bear (4) and a Militia (1): blocking the Bear
    # with the Tower Guard leaves 1 damage; blocking the Militia, or nothing, loses.
    state = realms(waiting(field=["Dire Bear", "Militia"]), deciding(field=["Tower Guard"]))
    state.life[1] = 4
    to_combat(state, "dire-bear", "militia")
    assert state.phase == "defend" and state.current_player() == 1
    return state


def ambush_the_lethal_attacker() -> RealmsState:
    # Seat 1, at 3 life and with no unit to block, plays Ambush on the attacking War Hounds
    # (2 damage over 1 defense, §`Unit Cards`): a lost attacker deals no damage (§`Resolve`).
    state = realms(
        waiting(field=["War Hounds", "Tower Guard"]),
        deciding(hand=["Ambush", "Iron Tribute"]),
    )
    state.life[1] = 3
    to_combat(state, "war-hounds")
    state.apply(END)  # no blocker
    assert state.phase == "reinforce" and state.current_player() == 0
    state.apply(PASS)
    return state


def archmage_costs_the_last_life() -> RealmsState:
    # Archmage's additional cost is 2 life; at 2 life paying it loses (ruling 17, §`Playing a
    # card's cost`, §`Winning`). Six supply buys it or the Dire Bear, which costs no life.
    state = realms(
        deciding(
            field=["Mage Tower"],
            hand=["Archmage", "Dire Bear", "Royal Coffers", "Royal Coffers"],
        ),
        waiting(),
    )
    state.life[0] = 2
    return state


def desperate_levy_costs_the_last_life() -> RealmsState:
    # Desperate Levy (2 life for 3 supply) in the Reinforce phase, at 2 life (ruling 17).
    state = realms(deciding(field=["Militia"], hand=["Desperate Levy", "Rally Cry"]), waiting())
    state.life[0] = 2
    to_combat(state, "militia")
    state.apply(END)  # no blocker
    assert state.phase == "reinforce" and state.current_player() == 0
    return state


# --- never end a turn with a free, purely beneficial play left -----------------------------------
def leftover_supply_and_the_temple_of_dawn() -> RealmsState:
    # §`Supply`: supply left at the end of the turn is gone; Temple of Dawn turns 1 of it into
    # 2 life in the Redraw phase.
    state = realms(deciding(field=["Temple of Dawn"]), waiting(), phase="redraw")
    state.life[0] = 10
    state.supply[0] = 1
    return state


def won(reason: str) -> Callable[[RealmsState], bool]:
    return lambda state: state.winner() == 0 and state.end_reason() == reason


def still_playing(state: RealmsState) -> bool:
    return not state.is_terminal()


def gained_the_life(state: RealmsState) -> bool:
    return state.life[0] == 12


#: situation -> (the position, the seat to decide, what choosing right leads to)
POSITIONS: dict[str, tuple[Callable[[], RealmsState], int, Callable[[RealmsState], bool]]] = {
    "attack_for_lethal_into_an_empty_field": (
        lethal_attack_into_an_empty_field,
        0,
        won(LIFE_REASON),
    ),
    "attack_with_every_unit_past_too_few_blockers": (
        lethal_attack_past_too_few_blockers,
        0,
        won(LIFE_REASON),
    ),
    "use_the_catapult_for_the_last_two_life": (catapult_for_the_last_two_life, 0, won(LIFE_REASON)),
    "flank_the_unblocked_attacker_for_lethal": (flank_the_unblocked_attacker, 0, won(LIFE_REASON)),
    "take_the_concord_of_crowns_victory": (concord_of_crowns_on_offer, 0, won(CARD_REASON)),
    "deploy_the_fourth_beast_for_the_menagerie": (
        fourth_beast_for_the_menagerie,
        0,
        won(CARD_REASON),
    ),
    "deploy_the_sharpshooter_that_crowns_the_usurper": (
        sharpshooter_clears_the_field_for_the_usurper,
        0,
        won(CARD_REASON),
    ),
    "never_attack_into_the_block_that_feeds_the_siege_camp": (
        siege_camp_waits_for_an_attacker,
        0,
        still_playing,
    ),
    "never_block_into_the_rivals_siege_camp": (siege_camp_waits_for_a_blocker, 1, still_playing),
    "prevent_the_loss_that_feeds_the_siege_camp": (
        siege_camp_waits_for_a_blocked_attacker,
        0,
        still_playing,
    ),
    "block_the_attacker_that_would_take_the_last_life": (
        block_the_lethal_attacker,
        1,
        still_playing,
    ),
    "ambush_the_attacker_that_would_take_the_last_life": (
        ambush_the_lethal_attacker,
        1,
        still_playing,
    ),
    "never_pay_the_last_life_for_an_archmage": (archmage_costs_the_last_life, 0, still_playing),
    "never_pay_the_last_life_for_a_desperate_levy": (
        desperate_levy_costs_the_last_life,
        0,
        still_playing,
    ),
    "spend_leftover_supply_at_the_temple_of_dawn": (
        leftover_supply_and_the_temple_of_dawn,
        0,
        gained_the_life,
    ),
}
