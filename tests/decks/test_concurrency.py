"""No lost edits: concurrent writers of one deck, with real threads against PostgreSQL.

Each thread has its own database connection, as concurrent requests do. Every writer waits at a
barrier, so they really collide. SQLite's test database lives in memory, one per connection, and
SQLite serialises writers anyway: on SQLite these tests skip, saying so, and
``test_deck_versions.py`` checks the same outcomes one write after another.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.db import connection, connections
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from cards.models import Card
from decks.models import Deck, DeckCard
from decks.services import deck_card_add, deck_create
from tests.decks.conftest import RNR, read_sample

WRITERS = 10
TIMEOUT_SECONDS = 60

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(autouse=True)
def postgresql_only() -> None:
    if connection.vendor != "postgresql":
        pytest.skip(
            "concurrent writers need PostgreSQL (SQLite's in-memory test database is one per "
            "connection and SQLite serialises writers): run with "
            "DATABASE_URL=postgres://postgres@127.0.0.1:5432/<your db>; "
            "tests/decks/test_deck_versions.py covers SQLite one write at a time"
        )


@pytest.fixture
def owner(django_user_model):
    return django_user_model.objects.create_user("concurrent", password="pw-not-secret-42")


@pytest.fixture
def deck(owner) -> Deck:
    return deck_create(
        owner=owner, game=RNR, name="Contested", decklist=read_sample(RNR, "legal-eagle-control")
    )


def run_together(count: int, work: Callable[[int], Any]) -> list[Any]:
    """Run ``work(i)`` in ``count`` threads released at once; their results (or exceptions)."""
    barrier = threading.Barrier(count)
    results: list[Any] = [None] * count

    def worker(index: int) -> None:
        try:
            barrier.wait(timeout=TIMEOUT_SECONDS)
            results[index] = work(index)
        except Exception as error:  # collected and asserted on by the test
            results[index] = error
        finally:
            connections.close_all()  # this thread's connection, or the test database stays busy

    threads = [threading.Thread(target=worker, args=(i,)) for i in range(count)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT_SECONDS)
    assert not any(thread.is_alive() for thread in threads), "a writer hung"
    return results


def quantity(deck: Deck, name: str) -> int:
    row = DeckCard.objects.filter(deck=deck, card__name=name).first()
    return row.quantity if row else 0


def assert_every_write_recorded(deck: Deck, start_version: int, writes: int) -> None:
    deck.refresh_from_db()
    assert deck.version == start_version + writes
    numbers = list(deck.versions.order_by("number").values_list("number", flat=True))
    assert numbers == list(range(1, deck.version + 1))


def logged_in(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_concurrent_single_adds_in_the_service_all_count(deck, owner):
    # given a card the deck holds once
    before = quantity(deck, "Grievance Roll")
    # when ten writers each add one copy at the same moment
    results = run_together(
        WRITERS,
        lambda _: deck_card_add(deck=deck, card="Grievance Roll", quantity=1, actor=owner),
    )
    # then all ten copies are there, and ten versions record them
    assert [r for r in results if isinstance(r, Exception)] == []
    assert quantity(deck, "Grievance Roll") == before + WRITERS
    assert_every_write_recorded(deck, 1, WRITERS)


def test_concurrent_add_and_plus_clicks_on_the_builder_all_count(deck, owner):
    # half the writers use the add form, half the line's "+" button, all from the page at v1
    clients = [logged_in(owner) for _ in range(WRITERS)]
    add_url = reverse("deck-card-add", args=[deck.pk])
    plus_url = reverse("deck-card-set", args=[deck.pk])
    before = quantity(deck, "Grievance Roll")

    def click(i: int) -> int:
        if i % 2:
            form = {"card": "Grievance Roll", "change": "1", "version": 1}
            return clients[i].post(plus_url, form, HTTP_HX_REQUEST="true").status_code
        form = {"name": "Grievance Roll", "quantity": 1, "version": 1}
        return clients[i].post(add_url, form, HTTP_HX_REQUEST="true").status_code

    statuses = run_together(WRITERS, click)
    assert statuses == [200] * WRITERS
    assert quantity(deck, "Grievance Roll") == before + WRITERS
    assert_every_write_recorded(deck, 1, WRITERS)


def test_concurrent_pastes_in_add_mode_keep_every_card(deck, owner):
    # eight different cards, one pasted by each writer
    names = list(
        Card.objects.filter(game__slug=RNR)
        .exclude(deck_cards__deck=deck)
        .order_by("name")
        .values_list("name", flat=True)[:8]
    )
    assert len(names) == 8
    clients = [logged_in(owner) for _ in names]
    url = reverse("deck-paste", args=[deck.pk])
    statuses = run_together(
        len(names),
        lambda i: (
            clients[i]
            .post(
                url,
                {"decklist": f"1 {names[i]}", "mode": "add", "kind": "text", "version": 1},
                HTTP_HX_REQUEST="true",
            )
            .status_code
        ),
    )
    assert statuses == [200] * len(names)
    assert {name: quantity(deck, name) for name in names} == dict.fromkeys(names, 1)
    assert_every_write_recorded(deck, 1, len(names))


def test_two_api_clients_replacing_from_the_same_read_one_gets_412(deck, owner):
    url = f"/api/v1/decks/{deck.pk}/"
    clients = []
    for _ in range(2):
        client = APIClient()
        client.force_authenticate(owner)
        clients.append(client)
    # both read the deck, and each adds a different card to the list it read
    read = clients[0].get(url)
    etag = read["ETag"]
    assert etag == f'"deck-{deck.pk}-v1"'
    listed = [f"{c['quantity']} {c['name']}" for c in read.json()["cards"]]
    additions = list(
        Card.objects.filter(game__slug=RNR)
        .exclude(deck_cards__deck=deck)
        .order_by("name")
        .values_list("name", flat=True)[:2]
    )

    def save(i: int) -> int:
        decklist = "\n".join([*listed, f"1 {additions[i]}"])
        response = clients[i].patch(url, {"decklist": decklist}, format="json", HTTP_IF_MATCH=etag)
        return response.status_code

    statuses = run_together(2, save)
    # exactly one save wins; the other is told, and nothing of the winner's is lost
    assert sorted(statuses) == [200, 412]
    winner = additions[statuses.index(200)]
    after = clients[0].get(url)
    assert after["ETag"] == f'"deck-{deck.pk}-v2"'
    names = {card["name"] for card in after.json()["cards"]}
    assert winner in names
    assert_every_write_recorded(deck, 1, 1)


def test_concurrent_api_card_adds_all_count(deck, owner):
    clients = []
    for _ in range(WRITERS):
        client = APIClient()
        client.force_authenticate(owner)
        clients.append(client)
    url = f"/api/v1/decks/{deck.pk}/cards/"
    before = quantity(deck, "Grievance Roll")
    statuses = run_together(
        WRITERS,
        lambda i: clients[i].post(url, {"name": "Grievance Roll"}, format="json").status_code,
    )
    assert statuses == [200] * WRITERS
    assert quantity(deck, "Grievance Roll") == before + WRITERS
    assert_every_write_recorded(deck, 1, WRITERS)


def test_twenty_concurrent_api_patches_of_different_cards_all_land(deck, owner):
    # given twenty cards the deck does not hold, and twenty clients, none sending If-Match
    names = list(
        Card.objects.filter(game__slug=RNR)
        .exclude(deck_cards__deck=deck)
        .order_by("name")
        .values_list("name", flat=True)[:20]
    )
    assert len(names) == 20
    clients = []
    for _ in names:
        client = APIClient()
        client.force_authenticate(owner)
        clients.append(client)
    url = f"/api/v1/decks/{deck.pk}/"

    def change(i: int) -> int:
        body = {"changes": [{"op": "add", "name": names[i], "count": 1}]}
        return clients[i].patch(url, body, format="json").status_code

    # when each PATCHes its own card at the same moment
    statuses = run_together(len(names), change)
    # then every change is in the deck, each as its own version
    assert statuses == [200] * len(names)
    assert {name: quantity(deck, name) for name in names} == dict.fromkeys(names, 1)
    assert_every_write_recorded(deck, 1, len(names))
