"""``manage.py simulation_resume``: finish the in-process simulation jobs whose process stopped.

Without a broker a job is played by a background thread of the web process that created it; a
restart (or a crash) of that process leaves the job "running" with no one playing it. Such a job
stops beating (its heartbeat moves as every chunk starts and ends, and every
``SIMULATION_HEARTBEAT_SECONDS`` while one plays): once it is older than
``SIMULATION_STALE_SECONDS`` (or ``--older-than``), this command plays the job's chunks not
stored yet, in this process, and the job ends with the aggregate an uninterrupted run gives.
A serving process does the same by itself as it starts and every ``SIMULATION_RESUME_INTERVAL``
seconds (``rules.lab.jobs.simulation_resumer_start``), for every kind of job (matchups included),
and also queues again the chunks whose worker died; the command is for servers that turn it
off, and for workers' jobs.

With a broker (``CELERY_BROKER_URL``), workers' jobs whose heartbeat stopped for as long (their
messages lost, say, with the broker's data) have their chunks not stored yet queued again (a
doctor's job, its first round not stored), whether or not the broker's queue is empty, which
the sweep waits for; a chunk is stored once, so a chunk that was only slow is not counted twice.
``--dry-run`` only lists the jobs.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.management.base import BaseCommand, CommandParser

from rules.lab.jobs import (
    simulation_job_requeue,
    simulation_job_resume,
    simulation_jobs_stale,
    simulation_jobs_stale_on_workers,
)


class Command(BaseCommand):
    help = (
        "Finish the in-process simulation jobs left running by a process that stopped; with a "
        "broker, queue again the missing chunks of workers' jobs that stopped beating."
    )

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
        on_workers = (
            simulation_jobs_stale_on_workers(older_than=older) if settings.CELERY_BROKER_URL else []
        )
        if not stale and not on_workers:
            self.stdout.write("No stale simulation jobs.")
            return
        for job in on_workers:
            what = f"job {job.pk} ({job}, {job.chunks_done} of {job.chunk_count} chunks)"
            if options["dry_run"]:
                self.stdout.write(f"stale on the workers: {what}")
                continue
            queued = simulation_job_requeue(job=job)
            if queued is None:
                self.stdout.write(f"job {job.pk}: another process queued it first")
            else:
                listed = ", ".join(str(chunk) for chunk in queued) or "none (adding them up)"
                self.stdout.write(f"re-queued {what}: chunks {listed}")
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
