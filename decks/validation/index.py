"""A per-game card index for validation: built once from the database, cached, invalidated on change.

Validation runs thousands of times per second (tournament checks, the benchmark, the deck editor), so
it never touches the database per deck: it reads plain ``CardInfo`` records from a ``CardIndex``.
The index of a game is rebuilt when a card, set or vocabulary entry of that game changes in this
process (signals), and within ``cards.caching.RECHECK_SECONDS`` when another process changed it
(a ``GenerationMemo``).
"""

from __future__ import annotations

from collections.abc import Callable

from cards.caching import GenerationMemo
from cards.schema import PRINTED_NUMBERS
from decks.validation.records import (
    SUGGESTION_CUTOFF,
    SUGGESTION_LIMIT,
    CardIndex,
    CardInfo,
    cached_name_key,
)

__all__ = [
    "SUGGESTION_CUTOFF",
    "SUGGESTION_LIMIT",
    "CardIndex",
    "CardInfo",
    "cached_name_key",
    "card_index",
    "card_index_forget_local",
    "card_index_invalidate",
    "card_index_on_forget",
]

GENERATION_KEY = "deckwright:card-index-generation"


def _build(game_slug: str) -> CardIndex:
    from cards.models import Card, CardType, Game

    game = Game.objects.filter(slug=game_slug).first()
    if game is None:
        return CardIndex(game_slug, None, game_slug, [], {}, {})
    subtypes: dict[int, set[str]] = {}
    for card_id, slug in Card.subtypes.through.objects.filter(card__game=game).values_list(
        "card_id", "subtype__slug"
    ):
        subtypes.setdefault(card_id, set()).add(slug)
    types = list(CardType.objects.filter(game=game).order_by("sort_order", "name"))
    type_names = {t.slug: t.name for t in types}
    cards = [
        CardInfo(
            id=row.pk,
            name=row.name,
            key=row.name_key,
            type=row.card_type.slug,
            type_name=row.card_type.name,
            subtypes=frozenset(subtypes.get(row.pk, ())),
            branch=row.branch.slug if row.branch is not None else None,
            rarity=row.rarity.slug if row.rarity is not None else None,
            set_code=row.card_set.code,
            set_release=row.card_set.release_date,
            copies_in_set=row.copies_in_set,
            stats=row.stats or {},
            **{column: getattr(row, column) for column in PRINTED_NUMBERS},
        )
        for row in Card.objects.filter(game=game)
        .select_related("card_type", "branch", "rarity", "card_set")
        .order_by("name")
    ]
    return CardIndex(
        game_slug,
        game.pk,
        game.name,
        cards,
        type_names,
        {t.slug: position for position, t in enumerate(types)},
    )


_indexes: GenerationMemo[str, CardIndex] = GenerationMemo(GENERATION_KEY, _build)


def card_index(game_slug: str, *, recheck: bool = False) -> CardIndex:
    """The cached index of a game's cards, rebuilt when stale (``recheck``: look now whether
    another process changed the cards, however recently this process looked)."""
    return _indexes.get(game_slug, recheck=recheck)


def card_index_on_forget(callback: Callable[[], None]) -> None:
    """Call ``callback`` whenever this process drops its indexes (what it derived from them)."""
    _indexes.on_forget(callback)


def card_index_invalidate() -> None:
    """Forget every cached index, in this process at once and in the others within a second.

    Card data changes rarely (a load, an admin edit), so any change rebuilds every game's index.
    """
    _indexes.invalidate()


def card_index_forget_local() -> None:
    """Drop this process's cached indexes only (tests roll back writes without signals)."""
    _indexes.forget_local()
