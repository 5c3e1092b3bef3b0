"""Regality vs Religion turn flow, game end, matches and variants ("How to play", "Game end",
"Destruction", "Game system options")."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import Rng, SetupError
from rules.engines.regality_vs_religion.game import VARIANTS
from tests.rules.rvr_helpers import GAME, area, at, moves, play, position

REGALITY_TILES = ["castle", "general", "king", "minister", "princess", "queen", "wizard"]
RELIGION_TILES = ["bishop", "cardinal", "hierophant", "monk", "paladin", "saint", "temple"]
NEUTRAL_FIVE = ["samurai", "ninja", "bard", "fairy", "dragon"]
CELLS = [f"{file}{rank}" for rank in "123" for file in "abc"]


def _play_out(state, seed=0):
    agent = RandomAgent(seed)
    while not state.is_terminal():
        state.apply(agent.act(state))
    return state


def test_the_starting_player_must_place_the_citizen_first():
    state = GAME.new_initial_state(3)
    assert {a.args[0] for a in state.legal_actions()} == {"citizen"}
    assert len(state.legal_actions()) == 9
    play(state, "place citizen b2")
    assert "citizen" not in area(state, 0)
    assert state.to_move == 1


def test_standard_setup_lays_out_five_neutral_tiles_and_keeps_eleven_apart():
    state = GAME.new_initial_state(11)
    counts = state.zone_counts()
    assert counts["neutral_area"] == 5 and counts["pile"] == 11
    assert len(area(state, 0)) == 8 and len(area(state, 1)) == 7
    assert "citizen" not in [state.tables.keys[t] for t in state.neutral]


def test_religion_can_be_the_starting_player():
    state = GAME.new_initial_state(0, {"first": "religion"})
    assert state.to_move == 1 and "citizen" in area(state, 1)


def test_placing_into_the_last_space_allows_no_destruction():
    text = (
        "a1=citizen/rel b1=bishop/rel c1=saint/rel a2=cardinal/rel b2=castle/reg "
        "c2=queen/reg a3=minister/reg b3=princess/reg | king | paladin | - | reg"
    )
    state = play(position(text), "place king c3")
    assert state.is_terminal() and state.end_reason() == "board-full"
    assert state.allies() == (5, 4) and state.winner() == 0


def test_the_game_does_not_end_while_a_destroyed_tile_lies_face_down():
    text = (
        "a1=citizen/rel b1=bishop/rel c1=saint/rel a2=cardinal/rel b2=castle/reg "
        "c2=queen/reg a3=minister/reg | king,general | paladin,monk | - | reg"
    )
    state = play(position(text), "place king b3", "destroy a2")
    play(state, "place paladin c3")  # fills all nine spaces: Religion may not destroy
    assert at(state, "a2") is None  # still face down when the board filled, removed now
    assert not state.is_terminal() and state.to_move == 0
    # Religion's turn begins and the tile it destroyed is removed then
    assert [e.kind for e in state.events[-3:]] == ["place", "turn-start", "removed"]
    play(state, "place general a2")
    assert state.is_terminal()


def test_a_player_who_cannot_place_a_tile_loses():
    # Game end, Important: a player with nothing to place, of its own tiles or the neutral ones, loses
    state = position("a1=citizen/reg | - | bishop | - | reg")
    assert state.is_terminal() and state.winner() == 1 and state.end_reason() == "no-tile"
    assert state.final_allies == (1, 0)  # the loss stands whatever the count
    neutral_left = position("a1=citizen/reg | - | bishop | samurai | reg")
    assert not neutral_left.is_terminal() and neutral_left.to_move == 0
    assert {m.split()[1] for m in moves(neutral_left)} == {"samurai"}


def test_a_tower_with_no_ally_to_cover_cannot_be_placed_so_its_holder_loses():
    # Ruling 14: the book is silent on a player who holds tiles but can place none; its point
    # system calls this losing "because you were not able to place a tile".
    state = position("a1=citizen/rel | - | bishop | tower | reg")
    assert state.is_terminal() and state.winner() == 1
    assert state.end_reason() == "no-placement"


# A Religion Tower covers a Cardinal on b1; Regality's Pirate destroys the Tower, Religion fills
# the last space, and at the start of Regality's turn the Tower is removed: the Cardinal comes
# back up and all nine spaces hold face-up tiles.
TOWER_UNCOVERED = (
    "a1=citizen/reg b1=tower/rel[cardinal] c1=castle/reg a2=queen/reg c2=saint/rel "
    "a3=minister/reg b3=bishop/rel | king,general | paladin,monk | pirate | reg"
)


def test_game_end_a_board_full_of_face_up_tiles_at_the_start_of_a_turn_counts_the_allies():
    # Game end: a board filled with face-up tiles ends the game and the allies are counted; the
    # loss for having no tile is only for a player with no tile left, and Regality holds two.
    state = play(position(TOWER_UNCOVERED), "place pirate b2", "destroy b1")
    assert at(state, "b1") == "tower/rel[cardinal]!"
    play(state, "place paladin c3")  # the last space: the Paladin may destroy nothing
    assert at(state, "b1") == "cardinal/rel"
    assert sorted(area(state, 0)) == ["general", "king"]
    assert state.is_terminal() and state.end_reason() == "board-full"
    assert state.allies() == (5, 4) and state.final_allies == (5, 4)
    assert state.winner() == 0


def test_game_end_the_solver_values_a_tower_uncovering_full_board_as_the_engine_ends_it():
    from rules.engines.regality_vs_religion.solver import Solver

    state = play(position(TOWER_UNCOVERED), "place pirate b2", "destroy b1")
    # whichever tile Religion places on c3, Regality wins 5 allies to 4 at the start of its turn
    assert Solver().solve(state).value == 20 + 1
    assert Solver().solve(position(TOWER_UNCOVERED)).value >= 20 + 1


def test_game_end_example_the_player_with_the_most_allies_wins():
    # Game end's example of a win: the board is full of face-up tiles, five face you, you win.
    text = (
        "a1=citizen/rel b1=bishop/rel c1=saint/rel a2=cardinal/rel b2=castle/reg "
        "c2=queen/reg a3=minister/reg b3=princess/reg | general | paladin | - | rel"
    )
    state = play(position(text), "place paladin c3")
    assert state.is_terminal() and state.end_reason() == "board-full"
    assert state.allies() == (4, 5) and state.winner() == 1 and state.returns() == [-1.0, 1.0]


def test_best_of_three_match_the_loser_chooses_who_starts_and_neutrals_are_renewed():
    state = GAME.new_initial_state(5, {"match": True})
    first_neutrals = set(state.neutral)
    agent = RandomAgent(2)
    while state.phase != "order":
        state.apply(agent.act(state))
    loser = 1 - state.match_history[0]["winner"]
    assert state.to_move == loser
    assert moves(state) == {"order first", "order second"}
    play(state, "order second")
    assert state.first == 1 - loser
    assert len(state.neutral) == 5 and first_neutrals.isdisjoint(state.neutral)
    _play_out(state, 3)
    assert max(state.wins) == 2 and state.winner() == state.wins.index(2)


@pytest.mark.parametrize("variant", ["random", "secret-random"])
def test_random_variants_deal_two_neutral_tiles_to_each_player(variant):
    state = GAME.new_initial_state(4, {"variant": variant})
    assert state.neutral == []
    assert len(area(state, 0)) == 7 + 1 + 2 and len(area(state, 1)) == 7 + 2
    hidden = state.observation(0)["opponent_hidden"]
    assert hidden == (2 if variant == "secret-random" else 0)


def test_old_style_plays_without_neutral_tiles_but_the_citizen():
    state = GAME.new_initial_state(4, {"variant": "old-style"})
    assert state.neutral == [] and state.zone_counts()["removed"] == 16
    assert sorted(area(state, 0)) == sorted([*REGALITY_TILES, "citizen"])
    assert sorted(area(state, 1)) == sorted(RELIGION_TILES)
    play(state, "place citizen a1")
    assert {m.split()[1] for m in moves(state)} == set(RELIGION_TILES)


def test_draft_order_is_first_second_first_then_second_takes_the_last_two():
    state = GAME.new_initial_state(8, {"variant": "draft"})
    offer = sorted(state.tables.keys[t] for t in state.offer)
    assert state.phase == "draft" and len(offer) == 5
    play(state, f"pick {offer[0]}")
    assert state.to_move == 1
    play(state, f"pick {offer[1]}")
    play(state, f"pick {offer[2]}")
    assert state.phase == "place" and state.to_move == 0
    assert {offer[0], offer[2]} <= set(area(state, 0))
    assert {offer[1], offer[3], offer[4]} <= set(area(state, 1))
    assert state.neutral == []  # every drafted tile is in an area: no neutral area is left
    for player in (0, 1):  # Draft: each side's drafted tiles are on view to both
        seen = state.observation(player)
        assert seen["opponent_hidden"] == 0
        assert sorted(seen["opponent_area"]) == sorted(area(state, 1 - player))


def test_secret_draft_keeps_each_players_picks_hidden_from_the_other():
    state = GAME.new_initial_state(9, {"variant": "secret-draft"})
    assert state.observation(1)["offer"] == [] and len(state.observation(0)["offer"]) == 4
    first_keep = state.legal_actions()[0]
    state.apply(first_keep)  # the starting player keeps one, passes three
    assert state.to_move == 1 and len(state.observation(1)["offer"]) == 3
    passed = state.observation(0)["passed_to_opponent"]
    assert sorted(state.observation(1)["offer"]) == sorted(passed)
    state.apply(state.legal_actions()[0])  # the second player keeps one, discards two
    assert state.to_move == 1 and len(state.observation(1)["offer"]) == 4  # and draws four
    state.apply(state.legal_actions()[0])
    assert state.to_move == 0 and len(state.observation(0)["offer"]) == 3
    state.apply(state.legal_actions()[0])
    assert state.phase == "place"
    assert state.discard == [] and state.zone_counts()["removed"] == 4  # out of the game
    for player in (0, 1):
        seen = state.observation(player)
        assert seen["opponent_hidden"] == 2 and len(seen["own_area"]) >= 9
        assert first_keep.args[0] not in seen["opponent_area"]


def _secret_state(seed: int, steps: int):
    state = GAME.new_initial_state(seed, {"variant": "secret-random"})
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(agent.act(state))
    return state


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10_000), steps=st.integers(0, 12), sample=st.integers(0, 99))
def test_a_determinisation_looks_the_same_to_the_observer(seed, steps, sample):
    state = _secret_state(seed, steps)
    player = 0 if state.is_terminal() else state.current_player()
    guess = state.determinise(player, Rng(sample))
    assert guess.observation(player) == state.observation(player)
    assert sum(guess.zone_counts().values()) == 31
    if not state.is_terminal():
        assert guess.legal_actions() == state.legal_actions()


def test_a_determinisation_does_not_depend_on_the_opponents_secret_tiles():
    state = GAME.new_initial_state(21, {"variant": "secret-random"})
    # given a twin state whose opponent holds different secret tiles (same public picture)
    twin = state.clone()
    old, new = twin.hidden[1][0], twin.pile[0]
    twin.hidden[1][0] = new
    twin.pile[0] = old
    twin.areas[1] = sorted(new if t == old else t for t in twin.areas[1])
    twin.origin[new] = twin.origin.pop(old)
    assert twin.observation(0) == state.observation(0)
    # then Regality's determinisations of both are identical
    for sample in range(5):
        assert state.determinise(0, Rng(sample)).key() == twin.determinise(0, Rng(sample)).key()
    assert twin.observation(1) != state.observation(1)


def test_observations_are_json_and_hide_the_pile():
    state = GAME.new_initial_state(2)
    seen = state.observation(1)
    json.dumps(seen)
    assert seen["unseen_neutral_count"] == 11 and "pile" not in seen


def test_bad_setups_are_refused_with_a_clear_message():
    with pytest.raises(SetupError, match="unknown variant"):
        GAME.new_initial_state(0, {"variant": "chess"})
    with pytest.raises(SetupError, match="unknown tile"):
        GAME.new_initial_state(0, {"position": "a1=pawn/reg | - | - | - | reg"})
    with pytest.raises(SetupError, match="twice"):
        GAME.new_initial_state(0, {"position": "a1=king/reg | king | - | - | rel"})


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_turn_limit_ends_a_looping_game_as_a_draw(variant):
    state = _play_out(GAME.new_initial_state(1, {"variant": variant, "max_placements": 3}))
    assert state.end_reason() == "turn-limit" and state.winner() is None


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 2**32), variant=st.sampled_from(VARIANTS), steps=st.integers(0, 40))
def test_every_tile_is_in_exactly_one_place_after_any_random_sequence(seed, variant, steps):
    state = GAME.new_initial_state(seed, {"variant": variant})
    agent = RandomAgent(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(agent.act(state))
    places = []
    for code in state.cells:
        if code >= 0:
            places.append(code & 31)
            if (code >> 8) - 1 >= 0:
                places.append((code >> 8) - 1)
    for zone in (*state.areas, state.neutral, state.discard, state.offer, state.pile, state.used):
        places.extend(zone)
    assert sorted(places) == list(range(31))
    assert set(state.hidden[0]) <= set(state.areas[0]) and set(state.hidden[1]) <= set(
        state.areas[1]
    )


def test_point_system_counts_allies_and_a_death_loss_scores_nothing():
    state = GAME.new_initial_state(12, {"variant": "standard", "points": 3})
    _play_out(state, 4)
    assert state.games_played == 3
    expected = [0, 0]
    for game in state.match_history:
        for player in (0, 1):
            lost_outright = player != game["winner"] and game["reason"] in (
                "death",
                "no-tile",
                "no-placement",
            )
            expected[player] += 0 if lost_outright else game["allies"][player]
    assert state.points == expected == state.match_history[-1]["points"]
    if expected[0] != expected[1]:
        assert state.winner() == (0 if expected[0] > expected[1] else 1)
    else:
        assert state.winner() is None


def test_point_system_a_player_unable_to_place_a_tile_scores_nothing():
    # Point system: losing because you could not place a tile scores 0, allies or not; the
    # Castle faces Regality but, shielded, cannot be covered by its Tower (ruling 14).
    text = "a1=castle/reg b1=bishop/rel | - | saint | tower | reg"
    state = GAME.new_initial_state(0, {"variant": "standard", "points": 2, "position": text})
    assert state.match_history == [
        {"winner": 1, "reason": "no-placement", "allies": [1, 1], "points": [0, 1]}
    ]


# --- the rulebook's worked examples and procedures (docs: "The rulebook's examples") ---------


@pytest.mark.parametrize(("first", "starter"), [("regality", 0), ("religion", 1)])
def test_preparations_sides_neutral_area_and_the_citizen_go_to_the_starting_player(
    first: str, starter: int
) -> None:
    # Preparations: each side lines up its seven tiles in the open, the Citizen goes to the
    # starting player, five of the other sixteen neutral tiles are laid out face up and the
    # eleven left over take no part; the first turn places the Citizen and nothing else.
    state = GAME.new_initial_state(7, {"first": first})
    sides = [sorted(REGALITY_TILES), sorted(RELIGION_TILES)]
    sides[starter] = sorted([*sides[starter], "citizen"])
    assert [sorted(area(state, p)) for p in (0, 1)] == sides
    neutral = sorted(state.tables.keys[t] for t in state.neutral)
    assert len(neutral) == 5 and "citizen" not in neutral
    assert state.zone_counts()["pile"] == 11 and state.discard == []
    assert all(at(state, cell) is None for cell in CELLS)
    for player in (0, 1):  # open information: both areas and the neutral area are on view
        seen = state.observation(player)
        assert sorted(seen["neutral_area"]) == neutral and seen["opponent_hidden"] == 0
        assert sorted(seen["opponent_area"]) == sides[1 - player]
    assert state.to_move == starter
    assert moves(state) == {f"place citizen {cell}" for cell in CELLS}
    # the sixteen are shuffled: the neutral area changes with the game's seed
    areas = {frozenset(GAME.new_initial_state(seed).neutral) for seed in range(8)}
    assert len(areas) > 1


def test_how_to_play_a_turn_places_a_tile_of_your_area_or_the_neutral_area_facing_you() -> None:
    # How to play: the Citizen faces its player; then each player in turn places one tile of
    # their own area or of the neutral area on any unoccupied space, facing themselves.
    state = GAME.new_initial_state(0, {"neutral": NEUTRAL_FIVE})
    play(state, "place citizen b2")
    assert at(state, "b2") == "citizen/reg" and state.allies() == (1, 0)
    empty = [cell for cell in CELLS if cell != "b2"]
    assert state.to_move == 1
    assert moves(state) == {f"place {t} {c}" for t in RELIGION_TILES + NEUTRAL_FIVE for c in empty}
    play(state, "place samurai a1")  # its neighbours a2 and b1 are empty: nothing to banish
    assert at(state, "a1") == "samurai/rel" and state.allies() == (1, 1)
    assert "samurai" not in [state.tables.keys[t] for t in state.neutral]
    empty.remove("a1")
    neutral_left = [t for t in NEUTRAL_FIVE if t != "samurai"]
    assert state.to_move == 0
    assert moves(state) == {f"place {t} {c}" for t in REGALITY_TILES + neutral_left for c in empty}


def test_game_end_example_the_allies_are_counted_once_the_last_tiles_effect_is_done() -> None:
    # Game end: the board is full once the last tile is placed *and its effect carried out*;
    # the Minister on the ninth space decides who holds more allies.
    text = (
        "a1=citizen/reg b1=king/reg c1=castle/reg a2=cardinal/rel b2=bishop/rel "
        "c2=saint/rel a3=paladin/rel b3=monk/rel | minister | hierophant | - | reg"
    )
    state = play(position(text), "place minister c3")
    assert not state.is_terminal() and state.phase == "effect"
    assert moves(state) == {"decline", "turn b2", "turn c2", "turn b3"}
    declined = play(state.clone(), "decline")
    assert declined.is_terminal() and declined.end_reason() == "board-full"
    assert declined.allies() == (4, 5) and declined.winner() == 1
    turned = play(state, "turn b2")
    assert turned.is_terminal() and turned.end_reason() == "board-full"
    assert turned.allies() == (5, 4) and turned.winner() == 0
    assert turned.returns() == [1.0, -1.0]


def test_optional_rules_running_out_of_neutral_tiles_reshuffles_the_removed_ones() -> None:
    # Optional rules: with the tiles of each game removed (Game end, matches), a fourth game of
    # five neutral tiles finds one left; the removed ones are shuffled into a new pile.
    state = GAME.new_initial_state(3, {"variant": "standard", "points": 4})
    keys = state.tables.keys
    areas = [{keys[t] for t in state.neutral}]
    agent = RandomAgent(1)
    while not state.is_terminal():
        was = state.phase
        state.apply(agent.act(state))
        if was == "order":
            areas.append({keys[t] for t in state.neutral})
    assert state.games_played == 4 and [len(a) for a in areas] == [5, 5, 5, 5]
    earlier = areas[0] | areas[1] | areas[2]
    assert len(earlier) == 15 and "citizen" not in earlier | areas[3]
    never_drawn = {keys[t] for t in state.tables.neutrals} - earlier - {"citizen"}
    assert len(never_drawn) == 1 and never_drawn < areas[3]
    assert len(areas[3] & earlier) == 4  # the rest come from the reshuffled removed tiles


def test_point_system_a_death_loss_scores_nothing_and_equal_points_are_a_draw() -> None:
    # Point system: every ally is a point, except for a player who lost to Death; equal totals
    # after the games agreed on are a draw.
    text = (
        "a1=death/reg b1=citizen/reg c1=king/reg a2=queen/reg b2=hierophant/rel "
        "c2=cardinal/rel a3=saint/rel b3=castle/reg | general | bishop | - | reg"
    )
    state = GAME.new_initial_state(0, {"variant": "standard", "points": 2, "position": text})
    play(state, "place general c3")
    assert state.match_history == [
        {"winner": 1, "reason": "death", "allies": [6, 3], "points": [0, 3]}
    ]
    assert not state.is_terminal() and state.phase == "order"
    every_ally = (
        "a1=death/reg b1=citizen/reg c1=king/reg a2=queen/reg b2=hierophant/reg "
        "c2=cardinal/reg a3=saint/reg b3=castle/reg | general | bishop | - | reg"
    )
    state = GAME.new_initial_state(0, {"variant": "standard", "points": 1, "position": every_ally})
    play(state, "place general c3")  # nine allies, one of them Death: 0 points, and 0 for Religion
    assert state.is_terminal() and state.points == [0, 0]
    assert state.winner() is None and state.returns() == [0.0, 0.0]


def test_the_rulebook_examples_table_names_tests_that_exist() -> None:
    # docs/rules/regality-vs-religion.md, "The rulebook's examples": every test it names exists.
    here = Path(__file__).resolve().parent
    doc = (here.parents[1] / "docs" / "rules" / "regality-vs-religion.md").read_text()
    section = doc.split("### The rulebook's examples", 1)[1].split("\n## ", 1)[0]
    named = re.findall(r"`(?:(test_rvr_\w+\.py)::)?(test_\w+)`", section)
    assert len(named) > 40
    sources = {path.name: path.read_text() for path in here.glob("test_rvr_*.py")}
    for module, name in named:
        files = [sources[module]] if module else list(sources.values())
        assert any(f"def {name}(" in text for text in files), f"{module}::{name}"
