"""Fixtures of the page tests: users, sample decklists and decks built from them."""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings

from decks.models import Deck, Visibility
from decks.selectors import format_default
from decks.services import deck_create
from tests.sqlite_reads import readers_not_blocked

SAMPLES = Path(settings.FIXTURES_DIR) / "decks"
RNR = "revolt-n-reign"


def sample(game: str, name: str) -> str:
    """A sample decklist from fixtures/decks/<game>/<name>.txt."""
    return (SAMPLES / game / f"{name}.txt").read_text(encoding="utf-8")


@pytest.fixture
def password() -> str:
    return "a-long-test-passphrase-42"


@pytest.fixture
def user(django_user_model, password):
    return django_user_model.objects.create_user("alice", "alice@example.com", password)


@pytest.fixture
def other_user(django_user_model, password):
    return django_user_model.objects.create_user("bob", "bob@example.com", password)


@pytest.fixture
def alice(client, user):
    """A test client logged in as alice."""
    client.force_login(user)
    return client


def make_deck(
    owner,
    *,
    name: str = "Eagle Control",
    sample_name: str = "legal-eagle-control",
    visibility: str = Visibility.PRIVATE,
    game: str = RNR,
) -> Deck:
    return deck_create(
        owner=owner,
        game=game,
        name=name,
        decklist=sample(game, sample_name),
        format=format_default(game),
        visibility=visibility,
    )


@pytest.fixture
def legal_deck(user) -> Deck:
    return make_deck(user)


def store_matchup_job(
    owner, a: Deck, b: Deck, *, games: int, seed: int, fixed_seats: bool = False, **create
):
    """A matchup job of decks ``a`` and ``b`` between random agents, stored as the matchup page
    stores it (``create`` passes on: ``chunk_size``, ``dispatch``)."""
    from rules.lab.jobs import simulation_job_create
    from rules.lab.plans import matchup_plan

    plan = matchup_plan(
        decks=[a, b], agents=["random", "random"], games=games, fixed_seats=fixed_seats
    )
    return simulation_job_create(kind="matchup", plan=plan, owner=owner, seed=seed, **create)


def two_rnr_decks(owner) -> tuple[Deck, Deck]:
    """Two legal Revolt N Reign sample decks of ``owner``."""
    return make_deck(owner, name="Eagles"), make_deck(
        owner, name="Bisons", sample_name="legal-bison-pressure"
    )


@pytest.fixture
def finished_matchup(user):
    """A two-game Revolt N Reign matchup job of ``user``'s, played to the end."""
    from rules.lab.jobs import simulation_job_play_inline

    a, b = two_rnr_decks(user)
    job = store_matchup_job(user, a, b, games=2, seed=3, dispatch=False)
    return simulation_job_play_inline(job_id=job.pk)


@pytest.fixture
def played_game(alice, user):
    """A game against the AI that ``user`` (logged in as ``alice``) started on /play/."""
    from django.urls import reverse

    from rules.models import PlayedGame

    a, b = two_rnr_decks(user)
    page = alice.post(reverse("play-new"), {"deck": a.pk, "opponent": b.pk, "agent": "random"})
    assert page.status_code == 302
    return PlayedGame.objects.latest("pk")


# -- browser tests (tests/web/browser.py) ---------------------------------------------------------


@pytest.fixture(scope="module")
def browser() -> Iterator[object]:
    """Debian's chromium, headless, for a module's browser tests."""
    from tests.web.browser import CHROMIUM, CHROMIUM_ARGS, sync_api

    # Playwright's sync API keeps an event loop running in this thread; the database work the
    # test does in between is still synchronous, so Django's async guard is lifted meanwhile.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_api.sync_playwright() as playwright:
            launched = playwright.chromium.launch(
                executable_path=str(CHROMIUM), headless=True, args=CHROMIUM_ARGS
            )
            yield launched
            launched.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture(autouse=True)
def _readers_not_blocked_by_writers(request) -> Iterator[None]:
    """The live server reads while other threads write (the in-process simulation runner, for
    one): on SQLite its reads and the test's go without table locks (``tests.sqlite_reads``). A
    500 on a polled page failed a browser test that way (2026-11-29)."""
    if request.node.get_closest_marker("browser") is None:
        yield
        return
    server = request.getfixturevalue("live_server")
    # the live server's requests read through the connection it was started with, which is
    # not this thread's once Playwright runs its event loop here (Django's connections are then
    # kept per context): the server's went without the pragma, and a polled page got a 500
    # (tests/web/test_live_server_reads.py)
    served = list(server.thread.connections_override.values())
    with readers_not_blocked(also=served):
        yield


@pytest.fixture
def page(browser, live_server) -> Iterator[object]:
    """A fresh browser context on the live server (1280x900, the shared timeout)."""
    from tests.web.browser import TIMEOUT_MS

    context = browser.new_context(base_url=live_server.url, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    in_flight: set[object] = set()
    context.on("request", lambda request: in_flight.add(request))
    context.on("requestfinished", lambda request: in_flight.discard(request))
    context.on("requestfailed", lambda request: in_flight.discard(request))
    page = context.new_page()
    yield page
    # Lazy images (a full-page screenshot loads them) may still be on their way: let them land
    # while the test's database is there; the flush that ends a live-server test would otherwise
    # run beside requests the server answers on SQLite's shared in-memory connection.
    waited = 0
    while in_flight and waited < TIMEOUT_MS:
        page.wait_for_timeout(50)
        waited += 50
    context.close()
