"""Smaller routes: formats and events lists, the docs pages, and the generate_cards command."""

from __future__ import annotations

import datetime as dt
import io

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from cards.models import Card, Game
from decks.models import Event, Format

pytestmark = pytest.mark.django_db


def test_redoc_page_is_served(client):
    response = client.get("/api/v1/redoc/")
    assert response.status_code == 200
    assert "drf_spectacular_sidecar" in response.content.decode()


def test_formats_list_query_count(api_client, django_assert_num_queries):
    with django_assert_num_queries(2):
        assert api_client.get("/api/v1/formats/").status_code == 200


def test_events_list_and_detail_show_lock_state(api_client, django_assert_num_queries):
    fmt = Format.objects.filter(game__slug="revolt-n-reign").first()
    if fmt is None:
        pytest.skip("no Revolt N Reign formats yet")
    now = timezone.now()
    open_event = Event.objects.create(
        game=fmt.game,
        format=fmt,
        name="Open",
        date=dt.date(2026, 12, 1),
        decklist_deadline=now + dt.timedelta(days=3),
    )
    Event.objects.create(
        game=fmt.game,
        format=fmt,
        name="Closed",
        date=dt.date(2026, 11, 1),
        decklist_deadline=now - dt.timedelta(days=3),
    )
    with django_assert_num_queries(2):
        events = api_client.get("/api/v1/events/").json()["results"]
    assert {e["name"]: e["locked"] for e in events} == {"Open": False, "Closed": True}
    detail = api_client.get(f"/api/v1/events/{open_event.pk}/").json()
    assert detail["registration_count"] == 0 and detail["format"] == fmt.slug


def test_generate_cards_makes_searchable_unique_cards():
    out = io.StringIO()
    call_command("generate_cards", count=120, game="gen-test", seed=3, stdout=out)
    assert "generated 120 cards" in out.getvalue()
    cards = Card.objects.filter(game__slug="gen-test")
    assert cards.count() == 120
    assert cards.values("name_key").distinct().count() == 120
    game = Game.objects.get(slug="gen-test")
    assert game.number_labels["cost"]["name"] == "ip_cost"


def test_generate_cards_refuses_to_double_up_without_replace():
    call_command("generate_cards", count=10, game="gen-twice", stdout=io.StringIO())
    with pytest.raises(CommandError, match="--replace"):
        call_command("generate_cards", count=10, game="gen-twice", stdout=io.StringIO())
    call_command("generate_cards", count=15, game="gen-twice", replace=True, stdout=io.StringIO())
    assert Card.objects.filter(game__slug="gen-twice").count() == 15


def test_generated_cards_are_found_through_the_name_index(api_client):
    call_command("generate_cards", count=200, game="gen-search", seed=5, stdout=io.StringIO())
    card = Card.objects.filter(game__slug="gen-search").order_by("pk")[77]
    fragment = card.name_key.split()[1][:4]
    response = api_client.get(
        "/api/v1/cards/", {"game": "gen-search", "q": fragment, "page_size": 200}
    )
    names = {c["name"] for c in response.json()["results"]}
    expected = {
        c.name
        for c in Card.objects.filter(game__slug="gen-search")
        if fragment in c.name_key or fragment.lower() in c.rules_text.lower()
    }
    assert card.name in names and names == expected
