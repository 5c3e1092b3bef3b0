"""Every game's data in the test database: loaded once per session, put back after a flush
(with the rows the data migrations made).

A transactional test (a live server's, a real worker's) ends by flushing the database, so the
next one finds no cards. Loading the games again (``load_game_data``: read the YAML, check every
card against its engine, match the rulings documents) costs seconds a time, more on pure-Python
engines; the suite's transactional tests used to spend a large part of CI's PostgreSQL pass on
it. Instead the rows the session's load wrote are kept in memory and written back in bulk, with
the same primary keys, so a test sees exactly what the session's load stored.
"""

from __future__ import annotations

import importlib
import io
from pathlib import Path
from types import SimpleNamespace

from django.apps import apps
from django.conf import settings
from django.core.management import call_command
from django.core.management.color import no_style
from django.db import connection, models, transaction

from cards.gamedata import available_games

#: the apps whose rows the game-data load writes (cards and their vocabularies; formats)
GAME_DATA_APPS = ("cards", "decks")

_snapshot: list[tuple[type[models.Model], list[models.Model]]] = []


def _game_data_models() -> list[type[models.Model]]:
    """The game-data apps' models, the tables many-to-many fields make last (their rows point
    at both sides)."""
    chosen = [
        model
        for model in apps.get_models(include_auto_created=True)
        if model._meta.app_label in GAME_DATA_APPS and not model._meta.proxy
    ]
    return sorted(chosen, key=lambda model: model._meta.auto_created is not False)


#: the data migrations that make rows (module, function); each may run again and again
DATA_MIGRATIONS = [("decks.migrations.0002_organisers_group", "organisers_group_create")]


def _data_migrations_again() -> None:
    """Make the rows the data migrations made (the Organisers group) where a flush took them."""
    editor = SimpleNamespace(connection=connection)
    for module, function in DATA_MIGRATIONS:
        getattr(importlib.import_module(module), function)(apps, editor)


def _load() -> None:
    call_command("load_game_data", verbosity=0, stdout=io.StringIO())


def game_data_load() -> None:
    """Load every game's data (the session's one real load) and keep its rows for
    ``game_data_put_back``. Does nothing without game data (a checkout with no fixtures)."""
    if not available_games(Path(settings.FIXTURES_DIR)):
        return
    _load()
    _snapshot.clear()
    for model in _game_data_models():
        rows = list(model._base_manager.order_by("pk"))
        if rows:
            _snapshot.append((model, rows))


def game_data_put_back() -> None:
    """Put every game's data back where a flush took it away (nothing to do where the games are
    there): the session load's rows, same keys, in bulk; the tables' id sequences then start
    after them (PostgreSQL), as after a load."""
    from cards.models import Game

    kept = next((len(rows) for model, rows in _snapshot if model is Game), 0)
    games = Game.objects.count()
    if kept and games >= kept:
        return
    if not games:  # flushed: the rows the data migrations made went too
        _data_migrations_again()
    if games or not kept:  # not a flushed database, or nothing kept: the load's upserts mend it
        _load()
        return
    with transaction.atomic():
        for model, rows in _snapshot:
            model._base_manager.bulk_create(rows)
        reset = connection.ops.sequence_reset_sql(no_style(), [model for model, _ in _snapshot])
        if reset:
            with connection.cursor() as cursor:
                for statement in reset:
                    cursor.execute(statement)
