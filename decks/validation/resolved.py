"""A deck's entries matched to cards: the first step of every validation, once per deck.

Pure Python over plain data (a game's ``CardIndex``, built once per game), no Django, so mypyc
compiles it with the engines (``rules/compiled.py``); ``decks.validation.base`` re-exports it.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, cast

from decks.validation.records import CardIndex, CardInfo
from decks.validation.report import ValidationReport


class ResolvedDeck:
    """A deck's entries matched to cards: totals per card, per zone, and what matched nothing.

    A deck read from ``{exact name: quantity}`` (the fast path) keeps its cards and counts as two
    lists and builds ``totals`` on first use: the checks that pass a deck read ``listed()``.
    """

    def __init__(
        self,
        index: CardIndex,
        cards: list[CardInfo] | None = None,
        copies: list[int] | None = None,
    ) -> None:
        self.index = index
        self.zones: dict[str, dict[CardInfo, int]] = {}
        self.card_count = 0
        self.unknown: dict[str, int] = {}
        self.unknown_by_zone: dict[str, int] = {}
        self.own_cards = True
        """Every card is the index's own record (False when an entry passed a ``CardInfo`` of
        another index: checks keyed by this index's records then look at every card)."""
        self._cards: list[CardInfo] = cards if cards is not None else []
        self._copies: list[int] = copies if copies is not None else []
        self._totals: dict[CardInfo, int] | None = None if cards is not None else {}

    @property
    def totals(self) -> dict[CardInfo, int]:
        """Copies of each card, in the order the deck lists them."""
        totals = self._totals
        if totals is None:
            totals = self._totals = dict(zip(self._cards, self._copies, strict=True))
        return totals

    def listed(self) -> tuple[list[CardInfo], list[int]]:
        """The deck's cards and their copies as two lists in ``totals`` order."""
        totals = self._totals
        if totals is None:
            return self._cards, self._copies
        return list(totals), list(totals.values())

    def holds_any(self, cards: frozenset[CardInfo]) -> bool:
        """Whether the deck holds any of ``cards``."""
        held = self._cards if self._totals is None else self._totals
        return not cards.isdisjoint(held)  # a C loop over the deck's cards, a hash lookup each

    def count(self, predicate: Any) -> int:
        """Total copies of the cards for which ``predicate(card)`` is true."""
        return sum(n for card, n in self.totals.items() if predicate(card))

    def zone_count(self, zone: str) -> int:
        """Copies listed in a zone, unknown names included."""
        return sum(self.zones.get(zone, {}).values()) + self.unknown_by_zone.get(zone, 0)


def _entry_parts(entry: Any) -> tuple[Any, Any, str, int]:
    if isinstance(entry, tuple | list):
        if len(entry) == 2:
            return entry[0], entry[1], "", 0
        if len(entry) == 3:
            return entry[0], entry[1], entry[2] or "", 0
        raise TypeError(f"a deck entry must be (name, quantity[, zone]), got {entry!r}")
    return entry.name, entry.quantity, getattr(entry, "zone", "") or "", getattr(entry, "line", 0)


_INT_ONLY = frozenset({int})


def _exact_entries(
    by_name: dict[str, CardInfo], entries: dict[Any, Any]
) -> tuple[list[CardInfo], list[int]] | None:
    """The cards and copies of ``{exact name: positive int}``, or None when an entry is anything
    else: the general loop then reads them all.

    The fast path of the benchmark and the API, in C-level loops (as fast interpreted as
    compiled): a card has one exact name, so such keys never meet the same card twice, and no
    entry needs a report line.
    """
    cards = list(map(by_name.get, entries))
    quantities = list(entries.values())
    if (
        not all(cards)  # a name that matched nothing (a card record is always true)
        or not set(map(type, quantities)) <= _INT_ONLY
        or (quantities and min(quantities) <= 0)
    ):
        return None
    return cast("list[CardInfo]", cards), quantities


def resolve(
    index: CardIndex,
    rule_zones: tuple[str, ...],
    pool_rule: str,
    entries: Mapping[str, int] | Iterable[Any],
    report: ValidationReport,
) -> ResolvedDeck:
    """Match entries to cards, summing repeated names; report unknown names and bad quantities
    under ``pool_rule``. ``rule_zones`` and ``pool_rule`` are the game rules' (``GameRules``:
    the zones it knows, the first where an entry without a zone goes; the rule its card list
    is checked under), passed as values so that this module stays below the rules."""
    if not rule_zones and isinstance(entries, dict):
        exact = _exact_entries(index.by_name, entries)
        if exact is not None:
            deck = ResolvedDeck(index, exact[0], exact[1])
            deck.card_count = sum(exact[1])
            return deck
    deck = ResolvedDeck(index)
    totals = deck.totals
    lookup_name = index.by_name.get
    default_zone = rule_zones[0] if rule_zones else ""
    bad_quantities: list[str] = []
    count = 0
    items: Iterable[tuple[Any, Any, str, int]]
    if isinstance(entries, Mapping):
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
        card: CardInfo | None
        if isinstance(name, CardInfo):
            card = name
            if index.by_id.get(card.id) is not card:
                deck.own_cards = False
        else:
            card = lookup_name(name)
            if card is None:
                card = index.lookup(str(name))
        if card is None:
            deck.unknown[str(name)] = deck.unknown.get(str(name), 0) + quantity
            if line:
                unknown_lines.setdefault(str(name), []).append(line)
            if rule_zones:
                zone = zone or default_zone
                deck.unknown_by_zone[zone] = deck.unknown_by_zone.get(zone, 0) + quantity
            continue
        totals[card] = totals.get(card, 0) + quantity
        if rule_zones:
            zone = zone or default_zone
            in_zone = zones.setdefault(zone, {})
            in_zone[card] = in_zone.get(card, 0) + quantity
    deck.card_count = count
    for name in bad_quantities:
        report.add(
            "invalid-quantity",
            f"Quantity: {name} has a quantity that is not a whole number of at least 1",
            pool_rule,
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
            pool_rule,
            [name],
            suggestions=suggestions,
            quantity=quantity,
            lines=lines,
        )
    if rule_zones:
        for zone in sorted(set(zones) - set(rule_zones)):
            names = sorted(card.name for card in zones[zone])
            report.add(
                "unknown-zone",
                f"Zone: {index.game_name} has no zone {zone!r} (zones: {', '.join(rule_zones)})",
                pool_rule,
                names,
                zone=zone,
            )
    return deck
