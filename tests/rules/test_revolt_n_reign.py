"""The Revolt N Reign engine, section by section of the rulebook, on hand-built situations.

``table()`` starts a real game (60-card decks, mulligans skipped, Player 1 first, equalization
passed), empties both hands into the draw piles and opens Player 1's Play Phase of turn 1. Tests
then ``place`` named cards where they want them, so all 120 cards always exist and
``zone_counts`` stays an honest check. Rulings in ``docs/rules/revolt-n-reign.md`` name the tests
that pin them.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from pathlib import Path

import pytest

from rules.engines.core import Action, IllegalActionError, Rng, SetupError, card_key, get_game
from rules.engines.revolt_n_reign import RevoltNReignGame, RevoltState, deck_records
from rules.engines.revolt_n_reign.state import (
    ATTACK_VICTORY,
    DECK_OUT,
    LP_VICTORY,
    PETITION_VICTORY,
    TURN_LIMIT,
)

GAME = RevoltNReignGame()
END = Action("end")
UAS = ("Stamp Act", "Sugar Act", "Tea Act")
FILLER = "Printing Press"


def deck(*names: str, uas: Iterable[str] = UAS) -> list:
    """A 60-card deck: the UAs, the named cards and Printing Press Pillars to fill it."""
    entries = [(1, name) for name in (*uas, *names)]
    entries.append((60 - len(entries), FILLER))
    return deck_records(entries, GAME.records)


def table(
    p0: Iterable[str] = (),
    p1: Iterable[str] = (),
    uas0: Iterable[str] = UAS,
    uas1: Iterable[str] = UAS,
    **setup: object,
) -> RevoltState:
    """Player 1 (seat 0) in the Play Phase of turn 1 with empty hands, 0 IP and no Pillars."""
    state = GAME.new_initial_state(
        7,
        {
            "decks": [deck(*p0, uas=uas0), deck(*p1, uas=uas1)],
            "first_player": 0,
            "mulligans": False,
            **setup,
        },
    )
    if state.phase == "equalize":
        state.apply(Action("pass"))
    for player in (0, 1):
        state.draw[player].extend(state.hand[player])
        state.hand[player].clear()
        state.ip[player] = 0
    assert state.phase == "play" and state.active == 0 and state.turn == 1
    return state


def key(name: str) -> str:
    return card_key(name)


def hand(state: RevoltState, player: int, *names: str) -> None:
    for name in names:
        state.place(player, key(name), "hand")


def play(state: RevoltState, player: int, name: str) -> int:
    return state.place(player, key(name), "play")


def ua(state: RevoltState, player: int, name: str) -> int:
    return next(c for c in state.uas[player] if state.spec(c).name == name)


def end_turn(state: RevoltState) -> None:
    """End the Play Phase; discard the costliest extra cards if the End Phase asks."""
    state.apply(END)
    while state.phase in ("discard", "respond", "choose"):
        state.apply(END if state.phase == "respond" else state.legal_actions()[0])


def pass_turn(state: RevoltState) -> None:
    """End this turn and the opponent's next one, back to the same player's Play Phase."""
    end_turn(state)
    end_turn(state)


def total_cards(state: RevoltState) -> int:
    return sum(state.zone_counts().values())


# --- Setup ------------------------------------------------------------------------------------
def test_setup_places_uas_shuffles_and_deals_seven() -> None:
    state = GAME.new_initial_state(1, {"first_player": 0})
    for player in (0, 1):
        assert len(state.uas[player]) == 3
        assert all(state.spec(c).type == "unconstitutional-act" for c in state.uas[player])
        assert len(state.hand[player]) == 7
        assert len(state.draw[player]) == 50
        assert state.lp[player] == 100
    assert total_cards(state) == 120
    assert state.current_player() == 0
    assert state.legal_actions() == [Action("keep"), Action("mulligan")]


def test_opening_hand_allows_two_mulligans_before_turn_order() -> None:
    state = GAME.new_initial_state(2, {"first_player": 1})
    state.apply(Action("mulligan"))
    assert state.mulligans[0] == 1 and len(state.hand[0]) == 7
    state.apply(Action("mulligan"))
    # after the second mulligan seat 0 keeps; seat 1 decides next
    assert state.current_player() == 1 and state.mulligans[0] == 2
    assert len(state.hand[0]) == 7 and len(state.draw[0]) == 50
    state.apply(Action("keep"))
    assert state.phase in ("equalize", "play")


def test_determine_turn_order_under_15_goes_first_else_die_roll() -> None:
    young = GAME.new_initial_state(3, {"under_15": [1], "mulligans": False})
    assert young.first == 1
    rolls = {GAME.new_initial_state(seed, {"mulligans": False}).first for seed in range(20)}
    assert rolls == {0, 1}


def test_setup_rejects_a_deck_without_three_uas_or_sixty_cards() -> None:
    with pytest.raises(SetupError, match="Unconstitutional Acts"):
        GAME.new_initial_state(0, {"decks": [deck(uas=UAS[:2]), deck()]})
    with pytest.raises(SetupError, match="60"):
        GAME.new_initial_state(0, {"decks": [deck()[:59], deck()]})
    with pytest.raises(SetupError, match="unknown setup keys"):
        GAME.new_initial_state(0, {"colour": "red"})


def test_equalization_allows_one_zero_ip_card() -> None:
    # Ruling 17: Player 2 may play one card printing an IP cost of 0; its effects wait for the
    # first Resolve Phase (Player 1's), where its attack damage is the inactive player's.
    state = GAME.new_initial_state(
        5,
        {
            "decks": [deck(), deck("Pitchfork Rabble", "Right to Work", "Homestead Claim")],
            "first_player": 0,
        },
    )
    state.draw[1].extend(state.hand[1])
    state.hand[1].clear()
    hand(state, 1, "Pitchfork Rabble", "Right to Work", "Homestead Claim")
    state.apply(Action("keep"))
    state.apply(Action("keep"))
    assert state.phase == "equalize" and state.current_player() == 1
    actions = state.legal_actions()
    assert actions[0] == Action("pass")
    cards = {a.args[0] for a in actions[1:]}
    assert cards == {"pitchfork-rabble", "right-to-work"}  # Pillars print no IP cost
    target = ua(state, 0, "Tea Act")
    state.apply(Action("equalize", ("pitchfork-rabble", target)))
    assert state.phase == "play" and state.active == 0 and state.turn == 1
    assert state.dp[target] == 20  # nothing resolved yet
    end_turn(state)
    assert state.dp[target] == 15


# --- Phase 1: Draw Phase --------------------------------------------------------------------
def test_draw_phase_draws_exactly_one_card() -> None:
    state = table()
    end_turn(state)
    assert len(state.hand[1]) == 1 and state.active == 1


def test_deck_out_only_when_the_draw_phase_draw_fails() -> None:
    state = table(p0=("Right to a Fair Trial",))
    hand(state, 0, "Right to a Fair Trial")
    state.ip[0] = 2
    state.discard[0].extend(state.draw[0][2:])
    del state.draw[0][2:]
    state.draw[0].pop()  # one card left; the effect asks for two
    state.apply(Action("play", ("right-to-a-fair-trial",)))
    end_turn(state)
    assert not state.draw[0] and not state.is_terminal()  # an effect's failed draw is no loss
    end_turn(state)  # Player 1's next Draw Phase cannot draw
    assert state.is_terminal() and state.end_reason() == DECK_OUT
    assert state.winner() == 1


# --- Phase 2: Independence Phase ------------------------------------------------------------
def test_pillars_generate_ip_each_turn_and_ip_is_kept() -> None:
    state = table()
    hand(state, 0, FILLER)
    state.apply(Action("pillar", (key(FILLER),)))
    assert state.ip[0] == 0  # played in the Play Phase, after this turn's generation
    pass_turn(state)
    assert state.ip[0] == 1
    pass_turn(state)
    assert state.ip[0] == 2  # no maximum, unspent IP stays on the tracker


def test_when_you_gain_ip_fires_after_pillar_generation() -> None:
    state = table(p0=("Humble Petition of the Colonists",))
    play(state, 0, "Humble Petition of the Colonists")
    pass_turn(state)
    assert state.lp[0] == 100 - 3  # no Pillar, no IP gained, no trigger (3 is the drain)
    play(state, 0, FILLER)
    pass_turn(state)
    assert state.lp[0] == 97 + 1 - 3


# --- Phase 3: Play Phase --------------------------------------------------------------------
def test_one_pillar_from_hand_per_turn() -> None:
    state = table()
    hand(state, 0, FILLER, FILLER)
    state.apply(Action("pillar", (key(FILLER),)))
    assert Action("pillar", (key(FILLER),)) not in state.legal_actions()
    with pytest.raises(IllegalActionError):
        state.apply(Action("pillar", (key(FILLER),)))


def test_cards_are_paid_with_ip() -> None:
    state = table(p0=("Stampede of Farmers",))
    hand(state, 0, "Stampede of Farmers")
    state.ip[0] = 2
    assert not [a for a in state.legal_actions() if a.kind == "play"]
    state.ip[0] = 3
    target = ua(state, 1, "Stamp Act")
    state.apply(Action("play", ("stampede-of-farmers", target)))
    assert state.ip[0] == 0


def test_bills_double_their_cost_by_name_and_return_to_hand() -> None:
    state = table(p0=("Census Bill",))
    hand(state, 0, "Census Bill")
    state.ip[0] = 20
    state.apply(Action("play", ("census-bill",)))
    assert state.zone_counts()["resolving"] == 1
    end_turn(state)
    assert any(state.spec(c).name == "Census Bill" for c in state.hand[0])
    assert (
        state.card_cost(0, next(c for c in state.hand[0] if state.spec(c).key == "census-bill"))
        == 4
    )
    end_turn(state)
    state.apply(Action("play", ("census-bill",)))
    end_turn(state)
    bill = next(c for c in state.hand[0] if state.spec(c).key == "census-bill")
    assert state.card_cost(0, bill) == 8
    assert state.observation(0)["players"][0]["bill_costs"] == {"census-bill": 8}


def test_rights_resolve_once_then_discard_and_petitions_stay() -> None:
    state = table(p0=("Right to Harvest", "Petition for Redress"))
    hand(state, 0, "Right to Harvest", "Petition for Redress")
    state.ip[0] = 2
    state.apply(Action("play", ("right-to-harvest",)))
    state.apply(Action("play", ("petition-for-redress",)))
    end_turn(state)
    assert state.lp[0] == 100 + 4 + 1  # the Petition's Each turn gain already counts
    assert [state.spec(c).name for c in state.discard[0]] == ["Right to Harvest"]
    assert [state.spec(c).name for c in state.board[0]] == ["Petition for Redress"]


def test_freedom_pay_x_offers_x_up_to_the_cap() -> None:
    state = table(p0=("Freedom of Petition",))
    freedom = play(state, 0, "Freedom of Petition")
    state.ip[0] = 30
    xs = sorted(a.args[2] for a in state.legal_actions() if a.kind == "activate")
    assert xs == list(range(1, 11))  # X LP at most 10: X above 10 buys nothing
    state.apply(Action("activate", (freedom, 0, 4)))
    assert state.ip[0] == 26
    end_turn(state)
    assert state.lp[0] == 104 and len(state.hand[0]) == 1


def test_turn_structure_an_activated_effect_happens_once_while_its_card_is_in_play() -> None:
    # "TURN STRUCTURE (5 PHASES)": an effect without the Each Turn symbol happens only once;
    # "One-Time Effects": a repeat must be printed. Freedom of the Frontier's "Pay X IP: 2X LP
    # (at most 10)" is used once, not split into several payments a turn; it stays used on the
    # next turn; the card that leaves play and comes back is a new card ("Return to Hand").
    state = table(p0=("Freedom of the Frontier",))
    frontier = play(state, 0, "Freedom of the Frontier")
    state.ip[0] = 20
    state.apply(Action("activate", (frontier, 1, 5)))
    assert not [a for a in state.legal_actions() if a.kind == "activate"]
    end_turn(state)
    assert state.lp[1] == 100 - 3 - 10 and state.ip[0] == 15
    end_turn(state)
    assert state.active == 0 and state.ip[0] == 15
    assert not [a for a in state.legal_actions() if a.kind == "activate"]
    state._leave_play(frontier)
    state.hand[0].append(frontier)
    state.apply(Action("play", ("freedom-of-the-frontier",)))
    assert Action("activate", (frontier, 1, 5)) in state.legal_actions()
    # a locked card offers none ("Lock — Effect Scope")
    state.locks[frontier] = state.turn + 1
    assert not [a for a in state.legal_actions() if a.kind == "activate"]


def test_house_rule_activated_once_per_turn_is_opt_in() -> None:
    # The named house rule lets an activated effect happen once in each of its controller's
    # turns; by the book (Ruling 19) Grist Mill gains its LP once while it is in play.
    for house, again in ((True, True), (False, False)):
        state = table(p0=("Grist Mill",), activated_once_per_turn=house)
        mill = play(state, 0, "Grist Mill")
        state.ip[0] = 10
        state.apply(Action("activate", (mill, 0, 0)))
        assert not [a for a in state.legal_actions() if a.kind == "activate"]
        pass_turn(state)
        assert bool([a for a in state.legal_actions() if a.kind == "activate"]) is again


def test_phase_3_play_phase_an_activation_with_nothing_to_aim_at_is_not_offered() -> None:
    # "Declare targets": Lighthouse Keep's "lock an opponent's Attack card" is not offered while
    # the opponent has no Attack card in play, so no one pays 3 IP for nothing.
    state = table(p0=("Lighthouse Keep",), p1=("Liberty Tree Rally",))
    keep = play(state, 0, "Lighthouse Keep")
    state.ip[0] = 5
    assert not [a for a in state.legal_actions() if a.kind == "activate"]
    rally = play(state, 1, "Liberty Tree Rally")
    assert [a for a in state.legal_actions() if a.kind == "activate"] == [
        Action("activate", (keep, 0, 0, rally))
    ]


# --- Phase 4: Resolve Phase -----------------------------------------------------------------
def test_on_play_effects_resolve_in_resolve_phase() -> None:
    # Ruling 13: declared in the Play Phase, resolved in that turn's Resolve Phase.
    state = table(p0=("Right to Harvest", "Shays' Muster"))
    hand(state, 0, "Right to Harvest", "Shays' Muster")
    state.ip[0] = 10
    state.apply(Action("play", ("right-to-harvest",)))
    state.apply(Action("play", ("shays-muster", ua(state, 1, "Stamp Act"))))
    assert state.lp == [100, 100] and state.dp[ua(state, 1, "Stamp Act")] == 20
    end_turn(state)
    assert state.lp == [104, 100 - 3 - 2]  # drain (Step 3) and the LP loss (Step 5C)
    assert state.dp[ua(state, 1, "Stamp Act")] == 5


def test_resolve_phase_petition_check_comes_before_lp_gain() -> None:
    # Step 6 (Petition Check) sees LP before Step 7 (LP Gain).
    petitions = ("Petition for Redress", "Petition of the Townships", "Grievance Roll")
    state = table(p0=(*petitions, "Sailors' Petition", "Right to Keep a Home"), petitions_needed=4)
    for name in petitions:
        play(state, 0, name)
    for _ in range(3):
        play(state, 0, FILLER)
    hand(state, 0, "Sailors' Petition", "Right to Keep a Home")
    state.ip[0] = 10
    state.lp[0] = 15
    state.apply(Action("play", ("sailors-petition",)))
    state.apply(Action("play", ("right-to-keep-a-home",)))
    end_turn(state)
    assert not state.is_terminal()
    assert state.lp[0] == 15 + 6 + 1 + 2  # Keep a Home, Redress, Grievance Roll (3 Scroll cards)


def test_ua_drain_continues_behind_defense_worked_example() -> None:
    # "Defense Cards vs UAs" example: a 2-drain, 30 DP UA behind a 15 DP Defense.
    state = table(
        p0=("Minuteman Volley", "Volunteer Artillery", "Bell Tower Barrage"),
        p1=("Stone Wall Farmstead",),
        uas1=("Intolerable Acts", "Stamp Act", "Sugar Act"),
    )
    wall = play(state, 1, "Stone Wall Farmstead")
    state.discard[1].append(state.uas[1].pop())
    state.discard[1].append(state.uas[1].pop())
    act = ua(state, 1, "Intolerable Acts")
    pass_turn(state)
    assert state.lp[0] == 98  # the UA drains 2 whatever Defense protects it
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    assert [a.args[1] for a in state.legal_actions() if a.kind == "play"] == [wall]
    state.apply(Action("play", ("minuteman-volley", wall)))
    end_turn(state)
    assert wall in state.discard[1] and state.dp[act] == 30  # Defense first, excess lost
    end_turn(state)
    assert state.lp[0] == 96
    hand(state, 0, "Volunteer Artillery", "Bell Tower Barrage")
    state.ip[0] = 9
    state.apply(Action("play", ("volunteer-artillery", act)))
    state.apply(Action("play", ("bell-tower-barrage", act, act)))
    end_turn(state)
    # 20 + 30 attack damage: the 30 DP UA falls, the last UA is gone: Attack Victory
    assert state.end_reason() == ATTACK_VICTORY and state.winner() == 0


def test_damage_rules_excess_damage_is_lost() -> None:
    # "Damage Rules" example: 20 attack damage on a Defense with 12 DP left: the Defense is
    # destroyed and the 8 extra damage is absorbed by it (no UA is touched).
    state = table(p0=("Stampede of Farmers",), p1=("Stone Wall Farmstead",))
    wall = play(state, 1, "Stone Wall Farmstead")
    state.dp[wall] = 12
    hand(state, 0, "Stampede of Farmers")
    state.ip[0] = 3
    state.apply(Action("play", ("stampede-of-farmers", wall)))
    end_turn(state)
    assert wall in state.discard[1] and wall not in state.board[1]
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]  # the extra 8 is absorbed
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert damage == [
        {"card": "Stampede of Farmers", "target": "Stone Wall Farmstead", "amount": 20}
    ]


def test_defense_rules_survival_example() -> None:
    # "Defense Rules" survival example: Defense has 30 DP; the Attack deals 20 damage and the
    # Attack card is destroyed; the Defense remains, with 10 DP.
    state = table(p0=("Stampede of Farmers",), p1=("Bedrock Redoubt",))
    fort = play(state, 1, "Bedrock Redoubt")
    hand(state, 0, "Stampede of Farmers")
    state.ip[0] = 3
    state.apply(Action("play", ("stampede-of-farmers", fort)))
    stampede = state.board[0][0]
    end_turn(state)
    assert stampede in state.discard[0] and stampede not in state.board[0]
    assert stampede not in state.dp
    assert fort in state.board[1] and state.dp[fort] == 10
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    destroyed = [e.detail["card"] for e in state.event_log() if e.kind == "destroyed"]
    assert destroyed == ["Stampede of Farmers"]


def test_attack_on_attack_worked_example() -> None:
    # "ATTACK ON ATTACK (AoA / Rebel Clash)": AoA costs the Attack's IP + 1; a 20 AD card hits a
    # 10 AD card, both at once ("STEP 2"), bypassing Defense: the 10 AD card is destroyed (and
    # discarded) and the survivor retains 10, dealt in "STEP 4 — ATTACK DAMAGE" (Ruling 26).
    state = table(p0=("Stampede of Farmers",), p1=("Liberty Tree Rally", "Stone Wall Farmstead"))
    theirs = play(state, 1, "Liberty Tree Rally")
    state.locks[theirs] = state.turn + 1  # a lingering Attack card: it did not get to attack
    wall = play(state, 1, "Stone Wall Farmstead")
    hand(state, 0, "Stampede of Farmers")
    state.ip[0] = 3
    assert not [a for a in state.legal_actions() if a.kind == "clash"]
    state.ip[0] = 4
    state.apply(Action("clash", ("stampede-of-farmers", theirs)))
    assert state.ip[0] == 0
    mine = state.board[0][0]
    del state.locks[theirs]
    end_turn(state)
    assert theirs in state.discard[1]
    clash = [e for e in state.event_log() if e.kind == "clash" and "against" in e.detail]
    assert [e.detail for e in clash] == [
        {"card": "Stampede of Farmers", "against": "Liberty Tree Rally"}
    ]
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    # the 10 retained is dealt in Step 4, to the Defense the AoA bypassed
    assert damage == [
        {"card": "Stampede of Farmers", "target": "Stone Wall Farmstead", "amount": 10}
    ]
    assert state.dp[wall] == 5
    assert mine in state.discard[0]  # spent, it is destroyed in Step 5B (Ruling 14)
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]


def test_resolve_step_5b_attack_card_destroyed_after_dealing_its_damage() -> None:
    # Ruling 14: an Attack card deals its damage once, in Step 4 of the turn it is played; spent
    # ("Damage Rules": damage is not split, excess is lost), it is destroyed in Step 5B, as in the
    # "Defense Rules" survival example. It is no target for Attack on Attack afterwards.
    state = table(p0=("Minuteman Volley",), p1=("Stampede of Farmers",))
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    target = ua(state, 1, "Tea Act")
    state.apply(Action("play", ("minuteman-volley", target)))
    volley = state.board[0][0]
    end_turn(state)
    assert state.dp[target] == 5
    assert volley in state.discard[0] and not state.board[0]
    hand(state, 1, "Stampede of Farmers")
    state.ip[1] = 4
    assert not [a for a in state.legal_actions() if a.kind == "clash"]
    end_turn(state)
    end_turn(state)
    assert state.dp[target] == 5


def test_resolve_step_5b_spent_attack_card_fires_when_destroyed() -> None:
    # "Forced Resolution": however a card is destroyed. Overthrow the Governor is destroyed once
    # its 30 damage is dealt, so its When destroyed effect deals 10 to a UA, bypassing Defense.
    state = table(p0=("Overthrow the Governor",), p1=("Bedrock Redoubt",))
    fort = play(state, 1, "Bedrock Redoubt")
    hand(state, 0, "Overthrow the Governor")
    state.ip[0] = 5
    state.apply(Action("play", ("overthrow-the-governor", fort)))
    end_turn(state)
    assert fort in state.discard[1]
    assert sorted(state.dp[c] for c in state.uas[1]) == [10, 20, 20]
    assert [state.spec(c).name for c in state.discard[0]] == ["Overthrow the Governor"]


def test_resolve_step_4_surviving_aoa_damage_of_the_inactive_player() -> None:
    # "STEP 2": surviving Attack cards retain their damage for later steps; "STEP 4" resolves
    # surviving AoA damage, the inactive player's after the active player's (Ruling 26). Player
    # 2's lingering 20 AD card survives a 10 AD clash and deals its 10 to Player 1's Defense.
    state = table(p0=("Liberty Tree Rally", "Stone Wall Farmstead"), p1=("Stampede of Farmers",))
    wall = play(state, 0, "Stone Wall Farmstead")
    theirs = play(state, 1, "Stampede of Farmers")
    state.locks[theirs] = state.turn + 1  # it did not get to attack in Player 2's turn
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 2
    state.apply(Action("clash", ("liberty-tree-rally", theirs)))
    rally = state.board[0][-1]
    del state.locks[theirs]
    end_turn(state)
    assert rally in state.discard[0]
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert damage == [
        {"card": "Stampede of Farmers", "target": "Stone Wall Farmstead", "amount": 10}
    ]
    assert state.dp[wall] == 5
    assert theirs in state.discard[1] and not state.board[1]  # spent, then destroyed
    assert [state.dp[c] for c in state.uas[0]] == [20, 20, 20]


def test_resolve_step_5a_defense_destroyed_only_in_cleanup_so_it_still_guards() -> None:
    # "STEP 4": Defense must be destroyed before UAs may be damaged; "5A" destroys a Defense at
    # 0 DP. A Defense knocked to 0 by a first attack still stands for the rest of Step 4, so a
    # second attack that turn is spent on it, never on a UA ("Defense Rules").
    state = table(p0=("Minuteman Volley", "Stampede of Farmers"), p1=("Stone Wall Farmstead",))
    wall = play(state, 1, "Stone Wall Farmstead")
    hand(state, 0, "Minuteman Volley", "Stampede of Farmers")
    state.ip[0] = 5
    assert [a.args[1] for a in state.legal_actions() if a.kind == "play"] == [wall, wall]
    state.apply(Action("play", ("minuteman-volley", wall)))
    state.apply(Action("play", ("stampede-of-farmers", wall)))
    end_turn(state)
    assert wall in state.discard[1]
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert [d["target"] for d in damage] == ["Stone Wall Farmstead", "Stone Wall Farmstead"]
    assert not state.board[0] and len(state.discard[0]) == 2  # both Attack cards spent


def test_resolve_step_5a_a_fallen_defense_leaves_defense_damage_no_target() -> None:
    # Militia Bill's damage names "an opponent's Defense"; after Minuteman Volley knocks the only
    # Defense to 0 in Step 4, the Bill finds no Defense with DP left and no UA is hit.
    state = table(p0=("Minuteman Volley", "Militia Bill"), p1=("Stone Wall Farmstead",))
    wall = play(state, 1, "Stone Wall Farmstead")
    hand(state, 0, "Minuteman Volley", "Militia Bill")
    state.ip[0] = 6
    state.apply(Action("play", ("minuteman-volley", wall)))
    state.apply(Action("play", ("militia-bill", wall)))
    end_turn(state)
    assert wall in state.discard[1]
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]


@pytest.mark.parametrize(
    ("card", "ip"),
    [("Militia Bill", 4), ("Right to Speak", 2), ("Petition of the Bell Ringers", 5)],
)
def test_attack_damage_resolution_defense_damage_without_a_defense_hits_nothing(
    card: str, ip: int
) -> None:
    # "Attack Damage Resolution": the default (Defense, else a UA) is only for damage whose card
    # names no target; "deal N attack damage to an opponent's Defense" names one, and card text
    # outranks the default ("Effect Targeting and Default Control": no inference). With no
    # Defense in play there is no target: the damage is lost and every UA keeps its DP.
    state = table(p0=(card,))
    state.ip[0] = ip
    if card == "Petition of the Bell Ringers":
        # an activated effect with nothing to aim at is not offered (Ruling 19)
        petition = play(state, 0, card)
        assert state.legal_actions() == [END]
        state.pending.append((0, "effect", petition, 0, (-1,), 0))
        action = END
    else:
        hand(state, 0, card)
        action = Action("play", (key(card), -1))
    assert action in state.legal_actions()
    assert not [a for a in state.legal_actions() if a != action and a != END]
    state.apply(action)
    end_turn(state)
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    assert not [e for e in state.event_log() if e.kind == "damage"]


def test_defense_cards_activation_example_lp_when_attacked_not_on_entering_play() -> None:
    # "Defense Cards Activation" example: "15 Defense. +1 LP if you control a Bell" grants its LP
    # when the Defense is attacked, not when it enters play (Ringing Sentinel is that card).
    state = table(p0=("Minuteman Volley",), p1=("Ringing Sentinel", "Bell Foundry"))
    play(state, 1, "Bell Foundry")
    end_turn(state)
    hand(state, 1, "Ringing Sentinel")
    state.ip[1] = 2
    state.apply(Action("play", ("ringing-sentinel",)))
    lp = state.lp[1]
    end_turn(state)
    sentinel = state.board[1][0]
    assert state.lp[1] == lp and state.dp[sentinel] == 15  # entering play grants nothing
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    state.apply(Action("play", ("minuteman-volley", sentinel)))
    end_turn(state)
    assert state.lp[1] == lp - 3 + 1  # drained 3 (Player 1's UAs), +1 LP when attacked
    assert sentinel in state.discard[1]


def test_attack_targeting_lp_only_when_stated() -> None:
    state = table(p0=("Frontier Ambush",))
    hand(state, 0, "Frontier Ambush")
    state.ip[0] = 2
    state.apply(Action("play", ("frontier-ambush", ua(state, 1, "Tea Act"))))
    end_turn(state)
    assert state.lp[1] == 100 - 3 - 5
    assert state.dp[ua(state, 1, "Tea Act")] == 10


def test_step_four_active_players_damage_first() -> None:
    # Equalization damage of Player 2 resolves after Player 1's damage in the same Step 4.
    state = table(p0=("Minuteman Volley",), p1=("Pitchfork Rabble",))
    rabble = play(state, 1, "Pitchfork Rabble")
    state.pending.append((1, "attack", rabble, -1, (ua(state, 0, "Tea Act"),), 0))
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    state.apply(Action("play", ("minuteman-volley", ua(state, 1, "Tea Act"))))
    end_turn(state)
    events = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert [e["card"] for e in events] == ["Minuteman Volley", "Pitchfork Rabble"]


# --- Locks, blocks, prevention --------------------------------------------------------------
def test_lock_effect_scope_locked_defense_does_not_defend() -> None:
    # Ruling 22: a locked Defense protects nothing, so Attack damage goes past it to a UA.
    state = table(p0=("Seize the Powder",), p1=("Stone Wall Farmstead",))
    wall = play(state, 1, "Stone Wall Farmstead")
    hand(state, 0, "Seize the Powder")
    state.ip[0] = 3
    state.apply(Action("play", ("seize-the-powder", wall, wall)))
    end_turn(state)
    assert state.dp[wall] == 15 and state.is_locked(wall)
    assert sorted(state.dp[c] for c in state.uas[1]) == [5, 20, 20]


def test_lock_lasts_until_end_of_controllers_next_turn() -> None:
    # Tariff Relief Bill locks an opponent's Defense and an opponent's Freedom card.
    state = table(
        p0=("Tariff Relief Bill",), p1=("Stone Wall Farmstead", "Freedom of the Frontier")
    )
    wall = play(state, 1, "Stone Wall Farmstead")
    frontier = play(state, 1, "Freedom of the Frontier")
    hand(state, 0, "Tariff Relief Bill")
    state.ip[0] = 3
    state.apply(Action("play", ("tariff-relief-bill", wall, frontier)))
    end_turn(state)  # turn 1 (Player 1): the locks apply in Step 1
    assert state.is_locked(wall) and state.is_locked(frontier)
    state.ip[1] = 10
    assert not [a for a in state.legal_actions() if a.kind == "activate"]
    end_turn(state)  # turn 2 is Player 2's next turn; the locks end with it
    assert not state.is_locked(wall) and not state.is_locked(frontier)


def test_lock_and_core_rule_effects_locked_ua_still_drains() -> None:
    state = table(uas1=("Writs of Assistance", "Stamp Act", "Sugar Act"))
    writs = ua(state, 1, "Writs of Assistance")
    hand(state, 0, FILLER, FILLER, FILLER)
    end_turn(state)
    state.locks[writs] = state.turn  # locked for Player 2's turn
    before = len(state.hand[0])
    end_turn(state)
    assert state.lp[0] == 100 - 4  # the drain is a core rule effect
    assert len(state.hand[0]) == before + 1  # the trait (random discard) is suppressed


def test_block_opponents_discard_effects() -> None:
    state = table(p0=("Pamphlet Storm",), p1=("Charter Vault",))
    play(state, 1, "Charter Vault")
    hand(state, 1, FILLER, FILLER)
    hand(state, 0, "Pamphlet Storm")
    state.ip[0] = 3
    vault = state.board[1][0]
    state.apply(Action("play", ("pamphlet-storm", vault)))
    end_turn(state)
    assert len(state.hand[1]) == 3  # two held plus the card drawn; nothing discarded


def test_block_opponents_each_turn_effects() -> None:
    state = table(
        p0=("Remonstrance of the Assembly",),
        uas1=("Boston Port Act", "Stamp Act", "Sugar Act"),
    )
    play(state, 0, "Remonstrance of the Assembly")
    end_turn(state)
    discard = len(state.discard[0])
    end_turn(state)
    assert len(state.discard[0]) == discard  # Boston Port Act's mill did not resolve


def test_block_opponents_lock_effects() -> None:
    state = table(
        p0=("Seize the Powder",), p1=("Stone Wall Farmstead", "Petition for a Bill of Rights")
    )
    wall = play(state, 1, "Stone Wall Farmstead")
    play(state, 1, "Petition for a Bill of Rights")
    hand(state, 0, "Seize the Powder")
    state.ip[0] = 3
    state.apply(Action("play", ("seize-the-powder", wall, wall)))
    end_turn(state)
    assert not state.is_locked(wall) and wall in state.discard[1]


def test_prevention_of_ua_drain_each_turn() -> None:
    state = table(p0=("Olive Branch Petition",))
    play(state, 0, "Olive Branch Petition")
    end_turn(state)
    end_turn(state)
    assert state.lp[0] == 100 - 2


def test_prevention_from_any_source_until_your_next_turn() -> None:
    state = table(p0=("Right of Self-Defense",), p1=("Land Ordinance Bill",))
    hand(state, 0, "Right of Self-Defense")
    state.ip[0] = 2
    state.apply(Action("play", ("right-of-self-defense",)))
    end_turn(state)
    hand(state, 1, "Land Ordinance Bill")
    state.ip[1] = 4
    state.apply(Action("play", ("land-ordinance-bill",)))
    end_turn(state)
    assert state.lp[0] == 100 + 4 - 3 - 5  # 4 of the 8 LP lost are prevented
    end_turn(state)
    end_turn(state)
    assert state.lp[0] == 96 - 3  # the prevention is gone on the next turn


def test_modify_ua_drain() -> None:
    state = table(
        p0=("Hall of Independence",), uas1=("Proclamation Line", "Stamp Act", "Sugar Act")
    )
    play(state, 0, "Hall of Independence")
    end_turn(state)
    end_turn(state)
    assert state.lp[0] == 100 - (2 + 1 + 1 + 1 - 1)


# --- Each Turn, Defense activation, Forced Resolution -----------------------------------------
def test_each_turn_fires_only_on_controllers_turn() -> None:
    # Ruling 4.
    state = table(p0=("Petition for Redress",))
    play(state, 0, "Petition for Redress")
    end_turn(state)
    assert state.lp[0] == 101
    end_turn(state)
    assert state.lp[0] == 101 - 3  # the opponent's turn: drain, no Each turn gain


def test_when_attacked_needs_assigned_damage() -> None:
    # Ruling 9: damage assigned to the Defense triggers it; a locked Defense takes no Attack
    # damage and does not trigger.
    state = table(p0=("Liberty Tree Rally", "Talon Strike"), p1=("Hardy Settlers",))
    settlers = play(state, 1, "Hardy Settlers")
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", settlers)))
    end_turn(state)
    assert state.lp[1] == 100 - 3 + 2
    end_turn(state)
    state.locks[settlers] = state.turn + 1
    lp = state.lp[1]
    hand(state, 0, "Talon Strike")
    state.ip[0] = 2
    state.apply(Action("play", ("talon-strike", ua(state, 1, "Tea Act"))))
    end_turn(state)
    assert state.lp[1] == lp - 3 and state.dp[settlers] == 5


def test_forced_resolution_on_destroyed_attack() -> None:
    # Ruling 10: Breach the Battlements' "Discard this card" is fulfilled by its destruction, here
    # in Attack on Attack: Player 1's Breach lingers (it was locked when it would have attacked).
    state = table(p0=("Breach the Battlements",), p1=("Buffalo Charge", "Stone Wall Farmstead"))
    play(state, 1, "Stone Wall Farmstead")
    end_turn(state)
    breach = play(state, 0, "Breach the Battlements")
    hand(state, 1, "Buffalo Charge")
    state.ip[1] = 5
    state.apply(Action("clash", ("buffalo-charge", breach)))
    end_turn(state)
    assert breach in state.discard[0]
    # 10 attack damage to a UA of Player 2, bypassing the Defense
    assert sorted(state.dp[c] for c in state.uas[1]) == [10, 20, 20]


def test_forced_resolution_when_a_spent_attack_card_is_destroyed() -> None:
    # Ruling 14: Breach the Battlements is destroyed in Step 5B once its 15 damage is dealt, and
    # that destruction fulfils "Discard this card": 10 attack damage to a UA, bypassing Defense.
    state = table(p0=("Breach the Battlements",), p1=("Bedrock Redoubt",))
    redoubt = play(state, 1, "Bedrock Redoubt")
    hand(state, 0, "Breach the Battlements")
    state.ip[0] = 3
    state.apply(Action("play", ("breach-the-battlements", redoubt)))
    end_turn(state)
    assert [state.spec(c).name for c in state.discard[0]] == ["Breach the Battlements"]
    assert state.dp[redoubt] == 15
    assert sorted(state.dp[c] for c in state.uas[1]) == [10, 20, 20]


def test_defense_activation_timing_fortress_exiles_its_attacker_before_step_5b() -> None:
    # "Defense Activation Timing": Fortress of the Heights is attacked when Breach the
    # Battlements' damage is assigned to it, and its When attacked effect resolves then (Ruling
    # 25), while the attacker is still in play: exiled, Breach is never destroyed, so its
    # Forced Resolution does not happen ("Forced Resolution": not from exile).
    state = table(p0=("Breach the Battlements",), p1=("Fortress of the Heights",))
    fortress = play(state, 1, "Fortress of the Heights")
    hand(state, 0, "Breach the Battlements")
    state.ip[0] = 3
    state.apply(Action("play", ("breach-the-battlements", fortress)))
    breach = state.board[0][-1]
    end_turn(state)
    assert state.exile[0] == [breach] and not state.discard[0]
    assert state.dp[fortress] == 15
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    assert total_cards(state) == 120


def test_defense_activation_timing_customs_cordon_locks_the_next_attacker() -> None:
    # Customs Cordon's When attacked lock resolves as soon as Minuteman Volley's damage is
    # assigned to it, before the next Attack card deals damage (Ruling 25). Its controller picks
    # which Attack card (Ruling 36) and locks Stampede of Farmers, which then deals none: the
    # Stone Wall Farmstead it was declared against keeps its 15 DP ("Lock — Effect Scope").
    state = table(
        p0=("Minuteman Volley", "Stampede of Farmers"),
        p1=("Customs Cordon", "Stone Wall Farmstead"),
    )
    cordon = play(state, 1, "Customs Cordon")
    wall = play(state, 1, "Stone Wall Farmstead")
    hand(state, 0, "Minuteman Volley", "Stampede of Farmers")
    state.ip[0] = 5
    state.apply(Action("play", ("minuteman-volley", cordon)))
    state.apply(Action("play", ("stampede-of-farmers", wall)))
    volley, stampede = state.board[0][-2:]
    state.apply(END)
    assert state.phase == "choose" and state.current_player() == 1
    assert {a.args[0] for a in state.legal_actions()} == {volley, stampede}
    state.apply(Action("choose", (stampede,)))
    assert cordon in state.discard[1] and state.dp[wall] == 15
    assert state.is_locked(stampede) and stampede in state.board[0]
    assert volley in state.discard[0]
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert damage == [{"card": "Minuteman Volley", "target": "Customs Cordon", "amount": 15}]


def test_forced_resolution_not_from_exile() -> None:
    # Fortress of the Heights, attacked, exiles an opponent's Attack card in Step 4 (Ruling 25);
    # its controller's pick (here the default, the one with most damage left) is the lingering
    # Breach the Battlements: exile is no destruction, so Breach's discard effect does not resolve.
    state = table(
        p0=("Breach the Battlements", "Minuteman Volley"), p1=("Fortress of the Heights",)
    )
    fortress = play(state, 1, "Fortress of the Heights")
    breach = play(state, 0, "Breach the Battlements")
    state.locks[breach] = state.turn + 1
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    state.apply(Action("play", ("minuteman-volley", fortress)))
    end_turn(state)
    assert state.exile[0] == [breach]
    assert [state.spec(c).name for c in state.discard[0]] == ["Minuteman Volley"]
    assert state.dp[fortress] == 15
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    assert total_cards(state) == 120


def test_when_destroyed_effect() -> None:
    state = table(p0=("Stampede of Farmers",), p1=("Old Brick Rampart",))
    rampart = play(state, 1, "Old Brick Rampart")
    state.dp[rampart] = 5
    hand(state, 0, "Stampede of Farmers")
    state.ip[0] = 3
    state.apply(Action("play", ("stampede-of-farmers", rampart)))
    end_turn(state)
    assert rampart in state.discard[1]
    assert sorted(state.dp[c] for c in state.uas[0]) == [10, 20, 20]


def test_exile_and_return_to_hand_leave_play() -> None:
    state = table(
        p0=("Forged Decree Exposed", "Attainder Prohibition Bill"),
        p1=("Log Palisade", "Bedrock Redoubt"),
    )
    palisade = play(state, 1, "Log Palisade")
    watch = play(state, 1, "Bedrock Redoubt")
    state.dp[palisade] = 3
    hand(state, 0, "Forged Decree Exposed", "Attainder Prohibition Bill")
    state.ip[0] = 6
    state.apply(Action("play", ("forged-decree-exposed", watch, palisade)))
    end_turn(state)
    assert palisade in state.hand[1] and palisade not in state.dp  # left play: damage gone
    end_turn(state)
    state.ip[0] = 4
    state.apply(Action("play", ("attainder-prohibition-bill", watch)))
    end_turn(state)
    assert watch in state.exile[1]


def test_controller_not_owner_and_no_self_harm() -> None:
    # Every harmful action names an opponent target: the engine only offers the rival's cards.
    state = table(p0=("Right of Conscience", "Stone Wall Farmstead"), p1=("Log Palisade",))
    mine = play(state, 0, "Stone Wall Farmstead")
    theirs = play(state, 1, "Log Palisade")
    hand(state, 0, "Right of Conscience")
    state.ip[0] = 3
    targets = {a.args[1] for a in state.legal_actions() if a.kind == "play"}
    assert targets == {theirs} and mine not in targets


# --- VICTORY CONDITIONS (4 TOTAL) -----------------------------------------------------------
def test_lp_victory_is_counted_at_end_phase() -> None:
    state = table(p0=("Land Ordinance Bill",))
    state.lp[1] = 7
    hand(state, 0, "Land Ordinance Bill")
    state.ip[0] = 4
    state.apply(Action("play", ("land-ordinance-bill",)))
    state.apply(END)
    assert state.end_reason() == LP_VICTORY and state.winner() == 0
    assert state.lp[1] == 7 - 3 - 5


def test_lp_victory_active_player_wins_simultaneous_outcomes() -> None:
    state = table()
    state.lp = [0, 3]
    end_turn(state)
    assert state.winner() == 0 and state.end_reason() == LP_VICTORY


def test_attack_victory_is_instant_with_exile() -> None:
    state = table(p0=("Impeachment Bill",))
    for _ in range(2):
        state.exile[1].append(state.uas[1].pop())
    hand(state, 0, "Impeachment Bill")
    state.ip[0] = 6
    state.lp[0] = -5  # would lose at the End Phase, but Attack Victory comes first
    state.apply(Action("play", ("impeachment-bill", state.uas[1][0])))
    end_turn(state)
    assert state.end_reason() == ATTACK_VICTORY and state.winner() == 0


def test_attack_victory_simultaneous_last_uas_active_player_wins() -> None:
    # Both last UAs fall in the same Step 5B: "If multiple occur simultaneously, active player wins."
    state = table(p0=("Liberty Tree Rally",), p1=("Toll of Liberty",))
    for player in (0, 1):
        for _ in range(2):
            state.discard[player].append(state.uas[player].pop())
    toll = play(state, 1, "Toll of Liberty")
    state.pending.append((1, "attack", toll, -1, (state.uas[0][0],), 0))
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", state.uas[1][0])))
    state.dp[state.uas[0][0]] = 10
    state.dp[state.uas[1][0]] = 10
    end_turn(state)
    assert not state.uas[0] and not state.uas[1]
    assert state.end_reason() == ATTACK_VICTORY and state.winner() == 0


def test_petition_victory_checked_in_step_six() -> None:
    # Ruling 18: N Petitions, 3 Scroll Pillars and LP of 20 or more in Step 6; N from the setup.
    petitions = ("Petition for Redress", "Petition of the Townships", "Grievance Roll")
    state = table(p0=(*petitions, "Sailors' Petition"), petitions_needed=3)
    for name in petitions:
        play(state, 0, name)
    play(state, 0, FILLER)
    play(state, 0, FILLER)
    end_turn(state)
    assert not state.is_terminal()  # only two Scroll Pillars
    end_turn(state)
    play(state, 0, FILLER)
    state.locks[state.board[0][0]] = state.turn + 1  # a locked Petition does not count
    end_turn(state)
    assert not state.is_terminal()
    end_turn(state)
    end_turn(state)
    assert state.end_reason() == PETITION_VICTORY and state.winner() == 0


def test_petition_victory_default_needs_four() -> None:
    state = table(p0=("Petition for Redress", "Petition of the Townships", "Grievance Roll"))
    for name in ("Petition for Redress", "Petition of the Townships", "Grievance Roll"):
        play(state, 0, name)
    for _ in range(3):
        play(state, 0, FILLER)
    end_turn(state)
    assert not state.is_terminal()


def test_turn_limit_ends_the_game_drawn() -> None:
    state = table(turn_limit=3)
    for _ in range(3):
        end_turn(state)
    assert state.is_terminal() and state.end_reason() == TURN_LIMIT
    assert state.returns() == [0.0, 0.0] and state.winner() is None


# --- End Phase ------------------------------------------------------------------------------
def test_end_phase_discards_to_seven_and_straightens() -> None:
    state = table()
    hand(state, 0, *[FILLER] * 9)
    state.apply(END)
    assert state.phase == "discard" and state.current_player() == 0
    assert state.legal_actions() == [Action("discard", (key(FILLER),))]
    state.apply(state.legal_actions()[0])
    state.apply(state.legal_actions()[0])
    assert state.active == 1 and len(state.hand[0]) == 7


def test_registered_and_imperfect_information() -> None:
    game = get_game("revolt-n-reign")
    assert isinstance(game, RevoltNReignGame)
    assert game.metadata()["information"] == "imperfect"


# --- Prevention timing, the inactive player's decisions (issue 16, breaches 5-7) ---------------
SEDITION = ("Sedition Act", "Stamp Act", "Sugar Act")


def _destroy_sedition_act(state: RevoltState) -> None:
    """Player 1 destroys the opponent's Sedition Act this turn: its When destroyed costs them 3 LP."""
    sedition = ua(state, 1, "Sedition Act")
    state.dp[sedition] = 5
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] += 1
    state.apply(Action("play", ("liberty-tree-rally", sedition)))


def test_six_simple_player_example_prevention_until_your_next_turn_is_spent_once() -> None:
    # "prevent up to 4 LP loss ... until your next turn" is one allowance of 4 over the whole
    # duration (Ruling 28), not 4 again on the opponent's turn.
    state = table(p0=("Right of Self-Defense", "Liberty Tree Rally"), uas1=SEDITION)
    hand(state, 0, "Right of Self-Defense")
    state.ip[0] = 2
    state.apply(Action("play", ("right-of-self-defense",)))
    _destroy_sedition_act(state)
    end_turn(state)
    assert state.lp[0] == 100  # the 3 LP of Sedition Act are prevented; 1 of the 4 is left
    end_turn(state)
    assert state.lp[0] == 100 - (2 - 1)  # the drain of 2 meets the 1 left


def test_turn_structure_static_prevention_applies_on_the_opponents_turn_as_printed() -> None:
    # Bedrock Redoubt prints "prevent up to 2 LP loss ... on each opponent's turn": not on its
    # controller's own turn ("TURN STRUCTURE (5 PHASES)": Each Turn means the controller's turn).
    state = table(p0=("Bedrock Redoubt", "Liberty Tree Rally"), uas1=SEDITION)
    play(state, 0, "Bedrock Redoubt")
    _destroy_sedition_act(state)
    end_turn(state)
    assert state.lp[0] == 100 - 3
    end_turn(state)
    assert state.lp[0] == 100 - 3  # the drain of 2 on the opponent's turn is prevented


def test_who_may_interact_freedom_of_thought_prevents_lp_loss() -> None:
    # "2. WHO MAY INTERACT (CRITICAL DISTINCTION)": before the opponent's Resolve Phase the
    # inactive player may activate abilities; Freedom of Thought's "this turn" then covers the
    # opponent's UA drain ("6. SIMPLE PLAYER EXAMPLE (GUIDE-READY)").
    state = table(p0=("Freedom of Thought",))
    thought = play(state, 0, "Freedom of Thought")
    end_turn(state)
    state.ip[0] = 1
    assert state.active == 1
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 0
    state.apply(Action("activate", (thought, 0, 1)))
    state.apply(END)
    assert state.lp[0] == 100 - (3 - 2)


def test_who_may_interact_lock_reaches_an_attack_card_before_it_attacks() -> None:
    # A lock aimed at "an opponent's Attack card" can reach one just played, not only one that
    # already attacked; "Lock — Effect Scope": a locked card cannot attack.
    state = table(p0=("Liberty Tree Rally",), p1=("Lighthouse Keep",))
    keep = play(state, 1, "Lighthouse Keep")
    state.ip[1] = 3
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    stamp = ua(state, 1, "Stamp Act")
    state.apply(Action("play", ("liberty-tree-rally", stamp)))
    rally = state.board[0][-1]
    state.apply(END)
    assert state.current_player() == 1
    assert Action("activate", (keep, 0, 0, rally)) in state.legal_actions()
    state.apply(Action("activate", (keep, 0, 0, rally)))
    state.apply(END)
    assert state.dp[stamp] == 20 and state.is_locked(rally)


def test_phase_3_play_phase_look_at_the_hand_the_looker_chooses() -> None:
    # "look at the opponent's hand and discard 1": the card's controller picks the card.
    state = table(p0=("Right of Inquiry",), p1=("Minuteman Volley", "Stampede of Farmers"))
    hand(state, 0, "Right of Inquiry")
    hand(state, 1, "Minuteman Volley", "Stampede of Farmers")
    state.ip[0] = 2
    state.apply(Action("play", ("right-of-inquiry",)))
    state.apply(END)
    assert state.phase == "choose" and state.current_player() == 0
    assert set(state.legal_actions()) == {
        Action("choose", ("minuteman-volley",)),
        Action("choose", ("stampede-of-farmers",)),
    }
    view = state.determinise(0, Rng(3))
    assert sorted(view.hand[1]) == sorted(state.hand[1])  # what the looker sees stays put
    state.apply(Action("choose", ("minuteman-volley",)))
    assert [state.spec(c).name for c in state.discard[1]] == ["Minuteman Volley"]
    assert "Stampede of Farmers" in [state.spec(c).name for c in state.hand[1]]
    assert state.phase == "play" and state.active == 1


def test_forced_resolution_when_destroyed_target_is_the_controllers_choice() -> None:
    # Old Brick Rampart is destroyed on its controller's opponent's turn; "deal 10 attack damage
    # to an opponent's UA" is its controller's choice, so the inactive player decides.
    state = table(p0=("Liberty Tree Rally",), p1=("Old Brick Rampart",))
    rampart = play(state, 1, "Old Brick Rampart")
    state.dp[rampart] = 5
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", rampart)))
    state.apply(END)
    assert state.phase == "choose" and state.current_player() == 1
    assert {a.args[0] for a in state.legal_actions()} == set(state.uas[0])
    tea = ua(state, 0, "Tea Act")
    state.apply(Action("choose", (tea,)))
    assert state.dp[tea] == 10 and state.active == 1


def test_phase_3_play_phase_declared_targets_are_not_re_aimed() -> None:
    # "Declare targets": a target declared in the Play Phase that has left play by the time its
    # action resolves is not swapped for another; that action does nothing.
    state = table(
        p0=("Right of Conscience", "Right to Own Property"),
        p1=("Customs Cordon", "Old Brick Rampart"),
    )
    cordon = play(state, 1, "Customs Cordon")
    rampart = play(state, 1, "Old Brick Rampart")
    hand(state, 0, "Right of Conscience", "Right to Own Property")
    state.ip[0] = 6
    state.apply(Action("play", ("right-of-conscience", cordon)))
    state.apply(Action("play", ("right-to-own-property", cordon)))
    end_turn(state)
    assert cordon in state.discard[1] and rampart in state.board[1]


def test_rulings_are_numbered_once_in_order() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs/rules/revolt-n-reign.md").read_text()
    rulings = doc[doc.index("## Rulings") :]
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", rulings, flags=re.MULTILINE)]
    assert numbers == list(range(1, len(numbers) + 1))


# --- issue 27: rulings of round 3 ---------------------------------------------------------------
def test_damage_rules_a_declared_ua_keeps_the_damage_and_the_excess_is_lost() -> None:
    # "Damage Rules": damage from one source goes to one target and the excess is lost; a UA is
    # destroyed in Step 5B, after Step 4, and a target "previously declared" is not swapped.
    # Two Attack cards declared at Tea Act: the first brings it to 0, the second's 15 go to it
    # too and are lost. The other UAs keep their DP, and the game goes on (no Attack Victory).
    state = table(p0=("Stampede of Farmers", "Minuteman Volley"))
    tea = ua(state, 1, "Tea Act")
    hand(state, 0, "Stampede of Farmers", "Minuteman Volley")
    state.ip[0] = 5
    state.apply(Action("play", ("stampede-of-farmers", tea)))
    state.apply(Action("play", ("minuteman-volley", tea)))
    end_turn(state)
    damage = [e.detail for e in state.event_log() if e.kind == "damage"]
    assert [(d["card"], d["target"], d["amount"]) for d in damage] == [
        ("Stampede of Farmers", "Tea Act", 20),
        ("Minuteman Volley", "Tea Act", 15),
    ]
    assert tea in state.discard[1]
    assert [state.spec(c).name for c in state.uas[1]] == ["Stamp Act", "Sugar Act"]
    assert [state.dp[c] for c in state.uas[1]] == [20, 20]
    assert state.result is None and state.active == 1


def test_attack_damage_resolution_the_attacking_player_assigns_a_held_back_attack() -> None:
    # "Attack Damage Resolution": the attacking player assigns the damage. Player 2's Stampede
    # of Farmers, held back by a lock (Ruling 14), deals its damage in Player 1's Step 4; it has
    # no declared target, so Player 2 chooses which of Player 1's UAs takes it.
    state = table(p1=("Stampede of Farmers",))
    stampede = play(state, 1, "Stampede of Farmers")
    state.apply(END)
    assert state.phase == "choose" and state.current_player() == 1
    assert state.observation(1)["choosing"] == {
        "player": 1,
        "what": "assign",
        "card": "Stampede of Farmers",
    }
    assert {a.args[0] for a in state.legal_actions()} == set(state.uas[0])
    sugar = ua(state, 0, "Sugar Act")
    state.apply(Action("choose", (sugar,)))
    assert sugar in state.discard[0] and stampede in state.discard[1]
    assert [state.dp[c] for c in state.uas[0]] == [20, 20]


def test_attack_damage_resolution_a_locked_declared_defense_is_reassigned_by_the_attacker() -> None:
    # Ruling 22: a locked Defense protects nothing. Player 1 declares Minuteman Volley at Stone
    # Wall Farmstead and locks it with Tariff Relief Bill (Step 1); the declared target is no
    # longer legal in Step 4, so Player 1 (not the engine) picks one of the other Defenses.
    state = table(
        p0=("Minuteman Volley", "Tariff Relief Bill"),
        p1=("Stone Wall Farmstead", "Bedrock Redoubt", "Old Brick Rampart"),
    )
    wall = play(state, 1, "Stone Wall Farmstead")
    redoubt = play(state, 1, "Bedrock Redoubt")
    rampart = play(state, 1, "Old Brick Rampart")
    hand(state, 0, "Minuteman Volley", "Tariff Relief Bill")
    state.ip[0] = 5
    state.apply(Action("play", ("minuteman-volley", wall)))
    state.apply(Action("play", ("tariff-relief-bill", wall, -1)))
    state.apply(END)
    assert state.phase == "choose" and state.current_player() == 0
    assert {a.args[0] for a in state.legal_actions()} == {redoubt, rampart}
    state.apply(Action("choose", (rampart,)))
    assert state.dp[wall] == 15 and state.dp[redoubt] == 30 and state.dp[rampart] == 15


def test_who_may_interact_the_inactive_player_only_locks_blocks_prevents_or_alters() -> None:
    # "2. WHO MAY INTERACT (CRITICAL DISTINCTION)": the opponent's cards may lock, block,
    # modify, redirect, prevent or alter what the Resolve Phase does. Player 2 may answer Player
    # 1's attack with Lighthouse Keep (lock an Attack card) or Frontier Stockade (prevent LP
    # loss), not with Federal Courthouse (mill) or Belfry Tower (damage to a UA).
    names = ("Lighthouse Keep", "Frontier Stockade", "Federal Courthouse", "Belfry Tower")
    state = table(p0=("Liberty Tree Rally",), p1=names)
    keep, stockade, courthouse, belfry = (play(state, 1, name) for name in names)
    state.ip[1] = 20
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", ua(state, 1, "Stamp Act"))))
    rally = state.board[0][-1]
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    assert state.legal_actions() == [
        Action("activate", (keep, 0, 0, rally)),
        Action("activate", (stockade, 0, 0)),
        END,
    ]
    # with nothing to answer, ending the Play Phase goes straight to the Resolve Phase
    quiet = table(p1=("Federal Courthouse", "Belfry Tower"))
    for name in ("Federal Courthouse", "Belfry Tower"):
        play(quiet, 1, name)
    quiet.ip[1] = 20
    quiet.apply(END)
    assert quiet.active == 1 and quiet.phase == "play"
    assert {courthouse, belfry} <= set(state.pillars[1])


def test_forced_resolution_rebel_clash_vanguard_when_destroyed_damages_a_defense() -> None:
    # Rebel Clash Vanguard (errata 2026-12-01): spent after its 15 damage, it is destroyed in
    # Step 5B and its When destroyed effect deals 5 attack damage to an opponent's Defense.
    state = table(p0=("Rebel Clash Vanguard",), p1=("Stone Wall Farmstead", "Bedrock Redoubt"))
    wall = play(state, 1, "Stone Wall Farmstead")
    redoubt = play(state, 1, "Bedrock Redoubt")
    hand(state, 0, "Rebel Clash Vanguard")
    state.ip[0] = 2
    state.apply(Action("play", ("rebel-clash-vanguard", wall)))
    end_turn(state)
    assert wall in state.discard[1] and state.dp[redoubt] == 25
    assert [state.spec(c).name for c in state.discard[0]] == ["Rebel Clash Vanguard"]


def test_house_rules_are_named_in_words_and_petitions_needed_is_one() -> None:
    # Rules variants are named opt-in options (Ruling 41): the Petition count other than the
    # book's 4 and the once-a-turn activations are house rules, and reports say so in words.
    from rules.engines.revolt_n_reign.plugin import RevoltNReignPlugin

    words = RevoltNReignPlugin().words
    assert words.house_rules_in({}) == []
    assert words.house_rules_in({"petitions_needed": 4, "activated_once_per_turn": False}) == []
    named = words.house_rules_in({"petitions_needed": 3, "activated_once_per_turn": True})
    assert len(named) == 2
    assert "3 Petitions" in named[0] and "house rule" in named[0]
    assert "once per turn" in named[1] and "house rule" in named[1]


def test_lock_questions_a_locked_card_may_still_be_targeted_and_destroyed() -> None:
    # The questions after "Lock" in "2. WHO MAY INTERACT": a locked card can be targeted and
    # destroyed ("Lock does not grant immunity"); the other two answers (when a lock ends, a
    # locked UA still drains) are pinned by the lock tests above.
    state = table(p0=("Habeas Corpus Bill",), p1=("Stone Wall Farmstead",))
    wall = play(state, 1, "Stone Wall Farmstead")
    state.locks[wall] = state.turn + 1
    hand(state, 0, "Habeas Corpus Bill")
    state.ip[0] = 10
    assert Action("play", ("habeas-corpus-bill", wall)) in state.legal_actions()
    state.apply(Action("play", ("habeas-corpus-bill", wall)))
    end_turn(state)
    assert wall in state.discard[1] and not state.is_locked(wall)


def test_defense_cards_activation_example_an_on_play_defense_effect_needs_no_attack() -> None:
    # "Defense Cards Activation", second example: a Defense whose text says it acts when it
    # enters play does so without being attacked. Foundry Gate's +1 IP comes in the turn it is
    # played, with no Attack in sight; its DP is untouched.
    state = table(p0=("Foundry Gate",))
    hand(state, 0, "Foundry Gate")
    state.ip[0] = 3
    state.apply(Action("play", ("foundry-gate",)))
    assert state.ip[0] == 0
    gate = state.board[0][-1]
    end_turn(state)
    assert state.ip[0] == 1 and state.dp[gate] == 20
    assert not [e for e in state.event_log() if e.kind == "damage"]


def test_rulebook_examples_table_names_tests_that_exist() -> None:
    # docs/rules/revolt-n-reign.md lists every worked example with the tests that pin it; a
    # renamed or removed test must not leave the table pointing at nothing.
    import importlib

    root = Path(__file__).resolve().parents[2]
    doc = (root / "docs/rules/revolt-n-reign.md").read_text()
    table_text = doc[doc.index("## The rulebook's worked examples") :]
    rows = [line for line in table_text.splitlines() if line.startswith('| "')]
    assert len(rows) >= 19
    for row in rows:
        cited = re.findall(r"`((?:tests/[\w/]+\.py)?)::(test_\w+)`", row)
        assert cited, row
        for path, name in cited:
            module_path = path or "tests/rules/test_revolt_n_reign.py"
            module = importlib.import_module(module_path[:-3].replace("/", "."))
            assert callable(getattr(module, name, None)), f"{module_path}::{name}"


def test_lock_effect_scope_a_held_back_attack_deals_its_damage_when_unlocked() -> None:
    # Ruling 14 fills a gap the book leaves: Player 2's response locks Player 1's Liberty Tree
    # Rally on turn 1; it cannot attack then nor on turn 3 (the lock lasts through its
    # controller's next turn), and deals its 10 in Step 4 of turn 4, Player 2's turn, as the
    # inactive player's damage, where Player 1 assigns it.
    state = table(p0=("Liberty Tree Rally",), p1=("Lighthouse Keep",))
    keep = play(state, 1, "Lighthouse Keep")
    state.ip[1] = 3
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    stamp = ua(state, 1, "Stamp Act")
    state.apply(Action("play", ("liberty-tree-rally", stamp)))
    rally = state.board[0][-1]
    state.apply(END)
    state.apply(Action("activate", (keep, 0, 0, rally)))
    state.apply(END)
    assert state.turn == 2 and state.is_locked(rally)
    end_turn(state)  # turn 2, Player 2's
    end_turn(state)  # turn 3, Player 1's: still locked, no damage
    assert state.turn == 4 and not state.is_locked(rally)
    assert [state.dp[c] for c in state.uas[1]] == [20, 20, 20]
    state.apply(END)  # turn 4: Player 1's held-back card deals its 10, Player 1 assigns it
    assert state.phase == "choose" and state.current_player() == 0
    sugar = ua(state, 1, "Sugar Act")
    state.apply(Action("choose", (sugar,)))
    assert state.dp[sugar] == 10 and rally in state.discard[0]
