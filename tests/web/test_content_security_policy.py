"""Every main page carries a Content-Security-Policy that runs no inline script without the
request's nonce, and no page holds one: no bare ``<script>`` body, no ``on…=`` handler, no
``javascript:`` URL (common.middleware.ContentSecurityPolicyMiddleware)."""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


SCRIPT_TYPES = {"", "text/javascript", "application/javascript", "module"}


class InlineScripts(HTMLParser):
    """The inline script a page holds: ``<script>`` elements with a body (and their nonce), event
    handler attributes and ``javascript:`` URLs."""

    def __init__(self) -> None:
        super().__init__()
        self.script_nonces: list[str | None] = []  # one per <script> without src
        self.handlers: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = dict(attrs)
        for name, value in attrs:
            if name.startswith("on"):
                self.handlers.append(f"<{tag} {name}={value!r}>")
            if value and value.strip().lower().startswith("javascript:"):
                self.handlers.append(f"<{tag} {name}={value!r}>")
        kind = (values.get("type") or "").strip().lower()
        runs = kind in SCRIPT_TYPES  # a data block (json_script's application/json) never runs
        if tag == "script" and runs and not values.get("src"):
            self.script_nonces.append(values.get("nonce"))


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    directives = {}
    for part in header.split(";"):
        name, *sources = part.split()
        directives[name] = sources
    return directives


def assert_no_inline_script_without_the_nonce(response, where: str) -> None:
    assert response.status_code == 200, where
    directives = policy(response)
    scripts = directives["script-src"]
    assert "'unsafe-inline'" not in scripts and "'unsafe-eval'" not in scripts, where
    assert directives["object-src"] == ["'none'"], where
    nonces = [source[len("'nonce-") : -1] for source in scripts if source.startswith("'nonce-")]
    assert len(nonces) == 1, where
    page = InlineScripts()
    page.feed(response.content.decode())
    assert page.handlers == [], where
    assert all(nonce == nonces[0] for nonce in page.script_nonces), where


def main_pages(deck, run, game) -> list[str]:
    return [
        reverse("home"),
        reverse("game-detail", args=["revolt-n-reign"]),
        reverse("card-detail", args=["revolt-n-reign", "stamp-act"]),
        reverse("card-browser") + "?q=t:attack",
        reverse("query-help"),
        reverse("deck-list-public"),
        reverse("deck-list-mine"),
        reverse("deck-new"),
        reverse("deck-detail", args=[deck.pk]),
        reverse("deck-versions", args=[deck.pk]),
        reverse("deck-test-hands", args=[deck.pk]),
        reverse("deck-playtest", args=[deck.pk]),
        reverse("deck-doctor", args=[deck.pk]),
        reverse("play-home"),
        reverse("play-game", args=[game.pk]),
        reverse("play-replay", args=[game.pk]),
        reverse("matchup-new"),
        reverse("simulation-detail", args=[run.pk]),
        reverse("simulation-game", args=[run.pk, 1]),
        reverse("simulation-new"),
        reverse("tournament-check"),
        reverse("event-list"),
        reverse("account-token"),
        "/api/v1/docs/",
        "/api/v1/redoc/",
    ]


def test_every_main_page_runs_no_inline_script_without_the_nonce(
    alice, legal_deck, finished_matchup, played_game
):
    for url in main_pages(legal_deck, finished_matchup, played_game):
        assert_no_inline_script_without_the_nonce(alice.get(url), url)


@pytest.mark.parametrize("name", ["login", "signup", "password_reset"])
def test_account_pages_for_visitors_too(client, name):
    assert_no_inline_script_without_the_nonce(client.get(reverse(name)), name)


def test_the_api_docs_start_with_a_script_carrying_this_requests_nonce(client):
    first, second = client.get("/api/v1/docs/"), client.get("/api/v1/docs/")
    assert policy(first)["script-src"] != policy(second)["script-src"]  # a fresh nonce each time
    for response in (first, second):
        page = InlineScripts()
        page.feed(response.content.decode())
        assert page.script_nonces, "Swagger UI starts from an inline script"
        assert f"'nonce-{page.script_nonces[0]}'" in policy(response)["script-src"]


def test_the_api_answers_carry_the_policy_too(client):
    response = client.get("/api/v1/games/")
    assert "'unsafe-inline'" not in policy(response)["script-src"]
