"""Perft node counts and perfect play for Regality vs Religion (docs/rules/regality-vs-religion.md,
"Perft" and "Perfect play")."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.regality_vs_religion import solver as solver_module
from rules.engines.regality_vs_religion.game import WIN_SCORE
from rules.engines.regality_vs_religion.notation import format_position
from rules.engines.regality_vs_religion.solve_tool import random_benchmark, random_endgame
from rules.engines.regality_vs_religion.solver import (
    ENDGAME_NODES,
    FastSolver,
    Solver,
    endgame_action,
    fast_solvable,
    make_solver,
    perft,
    solve,
)
from tests.rules.rvr_helpers import GAME, play, position

GAME_SLUG = "regality-vs-religion"
TOOL = "game_tool"

PERFT_POSITIONS = {
    "opening": ("old-style", None, [9, 504, 14544, 258344]),
    "midgame": (
        "standard",
        "a1=citizen/reg b2=shaman/rel c1=minister/reg a3=sage/rel | "
        "king,queen,princess,general,wizard,castle | "
        "hierophant,cardinal,saint,bishop,paladin,monk,temple | bard,fairy,tower | reg",
        [42, 1415, 30044],
    ),
    "endgame": (
        "standard",
        "a1=citizen/reg b1=castle/reg c1=hierophant/rel a2=queen/reg!rel b2=witch/rel "
        "c2=sage/reg a3=cardinal/rel | king,pirate,assassin | bishop,temple,hermit | performer "
        "| reg | samurai,ninja",
        [8, 29, 166, 546],
    ),
}


@pytest.mark.parametrize("name", PERFT_POSITIONS)
def test_perft_counts_from_the_published_positions(name):
    variant, text, counts = PERFT_POSITIONS[name]
    setup = {"variant": variant} | ({"position": text} if text else {})
    state = GAME.new_initial_state(0, setup)
    assert [perft(state, depth) for depth in range(1, len(counts) + 1)] == counts


def test_position_notation_round_trips():
    for variant, text, _ in PERFT_POSITIONS.values():
        if text:
            state = position(text, variant)
            assert format_position(position(format_position(state), variant)) == format_position(
                state
            )


ONE_EMPTY = (
    "a1=citizen/reg b1=king/rel c1=queen/reg a2=hierophant/rel b2=castle/reg c2=cardinal/rel "
    "a3=general/reg b3=paladin/rel | minister | bishop | - | reg"
)


def test_last_placement_solved_by_hand():
    # Regality's Minister fills c3 and turns one of b3 / c2 (b2 is a shielded Castle):
    # 4 + 1 + 1 = 6 allies against 3, a win by 3.
    solution = solve(position(ONE_EMPTY, "old-style"))
    assert (solution.winner, solution.margin, solution.value) == ("regality", 3, WIN_SCORE + 3)
    assert str(solution.best_action) == "place minister c3"


def test_death_endgame_solved_by_hand():
    # Regality holds Death on a1 and has a Minister for the last space, b2. Turning Death
    # hands it to Religion, who then loses although Religion has 7 allies to Regality's 2;
    # any other turn leaves Death with Regality, who loses.
    text = (
        "a1=death/reg b1=citizen/rel c1=queen/rel a2=hierophant/rel c2=cardinal/rel "
        "a3=saint/rel b3=bishop/rel c3=castle/reg | minister | monk | - | reg"
    )
    state = position(text)
    solution = Solver().solve(state, root_values=True)
    assert solution.winner == "regality" and solution.margin == 2 - 7
    play(state, "place minister b2")
    assert Solver().solve(state).best_action is not None
    assert str(Solver().solve(state).best_action) == "turn a1"


def _plain_minimax(state) -> float:
    """An independent, table-free, symmetry-free minimax (slow; tiny endgames only)."""
    if state.is_terminal():
        return state.search_value()
    values = []
    for action in state.legal_actions():
        child = state.clone()
        child.apply_unchecked(action)
        values.append(_plain_minimax(child))
    return max(values) if state.current_player() == 0 else min(values)


TWO_EMPTY = [
    "a1=citizen/reg b1=king/rel c1=queen/reg a2=hierophant/rel b2=castle/reg c2=cardinal/rel "
    "a3=general/reg | minister,wizard | bishop,monk | - | reg",
    "a1=citizen/rel b1=king/reg c1=queen/rel b2=princess/reg c2=cardinal/rel a3=general/reg "
    "b3=temple/rel | minister,wizard | bishop,saint | - | rel",
    "a1=citizen/reg b1=castle/rel a2=queen/reg b2=samurai/rel c2=sage/reg a3=cardinal/rel "
    "b3=king/rel | minister | bishop | dragon,fairy | reg",
]


@pytest.mark.parametrize("text", TWO_EMPTY)
def test_solver_agrees_with_plain_minimax_on_small_endgames(text):
    state = position(text)
    assert solve(state).value == _plain_minimax(state)


def test_mirrored_positions_have_the_same_value():
    text = TWO_EMPTY[0]
    mirrored = (
        text.replace("a1=", "X1=")
        .replace("c1=", "a1=")
        .replace("X1=", "c1=")
        .replace("a2=", "X2=")
        .replace("c2=", "a2=")
        .replace("X2=", "c2=")
        .replace("a3=", "c3=")
    )
    assert solve(position(text)).value == solve(position(mirrored)).value


def test_solving_a_five_empty_position_reports_its_search():
    text = (
        "a1=citizen/reg b1=king/rel a2=queen/reg c2=hierophant/rel | minister,castle,general | "
        "cardinal,temple,bishop | - | reg"
    )
    solution = Solver().solve(position(text, "old-style"))
    assert solution.complete and solution.winner in ("regality", "religion")
    assert solution.nodes > 0 and solution.table_size > 0


def test_the_solve_tool_prints_the_result_as_json():
    out = io.StringIO()
    call_command(TOOL, GAME_SLUG, "solve", "--position", ONE_EMPTY, "--json", stdout=out)
    report = json.loads(out.getvalue())
    assert report["winner"] == "regality" and report["margin"] == 3
    assert report["nodes_per_second"] >= 0


def test_after_the_best_move_the_value_is_kept():
    state = position(TWO_EMPTY[0])
    solution = solve(state)
    play(state, str(solution.best_action))
    assert solve(state).value == solution.value


def test_the_solve_tool_explains_what_it_cannot_solve():
    from django.core.management.base import CommandError

    with pytest.raises(CommandError, match="unknown tile"):
        call_command(
            TOOL,
            GAME_SLUG,
            "solve",
            "--position",
            "a1=pawn/reg | - | - | - | reg",
            stdout=io.StringIO(),
        )
    with pytest.raises(CommandError, match="secret"):
        call_command(TOOL, GAME_SLUG, "solve", "--variant", "secret-random", stdout=io.StringIO())
    with pytest.raises(CommandError, match="invalid choice"):
        call_command(TOOL, GAME_SLUG, "solve", "--variant", "chess", stdout=io.StringIO())
    with pytest.raises(CommandError, match="has no tool 'perft'"):
        call_command(TOOL, GAME_SLUG, "perft", stdout=io.StringIO())


def test_game_tool_lists_the_tools_the_plugins_declare():
    out = io.StringIO()
    call_command(TOOL, "--list", stdout=out)
    assert f"{GAME_SLUG} solve" in out.getvalue().splitlines()


# (seed, empty cells): random playouts whose positions the reference solver settles in a second.
RANDOM_ENDGAMES = [(0, 3), (1, 3), (2, 3), (3, 3), (4, 3), (5, 3), (2, 4), (4, 4), (6, 4)]


@pytest.mark.parametrize(("seed", "empty"), RANDOM_ENDGAMES)
def test_fast_solver_agrees_with_the_reference_on_random_endgames(seed, empty):
    state = random_endgame(seed, empty)
    assert fast_solvable(state)
    fast = FastSolver(state).solve(state)
    reference = Solver().solve(state)
    assert fast.complete and reference.complete
    assert fast.value == reference.value
    # The fast solver's best first action keeps the value (checked by the reference).
    play(state, str(fast.best_action))
    assert Solver().solve(state).value == fast.value


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=10**6), empty=st.integers(min_value=1, max_value=3))
def test_fast_solver_agrees_with_the_reference_on_any_small_endgame(seed, empty):
    # given a random old-style playout stopped with at most three empty cells (or at its end)
    state = random_endgame(seed, empty)
    # when both solvers solve it
    fast = FastSolver(state).solve(state)
    reference = Solver().solve(state)
    # then they agree on the value, so on the winner and the margin
    assert fast.complete and reference.complete
    assert (fast.value, fast.winner, fast.margin) == (
        reference.value,
        reference.winner,
        reference.margin,
    )


@pytest.mark.parametrize(("seed", "empty"), [(0, 3), (10, 3), (0, 4), (16, 4)])
def test_storing_end_positions_in_the_table_keeps_the_value(seed, empty, monkeypatch):
    # Deep searches (the opening) also store positions with two spaces or fewer left to fill.
    state = random_endgame(seed, empty)
    direct = FastSolver(state).solve(state)
    monkeypatch.setattr(solver_module, "_SMALL_IN_TABLE", 0)
    stored = FastSolver(state).solve(state)
    assert stored.value == direct.value
    assert stored.table_size > direct.table_size


@pytest.mark.parametrize("text", [ONE_EMPTY, *TWO_EMPTY[:2]])
def test_fast_solver_agrees_with_plain_minimax_on_hand_checked_endgames(text):
    state = position(text)
    assert fast_solvable(state)
    assert FastSolver(state).solve(state).value == _plain_minimax(state)


def test_fast_solver_reproduces_the_published_three_and_four_empty_results():
    three = (
        "b1=king/reg c1=temple/rel a2=hierophant/rel b2=wizard/reg a3=bishop/rel "
        "c3=princess/reg!reg | queen,minister,general,castle | cardinal,saint,paladin,monk | - "
        "| rel | citizen"
    )
    four = (
        "b1=king/reg c1=temple/rel a2=hierophant/rel c2=citizen/reg!reg c3=princess/reg | "
        "queen,minister,general,wizard,castle | cardinal,saint,bishop,paladin,monk | - | rel"
    )
    for text, margin in ((three, 3), (four, 1)):
        solution = solve(position(text, "old-style"))
        assert (solution.winner, solution.margin) == ("religion", margin)


def test_fast_solver_reproduces_the_published_five_empty_result():
    from rules.engines.regality_vs_religion.solve_tool import BENCHMARK_POSITIONS

    label, text = BENCHMARK_POSITIONS[2]
    assert label.startswith("5 empty")
    state = position(text, "old-style")
    solution = solve(state)
    assert (solution.winner, solution.margin) == ("regality", 1)
    # The best first action keeps the value.
    play(state, str(solution.best_action))
    assert solve(state).value == solution.value


def test_positions_outside_the_fast_solver_use_the_general_one():
    assert isinstance(make_solver(position(TWO_EMPTY[2])), Solver)
    assert isinstance(make_solver(position(ONE_EMPTY, "old-style")), FastSolver)
    with pytest.raises(ValueError):
        FastSolver(position(TWO_EMPTY[2]))


def test_the_benchmark_positions_are_old_style_positions_for_the_fast_solver():
    from rules.engines.regality_vs_religion.solve_tool import BENCHMARK_POSITIONS

    for _label, text in BENCHMARK_POSITIONS:
        state = position(text, "old-style")
        assert fast_solvable(state)
        assert sum(code < 0 for code in state.cells) <= 5


def test_random_endgames_stop_at_a_placement_with_the_cells_asked_for():
    for seed in range(5):
        state = random_endgame(seed, 4)
        assert state.phase == "place" and state.variant == "old-style"
        assert sum(code < 0 for code in state.cells) <= 4
    assert format_position(random_endgame(3, 5)) == format_position(random_endgame(3, 5))


def test_the_random_benchmark_reports_its_figures():
    figures = random_benchmark(3, 2)
    assert figures["benchmark"] == "random, 3 empty" and figures["positions"] == 2
    assert 0 <= figures["median_seconds"] <= figures["worst_seconds"]
    assert 0 <= figures["under_one_second"] <= 2 and figures["nodes"] > 0


def _refill_positions(count: int) -> list:
    """Random old-style positions with one empty space and one face-down tile (left by a
    destruction two spaces from the end), the player to move owning no Citizen due."""
    found = []
    for seed in range(400):
        state = random_endgame(seed, 1)
        cells = state.cells
        down = [c for c, code in enumerate(cells) if code >= 0 and code & 0xC0]
        if (
            state.phase == "place"
            and sum(code < 0 for code in cells) == 1
            and len(down) == 1
            and not state.citizen_due
            and fast_solvable(state)
        ):
            found.append(state)
            if len(found) == count:
                break
    return found


def test_the_closed_form_after_a_destruction_agrees_with_the_reference():
    # given positions a destruction leaves: one empty space, one face-down tile
    states = _refill_positions(8)
    assert states, "the sampler found no position left by a destruction"
    for state in states:
        solver = FastSolver(state)
        board, h0, h1, neutral, to_move, _ = solver.compact(state)
        spot = 1 << next(c for c, code in enumerate(state.cells) if code < 0)
        # when the closed form values it, then it is the reference solver's value
        assert solver._refill(board, spot, h0, h1, neutral, to_move) == Solver().solve(state).value


def _fast_without(state, **switches) -> FastSolver:
    """A ``FastSolver`` with some of its shortcuts switched off (attribute = False)."""
    solver = FastSolver(state)
    for name, value in switches.items():
        setattr(solver, name, value)
    return solver


SHORTCUTS = {
    # the search specialised to three spaces to fill, children valued inline
    "inline_three": 3,
    # the bound memo of end positions, keyed only by what the tiles in hand can do, and the
    # cut-offs it gives
    "small_memo": 2,
}


@pytest.mark.parametrize("shortcut", sorted(SHORTCUTS))
@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_each_fast_solver_shortcut_keeps_the_value(shortcut, data):
    # given a random old-style position a few spaces from the end (as near as the shortcut acts)
    seed = data.draw(st.integers(min_value=0, max_value=10**6), label="seed")
    empty = data.draw(st.integers(min_value=SHORTCUTS[shortcut], max_value=4), label="empty")
    state = random_endgame(seed, empty)
    # when it is solved with and without the shortcut
    fast = FastSolver(state).solve(state)
    plain = _fast_without(state, **{shortcut: False}).solve(state)
    # then both searches finish and the values agree
    assert fast.complete and plain.complete
    assert fast.value == plain.value


def _end_nodes(count: int, empty: int) -> list:
    """Compact placement-phase nodes of random old-style playouts with ``empty`` cells (or
    fewer), with the solver that built them and one built for the same position with
    ``simple_destroyers`` off (every destroyer and direction tried, turns enumerated)."""
    found = []
    for seed in range(count):
        state = random_endgame(seed, empty)
        if state.phase == "place" and not state.citizen_due:
            solver = FastSolver(state)
            generic = _fast_without(state, simple_destroyers=False)
            found.append((solver, generic, solver.compact(state)))
    return found


def test_destructions_valued_once_per_space_agree_with_every_destroyer():
    # given end positions (two spaces to fill) where the player to move may hold destroyers
    nodes = _end_nodes(60, 2)
    assert any(solver.destroyers for solver, _, _ in nodes)
    for solver, generic, node in nodes:
        # when _small_search values each space within reach once (King, General and Wizard
        # destroying the same tile from the same space leave the same value) and when it
        # tries every destroyer and every direction
        fast = solver._small_search(*node, -float("inf"), float("inf"))
        slow = generic._small_search(*node, -float("inf"), float("inf"))
        # then the exact values agree
        assert fast == slow


def test_the_closed_form_look_ahead_agrees_with_the_enumerated_one():
    # given positions four to seven spaces from the end
    nodes = [item for empty in (4, 5, 6, 7) for item in _end_nodes(25, empty)]
    assert nodes
    for solver, enumerated, node in nodes:
        # when the one-turn look-ahead is taken in closed form and by enumerating every turn
        # then both give the same estimate, for either player to move
        for player in (0, 1):
            mover = (*node[:4], player, False)
            assert solver._lookahead(mover) == enumerated._lookahead(mover)


def test_a_node_budget_stops_the_solver_at_the_same_point_every_time():
    # given the old-style opening, far beyond a few thousand nodes, for either solver
    state = GAME.new_initial_state(0, {"variant": "old-style"})
    for solver in (lambda: make_solver(state, max_nodes=5000), lambda: Solver(max_nodes=5000)):
        # when it is searched twice with the same node budget
        runs = [solver().solve(state) for _ in range(2)]
        # then both searches give up, after the same number of nodes (no clock involved)
        assert not runs[0].complete and runs[0].best_action is None
        assert runs[0].nodes == runs[1].nodes


def test_the_agents_ask_the_solver_in_small_endgames_only():
    # the opening is no endgame; nor is a hidden-information variant
    assert GAME.new_initial_state(0, {"variant": "old-style"}).solved_action() is None
    assert GAME.new_initial_state(0, {"variant": "secret-random"}).solved_action() is None
    # one space to fill: the Minister goes there, then turns one of Religion's two tiles
    state = position(ONE_EMPTY, "old-style")
    assert str(state.solved_action()) == "place minister c3"
    play(state, "place minister c3")
    assert str(state.solved_action()) in {"turn b3", "turn c2"}
    assert endgame_action(state, max_nodes=ENDGAME_NODES) == state.solved_action()


def _standard_endgame(seed: int, empty: int):
    """Seeded random play from the standard opening to a placement with ``empty`` spaces left."""
    import random

    rng = random.Random(seed)
    state = GAME.new_initial_state(seed, {"variant": "standard"})
    while state.phase != "over" and not (
        state.phase == "place" and sum(code < 0 for code in state.cells) <= empty
    ):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def _keeps_the_value(state, action) -> bool:
    """Perfect play: after ``action`` the position is worth what it was before it."""
    before = make_solver(state).solve(state)
    child = state.clone()
    child.apply(action)
    after = child.search_value() if child.phase == "over" else make_solver(child).solve(child).value
    return before.complete and after == before.value


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_with_a_reach_the_solver_plays_five_spaces_from_the_end_of_old_style(seed):
    # The web's alpha-beta asks the solver with reach 1 (plugin.agent_budgets): five spaces of
    # old-style, where by default the solver declines at more than four.
    state = random_endgame(seed, 5)
    assert state.phase == "place" and sum(code < 0 for code in state.cells) == 5
    assert state.solved_action() is None
    reached = state.solved_action(1)
    assert reached is not None and _keeps_the_value(state, reached)
    assert state.solved_action(1) == reached  # a budget in nodes, not seconds: the same choice


@pytest.mark.parametrize("seed", [0, 11])
def test_with_a_reach_the_solver_plays_three_spaces_from_the_end_where_its_budget_allows(seed):
    # Three spaces of standard play: by default the solver declines; with reach 1 it answers
    # within its node budget (REACH_NODES) where it can (these seeds' positions; of seeds 0-11
    # two fit), else alpha-beta searches as before.
    state = _standard_endgame(seed, 3)
    assert state.phase == "place" and sum(code < 0 for code in state.cells) == 3
    assert state.solved_action() is None
    reached = state.solved_action(1)
    assert reached is not None and _keeps_the_value(state, reached)


def test_a_three_space_endgame_beyond_the_reachs_budget_is_left_to_alpha_beta():
    state = _standard_endgame(1, 3)
    assert state.phase == "place" and sum(code < 0 for code in state.cells) == 3
    assert state.solved_action(1) is None


def test_the_web_alpha_beta_takes_the_solvers_reach():
    from rules.agents import web_agent
    from rules.engines.core import plugin_for

    agent = web_agent("alphabeta", plugin_for(GAME_SLUG))(0)
    assert agent.reach == 1 and agent.depth == 4
    assert web_agent("alphabeta(reach=0)", plugin_for(GAME_SLUG))(0).reach == 0
