"""What every game's construction rules module plugs into: ``GameRules`` and its registry.

A game registers a ``GameRules`` subclass by calling ``register(TheRules)`` after the class in
``decks/validation/<module>.py`` (a call, not a decorator: mypyc compiles the game modules, and a
compiled class takes no class decorator); ``decks.validation.validate`` finds it by the game's
slug. Pure Python, no Django, compiled with the game modules (``rules/compiled.py``); code
outside the compiled modules (a test's toy game) may subclass ``GameRules`` and use ``@register``.
``decks.validation.base`` re-exports it.
"""

from __future__ import annotations

from typing import Any, ClassVar

from mypy_extensions import mypyc_attr

from decks.validation.records import CardIndex, CardInfo
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck


@mypyc_attr(allow_interpreted_subclasses=True)  # a test's toy game plugs in from outside
class GameRules:
    """Deck construction rules of one game. Subclasses override ``check`` and the class data."""

    slug: ClassVar[str] = ""
    rulebook: ClassVar[str] = ""
    zones: ClassVar[tuple[str, ...]] = ()
    """Zones a deck of this game is split into; the first is where unsectioned cards go."""
    zone_labels: ClassVar[dict[str, str]] = {}
    variants: ClassVar[tuple[str, ...]] = ()
    default_variant: ClassVar[str | None] = None
    variants_rule: ClassVar[str] = ""
    """The rulebook heading that names the game's variants (cited for a variant it lacks);
    empty where the game has none, and ``pool_rule`` is cited instead."""
    codes: ClassVar[dict[str, str]] = {}
    """Violation codes this game reports, with one line on when."""
    pool_rule: ClassVar[str] = "Card list"
    """The rulebook heading that says what may go in a deck (cited by the shared checks)."""
    hand_size: ClassVar[int | None] = 7
    """Opening hand; None where the game has no hand (statistics then offer no draw odds)."""
    draws_per_turn: ClassVar[int | None] = 1
    """Cards drawn each turn; None where draws depend on play (only the opening hand is modelled)."""

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        """Add every construction violation of ``deck`` to ``report``."""

    def prepare(self, index: CardIndex) -> Any:
        """Derive lookup tables from a game's card index once (cached with the index)."""
        return None

    def table(self, index: CardIndex) -> Any:
        """The result of ``prepare`` for this index, computed on first use."""
        return index.derived(self.slug, self.prepare)

    def cards_seen(self, turn: int) -> int | None:
        """Cards drawn from the pile by the draw of the player's ``turn`` (0: the opening hand)."""
        if self.hand_size is None:
            return None
        if turn == 0:
            return self.hand_size
        if self.draws_per_turn is None:
            return None
        return self.hand_size + self.draws_per_turn * turn

    def in_draw_pile(self, card: CardInfo, zone: str) -> bool:
        """Whether a card starts in the pile the opening hand and draws come from."""
        return not self.zones or zone == self.zones[0]

    def section(self, card: CardInfo) -> str:
        """Heading a card is listed under in an exported decklist (within its zone)."""
        return card.type_name

    def zone_for_section(self, section: str) -> str | None:
        """The zone a decklist section header names, or None when it is only a heading."""
        wanted = section.strip().lower()
        for zone in self.zones:
            if wanted in (zone, self.zone_labels.get(zone, zone).lower()):
                return zone
        return None


_registry: dict[str, GameRules] = {}


def register(cls: type[GameRules]) -> type[GameRules]:
    """Make ``cls`` the rules of the game whose slug it names (a call, or a class decorator
    outside the compiled modules)."""
    _registry[cls.slug] = cls()
    return cls


def unregister(game_slug: str) -> None:
    """Forget a game's rules (tests that plug a game in for a while)."""
    _registry.pop(game_slug, None)


def rules_for(game_slug: str) -> GameRules:
    """The registered rules of a game, or the common rules for a game without a module."""
    rules = _registry.get(game_slug)
    if rules is None:
        rules = GameRules()
    return rules


def registered_games() -> list[str]:
    """The slugs of the games whose construction rules are registered."""
    return sorted(_registry)
