"""``manage.py metagame --decks 3,5,8 --games 20``: a round robin of database decks, as a
simulation job, and its win-rate matrix.

Every pair of the 2-16 decks (of one competitive game) plays ``--games`` games (even, so each
deck sits in each seat half the time), every deck played by ``--agent``. The job is the one the
API creates (``rules.lab.jobs``): with a broker configured (``CELERY_BROKER_URL``) its chunks go to
the workers and the command waits, printing the progress; without one, or with ``--inline``,
this process plays the chunks one after the other. The same seed gives the same matrix whatever
``--chunk-size`` and however many workers played it. Ctrl-C cancels the job.

``--gauntlet`` plays the first deck against each of the others instead (its win rate against each
and overall, the opponents weighted by ``--shares``, one per opponent). In a co-operative game
(Reggae Revolution) no deck plays another: a metagame plays each deck's own team of
``--players`` (default 2) against the game, a gauntlet teams the first deck with each other one,
and the command prints each team's win rate (``rules.gauntlet``).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.gauntlet import rate_table_csv, rate_table_json, rate_table_text
from rules.lab.jobs import simulation_job_start
from rules.lab.plans import SimulationJobError, gauntlet_plan, metagame_plan
from rules.lab.selectors import (
    simulation_job_gauntlet,
    simulation_job_metagame,
    simulation_job_team_field,
)
from rules.management.jobrun import job_run_to_end
from rules.metagame import Metagame, metagame_csv, metagame_json
from rules.models import SimulationJob


def _numbers(text: str, what: str, kind: type) -> list[Any]:
    try:
        return [kind(part) for part in text.split(",") if part.strip()]
    except ValueError as error:
        raise CommandError(f"--{what} takes comma-separated numbers, not {text!r}") from error


class Command(BaseCommand):
    """Play a metagame of database decks and print its matrix."""

    help = "Round robin of 2-16 decks (by id): the win-rate matrix and each deck's field win rate."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        parser.add_argument("--decks", required=True, help="Comma-separated deck ids (2 to 16).")
        parser.add_argument("--games", type=int, default=20, help="Games a pairing (even).")
        parser.add_argument("--agent", help="The agent of every deck (default: the game's first).")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--chunk-size",
            type=int,
            default=None,
            help=f"Games a chunk (default SIMULATION_CHUNK_GAMES, {settings.SIMULATION_CHUNK_GAMES}).",
        )
        parser.add_argument(
            "--shares",
            help="Comma-separated meta share per deck, in --decks order (default equal).",
        )
        parser.add_argument(
            "--gauntlet",
            action="store_true",
            help="The first deck against each of the others (1 to 15), not every pair.",
        )
        parser.add_argument(
            "--players",
            type=int,
            default=None,
            help="Co-operative games: the team size of each deck's team (default 2).",
        )
        parser.add_argument(
            "--inline", action="store_true", help="Play in this process even with a broker."
        )
        output = parser.add_mutually_exclusive_group()
        output.add_argument("--json", action="store_true", help="Print the metagame as JSON.")
        output.add_argument("--csv", action="store_true", help="Print the matrix as CSV.")

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the job, have it played, print the matrix."""
        from decks.models import Deck
        from rules.engines.core import find_plugin

        ids = _numbers(options["decks"], "decks", int)
        found = Deck.objects.select_related("game").in_bulk(ids)
        missing = [str(pk) for pk in ids if pk not in found]
        if missing:
            raise CommandError(f"No deck with id {', '.join(missing)}.")
        decks = [found[pk] for pk in ids]
        shares = _numbers(options["shares"], "shares", float) if options["shares"] else None
        agent = options["agent"]
        if agent is None:
            plugin = find_plugin(decks[0].game.slug)
            agent = plugin.matchup_agents[0] if plugin is not None else "random"
        inline = options["inline"] or not settings.CELERY_BROKER_URL
        kind = SimulationJob.Kind.GAUNTLET if options["gauntlet"] else SimulationJob.Kind.METAGAME
        try:
            if options["gauntlet"]:
                if options["players"] is not None:
                    raise SimulationJobError("A gauntlet seats two decks: no --players.")
                plan = gauntlet_plan(decks=decks, agent=agent, games_per_pairing=options["games"])
            else:
                plan = metagame_plan(
                    decks=decks,
                    agent=agent,
                    games_per_pairing=options["games"],
                    players=options["players"],
                )
            job = simulation_job_start(
                kind=kind,
                plan=plan,
                user=None,
                address="",
                operator=True,
                seed=options["seed"],
                chunk_size=options["chunk_size"],
                meta_shares=shares,
            )
        except SimulationJobError as error:
            raise CommandError(str(error)) from error
        job = job_run_to_end(
            self,
            job,
            inline=inline,
            described=(
                f"Job {job.pk}: {len(plan.pairings)} pairings, {job.games_total} games in "
                f"{job.chunk_count} chunks of {job.chunk_size}, seed {job.seed}, agent {agent}"
            ),
        )
        table = simulation_job_gauntlet(job) or simulation_job_team_field(job)
        if table is not None:
            if options["json"]:
                self.stdout.write(rate_table_json(table))
            elif options["csv"]:
                self.stdout.write(rate_table_csv(table), ending="")
            else:
                self.stdout.write(rate_table_text(table), ending="")
            return
        metagame = simulation_job_metagame(job)
        if metagame is None:  # a metagame's pairings always seat two decks
            raise CommandError(f"Job {job.pk} has no matrix.")
        if options["json"]:
            self.stdout.write(metagame_json(metagame))
        elif options["csv"]:
            self.stdout.write(metagame_csv(metagame), ending="")
        else:
            self.stdout.write(matrix_text(metagame))


def matrix_text(metagame: Metagame) -> str:
    """The matrix as a text table (row deck's win rate in %, against the column's deck), then
    each deck's share and field win rate with its 95% interval."""
    width = max(len(label) for label in metagame.labels)
    numbers = [f"{index + 1:>6}" for index in range(len(metagame.labels))]
    lines = [f"{'':>{width + 4}}" + "".join(numbers)]
    for row, label in enumerate(metagame.labels):
        cells = [
            "     -" if cell is None else f"{100 * (cell.win_rate or 0):6.1f}"
            for cell in metagame.cells[row]
        ]
        lines.append(f"{row + 1:>2}. {label:<{width}}" + "".join(cells))
    lines.append("")
    lines.append("Win rate against the field (weighted by meta share), 95% interval:")
    for field in metagame.field:
        if field.win_rate is None:
            rate = "no games"
        else:
            rate = (
                f"{100 * field.win_rate:5.1f}%  "
                f"({100 * (field.ci_low or 0):.1f}-{100 * (field.ci_high or 0):.1f})"
            )
        share = f"share {100 * field.share:.1f}%"
        lines.append(f"{field.deck + 1:>2}. {field.label:<{width}}  {share:<12} {rate}")
    return "\n".join(lines)
