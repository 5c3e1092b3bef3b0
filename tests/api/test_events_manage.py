"""Organisers change (PUT, PATCH) and delete (DELETE) their events over the API and read the
submitted decklists; event dates are checked in the event's time zone; a registration says
whether the list is legal and why not.

Events are created through the API "now", with dates a few days ahead; a deadline that has
passed is made by moving it in the database, as time would.
"""

from __future__ import annotations

import datetime as dt
import json
import zoneinfo
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import Event, Format, Registration

pytestmark = pytest.mark.django_db

GAME = "revolt-n-reign"


def sample(name: str) -> str:
    return (Path(settings.FIXTURES_DIR) / "decks" / GAME / f"{name}.txt").read_text()


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def days_ahead(days: int) -> dt.date:
    return timezone.localdate() + dt.timedelta(days=days)


def event_body(**fields) -> dict:
    body = {
        "game": GAME,
        "format": "standard",
        "name": "Winter Open",
        "date": days_ahead(5).isoformat(),
        "decklist_deadline": f"{days_ahead(4)}T18:00:00Z",
    }
    body.update(fields)
    return body


@pytest.fixture
def host(organiser) -> APIClient:
    return client_for(organiser)


@pytest.fixture
def event_id(host) -> int:
    response = host.post("/api/v1/events/", event_body(), format="json")
    assert response.status_code == 201, response.json()
    return response.json()["id"]


def register(user, event_id: int, decklist: str) -> dict:
    response = client_for(user).post(
        f"/api/v1/events/{event_id}/register/", {"decklist": decklist}, format="json"
    )
    assert response.status_code == 201, response.json()
    return response.json()


def field_errors(response) -> dict[str, list[str]]:
    """A 400 problem's ``errors`` by field."""
    found: dict[str, list[str]] = {}
    for error in response.json()["errors"]:
        found.setdefault(error["field"], []).append(error["detail"])
    return found


def lock(event_id: int) -> None:
    Event.objects.filter(pk=event_id).update(
        decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
    )


# -- dates and time zones -------------------------------------------------------------------------


def test_a_deadline_without_an_offset_is_read_in_the_event_time_zone(host) -> None:
    body = event_body(
        date="2027-01-16", decklist_deadline="2027-01-15T18:00", time_zone="Europe/Paris"
    )

    response = host.post("/api/v1/events/", body, format="json")

    assert response.status_code == 201, response.json()
    created = response.json()
    assert created["decklist_deadline"] == "2027-01-15T17:00:00Z"
    assert created["time_zone"] == "Europe/Paris"
    assert created["changeable"] == [
        "date",
        "decklist_deadline",
        "format",
        "game",
        "name",
        "time_zone",
        "variant",
    ]


def test_a_deadline_with_an_offset_keeps_its_moment_and_the_zone_defaults_to_utc(host) -> None:
    body = event_body(date="2027-01-16", decklist_deadline="2027-01-15T18:00:00+09:00")

    created = host.post("/api/v1/events/", body, format="json").json()

    assert created["decklist_deadline"] == "2027-01-15T09:00:00Z"
    assert created["time_zone"] == "UTC"


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"decklist_deadline": "2020-01-01T00:00:00Z"}, "decklist_deadline", "in the past"),
        ({"date": "2020-01-01"}, "date", "has passed"),
        ({"date": "9999-12-31"}, "date", "more than 10 years ahead"),
        ({"decklist_deadline": "0001-01-01T00:00:00+09:00"}, "decklist_deadline", "out of range"),
        ({"decklist_deadline": "9999-12-31T23:59:00-05:00"}, "decklist_deadline", "out of range"),
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone", "unknown time zone"),
    ],
)
def test_insane_dates_are_a_400_naming_the_field(host, fields, field, words) -> None:
    response = host.post("/api/v1/events/", event_body(**fields), format="json")

    assert response.status_code == 400, response.json()
    assert response["Content-Type"] == "application/problem+json"
    assert any(words in text for text in field_errors(response)[field]), response.json()
    assert not Event.objects.exists()


def test_a_deadline_after_the_event_is_refused(host) -> None:
    body = event_body(date=days_ahead(5).isoformat(), decklist_deadline=f"{days_ahead(6)}T09:00Z")

    response = host.post("/api/v1/events/", body, format="json")

    assert response.status_code == 400
    assert "after the event" in field_errors(response)["decklist_deadline"][0]


# -- changing -------------------------------------------------------------------------------------


def test_the_organiser_patches_and_puts_their_event(host, event_id) -> None:
    patched = host.patch(f"/api/v1/events/{event_id}/", {"name": "Frost Open"}, format="json")
    put = host.put(
        f"/api/v1/events/{event_id}/",
        event_body(
            name="Frost Cup",
            date=days_ahead(9).isoformat(),
            decklist_deadline=f"{days_ahead(8)}T20:00",
            time_zone="America/New_York",
        ),
        format="json",
    )

    assert patched.status_code == 200, patched.json()
    assert patched.json()["name"] == "Frost Open"
    assert put.status_code == 200, put.json()
    event = Event.objects.get(pk=event_id)
    assert (event.name, event.date, event.time_zone) == (
        "Frost Cup",
        days_ahead(9),
        "America/New_York",
    )
    local = event.decklist_deadline.astimezone(zoneinfo.ZoneInfo("America/New_York"))
    assert (local.date(), local.hour) == (days_ahead(8), 20)


def test_put_needs_every_field(host, event_id) -> None:
    response = host.put(f"/api/v1/events/{event_id}/", {"name": "Only a name"}, format="json")

    assert response.status_code == 400
    assert {"game", "format", "date", "decklist_deadline"} <= set(field_errors(response))


def test_patching_a_format_alone_reads_it_in_the_event_game(host, event_id) -> None:
    response = host.patch(f"/api/v1/events/{event_id}/", {"format": "nope"}, format="json")

    assert response.status_code == 400
    assert "has no format 'nope'" in field_errors(response)["format"][0]


def test_moving_to_another_game_needs_its_format(host, event_id) -> None:
    alone = host.patch(f"/api/v1/events/{event_id}/", {"game": "rival-realms"}, format="json")
    rival_format = Format.objects.filter(game__slug="rival-realms").first()
    assert rival_format is not None
    both = host.patch(
        f"/api/v1/events/{event_id}/",
        {"game": "rival-realms", "format": rival_format.slug},
        format="json",
    )

    assert alone.status_code == 400
    assert "Name one of" in field_errors(alone)["format"][0]
    assert both.status_code == 200, both.json()
    assert (both.json()["game"], both.json()["format"]) == ("rival-realms", rival_format.slug)


def test_after_a_registration_the_format_is_a_409_but_the_name_and_date_change(
    host, event_id, other_user
) -> None:
    register(other_user, event_id, sample("legal-bison-pressure"))

    refused = host.patch(f"/api/v1/events/{event_id}/", {"variant": "x"}, format="json")
    moved = host.patch(
        f"/api/v1/events/{event_id}/",
        {"name": "Moved Open", "date": days_ahead(6).isoformat()},
        format="json",
    )

    assert refused.status_code == 409
    assert refused.json()["code"] == "conflict"
    assert "1 player has registered" in refused.json()["detail"]
    assert moved.status_code == 200, moved.json()
    assert moved.json()["changeable"] == ["date", "decklist_deadline", "name", "time_zone"]
    verdict = Registration.objects.get(event_id=event_id).verdict
    assert verdict["as_of"] == days_ahead(6).isoformat()


def test_a_locked_event_changes_its_name_only(host, event_id) -> None:
    lock(event_id)

    renamed = host.patch(f"/api/v1/events/{event_id}/", {"name": "Past Open"}, format="json")
    reopened = host.patch(
        f"/api/v1/events/{event_id}/",
        {"decklist_deadline": f"{days_ahead(4)}T18:00:00Z"},
        format="json",
    )

    assert renamed.status_code == 200
    assert renamed.json()["changeable"] == ["name"]
    assert reopened.status_code == 409
    assert "locked" in reopened.json()["detail"]


def test_nobody_else_changes_or_deletes_an_event(
    event_id, other_user, django_user_model, api_client
) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")

    for someone in (other_user, root):
        client = client_for(someone)
        patched = client.patch(f"/api/v1/events/{event_id}/", {"name": "Mine"}, format="json")
        deleted = client.delete(f"/api/v1/events/{event_id}/")
        assert (patched.status_code, deleted.status_code) == (403, 403)
        assert patched.json()["detail"] == "Only the event's organiser changes the event."
        assert deleted.json()["detail"] == "Only the event's organiser deletes the event."
    garbage = client_for(other_user).put(
        f"/api/v1/events/{event_id}/", {"date": "x"}, format="json"
    )
    assert garbage.status_code == 403  # who asks is judged before what they send
    assert api_client.patch(f"/api/v1/events/{event_id}/", {"name": "x"}).status_code == 401
    assert api_client.delete(f"/api/v1/events/{event_id}/").status_code == 401
    assert Event.objects.get(pk=event_id).name == "Winter Open"


def test_an_unknown_event_is_a_404(host) -> None:
    assert host.patch("/api/v1/events/999999/", {"name": "x"}, format="json").status_code == 404
    assert host.delete("/api/v1/events/999999/").status_code == 404


# -- deleting -------------------------------------------------------------------------------------


def test_the_organiser_deletes_an_open_event(host, event_id, other_user) -> None:
    register(other_user, event_id, sample("legal-bison-pressure"))

    response = host.delete(f"/api/v1/events/{event_id}/")

    assert response.status_code == 204
    assert not Event.objects.exists() and not Registration.objects.exists()


def test_a_locked_event_with_registrations_is_not_deleted(host, event_id, other_user) -> None:
    register(other_user, event_id, sample("legal-bison-pressure"))
    lock(event_id)

    response = host.delete(f"/api/v1/events/{event_id}/")

    assert response.status_code == 409
    assert "record of the tournament" in response.json()["detail"]
    assert Event.objects.filter(pk=event_id).exists()


# -- the submitted lists --------------------------------------------------------------------------


def test_the_organiser_reads_every_submitted_list_and_why_it_is_illegal(
    host, event_id, other_user
) -> None:
    garbage = "3 Flux Capacitor\n1 Stamp Act\n"
    registered = register(other_user, event_id, garbage)

    rows = host.get(f"/api/v1/events/{event_id}/registrations/").json()

    assert registered["legal"] is False
    assert {"unknown-card", "deck-size"} <= {v["code"] for v in registered["verdict"]["violations"]}
    assert [(row["player"], row["decklist"], row["legal"]) for row in rows] == [
        ("bob", garbage, False)
    ]
    unknown = [v for v in rows[0]["verdict"]["violations"] if v["code"] == "unknown-card"]
    assert "Flux Capacitor" in unknown[0]["message"]


def test_a_player_reads_their_own_list_but_not_the_others(event_id, other_user, user) -> None:
    register(other_user, event_id, sample("legal-bison-pressure"))
    register(user, event_id, sample("illegal-rights-cap"))

    mine = client_for(other_user).get(f"/api/v1/events/{event_id}/registration/").json()
    everyone = client_for(other_user).get(f"/api/v1/events/{event_id}/registrations/")

    assert mine["decklist"] == sample("legal-bison-pressure")
    assert everyone.status_code == 403
    assert everyone.json()["detail"] == "Only the event's organiser sees every registration."


def test_withdrawing_without_a_registration_is_a_404(event_id, user) -> None:
    response = client_for(user).delete(f"/api/v1/events/{event_id}/registration/")

    assert response.status_code == 404
    assert response.json()["detail"] == "You are not registered for this event."


def test_the_event_list_reads_a_fixed_number_of_queries(
    host, organiser, other_user, django_assert_num_queries
) -> None:
    for name in ("One", "Two", "Three"):
        event = host.post("/api/v1/events/", event_body(name=name), format="json").json()
        register(other_user, event["id"], sample("legal-bison-pressure"))

    with django_assert_num_queries(2):  # the page count, then the events with their relations
        response = APIClient().get("/api/v1/events/")

    assert [e["registration_count"] for e in response.json()["results"]] == [1, 1, 1]


def test_the_schema_documents_changing_and_deleting() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    operations = schema["paths"]["/api/v1/events/{id}/"]

    assert {"get", "put", "patch", "delete"} <= set(operations)
    for method in ("put", "patch", "delete"):
        assert {"403", "409"} <= set(operations[method]["responses"])
    assert "changeable" in operations["patch"]["description"]


def test_an_event_name_is_one_line(host) -> None:
    response = host.post("/api/v1/events/", event_body(name="Winter\nCup"), format="json")

    assert response.status_code == 400
    assert "an event name is one line: it holds a line break" in json.dumps(response.json())
    assert host.get("/api/v1/events/").json()["count"] == 0
