"""Event pages: the time zone beside the deadline box and the date checks, the organiser's edit,
delete and submitted-decklists pages (nobody else's), and the verdict shown on registering."""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from django.urls import reverse
from django.utils import timezone

from decks.events.services import event_create
from decks.models import Event, Format, Registration
from tests.factories import default_format
from tests.web.conftest import RNR, sample

pytestmark = pytest.mark.django_db


def days_ahead(days: int) -> dt.date:
    return timezone.localdate() + dt.timedelta(days=days)


def event_form(**fields: object) -> dict[str, object]:
    form = {
        "name": "Autumn Cup",
        "format": default_format(RNR).pk,
        "date": days_ahead(5).isoformat(),
        "time_zone": "Europe/Paris",
        "decklist_deadline": f"{days_ahead(4)}T18:00",
        "variant": "",
    }
    form.update(fields)
    return form


@pytest.fixture
def event(organiser) -> Event:
    return event_create(
        game=RNR,
        format=default_format(RNR),
        name="Harbor Open",
        date=days_ahead(3),
        decklist_deadline=dt.datetime.combine(days_ahead(2), dt.time(18, 0)),
        time_zone="Europe/Paris",
        organiser=organiser,
    )


@pytest.fixture
def host(client, organiser):
    client.force_login(organiser)
    return client


def lock(event: Event) -> None:
    Event.objects.filter(pk=event.pk).update(
        decklist_deadline=timezone.now() - dt.timedelta(minutes=1)
    )


def field_tag(page: str, name: str) -> str:
    """The HTML tag of the form field called ``name``."""
    at = page.index(f'name="{name}"')
    return page[page.rindex("<", 0, at) : page.index(">", at) + 1]


def register(client, user, event: Event, decklist: str):
    client.force_login(user)
    return client.post(reverse("event-register", args=[event.pk]), {"decklist": decklist})


# -- the form: time zone and dates ----------------------------------------------------------------


def test_the_new_event_form_names_the_zone_beside_the_deadline_box(host):
    page = host.get(reverse("event-new")).content.decode()

    assert 'name="time_zone"' in page and 'data-detect="1"' in page
    assert '<option value="Europe/Paris">' in page
    assert "<strong data-time-zone-label>UTC</strong> time" in page
    assert "js/event-time-zone.js" in page
    assert page.index('name="time_zone"') < page.index('name="decklist_deadline"')


def test_the_variant_is_picked_from_the_games_that_have_some(host):
    """The variant box lists each game's rulebook variants under the game's name, so an
    organiser picks one rather than typing a name; a variant of another game than the format's
    is refused on the field, and nothing is stored."""
    page = host.get(reverse("event-new")).content.decode()

    assert "<select" in field_tag(page, "variant")
    assert '<optgroup label="Regality vs Religion: Revolution">' in page
    assert '<option value="secret-random">Secret random</option>' in page
    assert '<option value="" selected>None: the game&#x27;s default</option>' in page

    typed = host.post(reverse("event-new"), event_form(variant="chaos"))
    other_game = host.post(reverse("event-new"), event_form(variant="draft"))
    rvr = host.post(
        reverse("event-new"),
        event_form(
            name="Tile Cup", format=default_format("regality-vs-religion").pk, variant="draft"
        ),
    )

    assert typed.status_code == 400 and "Select a valid choice" in typed.content.decode()
    assert other_game.status_code == 400
    assert "has no variant &#x27;draft&#x27;" in other_game.content.decode()
    assert not Event.objects.filter(name="Autumn Cup").exists()
    assert rvr.status_code == 302 and Event.objects.get(name="Tile Cup").variant == "draft"


def test_the_deadline_is_read_in_the_chosen_zone_and_shown_in_it(host):
    response = host.post(reverse("event-new"), event_form())

    event = Event.objects.get(name="Autumn Cup")
    assert response["Location"] == reverse("event-detail", args=[event.pk])
    paris = zoneinfo.ZoneInfo("Europe/Paris")
    typed = dt.datetime.combine(days_ahead(4), dt.time(18), tzinfo=paris)
    assert event.decklist_deadline == typed.astimezone(dt.UTC)
    assert event.decklist_deadline.utcoffset() == dt.timedelta(0)
    assert event.time_zone == "Europe/Paris"
    page = host.get(response["Location"]).content.decode()
    assert f"{days_ahead(4):%Y-%m-%d} 18:00 Europe/Paris" in page
    assert " UTC)" in page


def test_a_form_without_a_zone_is_read_in_utc(host):
    form = event_form()
    del form["time_zone"]

    host.post(reverse("event-new"), form)

    event = Event.objects.get(name="Autumn Cup")
    assert event.time_zone == "UTC"
    assert event.decklist_deadline == dt.datetime.combine(days_ahead(4), dt.time(18), tzinfo=dt.UTC)


@pytest.mark.parametrize(
    ("fields", "words"),
    [
        ({"decklist_deadline": "2020-01-01T10:00"}, "is in the past"),
        ({"date": "9999-12-31"}, "more than 10 years ahead"),
        ({"date": "0001-01-01", "decklist_deadline": "0001-01-01T00:00"}, "has passed"),
        ({"decklist_deadline": "9999-12-31T23:59", "time_zone": "Pacific/Kiritimati"}, ""),
        # the day after the event, worked out when the test runs (not when it is collected, which
        # may be the day before, around midnight)
        ({"decklist_deadline": "{day_after_the_event}T09:00"}, "after the event"),
        ({"time_zone": "Mars/Olympus_Mons"}, "Select a valid choice"),
    ],
)
def test_insane_dates_are_shown_in_the_form_not_a_500(host, fields, words):
    fields = {
        name: value.format(day_after_the_event=days_ahead(6)) for name, value in fields.items()
    }
    response = host.post(reverse("event-new"), event_form(**fields))

    assert response.status_code == 400
    page = response.content.decode()
    assert 'class="field-error"' in page
    assert words in page
    assert not Event.objects.exists()


# -- editing --------------------------------------------------------------------------------------


def test_the_organiser_edits_their_event_in_its_own_zone(host, event):
    form_page = host.get(reverse("event-edit", args=[event.pk])).content.decode()
    response = host.post(
        reverse("event-edit", args=[event.pk]),
        event_form(name="Harbor Cup", date=days_ahead(4).isoformat(), time_zone="Asia/Tokyo"),
    )

    assert f'value="{days_ahead(2)}T18:00"' in form_page
    assert "<strong data-time-zone-label>Europe/Paris</strong>" in form_page
    assert 'data-detect="1"' not in form_page
    assert response["Location"] == reverse("event-detail", args=[event.pk])
    event.refresh_from_db()
    assert (event.name, event.date, event.time_zone) == ("Harbor Cup", days_ahead(4), "Asia/Tokyo")
    assert event.decklist_deadline == dt.datetime.combine(days_ahead(4), dt.time(9), tzinfo=dt.UTC)


def test_once_someone_registered_the_format_is_fixed_in_the_form(
    client, organiser, other_user, event
):
    register(client, other_user, event, sample(RNR, "legal-eagle-control"))
    client.force_login(organiser)
    other_format = Format.objects.exclude(pk=event.format_id).first()

    page = client.get(reverse("event-edit", args=[event.pk])).content.decode()
    client.post(
        reverse("event-edit", args=[event.pk]),
        event_form(
            name="Renamed",
            format=other_format.pk,
            date=event.date.isoformat(),
            decklist_deadline=f"{days_ahead(2)}T18:00",
        ),
    )

    assert "1 player registered: the format and variant are fixed" in page
    moved = client.post(
        reverse("event-edit", args=[event.pk]),
        event_form(
            name="Renamed",
            date=days_ahead(4).isoformat(),
            decklist_deadline=f"{days_ahead(2)}T18:00",
        ),
        follow=True,
    )
    assert "The 1 registered list was judged again on the new date." in moved.content.decode()
    assert Registration.objects.get(event=event).verdict["as_of"] == days_ahead(4).isoformat()
    assert "disabled" in field_tag(page, "format") and "disabled" in field_tag(page, "variant")
    assert "disabled" not in field_tag(page, "date")
    event.refresh_from_db()
    assert (event.name, event.format_id) == ("Renamed", default_format(RNR).pk)


def test_a_locked_event_offers_its_name_only_and_refuses_a_new_deadline(host, event):
    lock(event)

    page = host.get(reverse("event-edit", args=[event.pk])).content.decode()

    assert "only its name may change" in page
    for field in ("format", "date", "time_zone", "decklist_deadline", "variant"):
        assert "disabled" in field_tag(page, field), field
    assert "disabled" not in field_tag(page, "name")
    response = host.post(
        reverse("event-edit", args=[event.pk]), event_form(name="Harbor Open (played)")
    )
    event.refresh_from_db()
    assert response.status_code == 302
    assert event.name == "Harbor Open (played)"
    assert event.date == days_ahead(3)


def test_nobody_else_edits_deletes_or_reads_the_lists(client, user, event, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    for someone in (user, root):
        client.force_login(someone)
        for name in ("event-edit", "event-delete", "event-registrations"):
            response = client.get(reverse(name, args=[event.pk]))
            assert response.status_code == 403, name
            assert "Only the event&#x27;s organiser" in response.content.decode()
            assert "organised by olga" in response.content.decode()
        assert client.post(reverse("event-delete", args=[event.pk])).status_code == 403
        assert client.post(reverse("event-edit", args=[event.pk]), event_form()).status_code == 403
    assert Event.objects.get(pk=event.pk).name == "Harbor Open"


def test_signing_in_comes_first(client, event):
    for name in ("event-edit", "event-delete", "event-registrations"):
        response = client.get(reverse(name, args=[event.pk]))
        assert response.status_code == 302
        assert response["Location"].startswith(reverse("login"))


def test_the_organiser_sees_edit_and_delete_on_the_event_page_and_others_do_not(
    client, organiser, user, event
):
    client.force_login(user)
    player_page = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    client.force_login(organiser)
    organiser_page = client.get(reverse("event-detail", args=[event.pk])).content.decode()

    for name in ("event-edit", "event-delete", "event-registrations"):
        assert reverse(name, args=[event.pk]) in organiser_page
        assert reverse(name, args=[event.pk]) not in player_page


# -- deleting -------------------------------------------------------------------------------------


def test_the_organiser_deletes_after_confirming(client, organiser, other_user, event):
    register(client, other_user, event, sample(RNR, "legal-eagle-control"))
    client.force_login(organiser)

    confirm = client.get(reverse("event-delete", args=[event.pk])).content.decode()
    response = client.post(reverse("event-delete", args=[event.pk]), follow=True)

    assert "its 1 registration (the players' submitted decklists)" in confirm
    assert response.redirect_chain[-1][0] == reverse("event-list")
    assert "Event Harbor Open deleted with its 1 registration." in response.content.decode()
    assert not Event.objects.exists() and not Registration.objects.exists()


def test_a_locked_event_with_registrations_cannot_be_deleted(client, organiser, other_user, event):
    register(client, other_user, event, sample(RNR, "legal-eagle-control"))
    lock(event)
    client.force_login(organiser)

    detail = client.get(reverse("event-detail", args=[event.pk])).content.decode()
    response = client.post(reverse("event-delete", args=[event.pk]))

    assert reverse("event-delete", args=[event.pk]) not in detail
    assert response.status_code == 409
    assert "record of the tournament" in response.content.decode()
    assert Event.objects.filter(pk=event.pk).exists()


# -- the verdict and the submitted lists ----------------------------------------------------------


def test_garbage_is_registered_as_illegal_saying_why(client, other_user, event):
    response = register(client, other_user, event, "3 Flux Capacitor\n1 Stamp Act\n")

    page = client.get(response["Location"]).content.decode()
    assert "Decklist submitted, but it is NOT legal" in page
    assert "Flux Capacitor" in page
    assert "Fix it and submit again before the deadline." in page
    assert 'class="message warning"' in page
    assert "verdict illegal" in page


def test_a_legal_list_is_said_to_be_legal(client, other_user, event):
    response = register(client, other_user, event, sample(RNR, "legal-eagle-control"))

    page = client.get(response["Location"]).content.decode()
    assert f"Decklist submitted: legal in standard on {event.date:%Y-%m-%d}." in page
    assert "verdict legal" in page


def test_the_organiser_reads_every_submitted_list_with_its_verdict(
    client, organiser, user, other_user, event
):
    register(client, user, event, sample(RNR, "legal-eagle-control"))
    register(client, other_user, event, "3 Flux Capacitor\n")
    client.force_login(organiser)

    response = client.get(reverse("event-registrations", args=[event.pk]))

    page = response.content.decode()
    assert response.status_code == 200
    assert page.count('data-testid="registration"') == 2
    assert "1 legal" in page and "1 illegal" in page
    assert "3 Flux Capacitor" in page
    assert "Flux Capacitor" in page and 'data-code="unknown-card"' in page
    assert sample(RNR, "legal-eagle-control").splitlines()[2] in page


def test_a_new_zone_in_the_form_rereads_the_deadline_box_in_it(host, event):
    host.post(
        reverse("event-edit", args=[event.pk]),
        event_form(
            name=event.name,
            date=event.date.isoformat(),
            decklist_deadline=f"{days_ahead(2)}T18:00",
            time_zone="America/New_York",
        ),
    )

    event.refresh_from_db()
    new_york = zoneinfo.ZoneInfo("America/New_York")
    assert event.time_zone == "America/New_York"
    assert event.decklist_deadline == dt.datetime.combine(
        days_ahead(2), dt.time(18), tzinfo=new_york
    ).astimezone(dt.UTC)


def test_an_untouched_form_changes_nothing_even_on_a_locked_event(host, event):
    lock(event)
    before = Event.objects.get(pk=event.pk).decklist_deadline

    response = host.post(
        reverse("event-edit", args=[event.pk]),
        {"name": event.name, "variant": ""},
    )

    assert response.status_code == 302
    assert Event.objects.get(pk=event.pk).decklist_deadline == before
