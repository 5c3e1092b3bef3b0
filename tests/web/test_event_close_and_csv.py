"""The organiser closes an event's registrations now and downloads them as CSV (issue 34, item
6); nobody else may do either, and every text cell of the CSV is safe in a spreadsheet."""

from __future__ import annotations

import csv
import datetime as dt
import io
import re

import pytest
from django.urls import reverse
from django.utils import timezone

from decks.events.services import event_create
from decks.models import Event, Registration
from tests.factories import default_format
from tests.web.conftest import RNR, sample

pytestmark = pytest.mark.django_db


@pytest.fixture
def event(organiser) -> Event:
    day = timezone.localdate() + dt.timedelta(days=3)
    return event_create(
        game=RNR,
        format=default_format(RNR),
        name="Harbor Open",
        date=day,
        decklist_deadline=dt.datetime.combine(day - dt.timedelta(days=1), dt.time(18, 0)),
        time_zone="Europe/Paris",
        organiser=organiser,
    )


def _register(client, user, event: Event, decklist: str):
    client.force_login(user)
    return client.post(reverse("event-register", args=[event.pk]), {"decklist": decklist})


def _rows(response) -> list[dict[str, str]]:
    return list(csv.DictReader(io.StringIO(response.content.decode())))


def test_the_organiser_downloads_the_registrations_as_csv(client, event, organiser, user):
    # given two registrations: a legal deck, and an illegal one named like a formula
    _register(client, user, event, sample(RNR, "legal-eagle-control"))
    illegal = re.sub(
        r"(?m)^# name: .*$", '# name: =HYPERLINK("http://x")', sample(RNR, "illegal-ua-count")
    )
    _register(client, organiser, event, illegal)
    # when the organiser downloads them
    client.force_login(organiser)
    detail = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert reverse("event-registrations-csv", args=[event.pk]) in detail
    response = client.get(reverse("event-registrations-csv", args=[event.pk]))
    # then the CSV holds one row per registration: deck, player, verdict, problems, hash
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    assert "attachment" in response["Content-Disposition"]
    rows = _rows(response)
    by_player = {row["player"]: row for row in rows}
    assert set(by_player) == {user.username, organiser.username}
    alice = by_player[user.username]
    stored = Registration.objects.get(player=user)
    assert alice["deck"] == "Eagle Control"
    assert alice["verdict"] == "legal" and alice["problems"] == ""
    assert alice["deck_hash"] == stored.deck_hash and alice["cards"] == "60"
    assert alice["submitted_at"].endswith(("+01:00", "+02:00"))  # Europe/Paris
    olga = by_player[organiser.username]
    assert olga["verdict"] == "illegal" and "ua-count" in olga["problems"].split()
    # and the deck named like a formula is text, not a formula
    assert olga["deck"] == '\'=HYPERLINK("http://x")'


def test_the_organiser_closes_the_registrations_now(client, event, organiser, user):
    _register(client, user, event, sample(RNR, "legal-eagle-control"))
    client.force_login(organiser)
    page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    assert "Close registrations now" in page
    # when the organiser closes them
    closed = client.post(reverse("event-close", args=[event.pk]), follow=True)
    # then the event is locked, says so, and offers no second close
    assert closed.status_code == 200
    body = closed.content.decode()
    assert "Registrations closed" in body
    assert "locked: decklists can no longer change" in body
    assert "Close registrations now" not in body
    assert Event.objects.get(pk=event.pk).decklist_deadline <= timezone.now()
    # and a player can no longer submit, replace or withdraw a list
    again = _register(client, user, event, sample(RNR, "legal-bison-pressure"))
    assert again.status_code == 409
    assert client.post(reverse("event-withdraw", args=[event.pk])).status_code == 409
    assert Registration.objects.get(player=user).deck_hash  # the first list stays
    # and closing again is refused, saying why
    client.force_login(organiser)
    twice = client.post(reverse("event-close", args=[event.pk]))
    assert twice.status_code == 409
    assert "already closed" in twice.content.decode()


def test_only_the_organiser_may_close_or_download(client, event, user, other_user):
    before = Event.objects.get(pk=event.pk).decklist_deadline
    _register(client, other_user, event, sample(RNR, "legal-eagle-control"))
    # a player, even one registered for the event
    for someone in (user, other_user):
        client.force_login(someone)
        page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
        assert "Close registrations now" not in page
        assert reverse("event-registrations-csv", args=[event.pk]) not in page
        assert client.post(reverse("event-close", args=[event.pk])).status_code == 403
        download = client.get(reverse("event-registrations-csv", args=[event.pk]))
        assert download.status_code == 403
        assert not download["Content-Type"].startswith("text/csv")
    assert Event.objects.get(pk=event.pk).decklist_deadline == before
    # and someone logged out is sent to log in
    client.logout()
    assert client.post(reverse("event-close", args=[event.pk])).status_code == 302
    assert client.get(reverse("event-registrations-csv", args=[event.pk])).status_code == 302
    assert Event.objects.get(pk=event.pk).decklist_deadline == before
