"""The solver as a game tool: the game-theoretic value of a Regality vs Religion position.

Run as ``manage.py game_tool regality-vs-religion solve [options]`` (the plugin declares it), or
call ``solve(argv, out)`` directly; it needs no Django.

Old-style positions (and any position whose tiles only turn or destroy on the board) are
searched by the turn-level ``FastSolver``; the rest by the general decision-level ``Solver``.
``--benchmark`` solves the published benchmark positions below (one per line: empty cells, tiles
in hand, position) and prints time and nodes per second for each; the last is the slowest
five-empty position found (eleven tiles in hand, the most a five-empty position can have). It
then solves random positions with 3, 4 and 5 empty cells (``random_endgame``, seeds 0 to
``--benchmark-seeds`` - 1, the sampling the tests use) and prints, per size, the median and worst
CPU time, how many solved in under a second, and nodes per second.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time
from collections.abc import Sequence
from typing import Any, TextIO

from rules.engines.core import SetupError, State, ToolError, get_game
from rules.engines.regality_vs_religion.game import SECRET_VARIANTS, VARIANTS, RvRGame, RvRState
from rules.engines.regality_vs_religion.notation import format_position
from rules.engines.regality_vs_religion.solver import (
    Solution,
    make_solver,
    turn_outcomes,
)

# (label, old-style position): the table in docs/rules/regality-vs-religion.md (Perfect play).
BENCHMARK_POSITIONS = (
    (
        "3 empty (+1 face down), 4+4 in hand",
        "b1=king/reg c1=temple/rel a2=hierophant/rel b2=wizard/reg a3=bishop/rel "
        "c3=princess/reg!reg | queen,minister,general,castle | cardinal,saint,paladin,monk | - "
        "| rel | citizen",
    ),
    (
        "4 empty (+1 face down), 5+5 in hand",
        "b1=king/reg c1=temple/rel a2=hierophant/rel c2=citizen/reg!reg c3=princess/reg | "
        "queen,minister,general,wizard,castle | cardinal,saint,bishop,paladin,monk | - | rel",
    ),
    (
        "5 empty, 6+5 in hand",
        "c1=temple/rel a2=hierophant/rel c2=citizen/reg c3=princess/reg | "
        "king,queen,minister,general,wizard,castle | cardinal,saint,bishop,paladin,monk | - | reg",
    ),
    (
        "5 empty, 6+5 in hand (slow)",
        "a1=bishop/rel a2=citizen/reg b2=minister/rel c3=saint/rel | "
        "king,queen,princess,general,wizard,castle | hierophant,cardinal,paladin,monk,temple | - "
        "| reg",
    ),
    (
        "5 empty (+1 face down), 6+5 in hand (worst found)",
        "c1=bishop/rel a3=princess/reg!rel b3=paladin/rel c3=citizen/reg | "
        "king,queen,minister,general,wizard,castle | hierophant,cardinal,saint,monk,temple | - "
        "| reg",
    ),
)

RANDOM_SIZES = (3, 4, 5)

# Values (Regality's view) of ``random_endgame(seed, 6)`` for seeds 0-29: six empty cells, seven
# or more spaces to fill where a tile lies face down. Recorded on 2026-12-02 from the solver as it
# stood before the speed work of issue 29 item 5 (commit 2053753, ``make_solver(state).solve``,
# compiled build; the pure-Python build gives the same values), so that a faster solver is
# checked against the one before it: ``tests/rules/test_rvr_solver_values.py`` and
# ``bench/solver.py`` compare with them.
# fmt: off
SIX_EMPTY_VALUES = (
    -21, -21, 21, 21, 21, 21, -21, -21, -21, 21,  # seeds 0-9
    -21, -21, 21, -21, 21, 21, -21, -21, 21, -21,  # seeds 10-19
    21, 21, -21, -21, -21, -21, 21, 21, 21, 21,  # seeds 20-29
)
# fmt: on
# The old-style opening (Regality places the Citizen first): Regality wins by one ally
# (docs/rules/regality-vs-religion.md, Perfect play; the same solver on the same day).
OPENING_VALUE = 21
GAME_SLUG = RvRGame.slug


def _rvr_state(state: State) -> RvRState:
    """The engine's state as the solver takes it: the registry hands out the common ``State``,
    and only a Regality vs Religion state can be solved."""
    if not isinstance(state, RvRState):
        raise TypeError(
            f"the solver takes a Regality vs Religion state, not {type(state).__name__} "
            f"(is another engine registered as {GAME_SLUG!r}?)"
        )
    return state


def random_endgame(seed: int, empty: int) -> RvRState:
    """Play seeded random actions from the old-style opening until ``empty`` or fewer cells are
    empty at a placement (or, rarely, the game ends first)."""
    rng = random.Random(seed)
    state = _rvr_state(get_game(GAME_SLUG).new_initial_state(0, {"variant": "old-style"}))
    while state.phase != "over" and not (
        state.phase == "place" and sum(code < 0 for code in state.cells) <= empty
    ):
        state.apply_unchecked(rng.choice(state.legal_actions()))
    return state


def random_benchmark(empty: int, seeds: int) -> dict[str, Any]:
    """Solve ``random_endgame(seed, empty)`` for every seed below ``seeds``; return the figures
    (CPU seconds: other jobs on the machine slow the wall clock, not the CPU time)."""
    times: list[float] = []
    nodes = 0
    for seed in range(seeds):
        state = random_endgame(seed, empty)
        start = time.process_time()
        solution = make_solver(state).solve(state)
        times.append(time.process_time() - start)
        nodes += solution.nodes
    total = sum(times)
    return {
        "benchmark": f"random, {empty} empty",
        "positions": seeds,
        "median_seconds": round(statistics.median(times), 3),
        "worst_seconds": round(max(times), 3),
        "under_one_second": sum(t < 1 for t in times),
        "nodes": nodes,
        "nodes_per_second": round(nodes / total) if total > 0 else nodes,
    }


class _Parser(argparse.ArgumentParser):
    """Argument errors become ``ToolError`` (the caller reports them) instead of an exit."""

    def error(self, message: str) -> None:  # type: ignore[override]
        raise ToolError(message)


def parser() -> argparse.ArgumentParser:
    """The tool's options."""
    parser = _Parser(
        prog="solve",
        description=(
            "Solve a Regality vs Religion position with alpha-beta, a transposition table and "
            "board symmetries: winner and ally margin under perfect play. Position notation: see "
            "docs/rules/regality-vs-religion.md (Perfect play)."
        ),
    )
    parser.add_argument("--variant", default="old-style", choices=VARIANTS)
    parser.add_argument("--position", help="Position to solve (default: the opening).")
    parser.add_argument("--seed", type=int, default=0, help="Seed for the neutral draw.")
    parser.add_argument("--first", default="regality", choices=["regality", "religion"])
    parser.add_argument("--time-limit", type=float, default=None, help="Seconds (default none).")
    parser.add_argument(
        "--split",
        action="store_true",
        help="Solve each distinct first turn separately and print each as it finishes.",
    )
    parser.add_argument(
        "--max-table",
        type=int,
        default=None,
        help=(
            "Most positions kept in the transposition table (default 8 million for old-style "
            "positions, about 0.3 GB per million; 4 million, about 0.75 GB per million, for "
            "the general solver)."
        ),
    )
    parser.add_argument("--json", action="store_true", help="Print one JSON object.")
    parser.add_argument(
        "--benchmark",
        action="store_true",
        help="Solve the benchmark positions (module docstring) and print their figures.",
    )
    parser.add_argument(
        "--benchmark-seeds",
        type=int,
        default=20,
        help="Random positions per size (3, 4 and 5 empty cells) in --benchmark (0: none).",
    )
    return parser


def solve(argv: Sequence[str], out: TextIO) -> None:
    """Solve the position ``argv`` asks for and write the result to ``out``.

    Raises ``ToolError`` for options or a position the solver cannot take."""
    options = vars(parser().parse_args(list(argv)))
    if options["variant"] in SECRET_VARIANTS:
        raise ToolError("secret variants hide information; only open positions are solved")
    if options["benchmark"]:
        _benchmark(out, options["json"], options["benchmark_seeds"])
        return
    setup: dict[str, Any] = {"variant": options["variant"], "first": options["first"]}
    if options["position"]:
        setup["position"] = options["position"]
    game = get_game(GAME_SLUG)
    try:
        state = _rvr_state(game.new_initial_state(options["seed"], setup))
    except SetupError as exc:
        raise ToolError(str(exc)) from exc
    if state.phase not in ("place", "over"):
        raise ToolError("the solver starts from a placement (draft variants: give a position)")
    limit = options["time_limit"]
    if options["split"] and not state.is_terminal():
        _split(out, state, limit, options["json"], options["max_table"])
        return
    solution = make_solver(state, limit, options["max_table"]).solve(state)
    report = _report(format_position(state), solution)
    _write(out, json.dumps(report, sort_keys=True) if options["json"] else _text(report))


def _write(out: TextIO, text: str) -> None:
    out.write(text + "\n")
    out.flush()


def _benchmark(out: TextIO, as_json: bool, seeds: int) -> None:
    game = get_game(GAME_SLUG)
    for label, text in BENCHMARK_POSITIONS:
        state = _rvr_state(game.new_initial_state(0, {"variant": "old-style", "position": text}))
        entry = _report(format_position(state), make_solver(state).solve(state))
        entry["benchmark"] = label
        _write(out, json.dumps(entry, sort_keys=True) if as_json else _text(entry))
    for empty in RANDOM_SIZES if seeds > 0 else ():
        figures = random_benchmark(empty, seeds)
        if as_json:
            _write(out, json.dumps(figures, sort_keys=True))
        else:
            _write(
                out,
                f"{figures['benchmark']}: {seeds} positions, median "
                f"{figures['median_seconds']} s, worst {figures['worst_seconds']} s, "
                f"{figures['under_one_second']} of {seeds} under 1 s, "
                f"{figures['nodes_per_second']} nodes/s (CPU time)",
            )


def _split(
    out: TextIO, state: RvRState, limit: float | None, as_json: bool, max_table: int | None
) -> None:
    deadline = None if limit is None else time.monotonic() + limit
    # Every first turn keeps the tiles in play, so one solver (and its table) serves all.
    solver = make_solver(state, None, max_table)
    mover = state.to_move
    results = []
    best: float | None = None
    outcomes = turn_outcomes(state)
    _write(out, f"{len(outcomes)} distinct first turns (symmetries merged)")
    for child in outcomes.values():
        first_turn = " ; ".join(str(a) for _, a in child.history[len(state.history) :])
        remaining = None if deadline is None else deadline - time.monotonic()
        if remaining is not None and remaining <= 0:
            results.append({"turn": first_turn, "complete": False})
            continue
        solver.time_limit = remaining
        solution = solver.solve(child)
        entry = _report(format_position(child), solution)
        entry["turn"] = first_turn
        results.append(entry)
        _write(out, json.dumps(entry, sort_keys=True) if as_json else _text(entry))
        if solution.complete:
            value = solution.value if mover == 0 else -solution.value
            best = value if best is None else max(best, value)
    complete = all(r.get("complete") for r in results)
    summary = {
        "first_turns": len(results),
        "solved": sum(bool(r.get("complete")) for r in results),
        "complete": complete,
    }
    if complete and best is not None:
        value = best if mover == 0 else -best
        summary.update(_report(format_position(state), Solution(value, None, 0, 0.0, 0)))
    _write(out, json.dumps(summary, sort_keys=True))


def _report(position: str, solution: Solution) -> dict[str, Any]:
    return {
        "position": position,
        "complete": solution.complete,
        "value": solution.value if solution.complete else None,
        "winner": solution.winner if solution.complete else None,
        "margin": solution.margin if solution.complete else None,
        "best_action": str(solution.best_action) if solution.best_action else None,
        "nodes": solution.nodes,
        "node": solution.node,
        "seconds": round(solution.seconds, 3),
        "nodes_per_second": round(solution.nodes_per_second),
        "table_size": solution.table_size,
    }


def _text(report: dict[str, Any]) -> str:
    lines = [f"position: {report['position']}"]
    if "turn" in report:
        lines.insert(0, f"first turn: {report['turn']}")
    if "benchmark" in report:
        lines.insert(0, f"benchmark: {report['benchmark']}")
    if report["complete"]:
        winner = report["winner"] or "nobody (draw)"
        lines.append(
            f"result: {winner} wins by {report['margin']} allies (value {report['value']})"
        )
        if report["best_action"]:
            lines.append(f"best action: {report['best_action']}")
    else:
        lines.append("result: not finished within the time limit")
    lines.append(
        f"searched {report['nodes']} nodes ({report['node']}s) in {report['seconds']} s "
        f"({report['nodes_per_second']} nodes/s, table {report['table_size']})"
    )
    return "\n".join(lines)
