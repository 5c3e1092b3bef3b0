"""Pages that answer GET answer HEAD alike (RFC 9110 asks it of every GET resource; link
checkers and monitors send HEAD), and a page's unrelated query parameters (a shared link's
tracking) do not break it."""

from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db


def _pages(deck_pk: int) -> list[str]:
    return [
        reverse("deck-list-public"),
        reverse("deck-list-mine"),
        reverse("deck-detail", args=[deck_pk]),
        reverse("deck-versions", args=[deck_pk]),
        reverse("event-list"),
        reverse("query-help"),
        reverse("agents-help"),
        reverse("matchup-new"),
        reverse("simulation-new"),
        reverse("play-home"),
    ]


def test_every_page_that_answers_get_answers_head_alike(alice, user):
    deck = make_deck(user)
    for page in _pages(deck.pk):
        got = alice.get(page)
        head = alice.head(page)
        assert got.status_code == 200, page
        assert head.status_code == got.status_code, page
        assert head["Content-Type"] == got["Content-Type"], page


def test_the_versions_page_ignores_a_parameter_that_is_no_comparison(alice, user):
    deck = make_deck(user)
    page = reverse("deck-versions", args=[deck.pk])
    plain = alice.get(page)
    tracked = alice.get(page, {"utm_source": "newsletter"})
    assert tracked.status_code == 200
    assert tracked.context["form"].is_valid()
    assert tracked.context["form"].cleaned_data == plain.context["form"].cleaned_data
    # a comparison asked for with a bad box is still refused, saying so
    bad = alice.get(page, {"a": "x", "b": "1"})
    assert bad.status_code == 400 and bad.context["form"].errors["a"]


def test_a_get_of_a_forms_target_is_a_405_page_saying_what_it_takes(alice, user):
    # Django's require_POST answers an empty 405: a blank page for a followed link
    url = reverse("deck-paste", args=[make_deck(user).pk])
    page = alice.get(url)
    assert page.status_code == 405 and page["Allow"] == "POST"
    assert "does not answer GET; it takes POST" in page.content.decode()
    assert alice.head(url).content == b""
