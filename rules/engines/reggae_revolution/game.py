"""The Reggae Revolution ``Game``: metadata, the game box built from card records, and Setup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import Game, Information, SetupError, card_key
from rules.engines.reggae_revolution.cards import (
    GAME_SLUG,
    CardDataError,
    CardSpec,
    card_specs,
    fixture_records,
)
from rules.engines.reggae_revolution.effects import SYMBOLS
from rules.engines.reggae_revolution.state import HAND_SIZE, LINEUP_SIZE, ReggaeState

STARTERS_PER_SYMBOL = 3
DEFAULT_PLAYERS = 2
DEFAULT_TURN_LIMIT = 200
SETUP_KEYS = frozenset({"players", "first_player", "turn_limit", "redraws", "lineup"})


class ReggaeRevolutionGame(Game):
    """Co-operative deck builder for 1-4 players; the team wins or loses together."""

    slug: ClassVar[str] = GAME_SLUG
    name: ClassVar[str] = "Reggae Revolution"
    min_players: ClassVar[int] = 1
    max_players: ClassVar[int] = 4
    information: ClassVar[Information] = Information.IMPERFECT
    cooperative: ClassVar[bool] = True

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        try:
            self.specs: tuple[CardSpec, ...] = card_specs(self.records)
        except CardDataError as exc:
            raise ValueError(f"Reggae Revolution cannot play with these cards: {exc}") from exc
        self.table: tuple[CardSpec, ...] = tuple(
            spec for spec in self.specs for _ in range(spec.copies)
        )

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the records of ``fixtures/reggae-revolution`` (read with PyYAML, no Django)."""
        return fixture_records()

    def metadata(self) -> dict[str, Any]:
        """Return the game's metadata, marking it co-operative."""
        return {**super().metadata(), "default_players": DEFAULT_PLAYERS}

    def example_setups(self) -> list[dict[str, Any]]:
        """Return one setup per table size the conformance suite should play."""
        return [{"players": 1}, {"players": 2}, {"players": 4}]

    def num_players(self, setup: Mapping[str, Any] | None = None) -> int:
        """Return the number of players a setup asks for (2 when it does not say)."""
        return int((setup or {}).get("players", DEFAULT_PLAYERS))

    def new_initial_state(
        self, seed: int = 0, setup: Mapping[str, Any] | None = None
    ) -> ReggaeState:
        """Deal the game (Setup): starting decks, hands of six, lineup, piles, villain deck.

        ``lineup`` names main-deck cards dealt face up first (a full setup's lineup)."""
        setup = dict(setup or {})
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(unknown)}")
        players = self.num_players(setup)
        if not self.min_players <= players <= self.max_players:
            raise SetupError(f"Reggae Revolution is for 1 to 4 players, not {players}")
        first = int(setup.get("first_player", 0))
        if not 0 <= first < players:
            raise SetupError(f"first_player must be a seat from 0 to {players - 1}")
        turn_limit = int(setup.get("turn_limit", DEFAULT_TURN_LIMIT))
        if turn_limit < 1:
            raise SetupError("turn_limit must be at least 1")

        state = ReggaeState(self, seed, self.table, players)
        state.turn_limit = turn_limit
        state.active = first
        by_type: dict[str, list[int]] = {}
        for card, spec in enumerate(self.table):
            by_type.setdefault(spec.type, []).append(card)
        for card in by_type.get("starter", []):
            state.starter_piles[self.table[card].symbol or ""].append(card)
        for symbol in SYMBOLS:
            pile = state.starter_piles[symbol]
            if len(pile) < STARTERS_PER_SYMBOL * players:
                raise SetupError(
                    f"{players} starting decks need {STARTERS_PER_SYMBOL * players} {symbol} "
                    f"starters; the records hold {len(pile)}"
                )
            for player in range(players):
                for _ in range(STARTERS_PER_SYMBOL):
                    state.draw[player].append(pile.pop())
        rng = state.rng
        for player in range(players):
            rng.shuffle(state.draw[player])
            state._draw(player, HAND_SIZE, reshuffle=False)
        state.main_deck = [*by_type.get("main", []), *by_type.get("wild", [])]
        rng.shuffle(state.main_deck)
        self._deal_lineup(state, setup.get("lineup") or ())
        state._refill_lineup()
        state.oppression = list(by_type.get("oppression", []))
        state.villain_deck = [*by_type.get("villain", []), *by_type.get("scheme", [])]
        rng.shuffle(state.villain_deck)
        order = [(first + step) % players for step in range(players)]
        if setup.get("redraws", True):
            state.tasks = [("mulligan", player) for player in order]
        state.tasks.append(("start_turn", first))
        state.log("setup", first, players=players)
        state._settle()
        return state

    def _deal_lineup(self, state: ReggaeState, names: Sequence[str]) -> None:
        """Put the named main-deck cards face up first (a full setup's lineup), in order."""
        if len(names) > LINEUP_SIZE:
            raise SetupError(f"the lineup holds {LINEUP_SIZE} cards, not {len(names)}")
        for slot, name in enumerate(names):
            key = card_key(str(name))
            card = next((c for c in state.main_deck if self.table[c].key == key), None)
            if card is None:
                raise SetupError(f"{name!r} is not a main-deck card left for the lineup")
            state.main_deck.remove(card)
            state.lineup[slot] = card
