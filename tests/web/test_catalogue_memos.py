"""The card browser's rows and the card page's card, drawn once per catalogue generation
(``web.cardrows``, ``cards.selectors.card_for_page``, ``decks.validation.formats.game_formats``):
a write to a card, its set, subtypes, rulings or formats shows at the next request; what a
visitor or a deck owner has of their own is never kept."""

from __future__ import annotations

import pytest
from django.db import connection
from django.urls import reverse

from cards.models import Card, CardType
from cards.search.index import byte_ordered_text
from decks.models import FormatCardEntry, FormatCardStatus, Visibility
from tests.factories import default_format
from tests.web.conftest import RNR, make_deck
from web import cardrows

pytestmark = pytest.mark.django_db


def _card(name: str) -> Card:
    return Card.objects.get(game__slug=RNR, name=name)


def _plan_queries() -> int:
    byte_ordered_text()  # looked up once per connection: not a per-request query
    return 1 if connection.vendor == "postgresql" else 0


def _browse(client, **params: str) -> str:
    response = client.get(reverse("card-browser"), {"game": RNR, **params})
    assert response.status_code == 200
    return response.content.decode()


@pytest.mark.parametrize("view", ["grid", "list"])
def test_a_renamed_card_shows_its_new_name_at_the_next_request(client, view):
    # given: the page drawn once, its rows kept
    card = _card("Eagle Dive")
    assert "Eagle Dive" in _browse(client, q="Eagle Dive", view=view)

    # when
    card.name = "Eagle Plunge"
    card.save()

    # then
    body = _browse(client, q="Eagle Plunge", view=view)
    assert "Eagle Plunge" in body and "Eagle Dive" not in body


def test_a_set_code_change_shows_in_the_list_rows(client):
    card = _card("Eagle Dive")
    assert f"<td>{card.card_set.code}</td>" in _browse(client, q="Eagle Dive", view="list")

    card.card_set.code = "ZZ9"
    card.card_set.save()

    assert "<td>ZZ9</td>" in _browse(client, q="Eagle Dive", view="list")


def test_a_warm_browser_page_reads_only_its_ids(client, django_assert_max_num_queries):
    params = {"q": "t:attack", "game": RNR, "view": "list"}
    client.get(reverse("card-browser"), params)  # draws and keeps the rows
    with django_assert_max_num_queries(1 + _plan_queries()) as counted:
        response = client.get(reverse("card-browser"), params)
    assert response.status_code == 200
    assert 'FROM "cards_card_subtypes"' not in " ".join(q["sql"] for q in counted)


def test_kept_rows_are_the_same_for_every_visitor_and_hold_nothing_of_theirs(client, user):
    anonymous = _browse(client, q="t:attack", view="list")
    client.force_login(user)
    signed_in = _browse(client, q="t:attack", view="list")

    def rows(body: str) -> str:
        return body.split("<tbody>", 1)[1].split("</tbody>", 1)[0]

    assert rows(anonymous) == rows(signed_in) and rows(anonymous).count("<tr>") > 5
    kept = cardrows.kept_card_rows()
    assert kept
    for row in kept:
        for html in (row.grid, row.listed):
            assert user.username not in html and "csrf" not in html.lower()


def test_a_deleted_card_is_left_out_of_the_rows():
    card = _card("Eagle Dive")
    other = _card("Stamp Act")
    assert len(cardrows.card_rows([card.pk, other.pk])) == 2
    card.delete()
    assert [row.grid for row in cardrows.card_rows([card.pk, other.pk])] == [
        row.grid for row in cardrows.card_rows([other.pk])
    ]


def test_the_card_page_follows_rulings_subtypes_and_deletion(client, subtype_factory):
    card = _card("Militia Bill")
    url = card.get_absolute_url()
    assert client.get(url).status_code == 200

    card.rulings.create(published_on="2026-01-02", source="errata", text="A fresh ruling.")
    assert "A fresh ruling." in client.get(url).content.decode()

    card.subtypes.add(subtype_factory(game=card.game, name="Brand New Kind", slug="brand-new"))
    assert "Brand New Kind" in client.get(url).content.decode()

    card.delete()
    assert client.get(url).status_code == 404


def test_the_card_page_follows_the_formats(client):
    card = _card("Eagle Dive")
    url = card.get_absolute_url()
    assert "Legal</span> in Standard" in client.get(url).content.decode()

    FormatCardEntry.objects.create(
        format=default_format(RNR), card=card, status=FormatCardStatus.BANNED, reason="Too fast."
    )

    assert "Banned</span> in Standard — Too fast." in client.get(url).content.decode()


def test_public_decks_on_the_card_page_are_never_kept(client, user):
    # given: the card page drawn once, with no public deck
    card = _card("Eagle Dive")
    assert "No public deck uses it yet." in client.get(card.get_absolute_url()).content.decode()

    # when: a deck with the card is made public, then private again
    deck = make_deck(user, name="Fresh Eagles", visibility=Visibility.PUBLIC)
    shown = client.get(card.get_absolute_url()).content.decode()
    deck.visibility = Visibility.PRIVATE
    deck.save()
    hidden = client.get(card.get_absolute_url()).content.decode()

    # then
    assert "Fresh Eagles" in shown
    assert "Fresh Eagles" not in hidden


def test_a_warm_card_page_reads_its_public_decks_only(client, django_assert_num_queries):
    url = _card("Eagle Dive").get_absolute_url()
    client.get(url)
    with django_assert_num_queries(1) as counted:
        assert client.get(url).status_code == 200
    assert "decks_deck" in counted.captured_queries[0]["sql"]


def test_an_unknown_card_page_is_a_404_every_time(client):
    url = reverse("card-detail", kwargs={"game": RNR, "slug": "no-such-card"})
    assert client.get(url).status_code == 404
    assert client.get(url).status_code == 404
    assert (
        client.get(reverse("card-detail", kwargs={"game": "nope", "slug": "x"})).status_code == 404
    )


def test_the_filters_follow_the_request_and_a_renamed_type(client):
    # given: the filters drawn once with no choice
    attack = CardType.objects.get(game__slug=RNR, slug="attack")
    body = _browse(client)
    assert f'<option value="{attack.pk}">Attack</option>' in body

    # when / then: a choice is selected in this answer only
    chosen = _browse(client, type=str(attack.pk))
    assert f'<option value="{attack.pk}" selected>Attack</option>' in chosen
    assert f'<option value="{attack.pk}">Attack</option>' in _browse(client)

    # when / then: a renamed type shows at the next request
    attack.name = "Assault"
    attack.save()
    assert f'<option value="{attack.pk}">Assault</option>' in _browse(client)


def test_the_filters_of_an_htmx_answer_come_out_of_band(client):
    response = client.get(reverse("card-browser"), {"game": RNR}, HTTP_HX_REQUEST="true")
    full = _browse(client)
    assert 'id="game-filters" hx-swap-oob="true"' in response.content.decode()
    assert 'id="game-filters">' in full and 'id="game-filters" hx-swap-oob' not in full
