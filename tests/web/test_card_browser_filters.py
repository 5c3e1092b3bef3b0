"""The card browser's type, branch, rarity and set filters follow the chosen game: its own values
under its own words, with or without JavaScript."""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from cards.models import Branch, CardType, Game

pytestmark = pytest.mark.django_db


def select(body: str, name: str) -> str | None:
    """The HTML of the ``<select name=...>`` on the page, or None when the page has none."""
    found = re.search(
        rf'<label for="id_{name}">(.*?)</label><select[^>]*name="{name}">(.*?)</select>', body, re.S
    )
    return found.group(0) if found else None


def options(body: str, name: str) -> list[str]:
    html = select(body, name) or ""
    return [text for text in re.findall(r"<option[^>]*>(.*?)</option>", html) if text]


def branch(game: str, slug: str) -> Branch:
    return Branch.objects.get(game__slug=game, slug=slug)


def browse(client, **params) -> str:
    response = client.get(reverse("card-browser"), params)
    assert response.status_code == 200
    return response.content.decode()


def test_without_a_game_every_games_values_are_offered_grouped_by_game(client):
    body = browse(client)
    types = select(body, "type")
    assert all(f'<optgroup label="{g.name}">' in types for g in Game.objects.all())
    assert "Eagle" in options(body, "branch") and "Umbrous" in options(body, "branch")


def test_a_chosen_game_offers_only_its_own_values_under_its_own_words(client):
    body = browse(client, game="reign-absolute")
    assert '<label for="id_branch">Faction</label>' in select(body, "branch")
    assert options(body, "branch") == ["Any faction", "Empire", "Elves", "Azuma", "Umbrous"]
    assert options(body, "type") == [
        "Any type",
        "Liege",
        "Unit",
        "Combat Reinforcement",
        "Turn Reinforcement",
    ]
    assert options(body, "set") == ["Any set", "Umbrous Edition (RAU)"]
    assert select(body, "rarity") is None  # Reign Absolute has no rarities
    assert "<optgroup" not in body


def test_a_game_without_branches_offers_no_branch_filter(client):
    body = browse(client, game="rival-realms")
    assert select(body, "branch") is None
    assert options(body, "rarity") == ["Any rarity", "Common", "Uncommon", "Rare"]


def test_a_filter_of_the_chosen_game_finds_its_cards_and_stays_chosen(client):
    red = branch("reggae-revolution", "red")
    body = browse(client, game="reggae-revolution", branch=red.pk, view="list")
    assert f'<option value="{red.pk}" selected>Red</option>' in body
    assert "Crimson Serenade" in body  # red
    assert "Amber Oath" not in body  # yellow
    assert '<th scope="col">Colour</th>' in body  # the list names the column as the game does


def test_changing_the_game_clears_a_filter_of_the_old_game_instead_of_failing(client):
    # given: an Eagle (Revolt N Reign) filter left in the form when the game changes
    eagle = branch("revolt-n-reign", "eagle")
    # when
    body = browse(client, game="reggae-revolution", branch=eagle.pk)
    # then: every Reggae Revolution card, the colour filter back to "any"
    assert 'data-testid="result-count">79 cards' in body
    assert " selected>" not in (select(body, "branch") or "")
    assert "Eagle" not in options(body, "branch")


@pytest.mark.parametrize("named", ["RgR", "rgr", "Reggae Revolution"])
def test_a_link_may_name_the_game_as_the_query_language_does(client, named):
    """``/cards/?game=RgR`` (a short name, as in ``g:RgR``) shows what ``?game=reggae-revolution``
    shows, that game chosen in the form."""
    body = browse(client, game=named)
    assert 'data-testid="result-count">79 cards' in body
    assert '<option value="reggae-revolution" selected>' in body
    assert options(body, "branch") == options(browse(client, game="reggae-revolution"), "branch")


def test_a_value_no_game_has_is_still_refused(client):
    response = client.get(reverse("card-browser"), {"game": "reggae-revolution", "type": "99999"})
    assert response.status_code == 400


def test_an_htmx_search_brings_the_filters_of_the_game_now_chosen(client):
    attack = CardType.objects.get(game__slug="revolt-n-reign", slug="attack")
    response = client.get(
        reverse("card-browser"),
        {"game": "regality-vs-religion", "type": attack.pk},
        HTTP_HX_REQUEST="true",
    )
    body = response.content.decode()
    assert response.status_code == 200 and "<html" not in body
    assert '<div class="game-filters" id="game-filters" hx-swap-oob="true">' in body
    assert options(body, "branch") == ["Any alignment", "Regality", "Religion", "Neutral"]
    assert options(body, "type") == ["Any type", "Tile"]
    assert 'data-testid="result-count">31 cards' in body
    assert '<p class="help" id="q-help" hx-swap-oob="true">' in body  # the search hint too


def test_the_search_hint_gives_the_chosen_games_examples_and_its_help(client):
    body = browse(client, game="reggae-revolution")
    hint = re.search(r'<p class="help" id="q-help".*?</p>', body).group(0)
    assert "<code>colour:red t:main</code>" in hint and "ip&lt;=3" not in hint
    assert 'href="/help/query-language/#game-reggae-revolution"' in hint
    assert "#game-reggae-revolution" in browse_help(client)


def browse_help(client) -> str:
    """The anchors of the query help page's game sections."""
    body = client.get(reverse("query-help")).content.decode()
    return " ".join(f"#{anchor}" for anchor in re.findall(r'<h2 id="(game-[^"]+)"', body))


def test_the_filters_cost_no_query_of_their_own(client, django_assert_max_num_queries):
    url = reverse("card-browser")
    client.get(url, {"game": "reign-absolute"})  # warm the vocabularies searches read from memory
    for game in ("reign-absolute", "revolt-n-reign", ""):
        # the search's own queries: the game, the page of cards and their subtypes, the count,
        # and on PostgreSQL the plan it reads first (EXPLAIN) to pick its way of counting
        with django_assert_max_num_queries(5) as counted:
            response = client.get(url, {"game": game}, HTTP_HX_REQUEST="true")
        assert 'id="game-filters"' in response.content.decode()
        tables = " ".join(query["sql"] for query in counted.captured_queries)
        for vocabulary in ("cards_cardtype", "cards_branch", "cards_rarity", "cards_cardset"):
            assert f'FROM "{vocabulary}"' not in tables, (game, vocabulary)
