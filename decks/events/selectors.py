"""Reads about events, and the rules they answer: when an event locks, who sees its submitted
decklists, and what its organiser may still change or delete.

Web pages, the API and the admin call these instead of comparing deadlines or organiser ids
themselves, so each rule is written once.
"""

from __future__ import annotations

import datetime as dt
import zoneinfo
from collections.abc import Iterable
from typing import Any

from django.contrib.auth.models import AnonymousUser, User
from django.db.models import Count, QuerySet
from django.utils import timezone

from decks.decklist import DecklistParseError, decklist_read
from decks.events.errors import EventPermissionError
from decks.models import Event, Registration

# What an organiser may change, by the event's state (see ``event_changeable_fields``).
EVENT_FIELDS = frozenset(
    {"name", "game", "format", "variant", "date", "decklist_deadline", "time_zone"}
)
# Players registered for this game, format and variant, and their lists were judged in it.
FIXED_ONCE_REGISTERED = frozenset({"game", "format", "variant"})
# A locked event is the record of the tournament: its lists and dates no longer move.
CHANGEABLE_WHEN_LOCKED = frozenset({"name"})


def event_is_locked(event: Event, *, now: dt.datetime | None = None) -> bool:
    """The lock: once the decklist deadline has passed, no list may be submitted, replaced or
    withdrawn. The deadline itself still counts as open."""
    return (now or timezone.now()) > event.decklist_deadline


def event_list() -> QuerySet[Event]:
    """Every event, the newest date first, with ``registration_count`` and its relations."""
    return (
        Event.objects.select_related("game", "format", "organiser")
        .defer("game__card_schema")
        .annotate(registration_count=Count("registrations"))
        .order_by("-date", "name", "pk")
    )


def event_is_organised_by(event: Event, user: User | AnonymousUser) -> bool:
    """Whether ``user`` is the event's own organiser: the one person who changes or deletes it
    and reads its submitted decklists. Not a superuser who is not (they use the admin), and still
    true after the organiser role was revoked (the event stays theirs)."""
    return bool(user.is_authenticated and event.organiser_id == user.pk)


def event_check_organiser(event: Event, user: User | AnonymousUser, doing: str) -> None:
    """Raise ``EventPermissionError`` unless ``user`` organises the event; ``doing`` completes
    "Only the event's organiser ..."."""
    if not event_is_organised_by(event, user):
        raise EventPermissionError(f"Only the event's organiser {doing}.")


def event_registration_count(event: Event) -> int:
    """How many registrations the event has: the ``registration_count`` of ``event_list`` when
    the event came from it, else counted."""
    counted = getattr(event, "registration_count", None)
    return counted if counted is not None else event.registrations.count()


def event_changeable_fields(event: Event, *, now: dt.datetime | None = None) -> frozenset[str]:
    """What the organiser may still change: everything until someone registers; then neither the
    game, format nor variant (the lists were judged in them), though a moved date re-judges
    them; once locked, only the name."""
    if event_is_locked(event, now=now):
        return CHANGEABLE_WHEN_LOCKED
    if event_registration_count(event):
        return EVENT_FIELDS - FIXED_ONCE_REGISTERED
    return EVENT_FIELDS


def event_change_refusal(event: Event, field: str, *, now: dt.datetime | None = None) -> str:
    """Why ``field`` may not change now (for a field outside ``event_changeable_fields``)."""
    if event_is_locked(event, now=now):
        return "the event is locked (its decklist deadline has passed): only its name may change"
    count = event_registration_count(event)
    players = "1 player has" if count == 1 else f"{count} players have"
    return (
        f"{players} registered in this game, format and variant, so the {field.replace('_', ' ')} "
        "can no longer change (create a new event instead)"
    )


def event_deletion_refusal(event: Event, *, now: dt.datetime | None = None) -> str | None:
    """Why the organiser may not delete the event, or None if they may: a locked event with
    registrations is the record of a tournament (an administrator can still delete it)."""
    if event_is_locked(event, now=now) and event_registration_count(event):
        return (
            "the event is locked and holds its players' submitted decklists, the record of the "
            "tournament: it can no longer be deleted (ask an administrator)"
        )
    return None


def registrations_visible_to(event: Event, user: User | AnonymousUser) -> QuerySet[Registration]:
    """Every registration of the event, with the submitted decklists: for its organiser only
    (``EventPermissionError`` for anyone else), first submitted first."""
    event_check_organiser(event, user, "sees every registration")
    return event.registrations.select_related("event", "player").order_by("submitted_at", "pk")


def registration_of(event: Event, user: User | AnonymousUser) -> Registration | None:
    """The user's own registration for the event, if any."""
    if not user.is_authenticated:
        return None
    return (
        Registration.objects.select_related("event", "player")
        .filter(event=event, player=user)
        .first()
    )


#: the columns of an event's registrations as CSV (``registrations_csv_write``)
REGISTRATION_COLUMNS = (
    "deck",
    "player",
    "verdict",
    "problems",
    "cards",
    "deck_hash",
    "submitted_at",
)


def registration_deck_name(registration: Registration) -> str:
    """The deck's name as its submitted list gives it (a ``# name:`` line), else ""."""
    try:
        return decklist_read(registration.decklist).metadata.get("name", "").strip()
    except DecklistParseError:
        return ""


def registration_csv_rows(
    event: Event, registrations: Iterable[Registration]
) -> list[tuple[Any, ...]]:
    """One row per registration, in ``REGISTRATION_COLUMNS`` order: the deck's name, the
    player, legal or illegal, the violation codes, the card count, the deck hash and when the
    list was submitted (ISO 8601 in the event's time zone)."""
    zone = zoneinfo.ZoneInfo(event.time_zone) if event.time_zone else dt.UTC
    rows = []
    for registration in registrations:
        verdict = registration.verdict or {}
        codes = [str(v.get("code", "")) for v in verdict.get("violations", [])]
        rows.append(
            (
                registration_deck_name(registration),
                registration.player.get_username(),
                "legal" if registration.legal else "illegal",
                " ".join(codes),
                verdict.get("card_count", ""),
                registration.deck_hash,
                registration.submitted_at.astimezone(zone).isoformat(timespec="seconds"),
            )
        )
    return rows
