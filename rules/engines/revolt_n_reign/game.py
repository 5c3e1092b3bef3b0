"""The Revolt N Reign ``Game``: metadata, the card records it plays with, and Setup.

A setup names two decks as lists of card records (60 each: 3 Unconstitutional Acts and 57 others;
plain card names are accepted as a shorthand for the game's own records) and may set:
``first_player`` (otherwise "Step 4: Determine Turn Order": a player under 15 from ``under_15``
goes first, else a die roll), ``mulligans`` (offer the up-to-two mulligans of "Step 3: Opening
Hand", default true) and ``turn_limit``
(default 200 turns in all; reaching it ends the game drawn). House rules (``HOUSE_RULES``, off
unless named, reports name them): ``petitions_needed`` other than the rulebook's 4, and
``activated_once_per_turn`` (each activated effect once in each of its controller's turns, where
the rulebook has it happen once while its card stays in play).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import CardRecord, Game, Information, SetupError
from rules.engines.revolt_n_reign.cards import (
    GAME_SLUG,
    UA,
    CardDataError,
    CardSpec,
    card_spec,
    deck_records,
    fixture_records,
    sample_decks,
)
from rules.engines.revolt_n_reign.state import DECK_SIZE, RevoltState

UAS_PER_DECK = 3
DEFAULT_TURN_LIMIT = 200
DEFAULT_PETITIONS = 4
#: house rules: named opt-in setup options, each in words for reports; off unless a setup names
#: it (``petitions_needed`` is off at the rulebook's 4: "PETITION -& PETITION VICTORY")
HOUSE_RULES = {
    "petitions_needed": "Petition Victory with {value} Petitions (house rule; the rulebook asks 4)",
    "activated_once_per_turn": "Activated effects once per turn (house rule; the rulebook: once "
    "while the card stays in play)",
}
HOUSE_RULE_BOOK_VALUES = {"petitions_needed": DEFAULT_PETITIONS}
SETUP_KEYS = frozenset({"decks", "first_player", "under_15", "mulligans", "turn_limit"}) | set(
    HOUSE_RULES
)
#: sample decks the conformance suite plays against each other
EXAMPLE_PAIRS = (
    ("legal-bison-pressure", "legal-eagle-control"),
    ("legal-eagle-control", "legal-scroll-petitions"),
    ("legal-scroll-petitions", "legal-bison-pressure"),
)


class RevoltNReignGame(Game):
    """Two players, hidden hands and draw piles; four ways to win ("VICTORY CONDITIONS (4 TOTAL)")."""

    slug: ClassVar[str] = GAME_SLUG
    name: ClassVar[str] = "Revolt N Reign"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information: ClassVar[Information] = Information.IMPERFECT

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        self._by_key: dict[str, Mapping[str, Any]] = {}
        for record in self.records:
            data = record.as_record() if isinstance(record, CardRecord) else record
            self._by_key[CardRecord.from_record(data).key] = data
        self._spec_cache: dict[int, tuple[Any, CardSpec]] = {}

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the records of ``fixtures/revolt-n-reign`` (read with PyYAML, no Django)."""
        return fixture_records()

    def sample_deck(self, name: str) -> list[Mapping[str, Any]]:
        """Return a sample deck (``legal-scroll-petitions`` ...) as 60 of this game's records."""
        decks = sample_decks()
        if name not in decks:
            raise SetupError(f"no sample deck {name!r} (known: {', '.join(sorted(decks))})")
        return deck_records(decks[name], self._by_key.values())

    def example_setups(self) -> list[dict[str, Any]]:
        """Return one setup per pairing of the legal sample decks."""
        return [
            {"decks": [self.sample_deck(first), self.sample_deck(second)]}
            for first, second in EXAMPLE_PAIRS
        ]

    def _spec(self, card: Any) -> CardSpec:
        if isinstance(card, str):
            record = self._by_key.get(CardRecord.from_record({"name": card, "type": "?"}).key)
            if record is None:
                raise SetupError(f"{card!r} is not a Revolt N Reign card")
            card = record
        cached = self._spec_cache.get(id(card))
        if cached is not None and cached[0] is card:
            return cached[1]
        try:
            spec = card_spec(card)
        except CardDataError as exc:
            raise SetupError(f"the engine cannot play this card: {exc}") from exc
        self._spec_cache[id(card)] = (card, spec)
        return spec

    def new_initial_state(
        self, seed: int = 0, setup: Mapping[str, Any] | None = None
    ) -> RevoltState:
        """Set the game up: decks, UAs, opening hands, turn order, then mulligans and equalization."""
        setup = dict(setup or {})
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(unknown)}")
        decks = setup.get("decks")
        if decks is None:
            decks = self.example_setups()[0]["decks"]
        if len(decks) != 2:
            raise SetupError("Revolt N Reign needs two decks")
        table: list[CardSpec] = []
        for player, deck in enumerate(decks):
            specs = [self._spec(card) for card in deck]
            if len(specs) != DECK_SIZE:
                raise SetupError(f"deck {player} has {len(specs)} cards; a deck has 60", player)
            uas = sum(1 for spec in specs if spec.type == UA)
            if uas != UAS_PER_DECK:
                raise SetupError(
                    f"deck {player} has {uas} Unconstitutional Acts; it needs 3", player
                )
            table.extend(specs)
        turn_limit = int(setup.get("turn_limit", DEFAULT_TURN_LIMIT))
        petitions = int(setup.get("petitions_needed", DEFAULT_PETITIONS))
        if turn_limit < 1 or petitions < 1:
            raise SetupError("turn_limit and petitions_needed must be at least 1")
        state = RevoltState(self, seed, tuple(table))
        state.turn_limit = turn_limit
        state.petitions_needed = petitions
        # house rule: each activated effect once a turn (the rulebook: once while in play)
        state.house_once = bool(setup.get("activated_once_per_turn", False))
        first = setup.get("first_player")
        young = list(setup.get("under_15") or ())
        if first is None and len(young) == 1:
            first = young[0]
        if first is None:
            first = state.rng.randrange(2)
        if first not in (0, 1):
            raise SetupError("first_player must be 0 or 1")
        state.first = int(first)
        state.deal(
            [range(0, DECK_SIZE), range(DECK_SIZE, 2 * DECK_SIZE)],
            mulligans=bool(setup.get("mulligans", True)),
        )
        return state
