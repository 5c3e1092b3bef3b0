"""The card data's admin pages: what a page of rulings or of cards reads."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from cards.models import Card, Ruling

pytestmark = pytest.mark.django_db


def test_a_page_of_rulings_names_each_card_reading_only_the_cards(admin_client):
    first = Ruling.objects.select_related("card").order_by(*Ruling._meta.ordering).first()
    with CaptureQueriesContext(connection) as queries:
        page = admin_client.get("/admin/cards/ruling/")
    assert page.status_code == 200
    assert first.card.name in page.content.decode()
    rows = 'SELECT "cards_ruling"."id"'
    listing = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(rows)]
    assert listing, "the page lists rulings"
    # the card is joined and read; no game's card schema (a JSON document) comes with each row
    assert all('"cards_card"."name"' in sql for sql in listing)
    assert not any("card_schema" in sql for sql in listing)


def test_a_page_of_cards_names_each_game_without_reading_its_card_schema(admin_client):
    with CaptureQueriesContext(connection) as queries:
        page = admin_client.get("/admin/cards/card/")
    assert page.status_code == 200
    body = page.content.decode()
    first = Card.objects.select_related("game").order_by(*Card._meta.ordering).first()
    assert first.name in body and first.game.name in body
    rows = 'SELECT "cards_card"."id"'
    listing = [q["sql"] for q in queries.captured_queries if q["sql"].startswith(rows)]
    assert listing, "the page lists cards"
    assert all('"cards_game"."name"' in sql for sql in listing)
    assert not any("card_schema" in sql or "number_labels" in sql for sql in listing)
