"""``manage.py rvr_solve``: the game-theoretic value of a Regality vs Religion position."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.engines.core import SetupError, get_game
from rules.engines.regality_vs_religion.game import SECRET_VARIANTS, VARIANTS
from rules.engines.regality_vs_religion.notation import format_position
from rules.engines.regality_vs_religion.solver import Solution, Solver, turn_outcomes


class Command(BaseCommand):
    """Solve a Regality vs Religion position and print the result."""

    help = (
        "Solve a Regality vs Religion position with alpha-beta, a transposition table and board "
        "symmetries: winner and ally margin under perfect play. Position notation: see "
        "docs/rules/regality-vs-religion.md (Perfect play)."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        parser.add_argument("--variant", default="old-style", choices=VARIANTS)
        parser.add_argument("--position", help="Position to solve (default: the opening).")
        parser.add_argument("--seed", type=int, default=0, help="Seed for the neutral draw.")
        parser.add_argument("--first", default="regality", choices=["regality", "religion"])
        parser.add_argument(
            "--time-limit", type=float, default=None, help="Seconds (default none)."
        )
        parser.add_argument(
            "--split",
            action="store_true",
            help="Solve each distinct first turn separately and print each as it finishes.",
        )
        parser.add_argument(
            "--max-table",
            type=int,
            default=4_000_000,
            help="Most positions kept in the transposition table (about 0.75 GB per million).",
        )
        parser.add_argument("--json", action="store_true", help="Print one JSON object.")

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the command."""
        if options["variant"] in SECRET_VARIANTS:
            raise CommandError("secret variants hide information; only open positions are solved")
        setup: dict[str, Any] = {"variant": options["variant"], "first": options["first"]}
        if options["position"]:
            setup["position"] = options["position"]
        game = get_game("regality-vs-religion")
        try:
            state = game.new_initial_state(options["seed"], setup)
        except SetupError as exc:
            raise CommandError(str(exc)) from exc
        if state.phase not in ("place", "over"):
            raise CommandError(
                "the solver starts from a placement (draft variants: give a position)"
            )
        limit = options["time_limit"]
        if options["split"] and not state.is_terminal():
            self._split(state, limit, options["json"], options["max_table"])
            return
        solution = Solver(time_limit=limit, max_table=options["max_table"]).solve(state)
        report = _report(format_position(state), solution)
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True))
        else:
            self.stdout.write(_text(report))

    def _split(self, state, limit: float | None, as_json: bool, max_table: int) -> None:
        deadline = None if limit is None else time.monotonic() + limit
        solver = Solver(max_table=max_table)
        mover = state.to_move
        results = []
        best: float | None = None
        outcomes = turn_outcomes(state)
        self.stdout.write(f"{len(outcomes)} distinct first turns (symmetries merged)")
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
            self.stdout.write(json.dumps(entry, sort_keys=True) if as_json else _text(entry))
            self.stdout.flush()
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
        self.stdout.write(json.dumps(summary, sort_keys=True))


def _report(position: str, solution: Solution) -> dict[str, Any]:
    return {
        "position": position,
        "complete": solution.complete,
        "value": solution.value if solution.complete else None,
        "winner": solution.winner if solution.complete else None,
        "margin": solution.margin if solution.complete else None,
        "best_action": str(solution.best_action) if solution.best_action else None,
        "nodes": solution.nodes,
        "seconds": round(solution.seconds, 3),
        "nodes_per_second": round(solution.nodes_per_second),
        "table_size": solution.table_size,
    }


def _text(report: dict[str, Any]) -> str:
    lines = [f"position: {report['position']}"]
    if "turn" in report:
        lines.insert(0, f"first turn: {report['turn']}")
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
        f"searched {report['nodes']} nodes in {report['seconds']} s "
        f"({report['nodes_per_second']} nodes/s, table {report['table_size']})"
    )
    return "\n".join(lines)
