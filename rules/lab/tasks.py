"""Celery tasks of the rules lab, where Celery's autodiscovery looks for them
(``deckwright/celery.py`` names ``rules.lab``): one chunk of a simulation job (a matchup,
gauntlet, metagame or doctor job alike), stored once whoever plays it and however often it is
delivered. The task lives with the jobs it plays (``rules.lab.jobs``), which queue it without
importing this module; its registered name, ``rules.simulation_chunk_play``, is what queued
messages carry, so it stays as it was."""

from __future__ import annotations

from rules.lab.jobs import simulation_chunk_play

__all__ = ["simulation_chunk_play"]
