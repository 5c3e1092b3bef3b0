"""``manage.py simulate --game SLUG --games N --seed S``: agents play many games, summarised.

With decklist files (``--deck-a`` ... ``--deck-d``) the game's plugin seats the decks, the same
way web matchups do (``rules.matchups``): agents are given per deck, or per team member in a
co-operative game, whose team is as large as the list of agents.

Seats rotate by default (fair matchups): game ``k`` seats side ``(s + k) mod N`` in seat ``s``,
each side keeping its agent and deck, so every side sits in every seat equally often; the report
gives the results by side (deck) and by seat. ``--fixed-seats`` keeps side ``s`` in seat ``s``.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.agents import AGENTS
from rules.engines.core import (
    GamePlugin,
    PageWords,
    SetupError,
    get_game,
    plugin_for,
    registered_games,
)
from rules.matchups import DeckFileError, matchup_setup
from rules.simulation import SimulationReport, run

DECK_OPTIONS = ("deck_a", "deck_b", "deck_c", "deck_d")


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
        parser.add_argument(
            "--deck-a", help="Decklist file (text, JSON or CSV) for the first side."
        )
        parser.add_argument("--deck-b", help="Decklist file for the second side.")
        parser.add_argument("--deck-c", help="A third deck (games of more than two players).")
        parser.add_argument("--deck-d", help="A fourth deck.")
        parser.add_argument(
            "--first",
            choices=["a", "b", "c", "d", "rulebook"],
            default="rulebook",
            help="With decks: the deck that moves first (default: the rulebook decides).",
        )
        seating = parser.add_mutually_exclusive_group()
        seating.add_argument(
            "--fixed-seats",
            action="store_true",
            help="Keep every side (agent and deck) in its own seat in every game (by default the "
            "seats rotate: game k seats side (s + k) mod N in seat s).",
        )
        seating.add_argument(
            "--alternate-seats",
            action="store_true",
            help="Rotate the seats (the default; kept for old scripts).",
        )
        parser.add_argument(
            "--log-game", type=int, help="Export game K (0-based) as JSON: seed, setup, actions."
        )
        parser.add_argument("--log-file", help="Where --log-game writes its JSON.")

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
        if (options["log_game"] is None) != (options["log_file"] is None):
            raise CommandError("--log-game and --log-file go together")
        side_names = None
        paths = [options[name] for name in DECK_OPTIONS]
        if any(paths):
            setup, agents, side_names = self._decks(plugin_for(slug), paths, setup, agents, options)
        game = get_game(slug)
        started = time.perf_counter()
        try:
            report = run(
                game,
                setup,
                agents,
                options["games"],
                options["seed"],
                alternate_seats=not options["fixed_seats"],
                log_game=options["log_game"],
                side_names=side_names,
            )
        except (SetupError, ValueError) as exc:
            raise CommandError(str(exc)) from exc
        seconds = time.perf_counter() - started
        if report.game_log is not None:
            try:
                with open(options["log_file"], "w", encoding="utf-8") as handle:
                    json.dump(report.game_log, handle, sort_keys=True, indent=1, default=str)
            except OSError as exc:
                raise CommandError(f"cannot write {options['log_file']}: {exc}") from exc
        if options["json"]:
            self.stdout.write(report.to_json())
            return
        shown = {**setup, "decks": list(side_names)} if side_names is not None else setup
        shown.pop("lineup", None)
        self.stdout.write(f"{report.game}: {report.games} games, seed {report.seed}, setup {shown}")
        for house_rule in plugin_for(slug).words.house_rules_in(setup):
            self.stdout.write(f"  {house_rule}")
        if report.team is not None:
            team = report.team
            self.stdout.write(
                f"  team (co-operative): {team.wins} wins, {team.losses} losses, "
                f"{team.win_rate:.1%} [95% CI {team.ci_low:.1%} - {team.ci_high:.1%}]"
            )
        else:
            self._sides(report)
        self.stdout.write(
            f"  length (actions): mean {report.length_mean:.1f}, "
            f"min {report.length_min}, max {report.length_max}"
        )
        self.stdout.write(f"  length histogram: {report.length_histogram}")
        if report.turns_mean is not None:
            self.stdout.write(
                f"  length (turns): mean {report.turns_mean:.1f}, "
                f"min {report.turns_min}, max {report.turns_max}"
            )
        words = plugin_for(slug).words
        self.stdout.write(f"  ended by: {_endings(words, report.end_reasons)}")
        for side, reasons in report.end_reasons_by_side.items():
            if report.team is not None:  # a co-operative team wins or loses together
                which = "team losses" if side == "draw" else "team wins"
            else:
                which = "drawn games" if side == "draw" else f"{side} winning"
            self.stdout.write(f"  ended by, {which}: {_endings(words, reasons)}")
        if report.first_player is not None:
            first = report.first_player
            self.stdout.write(
                f"  first player: {first.wins} wins, {first.losses} losses, {first.draws} draws, "
                f"{first.win_rate:.1%} [95% CI {first.ci_low:.1%} - {first.ci_high:.1%}]"
            )
        if report.game_log is not None:
            self.stdout.write(f"  game {options['log_game']} written to {options['log_file']}")
        self.stdout.write(f"  ({seconds:.2f} s)")

    def _sides(self, report: SimulationReport) -> None:
        """The results by side (deck and agent), then by seat, then the draws."""
        if report.alternate_seats:
            seating = "seats rotated: game k seats side (s + k) mod N in seat s"
        else:
            seating = "fixed seats: every side kept its seat (--fixed-seats)"
        self.stdout.write(f"  seating: {seating}")
        self.stdout.write("  by side (deck):")
        first = report.first_player is not None
        for side in report.sides:
            moved = (
                f", moved first {side.moved_first} times (won {side.first_wins})" if first else ""
            )
            self.stdout.write(
                f"    {side.name} ({side.agent}): {side.wins} wins, {side.win_rate:.1%} "
                f"[95% CI {side.ci_low:.1%} - {side.ci_high:.1%}]{moved}"
            )
        self.stdout.write("  by seat:")
        for seat in report.seats:
            self.stdout.write(
                f"    seat {seat.seat + 1} ({seat.name}): {seat.wins} wins, {seat.win_rate:.1%} "
                f"[95% CI {seat.ci_low:.1%} - {seat.ci_high:.1%}]"
            )
        self.stdout.write(f"  draws: {report.draws}")

    def _decks(
        self,
        plugin: GamePlugin,
        paths: list[str | None],
        setup: dict[str, Any],
        agents: list[str],
        options: dict[str, Any],
    ) -> tuple[dict[str, Any], list[str], list[str]]:
        """The setup seating the decklist files, the agents by seat and the sides' names."""
        given = [path for path in paths if path]
        if paths[: len(given)] != given:
            raise CommandError("give the decks in order: --deck-a, then --deck-b, --deck-c ...")
        if not plugin.min_decks <= len(given) <= plugin.max_decks:
            wanted = f"{plugin.min_decks}" + (
                f" to {plugin.max_decks}" if plugin.max_decks > plugin.min_decks else ""
            )
            noun = "deck" if plugin.max_decks == 1 else "decks"
            together = "--deck-a and --deck-b go together: " if len(given) == 1 else ""
            raise CommandError(
                f"{together}{plugin.name} is played by {wanted} {noun}, not {len(given)}"
            )
        team = bool(plugin.team_sizes)
        if not team and len(agents) != len(given):
            raise CommandError(
                f"give one agent per deck: {len(given)} decks, {len(agents)} agents in --agents"
            )
        first = None if options["first"] == "rulebook" else "abcd".index(options["first"])
        if first is not None and first >= len(given):
            raise CommandError(f"--first {options['first']}: there is no deck {options['first']}")
        try:
            setup, decks, seats = matchup_setup(
                plugin.slug, given, setup, players=len(agents) if team else 2, first=first
            )
        except DeckFileError as exc:
            raise CommandError(str(exc)) from exc
        if team:
            names = [f"{decks[index].label}, player {seat + 1}" for seat, index in enumerate(seats)]
            return setup, agents, names
        names = [f"{'ABCD'[index]}: {decks[index].label}" for index in seats]
        return setup, [agents[index] for index in seats], names


def _endings(words: PageWords, reasons: dict[str, int]) -> str:
    """End reasons and their counts in the game's words, most frequent first (the JSON report
    keeps the engine's codes)."""
    ranked = sorted(reasons.items(), key=lambda item: (-item[1], item[0]))
    return "; ".join(f"{words.end_reason(code)}: {count}" for code, count in ranked) or "none"
