"""``manage.py simulation_resume``: finish the in-process simulation jobs whose process stopped.

Without a broker a job is played by a background thread of the web process that created it; a
restart (or a crash) of that process leaves the job "running" with no one playing it. Such a job
stops beating (its heartbeat moves as every chunk starts and ends): once it is older than
``SIMULATION_STALE_SECONDS`` (or ``--older-than``), this command plays the job's chunks not
stored yet, in this process, and the job ends with the aggregate an uninterrupted run gives.
Run it after restarting the server (or from cron); ``--dry-run`` only lists the jobs.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from rules.jobs import simulation_job_resume, simulation_jobs_stale


class Command(BaseCommand):
    help = "Finish the in-process simulation jobs left running by a process that stopped."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument(
            "--older-than",
            type=int,
            default=None,
            metavar="SECONDS",
            help="A job is stale once its heartbeat is this old (default: "
            "SIMULATION_STALE_SECONDS).",
        )
        parser.add_argument(
            "--dry-run", action="store_true", help="List the stale jobs; play nothing."
        )

    def handle(self, *args: Any, **options: Any) -> None:
        older = options["older_than"]
        if older is not None and older < 0:
            older = 0
        stale = simulation_jobs_stale(older_than=older)
        if not stale:
            self.stdout.write("No stale simulation jobs.")
            return
        for job in stale:
            what = f"job {job.pk} ({job}, {job.games_done} of {job.games_total} games)"
            if options["dry_run"]:
                self.stdout.write(f"stale: {what}")
                continue
            self.stdout.write(f"resuming {what}")
            ended = simulation_job_resume(job=job)
            if ended is None:
                self.stdout.write(f"job {job.pk}: another process resumed it first")
                continue
            detail = f": {ended.error}" if ended.error else ""
            self.stdout.write(
                f"job {job.pk}: {ended.status}, {ended.games_done} of {ended.games_total} "
                f"games{detail}"
            )
