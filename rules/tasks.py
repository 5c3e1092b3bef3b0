"""Celery tasks of the rules lab: one chunk of a simulation job (a matchup, gauntlet, metagame or
doctor job alike), stored once whoever plays it and however often it is delivered."""

from __future__ import annotations

from typing import Any

from celery import shared_task
from django.db import DatabaseError

from rules.jobs import CHUNK_RETRIES, simulation_chunk_refused, simulation_chunk_run


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
