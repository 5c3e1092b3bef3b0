"""Every ``aria-describedby`` on a page names elements the page has.

A screen reader reads a field's description from the ids it names; a missing id links nothing.
Django (5.2 on) names ``<id>_error`` on a field with errors, which the field template must
render, and a table card named notes that only cards with notes have.
"""

from __future__ import annotations

import re

import pytest
from django.urls import reverse

from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db


def _dangling(html: str) -> list[str]:
    ids = set(re.findall(r'\bid="([^"]+)"', html))
    named = [
        token
        for value in re.findall(r'aria-describedby="([^"]*)"', html)
        for token in value.split()
    ]
    assert named, "the page names no description at all"
    return [token for token in named if token not in ids]


def test_a_field_with_an_error_is_described_by_the_error_shown_beside_it(client):
    response = client.post(
        reverse("signup"),
        {
            "username": "newcomer",
            "email": "newcomer@example.com",
            "password1": "pw-long-enough-1",
            "password2": "pw-another-one-2",
        },
    )
    html = response.content.decode()
    assert "field-error" in html
    assert 'id="id_password2_error"' in html
    assert "id_password2_error" in re.search(r'<input[^>]*name="password2"[^>]*>', html).group()
    assert _dangling(html) == []


def test_table_cards_name_notes_only_where_a_card_has_them(alice, user):
    deck = make_deck(user)
    html = alice.get(reverse("deck-test-hands", args=[deck.pk]), {"seed": 3}).content.decode()
    assert 'class="tcard' in html
    assert _dangling(html) == []
