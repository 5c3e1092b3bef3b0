"""Event services and selectors: the lock, the date rules (with properties), what an organiser may
change or delete and when, who reads the submitted decklists, and registration verdicts.

Every service takes ``now``: these tests fix the clock at ``NOW`` rather than reading it.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.decklist import DecklistParseError
from decks.events.errors import (
    EventConflictError,
    EventError,
    EventPermissionError,
    OrganiserRequiredError,
    RegistrationLockedError,
)
from decks.events.selectors import (
    event_changeable_fields,
    event_deletion_refusal,
    event_is_locked,
    registration_of,
    registrations_visible_to,
)
from decks.events.services import (
    MAX_YEARS_AHEAD,
    event_create,
    event_dates_problems,
    event_deadline_utc,
    event_delete,
    event_update,
    registration_submit,
    registration_withdraw,
)
from decks.models import Event, Format, FormatCardEntry, Registration
from decks.services import deck_hash, organiser_grant
from tests.decks.conftest import RNR, read_sample

pytestmark = pytest.mark.django_db

UTC = dt.UTC
NOW = dt.datetime(2026, 9, 1, 12, 0, tzinfo=UTC)
BEFORE = dt.datetime(2026, 10, 1, 12, 0, tzinfo=UTC)  # registrations, before the deadline
AFTER = dt.datetime(2026, 10, 2, 18, 1, tzinfo=UTC)  # one minute after the deadline
PARIS = "Europe/Paris"


def standard() -> Format:
    return Format.objects.get(game__slug=RNR, slug="standard")


@pytest.fixture
def event(organiser) -> Event:
    return event_create(
        game=RNR,
        format=standard(),
        name="Liberty Open",
        date=dt.date(2026, 10, 3),
        decklist_deadline=dt.datetime(2026, 10, 2, 18, 0, tzinfo=UTC),
        organiser=organiser,
        now=NOW,
    )


def register(event: Event, player, sample: str = "legal-bison-pressure", now=BEFORE):
    return registration_submit(
        event=event, player=player, decklist=read_sample(RNR, sample), now=now
    )


# -- the lock -------------------------------------------------------------------------------------


def test_the_deadline_itself_is_open_and_a_moment_later_is_locked(event):
    deadline = event.decklist_deadline

    assert not event_is_locked(event, now=deadline)
    assert event_is_locked(event, now=deadline + dt.timedelta(microseconds=1))


def test_after_the_deadline_a_registration_is_locked(event, other_player):
    first = register(event, other_player)

    with pytest.raises(RegistrationLockedError, match="deadline"):
        register(event, other_player, "legal-eagle-control", now=AFTER)
    with pytest.raises(RegistrationLockedError):
        registration_withdraw(registration=first, now=AFTER)

    stored = Registration.objects.get(pk=first.pk)
    assert stored.deck_hash == first.deck_hash
    assert stored.decklist == read_sample(RNR, "legal-bison-pressure")


# -- registrations and their verdicts -------------------------------------------------------------


def test_registration_stores_the_list_its_hash_and_verdict(event, other_player):
    registration = register(event, other_player)

    assert registration.legal
    assert registration.decklist == read_sample(RNR, "legal-bison-pressure")
    entries = [(e["name"], e["quantity"]) for e in registration.entries]
    assert registration.deck_hash == deck_hash(entries)
    assert registration.verdict["format"] == "standard"
    assert registration.verdict["as_of"] == "2026-10-03"


def test_an_illegal_list_is_registered_with_its_violations(event, other_player):
    registration = register(event, other_player, "illegal-banned")

    assert not registration.legal
    assert [v["code"] for v in registration.verdict["violations"]] == ["banned"]


def test_garbage_is_registered_as_illegal_saying_why(event, other_player):
    registration = registration_submit(
        event=event, player=other_player, decklist="3 Flux Capacitor\n1 Stamp Act\n", now=BEFORE
    )

    assert not registration.legal
    codes = {v["code"] for v in registration.verdict["violations"]}
    assert {"unknown-card", "deck-size", "ua-count"} <= codes
    unknown = next(v for v in registration.verdict["violations"] if v["code"] == "unknown-card")
    assert "Flux Capacitor" in unknown["message"]


@pytest.mark.parametrize(
    ("decklist", "kind"),
    [
        ("# game: rival-realms\n1 Grain Tithe\n", "text"),
        ('{"game": "rival-realms", "cards": [{"name": "Grain Tithe", "quantity": 1}]}', "json"),
    ],
)
def test_a_list_for_another_game_is_refused_and_the_registration_kept(
    event, other_player, decklist, kind
):
    """A list that says it is another game's is refused as it is everywhere else (the
    validator, a new deck): it would only be judged a pile of unknown cards, and a player who
    pasted the wrong list would lose the legal one they had registered."""
    kept = register(event, other_player)

    with pytest.raises(DecklistParseError, match="this decklist is for rival-realms"):
        registration_submit(
            event=event, player=other_player, decklist=decklist, kind=kind, now=BEFORE
        )

    registration = Registration.objects.get(event=event, player=other_player)
    assert registration.legal and registration.decklist == kept.decklist


def test_resubmitting_before_the_deadline_replaces_the_list(event, other_player):
    register(event, other_player, "illegal-banned")
    second = register(event, other_player)

    assert Registration.objects.filter(event=event).count() == 1
    assert second.legal
    assert registration_of(event, other_player) == second


# -- the date rules -------------------------------------------------------------------------------


def create(organiser, **fields) -> Event:
    values = {
        "game": RNR,
        "format": standard(),
        "name": "Harbor Open",
        "date": dt.date(2026, 10, 3),
        "decklist_deadline": dt.datetime(2026, 10, 2, 18, 0),
        "organiser": organiser,
        "time_zone": PARIS,
        "now": NOW,
    }
    values.update(fields)
    return event_create(**values)


def test_a_naive_deadline_is_read_in_the_event_time_zone_and_stored_in_utc(organiser):
    summer = create(organiser)
    winter = create(
        organiser, date=dt.date(2026, 12, 5), decklist_deadline=dt.datetime(2026, 12, 4, 18)
    )

    assert summer.decklist_deadline == dt.datetime(2026, 10, 2, 16, 0, tzinfo=UTC)
    assert winter.decklist_deadline == dt.datetime(2026, 12, 4, 17, 0, tzinfo=UTC)
    assert summer.time_zone == PARIS


def test_an_aware_deadline_keeps_its_moment(organiser):
    moment = dt.datetime(2026, 10, 2, 9, 30, tzinfo=zoneinfo.ZoneInfo("America/New_York"))

    event = create(organiser, decklist_deadline=moment)

    assert event.decklist_deadline == dt.datetime(2026, 10, 2, 13, 30, tzinfo=UTC)


@pytest.mark.parametrize(
    ("fields", "field", "words"),
    [
        ({"decklist_deadline": dt.datetime(2026, 8, 31, 12, 0)}, "decklist_deadline", "past"),
        ({"date": dt.date(2026, 8, 31)}, "date", "has passed"),
        (
            {"decklist_deadline": dt.datetime(2026, 10, 4, 0, 0)},
            "decklist_deadline",
            "after the event",
        ),
        ({"date": dt.date(9999, 12, 31)}, "date", f"more than {MAX_YEARS_AHEAD} years ahead"),
        ({"date": dt.date(2036, 9, 2)}, "date", "at the latest 2036-09-01"),
        ({"decklist_deadline": dt.datetime(1, 1, 1, 0, 0)}, "decklist_deadline", "out of range"),
        # the year in four digits (strftime's %Y wrote "2-01-01")
        (
            {"decklist_deadline": dt.datetime(2, 1, 1, 12, 0)},
            "decklist_deadline",
            "deadline 0002-01-01 12:00 Europe/Paris is in the past",
        ),
        ({"decklist_deadline": dt.datetime(9999, 12, 31, 23, 59)}, "decklist_deadline", ""),
        (
            {"decklist_deadline": dt.datetime(2027, 3, 28, 2, 30), "date": dt.date(2027, 3, 28)},
            "decklist_deadline",
            "does not exist in Europe/Paris",
        ),
        ({"time_zone": "Mars/Olympus_Mons"}, "time_zone", "unknown time zone"),
        ({"time_zone": "../../../etc/passwd"}, "time_zone", "unknown time zone"),
        # the host's own zone file: the deadline would move with the server's configuration
        ({"time_zone": "localtime"}, "time_zone", "unknown time zone"),
        ({"name": "   "}, "name", "needs a name"),
    ],
)
def test_bad_dates_are_refused_naming_the_field(organiser, fields, field, words):
    with pytest.raises(EventError) as refused:
        create(organiser, **fields)

    assert field in refused.value.fields
    assert words in refused.value.fields[field]
    assert not Event.objects.exists()


def test_the_deadline_may_be_on_the_event_day_until_its_last_minute(organiser):
    event = create(organiser, decklist_deadline=dt.datetime(2026, 10, 3, 23, 59))

    assert event.decklist_deadline == dt.datetime(2026, 10, 3, 21, 59, tzinfo=UTC)


def test_an_event_exactly_ten_years_ahead_is_accepted(organiser):
    event = create(
        organiser,
        date=dt.date(2036, 9, 1),
        decklist_deadline=dt.datetime(2036, 8, 31, 18, 0),
    )

    assert event.date == dt.date(2036, 9, 1)


def test_today_is_read_in_the_event_time_zone(organiser):
    # 23:30 UTC on 1 September is already 2 September in Tokyo: a Tokyo event on 1 September has
    # passed, a Los Angeles one (16:30 there) has not.
    late = dt.datetime(2026, 9, 1, 23, 30, tzinfo=UTC)
    day = dt.date(2026, 9, 1)
    deadline = dt.datetime(2026, 9, 1, 23, 45, tzinfo=UTC)

    tokyo = event_dates_problems(
        date=day, decklist_deadline=deadline, time_zone="Asia/Tokyo", now=late
    )
    los_angeles = event_dates_problems(
        date=day, decklist_deadline=deadline, time_zone="America/Los_Angeles", now=late
    )

    assert "has passed" in tokyo["date"]
    assert los_angeles == {}


ZONES = ["UTC", PARIS, "Asia/Tokyo", "America/Los_Angeles", "Pacific/Kiritimati", "Etc/GMT+12"]


def _years_after(day: dt.date, years: int) -> dt.date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:
        return day.replace(year=day.year + years, day=28)


def _shifted(day: dt.date, days: int) -> dt.date:
    try:
        return day + dt.timedelta(days=days)
    except OverflowError:
        return day


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    data=st.data(),
    zone=st.sampled_from(ZONES),
    now=st.datetimes(
        min_value=dt.datetime(2000, 1, 1), max_value=dt.datetime(2100, 1, 1), timezones=st.just(UTC)
    ),
)
def test_any_dates_are_accepted_exactly_when_the_rules_hold(data, zone, now):
    """Whatever is typed (year 1 to 9999, any zone): a refusal names a field, never a crash, and
    the dates are accepted exactly when every rule holds. Half the draws sit near the edges: a
    deadline around now, an event day around the deadline's day or ten years ahead."""
    local_now = now.astimezone(zoneinfo.ZoneInfo(zone)).replace(tzinfo=None)
    wall = data.draw(
        st.one_of(
            st.datetimes(),
            st.integers(min_value=-120, max_value=120).map(
                lambda minutes: local_now + dt.timedelta(minutes=minutes)
            ),
        ),
        label="deadline as typed",
    )
    day = data.draw(
        st.one_of(
            st.dates(),
            st.integers(min_value=-2, max_value=2).map(lambda k: _shifted(wall.date(), k)),
            st.integers(min_value=-2, max_value=2).map(
                lambda k: _shifted(_years_after(local_now.date(), MAX_YEARS_AHEAD), k)
            ),
        ),
        label="event day",
    )
    try:
        deadline = event_deadline_utc(wall, zone)
    except EventError as refused:
        assert set(refused.fields) == {"decklist_deadline"}
        return
    problems = event_dates_problems(date=day, decklist_deadline=deadline, time_zone=zone, now=now)
    assert set(problems) <= {"date", "decklist_deadline"}
    today = local_now.date()
    rules_hold = (
        today <= day <= _years_after(today, MAX_YEARS_AHEAD)
        and deadline > now
        and wall.date() <= day
    )
    assert (problems == {}) == rules_hold


@settings(max_examples=200, deadline=None)
@given(
    minutes_ahead=st.integers(min_value=1, max_value=MAX_YEARS_AHEAD * 360 * 24 * 60),
    days_after_deadline=st.integers(min_value=0, max_value=60),
    zone=st.sampled_from(ZONES),
)
def test_a_future_deadline_on_or_before_the_event_day_is_always_accepted(
    minutes_ahead, days_after_deadline, zone
):
    deadline = NOW + dt.timedelta(minutes=minutes_ahead)
    day = deadline.astimezone(zoneinfo.ZoneInfo(zone)).date() + dt.timedelta(
        days=days_after_deadline
    )
    if day > _years_after(NOW.astimezone(zoneinfo.ZoneInfo(zone)).date(), MAX_YEARS_AHEAD):
        return

    assert event_dates_problems(date=day, decklist_deadline=deadline, time_zone=zone, now=NOW) == {}


# -- creating -------------------------------------------------------------------------------------


def test_only_organisers_create_events_before_anything_is_judged(other_player):
    with pytest.raises(OrganiserRequiredError):
        create(other_player, date=dt.date(1, 1, 1))


def test_an_event_format_must_belong_to_the_event_game(organiser):
    with pytest.raises(EventError, match="another game"):
        create(organiser, game="rival-realms")


# -- changing -------------------------------------------------------------------------------------


def test_before_anyone_registers_everything_may_change(event, organiser):
    rival = Format.objects.filter(game__slug="rival-realms").first()

    assert event_changeable_fields(event, now=NOW) == {
        "name",
        "game",
        "format",
        "variant",
        "date",
        "decklist_deadline",
        "time_zone",
    }
    changed = event_update(
        event=event,
        actor=organiser,
        name="Realms Open",
        format=rival,
        date=dt.date(2026, 11, 7),
        decklist_deadline=dt.datetime(2026, 11, 6, 20, 0),
        time_zone=PARIS,
        now=NOW,
    )

    changed.refresh_from_db()
    assert (changed.name, changed.game.slug, changed.format) == (
        "Realms Open",
        "rival-realms",
        rival,
    )
    assert changed.decklist_deadline == dt.datetime(2026, 11, 6, 19, 0, tzinfo=UTC)


def test_once_someone_registered_the_format_and_variant_are_fixed(event, organiser, other_player):
    register(event, other_player)
    rival = Format.objects.filter(game__slug="rival-realms").first()

    assert event_changeable_fields(event, now=BEFORE) == {
        "name",
        "date",
        "decklist_deadline",
        "time_zone",
    }
    with pytest.raises(EventConflictError) as refused:
        event_update(event=event, actor=organiser, format=rival, now=BEFORE)
    with pytest.raises(EventConflictError, match="variant can no longer change"):
        event_update(event=event, actor=organiser, variant="x", now=BEFORE)

    assert set(refused.value.fields) == {"format"}
    assert "1 player has registered" in refused.value.fields["format"]
    event.refresh_from_db()
    assert event.format == standard()


def test_sending_the_current_values_is_no_change(event, organiser, other_player):
    register(event, other_player)

    same = event_update(
        event=event,
        actor=organiser,
        format=standard(),
        variant="",
        date=event.date,
        decklist_deadline=event.decklist_deadline,
        now=AFTER,
    )

    assert same.format == standard()


def test_moving_the_date_judges_the_registered_lists_again(event, organiser, other_player):
    registration = register(event, other_player)
    card = Card.objects.get(game__slug=RNR, name=registration.entries[-1]["name"])
    FormatCardEntry.objects.create(
        format=standard(), card=card, status="banned", effective_from=dt.date(2026, 10, 10)
    )

    event_update(
        event=event,
        actor=organiser,
        date=dt.date(2026, 10, 12),
        decklist_deadline=dt.datetime(2026, 10, 11, 18, 0, tzinfo=UTC),
        now=BEFORE,
    )

    registration.refresh_from_db()
    assert not registration.legal
    assert registration.verdict["as_of"] == "2026-10-12"
    assert [v["code"] for v in registration.verdict["violations"]] == ["banned"]
    assert card.name in registration.verdict["violations"][0]["cards"]


def test_a_locked_event_only_changes_its_name(event, organiser, other_player):
    register(event, other_player)

    assert event_changeable_fields(event, now=AFTER) == {"name"}
    with pytest.raises(EventConflictError, match="locked"):
        event_update(
            event=event,
            actor=organiser,
            decklist_deadline=dt.datetime(2026, 10, 2, 23, 0, tzinfo=UTC),
            now=AFTER,
        )
    renamed = event_update(event=event, actor=organiser, name="Liberty Open 2026", now=AFTER)

    assert renamed.name == "Liberty Open 2026"


def test_a_moved_deadline_must_still_be_in_the_future(event, organiser):
    with pytest.raises(EventError) as refused:
        event_update(
            event=event,
            actor=organiser,
            decklist_deadline=dt.datetime(2026, 9, 1, 11, 0, tzinfo=UTC),
            now=NOW,
        )

    assert "in the past" in refused.value.fields["decklist_deadline"]


def test_a_new_time_zone_alone_keeps_the_deadline_moment(event, organiser):
    moved = event_update(event=event, actor=organiser, time_zone="Asia/Tokyo", now=NOW)

    assert moved.decklist_deadline == dt.datetime(2026, 10, 2, 18, 0, tzinfo=UTC)
    assert moved.time_zone == "Asia/Tokyo"


def test_a_new_time_zone_can_push_the_deadline_past_the_event_day(event, organiser):
    # 23:00 UTC on the event day (3 October) is fine for a UTC event, but in Tokyo it is already
    # 08:00 on 4 October: the deadline would fall after the event.
    late = event_update(
        event=event,
        actor=organiser,
        decklist_deadline=dt.datetime(2026, 10, 3, 23, 0, tzinfo=UTC),
        now=NOW,
    )

    with pytest.raises(EventError) as refused:
        event_update(event=late, actor=organiser, time_zone="Asia/Tokyo", now=NOW)

    assert "after the event" in refused.value.fields["decklist_deadline"]


def test_only_the_events_organiser_changes_it(event, other_player, django_user_model):
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")
    organiser_grant(user=other_player)

    for someone in (other_player, root):
        with pytest.raises(EventPermissionError, match="Only the event's organiser"):
            event_update(event=event, actor=someone, name="Taken", now=NOW)

    event.refresh_from_db()
    assert event.name == "Liberty Open"


# -- deleting -------------------------------------------------------------------------------------


def test_the_organiser_deletes_an_open_event_with_its_registrations(event, organiser, other_player):
    register(event, other_player)

    assert event_delete(event=event, actor=organiser, now=BEFORE) == 1

    assert not Event.objects.exists()
    assert not Registration.objects.exists()


def test_a_locked_event_with_registrations_is_the_tournaments_record(
    event, organiser, other_player
):
    register(event, other_player)

    assert "record of the tournament" in event_deletion_refusal(event, now=AFTER)
    with pytest.raises(EventConflictError):
        event_delete(event=event, actor=organiser, now=AFTER)

    assert Event.objects.filter(pk=event.pk).exists()


def test_a_locked_event_nobody_registered_for_may_go(event, organiser):
    assert event_delete(event=event, actor=organiser, now=AFTER) == 0
    assert not Event.objects.exists()


def test_only_the_events_organiser_deletes_it(event, other_player):
    with pytest.raises(EventPermissionError):
        event_delete(event=event, actor=other_player, now=NOW)

    assert Event.objects.filter(pk=event.pk).exists()


# -- who reads the submitted lists ----------------------------------------------------------------


def test_only_the_organiser_reads_the_submitted_lists(
    event, organiser, other_player, django_user_model
):
    register(event, other_player)
    root = django_user_model.objects.create_superuser("root", "root@example.com", "pw-root-1")

    rows = list(registrations_visible_to(event, organiser))

    assert [(r.player, r.decklist) for r in rows] == [
        (other_player, read_sample(RNR, "legal-bison-pressure"))
    ]
    for someone in (other_player, root):
        with pytest.raises(EventPermissionError):
            registrations_visible_to(event, someone)


# -- closing the registrations now (issue 34, item 6) --------------------------------------------


def test_closing_the_registrations_now_locks_the_event_from_that_moment(event, organiser):
    from decks.events.services import event_close_registrations

    # given an open event with a registration
    register(event, organiser, now=BEFORE)
    # when its organiser closes the registrations before the deadline
    closed = event_close_registrations(event=event, actor=organiser, now=BEFORE)
    # then the deadline is that moment and nothing can be submitted, replaced or withdrawn
    assert closed.decklist_deadline == BEFORE
    later = BEFORE + dt.timedelta(seconds=1)
    assert event_is_locked(closed, now=later)
    with pytest.raises(RegistrationLockedError):
        register(closed, organiser, sample="legal-eagle-control", now=later)
    with pytest.raises(RegistrationLockedError):
        registration_withdraw(registration=registration_of(closed, organiser), now=later)


def test_only_the_organiser_closes_the_registrations_and_only_once(event, organiser, other_player):
    from decks.events.services import event_close_registrations

    with pytest.raises(EventPermissionError):
        event_close_registrations(event=event, actor=other_player, now=BEFORE)
    assert not event_is_locked(Event.objects.get(pk=event.pk), now=BEFORE)
    event_close_registrations(event=event, actor=organiser, now=BEFORE)
    with pytest.raises(EventConflictError, match="already closed"):
        event_close_registrations(event=event, actor=organiser, now=AFTER)
    assert Event.objects.get(pk=event.pk).decklist_deadline == BEFORE
