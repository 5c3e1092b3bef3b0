"""Reads for decks, formats and the organiser role (events: ``decks.events.selectors``)."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, AnonymousUser, Permission
from django.db.models import IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone

from cards.models import Game
from decks.decklist import DecklistEntry, decklist_export
from decks.models import Deck, DeckVersion, Format, FormatCardEntry, Visibility
from decks.validation import ValidationReport, validate


def _with_card_count(decks: QuerySet[Deck]) -> QuerySet[Deck]:
    total = Coalesce(Sum("cards__quantity"), Value(0), output_field=IntegerField())
    return decks.select_related("game", "format", "owner").annotate(card_count=total)


def deck_readable_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Deck]:
    """Decks ``user`` may read: public and unlisted ones, and all of their own.

    Private decks of others are simply absent, so looking one up is a 404, not a 403. Each deck
    carries ``card_count``.
    """
    condition = ~Q(visibility=Visibility.PRIVATE)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return _with_card_count(Deck.objects.filter(condition))


def deck_list_for_viewer(
    user: AbstractBaseUser | AnonymousUser, *, game_slug: str | None = None, mine: bool = False
) -> QuerySet[Deck]:
    """The decks a list shows ``user``: public ones and their own (others' unlisted ones stay
    reachable by link only), newest change first."""
    decks = deck_readable_by(user).exclude(
        Q(visibility=Visibility.UNLISTED) & ~Q(owner_id=user.pk or 0)
    )
    if game_slug:
        decks = decks.filter(game__slug=game_slug)
    if mine:
        decks = decks.filter(owner_id=user.pk or 0)
    return decks.order_by("-updated_at", "pk")


def deck_list_public(*, game: Game | None = None) -> QuerySet[Deck]:
    """Public decks (never unlisted or private ones), newest change first, with card counts."""
    decks = Deck.objects.filter(visibility=Visibility.PUBLIC)
    if game is not None:
        decks = decks.filter(game=game)
    return _with_card_count(decks).order_by("-updated_at", "pk")


def deck_list_owned(user: AbstractBaseUser) -> QuerySet[Deck]:
    """A user's own decks, newest change first, with card counts."""
    return _with_card_count(Deck.objects.filter(owner=user)).order_by("-updated_at", "pk")


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


# -- the organiser role ---------------------------------------------------------------------------

ORGANISERS_GROUP = "Organisers"  # created by migration decks 0002, with the permission below
ORGANISER_PERMISSION = ("decks", "add_event")


def user_is_organiser(user: AbstractBaseUser | AnonymousUser) -> bool:
    """Whether ``user`` may create events: an active member of the Organisers group, anyone given
    ``decks.add_event`` directly (e.g. in the admin), or a superuser."""
    app_label, codename = ORGANISER_PERMISSION
    return bool(user.is_authenticated and user.has_perm(f"{app_label}.{codename}"))


def organiser_list() -> QuerySet[Any]:
    """Every active user who is an organiser (by group, direct permission or superuser status)."""
    app_label, codename = ORGANISER_PERMISSION
    permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    holds = Q(groups__permissions__in=permission) | Q(user_permissions__in=permission)
    user_model = get_user_model()
    users = user_model.objects.filter(holds | Q(is_superuser=True), is_active=True)
    return users.distinct().order_by(user_model.USERNAME_FIELD)


def format_check(
    fmt: Format,
    decks: list[tuple[str, list[Any] | None, list[str]]],
    *,
    as_of: dt.date | None = None,
) -> dict[str, Any]:
    """Judge many decks against one format on one day: a verdict per deck and a summary.

    ``decks`` holds ``(name, entries, errors)``; a deck whose list could not be read has no
    entries and its reading errors, and counts as unreadable rather than illegal.
    """
    day = as_of or timezone.localdate()
    results, codes = [], Counter()
    for index, (name, entries, errors) in enumerate(decks):
        result: dict[str, Any] = {"index": index, "name": name, "errors": errors, "report": None}
        if entries is None:
            result.update(legal=False, codes=[])
        else:
            report = validate(fmt.game.slug, entries, format=fmt.pk, as_of=day).to_dict()
            deck_codes = sorted({violation["code"] for violation in report["violations"]})
            codes.update(deck_codes)
            result.update(legal=report["legal"], codes=deck_codes, report=report)
        results.append(result)
    legal = sum(1 for result in results if result["legal"])
    unreadable = sum(1 for result in results if result["errors"])
    return {
        "format": fmt.slug,
        "game": fmt.game.slug,
        "as_of": day.isoformat(),
        "results": results,
        "summary": {
            "decks": len(results),
            "legal": legal,
            "illegal": len(results) - legal - unreadable,
            "unreadable": unreadable,
            "by_code": dict(sorted(codes.items())),
        },
    }
