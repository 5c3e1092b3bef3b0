"""Only organisers create events on the web; everyone else is told how to become one."""

from __future__ import annotations

import datetime as dt

import pytest
from django.urls import reverse
from django.utils import timezone

from decks.events.services import event_create
from decks.models import Event
from decks.services import organiser_revoke
from tests.factories import default_format
from tests.web.conftest import RNR, sample

pytestmark = pytest.mark.django_db


def event_form(name: str = "Autumn Cup") -> dict[str, object]:
    return {
        "name": name,
        "format": default_format(RNR).pk,
        "date": (timezone.localdate() + dt.timedelta(days=5)).isoformat(),
        "decklist_deadline": f"{timezone.localdate() + dt.timedelta(days=4)}T18:00",
    }


def test_the_event_list_offers_new_events_to_organisers_only(client, user, organiser):
    client.force_login(user)
    player_page = client.get(reverse("event-list")).content.decode()
    client.force_login(organiser)
    organiser_page = client.get(reverse("event-list")).content.decode()

    new_event = reverse("event-new")
    assert new_event not in player_page
    assert "Only organisers create events" in player_page
    assert new_event in organiser_page
    assert "Only organisers create events" not in organiser_page


def test_a_non_organiser_is_told_how_to_become_one(alice, user):
    response = alice.get(reverse("event-new"))

    assert response.status_code == 403
    page = response.content.decode()
    assert page.count("<h1") == 1
    assert "Only organisers create events" in page
    assert "Ask an administrator" in page
    assert "Organisers" in page
    assert f"manage.py organiser grant {user.username}" in page
    assert 'name="decklist_deadline"' not in page


def test_a_non_organiser_cannot_post_an_event(alice):
    response = alice.post(reverse("event-new"), event_form())

    assert response.status_code == 403
    assert b"Only organisers create events" in response.content
    assert not Event.objects.exists()


def test_signing_in_comes_first(client):
    response = client.get(reverse("event-new"))

    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_an_organiser_gets_the_form_and_creates_the_event(client, organiser):
    client.force_login(organiser)

    assert client.get(reverse("event-new")).status_code == 200
    response = client.post(reverse("event-new"), event_form())

    event = Event.objects.get(name="Autumn Cup")
    assert response["Location"] == reverse("event-detail", args=[event.pk])
    assert event.organiser == organiser


def test_a_superuser_is_an_organiser(client, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-123")
    client.force_login(root)

    response = client.post(reverse("event-new"), event_form("Root Cup"))

    assert response.status_code == 302
    assert Event.objects.get(name="Root Cup").organiser == root


def test_a_revoked_organiser_still_sees_their_events_registrations(client, organiser, other_user):
    event = event_create(
        game=RNR,
        format=default_format(RNR),
        name="Harbor Open",
        date=timezone.localdate() + dt.timedelta(days=2),
        decklist_deadline=timezone.now() + dt.timedelta(days=1),
        organiser=organiser,
    )
    client.force_login(other_user)
    client.post(
        reverse("event-register", args=[event.pk]),
        {"decklist": sample(RNR, "legal-eagle-control"), "kind": "auto"},
    )

    organiser_revoke(user=organiser)
    client.force_login(organiser)

    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Registrations (organiser)" in page
    assert other_user.username in page
    assert client.get(reverse("event-new")).status_code == 403


def test_the_batch_check_stays_open_to_everyone(alice):
    response = alice.get(reverse("tournament-check"))

    assert response.status_code == 200
    assert b"Check decklists" in response.content
