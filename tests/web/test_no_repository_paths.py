"""No page shows a path of the repository ("rules/engines/...", "docs/...md", "tests/...py",
".lark"): pages speak to players, and the files are for developers. Every page of the URL conf
is fetched, signed in and with data to show, so a new page is checked as soon as it exists."""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator

import pytest
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from decks.events.services import event_create
from decks.services import organiser_grant
from rules.engines.core import registered_games
from tables.services import friend_table_create
from tests.factories import default_format
from tests.web.conftest import RNR

pytestmark = pytest.mark.django_db

GAMES = registered_games()

# The repository's top-level folders, and the kinds of file a developer reads.
FOLDERS = "api|bench|cards|decks|deckwright|deploy|docs|fixtures|rules|static|templates|tests|web"
FILE_KINDS = "py|md|lark|ya?ml|json|txt|html|css|js|toml"
REPOSITORY_PATH = re.compile(
    rf"(?<![\w/.:-])(?:{FOLDERS})/(?:[\w.-]+/)*[\w.-]+\.(?:{FILE_KINDS})\b"  # docs/api.md
    rf"|(?<![\w/.:-])(?:docs|tests|fixtures|rules/engines|bench)/[\w.<>-]+"  # docs/rules/, tests/x
    r"|(?<![\w/.:-])[\w-]+\.(?:py|lark|md)\b"  # grammar.lark, query-language.md
)
# Commands an administrator runs are not files to read.
COMMANDS = re.compile(r"\b(?:python )?manage\.py\b")


def repository_paths(html: str) -> list[str]:
    """The repository paths ``html`` shows."""
    return REPOSITORY_PATH.findall(COMMANDS.sub("", html))


def test_the_check_finds_the_paths_it_is_meant_to():
    page = (
        "<p>See <code>docs/query-language.md</code>, rules/engines/revolt_n_reign/plugin.py, "
        "tests/web/test_views.py and grammar.lark.</p>"
    )
    assert len(repository_paths(page)) == 4
    assert (
        repository_paths(
            '<link href="/static/css/deckwright.css"><a href="/decks/4/export.json">'
            "<p>12 cards/turn, run python manage.py organiser grant olga, v1.2</p>"
        )
        == []
    )


def named_patterns(patterns: list) -> Iterator[tuple[str, URLPattern]]:
    """Every named URL pattern of a URL conf, included ones too."""
    for entry in patterns:
        if isinstance(entry, URLResolver):
            yield from named_patterns(entry.url_patterns)
        elif entry.name:
            yield entry.name, entry


@pytest.fixture
def site(user, alice, legal_deck, finished_matchup, played_game) -> dict[str, list[str]]:
    """Every named page of the site -> the URLs to fetch, as ``user`` (signed in, an organiser,
    owner of a deck, a finished matchup job, a game against the AI and an event)."""
    organiser_grant(user=user)
    event = event_create(
        game=RNR,
        format=default_format(RNR),
        name="Harbor Open",
        date=timezone.localdate() + dt.timedelta(days=3),
        decklist_deadline=dt.datetime.combine(
            timezone.localdate() + dt.timedelta(days=2), dt.time(18, 0)
        ),
        organiser=user,
    )
    deck, job, game = legal_deck.pk, finished_matchup.pk, played_game.pk
    friend_table = friend_table_create(owner=user, deck=legal_deck)
    uid, token = urlsafe_base64_encode(force_bytes(user.pk)), "set-password"

    def at(name: str, *args: object, query: str = "") -> str:
        return reverse(name, args=args) + (f"?{query}" if query else "")

    return {
        "home": [at("home")],
        "game-detail": [at("game-detail", slug) for slug in GAMES],
        "card-detail": [
            at("card-detail", RNR, "stamp-act"),
            at("card-detail", "rival-realms", "archmage"),
            at("card-detail", "reign-absolute", "elves-oak-queen"),
        ],
        "signup": [at("signup")],
        "login": [at("login")],
        "password_reset": [at("password_reset")],
        "password_reset_confirm": [at("password_reset_confirm", uid, token)],
        "password_reset_done": [at("password_reset_done")],
        "password_reset_complete": [at("password_reset_complete")],
        "password_change": [at("password_change")],
        "password_change_done": [at("password_change_done")],
        "logout": [at("logout")],  # POST only: the refusal is a page too
        "account-token": [at("account-token")],
        "card-browser": [
            at("card-browser"),
            *[at("card-browser", query=f"game={slug}&view=list") for slug in GAMES],
            at("card-browser", query="q=tpye:attack"),  # an error message
            at("card-browser", query="q=t:attack+(b:eagle"),
        ],
        "query-help": [at("query-help")],
        "agents-help": [at("agents-help")],
        "play-help": [at("play-help")],
        "deck-list-public": [at("deck-list-public")],
        "deck-list-mine": [at("deck-list-mine")],
        "deck-new": [at("deck-new"), *[at("deck-new", query=f"game={slug}") for slug in GAMES]],
        "deck-detail": [at("deck-detail", deck)],
        "deck-workspace": [at("deck-workspace", deck)],
        "deck-card-suggest": [at("deck-card-suggest", deck, query="name=eagle")],
        "deck-card-add": [at("deck-card-add", deck)],
        "deck-card-set": [at("deck-card-set", deck)],
        "deck-paste": [at("deck-paste", deck)],
        "deck-settings": [at("deck-settings", deck)],
        "deck-clone": [at("deck-clone", deck)],
        "deck-delete": [at("deck-delete", deck)],
        "deck-versions": [at("deck-versions", deck)],
        "deck-revert": [at("deck-revert", deck, 1)],
        "deck-odds": [at("deck-odds", deck)],
        "deck-doctor": [at("deck-doctor", deck)],
        "deck-test-hands": [at("deck-test-hands", deck)],
        "deck-playtest": [at("deck-playtest", deck)],
        "deck-export": [],  # a decklist file to download, not a page
        "play-home": [at("play-home")],
        "play-new": [at("play-new")],
        "play-game": [at("play-game", game)],
        "play-move": [at("play-move", game)],
        "play-continue": [at("play-continue", game)],
        "play-replay": [at("play-replay", game)],
        "friend-new": [at("friend-new")],
        "friend-table": [at("friend-table", friend_table.pk)],
        "friend-ai": [at("friend-ai", friend_table.pk)],
        "friend-replay": [at("friend-replay", friend_table.pk)],
        "friend-join": [at("friend-join", friend_table.invite_token)],
        "friend-reveal": [at("friend-reveal", friend_table.pk)],
        "friend-watch": [at("friend-watch", friend_table.pk, friend_table.spectator_token)],
        "friend-watch-public": [at("friend-watch-public", friend_table.pk)],
        "friend-watch-replay": [
            at("friend-watch-replay", friend_table.pk, friend_table.spectator_token)
        ],
        "friend-watch-replay-public": [at("friend-watch-replay-public", friend_table.pk)],
        "matchup-new": [at("matchup-new")],
        "matchup-run-moved": [at("matchup-run-moved", job)],
        "matchup-run-step-moved": [at("matchup-run-step-moved", job)],
        "matchup-run-game-moved": [at("matchup-run-game-moved", job, 1)],
        "simulation-new": [at("simulation-new")],
        "simulation-detail": [at("simulation-detail", job)],
        "simulation-game": [at("simulation-game", job, 1)],
        "simulation-progress": [at("simulation-progress", job)],
        "simulation-cancel": [at("simulation-cancel", job)],
        "simulation-apply-swap": [at("simulation-apply-swap", job)],
        "simulation-matrix": [],  # a CSV or JSON file, not a page
        "tournament-check": [at("tournament-check")],
        "tournament-report-csv": [],  # a CSV file, not a page
        "event-list": [at("event-list")],
        "event-new": [at("event-new")],
        "event-detail": [at("event-detail", event.pk)],
        "event-edit": [at("event-edit", event.pk)],
        "event-delete": [at("event-delete", event.pk)],
        "event-registrations": [at("event-registrations", event.pk)],
        "event-registrations-csv": [],  # a CSV file, not a page
        "event-close": [at("event-close", event.pk)],
        "event-register": [at("event-register", event.pk)],
        "event-withdraw": [at("event-withdraw", event.pk)],
    }


def site_pages() -> list:
    """The URL patterns of the site's pages (``web.urls``, as the root URL conf includes it)."""
    for entry in get_resolver().url_patterns:
        if (
            isinstance(entry, URLResolver)
            and getattr(entry.urlconf_module, "__name__", "") == "web.urls"
        ):
            return entry.url_patterns
    raise AssertionError("the root URL conf includes no web.urls")


def test_every_page_of_the_url_conf_is_checked(site):
    names = {name for name, _ in named_patterns(site_pages())}
    assert names == set(site), "list the new page (or why it is no page) in site()"


# Pages for visitors: signed in, they move on elsewhere.
VISITOR_PAGES = {"login", "signup"}


def test_no_page_shows_a_repository_path(alice, site):
    checked = set()
    for name, urls in site.items():
        asker = Client() if name in VISITOR_PAGES else alice
        for url in urls:
            response = asker.get(url)
            assert response.status_code < 500, url
            if not response["Content-Type"].startswith("text/html"):
                continue
            found = repository_paths(response.content.decode())
            assert found == [], f"{url} ({response.status_code}) shows {found}"
            checked.add(name)
    assert checked == {name for name, urls in site.items() if urls}  # every page was HTML
