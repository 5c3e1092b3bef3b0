"""The Rival Realms engine: one test group per rulebook section, hidden information, playouts.

Hand-built positions come from ``realms()``: each player's cards named zone by zone (the last
card of a draw deck is its top), the active player's window open in the named phase. Rulings in
``docs/rules/rival-realms.md`` name the tests that pin them.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import GreedyAgent, MCTSAgent, RandomAgent
from rules.agents.base import Agent
from rules.engines.core import Action, IllegalActionError, Rng, SetupError, get_game
from rules.engines.rival_realms import (
    RealmsState,
    RivalRealmsGame,
    build_deck,
    fixture_decks,
    fixture_records,
)
from rules.engines.rival_realms.cards import CardDataError, card_specs
from rules.engines.rival_realms.decklists import (
    COST_SHARE,
    MAX_PREREQUISITES,
    MAX_REINFORCE,
    SUPPLY_CARDS,
    deck_problems,
    parse_decklist,
)
from rules.engines.rival_realms.state import (
    ALL_OUT_TURN,
    CARD_REASON,
    DRAW_REASON,
    FORECAST_WIN,
    LIFE_REASON,
    LIMIT_REASON,
    STALEMATE_REASON,
)
from rules.services import agent_spec

GAME = RivalRealmsGame()
END = Action("end")
PASS = Action("pass")
REASONS = (CARD_REASON, DRAW_REASON, LIFE_REASON, LIMIT_REASON, STALEMATE_REASON)


# --- building positions --------------------------------------------------------------------
def realms(
    p0: dict[str, list[str]],
    p1: dict[str, list[str]],
    active: int = 0,
    phase: str = "deploy",
    game: RivalRealmsGame = GAME,
) -> RealmsState:
    """Name each player's cards zone by zone (hand, field, draw, discard, lost)."""
    table: list[Any] = []
    owner: list[int] = []
    places: list[tuple[int, str, int]] = []
    for seat, layout in enumerate((p0, p1)):
        for zone, names in layout.items():
            for name in names:
                places.append((seat, zone, len(table)))
                table.append(game.by_name[name])
                owner.append(seat)
    state = RealmsState(game, 0, tuple(table), tuple(owner))
    state.turn_limit = 200
    for seat, zone, card in places:
        getattr(state, zone)[seat].append(card)
    state.active = state.window = active
    state.phase = phase
    return state


def keys(state: RealmsState, cards: list[int]) -> list[str]:
    return [state.table[c].key for c in cards]


def slot(state: RealmsState, seat: int, key: str) -> int:
    return keys(state, state.field[seat]).index(key)


def total(state: RealmsState) -> int:
    return sum(state.zone_counts().values())


def to_combat(state: RealmsState, *attackers: str) -> None:
    """From the deploy window: select the named attackers and declare the attack."""
    state.apply(END)
    for key in attackers:
        state.apply(Action("attack", (key, slot(state, state.active, key))))
    state.apply(END)


def block(state: RealmsState, blocker: str, attacker: str) -> None:
    seat = state.current_player()
    state.apply(
        Action(
            "block",
            (blocker, slot(state, seat, blocker), attacker, slot(state, 1 - seat, attacker)),
        )
    )


# --- the game box and setup (§Setup) ---------------------------------------------------------
def test_registered_by_slug_with_hidden_information() -> None:
    game = get_game("rival-realms")
    assert isinstance(game, RivalRealmsGame)
    assert game.metadata()["information"] == "imperfect"
    assert (game.min_players, game.max_players) == (2, 2)


def test_builtin_records_are_the_fixture_cards() -> None:
    assert GAME.records == tuple(fixture_records())
    assert len(GAME.specs) == 71 and sum(s.copies for s in GAME.specs) == 208


def test_records_the_engine_cannot_run_are_refused_by_name() -> None:
    broken = [dict(r) for r in fixture_records()]
    broken[0] = {**broken[0], "effects": [{"ability": "on_play", "do": [{"op": "teleport"}]}]}
    with pytest.raises(CardDataError, match="teleport"):
        card_specs(broken)


def test_sample_decklists_parse_without_django_and_are_legal() -> None:
    decks = fixture_decks()
    assert len(decks) >= 2
    for deck in decks.values():
        assert deck_problems(deck, GAME.specs) == []
    assert parse_decklist("# x\n[Unit]\n2 Militia\n1 Militia\n") == {"Militia": 3}


@settings(max_examples=80, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**32))
def test_built_decks_are_legal_and_can_pay_their_way(seed: int) -> None:
    """A built deck (the third sample setup's, and any game's fallback) can play its cards: a
    prerequisite of each is in the deck (§`Playing a card's cost`), and so is a card a cost
    takes from the field (an archer for Volley Captain's); its supply cards bring more supply
    than its other cards cost; and few of its cards can leave a hand only in a combat."""
    deck = build_deck(GAME.specs, seed)
    assert deck == build_deck(GAME.specs, seed)  # reproducible by its seed
    assert deck_problems(deck, GAME.specs) == []
    specs = {name: GAME.by_name[name] for name in deck}
    supply = sum(spec.supply * deck[name] for name, spec in specs.items() if spec.type == "supply")
    costs = sum(spec.cost * deck[name] for name, spec in specs.items() if spec.type != "supply")
    assert costs <= supply * COST_SHARE
    assert sum(deck[name] for name, spec in specs.items() if spec.type == "supply") >= SUPPLY_CARDS
    reinforce = sum(deck[name] for name, spec in specs.items() if spec.type == "reinforce")
    assert reinforce <= MAX_REINFORCE
    realms = {prerequisite for spec in specs.values() for prerequisite in spec.prerequisites}
    assert realms <= set(deck) and len(realms) <= MAX_PREREQUISITES
    for name, spec in specs.items():
        for paid in spec.additional_costs:
            if paid["pay"] in ("discard_from_field", "lose_from_field"):
                assert any(
                    other != name
                    and other_spec.type == paid.get("card_type", other_spec.type)
                    and paid.get("subtype", "") in ("", *other_spec.subtypes)
                    and paid.get("name", other) == other
                    for other, other_spec in specs.items()
                ), (name, paid)


def test_setup_shuffles_deals_seven_and_starts_at_twenty_life() -> None:
    state = GAME.new_initial_state(4, GAME.example_setups()[0])
    assert [len(h) for h in state.hand] == [7, 7]
    assert [len(d) for d in state.draw] == [33, 33]
    assert state.life == [20, 20] and state.supply == [0, 0]
    assert state.current_player() == 0 and state.phase == "deploy"
    decks = GAME.example_setups()[0]["decks"]
    for seat in (0, 1):  # each player's 40 cards are their own deck, shuffled, 7 of them in hand
        cards = [state.table[c].name for c in state.hand[seat] + state.draw[seat]]
        assert {name: cards.count(name) for name in set(cards)} == decks[seat]
        assert {state.owner[c] for c in state.hand[seat] + state.draw[seat]} == {seat}
    hands = {tuple(sorted(keys(s, s.hand[0]))) for s in map(GAME.new_initial_state, range(6))}
    assert len(hands) > 1  # shuffled: the opening hand depends on the game's seed
    firsts = {GAME.new_initial_state(seed).first_player() for seed in range(12)}
    assert firsts == {0, 1}  # decided at random when the setup does not say (the coin flip)
    assert GAME.new_initial_state(4, GAME.example_setups()[1]).first_player() == 1


def test_setup_refuses_illegal_decks() -> None:
    deck = dict(GAME.sample_decks()[0])
    short = {**deck, "Market Toll": deck.get("Market Toll", 0) - 1}
    with pytest.raises(SetupError, match="40 cards"):
        GAME.new_initial_state(0, {"decks": [short, deck]})
    with pytest.raises(SetupError, match="copies"):
        GAME.new_initial_state(0, {"decks": [deck, {"Grand Castle": 2, "Grain Tithe": 38}]})
    with pytest.raises(SetupError, match="not a card"):
        GAME.new_initial_state(0, {"decks": [deck, {"Dragon": 1, "Grain Tithe": 39}]})


# --- Supply (§Supply Cards, §Supply) ---------------------------------------------------------
def test_supply_is_played_at_any_time_and_returns_to_zero_at_the_end_of_each_turn() -> None:
    state = realms(
        {"field": ["Militia"], "hand": ["Grain Tithe"], "draw": ["Timber Levy"] * 8},
        {"field": ["Tower Guard"], "hand": ["Iron Tribute"], "draw": ["Timber Levy"] * 8},
    )
    state.apply(Action("supply", ("grain-tithe",)))  # §Supply Cards: into the discard pile
    assert state.supply == [1, 0] and keys(state, state.discard[0]) == ["grain-tithe"]
    to_combat(state, "militia")
    assert state.current_player() == 1  # the defender's window, in the rival's turn
    state.apply(Action("supply", ("iron-tribute",)))
    assert state.supply == [1, 2] and keys(state, state.discard[1]) == ["iron-tribute"]
    assert state.observation(0)["discard_decks"][1] == ["iron-tribute"]  # face up
    state.apply(END)  # no block
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    assert state.life[1] == 19  # the unblocked Militia
    assert state.supply == [1, 2]  # unspent supply lasts until the end of the turn
    state.apply(END)  # redraw
    assert state.active == 1 and state.supply == [0, 0]  # both players' supply, not only one


# --- Playing a card's cost (§Playing a card's cost) ------------------------------------------
def test_cost_and_prerequisites_are_needed_and_prerequisites_are_not_used_up() -> None:
    state = realms({"hand": ["Spearmen", "Iron Tribute"]}, {"hand": []})
    state.apply(Action("supply", ("iron-tribute",)))
    assert Action("play", ("spearmen",)) not in state.legal_actions()  # no Barracks
    state = realms({"hand": ["Spearmen", "Grain Tithe"], "field": ["Barracks"]}, {"hand": []})
    state.apply(Action("supply", ("grain-tithe",)))
    assert Action("play", ("spearmen",)) not in state.legal_actions()  # 1 supply of 2
    state.supply[0] = 2
    state.apply(Action("play", ("spearmen",)))
    assert keys(state, state.field[0]) == ["barracks", "spearmen"] and state.supply[0] == 0


def test_a_card_cannot_both_meet_a_prerequisite_and_pay_a_cost() -> None:
    extra = {
        "name": "Palisade Works",
        "type": "realm",
        "subtypes": ["fortification"],
        "rarity": "common",
        "set": "RR1",
        "copies_in_set": 1,
        "cost": 0,
        "stats": {
            "prerequisites": ["Palisade"],
            "additional_costs": [
                {"pay": "lose_from_field", "card_type": "realm", "name": "Palisade", "count": 1}
            ],
        },
        "effects": [],
    }
    game = RivalRealmsGame([*fixture_records(), extra])
    state = realms({"hand": ["Palisade Works"], "field": ["Palisade"]}, {}, game=game)
    assert Action("play", ("palisade-works",)) not in state.legal_actions()
    state = realms({"hand": ["Palisade Works"], "field": ["Palisade", "Palisade"]}, {}, game=game)
    state.apply(Action("play", ("palisade-works",)))
    assert state.legal_actions() == [Action("pay", ("palisade", 0)), Action("pay", ("palisade", 1))]
    state.apply(Action("pay", ("palisade", 0)))
    assert keys(state, state.field[0]) == ["palisade", "palisade-works"]
    assert keys(state, state.lost[0]) == ["palisade"]


def test_additional_costs_from_hand_field_and_life() -> None:
    state = realms({"hand": ["Heavy Knights", "Militia", "Tower Guard"], "field": ["Stables"]}, {})
    state.supply[0] = 5
    state.apply(Action("play", ("heavy-knights",)))
    assert state.legal_actions() == [Action("pay", ("militia",)), Action("pay", ("tower-guard",))]
    state.apply(Action("pay", ("militia",)))
    assert keys(state, state.discard[0]) == ["militia"]
    assert keys(state, state.field[0]) == ["stables", "heavy-knights"]

    state = realms({"hand": ["Dragon Rider"], "field": ["Dragon Roost", "Scout Rider"]}, {})
    state.supply[0] = 7
    state.apply(Action("play", ("dragon-rider",)))
    state.apply(Action("pay", ("scout-rider", 1)))
    assert keys(state, state.lost[0]) == ["scout-rider"]

    state = realms({"hand": ["Archmage"], "field": ["Mage Tower"], "draw": ["Militia"] * 3}, {})
    state.supply[0] = 6
    state.life[0] = 3
    state.apply(Action("play", ("archmage",)))
    assert state.life[0] == 1 and len(state.hand[0]) == 2  # on deploy: draw 2


def test_winning_a_life_cost_may_be_paid_down_to_zero_and_then_loses() -> None:
    """Ruling 17 (§`Playing a card's cost`, §`Winning`): the rulebook sets no floor on paying
    life; a payment that brings its payer to 0 is allowed, and that player has lost."""
    state = realms({"hand": ["Archmage"], "field": ["Mage Tower"], "draw": ["Militia"] * 3}, {})
    state.supply[0] = 6
    state.life[0] = 2
    state.apply(Action("play", ("archmage",)))
    assert state.is_terminal() and state.life[0] == 0
    assert state.end_reason() == LIFE_REASON and state.returns() == [-1.0, 1.0]


def test_units_in_combat_cannot_pay_costs() -> None:
    state = realms(
        {"field": ["Militia", "Tower Guard"], "hand": ["Heroic Sacrifice"]},
        {"field": ["Dire Bear"]},
    )
    to_combat(state, "militia")
    state.apply(END)  # no block
    state.supply[0] = 1
    state.apply(Action("play", ("heroic-sacrifice",)))
    assert state.legal_actions() == [Action("pay", ("tower-guard", 1))]
    state.apply(Action("pay", ("tower-guard", 1)))
    assert keys(state, state.lost[1]) == ["dire-bear"]  # 5 damage to a 4-defense unit


# --- Deploy and permanents (§Deploy, §Permanent cards, §Unit Cards) ---------------------------
def test_realms_and_units_only_in_their_owners_deploy_phase() -> None:
    state = realms(
        {"field": ["Militia"], "hand": ["Tower Guard", "Palisade"]},
        {"field": ["Militia"], "hand": ["Tower Guard"]},
    )
    state.supply = [5, 5]
    assert {Action("play", ("tower-guard",)), Action("play", ("palisade",))} <= set(
        state.legal_actions()
    )
    to_combat(state, "militia")
    assert not any(a.kind == "play" for a in state.legal_actions())  # the defender
    state.apply(END)
    assert not any(a.kind == "play" for a in state.legal_actions())  # the reinforce phase


def test_abilities_are_used_in_their_phases_and_never_sacrifice_a_unit_in_combat() -> None:
    state = realms(
        {"field": ["Hedge Witch", "Mage Tower"], "draw": ["Militia"] * 6},
        {"field": ["Palisade", "Tower Guard"]},
    )
    state.supply[0] = 3
    uses = {a.args for a in state.legal_actions() if a.kind == "use"}
    assert uses == {("hedge-witch", 0, 0), ("mage-tower", 1, 0)}
    state.apply(END)
    state.apply(Action("attack", ("hedge-witch", 0)))
    uses = {a.args for a in state.legal_actions() if a.kind == "use"}
    assert uses == {("mage-tower", 1, 0)}  # the attacking Witch cannot discard herself
    state.apply(END)
    assert Action("use", ("palisade", 0, 0)) in state.legal_actions()  # Defend - for p1 now
    block(state, "tower-guard", "hedge-witch")
    state.apply(Action("use", ("palisade", 0, 0)))
    guard = state.field[1][0]
    assert state.defense_of(guard) == 5 and keys(state, state.discard[1]) == ["palisade"]


def test_triggers_fire_on_deploy_attack_block_and_turn_start() -> None:
    state = realms(
        {"hand": ["Crossbow Sharpshooter"], "field": ["Archery Range", "Berserker"]},
        {"field": ["War Hounds", "Tower Guard", "Gold Mine", "Wolf Pack"]},
    )
    state.supply[0] = 4
    state.apply(Action("play", ("crossbow-sharpshooter",)))
    assert state.current_player() == 0 and state.tasks[0][0] == "choose"
    state.apply(Action("target", ("war-hounds", 0)))
    assert keys(state, state.lost[1]) == ["war-hounds"]  # 2 damage to a 1-defense unit
    state.apply(END)
    berserker = state.field[0][1]
    state.apply(Action("attack", ("berserker", 1)))
    assert state.attack_of(berserker) == 5
    state.apply(END)
    block(state, "wolf-pack", "berserker")
    assert state.attack_of(state.field[1][2]) == 3
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    state.apply(END)  # redraw; Player 1's turn starts with the Gold Mine
    assert state.active == 1 and state.supply == [0, 1]


# --- Combat (§Combat, §Attack, §Defend, §Reinforce, §Resolve) ---------------------------------
def test_reinforce_actions_alternate_from_the_attacker_until_both_pass_in_a_row() -> None:
    state = realms(
        {"field": ["Militia", "War Hounds"], "hand": ["Iron Tribute", "Flanking Charge"]},
        {"field": ["Tower Guard"], "hand": ["Grain Tithe", "Raise Shields"]},
    )
    to_combat(state, "militia", "war-hounds")
    block(state, "tower-guard", "militia")
    state.apply(END)
    assert state.phase == "reinforce" and state.current_player() == 0
    state.apply(Action("supply", ("iron-tribute",)))
    assert state.current_player() == 0  # supply is not a reinforce action
    state.apply(Action("play", ("flanking-charge",)))
    state.apply(Action("target", ("war-hounds", 1)))
    assert state.current_player() == 1
    state.apply(PASS)
    assert state.current_player() == 0 and state.phase == "reinforce"
    state.apply(PASS)  # the defender passed, then the attacker: both in a row
    assert state.phase == "resolve_attacker" and state.current_player() == 0


def test_reinforce_ends_after_two_passes_in_a_row() -> None:
    state = realms(
        {"field": ["Militia"]}, {"field": ["Tower Guard"], "hand": ["Raise Shields", "Grain Tithe"]}
    )
    to_combat(state, "militia")
    state.apply(END)
    state.apply(PASS)
    state.apply(Action("supply", ("grain-tithe",)))
    state.apply(Action("play", ("raise-shields",)))  # one unit only: chosen at once
    assert state.current_player() == 0 and state.passes == 0
    state.apply(PASS)
    state.apply(PASS)
    assert state.phase == "resolve_attacker"


@pytest.mark.parametrize(("to_militia", "militia_lost"), [(3, True), (2, False)])
def test_the_attacker_divides_damage_and_only_damage_over_defense_loses_a_unit(
    to_militia: int, militia_lost: bool
) -> None:
    state = realms(
        {"field": ["Lancer Squadron", "War Hounds"]},
        {"field": ["Militia", "Tower Guard"]},
    )
    to_combat(state, "lancer-squadron", "war-hounds")
    block(state, "militia", "lancer-squadron")
    block(state, "tower-guard", "lancer-squadron")
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    assert state.current_player() == 0 and state.tasks[0][0] == "assign"
    assert len(state.legal_actions()) == 5  # 0..4 of the Lancers' 4 attack to the Militia
    state.apply(Action("assign", ("militia", 0, to_militia)))
    assert state.life == [20, 17]  # the unblocked War Hounds
    assert keys(state, state.lost[1]) == (["militia"] if militia_lost else [])
    assert sorted(keys(state, state.discard[1])) == sorted(
        ["tower-guard"] + ([] if militia_lost else ["militia"])
    )
    # 1 + 1 damage to the Lancers' 3 defense: discarded, not lost; so are the Hounds
    assert sorted(keys(state, state.discard[0])) == ["lancer-squadron", "war-hounds"]
    assert state.field == [[], []] and state.phase == "redraw"


def test_resolve_attacker_divides_attack_among_blockers() -> None:
    """§`Resolve`: the attacker splits the Dire Bear's 4 attack over its three blockers as it
    likes (one amount per blocker in blocking order, the last takes the rest); the unblocked
    War Hounds hit the player; every unit that took part then leaves, lost or discarded."""
    state = realms(
        {"field": ["Dire Bear", "War Hounds"]},
        {"field": ["Militia", "Tower Guard", "Archer Recruits"]},
    )
    to_combat(state, "dire-bear", "war-hounds")
    assert state.phase == "defend" and state.current_player() == 1
    for blocker in ("militia", "tower-guard", "archer-recruits"):
        block(state, blocker, "dire-bear")
    state.apply(END)
    assert state.phase == "reinforce" and state.current_player() == 0
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    assert state.phase == "resolve_defender" and state.current_player() == 1
    state.apply(END)
    assert state.current_player() == 0
    assert state.legal_actions() == [Action("assign", ("militia", 0, n)) for n in range(5)]
    state.apply(Action("assign", ("militia", 0, 3)))
    assert state.legal_actions() == [Action("assign", ("tower-guard", 1, n)) for n in range(2)]
    assert state.life == [20, 20]  # no damage until the whole attack is divided
    state.apply(Action("assign", ("tower-guard", 1, 0)))  # the Archer Recruits take the last 1
    assert state.life == [20, 17]
    assert keys(state, state.lost[1]) == ["militia"]  # 3 damage over its 2 defense
    assert sorted(keys(state, state.discard[1])) == ["archer-recruits", "tower-guard"]
    assert sorted(keys(state, state.discard[0])) == ["dire-bear", "war-hounds"]  # 3 on the Bear
    assert state.lost[0] == [] and state.field == [[], []] and state.phase == "redraw"


def test_resolve_all_damage_happens_simultaneously() -> None:
    """§`Resolve`: the Spearmen lost to the War Hounds still deal their damage, so both units are
    lost; the unblocked Militia's damage to the player comes in the same step."""
    state = realms({"field": ["War Hounds", "Militia"]}, {"field": ["Spearmen"]})
    to_combat(state, "war-hounds", "militia")
    block(state, "spearmen", "war-hounds")
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)  # one blocker each: nothing to divide
    assert keys(state, state.lost[0]) == ["war-hounds"]  # 2 damage over its 1 defense
    assert keys(state, state.lost[1]) == ["spearmen"]  # 3 damage over its 2 defense
    assert keys(state, state.discard[0]) == ["militia"] and state.life == [20, 19]


def test_combat_the_active_player_may_choose_not_to_attack() -> None:
    """§`Combat`, §`Turn Sequence`: with no attacker selected there is no Defend, Reinforce or
    Resolve; the turn goes from Attack to Redraw and the units stay on the field."""
    state = realms({"field": ["Militia"], "draw": ["Grain Tithe"] * 7}, {"field": ["Tower Guard"]})
    state.apply(END)
    assert state.phase == "attack" and state.current_player() == 0
    state.apply(END)
    assert state.phase == "redraw" and state.current_player() == 0
    assert keys(state, state.field[0]) == ["militia"] and state.life == [20, 20]
    state.apply(END)
    assert state.active == 1 and len(state.hand[0]) == 7


def test_reinforce_cards_are_played_only_in_the_reinforce_phase() -> None:
    """§`Reinforce cards`: by either player, in the Reinforce subphase and no other."""
    state = realms(
        {"field": ["Militia"], "hand": ["Rally Cry"]},
        {"field": ["Tower Guard"], "hand": ["Raise Shields"]},
    )
    state.supply = [5, 5]
    assert Action("play", ("rally-cry",)) not in state.legal_actions()  # deploy
    state.apply(END)
    assert Action("play", ("rally-cry",)) not in state.legal_actions()  # attack
    state.apply(Action("attack", ("militia", 0)))
    state.apply(END)
    assert Action("play", ("raise-shields",)) not in state.legal_actions()  # defend
    block(state, "tower-guard", "militia")
    state.apply(END)
    assert Action("play", ("rally-cry",)) in state.legal_actions()  # reinforce, the attacker
    state.apply(PASS)
    assert Action("play", ("raise-shields",)) in state.legal_actions()  # and the defender


def test_once_reinforce_cards_are_lost_and_discard_ones_discarded_after_resolve() -> None:
    state = realms(
        {"field": ["Dire Bear"], "hand": ["Ambush"]},
        {"field": ["Wolf Pack"], "hand": ["Battle Fury", "Royal Coffers"]},
    )
    to_combat(state, "dire-bear")
    block(state, "wolf-pack", "dire-bear")
    state.apply(END)
    state.supply[0] = 2
    state.apply(Action("play", ("ambush",)))  # 2 damage to the Wolf Pack (3 defense)
    state.apply(Action("supply", ("royal-coffers",)))
    state.apply(Action("play", ("battle-fury",)))
    assert keys(state, state.combat_cards) == ["ambush", "battle-fury"]
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    # Wolf Pack 2 + 1 (blocks) + 2 (Battle Fury) = 5 against the Bear's 4 defense: lost.
    assert keys(state, state.lost[0]) == ["dire-bear"]
    assert "ambush" in keys(state, state.discard[0])
    assert sorted(keys(state, state.lost[1])) == ["battle-fury", "wolf-pack"]


def test_resolve_judges_every_unit_before_any_leaves() -> None:
    """§`Resolve`: all damage at once, then the units that took part leave at once, so the
    Veteran Sergeant's +1 defense still counts for the Spearmen judged with it."""
    state = realms(
        {"field": ["Veteran Sergeant", "Spearmen"]},
        {"field": ["Heavy Knights", "Battle Mage"]},
    )
    to_combat(state, "veteran-sergeant", "spearmen")
    block(state, "heavy-knights", "veteran-sergeant")  # 5 damage to the Sergeant's 3 + 1
    block(state, "battle-mage", "spearmen")  # 3 damage to the Spearmen's 2 + 1
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    assert keys(state, state.lost[0]) == ["veteran-sergeant"]
    assert keys(state, state.discard[0]) == ["spearmen"]  # 3 is not over 3: discarded, not lost
    assert state.field == [[], []]


def test_unit_cards_a_unit_is_lost_when_a_static_defense_bonus_leaves() -> None:
    """§`Unit Cards`: a unit is lost once its damage is over its defense, also when that happens
    because a card giving it defense left the field (Scorched Earth on the Stone Keep)."""
    state = realms(
        {"field": ["Lancer Squadron"], "hand": ["Scorched Earth"]},
        {"field": ["Stone Keep", "Spearmen", "Militia"]},
    )
    to_combat(state, "lancer-squadron")
    block(state, "militia", "lancer-squadron")
    state.apply(END)
    spearmen = state.field[1][1]
    state.damage[spearmen] = 3  # e.g. a Battle Mage's 3 damage: equal to its 2 + 1, it stays
    state.supply[0] = 4
    state.apply(Action("play", ("scorched-earth",)))  # the only realm: the Stone Keep
    assert "stone-keep" in keys(state, state.lost[1])
    assert "spearmen" in keys(state, state.lost[1])  # 3 damage over its printed 2 defense
    assert keys(state, state.field[1]) == ["militia"]


# --- Redraw and the draw deck (§Redraw, §The Playing Area) -----------------------------------
def test_redraw_fills_the_hand_to_seven_and_reshuffles_only_an_empty_deck() -> None:
    # §Redraw: the active player draws from the top of the draw deck (the list's end) up to 7,
    # then the rival's turn begins; §The Playing Area: the discard deck stays where it is.
    draw = ["Tower Guard"] * 6 + ["Barracks"] * 4
    state = realms(
        {"hand": ["Militia"] * 3, "draw": draw, "discard": ["Farmland"] * 5},
        {"field": ["Militia"], "hand": ["Grain Tithe"], "draw": ["Militia"] * 3},
        phase="redraw",
    )
    state.apply(END)
    assert sorted(keys(state, state.hand[0])) == ["barracks"] * 4 + ["militia"] * 3
    assert len(state.draw[0]) == 6 and len(state.discard[0]) == 5
    assert state.active == 1 and state.phase == "deploy" and not state.is_terminal()
    assert len(state.hand[1]) == 1  # only the active player redraws
    # a draw deck that runs out exactly is not yet replaced (ruling 19): no card was wanted
    state = realms(
        {"hand": ["Militia"] * 3, "draw": ["Tower Guard"] * 4, "discard": ["Barracks"] * 5},
        {"field": ["Militia"]},
        phase="redraw",
    )
    state.apply(END)
    assert len(state.hand[0]) == 7 and state.draw[0] == [] and len(state.discard[0]) == 5
    state = realms(
        {"hand": ["Militia"] * 3, "draw": ["Tower Guard"] * 2, "discard": ["Barracks"] * 5},
        {},
        phase="redraw",
    )
    state.apply(END)
    assert len(state.hand[0]) == 7 and len(state.draw[0]) == 3 and state.discard[0] == []
    assert sorted(keys(state, state.hand[0] + state.draw[0])) == sorted(
        ["militia"] * 3 + ["tower-guard"] * 2 + ["barracks"] * 5
    )  # the two Tower Guards first, then two of the reshuffled Barracks


# --- Winning (§Winning) ----------------------------------------------------------------------
def test_life_at_zero_loses_at_once() -> None:
    state = realms({"field": ["Catapult Crew"]}, {})
    state.supply[0] = 2
    state.life[1] = 2
    state.apply(Action("use", ("catapult-crew", 0, 0)))
    assert state.is_terminal() and state.end_reason() == LIFE_REASON
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []


def test_winning_life_below_zero_ends_the_game_at_once() -> None:
    """§`Winning`: 0 *or less*; the game ends in the damage step, before the Redraw."""
    state = realms({"field": ["Dire Bear"], "hand": ["Militia"], "draw": ["Militia"] * 6}, {})
    state.life[1] = 3
    to_combat(state, "dire-bear")
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    state.apply(END)
    assert state.life[1] == -1 and state.is_terminal()
    assert state.end_reason() == LIFE_REASON and state.winner() == 0
    assert state.returns() == [1.0, -1.0] and state.legal_actions() == []
    assert len(state.hand[0]) == 1  # no Redraw happened


def test_a_card_victory_happens_the_moment_its_condition_is_met() -> None:
    realms_on_field = [
        "Crown of Seven Realms",
        "Barracks",
        "Stables",
        "Palisade",
        "Farmland",
        "Harbor",
    ]
    state = realms({"field": realms_on_field, "hand": ["Archery Range"]}, {})
    state.supply[0] = 2
    state.apply(Action("play", ("archery-range",)))
    assert state.end_reason() == CARD_REASON and state.winner() == 0


def test_both_players_winning_at_once_is_a_draw() -> None:
    """Ruling 8: the same damage step empties Player 1's life and fills Player 0's lost deck
    to the 15 cards Player 1's Siege Camp asks for."""
    state = realms(
        {"field": ["War Hounds", "Militia"], "lost": ["Tower Guard"] * 14},
        {"field": ["Siege Camp", "Dire Bear"]},
    )
    state.life[1] = 3
    to_combat(state, "war-hounds", "militia")
    block(state, "dire-bear", "militia")
    state.apply(END)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(END)
    assert not state.is_terminal()
    state.apply(END)
    assert state.life[1] == 0 and len(state.lost[0]) == 15
    assert state.end_reason() == DRAW_REASON and state.returns() == [0.0, 0.0]


def test_redraw_locked_hands_on_both_sides_are_a_stalemate() -> None:
    """Ruling 21 (§`Redraw`, §`Supply`): seven cards no one can pay for, no unit, no ability:
    nothing can ever change, so the game ends as a stalemate (a draw), not at the turn limit."""
    state = realms({"hand": ["Dragon Rider"] * 7}, {"hand": ["Dragon Rider"] * 7})
    state.tasks = [("start_turn", 0)]
    state.settle()
    assert state.end_reason() == STALEMATE_REASON and state.returns() == [0.0, 0.0]


@pytest.mark.parametrize(
    "extra",
    [
        {"p0": {"hand": ["Dragon Rider"] * 6 + ["Grain Tithe"]}},  # a supply card can be played
        {"p0": {"hand": ["Dragon Rider"] * 7, "field": ["Militia"]}},  # a unit can attack
        {"p1": {"hand": ["Dragon Rider"] * 6, "draw": ["Militia"]}},  # a hand short of seven
        {"p1": {"hand": ["Dragon Rider"] * 7, "field": ["Farmland"]}},  # discard it for supply
    ],
)
def test_redraw_no_stalemate_while_someone_can_still_act(extra: dict) -> None:
    lock = {"hand": ["Dragon Rider"] * 7}
    state = realms(extra.get("p0", lock), extra.get("p1", lock))
    state.tasks = [("start_turn", 0)]
    state.settle()
    assert not state.is_terminal()
    assert realms(lock, lock).stalemate()
    assert not house(realms(lock, lock)).stalemate()  # the house rule can change a hand


def test_the_turn_limit_ends_a_game_in_a_draw() -> None:
    state = GAME.new_initial_state(3, {"turn_limit": 2})
    agent = RandomAgent(3)
    while not state.is_terminal():
        state.apply(agent.act(state))
    assert state.end_reason() == LIMIT_REASON and state.returns() == [0.0, 0.0]
    assert state.turn == 3


# --- effects that reach the rival ------------------------------------------------------------
def test_the_rival_chooses_what_to_discard() -> None:
    state = realms({"field": ["Spy Network"]}, {"hand": ["Militia", "Fireball"]})
    state.supply[0] = 2
    state.apply(Action("use", ("spy-network", 0, 0)))
    assert state.current_player() == 1
    assert state.legal_actions() == [
        Action("discard", ("fireball",)),
        Action("discard", ("militia",)),
    ]
    state.apply(Action("discard", ("fireball",)))
    assert keys(state, state.discard[1]) == ["fireball"] and state.current_player() == 0


def test_a_card_returned_from_the_discard_pile_is_known_to_the_rival() -> None:
    state = realms({"field": ["Shrine of Ancestors"], "discard": ["Militia"]}, {}, phase="redraw")
    state.apply(Action("use", ("shrine-of-ancestors", 0, 0)))
    state.apply(Action("return", ("militia",)))
    assert state.observation(1)["rival_known_in_hand"] == ["militia"]


# --- hidden information ----------------------------------------------------------------------
def test_no_observation_leaks_hidden_cards() -> None:
    """Two states that differ only in what player 0 cannot see look the same to player 0."""
    layouts = [
        (["Fireball", "Militia"], ["Grain Tithe", "Barracks", "Stables"]),
        (["Royal Coffers", "Grand Castle"], ["Stables", "Ambush", "Militia"]),
    ]
    views = set()
    for hand, draw in layouts:
        state = realms(
            {
                "hand": ["Militia", "Palisade"],
                "draw": ["Barracks", "Militia"],
                "field": ["Farmland"],
            },
            {"hand": hand, "draw": draw, "field": ["Tower Guard"], "discard": ["Ambush"]},
        )
        views.add(json.dumps(state.observation(0), sort_keys=True))
        assert state.observation(1)["hand"] == sorted(keys(state, state.hand[1]))
    assert len(views) == 1


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.integers(0, 2))
def test_determinise_keeps_everything_the_player_sees(seed: int, table: int) -> None:
    setup = GAME.example_setups()[table]
    state = GAME.new_initial_state(seed, setup)
    agents: list[Agent] = [GreedyAgent(seed, max_nodes=50), RandomAgent(seed)]
    rng = Rng(seed)
    while not state.is_terminal() and len(state.history) < 300:
        for player in (0, 1):
            other = state.determinise(player, rng)
            assert other.observation(player) == state.observation(player)
            assert other.zone_counts() == state.zone_counts()
        state.apply(agents[state.current_player()].act(state))


# --- playouts and the engine contract --------------------------------------------------------
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.integers(0, 2), agent_seed=st.integers(0, 2**16))
def test_random_playouts_keep_every_card_and_end_properly(
    seed: int, table: int, agent_seed: int
) -> None:
    setup = GAME.example_setups()[table]
    state = GAME.new_initial_state(seed, setup)
    assert total(state) == 80
    agent = RandomAgent(agent_seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions and len(actions) == len(set(actions))
        state.apply(agent.act(state))
        assert total(state) == 80
        assert min(state.supply) >= 0
    assert state.legal_actions() == [] and state.end_reason() in REASONS
    json.dumps(state.observation(1))
    assert GAME.replay(seed, setup, [a for _, a in state.history]).key() == state.key()


def test_illegal_actions_are_refused() -> None:
    state = realms({"hand": ["Dire Bear"]}, {})
    with pytest.raises(IllegalActionError):
        state.apply(Action("play", ("dire-bear",)))  # no supply


def test_same_seed_same_game_whatever_the_global_random_module_does() -> None:
    def run(noise: bool) -> tuple:
        state = GAME.new_initial_state(9)
        agents: list[Agent] = [RandomAgent(1), GreedyAgent(2, max_nodes=100)]
        while not state.is_terminal():
            if noise:
                random.random()
            state.apply(agents[state.current_player()].act(state))
        return state.key(), [str(a) for _, a in state.history]

    assert run(False) == run(True)


def test_clone_is_independent() -> None:
    state = GAME.new_initial_state(8)
    before = state.key()
    copy = state.clone()
    agent = RandomAgent(3)
    while not copy.is_terminal():
        copy.apply(agent.act(copy))
    assert state.key() == before


def test_greedy_and_mcts_agents_finish_games() -> None:
    state = GAME.new_initial_state(2, {"turn_limit": 30})
    agents: list[Agent] = [
        MCTSAgent(1, iterations=4, rollout_limit=40),
        GreedyAgent(2, max_nodes=100),
    ]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].act(state))
    assert state.end_reason() in REASONS


def test_rulings_name_engine_tests_that_exist() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "rival-realms.md").read_text()
    named = set(re.findall(r"tests/rules/test_rival_realms\.py::(test_\w+)", doc))
    assert named, "the rulings cite no engine test"
    assert not {name for name in named if name not in globals()}


# --- the Redraw discard (ruling 23: §Redraw, §The Playing Area, §Discarding cards) ------------
def house(state: RealmsState) -> RealmsState:
    """The position with the ``redraw_discard`` house rule on."""
    state.redraw_discard = True
    return state


def discards(state: RealmsState) -> list[str]:
    return [str(a.args[0]) for a in state.legal_actions() if a.kind == "discard"]


def test_the_redraw_discard_is_open_only_to_the_active_player_in_redraw() -> None:
    hand = ["Militia", "Militia", "Grain Tithe", "Stone Keep"]
    state = house(realms({"hand": hand, "field": ["War Hounds"]}, {"hand": ["Militia"]}))
    assert discards(state) == []  # deploy
    to_combat(state, "war-hounds")
    assert state.current_player() == 1 and discards(state) == []  # the defender, in Defend
    state.apply(END)
    for _ in range(4):  # reinforce (both pass), then the two halves of Resolve
        assert discards(state) == []
        state.apply(PASS if state.phase == "reinforce" else END)
    assert state.phase == "redraw" and state.current_player() == 0
    assert discards(state) == ["grain-tithe", "militia", "stone-keep"]
    assert state.legal_actions()[-1] == END


def test_a_redraw_discard_goes_on_in_key_order_then_draws_back_to_seven() -> None:
    hand = ["Militia", "Militia", "Grain Tithe", "Stone Keep", "Barracks"]
    draw = ["Timber Levy"] * 6
    state = house(realms({"hand": hand, "draw": draw}, {"hand": ["Fireball"]}, phase="redraw"))
    state.apply(Action("discard", ("militia",)))
    # once begun, the discard is all that is left of the window: same or later keys, then end
    assert state.legal_actions() == [
        Action("discard", ("militia",)),
        Action("discard", ("stone-keep",)),
        END,
    ]
    state.apply(Action("discard", ("stone-keep",)))
    assert state.legal_actions() == [END]  # the other Militia comes before the Stone Keep
    assert total(state) == len(hand) + len(draw) + 1
    state.apply(END)
    assert sorted(keys(state, state.hand[0])) == sorted(
        ["militia", "grain-tithe", "barracks", *["timber-levy"] * 4]
    )
    assert keys(state, state.discard[0]) == ["militia", "stone-keep"]
    assert state.observation(1)["discard_decks"][0] == ["militia", "stone-keep"]  # public
    assert state.active == 1 and state.cycling == ""
    assert total(state) == len(hand) + len(draw) + 1


def test_the_redraw_discard_unlocks_a_locked_hand() -> None:
    state = house(
        realms(
            {"hand": ["Dragon Rider"] * 7, "draw": ["Grain Tithe"] * 7},
            {"hand": ["Dragon Rider"] * 7},
            phase="redraw",
        )
    )
    for _ in range(7):
        state.apply(Action("discard", ("dragon-rider",)))
    assert state.legal_actions() == [END]
    state.apply(END)
    assert keys(state, state.hand[0]) == ["grain-tithe"] * 7
    assert keys(state, state.discard[0]) == ["dragon-rider"] * 7


def test_redraw_the_redraw_discard_is_a_named_opt_in_house_rule() -> None:
    """Ruling 23: by the rulebook a Redraw only draws; the discard before it is the house rule
    ``redraw_discard``, off unless a setup turns it on, and named wherever a setup shows."""
    state = realms({"hand": ["Dragon Rider"] * 7, "draw": ["Grain Tithe"] * 7}, {}, phase="redraw")
    assert state.legal_actions() == [END]
    state = GAME.new_initial_state(5, GAME.example_setups()[0])
    assert not state.redraw_discard and not state.observation(0)["redraw_discard"]
    assert not any("redraw_discard" in setup for setup in GAME.example_setups())
    assert GAME.new_initial_state(5, {"redraw_discard": True}).redraw_discard
    with pytest.raises(SetupError, match="redraw_discard"):
        GAME.new_initial_state(5, {"redraw_discard": "no"})
    words = get_plugin_words()
    assert words.house_rules_in({"redraw_discard": True}) == [
        "Redraw discard (house rule): before redrawing, the active player may discard cards "
        "from hand"
    ]
    assert words.house_rules_in({}) == [] and words.house_rules_in({"redraw_discard": False}) == []


def get_plugin_words():
    from rules.engines.core import plugin_for

    return plugin_for("rival-realms").words


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), agent_seed=st.integers(0, 2**16))
def test_every_redraw_discard_moves_one_card_from_hand_to_the_open_discard_pile(
    seed: int, agent_seed: int
) -> None:
    state = GAME.new_initial_state(seed, {**GAME.example_setups()[0], "redraw_discard": True})
    agent = RandomAgent(agent_seed)
    seen = 0
    while not state.is_terminal() and seen < 5:
        action = agent.act(state)
        if action.kind == "discard" and not state.tasks:
            seen += 1
            player = state.current_player()
            hand, pile = len(state.hand[player]), keys(state, state.discard[player])
            view = state.observation(1 - player)
            state.apply(action)
            assert len(state.hand[player]) == hand - 1 and total(state) == 80
            assert keys(state, state.discard[player]) == [*pile, action.args[0]]
            rival_view = state.observation(1 - player)
            assert rival_view["discard_decks"][player] == [*pile, action.args[0]]
            assert rival_view["rival_hand"] == view["rival_hand"] - 1
            assert all(a.kind in ("discard", "end") for a in state.legal_actions())
        else:
            state.apply(action)


def test_redraw_random_games_by_the_book_end_in_a_stalemate_not_the_turn_limit() -> None:
    """Seeded random games by the rulebook end before the turn limit: most lock both hands
    (ruling 21) and are detected as stalemates long before it, the rest are won on life; with
    the house rule no game is a stalemate."""
    setup = GAME.example_setups()[0]
    ends: dict[bool, list[tuple[str, int]]] = {False: [], True: []}
    for seed in range(10):
        for on in (False, True):
            state = GAME.new_initial_state(seed, {**setup, "redraw_discard": on})
            agent = RandomAgent(seed)
            while not state.is_terminal():
                state.apply(agent.act(state))
            ends[on].append((state.end_reason(), state.turn))
    by_the_book = [reason for reason, _ in ends[False]]
    assert set(by_the_book) <= {STALEMATE_REASON, LIFE_REASON}
    assert by_the_book.count(STALEMATE_REASON) >= 5
    assert all(turn < 60 for reason, turn in ends[False] if reason == STALEMATE_REASON)
    assert STALEMATE_REASON not in {reason for reason, _ in ends[True]}


def test_greedy_discards_cards_it_can_never_pay_for_and_keeps_a_playable_hand() -> None:
    # Stone Keep needs a Palisade, which is nowhere: a dead card; the draw deck is all supply.
    dead = house(
        realms(
            {"hand": ["Stone Keep"] * 3, "draw": ["Grain Tithe"] * 6}, {"hand": []}, phase="redraw"
        )
    )
    assert dead.live_in_hand(0) == 0
    assert GreedyAgent(1).act(dead) == Action("discard", ("stone-keep",))
    playable = realms(
        {"hand": ["Grain Tithe", "Iron Tribute", "Barracks"], "draw": ["Stone Keep"] * 6},
        {"hand": []},
        phase="redraw",
    )
    assert playable.live_in_hand(0) == 3
    assert GreedyAgent(1).act(playable) == END


def test_greedy_searches_a_turn_that_could_go_on_for_ever_without_crashing() -> None:
    """§`Supply` lets supply cards be played at any time and Mage Tower draws in any phase, so a
    hand of Royal Coffers can feed draws (and reshuffles, §`The Playing Area`) without end in one
    turn; the greedy search bounds its depth instead of hitting Python's recursion limit."""
    state = realms(
        {"hand": ["Royal Coffers"] * 7, "field": ["Mage Tower"], "draw": ["Royal Coffers"] * 20},
        {},
    )
    assert GreedyAgent(1, max_nodes=3000).act(state) in state.legal_actions()


def spent_hand_with_a_unit_home(turn: int) -> RealmsState:
    """The Attack step of a seat that spent its whole hand on the turn's plays, leads 29 to 8
    and has a Wolf Pack home against an empty field (a game traced on 2026-12-08)."""
    state = realms(
        {"field": ["Wolf Pack"], "draw": ["Grain Tithe"] * 10},
        {"hand": ["Grain Tithe"] * 7, "draw": ["Grain Tithe"] * 10},
        phase="attack",
    )
    state.turn = turn
    state.life[:] = [29, 8]
    return state


def test_the_evaluation_counts_the_hand_the_redraw_will_refill() -> None:
    """§`Redraw`: the player to act refills to seven at the end of the turn, so an attack (the
    rival to act next) and the end of the step (the Redraw next) are scored on the same hand."""
    state = spent_hand_with_a_unit_home(turn=10)
    assert state.after_redraw(0) == (7, 7.0)  # seven Grain Tithe to come, supply, all playable
    assert state.after_redraw(1) == (7, 7.0)  # the rival's hand as it is
    ended = state.clone()
    ended.apply(END)
    attacked = state.clone()
    attacked.apply(Action("attack", ("wolf-pack", slot(state, 0, "wolf-pack"))))
    attacked.apply(END)  # the attack declared: the rival's Defend window
    assert (ended.phase, attacked.phase, attacked.current_player()) == ("redraw", "defend", 1)
    assert ended.after_redraw(0) == attacked.after_redraw(0) == (7, 7.0)
    # cards still to come count as playable at the share of supply cards they come from
    mixed = realms(
        {"hand": ["Stone Keep"] * 3, "draw": ["Grain Tithe", "Stone Keep"] * 2}, {}, phase="attack"
    )
    assert mixed.live_in_hand(0) == 0
    assert mixed.after_redraw(0) == (7, 2.0)


@settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.integers(0, 2))
def test_after_redraw_foretells_the_hand_the_redraw_deals(seed: int, table: int) -> None:
    """Over random games: at the end of every Redraw the hand dealt has as many cards as
    ``after_redraw`` said, its playable cards within what the drawn cards could add, and the
    other seat's hand is taken as it is."""
    state = GAME.new_initial_state(seed, GAME.example_setups()[table])
    agent = RandomAgent(seed)
    checked = 0
    while not state.is_terminal() and len(state.history) < 600:
        mover = state.current_player()
        action = agent.act(state)
        rival = 1 - state.active
        assert state.after_redraw(rival) == (len(state.hand[rival]), state.live_in_hand(rival))
        if state.phase == "redraw" and not state.tasks and action == END:
            held, playable = state.after_redraw(mover)
            live = state.live_in_hand(mover)
            drawn = held - len(state.hand[mover])
            assert drawn >= 0 and live <= playable <= live + drawn
            state.apply(action)
            assert len(state.hand[mover]) == held
            checked += 1
            continue
        state.apply(action)
    assert checked or state.is_terminal()


def test_greedy_sends_its_units_in_once_they_no_longer_count() -> None:
    """From turn ``ALL_OUT_TURN + 1`` a unit on the field is worth only the damage it deals
    (``RealmsState.evaluate``), so the web's greedy agent attacks with its last unit into an
    empty field. It used to keep it home for ever once it led, the game drawn at the turn limit."""
    state = spent_hand_with_a_unit_home(turn=ALL_OUT_TURN + 3)
    greedy = agent_spec("greedy", "rival-realms")(1)
    assert greedy.act(state) == Action("attack", ("wolf-pack", slot(state, 0, "wolf-pack")))


def test_the_evaluation_foresees_an_attacker_lost_to_the_rivals_siege_camp() -> None:
    """§`Unit Cards`, §`Winning`: the rival's Siege Camp wins at 15 lost cards and this seat has
    lost 14. Declared into the Pike Square (2 attack), the Berserker (1 defense) would be the
    fifteenth, so the attack is scored as the rival's win before any block; the Dire Bear (3
    defense) would only be discarded."""
    seat = {"field": ["Dire Bear", "Berserker"], "lost": ["Militia"] * 14, "draw": ["Grain Tithe"]}
    rival = {"field": ["Siege Camp", "Pike Square"], "draw": ["Grain Tithe"]}
    risky = realms(seat, rival)
    to_combat(risky, "berserker")
    assert risky.attack_crowns_defender()
    assert (risky.evaluate(0), risky.evaluate(1)) == (-FORECAST_WIN, FORECAST_WIN)
    safe = realms(seat, rival)
    to_combat(safe, "dire-bear")
    assert not safe.attack_crowns_defender()
    assert abs(safe.evaluate(0)) < FORECAST_WIN


def test_the_evaluation_counts_a_combat_under_way_as_it_is_likely_to_end() -> None:
    state = realms({"field": ["Dire Bear", "Militia"]}, {"field": ["Tower Guard"]})
    calm = state.evaluate(0)
    to_combat(state, "dire-bear", "militia")
    damage, leaving = state.combat_outlook()
    assert damage == 1  # Tower Guard is assumed to block the Dire Bear; the Militia gets through
    assert keys(state, sorted(leaving)) == ["dire-bear", "militia", "tower-guard"]
    assert state.evaluate(0) != calm
    block(state, "tower-guard", "militia")
    state.apply(END)
    assert state.combat_outlook()[0] == state.attack_of(state.field[0][0])  # the Bear, unblocked


# --- the game's own policy (the ``team`` agent of matchups) ----------------------------------
def test_the_policy_plays_legal_actions_and_its_games_end_by_the_rulebook() -> None:
    """The default (``team`` at its web budget: the policy, its look-ahead choosing attackers)
    plays the policy's action everywhere but where the engine hands a choice to the look-ahead."""
    from rules.agents import TeamAgent, web_options
    from rules.engines.core import plugin_for
    from rules.engines.rival_realms.policy import dig_action

    plugin = plugin_for("rival-realms")
    assert plugin.matchup_agents[0] == "team"
    assert web_options("team", plugin) == {"lookahead": 100}
    looked = 0
    for seed in range(6):
        state = GAME.new_initial_state(seed, GAME.example_setups()[seed % 3])
        default = TeamAgent(seed, lookahead=100)
        agents: list[Agent] = [default, RandomAgent(seed)] if seed % 2 else [default] * 2
        while not state.is_terminal():
            action = agents[state.current_player()].act(state)
            assert action in state.legal_actions()
            if agents[state.current_player()] is default:
                choices = state.lookahead_actions()
                if choices is None:
                    assert action == dig_action(state)
                else:
                    assert action in choices
                    looked += action != dig_action(state)
            state.apply(action)
        assert state.end_reason() in (CARD_REASON, DRAW_REASON, LIFE_REASON, STALEMATE_REASON)
    assert looked > 0  # the look-ahead does overrule "every unit attacks" somewhere


def test_the_policy_attacks_with_every_unit_and_buys_what_it_can() -> None:
    from rules.engines.rival_realms.policy import play_action

    state = realms(
        {"hand": ["Grain Tithe", "Timber Levy", "Spearmen"], "field": ["Barracks", "Militia"]},
        {},
    )
    assert play_action(state).kind == "supply"
    state.apply(play_action(state))
    state.apply(play_action(state))
    assert play_action(state) == Action("play", ("spearmen",))
    state.apply(play_action(state))
    state.apply(play_action(state))  # end of deploy
    state.apply(play_action(state))
    state.apply(play_action(state))
    assert sorted(keys(state, state.attackers)) == ["militia", "spearmen"]


def test_a_lethal_attack_is_declared_not_put_off_by_an_ability_that_can_repeat() -> None:
    """§`Resolve`: the War Hounds' 3 unblocked damage is lethal as declared. Mage Tower's draw
    (any phase, pay 2 supply) changes nothing about that, so the policy ends the Attack step
    rather than draw; it once drew again and again, a supply card a draw, and never ended."""
    from rules.engines.rival_realms.policy import play_action

    state = realms(
        {
            "hand": ["Royal Coffers"] * 4,
            "field": ["Mage Tower", "War Hounds"],
            "draw": ["Royal Coffers"] * 20,
        },
        {"draw": ["Grain Tithe"] * 8},
    )
    state.life[1] = 3
    state.apply(END)
    state.apply(Action("attack", ("war-hounds", slot(state, 0, "war-hounds"))))
    assert play_action(state) == END
    for _ in range(20):  # the rival has no unit to block with: the combat ends the game
        if state.is_terminal():
            break
        state.apply(play_action(state))
    assert state.is_terminal() and state.winner() == 0 and state.end_reason() == LIFE_REASON
    assert len(state.hand[0]) == 4  # nothing drawn


def test_the_policy_buys_two_cheap_units_rather_than_one_dear_one() -> None:
    """§`Redraw`: a hand only refills to seven, so each card bought frees a slot; with 4 supply
    the policy deploys both Spearmen (4 attack, two cards out of hand) over one Lancer Squadron."""
    from rules.engines.rival_realms.policy import play_action

    state = realms(
        {
            "hand": ["Iron Tribute", "Iron Tribute", "Spearmen", "Spearmen", "Lancer Squadron"],
            "field": ["Barracks", "Stables"],
        },
        {},
    )
    played = []
    while state.phase == "deploy":
        action = play_action(state)
        if action.kind == "play":
            played.append(action.args[0])
        state.apply(action)
    assert played == ["spearmen", "spearmen"]


def test_the_policy_cycles_a_supply_card_when_its_hand_can_pay_for_nothing() -> None:
    """§`Supply`: a supply card may be played at any time; with nothing in hand it could pay for
    (a Lancer Squadron without Stables), the policy plays its smallest supply card in Redraw so
    the draw brings a new card, rather than keep a hand that would never change."""
    from rules.engines.rival_realms.policy import play_action

    hand = ["Grain Tithe", "Iron Tribute", "Lancer Squadron", "Stone Keep", "Heavy Knights"]
    state = realms({"hand": hand, "draw": ["Militia"] * 6}, {}, phase="redraw")
    assert play_action(state) == Action("supply", ("grain-tithe",))


def test_the_digging_policy_trades_all_but_two_supply_cards_when_nothing_can_be_paid_for() -> None:
    """The game's policy (``team``, the default since 2026-12-07): with nothing in hand its
    supply could pay for, it plays its smallest supply cards in Redraw down to two of them, one
    at a time; the plain policy (``team(policy=plain)``, the baseline) trades one a turn."""
    from rules.agents import TeamAgent
    from rules.engines.rival_realms.policy import DIG_KEEP, dig_action, play_action

    hand = ["Grain Tithe", "Timber Levy", "Iron Tribute", "Royal Coffers", "Lancer Squadron"]
    state = realms({"hand": hand, "draw": ["Militia"] * 6}, {}, phase="redraw")
    played = []
    while (action := dig_action(state)).kind == "supply":
        played.append(action.args[0])
        assert TeamAgent(0).act(state) == action
        assert TeamAgent(0, policy="dig", lookahead=100).act(state) == action
        state.apply(action)
    assert played == ["grain-tithe", "timber-levy"]
    assert DIG_KEEP == 2 and action == END
    assert play_action(realms({"hand": hand}, {}, phase="redraw")).args == ("grain-tithe",)


@pytest.mark.parametrize("setup", [0, 1], ids=["seat-0-first", "seat-1-first"])
def test_policy_games_between_the_sample_decks_end_in_a_rulebook_win(setup: int) -> None:
    """Issue 16: by the book (no house rule) the game's own policy, on both sides, brings one
    ruler's life to 0 (§`Winning`) between the sample decks rather than locking both hands."""
    from rules.agents import TeamAgent

    wins = 0
    for seed in range(10):
        state = GAME.new_initial_state(seed, GAME.example_setups()[setup])
        agent = TeamAgent(seed)
        while not state.is_terminal():
            state.apply(agent.act(state))
        wins += state.end_reason() in (LIFE_REASON, CARD_REASON)
    assert wins >= 9


def test_the_policy_sheds_cards_it_cannot_pay_for_only_under_the_house_rule() -> None:
    from rules.engines.rival_realms.policy import play_action

    layout = {"hand": ["Stone Keep", "Grain Tithe", "Militia"], "draw": ["Timber Levy"] * 6}
    assert play_action(realms(layout, {}, phase="redraw")) == END  # by the book: nothing to do
    state = house(realms(layout, {}, phase="redraw"))
    assert play_action(state) == Action("discard", ("stone-keep",))  # no Palisade anywhere
    state.apply(play_action(state))
    assert play_action(state) == END


def test_setup_search_does_not_know_the_rivals_list_unless_decklists_are_open() -> None:
    """Ruling 20 (§`Setup`, §`The Playing Area`): nothing shows a player the rival's 40 cards,
    so a determinisation deals the rival's unseen cards from the card set (never more copies
    than the set holds); the option ``open_decklists`` deals them from the rival's own list."""
    rival_deck = set(GAME.example_setups()[0]["decks"][1])
    for open_lists, named in ((False, "open_decklists"), (True, "open_decklists")):
        setup = {**GAME.example_setups()[0], named: open_lists}
        state = GAME.new_initial_state(3, setup)
        rng = Rng(3)
        guessed: set[str] = set()
        for _ in range(20):
            other = state.determinise(0, rng)
            assert other.observation(0) == state.observation(0)
            cards = [c for c in range(len(other.table)) if other.owner[c] == 1]
            counts: dict[str, int] = {}
            for card in cards:
                counts[other.table[card].name] = counts.get(other.table[card].name, 0) + 1
            assert all(n <= GAME.by_name[name].copies for name, n in counts.items())
            guessed.update(other.table[c].name for c in other.hand[1] + other.draw[1])
        assert (guessed <= rival_deck) is open_lists
    words = get_plugin_words()
    assert words.house_rules_in({"open_decklists": True}) == [
        "Open decklists (house rule): search agents know the rival's 40-card list"
    ]


def test_the_attack_step_leaves_which_units_attack_to_the_look_ahead() -> None:
    """``RealmsState.lookahead_actions``: in the Attack step the default's look-ahead weighs
    sending in each unit or ending the step; a unit whose leaving the field would crown the
    rival (Siege Camp, counting lost cards) is never among them, and outside the Attack step,
    after turn ``ALL_OUT_TURN`` or with a lethal attack on offer, the policy decides alone."""
    from rules.agents import TeamAgent

    state = realms(
        {"field": ["Militia", "Spearmen"], "hand": ["Grain Tithe"]},
        {"field": ["Dire Bear"]},
        phase="attack",
    )
    state.life = [20, 20]
    choices = state.lookahead_actions()
    assert choices is not None and choices[-1] == END
    assert sorted(str(a.args[0]) for a in choices[:-1]) == ["militia", "spearmen"]
    assert all(a.kind == "attack" for a in choices[:-1])
    for seed in range(6):
        assert TeamAgent(seed, lookahead=100).act(state.clone()) in choices
    assert realms({"field": ["Militia"]}, {}, phase="deploy").lookahead_actions() is None
    # with 14 cards lost, a unit the Dire Bear kills would make the rival's Siege Camp's 15:
    # neither unit is offered, and ending the step alone is no choice
    for lost, offered in ((0, 3), (14, 0)):
        camp = realms(
            {"field": ["War Hounds", "Militia"], "lost": ["Tower Guard"] * lost},
            {"field": ["Siege Camp", "Dire Bear"]},
            phase="attack",
        )
        camp.life = [20, 20]
        assert len(camp.lookahead_actions() or []) == offered
    # late in a game every unit attacks again: two look-aheads keeping their units home would
    # otherwise stand off until the turn limit
    late = state.clone()
    late.turn = ALL_OUT_TURN + 1
    assert late.lookahead_actions() is None
    assert TeamAgent(0, lookahead=100).act(late).kind == "attack"
    lethal = realms({"field": ["Militia", "Spearmen"]}, {}, phase="attack")
    lethal.life = [20, 1]
    assert lethal.lookahead_actions() is None
    for seed in range(6):  # the win is taken as the policy takes it, never weighed away
        assert TeamAgent(seed, lookahead=100).act(lethal.clone()).kind == "attack"
