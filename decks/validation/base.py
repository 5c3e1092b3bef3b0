"""The validation entry point and what every game module plugs into.

A game registers a ``GameRules`` subclass with ``@register`` in ``decks/validation/<module>.py``;
``validate`` finds it by the game's slug (the rules app imports every game's module once, from
the one loop that finds games: ``rules.plugins``; adding a game adds a file and edits nothing here). A game without a module still gets the common
checks: unknown cards, impossible quantities and the format's lists.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ClassVar

from django.utils import timezone

from decks.validation.formats import check_format, format_id_for, format_rules
from decks.validation.index import CardIndex, CardInfo, card_index
from decks.validation.report import ValidationReport

if TYPE_CHECKING:
    from cards.models import Game
    from decks.models import Format


@dataclass(slots=True)
class ResolvedDeck:
    """A deck's entries matched to cards: totals per card, per zone, and what matched nothing."""

    index: CardIndex
    totals: dict[CardInfo, int] = field(default_factory=dict)
    zones: dict[str, dict[CardInfo, int]] = field(default_factory=dict)
    card_count: int = 0
    unknown: dict[str, int] = field(default_factory=dict)
    unknown_by_zone: dict[str, int] = field(default_factory=dict)

    def count(self, predicate: Any) -> int:
        """Total copies of the cards for which ``predicate(card)`` is true."""
        return sum(n for card, n in self.totals.items() if predicate(card))

    def zone_count(self, zone: str) -> int:
        """Copies listed in a zone, unknown names included."""
        return sum(self.zones.get(zone, {}).values()) + self.unknown_by_zone.get(zone, 0)


class GameRules:
    """Deck construction rules of one game. Subclasses override ``check`` and the class data."""

    slug: ClassVar[str] = ""
    rulebook: ClassVar[str] = ""
    zones: ClassVar[tuple[str, ...]] = ()
    """Zones a deck of this game is split into; the first is where unsectioned cards go."""
    zone_labels: ClassVar[dict[str, str]] = {}
    variants: ClassVar[tuple[str, ...]] = ()
    default_variant: ClassVar[str | None] = None
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
        prepared = index.prepared.get(self.slug)
        if prepared is None:
            prepared = index.prepared[self.slug] = self.prepare(index)
        return prepared

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
    """Class decorator: make ``cls`` the rules of the game whose slug it names."""
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


_INT_ONLY = frozenset({int})


def _entry_parts(entry: Any) -> tuple[Any, Any, str, int]:
    if isinstance(entry, tuple | list):
        if len(entry) == 2:
            return entry[0], entry[1], "", 0
        if len(entry) == 3:
            return entry[0], entry[1], entry[2] or "", 0
        raise TypeError(f"a deck entry must be (name, quantity[, zone]), got {entry!r}")
    return entry.name, entry.quantity, getattr(entry, "zone", "") or "", getattr(entry, "line", 0)


def resolve(
    index: CardIndex,
    rules: GameRules,
    entries: Mapping[str, int] | Iterable[Any],
    report: ValidationReport,
) -> ResolvedDeck:
    """Match entries to cards, summing repeated names; report unknown names and bad quantities."""
    deck = ResolvedDeck(index)
    totals = deck.totals
    lookup_name = index.by_name.get
    default_zone = rules.zones[0] if rules.zones else ""
    bad_quantities: list[str] = []
    count = 0
    items: Iterable[tuple[Any, Any, str, int]]
    if isinstance(entries, Mapping) and not rules.zones:
        # Fast path (the benchmark, the API): exact names with plain positive counts resolve in
        # C-level loops. A card has one exact name, so such keys never meet the same card twice.
        # Anything else (other spellings, odd quantities) takes the general loop below.
        cards = list(map(lookup_name, entries.keys()))
        quantities = list(entries.values())
        if (
            None not in cards
            and set(map(type, quantities)) <= _INT_ONLY
            and (not quantities or min(quantities) > 0)
        ):
            totals.update(zip(cards, quantities, strict=True))
            count = sum(quantities)
            items = ()
        else:
            items = [(n, q, "", 0) for n, q in entries.items()]
    elif isinstance(entries, Mapping):
        items = [(n, q, "", 0) for n, q in entries.items()]
    else:
        items = (_entry_parts(entry) for entry in entries)
    zones = deck.zones
    unknown_lines: dict[str, list[int]] = {}
    for name, quantity, zone, line in items:
        if type(quantity) is not int or quantity < 0:
            bad_quantities.append(str(name))
            continue
        if quantity == 0:
            continue
        count += quantity
        if isinstance(name, CardInfo):
            card: CardInfo | None = name
        else:
            card = lookup_name(name)
            if card is None:
                card = index.lookup(str(name))
        if card is None:
            deck.unknown[str(name)] = deck.unknown.get(str(name), 0) + quantity
            if line:
                unknown_lines.setdefault(str(name), []).append(line)
            if rules.zones:
                zone = zone or default_zone
                deck.unknown_by_zone[zone] = deck.unknown_by_zone.get(zone, 0) + quantity
            continue
        totals[card] = totals.get(card, 0) + quantity
        if rules.zones:
            zone = zone or default_zone
            in_zone = zones.setdefault(zone, {})
            in_zone[card] = in_zone.get(card, 0) + quantity
    deck.card_count = count
    for name in bad_quantities:
        report.add(
            "invalid-quantity",
            f"Quantity: {name} has a quantity that is not a whole number of at least 1",
            rules.pool_rule,
            [name],
        )
    for name, quantity in deck.unknown.items():
        suggestions = index.suggest(name)
        hint = f"; did you mean {' or '.join(suggestions)}?" if suggestions else ""
        lines = unknown_lines.get(name, [])
        where = f" (line {', '.join(map(str, lines))})" if lines else ""
        report.add(
            "unknown-card",
            f"Unknown card: {name!r}{where} is not a {index.game_name} card{hint}",
            rules.pool_rule,
            [name],
            suggestions=suggestions,
            quantity=quantity,
            lines=lines,
        )
    if rules.zones:
        for zone in sorted(set(zones) - set(rules.zones)):
            names = sorted(card.name for card in zones[zone])
            report.add(
                "unknown-zone",
                f"Zone: {index.game_name} has no zone {zone!r} (zones: {', '.join(rules.zones)})",
                rules.pool_rule,
                names,
                zone=zone,
            )
    return deck


def _format_id(game_slug: str, format: Format | str | int | None) -> int | None:
    if format is None:
        return None
    if isinstance(format, int):
        return format
    if isinstance(format, str):
        found = format_id_for(game_slug, format)
        if found is None:
            raise UnknownFormatError(game_slug, format)
        return found
    return format.pk


class UnknownFormatError(LookupError):
    """A format slug that the game does not have."""

    def __init__(self, game_slug: str, format_slug: str):
        self.game_slug = game_slug
        self.format_slug = format_slug
        super().__init__(f"{game_slug} has no format {format_slug!r}")


class UnknownVariantError(LookupError):
    """A variant name that the game does not have."""

    def __init__(self, game_slug: str, variant: str, known: tuple[str, ...]):
        self.game_slug = game_slug
        self.variant = variant
        self.known = known
        names = ", ".join(known) or "none"
        super().__init__(f"{game_slug} has no variant {variant!r} (variants: {names})")


def validate(
    game: Game | str,
    entries: Mapping[str, int] | Iterable[Any],
    format: Format | str | int | None = None,
    as_of: dt.date | None = None,
    *,
    variant: str | None = None,
) -> ValidationReport:
    """Check a deck against its game's construction rules and, if given, a format on a date.

    ``entries`` is a ``{name: quantity}`` mapping or an iterable of ``(name, quantity[, zone])``
    tuples or objects with ``name``, ``quantity`` and ``zone``. Names match case- and
    punctuation-insensitively. Every violation that applies is reported.
    Raises ``UnknownFormatError`` / ``UnknownVariantError`` for a format or variant the game lacks.
    """
    slug = game if isinstance(game, str) else game.slug
    rules = rules_for(slug)
    if variant is not None and variant != "" and variant not in rules.variants:
        raise UnknownVariantError(slug, variant, rules.variants)
    variant = variant or rules.default_variant
    format_id = _format_id(slug, format)
    index = card_index(slug)
    report = ValidationReport(game=slug, variant=variant)
    deck = resolve(index, rules, entries, report)
    report.card_count = deck.card_count
    rules.check(deck, report, variant)
    if format_id is not None:
        day = as_of or timezone.localdate()
        snapshot = format_rules(format_id, day)
        report.format = snapshot.slug
        report.as_of = day
        check_format(snapshot, deck.totals, report)
    elif as_of is not None:
        report.as_of = as_of
    return report


def resolve_deck(
    game: Game | str, entries: Mapping[str, int] | Iterable[Any]
) -> tuple[ResolvedDeck, ValidationReport]:
    """Match a deck's entries to cards without judging it (statistics and exports use this)."""
    slug = game if isinstance(game, str) else game.slug
    rules = rules_for(slug)
    report = ValidationReport(game=slug)
    deck = resolve(card_index(slug), rules, entries, report)
    report.card_count = deck.card_count
    return deck, report
