"""The simulation lab: where many games between stored decks are planned, played and read back.

Everything here is Django service code on top of the pure layer of ``rules`` (the engines, the
agents, ``rules.simulation``, ``rules.metagame``, ``rules.gauntlet``, ``rules.ladder``), which
never imports it. Every simulation (a matchup, a gauntlet, a metagame, the doctor's race) is one
``rules.models.SimulationJob`` cut into chunks; no request ever plays a game.

What lives where:

- ``quotas``: the hourly games quotas of visitors, charged as a job is stored;
- ``runner``: the process's one background runner, which plays jobs when no broker is set;
- ``plans``: what a job plays (decks, pairings, agents, setups), every check a user can fail
  made before any job exists (``SimulationJobError``);
- ``doctor``: the deck doctor's plan (one-card swaps screened against a gauntlet), its racing
  rounds and its report;
- ``jobs``: a plan made a job (``simulation_job_start``, the one way web and API start one),
  its chunks played and added up, stale work resumed, and the Celery task that plays a chunk
  (``simulation_chunk_play``, registered as ``rules.simulation_chunk_play``);
- ``selectors``: the reads: a visitor's jobs and their results as plain data;
- ``tasks``: the module Celery's autodiscovery imports (``deckwright/celery.py`` names this
  package) so that a worker registers the task of ``jobs``.

Import order, downwards only (``tests/test_import_layers.py`` fails on a circle or an upward
import): ``quotas``, ``runner`` and ``plans`` import nothing of the lab; ``doctor`` imports
``plans``; ``jobs`` imports ``plans``, ``runner``, ``quotas`` and ``doctor``; ``selectors`` and
``tasks`` import ``jobs``. The lab imports the rest of ``rules`` (models, ``services``,
``matchups``, ``adapters``, the pure layer), ``decks`` and ``cards``; only the surfaces (``web``,
``api``, the management commands, the project's Celery app and servers) import the lab.

This package imports nothing itself, so importing one of its modules loads only what it needs.
"""
