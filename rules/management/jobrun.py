"""Running a simulation job from a management command (``metagame``, ``doctor``): in this process
or on the workers, progress on stderr, Ctrl-C cancelling the job, a failed job a CommandError."""

from __future__ import annotations

import sys
import time

from django.core.management.base import BaseCommand, CommandError

from rules.lab.jobs import (
    simulation_job_cancel,
    simulation_job_dispatch,
    simulation_job_play_inline,
)
from rules.models import SimulationJob

POLL_SECONDS = 1.0


def job_run_to_end(
    command: BaseCommand, job: SimulationJob, *, inline: bool, described: str
) -> SimulationJob:
    """Play ``job`` (created with ``dispatch=False``) to its end and return it, done.

    ``described`` opens the line that announces the job on stderr (its games, chunks, seed ...);
    where it is played is added. Raises CommandError when the job is cancelled or fails."""
    if inline and job.worker:
        SimulationJob.objects.filter(pk=job.pk).update(worker=False)
    command.stderr.write(f"{described}, " + ("in this process" if inline else "on the workers"))
    try:
        if inline:
            job = simulation_job_play_inline(job_id=job.pk)
        else:
            simulation_job_dispatch(job_id=job.pk)
            job = _wait(command, job)
    except KeyboardInterrupt:
        simulation_job_cancel(job=job)
        raise CommandError(f"Cancelled job {job.pk} ({job.games_done} games played).") from None
    if job.status != SimulationJob.Status.DONE:
        raise CommandError(f"Job {job.pk} ended {job.status}: {job.error}")
    return job


def _wait(command: BaseCommand, job: SimulationJob) -> SimulationJob:
    shown = -1
    while not job.finished:
        time.sleep(POLL_SECONDS)
        job.refresh_from_db()
        if job.games_done != shown:
            shown = job.games_done
            command.stderr.write(f"{job.games_done}/{job.games_total} games")
            sys.stderr.flush()
    return job
