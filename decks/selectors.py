"""Reads for decks, formats and events."""

from __future__ import annotations

import datetime as dt
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q, QuerySet

from cards.models import Game
from decks.decklist import DecklistEntry, decklist_export
from decks.models import Deck, DeckVersion, Event, Format, FormatCardEntry, Registration, Visibility
from decks.validation import ValidationReport, validate


def deck_list_for_user(user: AbstractBaseUser) -> QuerySet[Deck]:
    """A user's own decks, newest change first."""
    return Deck.objects.filter(owner=user).select_related("game", "format")


def deck_list_visible(user: AbstractBaseUser | None = None) -> QuerySet[Deck]:
    """Public decks, plus every deck of ``user`` (unlisted decks are reachable only by link)."""
    condition = Q(visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        condition |= Q(owner=user)
    return Deck.objects.filter(condition).select_related("game", "format", "owner")


def deck_entries(deck: Deck) -> list[DecklistEntry]:
    """The deck's cards as decklist entries (canonical names, zones), sorted by zone and name."""
    rows = deck.cards.select_related("card").order_by("zone", "card__name")
    return [DecklistEntry(r.card.name, r.quantity, r.zone, 0, r.zone) for r in rows]


def deck_validate(
    deck: Deck, *, format: Format | None = None, as_of: dt.date | None = None
) -> ValidationReport:
    """Validate a deck against its game and its own format (or the one given)."""
    chosen = format or deck.format
    return validate(
        deck.game.slug,
        deck_entries(deck),
        format=chosen.pk if chosen else None,
        as_of=as_of,
        variant=deck.variant or None,
    )


def deck_export(deck: Deck, kind: str = "text") -> str:
    """The deck as a canonical decklist in ``text``, ``json`` or ``csv``."""
    metadata = {"name": deck.name, "format": deck.format.slug if deck.format else ""}
    if deck.variant:
        metadata["variant"] = deck.variant
    return decklist_export(deck.game.slug, deck_entries(deck), metadata, kind)  # type: ignore[arg-type]


def deck_versions(deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.order_by("number")


def _counts(version: DeckVersion) -> dict[tuple[str, str], int]:
    return {(e["name"], e.get("zone", "")): e["quantity"] for e in version.entries}


def deck_version_diff(deck: Deck, older: int, newer: int) -> dict[str, Any]:
    """What changed between two version numbers of a deck: cards added, removed and changed."""
    versions = {v.number: v for v in deck.versions.filter(number__in=(older, newer))}
    missing = [n for n in (older, newer) if n not in versions]
    if missing:
        raise DeckVersion.DoesNotExist(f"{deck.name} has no version {missing[0]}")
    before, after = _counts(versions[older]), _counts(versions[newer])
    added, removed, changed = [], [], []
    for key in sorted(set(before) | set(after)):
        name, zone = key
        was, now = before.get(key, 0), after.get(key, 0)
        row = {"name": name, "zone": zone}
        if was == 0:
            added.append({**row, "quantity": now})
        elif now == 0:
            removed.append({**row, "quantity": was})
        elif was != now:
            changed.append({**row, "from": was, "to": now})
    return {"from": older, "to": newer, "added": added, "removed": removed, "changed": changed}


def format_list_for_game(game: Game | str) -> QuerySet[Format]:
    condition = Q(game=game) if isinstance(game, Game) else Q(game__slug=game)
    return Format.objects.filter(condition).select_related("game")


def format_default(game: Game | str) -> Format | None:
    """The game's default format (``default: true`` in its formats.yaml), if any."""
    return format_list_for_game(game).filter(is_default=True).first()


def format_list_entries_on(fmt: Format, on: dt.date) -> QuerySet[FormatCardEntry]:
    """The banned and restricted entries in force on a date ("was this list legal then?")."""
    return fmt.card_entries.in_effect(on).select_related("card").order_by("status", "card__name")


def event_registrations(event: Event) -> QuerySet[Registration]:
    return event.registrations.select_related("player").order_by("submitted_at")
