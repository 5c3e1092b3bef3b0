"""A per-game card index for validation: built once from the database, cached, invalidated on change.

Validation runs thousands of times per second (tournament checks, the benchmark, the deck editor), so
it never touches the database per deck: it reads plain ``CardInfo`` records from a ``CardIndex``.
The index of a game is rebuilt when a card, set or vocabulary entry of that game changes in this
process (signals), and within ``cards.caching.RECHECK_SECONDS`` when another process changed it
(a ``GenerationMemo``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cards.caching import GenerationMemo
from cards.naming import close_matches, name_key
from cards.schema import PRINTED_NUMBERS

SUGGESTION_LIMIT = 3
SUGGESTION_CUTOFF = 60.0


@lru_cache(maxsize=65536)
def cached_name_key(name: str) -> str:
    """``cards.naming.name_key`` memoised: decklists repeat the same names all day."""
    return name_key(name)


@dataclass(slots=True, eq=False)
class CardInfo:
    """A card as validation and statistics see it: plain values, no database access."""

    id: int
    name: str
    key: str
    type: str
    type_name: str
    subtypes: frozenset[str]
    branch: str | None
    rarity: str | None
    set_code: str
    set_release: dt.date
    copies_in_set: int | None = None
    cost: int | None = None
    attack: int | None = None
    defense: int | None = None
    drain: int | None = None
    generation: int | None = None
    strength: int | None = None
    stats: dict[str, Any] = field(default_factory=dict)
    tag: Any = None
    """What the game's rules module precomputed for this card (``GameRules.prepare``)."""

    def __repr__(self) -> str:
        return f"CardInfo({self.name!r})"


@dataclass(slots=True)
class CardIndex:
    """Every card of one game, by exact name, by matching key and by id."""

    game: str
    game_id: int | None
    game_name: str
    cards: list[CardInfo]
    type_names: dict[str, str]
    type_order: dict[str, int]
    by_name: dict[str, CardInfo] = field(init=False)
    by_key: dict[str, CardInfo] = field(init=False)
    by_id: dict[int, CardInfo] = field(init=False)
    keys: list[str] = field(init=False)
    prepared: dict[str, Any] = field(init=False)
    """Per-game lookup tables a rules module derives once from this index (``GameRules.table``)."""

    def __post_init__(self) -> None:
        self.prepared = {}
        self.by_name = {card.name: card for card in self.cards}
        self.by_key = {card.key: card for card in self.cards}
        self.by_id = {card.id: card for card in self.cards}
        self.keys = [card.key for card in self.cards]

    def lookup(self, name: str) -> CardInfo | None:
        """The card a decklist name means (exact name first, then case/punctuation-insensitive)."""
        card = self.by_name.get(name)
        if card is None:
            card = self.by_key.get(cached_name_key(name))
        return card

    def suggest(self, name: str, limit: int = SUGGESTION_LIMIT) -> list[str]:
        """The closest real card names to a name that matched nothing, best first."""
        matches = close_matches(
            cached_name_key(name), self.keys, limit=limit, cutoff=SUGGESTION_CUTOFF
        )
        return [self.cards[position].name for position in matches]


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
            branch=row.branch.slug if row.branch_id else None,
            rarity=row.rarity.slug if row.rarity_id else None,
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


def card_index(game_slug: str) -> CardIndex:
    """The cached index of a game's cards, rebuilt when stale."""
    return _indexes.get(game_slug)


def card_index_invalidate() -> None:
    """Forget every cached index, in this process at once and in the others within a second.

    Card data changes rarely (a load, an admin edit), so any change rebuilds every game's index.
    """
    _indexes.invalidate()


def card_index_forget_local() -> None:
    """Drop this process's cached indexes only (tests roll back writes without signals)."""
    _indexes.forget_local()
