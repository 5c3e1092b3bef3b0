"""The plain records validation reads: ``CardInfo`` (a card) and ``CardIndex`` (a game's cards).

Pure Python, no Django: ``decks.validation.index`` builds them from the database and caches them;
the compiled validation modules (``rules/compiled.py``) read them.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

from cards.naming import close_matches, name_key

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
    """Lookup tables derived once from this index, by key (``derived``)."""

    def __post_init__(self) -> None:
        self.prepared = {}
        self.by_name = {card.name: card for card in self.cards}
        self.by_key = {card.key: card for card in self.cards}
        self.by_id = {card.id: card for card in self.cards}
        self.keys = [card.key for card in self.cards]

    def derived(self, key: str, build: Callable[[CardIndex], Any]) -> Any:
        """The table ``build`` derives from this index, built on first use and kept under
        ``key`` in ``prepared`` (``GameRules.table``, ``decks.decklist.known_headers``), so it
        is rebuilt exactly when the index is."""
        try:
            return self.prepared[key]
        except KeyError:
            table = self.prepared[key] = build(self)
            return table

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
