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


def _tag(html: str, name: str) -> str:
    at = html.index(f'name="{name}"')
    return html[html.rindex("<", 0, at) : html.index(">", at) + 1]


def test_a_refused_decklist_is_said_beside_its_box_which_is_marked_invalid(alice):
    """A list that cannot be read, or names cards the game lacks, is told beside the text box
    (marked invalid, and described by the problems), as a bad name or date is beside theirs,
    and not only in an alert at the top of the page."""
    response = alice.post(
        reverse("deck-new"),
        {
            "name": "Odd",
            "game": "revolt-n-reign",
            "visibility": "private",
            "decklist": "0 Stamp Act",
            "kind": "text",
        },
    )

    assert response.status_code == 400
    html = response.content.decode()
    box = _tag(html, "decklist")
    assert 'aria-invalid="true"' in box and "id_decklist_error" in box
    error = html[html.index('id="id_decklist_error"') :]
    assert "line 1: quantity 0 is not between 1 and 999" in error[: error.index("</div>")]
    assert _dangling(html) == []
