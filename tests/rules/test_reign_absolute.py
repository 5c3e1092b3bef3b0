"""The Reign Absolute engine: one test group per rulebook section, the rulebook's two examples,
hidden information, and seeded playouts.

Hand-built battles start from ``battle()``: every seated faction's cards in its faction deck and
the whole Reinforcement deck in place, then named units are put on named squares and named
reinforcements are stacked on top of the deck in the order they will be drawn. Rulings in
``docs/rules/reign-absolute.md`` name the tests that pin them.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import GreedyAgent, MCTSAgent, RandomAgent
from rules.agents.base import Agent
from rules.engines.core import (
    TERMINAL,
    Action,
    DeckCards,
    IllegalActionError,
    Rng,
    SetupError,
    get_game,
    plugin_for,
)
from rules.engines.reign_absolute import ReignAbsoluteGame, ReignState
from rules.engines.reign_absolute.cards import CardDataError, card_specs, fixture_records
from rules.engines.reign_absolute.state import DRAW_REASON, LIMIT_REASON, WIN_REASON, neighbours

GAME = ReignAbsoluteGame()
DONE = Action("done")
DOOM = Action("doom")
PASS = Action("pass")


# --- building positions --------------------------------------------------------------------
def battle(
    units: dict[tuple[int, int], tuple[int, str]],
    factions: tuple[str, ...] = ("empire", "elves"),
    active: int = 0,
) -> ReignState:
    """Units on named squares, everything else in its faction deck or the Reinforcement deck.

    A seat given no Liege gets it far away from the fighting, so every player stays in the game.
    """
    state = ReignState(GAME, 0, GAME.table, factions)
    state.turn_limit = 400
    for seat, faction in enumerate(factions):
        state.faction_decks[seat] = GAME.unit_ids(faction)
    state.deck = GAME.reinforcement_ids()
    for square, (seat, key) in units.items():
        state._put_unit(take(state, state.faction_decks[seat], key), square)
    for seat in range(len(factions)):
        if state.liege_square(seat) is None:
            liege = next(c for c in state.faction_decks[seat] if state.table[c].is_liege)
            state.faction_decks[seat].remove(liege)
            state._put_unit(liege, (50 + 10 * seat, 50))
    state.active = active
    state.tasks = [("start_turn", active)]
    state.settle()
    return state


def take(state: ReignState, pile: list[int], key: str) -> int:
    for index, card in enumerate(pile):
        if state.table[card].key == key:
            return pile.pop(index)
    raise AssertionError(f"no {key} left there")


def under(state: ReignState, square: tuple[int, int], *keys: str) -> None:
    """Put named Combat Reinforcements from the deck face down under the unit on ``square``."""
    unit = state.board[square]
    state.under[unit] = (*state.under.get(unit, ()), *(take(state, state.deck, k) for k in keys))


def stack(state: ReignState, *keys: str) -> None:
    """Put named reinforcements on top of the deck; the first named is drawn first."""
    cards = [take(state, state.deck, key) for key in keys]
    state.deck.extend(reversed(cards))


def total(state: ReignState) -> int:
    return sum(state.zone_counts().values())


def combat_event(state: ReignState) -> dict:
    return [e for e in state.event_log() if e.kind == "combat"][-1].as_dict()


def at(square: tuple[int, int], state: ReignState) -> str | None:
    unit = state.board.get(square)
    return None if unit is None else state.table[unit].key


# --- the game box and setup (§Setup) ---------------------------------------------------------
def test_registered_by_slug_with_hidden_information() -> None:
    game = get_game("reign-absolute")
    assert isinstance(game, ReignAbsoluteGame)
    assert game.metadata()["information"] == "imperfect"
    assert (game.min_players, game.max_players) == (2, 4)


def test_builtin_records_are_the_fixture_cards() -> None:
    assert GAME.records == tuple(fixture_records())
    assert len([s for s in GAME.table if not s.is_unit]) == 41
    for faction in GAME.factions:
        liege = next(s for s in GAME.specs if s.faction == faction and s.is_liege)
        assert len(GAME.unit_ids(faction)) == liege.faction_deck_size


def test_records_the_engine_cannot_run_are_refused_by_name() -> None:
    records = fixture_records()
    broken = [dict(r) for r in records]
    broken[0] = {**broken[0], "effects": [{"when": "always", "do": [{"op": "fly"}]}]}
    with pytest.raises(CardDataError, match="fly"):
        card_specs(broken)
    with pytest.raises(ValueError, match="cannot play"):
        ReignAbsoluteGame(broken)


def test_setup_refuses_bad_tables() -> None:
    with pytest.raises(SetupError, match="2 to 4"):
        GAME.new_initial_state(0, {"factions": ["empire"]})
    with pytest.raises(SetupError, match="different faction"):
        GAME.new_initial_state(0, {"factions": ["empire", "empire"]})
    with pytest.raises(SetupError, match="unknown faction"):
        GAME.new_initial_state(0, {"factions": ["empire", "orcs"]})
    with pytest.raises(SetupError, match="unknown setup keys"):
        GAME.new_initial_state(0, {"colour": "red"})


@pytest.mark.parametrize("seed", range(6))
def test_first_player_is_the_highest_drawn_value_and_those_cards_start_the_discard(
    seed: int,
) -> None:
    state = GAME.new_initial_state(seed, {"factions": ["empire", "elves", "azuma"]})
    drawn = state.discard
    values = [GAME.values[c] for c in drawn]
    assert len(drawn) == 3
    assert state.active == values.index(max(values))
    assert state.current_player() == state.active
    assert len(state.deck) == 41 - 3


def test_setup_a_matchup_draws_for_the_first_player() -> None:
    """§Setup: whatever deck order a matchup is given, the Reinforcement draw picks the 1st
    Player and the drawn cards start the Reinforcement Discard pile."""
    plugin = plugin_for("reign-absolute")
    decks = [DeckCards(f, ({"name": f"{f} unit", "branch": f},)) for f in ("empire", "elves")]
    setups = [plugin.matchup_setup(decks, first=first).setup for first in (0, 1, None)]
    assert all(setup == {"factions": ["empire", "elves"]} for setup in setups)
    starters = set()
    for seed in range(12):
        state = GAME.new_initial_state(seed, setups[0])
        values = [GAME.values[card] for card in state.discard]
        assert len(values) == 2 and state.active == values.index(max(values))
        assert state.first_player() == state.active  # reports name the 1st Player
        starters.add(state.active)
    assert starters == {0, 1}  # deck A does not always move first


def test_placement_follows_the_setup_order() -> None:
    state = GAME.new_initial_state(3, {"factions": ["empire", "elves"], "first_player": 1})
    assert state.current_player() == 1
    assert state.legal_actions() == [Action("place", (0, 0))]  # the middle of the play area
    state.apply(Action("place", (0, 0)))
    # the other player's first unit goes next to an enemy unit
    assert sorted(a.args for a in state.legal_actions()) == [(-1, 0), (0, -1), (0, 1), (1, 0)]
    state.apply(Action("place", (0, 1)))
    # later units go next to their own faction
    assert Action("place", (0, -1)) in state.legal_actions()
    assert Action("place", (0, 2)) not in state.legal_actions()
    state.apply(Action("place", (0, -1)))
    assert Action("place", (0, 2)) in state.legal_actions()
    assert Action("place", (0, -2)) not in state.legal_actions()


def test_a_placing_player_sees_only_the_unit_in_hand_never_the_next_ones() -> None:
    state = GAME.new_initial_state(3, {"factions": ["empire", "elves"], "first_player": 0})
    mine = state.observation(0)
    theirs = state.observation(1)
    assert mine["decision"]["unit"] == state.table[state.tasks[0][2]].key
    assert theirs["decision"]["unit"] is None
    assert mine["faction_decks"] == [11, 11]  # counts only, nothing about the order
    state.apply(Action("place", (0, 0)))
    assert state.observation(1)["battlefield"][0]["unit"] is None
    assert state.observation(0)["battlefield"][0]["unit"] is not None


def test_every_unit_is_placed_then_faction_setup_tasks_then_the_first_turn() -> None:
    state = GAME.new_initial_state(5, {"factions": ["umbrous", "empire"], "first_player": 0})
    placements = 0
    while state.tasks[0][0] == "place":
        state.apply(state.legal_actions()[0])
        placements += 1
    assert placements == 10 + 12 and not any(state.faction_decks)
    # The Umbrous Nightlord's after-setup task: swap two adjacent Umbrous units, or skip.
    assert state.tasks[0][:2] == ("after_setup", 0)
    assert Action("skip") in state.legal_actions()
    swap = next(a for a in state.legal_actions() if a.kind == "swap")
    first, second = state.board[_square(swap.args[:2])], state.board[_square(swap.args[2:])]
    state.apply(swap)
    assert state.board[_square(swap.args[:2])] == second
    assert state.board[_square(swap.args[2:])] == first
    assert state.tasks[0][:2] == ("action", 0)


@pytest.mark.parametrize("seed", [0, 1, 2])  # 1st Players: seats 1, 0 and 2
def test_setup_first_player_draw_then_clockwise_placement_then_the_first_turn(seed: int) -> None:
    """§Setup, worked through: the highest Reinforcement drawn picks the 1st Player and the drawn
    cards start the discard pile; then, from the 1st Player clockwise, one unit each at a time
    (only its owner sees it) until every unit is down: the very first in the middle, each
    player's first next to an enemy unit, the rest next to their own; then the 1st Player's
    Turn."""
    factions = ["empire", "elves", "azuma"]  # 12, 11 and 12 units
    state = GAME.new_initial_state(seed, {"factions": factions})
    values = [GAME.values[card] for card in state.discard]
    first = values.index(max(values))
    assert len(values) == 3 and state.first_player() == first
    assert len(state.deck) == 41 - 3 and state.board == {}
    agent = Rng(seed)
    order = []
    while state.tasks[0][0] == "place":
        player = state.current_player()
        unit = state.tasks[0][2]
        for other in range(3):  # the unit about to be placed: its owner alone sees it
            shown = state.observation(other)["decision"]["unit"]
            assert shown == (state.table[unit].key if other == player else None)
        squares = [_square(a.args) for a in state.legal_actions()]
        own = state.units_of(player)
        if not state.board:
            assert squares == [(0, 0)]  # the centre square
        for square in squares if state.board else []:
            friends = [n for n in neighbours(square) if n in own]
            enemies = [n for n in neighbours(square) if n in state.board and n not in own]
            assert square not in state.board and (friends if own else enemies)
        order.append(player)
        square = agent.choice(squares)
        state.apply(Action("place", square))
        for other in range(3):  # placed face down
            seen = {tuple(u["square"]): u["unit"] for u in state.observation(other)["battlefield"]}
            assert (seen[square] is None) is (other != player)
    clockwise = [(first + step) % 3 for step in range(3)]
    elves_last = [seat for seat in clockwise if factions[seat] != "elves"]
    assert order == clockwise * 11 + elves_last  # the Elves run out first and are skipped
    assert len(state.board) == 12 + 11 + 12 and not any(state.faction_decks)
    assert state.tasks[0][:2] == ("action", first) and state.turn == 1  # no faction setup task


# --- key concepts, Move (§Key Concepts & Mechanics, §Move Action) ---------------------------
def test_no_diagonals_and_no_moving_onto_friends() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-legionnaires"),
            (1, 0): (0, "empire-engineers"),
            (1, 1): (1, "elves-rangers"),
        }
    )
    legal = state.legal_actions()
    assert Action("move", (0, 0, 0, 1)) in legal
    assert Action("move", (0, 0, 1, 0)) not in legal  # a friendly unit is there
    assert not any(a.kind == "attack" and a.args[:2] == (0, 0) for a in legal)  # (1, 1) is diagonal
    assert Action("attack", (1, 0, 1, 1)) in legal


def test_a_move_carries_the_reinforcements_and_may_open_a_gap() -> None:
    state = battle({(0, 0): (0, "empire-legionnaires"), (1, 0): (1, "elves-rangers")})
    under(state, (0, 0), "2-attack")
    unit = state.board[(0, 0)]
    state.apply(Action("move", (0, 0, -1, 0)))
    assert state.board[(-1, 0)] == unit and len(state.under[unit]) == 1
    assert (0, 0) not in state.board


def test_an_immobile_unit_neither_moves_nor_attacks() -> None:
    state = battle({(0, 0): (1, "elves-ancient-treant"), (1, 0): (0, "empire-archers")}, active=1)
    assert all(a.args[:2] != (0, 0) for a in state.legal_actions() if a.kind in ("move", "attack"))


def test_turns_go_clockwise_one_action_then_the_reinforcement_phase() -> None:
    state = battle({}, ("empire", "elves", "azuma"), active=1)
    state.deck, state.discard = [], []  # nothing to draw: each turn is its Action only
    seats = []
    for _ in range(4):
        state.apply(PASS)
        seats.append(state.current_player())
    assert seats == [2, 0, 1, 2] and state.turn == 5


def test_a_player_may_take_no_action() -> None:
    state = battle({(0, 0): (0, "empire-sovereign"), (0, 1): (1, "elves-oak-queen")})
    stack(state, "2-strength")
    state.apply(PASS)
    assert state.tasks[0][:2] == ("place_reinforcement", 0)


# --- Attack (§Attack Action, §Attack Example) -----------------------------------------------
def example_battle() -> ReignState:
    state = battle({(0, 0): (0, "empire-archers"), (1, 0): (1, "elves-enchantress")})
    under(state, (0, 0), "3-attack", "6-defence")
    under(state, (1, 0), "2-strength", "2-defence")
    return state


def test_attack_example_totals() -> None:
    """§Attack Example: 11 vs 8, then Another Turn (ignored), Draw 2, +4 Defence and Cancel."""
    state = example_battle()
    stack(state, "another-turn", "draw-2", "4-defence", "cancel", "1-strength")
    before = total(state)
    archers = state.board[(0, 0)]
    state.apply(Action("attack", (0, 0, 1, 0)))
    event = combat_event(state)
    # the Enchantress's two draws, then the two her Draw 2 brings; the Archers draw nothing
    assert event["drawn"] == [[], ["another-turn", "draw-2", "4-defence", "cancel"]]
    # the Turn Reinforcement never joins the combat: only Combat Reinforcements are hers
    assert event["defender_cards"] == ["2-strength", "2-defence", "draw-2", "4-defence", "cancel"]
    assert event["attacker_cards"] == ["3-attack", "6-defence"]
    assert event["void"] == [True, False]  # the Cancel voids the Archers' reinforcements
    # Archers 4 + 4 printed Attack (their cards void); Enchantress 4 + 2 + 2 + 4
    assert event["totals"] == [8, 12]
    assert event["defeated"] == ["attacker"]
    assert archers in state.unit_discards[0] and state.unit_discards[1] == []
    assert at((1, 0), state) == "elves-enchantress" and (0, 0) not in state.board
    assert state.under == {}  # every Combat Reinforcement of both units was discarded ...
    in_combat = ["3-attack", "6-defence", "2-strength", "2-defence"]
    drawn = ["another-turn", "draw-2", "4-defence", "cancel"]
    assert sorted(GAME.table[c].key for c in state.discard) == sorted([*in_combat, *drawn])
    assert total(state) == before
    assert state.extra_turns == 0  # Another Turn was ignored, not resolved
    assert state.tasks[0][:2] == ("place_reinforcement", 0)  # then the Reinforcement Phase
    state.apply(Action("reinforce", (state.units_of(0)[0])))
    assert state.current_player() == 1  # no extra Turn for the attacker


def test_attack_example_before_the_enchantress_draws() -> None:
    """§Attack Example, its opening totals: with nothing left to draw, the Archers' 4 + 4 + 3
    (their +6 Defence card does not count while attacking) against the Enchantress's 4 + 2 + 2."""
    state = example_battle()
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))
    event = combat_event(state)
    assert event["drawn"] == [[], []] and event["void"] == [False, False]
    assert event["totals"] == [11, 8] and event["defeated"] == ["defender"]
    assert at((1, 0), state) == "empire-archers"  # a victorious attacker moves in


def test_the_lower_total_is_defeated_and_equal_totals_defeat_both_units() -> None:
    state = battle({(0, 0): (0, "empire-legionnaires"), (1, 0): (1, "elves-wardens")})
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 5 against 4 + 3
    assert combat_event(state)["totals"] == [5, 7]
    assert combat_event(state)["defeated"] == ["attacker"]
    assert at((1, 0), state) == "elves-wardens"  # a victorious defender stays put
    state = battle({(0, 0): (0, "empire-engineers"), (1, 0): (1, "elves-pathfinders")})
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 2 against 2
    assert combat_event(state)["defeated"] == ["attacker", "defender"]
    assert (0, 0) not in state.board and (1, 0) not in state.board


def test_survives_ties_defeats_only_the_other_unit() -> None:
    state = battle(
        {(0, 0): (0, "empire-legionnaires"), (1, 0): (1, "umbrous-wraiths")}, ("empire", "umbrous")
    )
    under(state, (1, 0), "2-strength")
    state.deck = []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 5 against 3 + 2
    assert combat_event(state)["defeated"] == ["attacker"]
    assert at((1, 0), state) == "umbrous-wraiths"


def test_ballista_wins_without_moving_and_ninja_ignores_the_defence_bonus() -> None:
    state = battle({(0, 0): (0, "empire-ballista"), (1, 0): (1, "elves-wardens")})
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 3 + 5 against 4 + 3
    assert at((0, 0), state) == "empire-ballista" and (1, 0) not in state.board
    state = battle({(0, 0): (0, "azuma-ninja"), (1, 0): (1, "elves-wardens")}, ("azuma", "elves"))
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 2 + 3 against 4 (the +3 Defence is ignored)
    assert combat_event(state)["totals"] == [5, 4]


def test_turn_reinforcements_drawn_in_combat_are_discarded_at_once() -> None:
    state = battle({(0, 0): (0, "empire-battle-priest"), (1, 0): (1, "elves-pathfinders")})
    stack(state, "another-turn", "1-strength")
    state.apply(Action("attack", (0, 0, 1, 0)))
    assert combat_event(state)["drawn"] == [["another-turn"], []]
    assert combat_event(state)["totals"] == [3, 2]
    assert state.extra_turns == 0


def test_both_cancels_void_both_sides() -> None:
    state = battle({(0, 0): (0, "empire-legionnaires"), (1, 0): (1, "elves-rangers")})
    under(state, (0, 0), "cancel", "6-attack")
    under(state, (1, 0), "cancel", "6-defence")
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))
    assert combat_event(state)["void"] == [True, True]
    assert combat_event(state)["totals"] == [5, 3]


# --- the Shogun (§FAQ) -----------------------------------------------------------------------
def shogun_battle() -> ReignState:
    state = battle(
        {
            (0, 0): (0, "azuma-shogun"),
            (-1, 0): (0, "azuma-swordsmen"),
            (0, 1): (0, "azuma-swordsmen"),
            (0, -1): (0, "azuma-spearmen"),
            (1, 0): (1, "empire-legionnaires"),
        },
        ("azuma", "empire"),
        active=1,
    )
    state.deck, state.discard = [], []
    return state


def test_the_shogun_reveals_the_adjacent_swordsmen_her_owner_chooses() -> None:
    state = shogun_battle()
    state.apply(Action("attack", (1, 0, 0, 0)))
    assert state.current_player() == 0
    assert state.legal_actions() == [Action("reveal", (-1, 0)), Action("reveal", (0, 1)), DONE]
    state.apply(Action("reveal", (0, 1)))
    assert state.legal_actions() == [Action("reveal", (-1, 0)), DONE]
    assert state.observation(1)["combat"]["revealed"] == [[0, 1]]
    state.apply(DONE)
    assert combat_event(state)["totals"] == [5, 8]  # +3 Defence for the one revealed
    seen = {tuple(u["square"]): u["unit"] for u in state.observation(1)["battlefield"]}
    assert seen[(0, 1)] == "azuma-swordsmen" and seen[(-1, 0)] is None


def test_a_shogun_revealing_nobody_ties_and_falls_which_ends_the_game() -> None:
    state = shogun_battle()
    state.apply(Action("attack", (1, 0, 0, 0)))
    state.apply(DONE)
    assert combat_event(state)["defeated"] == ["attacker", "defender"]
    assert state.is_terminal() and state.end_reason() == WIN_REASON
    assert state.returns() == [-1.0, 1.0] and state.winner() == 1
    assert not state.units_of(0)  # an eradicated player's units leave the battlefield


def test_the_reveal_choice_is_offered_whatever_the_adjacent_units_are() -> None:
    state = battle(
        {
            (0, 0): (0, "azuma-shogun"),
            (0, -1): (0, "azuma-spearmen"),
            (1, 0): (1, "empire-archers"),
        },
        ("azuma", "empire"),
        active=1,
    )
    state.apply(Action("attack", (1, 0, 0, 0)))
    assert state.legal_actions() == [DONE]  # rivals learn nothing from the offer


@pytest.mark.parametrize(
    ("revealed", "shogun_total"),
    [([], 5), ([(0, 1)], 8), ([(-1, 0), (0, 1)], 11)],
)
def test_faq_shogun_reveals_adjacent_swordsmen(
    revealed: list[tuple[int, int]], shogun_total: int
) -> None:
    """§FAQ: defending, the Shogun's owner reveals as many adjacent Swordsmen as they like, none
    included; each one revealed adds 3 Defence, the others add nothing, and after the combat
    every Swordsman is back in its place, face down."""
    state = battle(
        {
            (0, 0): (0, "azuma-shogun"),
            (-1, 0): (0, "azuma-swordsmen"),
            (0, 1): (0, "azuma-swordsmen"),
            (-1, 1): (0, "azuma-swordsmen"),  # diagonal: not adjacent
            (-2, 0): (0, "azuma-swordsmen"),  # two steps away
            (0, -1): (0, "azuma-spearmen"),  # adjacent, but not a Swordsman
            (1, 0): (1, "empire-cavalry"),
        },
        ("azuma", "empire"),
        active=1,
    )
    state.deck, state.discard = [], []
    swordsmen = {sq: state.board[sq] for sq in ((-1, 0), (0, 1), (-1, 1), (-2, 0))}
    state.apply(Action("attack", (1, 0, 0, 0)))
    assert state.current_player() == 0  # the Azuma player chooses
    assert state.legal_actions() == [Action("reveal", (-1, 0)), Action("reveal", (0, 1)), DONE]
    for square in revealed:
        state.apply(Action("reveal", square))
    state.apply(DONE)
    event = combat_event(state)
    assert event["totals"] == [4 + 2, shogun_total]  # Cavalry 4 + 2 Attack; Shogun 5 + 3 each
    assert event["defeated"] == (["defender"] if shogun_total < 6 else ["attacker"])
    if shogun_total < 6:  # nobody revealed: the Shogun falls and Azuma is eradicated
        assert state.is_terminal() and state.winner() == 1
        return
    assert state.combat is None and at((0, 0), state) == "azuma-shogun"
    # every Swordsman stands where it stood; none was discarded by being revealed
    assert {sq: state.board.get(sq) for sq in swordsmen} == swordsmen
    assert state.unit_discards[0] == []
    seen = {tuple(u["square"]): u["unit"] for u in state.observation(1)["battlefield"]}
    for square in swordsmen:  # the rival remembers those it was shown (ruling 14), no others
        assert (seen[square] == "azuma-swordsmen") is (square in revealed)


def test_faq_the_shogun_reveals_nobody_when_she_attacks() -> None:
    """§FAQ is about the Shogun defending: attacking, she is offered no reveal and gets no
    Defence from the Swordsmen next to her."""
    state = battle(
        {
            (0, 0): (0, "azuma-shogun"),
            (-1, 0): (0, "azuma-swordsmen"),
            (0, 1): (0, "azuma-swordsmen"),
            (1, 0): (1, "empire-engineers"),
        },
        ("azuma", "empire"),
    )
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))
    assert state.combat is None  # resolved at once: no reveal decision
    assert combat_event(state)["totals"] == [5, 2 + 3]


# --- the Reinforcement Phase (§Reinforcement Phase) -----------------------------------------
def test_a_combat_reinforcement_goes_face_down_under_a_chosen_unit() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-archers"),
            (5, 5): (1, "elves-oak-queen"),
        }
    )
    stack(state, "4-attack")
    state.apply(PASS)
    assert state.legal_actions() == [Action("reinforce", (0, 0)), Action("reinforce", (0, 1))]
    state.apply(Action("reinforce", (0, 1)))
    mine = {tuple(u["square"]): u for u in state.observation(0)["battlefield"]}
    theirs = {tuple(u["square"]): u for u in state.observation(1)["battlefield"]}
    assert mine[(0, 1)]["reinforcement_cards"] == ["4-attack"]
    assert theirs[(0, 1)]["reinforcements"] == 1
    assert theirs[(0, 1)]["reinforcement_cards"] is None
    assert state.current_player() == 1


def test_turn_reinforcements_are_resolved_or_ignored() -> None:
    state = battle({(0, 0): (0, "empire-sovereign"), (5, 5): (1, "elves-oak-queen")})
    stack(state, "another-turn", "another-turn")
    state.apply(PASS)
    assert state.legal_actions() == [Action("resolve"), Action("ignore")]
    state.apply(Action("resolve"))
    assert state.current_player() == 0 and state.tasks[0][0] == "action"  # another turn
    state.apply(PASS)
    state.apply(Action("ignore"))
    assert state.current_player() == 1


def test_supply_wagon_draws_two_and_double_march_moves_twice() -> None:
    state = battle({(0, 0): (0, "empire-sovereign"), (5, 5): (1, "elves-oak-queen")})
    stack(state, "supply-wagon", "double-march", "1-strength")
    state.apply(PASS)
    state.apply(Action("resolve"))
    assert state.observation(1)["decision"]["card"] == "double-march"
    state.apply(Action("move", (0, 0, 0, 1)))
    assert state.legal_actions()[-1] == DONE
    state.apply(Action("move", (0, 1, 0, 2)))
    assert state.tasks[0][:2] == ("place_reinforcement", 0)
    state.apply(Action("reinforce", (0, 2)))
    assert state.current_player() == 1


def test_an_empty_reinforcement_deck_is_rebuilt_from_the_discard_pile() -> None:
    state = battle({(0, 0): (0, "empire-sovereign"), (5, 5): (1, "elves-oak-queen")})
    state.discard, state.deck = state.deck, []
    state.apply(PASS)
    assert len(state.deck) == 40
    assert (state.discard == [] and state.tasks[0][0] == "place_reinforcement") or (
        len(state.discard) == 1 and state.tasks[0][0] == "turn_card"
    )


def test_reinforcement_phase_combat_cards_go_under_a_unit_turn_cards_resolve_at_once() -> None:
    """§Reinforcement Phase, worked through: one draw a Turn; a Combat Reinforcement goes face
    down under one of the drawer's units at once (no hand to keep it in), several may pile up
    under one unit, rivals count them but see them only when that unit fights; a Turn
    Reinforcement is shown to all and resolved or thrown away at once; a spent deck is rebuilt
    from the discard pile; then the next player clockwise takes a Turn."""
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (1, 1): (1, "elves-rangers"),
            (5, 5): (1, "elves-oak-queen"),
        }
    )
    stack(state, "2-attack", "spyglass", "3-defence", "1-strength")
    deck = len(state.deck)
    state.apply(PASS)
    assert len(state.deck) == deck - 1  # one draw
    assert state.legal_actions() == [Action("reinforce", (0, 0)), Action("reinforce", (0, 1))]
    assert state.observation(1)["decision"]["card"] is None  # drawn face down
    state.apply(Action("reinforce", (0, 1)))
    assert state.current_player() == 1 and len(state.deck) == deck - 1

    state.apply(PASS)
    assert state.tasks[0][0] == "turn_card"
    assert state.observation(0)["decision"]["card"] == "spyglass"  # revealed to everyone
    assert Action("ignore") in state.legal_actions()
    state.apply(Action("ignore"))
    assert [GAME.table[c].key for c in state.discard] == ["spyglass"]  # not kept for later
    assert not any(state.under.get(state.board[sq]) for sq in state.units_of(1))
    assert state.current_player() == 0

    state.apply(PASS)
    state.apply(Action("reinforce", (0, 1)))  # a second card under the same unit
    mine = {tuple(u["square"]): u for u in state.observation(0)["battlefield"]}
    theirs = {tuple(u["square"]): u for u in state.observation(1)["battlefield"]}
    assert mine[(0, 1)]["reinforcement_cards"] == ["2-attack", "3-defence"]
    assert theirs[(0, 1)]["reinforcements"] == 2 and theirs[(0, 1)]["reinforcement_cards"] is None

    state.apply(Action("attack", (1, 1, 0, 1)))  # the unit fights: its cards are revealed
    event = combat_event(state)
    assert event["defender_cards"] == ["2-attack", "3-defence"]
    assert event["totals"] == [3 + 3, 5 + 1 + 3]  # a defender's +2 Attack card counts nothing
    state.apply(Action("reinforce", (5, 5)))  # the attacker's own Reinforcement Phase
    assert state.current_player() == 0

    left = sorted(state.discard)
    state.deck = []
    state.apply(PASS)
    assert any(e.kind == "reshuffle" for e in state.event_log())
    drawn = state.tasks[0][2]
    assert sorted([*state.deck, drawn]) == left  # the new deck is the old discard pile


# --- Doom (§Doom Action, §Doom Example) ------------------------------------------------------
def test_doom_example() -> None:
    """§Doom Example played move for move (A: seat 0 with three units, B: seat 1 with two), with
    §Doom Action's procedure: everyone must discard, a unit's reinforcements go with it."""
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (0, "empire-legionnaires"),
            (2, 0): (0, "empire-engineers"),
            (2, 1): (1, "elves-oak-queen"),
            (3, 1): (1, "elves-pathfinders"),
        }
    )
    under(state, (3, 1), "2-defence")
    stack(state, "1-strength")
    deck_before = len(state.deck)
    state.apply(DOOM)
    assert state.current_player() == 1  # the player to the caller's left discards first
    # a discard is compulsory: any one of B's units, nothing else
    assert state.legal_actions() == [Action("discard", (2, 1)), Action("discard", (3, 1))]
    state.apply(Action("discard", (3, 1)))
    assert [GAME.table[c].key for c in state.discard] == ["2-defence"]  # with its unit
    assert state.current_player() == 0  # the caller discards last
    state.apply(Action("discard", (1, 0)))
    assert len(state.units_of(0)) == 2 and state.units_of(1) == [(2, 1)]  # B: only the Liege
    assert at((2, 1), state) == "elves-oak-queen"
    discarded = [[GAME.table[u].key for u in pile] for pile in state.unit_discards]
    assert discarded == [["empire-legionnaires"], ["elves-pathfinders"]]
    assert all(state.alive)  # nobody gave up a Liege: nobody is eradicated yet
    assert len(state.deck) == deck_before  # Doom skips the Reinforcement Phase
    assert state.tasks[0][:2] == ("action", 1)
    state.apply(Action("attack", (2, 1, 2, 0)))  # the Oak Queen against the Engineers: 5 vs 5
    assert combat_event(state)["defeated"] == ["defender"]
    state.apply(Action("reinforce", (2, 0)))
    assert len(state.units_of(0)) == 1 and len(state.units_of(1)) == 1
    assert state.tasks[0][:2] == ("action", 0)  # A's turn again
    state.apply(DOOM)
    assert state.current_player() == 1  # B must give up the one unit left: the Liege
    assert state.legal_actions() == [Action("discard", (2, 0))]
    state.apply(Action("discard", (2, 0)))
    assert not state.alive[1] and state.units_of(1) == []  # B is eradicated
    assert "elves-oak-queen" in [GAME.table[u].key for u in state.unit_discards[1]]
    assert state.is_terminal() and state.end_reason() == WIN_REASON
    assert state.returns() == [1.0, -1.0] and state.winner() == 0  # A is victorious
    assert state.units_of(0) == [(0, 0)]  # the caller won without discarding


def test_doom_goes_clockwise_from_the_callers_left_and_pays_the_eradication_bonus() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-archers"),
            (1, 0): (1, "elves-oak-queen"),
            (2, 0): (2, "azuma-shogun"),
            (2, 1): (2, "azuma-monk"),
        },
        ("empire", "elves", "azuma"),
        active=1,
    )
    state.unit_discards[1].append(take(state, state.faction_decks[1], "elves-rangers"))
    state.apply(DOOM)
    assert state.current_player() == 2
    state.apply(Action("discard", (2, 1)))
    assert state.current_player() == 0
    state.apply(Action("discard", (0, 0)))  # Empire gives up its Liege: eradicated
    assert not state.alive[0] and state.units_of(0) == []
    assert state.current_player() == 1 and state.tasks[0][0] == "recall"  # the caller's bonus
    state.apply(Action("recall", ("elves-rangers", 1, 1)))
    assert at((1, 1), state) == "elves-rangers"
    assert state.observation(2)["battlefield"][1]["unit"] is not None  # from a face-up pile
    assert state.current_player() == 1 and state.tasks[0][0] == "doom_discard"
    state.apply(Action("discard", (1, 1)))
    assert state.current_player() == 2  # turn passes on; Empire is skipped


# --- Victory (§Victory) ----------------------------------------------------------------------
def test_a_defensive_win_over_a_liege_pays_the_bonus_to_the_defender() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (1, 0): (1, "elves-oak-queen"),
            (6, 6): (1, "elves-pathfinders"),
            (5, 5): (2, "azuma-shogun"),
        },
        ("empire", "elves", "azuma"),
        active=1,
    )
    state.unit_discards[0].append(take(state, state.faction_decks[0], "empire-cavalry"))
    state.deck, state.discard = [], []
    state.apply(Action("attack", (1, 0, 0, 0)))  # the Oak Queen 5 against the Sovereign 6 + 2
    assert not state.alive[1] and not state.is_terminal()
    assert state.units_of(1) == []  # the Pathfinders leave with their Liege
    assert state.current_player() == 0 and state.tasks[0][0] == "recall"
    state.apply(state.legal_actions()[0])
    assert len(state.units_of(0)) == 2 and state.current_player() == 2


def test_two_lieges_falling_together_is_a_draw() -> None:
    state = battle(
        {(0, 0): (0, "empire-sovereign"), (1, 0): (1, "umbrous-nightlord")}, ("empire", "umbrous")
    )
    under(state, (1, 0), "2-strength")
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # 6 against 4 + 2: both Lieges fall
    assert state.end_reason() == DRAW_REASON and state.returns() == [0.0, 0.0]


def test_victory_eradication_clears_the_player_and_pays_a_unit_from_the_discard_pile() -> None:
    """§Victory, worked through: a Liege defeated in combat eradicates its player, whose units
    all leave the battlefield and whose Combat Reinforcements go to the Reinforcement Discard
    pile; the eradicator at once picks any unit from their own Unit Discard pile and
    sets it next to one of their units; play goes on until one Liege is left, and its player
    wins."""
    state = battle(
        {
            (0, 0): (0, "empire-archers"),
            (0, 1): (0, "empire-sovereign"),
            (1, 0): (1, "elves-oak-queen"),
            (6, 6): (1, "elves-rangers"),
            (-1, 1): (2, "azuma-shogun"),
            (9, 9): (2, "azuma-monk"),
        },
        ("empire", "elves", "azuma"),
    )
    under(state, (6, 6), "2-strength", "cancel")
    for key in ("empire-cavalry", "empire-engineers"):
        state.unit_discards[0].append(take(state, state.faction_decks[0], key))
    state.deck, state.discard = [], []
    state.apply(Action("attack", (0, 0, 1, 0)))  # Archers 4 + 4 against the Oak Queen 5 + 2
    assert combat_event(state)["defeated"] == ["defender"]
    assert state.alive == [True, False, True] and not state.is_terminal()
    assert state.units_of(1) == []  # the Rangers leave with their Liege
    elves_discard = sorted(GAME.table[u].key for u in state.unit_discards[1])
    assert elves_discard == ["elves-oak-queen", "elves-rangers"]
    assert sorted(GAME.table[c].key for c in state.discard) == ["2-strength", "cancel"]
    # the bonus comes at once, before the Reinforcement Phase: any unit of the Unit Discard
    # pile, on any empty square next to one of the eradicator's units
    assert state.current_player() == 0 and state.tasks[0][0] == "recall"
    next_to_empire = sorted(
        {n for sq in state.units_of(0) for n in neighbours(sq) if n not in state.board}
    )
    assert sorted(a.args for a in state.legal_actions()) == sorted(
        (key, *square)
        for key in ("empire-cavalry", "empire-engineers")
        for square in next_to_empire
    )
    state.apply(Action("recall", ("empire-engineers", 2, 0)))
    assert at((2, 0), state) == "empire-engineers"
    seen = {tuple(u["square"]): u["unit"] for u in state.observation(2)["battlefield"]}
    assert seen[(2, 0)] == "empire-engineers"  # taken from a face-up pile
    assert [GAME.table[u].key for u in state.unit_discards[0]] == ["empire-cavalry"]
    assert state.tasks[0][:2] == ("place_reinforcement", 0)  # then the Reinforcement Phase
    state.apply(Action("reinforce", (2, 0)))
    assert state.current_player() == 2  # the eradicated seat is skipped
    state.apply(PASS)
    state.apply(Action("reinforce", (9, 9)))
    assert state.current_player() == 0 and not state.deck and not state.discard
    state.apply(Action("attack", (0, 1, -1, 1)))  # the Sovereign 6 against the Shogun 5
    assert combat_event(state)["totals"] == [6, 5]
    assert state.is_terminal() and state.end_reason() == WIN_REASON
    assert state.returns() == [1.0, -1.0, -1.0] and state.winner() == 0  # the last Liege
    assert [GAME.table[u].key for u in state.unit_discards[0]] == ["empire-cavalry"]  # no bonus


def test_the_turn_limit_ends_a_game_in_a_draw() -> None:
    state = GAME.new_initial_state(1, {"factions": ["empire", "elves"], "turn_limit": 3})
    agent = RandomAgent(1)
    while not state.is_terminal():
        action = agent.act(state)
        state.apply(PASS if PASS in state.legal_actions() else action)
    assert state.end_reason() == LIMIT_REASON and state.returns() == [0.0, 0.0]
    assert state.legal_actions() == [] and state.current_player() == TERMINAL


# --- faction actions -------------------------------------------------------------------------
def test_cavalry_march_pathfinder_swap_and_seer_peek() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-cavalry"),
            (1, 0): (0, "empire-archers"),
            (4, 0): (1, "elves-oak-queen"),
        }
    )
    assert Action("march", (0, 0, 0, 2)) in state.legal_actions()
    assert Action("march", (0, 0, 2, 0)) not in state.legal_actions()  # blocked by a friend
    state = battle(
        {
            (0, 0): (1, "elves-pathfinders"),
            (1, 0): (1, "elves-rangers"),
            (0, 2): (0, "umbrous-seer"),
            (3, 3): (0, "umbrous-nightlord"),
        },
        ("umbrous", "elves"),
        active=1,
    )
    stack(state, "1-strength")
    state.apply(Action("swap", (0, 0, 1, 0)))
    assert at((0, 0), state) == "elves-rangers" and at((1, 0), state) == "elves-pathfinders"

    def seen_by(player: int) -> dict[tuple[int, int], str | None]:
        return {tuple(u["square"]): u["unit"] for u in state.observation(player)["battlefield"]}

    # Only Pathfinders make that Action, so making it shows the unit; the other stays hidden.
    assert seen_by(0)[(1, 0)] == "elves-pathfinders" and seen_by(0)[(0, 0)] is None
    state.apply(Action("reinforce", (0, 0)))
    peeks = [a for a in state.legal_actions() if a.kind == "peek"]
    assert peeks == [Action("peek", (0, 2, 0, 0))]  # (1, 0) is 3 steps away
    state.apply(peeks[0])
    assert seen_by(0)[(0, 0)] == "elves-rangers"  # the peeker learns the unit ...
    assert seen_by(1)[(0, 2)] == "umbrous-seer"  # ... and shows what it is by peeking
    assert seen_by(1)[(3, 3)] is None


def test_move_action_an_immobile_unit_is_still_swapped_by_swap_effects() -> None:
    """§Move Action and the card texts: the Ancient Treant cannot make a Move or Attack Action,
    but the Pathfinders swap with "an adjacent friendly unit" and Regroup swaps "two adjacent
    friendly units": neither text leaves the Treant out, and a swap is not a Move Action."""
    state = battle(
        {
            (0, 0): (1, "elves-pathfinders"),
            (1, 0): (1, "elves-ancient-treant"),
            (9, 9): (0, "empire-sovereign"),
        },
        active=1,
    )
    assert not [a for a in state.legal_actions() if a.args[:2] == (1, 0)]  # no Move, no Attack
    stack(state, "regroup")
    state.apply(Action("swap", (0, 0, 1, 0)))
    assert at((0, 0), state) == "elves-ancient-treant" and at((1, 0), state) == "elves-pathfinders"
    assert state.tasks[0][0] == "turn_card"  # Regroup, drawn in the Reinforcement Phase
    assert Action("swap", (0, 0, 1, 0)) in state.legal_actions()
    state.apply(Action("swap", (0, 0, 1, 0)))
    assert at((1, 0), state) == "elves-ancient-treant"
    # a unit seen swapped may be the Treant: the observation does not mark it as having moved
    assert not [u for u in state.observation(0)["battlefield"] if u["moved"]]


def test_a_unit_seen_moving_is_never_dealt_an_immobile_identity() -> None:
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (5, 0): (1, "elves-rangers"),
            (6, 0): (1, "elves-ancient-treant"),
            (7, 0): (1, "elves-oak-queen"),
        },
        active=1,
    )
    state.deck, state.discard = [], []
    state.apply(Action("move", (5, 0, 5, 1)))
    moved = {tuple(u["square"]): u["moved"] for u in state.observation(0)["battlefield"]}
    assert moved[(5, 1)] is True and moved[(6, 0)] is False
    rng = Rng(3)
    dealt = {state.determinise(0, rng).spec_at((5, 1)).key for _ in range(60)}
    assert "elves-ancient-treant" not in dealt and len(dealt) > 1


# --- hidden information ----------------------------------------------------------------------
def test_no_observation_leaks_hidden_cards() -> None:
    """Two states that differ only in what player 0 cannot see look the same to player 0."""

    def build(swap_units: bool, other_card: bool, deck_seed: int) -> ReignState:
        state = battle(
            {
                (0, 0): (0, "empire-sovereign"),
                (1, 0): (1, "elves-rangers" if not swap_units else "elves-wardens"),
                (2, 0): (1, "elves-wardens" if not swap_units else "elves-rangers"),
                (3, 0): (1, "elves-oak-queen"),
            }
        )
        under(state, (2, 0), "cancel" if other_card else "6-defence")
        under(state, (0, 0), "2-attack")
        Rng(deck_seed).shuffle(state.deck)
        return state

    views = {
        json.dumps(build(*variant).observation(0), sort_keys=True)
        for variant in [(False, False, 1), (True, False, 2), (False, True, 3), (True, True, 4)]
    }
    assert len(views) == 1
    assert len({json.dumps(build(s, False, 1).observation(1)) for s in (False, True)}) == 2


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.integers(0, 3))
def test_determinise_keeps_everything_the_player_sees(seed: int, table: int) -> None:
    setup = GAME.example_setups()[table]
    state = GAME.new_initial_state(seed, setup)
    agent = RandomAgent(seed)
    rng = Rng(seed)
    while not state.is_terminal() and len(state.history) < 400:
        if len(state.history) % 7 == 0:
            for player in range(state.n):
                other = state.determinise(player, rng)
                assert other.observation(player) == state.observation(player)
                assert other.zone_counts() == state.zone_counts()
        state.apply(agent.act(state))


# --- playouts and the engine contract --------------------------------------------------------
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32), table=st.integers(0, 3), agent_seed=st.integers(0, 2**16))
def test_random_playouts_keep_every_card_and_end_properly(
    seed: int, table: int, agent_seed: int
) -> None:
    setup = GAME.example_setups()[table]
    state = GAME.new_initial_state(seed, setup)
    cards = total(state)
    agent = RandomAgent(agent_seed)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions and len(actions) == len(set(actions))
        state.apply(agent.act(state))
        assert total(state) == cards
        assert -1.0 <= state.evaluate(state.current_player() if not state.is_terminal() else 0) <= 1
    assert state.legal_actions() == []
    assert state.end_reason() in (WIN_REASON, DRAW_REASON, LIMIT_REASON)
    json.dumps(state.observation(0))
    assert GAME.replay(seed, setup, [a for _, a in state.history]).key() == state.key()


def test_illegal_actions_are_refused() -> None:
    state = battle({(0, 0): (0, "empire-sovereign"), (5, 5): (1, "elves-oak-queen")})
    with pytest.raises(IllegalActionError):
        state.apply(Action("attack", (0, 0, 5, 5)))


def test_same_seed_same_game_whatever_the_global_random_module_does() -> None:
    def run(noise: bool) -> tuple:
        state = GAME.new_initial_state(9, {"factions": ["azuma", "umbrous"]})
        agents: list[Agent] = [RandomAgent(1), GreedyAgent(2)]
        while not state.is_terminal():
            if noise:
                random.random()
            state.apply(agents[state.current_player()].act(state))
        return state.key(), [str(a) for _, a in state.history]

    assert run(False) == run(True)


def test_clone_is_independent() -> None:
    state = GAME.new_initial_state(8, {"factions": ["empire", "elves"]})
    before = state.key()
    copy = state.clone()
    agent = RandomAgent(3)
    while not copy.is_terminal():
        copy.apply(agent.act(copy))
    assert state.key() == before


def test_greedy_and_mcts_agents_finish_games() -> None:
    setup = {"factions": ["empire", "elves"], "turn_limit": 40}
    state = GAME.new_initial_state(2, setup)
    agents: list[Agent] = [
        MCTSAgent(1, iterations=4, rollout_limit=30),
        GreedyAgent(2, max_nodes=200),
    ]
    while not state.is_terminal():
        state.apply(agents[state.current_player()].act(state))
    assert state.end_reason() in (WIN_REASON, DRAW_REASON, LIMIT_REASON)


def test_doom_action_is_taken_when_it_eradicates_the_last_rival() -> None:
    """§Doom Action, §Victory: against a rival down to their Liege, Doom wins on the spot; an
    agent looking one turn ahead counts the Doom under way and calls it."""
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (9, 9): (1, "elves-oak-queen"),
        }
    )
    state.faction_decks = [[], []]
    assert GreedyAgent(3, max_nodes=100).act(state) == DOOM
    after = state.clone()
    after.apply(DOOM)
    assert after.evaluate(0) == 1.0 and after.evaluate(1) == -1.0  # before the discards


def test_search_never_tries_giving_the_liege_to_doom_nor_ignoring_a_free_gift() -> None:
    """§Doom Action, §Victory, §Reinforcement Phase: search agents leave out the dominated
    choices (``search_actions``), and their root priors put a winning attack at 1."""
    state = battle(
        {
            (0, 0): (0, "empire-sovereign"),
            (0, 1): (0, "empire-legionnaires"),
            (1, 1): (1, "umbrous-nightlord"),
            (5, 5): (1, "umbrous-husks"),
        },
        ("empire", "umbrous"),
    )
    state.faction_decks = [[], []]
    state.known[state.board[(1, 1)]] = 0b11  # seen in an earlier combat
    before = state.key(), state.rng.getstate()
    priors = dict(zip(state.search_actions(), state.action_priors(0), strict=True))
    assert priors[Action("attack", (0, 1, 1, 1))] == 1.0  # Legionnaires 5 against 4
    assert (state.key(), state.rng.getstate()) == before  # the game's own draws are untouched
    assert state.search_actions() == state.legal_actions()
    doom = state.clone()
    doom.apply(DOOM)
    assert doom.legal_actions() == [Action("discard", (1, 1)), Action("discard", (5, 5))]
    assert doom.search_actions() == [Action("discard", (5, 5))]  # never the Nightlord
    stack(state, "another-turn")
    state.apply(PASS)
    assert state.legal_actions() == [Action("resolve"), Action("ignore")]
    assert state.search_actions() == [Action("resolve")]


def _archers_two_squares_from_seen_rangers() -> ReignState:
    """The Archers (4, Defence 4) two squares from the Rangers, seen in an earlier combat, whose
    Attack +3 makes 6 (§Attack Action); the Elves' other units and both Lieges are far off."""
    state = battle(
        {
            (0, 0): (0, "empire-archers"),
            (2, 0): (1, "elves-rangers"),
            (10, 10): (1, "elves-ancient-treant"),
            (10, 11): (1, "elves-wardens"),
            (10, 12): (1, "elves-pathfinders"),
        }
    )
    state.faction_decks = [[], []]
    state.known[state.board[(2, 0)]] = 0b11
    return state


@pytest.mark.parametrize("reply_turns", [1, 4])
@pytest.mark.parametrize("seed", range(4))
def test_greedy_with_replies_keeps_a_unit_out_of_a_seen_stronger_units_reach(
    seed: int, reply_turns: int
) -> None:
    """One turn ahead, stepping the Archers beside the Rangers scores best (the evaluation's pull
    towards the enemy); with the Elves' reply played out, the Rangers then attack and win
    (§Attack Action), so ``replies`` keeps the Archers where the Rangers cannot reach them.
    Played on through 4 of the Elves' turns (the default's lines), the agent's own later one-step
    turns walk the Archers in whatever the first move was: scored where the 4 turns end, every
    line lost them alike and the step beside came back; scored as the mean of every return, the
    line where they fall at once still scores worst."""
    beside = Action("move", (0, 0, 1, 0))
    plain = GreedyAgent(seed, samples=6, max_nodes=20)
    assert plain.act(_archers_two_squares_from_seen_rangers()) == beside
    state = _archers_two_squares_from_seen_rangers()
    agent = GreedyAgent(seed, samples=6, max_nodes=20, replies=8, reply_turns=reply_turns)
    choice = agent.act(state)
    assert choice in state.legal_actions() and choice != beside
    state.apply(choice)
    archers = next(sq for sq, u in state.board.items() if state.table[u].key == "empire-archers")
    assert abs(archers[0] - 2) + abs(archers[1]) > 1  # not beside the Rangers


@pytest.mark.parametrize("seed", [1, 3, 10])
def test_greedy_games_end_by_victory_not_by_units_wandering_to_the_turn_limit(seed: int) -> None:
    """§Victory is the only ending the rulebook has: greedy players close in and fight (these
    seeds ran to the 400-turn limit while units wandered apart across the open battlefield)."""
    state = GAME.new_initial_state(seed, {"factions": ["empire", "elves"]}).quiet()
    agents = [GreedyAgent(seed * 2 + 1, max_nodes=100), GreedyAgent(seed * 2 + 2, max_nodes=100)]
    while not state.is_terminal():
        state.apply_unchecked(agents[state.current_player()].act(state))
    assert state.end_reason() == WIN_REASON


def test_rulings_name_engine_tests_that_exist() -> None:
    doc = (Path(__file__).resolve().parents[2] / "docs" / "rules" / "reign-absolute.md").read_text()
    named = set(re.findall(r"tests/rules/test_reign_absolute\.py::(test_\w+)", doc))
    assert named, "the rulings cite no engine test"
    assert not {name for name in named if name not in globals()}


def _square(args: tuple[str | int, ...]) -> tuple[int, int]:
    """An action's (row, column) arguments as the square they name."""
    row, column = args
    assert isinstance(row, int) and isinstance(column, int), args
    return row, column
