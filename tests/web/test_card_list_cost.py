"""What a page of cards costs (the card browser and a game's page): a fixed number of queries,
none of them for a vocabulary the process keeps in memory, and URL reversals that do not grow
with the rows, for the same links as reversing each card's."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import NoReverseMatch, reverse
from django.urls.resolvers import URLResolver

from cards.images.links import card_image_links, card_image_links_many
from cards.links import SLUG, RouteFill, card_page_urls
from cards.models import Card
from cards.search.index import byte_ordered_text
from cards.selectors import card_browse
from cards.vocabulary import game_get

pytestmark = pytest.mark.django_db

VOCABULARY_TABLES = (
    "cards_game",
    "cards_cardtype",
    "cards_branch",
    "cards_rarity",
    "cards_cardset",
)


def _plan_queries() -> int:
    """PostgreSQL pages ask its planner for an estimate first (cards.search.paging): one more."""
    byte_ordered_text()  # looked up once per connection: not a per-request query
    return 1 if connection.vendor == "postgresql" else 0


@pytest.fixture
def reversals(monkeypatch) -> list[str]:
    """The names reversed while a test runs (every ``reverse()`` and ``{% url %}`` ends in
    ``URLResolver._reverse_with_prefix``; wrapped to count, it still reverses)."""
    names: list[str] = []
    # django-stubs leave out this private method
    original = URLResolver._reverse_with_prefix  # type: ignore[attr-defined]

    def counted(self, lookup_view, _prefix, *args, **kwargs):
        names.append(str(lookup_view))
        return original(self, lookup_view, _prefix, *args, **kwargs)

    monkeypatch.setattr(URLResolver, "_reverse_with_prefix", counted)
    return names


@pytest.mark.parametrize(
    "params",
    [{"q": "a"}, {"q": "t:attack", "game": "revolt-n-reign"}, {"q": "", "view": "list"}],
)
def test_the_card_browser_reads_the_page_and_subtypes_only(
    client, params, django_assert_max_num_queries
):
    url = reverse("card-browser")
    client.get(url, params)  # warm: the vocabularies, the search's plans
    # the page's ids (capped, counted, sorted), its rows, their subtypes; PostgreSQL's plan
    with django_assert_max_num_queries(3 + _plan_queries()) as counted:
        response = client.get(url, params)
    assert response.status_code == 200
    tables = " ".join(query["sql"] for query in counted.captured_queries)
    for vocabulary in VOCABULARY_TABLES:
        assert f'FROM "{vocabulary}"' not in tables, vocabulary


@pytest.mark.parametrize(
    ("path", "one", "many"),
    [
        (reverse("card-browser"), {"q": '!"Stamp Act"'}, {"q": ""}),
        (reverse("card-browser"), {"q": '!"Stamp Act"', "view": "list"}, {"view": "list"}),
        (reverse("game-detail", args=["revolt-n-reign"]), {"q": '!"Stamp Act"'}, {}),
    ],
)
def test_url_reversals_do_not_grow_with_the_rows(client, reversals, path, one, many):
    client.get(path, one)
    client.get(path, many)
    reversals.clear()
    assert "Stamp Act" in client.get(path, one).content.decode()
    for_one = len(reversals)
    reversals.clear()
    body = client.get(path, many).content.decode()
    assert body.count('class="card-name"') + body.count("<td><a href=") > 20
    assert len(reversals) == for_one


def test_filled_in_links_are_those_reverse_gives():
    game = game_get("revolt-n-reign")
    page = card_browse(game=game, per_page=60).page
    assert page is not None and len(page.object_list) > 20
    cards = page.object_list
    assert card_page_urls(cards) == [card.get_absolute_url() for card in cards]
    assert card_image_links_many(cards) == [card_image_links(card) for card in cards]
    # and the same for cards read one by one, the usual way
    fresh = list(Card.objects.with_related().filter(pk__in=[c.pk for c in cards]))
    assert card_page_urls(fresh) == [card.get_absolute_url() for card in fresh]


def test_a_value_the_route_refuses_is_refused_as_reverse_refuses_it():
    route = RouteFill("game-detail", {"slug": ("zslugz", SLUG)})
    assert route.url(slug="revolt-n-reign") == reverse("game-detail", args=["revolt-n-reign"])
    with pytest.raises(NoReverseMatch):
        route.url(slug="not a slug/")
