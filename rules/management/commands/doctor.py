"""``manage.py doctor --deck 3 --gauntlet 5,8``: the deck doctor's best one-card swaps.

The job is the one the API and the pages create (``rules.lab.doctor``, a simulation job of kind
``doctor``): swaps screened for legality and effect on play, raced by sequential halving with
common random numbers against the gauntlet, one round a chunk. With a broker configured the
rounds go to the workers one after the other and the command waits; without one, or with
``--inline``, this process plays them. Prints the table (or ``--json``); ``--apply N`` then makes
swap N of the table a new version of the deck. Ctrl-C cancels the job.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandError, CommandParser

from rules.lab.doctor import DoctorError, doctor_plan, doctor_swap_apply, doctor_text
from rules.lab.jobs import simulation_job_start
from rules.lab.plans import SimulationJobError
from rules.management.jobrun import job_run_to_end
from rules.models import SimulationJob


def _names(text: str | None) -> list[str]:
    return [part.strip() for part in (text or "").split(",") if part.strip()]


class Command(BaseCommand):
    """Race a deck's one-card swaps against a gauntlet and print the best."""

    help = "The deck doctor: a deck's best legal one-card swaps against a gauntlet of decks."

    def add_arguments(self, parser: CommandParser) -> None:
        """Declare the command-line options."""
        parser.add_argument("--deck", type=int, required=True, help="The deck's id.")
        parser.add_argument(
            "--gauntlet",
            default="",
            help="Comma-separated deck ids to play against (co-operative games: team-mates; "
            "none: the deck alone with a team of --players).",
        )
        parser.add_argument(
            "--games",
            type=int,
            default=4,
            help="Games a swap plays against "
            "each gauntlet deck in the first round (doubling each round).",
        )
        parser.add_argument("--swaps", type=int, default=16, help="Swaps raced at most.")
        parser.add_argument("--top", type=int, default=3, help="Swaps in the last round.")
        parser.add_argument("--players", type=int, default=2, help="Co-operative team size.")
        parser.add_argument("--in", dest="ins", help="Comma-separated cards to try putting in.")
        parser.add_argument("--out", dest="outs", help="Comma-separated cards to try taking out.")
        parser.add_argument("--agent", help="The agent of every seat (default: the game's first).")
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument(
            "--inline", action="store_true", help="Play in this process even with a broker."
        )
        parser.add_argument("--json", action="store_true", help="Print the results as JSON.")
        parser.add_argument(
            "--apply", type=int, help="Make swap N of the table a new version of the deck."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        """Create the job, have it played, print the table."""
        from decks.models import Deck

        try:
            gauntlet_ids = [int(part) for part in _names(options["gauntlet"])]
        except ValueError as error:
            raise CommandError("--gauntlet takes comma-separated deck ids.") from error
        ids = [options["deck"], *gauntlet_ids]
        found = Deck.objects.select_related("game").in_bulk(ids)
        missing = [str(pk) for pk in ids if pk not in found]
        if missing:
            raise CommandError(f"No deck with id {', '.join(missing)}.")
        deck = found[options["deck"]]
        inline = options["inline"] or not settings.CELERY_BROKER_URL
        try:
            plan = doctor_plan(
                deck=deck,
                gauntlet=[found[pk] for pk in gauntlet_ids],
                agent=options["agent"],
                games=options["games"],
                max_swaps=options["swaps"],
                top=options["top"],
                players=options["players"],
                ins=_names(options["ins"]),
                outs=_names(options["outs"]),
                seed=options["seed"],
            )
            job = simulation_job_start(
                kind=SimulationJob.Kind.DOCTOR,
                plan=plan,
                user=None,
                address="",
                operator=True,
                seed=options["seed"],
            )
        except SimulationJobError as error:
            raise CommandError(str(error)) from error
        job = job_run_to_end(
            self,
            job,
            inline=inline,
            described=(
                f"Job {job.pk}: {len(job.doctor['swaps'])} swaps, {job.games_total} games in "
                f"{job.chunk_count} rounds, seed {job.seed}"
            ),
        )
        report = job.aggregate["doctor"]
        if options["json"]:
            self.stdout.write(json.dumps(report, sort_keys=True, indent=2))
        else:
            self.stdout.write(doctor_text(report))
        if options["apply"] is not None:
            best = report["best"]
            if not 1 <= options["apply"] <= len(best):
                raise CommandError(f"--apply takes 1 to {len(best)}, not {options['apply']}.")
            try:
                changed = doctor_swap_apply(
                    job=job, swap=best[options["apply"] - 1]["swap"], actor=deck.owner
                )
            except DoctorError as error:
                raise CommandError(str(error)) from error
            self.stderr.write(f"{changed.name} is now at version {changed.version}.")
