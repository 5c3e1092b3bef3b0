"""Organisers create events over the API and see every registration; nobody else does.

Organisers are members of the Organisers group (``manage.py organiser grant``) and superusers.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import timezone
from rest_framework.test import APIClient

from decks.models import Event
from decks.services import organiser_revoke

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
        "date": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
        "decklist_deadline": (timezone.now() + dt.timedelta(days=3)).isoformat(),
    }
    body.update(fields)
    return body


def test_an_organiser_creates_an_event_and_becomes_its_organiser(organiser) -> None:
    response = client_for(organiser).post("/api/v1/events/", event_body(), format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    assert body["organiser"] == organiser.username
    assert (body["game"], body["format"], body["registration_count"]) == (GAME, "standard", 0)
    assert Event.objects.get(pk=body["id"]).organiser == organiser


def test_a_user_who_is_not_an_organiser_gets_a_403_saying_how_to_become_one(user) -> None:
    response = client_for(user).post("/api/v1/events/", event_body(), format="json")

    assert response.status_code == 403
    assert response["Content-Type"] == "application/problem+json"
    problem = response.json()
    assert (problem["status"], problem["code"]) == (403, "permission-denied")
    assert "Only organisers can create events" in problem["detail"]
    assert "Ask an administrator" in problem["detail"]
    assert "manage.py organiser grant" in problem["detail"]
    assert not Event.objects.exists()


def test_a_non_organiser_is_refused_before_the_body_is_judged(user) -> None:
    response = client_for(user).post("/api/v1/events/", {"name": ""}, format="json")

    assert response.status_code == 403
    assert "Only organisers" in response.json()["detail"]


def test_a_superuser_is_an_organiser(django_user_model) -> None:
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")

    response = client_for(root).post("/api/v1/events/", event_body(), format="json")

    assert response.status_code == 201
    assert response.json()["organiser"] == "root"


def test_creating_an_event_needs_sign_in(api_client) -> None:
    response = api_client.post("/api/v1/events/", event_body(), format="json")
    assert response.status_code == 401
    assert not Event.objects.exists()


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"format": "modern"}, "format", "has no format 'modern'"),
        ({"game": "chess"}, "game", "There is no game 'chess'"),
        ({"variant": "secret-draft"}, "variant", "no variant"),
        ({"date": "tomorrow"}, "date", ""),
    ],
)
def test_a_bad_event_is_a_400_naming_the_field(organiser, fields, field, words) -> None:
    response = client_for(organiser).post("/api/v1/events/", event_body(**fields), format="json")

    assert response.status_code == 400
    problem = response.json()
    assert problem["status"] == 400
    assert words in str(problem)
    assert field in str(problem)
    assert not Event.objects.exists()


def test_the_organiser_sees_every_registration_with_its_hash_and_verdict(
    organiser, other_user, django_user_model
) -> None:
    host = client_for(organiser)
    event_id = host.post("/api/v1/events/", event_body(), format="json").json()["id"]
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

    response = host.get(f"/api/v1/events/{event_id}/registrations/")

    assert response.status_code == 200
    rows = {row["player"]: row for row in response.json()}
    assert set(rows) == {"bob", "carol"}
    assert rows["bob"]["deck_hash"] == bob_hash and rows["bob"]["legal"] is True
    assert rows["carol"]["legal"] is False
    codes = {v["code"] for v in rows["carol"]["verdict"]["violations"]}
    assert "rights-cap" in codes
    assert all(row["locked"] is False for row in rows.values())


@pytest.mark.parametrize(
    ("decklist", "kind"),
    [
        ("# sideboard to follow\n\n# nothing yet\n", "text"),
        ("   \n\n", "text"),
        ('{"cards": []}', "json"),
        ("quantity,name\n", "csv"),
    ],
)
def test_a_registration_without_cards_is_a_400_and_the_previous_one_stays(
    organiser, other_user, decklist, kind
) -> None:
    # given a valid registration
    event_id = client_for(organiser).post("/api/v1/events/", event_body(), format="json").json()
    url = f"/api/v1/events/{event_id['id']}/register/"
    player = client_for(other_user)
    valid = player.post(url, {"decklist": sample("legal-bison-pressure")}, format="json").json()

    # when the player replaces it with a list of no cards
    response = player.post(url, {"decklist": decklist, "kind": kind}, format="json")

    # then it is refused with the reason, and the valid list is still the registration
    assert response.status_code == 400
    assert "a registration needs a deck" in str(response.json())
    mine = player.get(f"/api/v1/events/{event_id['id']}/registration/").json()
    assert mine["deck_hash"] == valid["deck_hash"] and mine["legal"] is True


def test_only_the_organiser_sees_the_registrations(
    organiser, other_user, django_user_model, api_client
) -> None:
    event_id = (
        client_for(organiser).post("/api/v1/events/", event_body(), format="json").json()["id"]
    )
    another_organiser = django_user_model.objects.create_superuser("root", "r@example.com", "pw")

    response = client_for(other_user).get(f"/api/v1/events/{event_id}/registrations/")

    assert response.status_code == 403
    assert response.json()["detail"] == "Only the event's organiser sees every registration."
    assert (
        client_for(another_organiser).get(f"/api/v1/events/{event_id}/registrations/").status_code
        == 403
    )
    assert api_client.get(f"/api/v1/events/{event_id}/registrations/").status_code == 401


def test_a_revoked_organiser_keeps_their_events_but_creates_no_more(organiser, other_user) -> None:
    client = client_for(organiser)
    event_id = client.post("/api/v1/events/", event_body(), format="json").json()["id"]
    client_for(other_user).post(
        f"/api/v1/events/{event_id}/register/",
        {"decklist": sample("legal-bison-pressure")},
        format="json",
    )

    organiser_revoke(user=organiser)

    rows = client.get(f"/api/v1/events/{event_id}/registrations/").json()
    assert [row["player"] for row in rows] == ["bob"]
    assert client.get(f"/api/v1/events/{event_id}/").json()["organiser"] == organiser.username
    refused = client.post("/api/v1/events/", event_body(name="Spring Open"), format="json")
    assert refused.status_code == 403
    assert Event.objects.count() == 1


def test_the_schema_documents_the_organiser_403() -> None:
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    forbidden = schema["paths"]["/api/v1/events/"]["post"]["responses"]["403"]

    assert "not an organiser" in forbidden["description"]
    example = forbidden["content"]["application/problem+json"]["examples"]["not-an-organiser"]
    assert example["value"]["status"] == 403
    assert "Only organisers can create events" in example["value"]["detail"]


def test_registrations_show_locked_after_the_deadline(organiser, other_user) -> None:
    host = client_for(organiser)
    event_id = host.post("/api/v1/events/", event_body(), format="json").json()["id"]
    client_for(other_user).post(
        f"/api/v1/events/{event_id}/register/",
        {"decklist": sample("legal-bison-pressure")},
        format="json",
    )
    Event.objects.filter(pk=event_id).update(
        decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
    )

    rows = host.get(f"/api/v1/events/{event_id}/registrations/").json()

    assert [row["locked"] for row in rows] == [True]
