"""Writes for events and registrations. Each service checks first (who asks, the event's state,
the dates) and only then writes, inside one transaction holding the event's row.

Dates: an event happens on ``date`` in its ``time_zone``; its ``decklist_deadline`` is stored in
UTC. ``event_dates_problems`` is the one place the date rules live (see its docstring).
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from functools import cache
from typing import Any

from django.contrib.auth.models import User
from django.db import transaction
from django.utils import timezone

from cards.models import Game
from common.inputs import name_problem
from decks.decklist import (
    DecklistEntry,
    DecklistParseError,
    ParseProblem,
    decklist_entries,
    decklist_read,
    decklist_settings,
)
from decks.events.errors import (
    EventConflictError,
    EventError,
    OrganiserRequiredError,
    RegistrationLockedError,
)
from decks.events.selectors import (
    event_change_refusal,
    event_changeable_fields,
    event_check_organiser,
    event_deletion_refusal,
    event_is_locked,
)
from decks.models import Event, Format, Registration
from decks.selectors import user_is_organiser
from decks.services import deck_hash, format_and_variant_problems
from decks.validation import ValidationReport, validate

MAX_YEARS_AHEAD = 10
DEFAULT_TIME_ZONE = "UTC"


# -- dates and time zones -------------------------------------------------------------------------


#: names a system's zoneinfo directory holds that are no IANA zone: ``localtime`` is the host's
#: own setting (an event's deadline would move with the server's configuration)
NOT_ZONES = frozenset({"localtime", "posixrules", "posix", "right"})


@cache
def time_zone_names() -> tuple[str, ...]:
    """Every IANA time zone name this machine knows (the tzdata package's and the system's),
    sorted, less the system files that name no zone (``NOT_ZONES``)."""
    return tuple(sorted(zoneinfo.available_timezones() - NOT_ZONES))


def _zone(name: str) -> zoneinfo.ZoneInfo | None:
    # Only listed names: ZoneInfo would also read a file path such as "../../etc/passwd".
    return zoneinfo.ZoneInfo(name) if name in time_zone_names() else None


def _years_after(day: dt.date, years: int) -> dt.date:
    year = day.year + years
    if year > dt.MAXYEAR:
        return dt.date.max
    try:
        return day.replace(year=year)
    except ValueError:  # 29 February in a year that has none
        return day.replace(year=year, day=28)


def _wall_clock(moment: dt.datetime) -> str:
    """``moment`` as a wall-clock date and time, ``YYYY-MM-DD HH:MM`` (the year always in four
    digits: ``%Y`` writes the year 1 as "1" on Linux), whatever its time zone."""
    return moment.replace(tzinfo=None).isoformat(sep=" ", timespec="minutes")


def _shown(moment: dt.datetime, zone: zoneinfo.ZoneInfo) -> str:
    return f"{_wall_clock(moment.astimezone(zone))} {zone.key}"


def event_deadline_utc(value: dt.datetime, time_zone: str) -> dt.datetime:
    """The deadline as an aware UTC datetime. A naive ``value`` is a wall-clock time in
    ``time_zone``; one that does not exist there (clocks go forward) is refused, an ambiguous one
    (clocks go back) is the earlier moment. ``EventError`` names the field at fault."""
    zone = _zone(time_zone)
    if zone is None:
        raise EventError({"time_zone": f"unknown time zone {time_zone!r}"})
    try:
        if timezone.is_naive(value):
            aware = value.replace(tzinfo=zone, fold=0)
            if aware.astimezone(dt.UTC).astimezone(zone).replace(tzinfo=None) != value:
                raise EventError(
                    {
                        "decklist_deadline": f"{_wall_clock(value)} does not exist in "
                        f"{time_zone} (the clocks skip it); choose another time"
                    }
                )
            return aware.astimezone(dt.UTC)
        return value.astimezone(dt.UTC)
    except OverflowError:
        raise EventError({"decklist_deadline": f"the year {value.year} is out of range"}) from None


def event_dates_problems(
    *,
    date: dt.date,
    decklist_deadline: dt.datetime | None,
    time_zone: str,
    now: dt.datetime | None = None,
    creating: bool = True,
    changed: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """What is wrong with an event's dates, by field (empty when nothing is). The rules:

    - the time zone is an IANA name (``Europe/Paris``); the event day and "today" are read in it;
    - the event is at most ``MAX_YEARS_AHEAD`` years ahead (no year 9999);
    - the deadline is at the latest on the event day (the end of that day, in its zone);
    - a new event, or a changed date or deadline, is not in the past: the date is today or later,
      the deadline later than now (no year 1). Unchanged dates of an existing event are not
      judged against the clock, so an old event's name can still be corrected.

    ``decklist_deadline`` None (one that could not be read) judges the date alone.
    """
    zone = _zone(time_zone)
    if zone is None:
        return {"time_zone": f"unknown time zone {time_zone!r} (use an IANA name such as UTC)"}
    now = now or timezone.now()
    today = now.astimezone(zone).date()
    judged = (lambda field: True) if creating else changed.__contains__
    problems: dict[str, str] = {}
    latest = _years_after(today, MAX_YEARS_AHEAD)
    if date > latest:
        problems["date"] = (
            f"the event date {date.isoformat()} is more than {MAX_YEARS_AHEAD} years ahead "
            f"(at the latest {latest.isoformat()})"
        )
    elif judged("date") and date < today:
        problems["date"] = (
            f"the event date {date.isoformat()} has passed (today is {today.isoformat()} "
            f"in {zone.key})"
        )
    if decklist_deadline is None:
        return problems
    try:
        deadline_day = decklist_deadline.astimezone(zone).date()
    except OverflowError:
        problems["decklist_deadline"] = f"the year {decklist_deadline.year} is out of range"
        return problems
    if judged("decklist_deadline") and decklist_deadline <= now:
        problems["decklist_deadline"] = (
            f"the decklist deadline {_shown(decklist_deadline, zone)} is in the past "
            f"(it is now {_shown(now, zone)})"
        )
    elif deadline_day > date:
        problems["decklist_deadline"] = (
            f"the decklist deadline {_shown(decklist_deadline, zone)} is after the event "
            f"({date.isoformat()}); it must be at the latest on the event day"
        )
    return problems


# -- events ---------------------------------------------------------------------------------------


def _name_problems(name: str) -> dict[str, str]:
    problem = name_problem(name, "an event")
    return {"name": problem} if problem is not None else {}


@transaction.atomic
def event_create(
    *,
    game: Game | str,
    format: Format,
    name: str,
    date: dt.date,
    decklist_deadline: dt.datetime,
    organiser: User,
    variant: str = "",
    time_zone: str = DEFAULT_TIME_ZONE,
    now: dt.datetime | None = None,
) -> Event:
    """Create a tournament organised by ``organiser``.

    Only organisers create events (``user_is_organiser``): anyone else gets
    ``OrganiserRequiredError`` before anything else is checked. Then ``EventError`` names every
    field at fault: the format must be the game's, the variant one of its variants, the dates
    sane (``event_dates_problems``). A naive deadline is a wall-clock time in ``time_zone``.
    """
    if not user_is_organiser(organiser):
        raise OrganiserRequiredError
    game = game if isinstance(game, Game) else Game.objects.get(slug=game)
    problems = _name_problems(name)
    problems.update(format_and_variant_problems(game, format, variant))
    deadline = None
    try:
        deadline = event_deadline_utc(decklist_deadline, time_zone)
    except EventError as error:
        problems.update(error.fields)
    problems.update(
        event_dates_problems(date=date, decklist_deadline=deadline, time_zone=time_zone, now=now)
    )
    if problems:
        raise EventError(problems)
    assert deadline is not None  # else its problem was raised
    return Event.objects.create(
        game=game,
        format=format,
        name=name.strip(),
        date=date,
        decklist_deadline=deadline,
        time_zone=time_zone,
        organiser=organiser,
        variant=variant,
    )


def _differs(event: Event, field: str, value: Any) -> bool:
    if field in ("game", "format"):
        return getattr(event, f"{field}_id") != value.pk
    return getattr(event, field) != value


def _event_for_update(event: Event) -> Event:
    """The event's row, locked until the transaction ends: registrations wait for the change."""
    return (
        Event.objects.select_for_update(of=("self",))
        .select_related("game", "format")
        .get(pk=event.pk)
    )


@transaction.atomic
def event_update(
    *,
    event: Event,
    actor: User,
    name: str | None = None,
    format: Format | None = None,
    variant: str | None = None,
    date: dt.date | None = None,
    decklist_deadline: dt.datetime | None = None,
    time_zone: str | None = None,
    now: dt.datetime | None = None,
) -> Event:
    """Change an event; ``None`` leaves a field as it is. Its organiser only
    (``EventPermissionError``).

    What may change depends on the event's state (``event_changeable_fields``): everything until
    someone registers; then not the game, format or variant; once locked only the name. Asking
    for more is an ``EventConflictError``; a value equal to the current one is no change. A new
    format may be another game's (the event's game follows it). A naive deadline is wall-clock
    time in the (new) time zone; a new time zone alone keeps the deadline's moment. A moved date
    judges every registered list again on the new date.
    """
    now = now or timezone.now()
    current = _event_for_update(event)
    event_check_organiser(current, actor, "changes the event")
    zone_name = time_zone if time_zone is not None else current.time_zone
    wanted: dict[str, Any] = {}
    problems: dict[str, str] = {}
    if name is not None:
        wanted["name"] = name.strip()
        problems.update(_name_problems(name))
    if format is not None:
        wanted["format"] = format
        wanted["game"] = format.game
    if variant is not None:
        wanted["variant"] = variant
    if date is not None:
        wanted["date"] = date
    if time_zone is not None:
        wanted["time_zone"] = time_zone
    if decklist_deadline is not None:
        try:
            wanted["decklist_deadline"] = event_deadline_utc(decklist_deadline, zone_name)
        except EventError as error:
            problems.update(error.fields)
    changes = {field: value for field, value in wanted.items() if _differs(current, field, value)}
    allowed = event_changeable_fields(current, now=now)
    refused = {f: event_change_refusal(current, f, now=now) for f in changes if f not in allowed}
    if refused:
        # "game" follows "format": name the field the organiser actually sent.
        if "game" in refused and "format" in refused:
            del refused["game"]
        raise EventConflictError(refused)
    merged = {
        field: changes.get(field, getattr(current, field))
        for field in ("game", "format", "variant", "date", "decklist_deadline", "time_zone")
    }
    if {"game", "format", "variant"} & changes.keys():
        problems.update(
            format_and_variant_problems(merged["game"], merged["format"], merged["variant"])
        )
    if "time_zone" not in problems:
        problems.update(
            event_dates_problems(
                date=merged["date"],
                decklist_deadline=None
                if "decklist_deadline" in problems
                else merged["decklist_deadline"],
                time_zone=merged["time_zone"],
                now=now,
                creating=False,
                changed=frozenset(changes),
            )
        )
    if problems:
        raise EventError(problems)
    if not changes:
        return current
    for field, value in changes.items():
        setattr(current, field, value)
    current.save(update_fields=list(changes))
    if "date" in changes:
        for registration in current.registrations.all():
            _judge(current, registration, _stored_entries(registration))
            registration.save(update_fields=["legal", "verdict"])
    return current


@transaction.atomic
def event_close_registrations(
    *, event: Event, actor: User, now: dt.datetime | None = None
) -> Event:
    """Close the registrations now: the decklist deadline becomes this moment, so the event is
    locked from then on (no list submitted, replaced or withdrawn), its lists final. Its
    organiser only (``EventPermissionError``); an event already locked is an
    ``EventConflictError``, changing nothing."""
    now = now or timezone.now()
    current = _event_for_update(event)
    event_check_organiser(current, actor, "closes the registrations")
    if event_is_locked(current, now=now):
        raise EventConflictError(
            {"decklist_deadline": "the registrations are already closed (the deadline has passed)"}
        )
    current.decklist_deadline = now
    current.save(update_fields=["decklist_deadline"])
    return current


@transaction.atomic
def event_delete(*, event: Event, actor: User, now: dt.datetime | None = None) -> int:
    """Delete an event and its registrations; returns how many registrations went with it.

    Its organiser only (``EventPermissionError``), and not once it is locked with registrations
    (``EventConflictError``, ``event_deletion_refusal``); an administrator can still delete it
    in the admin.
    """
    current = _event_for_update(event)
    event_check_organiser(current, actor, "deletes the event")
    refusal = event_deletion_refusal(current, now=now)
    if refusal:
        raise EventConflictError({"event": refusal})
    count = current.registrations.count()
    current.delete()
    return count


# -- registrations --------------------------------------------------------------------------------


def _stored_entries(registration: Registration) -> list[DecklistEntry]:
    return [
        DecklistEntry(e["name"], e["quantity"], e["zone"], 0, e["zone"])
        for e in registration.entries
    ]


def _judge(
    event: Event, registration: Registration, entries: list[DecklistEntry]
) -> ValidationReport:
    """Judge a list in the event's game, format and variant on the event's date (the one place
    registrations are validated); store the verdict on ``registration`` (unsaved)."""
    report = validate(
        event.game.slug,
        entries,
        format=event.format_id,
        as_of=event.date,
        variant=event.variant or None,
    )
    registration.legal = report.legal
    registration.verdict = report.to_dict()
    return report


EMPTY_REGISTRATION = (
    "the decklist has no cards (only blank lines or comments): a registration needs a deck"
)


@transaction.atomic
def registration_submit(
    *,
    event: Event,
    player: User,
    decklist: str,
    kind: str = "text",
    now: dt.datetime | None = None,
) -> Registration:
    """Submit (or resubmit before the deadline) a decklist for an event; judge it on the event date.

    After the deadline the registration is locked: ``RegistrationLockedError``. An unreadable
    decklist raises ``DecklistParseError``, and so does one that says it is for another game
    or holds not a single card (empty, or only comments and blank lines): the previous
    registration, if any, stays as it was. A
    readable but illegal one (unknown cards included) is stored with its verdict: ``legal`` and
    the violations, which the player is shown.
    """
    now = now or timezone.now()
    event = _event_for_update(event)
    if event_is_locked(event, now=now):
        raise RegistrationLockedError(
            [f"the decklist deadline ({event.decklist_deadline.isoformat()}) has passed"]
        )
    parsed = decklist_read(decklist, kind)  # type: ignore[arg-type]
    # A list that says it is for another game is refused before anything else, as everywhere
    # (the event's own format and day judge it, whatever else the list says of itself).
    decklist_settings(parsed, event.game.slug)
    if not parsed.entries:
        raise DecklistParseError([ParseProblem(0, EMPTY_REGISTRATION)])
    entries = decklist_entries(event.game.slug, parsed)
    registration = Registration.objects.filter(event=event, player=player).first()
    registration = registration or Registration(event=event, player=player)
    _judge(event, registration, entries)
    registration.decklist = decklist
    registration.entries = [
        {"name": e.name, "zone": e.zone, "quantity": e.quantity} for e in entries
    ]
    registration.deck_hash = deck_hash(entries)
    registration.submitted_at = now
    registration.save()
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration, now: dt.datetime | None = None) -> None:
    """Withdraw a registration; refused after the deadline, when the list is locked."""
    event = _event_for_update(registration.event)
    if event_is_locked(event, now=now):
        raise RegistrationLockedError(["the decklist deadline has passed; the list is locked"])
    registration.delete()


__all__ = [
    "MAX_YEARS_AHEAD",
    "event_close_registrations",
    "event_create",
    "event_dates_problems",
    "event_deadline_utc",
    "event_delete",
    "event_update",
    "registration_submit",
    "registration_withdraw",
    "time_zone_names",
]
