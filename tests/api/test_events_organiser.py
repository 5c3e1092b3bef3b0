"""Organisers create events over the API and see every registration; nobody else does."""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import Event

pytestmark = pytest.mark.django_db

GAME = "revolt-n-reign"


def sample(name: str) -> str:
    return (Path(settings.FIXTURES_DIR) / "decks" / GAME / f"{name}.txt").read_text()


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def event_body(**fields) -> dict:
    body = {
        "game": GAME,
        "format": "standard",
        "name": "Winter Open",
        "date": "2026-12-05",
        "decklist_deadline": (timezone.now() + dt.timedelta(days=3)).isoformat(),
    }
    body.update(fields)
    return body


def test_a_signed_in_user_creates_an_event_and_becomes_its_organiser(user) -> None:
    response = client_for(user).post("/api/v1/events/", event_body(), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["organiser"] == user.username
    assert (body["game"], body["format"], body["registration_count"]) == (GAME, "standard", 0)
    assert Event.objects.get(pk=body["id"]).organiser == user


def test_creating_an_event_needs_sign_in(api_client) -> None:
    response = api_client.post("/api/v1/events/", event_body(), format="json")
    assert response.status_code == 401
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"format": "modern"}, "format", "has no format 'modern'"),
        ({"game": "chess"}, "game", "No game 'chess'"),
        ({"variant": "secret-draft"}, "variant", "no variant"),
        ({"date": "tomorrow"}, "date", ""),
    ],
)
def test_a_bad_event_is_a_400_naming_the_field(user, fields, field, words) -> None:
    response = client_for(user).post("/api/v1/events/", event_body(**fields), format="json")

    assert response.status_code == 400
    problem = response.json()
    assert problem["status"] == 400
    assert words in str(problem)
    assert field in str(problem)
    assert not Event.objects.exists()


def test_the_organiser_sees_every_registration_with_its_hash_and_verdict(
    user, other_user, django_user_model
) -> None:
    organiser = client_for(user)
    event_id = organiser.post("/api/v1/events/", event_body(), format="json").json()["id"]
    carol = django_user_model.objects.create_user("carol", password="pw-carol-123")
    bob_hash = (
        client_for(other_user)
        .post(
            f"/api/v1/events/{event_id}/register/",
            {"decklist": sample("legal-bison-pressure")},
            format="json",
        )
        .json()["deck_hash"]
    )
    client_for(carol).post(
        f"/api/v1/events/{event_id}/register/",
        {"decklist": sample("illegal-rights-cap")},
        format="json",
    )

    response = organiser.get(f"/api/v1/events/{event_id}/registrations/")

    assert response.status_code == 200
    rows = {row["player"]: row for row in response.json()}
    assert set(rows) == {"bob", "carol"}
    assert rows["bob"]["deck_hash"] == bob_hash and rows["bob"]["legal"] is True
    assert rows["carol"]["legal"] is False
    codes = {v["code"] for v in rows["carol"]["verdict"]["violations"]}
    assert "rights-cap" in codes
    assert all(row["locked"] is False for row in rows.values())


def test_only_the_organiser_sees_the_registrations(user, other_user, api_client) -> None:
    event_id = client_for(user).post("/api/v1/events/", event_body(), format="json").json()["id"]

    assert (
        client_for(other_user).get(f"/api/v1/events/{event_id}/registrations/").status_code == 403
    )
    assert api_client.get(f"/api/v1/events/{event_id}/registrations/").status_code == 401


def test_registrations_show_locked_after_the_deadline(user, other_user) -> None:
    organiser = client_for(user)
    event_id = organiser.post("/api/v1/events/", event_body(), format="json").json()["id"]
    client_for(other_user).post(
        f"/api/v1/events/{event_id}/register/",
        {"decklist": sample("legal-bison-pressure")},
        format="json",
    )
    Event.objects.filter(pk=event_id).update(
        decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
    )

    rows = organiser.get(f"/api/v1/events/{event_id}/registrations/").json()

    assert [row["locked"] for row in rows] == [True]
