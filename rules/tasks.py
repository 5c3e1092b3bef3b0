"""Celery tasks of the rules lab, where Celery's autodiscovery looks for them: one chunk of a
simulation job (a matchup, gauntlet, metagame or doctor job alike), stored once whoever plays it
and however often it is delivered. The task lives with the jobs it plays (``rules.jobs``), which
queue it without importing this module."""

from __future__ import annotations

from rules.jobs import simulation_chunk_play

__all__ = ["simulation_chunk_play"]
