"""Lists that show each row's game (decks, events, formats, card sets, vocabularies) read the
game's name and slug with the row, never its card schema: a JSON Schema of 2-12 KB that only a
card's own checks use. Joined into every row, it was decoded again for each: half the time of
the API's deck list, and most of a vocabulary list's.

Each list is asked for as its page or endpoint asks for it; then a whole page is rendered and
its queries counted, so that a template reading the schema (a lazy query a row) would show."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from cards.models import Branch, CardType
from cards.selectors import card_set_list, vocabulary_list
from decks.events.selectors import event_list
from decks.selectors import (
    deck_list_for_viewer,
    deck_list_owned,
    deck_list_public,
    deck_readable_by,
    format_by_slug,
    format_list,
    format_list_for_game,
)
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db


def _games_without_schema(rows) -> list[str]:
    games = [row.game for row in rows]
    assert games, "the list is empty: nothing was checked"
    return [game.slug for game in games if "card_schema" not in game.get_deferred_fields()]


def test_deck_lists_leave_the_games_schema_unread(user):
    make_deck(user, name="Eagles")
    make_deck(user, name="Regents")
    for decks in (
        deck_readable_by(user),
        deck_list_for_viewer(user),
        deck_list_owned(user),
        deck_list_public(),
    ):
        rows = list(decks) or list(deck_readable_by(user))
        assert _games_without_schema(rows) == []


def test_format_event_set_and_vocabulary_lists_leave_it_unread(user):
    from decks.models import Event

    formats = list(format_list())
    assert _games_without_schema(formats) == []
    assert _games_without_schema(format_by_slug("standard")) == []
    assert _games_without_schema(format_list_for_game("revolt-n-reign")) == []
    assert _games_without_schema(card_set_list()) == []
    assert _games_without_schema(vocabulary_list(CardType)) == []
    assert _games_without_schema(vocabulary_list(Branch)) == []
    fmt = formats[0]
    Event.objects.create(
        game=fmt.game,
        format=fmt,
        organiser=user,
        name="Spring Open",
        date="2027-03-01",
        decklist_deadline="2027-02-27T12:00:00Z",
    )
    assert _games_without_schema(event_list()) == []


def test_a_card_still_reads_its_games_schema_from_a_listed_game(user):
    """The schema is only left in the database: asked for, it is read (one query), whole."""
    deck = deck_list_owned(user).first() or make_deck(user, name="Eagles")
    game = deck_readable_by(user).get(pk=deck.pk).game
    with CaptureQueriesContext(connection) as queries:
        schema = game.card_schema
    assert len(queries) == 1
    assert schema["type"] == "object" and schema["properties"]


def _more_decks(user) -> None:
    for index in range(4):
        make_deck(user, name=f"More {index}")


def _more_formats(user) -> None:
    from cards.models import Game
    from decks.models import Format

    for game in Game.objects.all()[:4]:
        Format.objects.create(game=game, slug="winter-league", name="Winter League")


@pytest.mark.parametrize(
    ("name", "add_rows"),
    [("deck-list-mine", _more_decks), ("event-new", _more_formats)],
)
def test_pages_of_those_lists_ask_no_query_a_row(client, user, name, add_rows):
    """A page listing the rows asks as many queries for more rows: nothing reads a row's
    game schema lazily (your decks; the new event form's formats, by game)."""
    from decks.services import organiser_grant

    organiser_grant(user=user)
    client.force_login(user)
    make_deck(user, name="First")

    def queries() -> tuple[int, str]:
        with CaptureQueriesContext(connection) as captured:
            response = client.get(reverse(name))
        assert response.status_code == 200
        return len(captured), response.content.decode()

    few, _ = queries()
    add_rows(user)
    many, page = queries()
    assert many == few
    assert "More 3" in page or "Winter League" in page
