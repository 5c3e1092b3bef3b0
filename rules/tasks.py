"""Celery tasks of the rules lab: a matchup run played by a worker, saved after every chunk, and
one chunk of a simulation job, stored once whoever plays it and however often it is delivered."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from rules.jobs import CHUNK_RETRIES, simulation_chunk_refused, simulation_chunk_run
from rules.models import MatchupRun
from rules.services import matchup_run_play_all


@shared_task(name="rules.matchup_run_play", ignore_result=True)
def matchup_run_play(run_id: int) -> str:
    """Play a matchup run to its end; the run's page reads the progress from the database."""
    try:
        run = matchup_run_play_all(run_id=run_id)
    except MatchupRun.DoesNotExist:
        return "missing"
    return str(run.status)


@shared_task(
    name="rules.simulation_chunk_play",
    bind=True,
    ignore_result=True,
    # acknowledged once stored, and handed out again when the worker process dies mid-chunk
    acks_late=True,
    reject_on_worker_lost=True,
    max_retries=CHUNK_RETRIES,
)
def simulation_chunk_play(self: Any, job_id: int, chunk: int) -> str:
    """Play chunk ``chunk`` of a simulation job and store it (``rules.jobs.simulation_chunk_run``:
    ``stored``, ``duplicate``, ``skipped``, ``failed`` or ``missing``)."""
    try:
        return simulation_chunk_run(job_id=job_id, chunk=chunk)
    except DatabaseError as error:
        if self.request.retries >= CHUNK_RETRIES:
            return simulation_chunk_refused(job_id=job_id, chunk=chunk, error=error)
        raise self.retry(exc=error, countdown=2**self.request.retries) from error
