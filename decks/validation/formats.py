"""Format checks shared by every game: banned, restricted and not-in-format, as of a date.

A ``FormatRules`` snapshot holds what a format says on one date (legal set codes, banned card
ids, restricted card ids with their limits). Snapshots are cached per (format, date) and dropped
when a format row changes, here at once and in other processes within a second.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from typing import TYPE_CHECKING

from cards.caching import GenerationMemo
from decks.validation.format_check import FormatRules, check_format

if TYPE_CHECKING:
    from decks.models import Format

__all__ = [
    "FormatRules",
    "check_format",
    "format_id_for",
    "format_rules",
    "format_rules_invalidate",
    "format_rules_on_forget",
    "game_formats",
]

GENERATION_KEY = "deckwright:format-rules-generation"


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


def format_rules(format_id: int, as_of: dt.date, *, recheck: bool = False) -> FormatRules:
    """The cached snapshot of a format on a date (``recheck``: as for ``card_index``)."""
    return _snapshots.get((format_id, as_of), recheck=recheck)


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


def format_id_for(game_slug: str, format_slug: str, *, recheck: bool = False) -> int | None:
    """The id of a game's format by slug (cached like the snapshots), or None if it has none."""
    return _format_ids.get((game_slug, format_slug), recheck=recheck)


def _game_formats(game_id: int) -> tuple[Format, ...]:
    from decks.models import Format

    return tuple(Format.objects.filter(game_id=game_id).order_by("-is_default", "name"))


_formats_by_game: GenerationMemo[int, tuple[Format, ...]] = GenerationMemo(
    GENERATION_KEY, _game_formats
)


def game_formats(game_id: int) -> tuple[Format, ...]:
    """A game's formats, the default first, then by name (cached like the snapshots; shared
    rows: read them, never change them)."""
    return _formats_by_game.get(game_id)


def format_rules_invalidate() -> None:
    """Forget every cached format snapshot (a format, its sets or its card lists changed)."""
    _format_ids.forget_local()
    _snapshots.invalidate()


def format_rules_forget_local() -> None:
    _snapshots.forget_local()
    _format_ids.forget_local()


def format_rules_on_forget(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever this process drops its snapshots (what it derived from them)."""
    _snapshots.on_forget(callback)
    _format_ids.on_forget(callback)
