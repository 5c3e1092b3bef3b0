"""/games/<game>/: a page of cards at a time, the query-language filter box, thumbnails."""

from __future__ import annotations

import re

import pytest
from django.test import override_settings

from cards.vocabulary import vocabularies
from tests.conftest import GENERATED_GAME

pytestmark = pytest.mark.django_db

GAME = GENERATED_GAME


def card_links(response) -> list[str]:
    return re.findall(rf'href="/games/{GAME}/cards/([^/"]+)/"', response.content.decode())


def test_the_first_page_shows_fifty_cards_by_name_with_thumbnails(client, generated_cards):
    response = client.get(f"/games/{GAME}/")
    assert response.status_code == 200
    expected = list(generated_cards.order_by("name_key", "pk").values_list("slug", flat=True))
    assert card_links(response) == expected[:50]
    html = response.content.decode()
    assert html.count(".thumb.png") == 50
    assert 'rel="next"' in html and "?page=2" in html
    assert "60 cards" in html


def test_the_second_page_shows_the_rest(client, generated_cards):
    response = client.get(f"/games/{GAME}/", {"page": 2})
    expected = list(generated_cards.order_by("name_key", "pk").values_list("slug", flat=True))
    assert card_links(response) == expected[50:]
    assert 'rel="prev"' in response.content.decode()
    assert 'rel="next"' not in response.content.decode()


def test_a_page_that_is_not_there_shows_the_first(client, generated_cards):
    first = card_links(client.get(f"/games/{GAME}/"))
    assert card_links(client.get(f"/games/{GAME}/", {"page": 99})) == first
    assert card_links(client.get(f"/games/{GAME}/", {"page": "nope"})) == first
    assert card_links(client.get(f"/games/{GAME}/", {"page": str(10**30)})) == first


def test_the_filter_box_takes_the_query_language(client, generated_cards):
    response = client.get(f"/games/{GAME}/", {"q": "t:attack ip<=2"})
    matches = generated_cards.filter(card_type__slug="attack", cost__lte=2).order_by(
        "name_key", "pk"
    )
    assert card_links(response) == list(matches.values_list("slug", flat=True)[:50])
    html = response.content.decode()
    assert '<label for="id_q">' in html and 'value="t:attack ip&lt;=2"' in html


def test_paging_keeps_the_filter(client, generated_cards):
    response = client.get(f"/games/{GAME}/", {"q": "-t:rights", "page": 1})
    assert generated_cards.exclude(card_type__slug="rights").count() > 50
    assert "q=-t%3Arights&amp;page=2" in response.content.decode()


def test_a_query_that_cannot_run_is_a_400_with_its_position(client, generated_cards):
    response = client.get(f"/games/{GAME}/", {"q": "t:nothing-like-it"})
    assert response.status_code == 400
    assert 'data-testid="query-error"' in response.content.decode()


def test_past_the_threshold_the_page_says_about(client, generated_cards):
    with override_settings(CARD_COUNT_EXACT_UP_TO=10):
        response = client.get(f"/games/{GAME}/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "About " in html
    assert "By type" not in html  # counting by type would read every card of a big game
    assert len(card_links(response)) == 50


def test_the_game_page_query_count_does_not_grow_with_cards(
    client, generated_cards, django_assert_max_num_queries
):
    # the game from memory (warm, as after a process's first page); its total (the planner's
    # estimate on PostgreSQL, the capped ids); type counts; the estimate, the page's ids, the
    # page, its subtypes
    vocabularies()
    with django_assert_max_num_queries(7):
        assert client.get(f"/games/{GAME}/").status_code == 200
