"""Format checks shared by every game: banned, restricted and not-in-format, as of a date.

A ``FormatRules`` snapshot holds what a format says on one date (legal set codes, banned card
ids, restricted card ids with their limits). Snapshots are cached per (format, date) and dropped
when a format row changes, here at once and in other processes within a second.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from cards.caching import GenerationMemo
from decks.validation.index import CardInfo
from decks.validation.report import ValidationReport

GENERATION_KEY = "deckwright:format-rules-generation"


@dataclass(slots=True)
class FormatRules:
    """What one format allows on one date."""

    format_id: int
    slug: str
    name: str
    as_of: dt.date
    in_effect: bool
    legal_sets: frozenset[str]
    banned: dict[int, str]
    restricted: dict[int, int]


def _build(format_id: int, as_of: dt.date) -> FormatRules:
    from decks.models import Format, FormatCardEntry, FormatCardStatus, FormatSet

    fmt = Format.objects.get(pk=format_id)
    legal_sets = frozenset(
        FormatSet.objects.filter(format=fmt)
        .in_effect(as_of)
        .filter(card_set__release_date__lte=as_of)
        .values_list("card_set__code", flat=True)
    )
    banned: dict[int, str] = {}
    restricted: dict[int, int] = {}
    for entry in FormatCardEntry.objects.filter(format=fmt).in_effect(as_of):
        if entry.status == FormatCardStatus.BANNED:
            banned[entry.card_id] = entry.reason
        else:
            restricted[entry.card_id] = min(entry.limit, restricted.get(entry.card_id, entry.limit))
    return FormatRules(
        format_id=fmt.pk,
        slug=fmt.slug,
        name=fmt.name,
        as_of=as_of,
        in_effect=fmt.in_effect(as_of),
        legal_sets=legal_sets,
        banned=banned,
        restricted=restricted,
    )


_snapshots: GenerationMemo[tuple[int, dt.date], FormatRules] = GenerationMemo(
    GENERATION_KEY, lambda key: _build(*key), max_entries=1025
)


def format_rules(format_id: int, as_of: dt.date) -> FormatRules:
    """The cached snapshot of a format on a date."""
    return _snapshots.get((format_id, as_of))


def _format_id(key: tuple[str, str]) -> int | None:
    from decks.models import Format

    game_slug, format_slug = key
    return (
        Format.objects.filter(game__slug=game_slug, slug=format_slug)
        .values_list("pk", flat=True)
        .first()
    )


_format_ids: GenerationMemo[tuple[str, str], int | None] = GenerationMemo(
    GENERATION_KEY, _format_id
)


def format_id_for(game_slug: str, format_slug: str) -> int | None:
    """The id of a game's format by slug (cached like the snapshots), or None if it has none."""
    return _format_ids.get((game_slug, format_slug))


def format_rules_invalidate() -> None:
    """Forget every cached format snapshot (a format, its sets or its card lists changed)."""
    _format_ids.forget_local()
    _snapshots.invalidate()


def format_rules_forget_local() -> None:
    _snapshots.forget_local()
    _format_ids.forget_local()


def check_format(rules: FormatRules, totals: dict[CardInfo, int], report: ValidationReport) -> None:
    """Report banned cards, restricted cards over their limit and cards from sets not allowed."""
    day = rules.as_of.isoformat()
    if not rules.in_effect:
        report.warn(
            "format-not-in-effect",
            f"Format: {rules.name} is not in effect on {day}; its lists are applied as they stood",
            "Formats",
        )
    outside: dict[str, list[str]] = {}
    for card, count in totals.items():
        if card.id in rules.banned:
            reason = rules.banned[card.id]
            report.add(
                "banned",
                f"Banned: {card.name} is banned in {rules.name} on {day}"
                + (f" ({reason})" if reason else ""),
                "Formats",
                [card.name],
                format=rules.slug,
            )
        limit = rules.restricted.get(card.id)
        if limit is not None and count > limit:
            report.add(
                "restricted",
                f"Restricted: {count} copies of {card.name}, {rules.name} allows {limit} on {day}",
                "Formats",
                [card.name],
                count=count,
                limit=limit,
                format=rules.slug,
            )
        if card.set_code not in rules.legal_sets:
            outside.setdefault(card.set_code, []).append(card.name)
    for set_code, names in sorted(outside.items()):
        names.sort()
        report.add(
            "not-in-format",
            f"Not in format: {len(names)} card(s) from set {set_code}, which {rules.name} "
            f"does not allow on {day}: {', '.join(names)}",
            "Formats",
            names,
            set=set_code,
            format=rules.slug,
        )
