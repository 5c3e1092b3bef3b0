"""The query help page is written for players: every game's own fields, and worked examples
that find cards of their game when run."""

from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

import pytest
from django.urls import reverse

from cards.models import Game
from cards.search import card_search
from rules.ladder import published

pytestmark = pytest.mark.django_db


def game_sections(body: str) -> dict[str, str]:
    """The page's section of each game, by slug."""
    found = re.findall(
        r'<section class="query-game"[^>]*data-game="([^"]+)">(.*?)</section>', body, re.S
    )
    return dict(found)


def examples(section: str) -> list[tuple[str, str]]:
    """(link, query) of every example a section shows."""
    pairs = re.findall(r'<a href="([^"]+)"><code data-query>(.*?)</code></a>', section)
    return [(html.unescape(url), html.unescape(query)) for url, query in pairs]


def field_rows(section: str) -> dict[str, str]:
    """Each field row of a section: its label -> the rest of the row."""
    rows = re.findall(r'<tr><th scope="row">(.*?)</th>(.*?)</tr>', section, re.S)
    return {html.unescape(label): cells for label, cells in rows}


@pytest.fixture
def help_body(client) -> str:
    response = client.get(reverse("query-help"))
    assert response.status_code == 200
    return response.content.decode()


def test_every_game_has_a_section_with_examples(help_body):
    sections = game_sections(help_body)
    assert set(sections) == set(Game.objects.values_list("slug", flat=True))
    assert len(sections) == 5
    for slug, section in sections.items():
        assert len(examples(section)) >= 3, slug


def test_every_example_shown_finds_cards_of_its_game(help_body):
    for slug, section in game_sections(help_body).items():
        game = Game.objects.get(slug=slug)
        for url, query in examples(section):
            # the query parses and finds cards of its game ...
            assert card_search(query, game).exists(), f"{query!r} finds no {slug} card"
            # ... and its link opens the card browser on them
            link = urlsplit(url)
            assert link.path == reverse("card-browser")
            assert parse_qs(link.query) == {"game": [slug], "q": [query]}


def test_following_an_example_shows_its_cards(client, help_body):
    url, query = examples(game_sections(help_body)["reggae-revolution"])[0]
    body = client.get(url).content.decode()
    assert query == "colour:red t:main"
    assert "Crimson Serenade" in body  # a red main-deck card
    assert "Director Gilt" not in body  # a villain


def test_each_game_lists_its_own_fields_in_its_own_words(help_body):
    sections = game_sections(help_body)
    reggae = field_rows(sections["reggae-revolution"])
    assert "<code>colour</code>" in reggae["Colour"] and "<code>red</code>" in reggae["Colour"]
    assert "Rarity" not in reggae and "Branch" not in reggae
    rnr = field_rows(sections["revolt-n-reign"])
    assert "<code>ip</code>" in rnr["IP cost"]
    assert "<code>liberty-bell</code>" in rnr["Branch"]
    assert "<code>RNR2</code> (Frontier Charters)" in rnr["Set"]  # a code, and what it stands for
    assert "<code>liberty-bell</code>," in rnr["Branch"]  # a value that says it all stands alone
    factions = field_rows(sections["reign-absolute"])["Faction"]
    assert "<code>umbrous</code>" in factions and "<code>eagle</code>" not in factions
    assert "Branch" not in field_rows(sections["rival-realms"])  # Rival Realms has none


def test_the_page_speaks_to_players_not_developers(help_body):
    assert "<title>Searching for cards — Deckwright</title>" in help_body
    for word in ("grammar", "Lark", "index", "FTS5", "pg_trgm", "selector", "compiler"):
        assert word not in help_body, word


def test_the_card_browser_links_to_the_help_and_the_site_to_the_api_docs(client):
    body = client.get(reverse("card-browser")).content.decode()
    assert f'href="{reverse("query-help")}"' in body
    assert 'href="/api/v1/docs/"' in body
    assert 'href="/api/v1/"' in body


def test_a_query_error_links_to_the_help(client):
    body = client.get(reverse("card-browser"), {"q": "cost<<"}).content.decode()
    assert 'data-testid="query-error"' in body
    assert f'href="{reverse("query-help")}">How queries are written' in body


# -- the AI players -------------------------------------------------------------------------------


def test_the_agents_page_gives_each_game_its_levels_and_its_ladder(client):
    body = client.get(reverse("agents-help")).content.decode()
    assert "<title>The AI players — Deckwright</title>" in body
    sections = dict(re.findall(r'<section [^>]*data-game="([^"]+)">(.*?)</section>', body, re.S))
    assert set(sections) == set(Game.objects.values_list("slug", flat=True))
    rnr = sections["revolt-n-reign"]
    assert "Hard: turn plans" in rnr and "rated +" in rnr  # a level, with its rating
    ladder = re.findall(r"<tr><td>(\d+)</td><td>([^<]*)</td><td>([^<]*)</td>", rnr)
    assert [rank for rank, _, _ in ladder] == [str(n) for n in range(1, len(ladder) + 1)]
    assert ("Random", "+0") in [(agent, elo) for _, agent, elo in ladder]
    # an agent tried at another budget is named in words, not as a setting string
    assert not [agent for _, agent, _ in ladder if "=" in agent]
    # how often whoever moved first won, from the published ladder; none in a team game
    first = published("revolt-n-reign").first_mover()
    assert first is not None
    won, games = first
    assert (
        f"Whoever moved first won {won} of the {games} games above that had a winner ({won / games:.0%}"
        in rnr
    )
    assert 'data-testid="first-mover"' not in sections["reggae-revolution"]
