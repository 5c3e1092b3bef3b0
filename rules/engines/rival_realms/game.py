"""The Rival Realms ``Game``: metadata, decks from card records, and Setup."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from rules.engines.core import Game, Information, SetupError
from rules.engines.rival_realms.cards import (
    GAME_SLUG,
    CardDataError,
    CardSpec,
    card_specs,
    fixture_records,
)
from rules.engines.rival_realms.decklists import build_deck, deck_problems, fixture_decks
from rules.engines.rival_realms.state import HAND_SIZE, RealmsState

DEFAULT_TURN_LIMIT = 200
SETUP_KEYS = frozenset({"decks", "first_player", "open_decklists", "redraw_discard", "turn_limit"})
#: house rules: named opt-in setup options, off by default, kept in the setup every report shows
HOUSE_RULES = {
    "redraw_discard": "Redraw discard (house rule): before redrawing, the active player may "
    "discard cards from hand",
    "open_decklists": "Open decklists (house rule): search agents know the rival's 40-card list",
}


class RivalRealmsGame(Game):
    """Two rulers, 40-card decks, 20 life: supply, realms, units and four-step combat."""

    slug: ClassVar[str] = GAME_SLUG
    name: ClassVar[str] = "Rival Realms"
    min_players: ClassVar[int] = 2
    max_players: ClassVar[int] = 2
    information: ClassVar[Information] = Information.IMPERFECT

    def __init__(self, records: Sequence[Mapping[str, Any]] | None = None) -> None:
        super().__init__(records)
        try:
            self.specs: tuple[CardSpec, ...] = card_specs(self.records)
        except CardDataError as exc:
            raise ValueError(f"Rival Realms cannot play with these cards: {exc}") from exc
        self.by_name = {spec.name: spec for spec in self.specs}
        self._samples: list[dict[str, int]] | None = None
        self._built: list[dict[str, int]] | None = None

    def builtin_records(self) -> Sequence[Mapping[str, Any]]:
        """Return the records of ``fixtures/rival-realms`` (read with PyYAML, no Django)."""
        return fixture_records()

    def sample_decks(self) -> list[dict[str, int]]:
        """Return the legal sample decklists that fit these records, else two built decks."""
        if self._samples is None:
            decks = [
                deck for deck in fixture_decks().values() if not deck_problems(deck, self.specs)
            ]
            while len(decks) < 2:
                decks.append(build_deck(self.specs, seed=len(decks) + 1))
            self._samples = decks
        return [dict(deck) for deck in self._samples]

    def example_setups(self) -> list[dict[str, Any]]:
        """Return the sample decks against each other (each seat first) and two built decks,
        all by the rulebook (no house rule)."""
        sample = self.sample_decks()
        if self._built is None:
            self._built = [build_deck(self.specs, seed=11), build_deck(self.specs, seed=12)]
        return [
            {"decks": sample[:2], "first_player": 0},
            {"decks": sample[:2], "first_player": 1},
            {"decks": [dict(deck) for deck in self._built]},
        ]

    def new_initial_state(
        self, seed: int = 0, setup: Mapping[str, Any] | None = None
    ) -> RealmsState:
        """Set up (§Setup): shuffle both decks, draw 7 each, 20 life, a random first player.

        Setup keys: ``decks`` (two name -> count mappings or name lists; the sample decks when
        absent), ``first_player`` (0 or 1; random when absent), ``turn_limit`` (default 200) and
        ``redraw_discard`` (the house rule of ruling 23, default False: the rulebook's redraw) and
        ``open_decklists`` (ruling 20, default False: search does not know the rival's list).
        """
        setup = dict(setup or {})
        unknown = sorted(set(setup) - SETUP_KEYS)
        if unknown:
            raise SetupError(f"unknown setup keys: {', '.join(unknown)}")
        decks = [self._deck(entry) for entry in setup.get("decks") or self.sample_decks()[:2]]
        if len(decks) != 2:
            raise SetupError("Rival Realms needs exactly two decks")
        for seat, deck in enumerate(decks):
            problems = deck_problems(deck, self.specs)
            if problems:
                raise SetupError(f"deck {seat} is not legal: {'; '.join(problems)}", seat)
        turn_limit = int(setup.get("turn_limit", DEFAULT_TURN_LIMIT))
        if turn_limit < 1:
            raise SetupError("turn_limit must be at least 1")
        redraw_discard = setup.get("redraw_discard", False)
        open_decklists = setup.get("open_decklists", False)
        for key, value in (("redraw_discard", redraw_discard), ("open_decklists", open_decklists)):
            if not isinstance(value, bool):
                raise SetupError(f"{key} must be true or false")
        table: list[CardSpec] = []
        owner: list[int] = []
        for seat, deck in enumerate(decks):
            for name in sorted(deck):
                table.extend([self.by_name[name]] * deck[name])
                owner.extend([seat] * deck[name])
        state = RealmsState(self, seed, tuple(table), tuple(owner))
        state.turn_limit = turn_limit
        state.redraw_discard = redraw_discard
        state.open_decklists = open_decklists
        rng = state.rng
        for seat in (0, 1):
            state.draw[seat] = [c for c in range(len(table)) if owner[c] == seat]
            rng.shuffle(state.draw[seat])
            state._draw(seat, HAND_SIZE)
        if "first_player" in setup:
            first = int(setup["first_player"])
            if first not in (0, 1):
                raise SetupError("first_player must be 0 or 1")
        else:
            first = rng.randrange(2)
        state.active = state.window = state.first = first
        state.tasks = [("start_turn", first)]
        state.log("setup", first, decks=[sum(d.values()) for d in decks])
        state.settle()
        return state

    @staticmethod
    def _deck(entry: Any) -> dict[str, int]:
        if isinstance(entry, Mapping):
            return {str(name): int(count) for name, count in entry.items()}
        if isinstance(entry, Sequence) and not isinstance(entry, str):
            deck: dict[str, int] = {}
            for name in entry:
                deck[str(name)] = deck.get(str(name), 0) + 1
            return deck
        raise SetupError("a deck is a mapping of card names to counts, or a list of names")
