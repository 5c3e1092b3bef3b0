"""Organisers edit formats and their ban lists in the admin."""

from __future__ import annotations

import datetime as dt
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cards.models import Game
from decks.events.services import event_create
from decks.models import Event, Format
from tests.web.conftest import make_deck

pytestmark = pytest.mark.django_db


def test_format_admin_shows_sets_and_ban_list_inline(admin_client):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")

    listing = admin_client.get("/admin/decks/format/")
    page = admin_client.get(f"/admin/decks/format/{fmt.pk}/change/")

    assert listing.status_code == 200 and b"Standard" in listing.content
    assert page.status_code == 200
    assert b"card_entries-TOTAL_FORMS" in page.content
    assert b"legal_sets-TOTAL_FORMS" in page.content


def test_ban_list_entries_are_listed_with_their_dates(admin_client):
    response = admin_client.get("/admin/decks/formatcardentry/?status__exact=banned")

    assert response.status_code == 200
    assert b"Writs of Assistance" in response.content
    assert b"June 1, 2026" in response.content


def _event_form(game: str, fmt: Format, **extra: str) -> dict[str, str]:
    return {
        "game": str(Format.objects.get(pk=fmt.pk).game.pk if game == "own" else game),
        "format": str(fmt.pk),
        "name": "Spring Open",
        "date": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
        "decklist_deadline_0": (timezone.localdate() + dt.timedelta(days=4)).isoformat(),
        "decklist_deadline_1": "18:00:00",
        "time_zone": "UTC",
        "variant": "",
        "organiser": "",
        **extra,
    }


def test_an_event_added_in_the_admin_is_organised_by_whoever_added_it(admin_client, admin_user):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")
    response = admin_client.post("/admin/decks/event/add/", _event_form("own", fmt))

    assert response.status_code == 302
    event = Event.objects.get(name="Spring Open")
    assert event.organiser == admin_user


def test_the_admin_refuses_a_format_of_another_game_and_an_unknown_variant(admin_client):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")
    other = Game.objects.get(slug="rival-realms")
    wrong_game = admin_client.post("/admin/decks/event/add/", _event_form(str(other.pk), fmt))
    wrong_variant = admin_client.post(
        "/admin/decks/event/add/", _event_form("own", fmt, variant="secret-draft")
    )

    assert wrong_game.status_code == 200
    assert b"belongs to another game" in wrong_game.content
    assert wrong_variant.status_code == 200
    assert b"has no variant" in wrong_variant.content
    assert not Event.objects.filter(name="Spring Open").exists()


def test_the_admin_makes_the_sites_date_checks(admin_client):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")
    past = admin_client.post(
        "/admin/decks/event/add/", _event_form("own", fmt, decklist_deadline_0="2020-01-01")
    )
    after = admin_client.post(
        "/admin/decks/event/add/",
        _event_form(
            "own",
            fmt,
            decklist_deadline_0=(timezone.localdate() + dt.timedelta(days=9)).isoformat(),
        ),
    )
    far = admin_client.post("/admin/decks/event/add/", _event_form("own", fmt, date="9999-12-31"))
    zone = admin_client.post(
        "/admin/decks/event/add/", _event_form("own", fmt, time_zone="Nowhere")
    )

    assert b"is in the past" in past.content
    assert b"is after the event" in after.content
    assert b"more than 10 years ahead" in far.content
    assert b"unknown time zone" in zone.content
    assert not Event.objects.filter(name="Spring Open").exists()


def test_the_admin_lists_whether_each_event_is_locked(admin_client):
    fmt = Format.objects.get(game__slug="revolt-n-reign", slug="standard")
    admin_client.post("/admin/decks/event/add/", _event_form("own", fmt))
    event = Event.objects.get(name="Spring Open")
    open_listing = admin_client.get("/admin/decks/event/").content.decode()
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=(timezone.now() - dt.timedelta(minutes=1)).replace(microsecond=0)
    )
    locked_listing = admin_client.get("/admin/decks/event/").content.decode()

    assert 'alt="False"' in open_listing and 'alt="True"' not in open_listing
    assert 'alt="True"' in locked_listing

    # an old event's name can still be corrected: unchanged dates are not judged against the clock
    form = _event_form("own", fmt, name="Spring Open (played)")
    locked = Event.objects.get(pk=event.pk).decklist_deadline
    form["decklist_deadline_0"], form["decklist_deadline_1"] = (
        f"{locked:%Y-%m-%d}",
        f"{locked:%H:%M:%S}",
    )
    form["date"] = f"{event.date:%Y-%m-%d}"
    form["organiser"] = str(event.organiser_id)
    renamed = admin_client.post(f"/admin/decks/event/{event.pk}/change/", form)
    form["decklist_deadline_0"] = "2020-01-01"
    moved_to_the_past = admin_client.post(f"/admin/decks/event/{event.pk}/change/", form)

    assert renamed.status_code == 302
    assert Event.objects.get(pk=event.pk).name == "Spring Open (played)"
    assert b"is in the past" in moved_to_the_past.content


def _changelist_queries(admin_client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        response = admin_client.get(url)
    assert response.status_code == 200
    return len(queries)


@pytest.mark.parametrize("url", ["/admin/decks/deck/", "/admin/decks/event/"])
def test_admin_lists_of_decks_and_events_ask_no_more_queries_for_more_rows(
    admin_client, admin_user, url
):
    """Each row shows its owner, game and format (with the format's game): they come with the
    rows, so a list of 6 costs the queries of a list of 2."""

    def add(count: int, start: int) -> None:
        for index in range(start, start + count):
            deck = make_deck(admin_user, name=f"Deck {index}")
            assert deck.format is not None  # make_deck gives the game's default format
            event_create(
                organiser=admin_user,
                game=deck.game,
                format=deck.format,
                name=f"Open {index}",
                date=timezone.localdate() + dt.timedelta(days=7),
                decklist_deadline=timezone.now() + dt.timedelta(days=3),
            )

    add(2, 0)
    few = _changelist_queries(admin_client, url)
    add(4, 2)
    many = _changelist_queries(admin_client, url)
    assert many == few
    assert b"Deck 5" in admin_client.get("/admin/decks/deck/").content


def test_the_ban_list_filter_by_format_asks_no_more_queries_for_more_formats(admin_client):
    """The list's "By format" filter names every format with its game, read with the formats:
    three more formats cost no more queries, and each is listed by name and game."""
    url = "/admin/decks/formatcardentry/"
    few = _changelist_queries(admin_client, url)
    for game in Game.objects.all()[:3]:
        Format.objects.create(game=game, slug="winter-league", name="Winter League")
    many = _changelist_queries(admin_client, url)
    assert many == few
    page = admin_client.get(url).content.decode()
    for game in Game.objects.all()[:3]:
        label = f"Winter League ({game.short_name or game.name})"
        assert label in page
    chosen = Format.objects.filter(slug="winter-league").first()
    assert chosen is not None
    filtered = admin_client.get(url, {"format__id__exact": chosen.pk})
    assert filtered.status_code == 200
    selected = re.search(
        r'<li class="selected">\s*<a href="\?format__id__exact=(\d+)"', filtered.content.decode()
    )
    assert selected is not None and int(selected.group(1)) == chosen.pk


def _deck_form(deck, **extra: str) -> dict[str, str]:
    form = {
        "owner": str(deck.owner_id),
        "game": str(deck.game_id),
        "format": str(deck.format_id or ""),
        "name": deck.name,
        "description": "",
        "variant": deck.variant,
        "visibility": deck.visibility,
        "cards-TOTAL_FORMS": "0",
        "cards-INITIAL_FORMS": "0",
        "cards-MIN_NUM_FORMS": "0",
        "cards-MAX_NUM_FORMS": "1000",
    }
    return {**form, **extra}


def test_a_deck_variant_typed_in_the_admin_must_be_one_of_its_games(admin_client, admin_user):
    deck = make_deck(admin_user, game="regality-vs-religion", sample_name="legal-regality-standard")
    url = f"/admin/decks/deck/{deck.pk}/change/"

    stored = deck.variant
    refused = admin_client.post(url, _deck_form(deck, variant="seven-a-side"))
    deck.refresh_from_db()

    assert refused.status_code == 200  # the form again, with the error
    assert b"has no variant &#x27;seven-a-side&#x27;" in refused.content
    assert deck.variant == stored

    accepted = admin_client.post(url, _deck_form(deck, variant="draft"))

    assert accepted.status_code == 302
    deck.refresh_from_db()
    assert deck.variant == "draft"
