"""Celery tasks of the rules lab: a matchup run played by a worker, saved after every chunk."""

from __future__ import annotations

from celery import shared_task

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
