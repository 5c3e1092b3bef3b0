"""``manage.py simulate --game SLUG --games N --seed S``: agents play many games, summarised."""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.agents import AGENTS
from rules.engines.core import SetupError, get_game, registered_games
from rules.simulation import run


class Command(BaseCommand):
    """Play seeded games between agents and print a report."""

    help = "Play N seeded games between agents and report wins (Wilson 95% CI), lengths, endings."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        parser.add_argument("--game", required=True, help="Game slug.")
        parser.add_argument("--games", type=int, default=100)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--agents",
            default="random,random",
            help=f"Comma-separated agent per seat ({', '.join(AGENTS)}).",
        )
        parser.add_argument(
            "--setup", default="{}", help='Engine setup as JSON, e.g. {"variant": "draft"}.'
        )
        parser.add_argument("--variant", help="Shortcut for the setup's variant.")
        parser.add_argument("--json", action="store_true", help="Print the report as JSON only.")

    def handle(self, *args: Any, **options: Any) -> None:
        """Run the command."""
        slug = options["game"]
        if slug not in registered_games():
            raise CommandError(f"no engine for {slug!r} (known: {', '.join(registered_games())})")
        try:
            setup = json.loads(options["setup"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--setup is not valid JSON: {exc}") from exc
        if not isinstance(setup, dict):
            raise CommandError("--setup must be a JSON object")
        if options["variant"]:
            setup["variant"] = options["variant"]
        agents = [name.strip() for name in options["agents"].split(",") if name.strip()]
        unknown = [name for name in agents if name not in AGENTS]
        if unknown:
            raise CommandError(
                f"unknown agent(s): {', '.join(unknown)} (known: {', '.join(AGENTS)})"
            )
        if options["games"] < 1:
            raise CommandError("--games must be at least 1")
        game = get_game(slug)
        started = time.perf_counter()
        try:
            report = run(game, setup, agents, options["games"], options["seed"])
        except (SetupError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        seconds = time.perf_counter() - started
        if options["json"]:
            self.stdout.write(report.to_json())
            return
        self.stdout.write(f"{report.game}: {report.games} games, seed {report.seed}, setup {setup}")
        if report.team is not None:
            team = report.team
            self.stdout.write(
                f"  team (co-operative): {team.wins} wins, {team.losses} losses, "
                f"{team.win_rate:.1%} [95% CI {team.ci_low:.1%} - {team.ci_high:.1%}]"
            )
        else:
            for side in report.sides:
                self.stdout.write(
                    f"  {side.name} ({side.agent}): {side.wins} wins, {side.win_rate:.1%} "
                    f"[95% CI {side.ci_low:.1%} - {side.ci_high:.1%}]"
                )
            self.stdout.write(f"  draws: {report.draws}")
        self.stdout.write(
            f"  length (actions): mean {report.length_mean:.1f}, "
            f"min {report.length_min}, max {report.length_max}"
        )
        self.stdout.write(f"  length histogram: {report.length_histogram}")
        self.stdout.write(f"  ended by: {report.end_reasons}")
        self.stdout.write(f"  ({seconds:.2f} s)")
