"""Shared fixtures: the real game data loaded once per test session, factories, service probes."""

from __future__ import annotations

import io
import shutil
import tempfile
import time
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from django.conf import settings
from django.core.cache import caches
from django.core.management import call_command
from django.db import connection

from common import counters
from decks.services import organiser_grant
from tests import factories
from tests.failure_reports import pytest_runtest_makereport  # noqa: F401 (a hook: pytest finds it here)
from tests.game_data import game_data_load, game_data_put_back

#: pytest-django's database blocker, once the session's test database is set up
_db_blocker: Any = None


@pytest.fixture(scope="session")
def django_db_setup(django_db_setup, django_db_blocker):
    """Load every game's fixtures into the test database once; tests roll back on top of it, and
    a test after a flush gets the same rows back (``pytest_runtest_setup`` below). At the end,
    the sessions other threads left open on it are ended first, so that it can be dropped."""
    global _db_blocker
    with django_db_blocker.unblock():
        game_data_load()
    _db_blocker = django_db_blocker
    yield
    _db_blocker = None
    with django_db_blocker.unblock():
        _end_other_sessions()


#: the fixtures through which a test reaches the database (besides the ``django_db`` mark)
DATABASE_FIXTURES = frozenset(
    {
        "db",
        "transactional_db",
        "live_server",
        "django_db_reset_sequences",
        "django_db_serialized_rollback",
    }
)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """Before a test that uses the database, and before its fixtures open the test's
    transaction, put back the game data a transactional test's flush took away (a count of the
    games when nothing was flushed). pytest-django runs the transactional tests last, but a
    run split by file (``make test``: pytest-xdist) runs each file's in turn, so the next file's
    tests may come after a flush."""
    if _db_blocker is None:  # the session's database is not set up yet: nothing was flushed
        return
    fixtures = set(getattr(item, "fixturenames", ()))
    if item.get_closest_marker("django_db") is None and not fixtures & DATABASE_FIXTURES:
        return
    with _db_blocker.unblock():
        game_data_put_back()


def _end_other_sessions() -> None:
    """On PostgreSQL, end every other session on the test database, so that it can be dropped
    ("is being accessed by other users" otherwise): a thread of a server a test started may still
    hold one (daphne's threads left 36 while connections were kept for ``CONN_MAX_AGE``; they
    now last one request, ``pytest_configure``)."""
    if connection.vendor != "postgresql":
        return
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE datname = current_database() AND pid <> pg_backend_pid()"
        )


@pytest.fixture(autouse=True)
def _fast_passwords(settings) -> None:
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def pytest_configure(config: pytest.Config) -> None:
    """Rate-limit counters live in this process's memory for the whole run (collection too:
    tests/api/test_schemathesis.py fetches the schema, through the throttle, at import). The shared
    store (a database table or Redis) would add its queries to every pinned query count; the tests
    of the limits themselves (tests/api/test_limits.py) put the real stores back. The counters
    share the default cache's memory (same LOCATION, own key prefix), so a test's
    ``cache.clear()`` resets throttling as it always did."""
    from django.test.utils import override_settings

    default = settings.CACHES["default"]
    shares_memory = default["BACKEND"].endswith("LocMemCache")
    memory = {
        "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
        "LOCATION": default.get("LOCATION", "") if shares_memory else "deckwright-test-limits",
        "KEY_PREFIX": "limits",
    }
    # The shared response cache (decks/httpcache.py) is off too: a test that changes rows
    # without a signal, or rolls back a write, must not be answered from an earlier test's copy;
    # tests/test_http_caching.py turns it on. Nor do validators wait for a change to settle: a
    # test's writes are never committed by another process.
    # Rendered card images go to this run's own folder, not the developer's var/media: two runs
    # at once (CI's SQLite and PostgreSQL passes share the checkout) would otherwise prune each
    # other's files (cards/images/storage.py removes a card's images of other digests).
    global _RUN_MEDIA_ROOT
    _RUN_MEDIA_ROOT = Path(tempfile.mkdtemp(prefix="deckwright-test-media-"))
    # A connection lasts one request here (CONN_MAX_AGE 0), not the minute a server thread keeps
    # it for the next request. Under ASGI each request runs in a thread of its own that ends
    # with it, so a connection kept for later is never reused: it stays open until the garbage
    # collector finds the dead thread's wrapper. The friend-table browser tests (daphne) left
    # 50 such connections on PostgreSQL, and 89 were open at once in a run of the whole suite,
    # where PostgreSQL allows 100; CI's PostgreSQL pass once failed "too many clients already".
    # Every thread reads this dict (``connections`` copies none of it), so it holds for them all.
    settings.DATABASES["default"]["CONN_MAX_AGE"] = 0
    override_settings(
        LIMITS_STORE="cache",
        CACHES={**settings.CACHES, settings.LIMITS_CACHE: memory},
        RESPONSE_CACHE_SECONDS=0,
        CATALOGUE_SETTLE_SECONDS=0,
        MEDIA_ROOT=_RUN_MEDIA_ROOT,
    ).enable()


_RUN_MEDIA_ROOT: Path | None = None


def pytest_unconfigure(config: pytest.Config) -> None:
    if _RUN_MEDIA_ROOT is not None:
        shutil.rmtree(_RUN_MEDIA_ROOT, ignore_errors=True)


@pytest.fixture(autouse=True)
def _fresh_limit_counters() -> None:
    """Every test starts with no rate-limit counts."""
    caches[settings.LIMITS_CACHE].clear()


@pytest.fixture
def still_counter_clock(monkeypatch) -> float:
    """The shared counters' clock stands still while the test runs, so a throttle window's end
    cannot fall between its requests (on a slow machine one did, and a request meant to be
    refused was the first of a new window). Returns the time it stands at."""
    now = time.time()
    monkeypatch.setattr(counters, "time", SimpleNamespace(time=lambda: now))
    return now


@pytest.fixture(autouse=True)
def _fresh_validation_caches():
    """Deck validation caches cards and formats per process, and search the vocabularies; a
    rolled-back test write fires no signal, so every test starts and ends with empty caches."""
    from cards.selectors import card_detail_rows_forget_local
    from cards.vocabulary import vocabularies_forget_local
    from decks.validation.formats import format_rules_forget_local
    from decks.validation.index import card_index_forget_local

    forget = (
        card_index_forget_local,
        format_rules_forget_local,
        vocabularies_forget_local,
        card_detail_rows_forget_local,
    )
    for each in forget:
        each()
    yield
    for each in forget:
        each()


GENERATED_GAME = "generated"


@pytest.fixture
def generated_cards(db):
    """Sixty cards of a generated game (``generate_cards``), more than one 50-card page."""
    from cards.models import Card

    call_command("generate_cards", count=60, game=GENERATED_GAME, seed=11, stdout=io.StringIO())
    return Card.objects.filter(game__slug=GENERATED_GAME)


@pytest.fixture
def organiser(django_user_model):
    """A user with the organiser role (in the Organisers group), who may create events."""
    user = django_user_model.objects.create_user("olga", "olga@example.com", "pw-olga-organiser")
    organiser_grant(user=user)
    return user


@pytest.fixture
def game_factory() -> type[factories.GameFactory]:
    return factories.GameFactory


@pytest.fixture
def card_factory() -> type[factories.CardFactory]:
    return factories.CardFactory


@pytest.fixture
def card_set_factory() -> type[factories.CardSetFactory]:
    return factories.CardSetFactory


@pytest.fixture
def card_type_factory() -> type[factories.CardTypeFactory]:
    return factories.CardTypeFactory


@pytest.fixture
def branch_factory() -> type[factories.BranchFactory]:
    return factories.BranchFactory


@pytest.fixture
def rarity_factory() -> type[factories.RarityFactory]:
    return factories.RarityFactory


@pytest.fixture
def subtype_factory() -> type[factories.SubtypeFactory]:
    return factories.SubtypeFactory


@pytest.fixture
def ruling_factory() -> type[factories.RulingFactory]:
    return factories.RulingFactory


def read_rulebook(file_name: str) -> str:
    """Return a rulebook's text from shared/rulebooks, or skip the test saying where it looked.

    CI always has shared/ beside the repository; a bare clone elsewhere does not.
    """
    path = Path(settings.RULEBOOKS_DIR) / file_name
    if not path.is_file():
        pytest.skip(f"rulebook {path} is missing: shared/ must sit beside the repository")
    return path.read_text(encoding="utf-8")


#: the test suite's toy game: the template game ``manage.py startgame`` writes, by this name
TOY_SLUG = "toy-duel"
TOY_NAME = "Toy Duel"


@pytest.fixture
def toy_tree(tmp_path_factory) -> Path:
    """A temporary project tree (the project's data folders) with the toy game written into it
    at the conventional paths by ``manage.py startgame``."""
    from tests.game_tree import project_tree

    tree = project_tree(tmp_path_factory.mktemp("project"))
    call_command(
        "startgame", TOY_SLUG, "--name", TOY_NAME, "--root", str(tree), stdout=io.StringIO()
    )
    return tree


@pytest.fixture
def toy_duel(db, toy_tree, settings):
    """The toy game planted in its tree, found by ``discover_engines`` (no hand registration),
    wired in and its cards loaded, for one test; unplugged afterwards."""
    from decks.validation.index import card_index_forget_local
    from rules import test_hands
    from rules.engines.core import plugin_for
    from tests.game_tree import planted

    with planted(toy_tree, settings) as found:
        assert found == [TOY_SLUG]
        test_hands._loaded.pop(TOY_SLUG, None)
        card_index_forget_local()
        call_command("load_game_data", "--game", TOY_SLUG, stdout=io.StringIO())
        yield plugin_for(TOY_SLUG)
    test_hands._loaded.pop(TOY_SLUG, None)
    card_index_forget_local()


@pytest.fixture
def deck_owner(django_user_model):
    """A user who owns decks."""
    return django_user_model.objects.create_user("deck-owner", password="pw-for-tests-only")
