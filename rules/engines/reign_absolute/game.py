"""The Reign Absolute ``Game``: metadata, the box built from card records, and Setup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import Game, Information, SetupError
from rules.engines.reign_absolute.cards import (
    GAME_SLUG,
    CardDataError,
    CardSpec,
    card_specs,
    fixture_records,
)
from rules.engines.reign_absolute.state import ReignState

DEFAULT_TURN_LIMIT = 400
SETUP_KEYS = frozenset({"players", "factions", "first_player", "turn_limit"})


class ReignAbsoluteGame(Game):
    """Hidden units on a shared grid for 2-4 players; the last Liege standing wins."""

    slug: ClassVar[str] = GAME_SLUG
    name: ClassVar[str] = "Reign Absolute: Umbrous Edition"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 4
    information: ClassVar[Information] = Information.IMPERFECT

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        try:
            specs = card_specs(self.records)
        except CardDataError as exc:
            raise ValueError(f"Reign Absolute cannot play with these cards: {exc}") from exc
        self.specs: tuple[CardSpec, ...] = specs
        table: list[CardSpec] = []
        values: list[int] = []
        for spec in specs:
            for copy in range(spec.copies):
                table.append(spec)
                values.append(spec.values[copy] if spec.values else 0)
        self.table: tuple[CardSpec, ...] = tuple(table)
        #: the random number printed on each physical reinforcement (0 for units)
        self.values: tuple[int, ...] = tuple(values)
        self.factions: tuple[str, ...] = tuple(
            sorted({s.faction for s in specs if s.faction is not None})
        )

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the records of ``fixtures/reign-absolute`` (read with PyYAML, no Django)."""
        return fixture_records()

    def example_setups(self) -> list[dict[str, Any]]:
        """Return setups for two, three and four players covering every faction."""
        return [
            {"factions": ["empire", "elves"]},
            {"factions": ["azuma", "umbrous"]},
            {"factions": ["elves", "azuma", "umbrous"]},
            {"factions": ["empire", "elves", "azuma", "umbrous"]},
        ]

    def num_players(self, setup: Mapping[str, Any] | None = None) -> int:
        """Return how many players the setup seats (one per named faction; 2 by default)."""
        setup = setup or {}
        if setup.get("factions"):
            return len(setup["factions"])
        return int(setup.get("players", 2))

    def unit_ids(self, faction: str) -> list[int]:
        """Return the table ids of a faction deck's cards (one id per physical card)."""
        return [i for i, spec in enumerate(self.table) if spec.faction == faction]

    def reinforcement_ids(self) -> list[int]:
        """Return the table ids of every card of the shared Reinforcement deck."""
        return [i for i, spec in enumerate(self.table) if not spec.is_unit]

    def new_initial_state(
        self, seed: int = 0, setup: Mapping[str, Any] | None = None
    ) -> ReignState:
        """Set up (§Setup): faction decks, Reinforcement deck, 1st Player by drawn value."""
        setup = dict(setup or {})
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(unknown)}")
        players = self.num_players(setup)
        if not self.min_players <= players <= self.max_players:
            raise SetupError(f"Reign Absolute is for 2 to 4 players, not {players}")
        factions = list(setup.get("factions") or self.factions[:players])
        if len(factions) != players:
            raise SetupError("name one faction per player")
        for faction in factions:
            if faction not in self.factions:
                raise SetupError(f"unknown faction {faction!r} (known: {', '.join(self.factions)})")
        if len(set(factions)) != len(factions):
            raise SetupError("each player needs a different faction: there is one deck of each")
        turn_limit = int(setup.get("turn_limit", DEFAULT_TURN_LIMIT))
        if turn_limit < 1:
            raise SetupError("turn_limit must be at least 1")

        state = ReignState(self, seed, self.table, factions)
        state.turn_limit = turn_limit
        rng = state.rng
        for player, faction in enumerate(factions):
            deck = self.unit_ids(faction)
            rng.shuffle(deck)
            state.faction_decks[player] = deck
        state.deck = self.reinforcement_ids()
        rng.shuffle(state.deck)
        if "first_player" in setup:
            first = int(setup["first_player"])
            if not 0 <= first < players:
                raise SetupError(f"first_player must be a seat from 0 to {players - 1}")
        else:
            drawn = [state.deck.pop() for _ in range(players)]
            first = max(range(players), key=lambda p: self.values[drawn[p]])
            state.discard.extend(drawn)
            state.log("first_player_draw", first, values=[self.values[c] for c in drawn])
        state.active = state.first = first
        state.tasks = [("placement", first)]
        state.log("setup", first, factions=factions)
        state.settle()
        return state
