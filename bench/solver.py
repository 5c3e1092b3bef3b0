"""Regality vs Religion solver speed: seeded six-empty positions and the old-style opening.

    .venv/bin/python bench/solver.py [--seeds 30] [--opening compiled|both|none] [--builds both|current]

Each seeded position is ``random_endgame(seed, 6)`` (seeded random playouts from the old-style
opening, stopped at the first placement with six empty cells), solved with a fresh solver
(``make_solver(state).solve(state)``, what ``game_tool regality-vs-religion solve`` runs); the
opening is the old-style start, Regality to place the Citizen. Times are CPU seconds of the
process (``time.process_time``: other jobs on a shared machine slow the wall clock more). Every
value is checked against the one recorded before the solver was sped up
(``solve_tool.SIX_EMPTY_VALUES``, ``OPENING_VALUE``); a difference is printed as an error and
the script exits with status 1. With ``--builds both`` (the default when a compiled build is
there) the compiled build and the pure-Python one each run in their own process. Prints figures
only; the goal (issue 29, item 5) is every six-empty position under 1 s and the opening under
60 s, compiled, on one core.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engines import add_builds_option, figures_of_each_build
from rules import compiled
from rules.engines.core import get_game
from rules.engines.regality_vs_religion.game import RvRState
from rules.engines.regality_vs_religion.solve_tool import (
    OPENING_VALUE,
    SIX_EMPTY_VALUES,
    random_endgame,
)
from rules.engines.regality_vs_religion.solver import make_solver


def six_empty(seeds: int) -> dict[str, Any]:
    """Solve the seeded six-empty positions; return per-position and summary figures."""
    rows: list[dict[str, Any]] = []
    for seed in range(seeds):
        state = random_endgame(seed, 6)
        start = time.process_time()
        solution = make_solver(state).solve(state)
        seconds = time.process_time() - start
        expected = SIX_EMPTY_VALUES[seed] if seed < len(SIX_EMPTY_VALUES) else None
        rows.append(
            {
                "seed": seed,
                "seconds": seconds,
                "nodes": solution.nodes,
                "value": solution.value,
                "expected": expected,
            }
        )
    times = [row["seconds"] for row in rows]
    return {
        "rows": rows,
        "median": statistics.median(times),
        "max": max(times),
        "under_one_second": sum(t < 1 for t in times),
        "nodes": sum(row["nodes"] for row in rows),
        "seconds": sum(times),
    }


def opening() -> dict[str, Any]:
    """Solve the old-style opening; return its figures."""
    state = get_game("regality-vs-religion").new_initial_state(0, {"variant": "old-style"})
    assert isinstance(state, RvRState)
    start = time.process_time()
    solution = make_solver(state).solve(state)
    return {
        "seconds": time.process_time() - start,
        "nodes": solution.nodes,
        "value": solution.value,
        "best": str(solution.best_action),
        "table": solution.table_size,
    }


def measure(seeds: int, with_opening: bool) -> dict[str, Any]:
    """Every figure of the build this process runs."""
    return {
        "build": compiled.chosen,
        "six_empty": six_empty(seeds) if seeds else None,
        "opening": opening() if with_opening else None,
    }


def report(figures: dict[str, Any]) -> list[str]:
    """Print one build's figures; return the values that differ from the recorded ones."""
    errors = []
    print(f"== solver: {figures['build']}")
    six = figures["six_empty"]
    if six:
        for row in six["rows"]:
            mark = ""
            if row["expected"] is not None and row["value"] != row["expected"]:
                mark = f"  VALUE CHANGED (recorded {row['expected']})"
                errors.append(f"seed {row['seed']}: {row['value']} != {row['expected']}")
            print(
                f"  seed {row['seed']:2d}: {row['seconds']:6.3f} s {row['nodes']:8d} nodes "
                f"value {row['value']:+.0f}{mark}"
            )
        count = len(six["rows"])
        rate = six["nodes"] / six["seconds"] if six["seconds"] else 0
        print(
            f"six empty, {count} positions: median {six['median']:.3f} s, max {six['max']:.3f} s, "
            f"{six['under_one_second']} of {count} under 1 s, {rate:,.0f} nodes/s"
        )
    first = figures["opening"]
    if first:
        mark = ""
        if first["value"] != OPENING_VALUE:
            mark = f"  VALUE CHANGED (recorded {OPENING_VALUE})"
            errors.append(f"opening: {first['value']} != {OPENING_VALUE}")
        print(
            f"opening (old-style): {first['seconds']:.1f} s, {first['nodes']:,} nodes, "
            f"table {first['table']:,}, value {first['value']:+.0f}, best {first['best']}{mark}"
        )
    return errors


def main() -> None:
    """Print the figures of one build or of both; exit 1 if a value changed."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=len(SIX_EMPTY_VALUES))
    parser.add_argument(
        "--opening",
        choices=("compiled", "both", "none"),
        default="compiled",
        help="which builds solve the opening (pure Python takes minutes)",
    )
    add_builds_option(parser)
    options = parser.parse_args()
    if options.builds == "current":
        with_opening = options.opening == "both" or (
            options.opening == "compiled" and compiled.chosen == "compiled"
        )
        figures = measure(options.seeds, with_opening)
        if options.json:
            print(json.dumps(figures))
            return
        sys.exit(1 if report(figures) else 0)
    errors = []
    for figures in figures_of_each_build(
        ["--seeds", str(options.seeds), "--opening", options.opening]
    ):
        errors += report(figures)
        print()
    if errors:
        print("values changed:", "; ".join(errors))
        sys.exit(1)


if __name__ == "__main__":
    main()
