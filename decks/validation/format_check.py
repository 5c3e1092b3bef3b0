"""A format's lists applied to one deck: banned, restricted and not-in-format, as of a date.

Pure Python over plain data (a ``FormatRules`` snapshot, built from the database once per format
and date by ``decks.validation.formats``), no Django, so mypyc compiles it with the engines
(``rules/compiled.py``). Most decks hold none of the cards a format names or leaves out: those are
screened once per snapshot and game index, so such a deck costs a few lookups and builds no
message (``check_deck_format``).
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from decks.validation.records import CardIndex, CardInfo
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck


@dataclass
class FormatRules:
    """What one format allows on one date."""

    format_id: int
    slug: str
    name: str
    as_of: dt.date
    in_effect: bool
    legal_sets: frozenset[str]
    banned: dict[int, str]
    restricted: dict[int, int]
    screen: FormatScreen | None = None
    """What this format says of the cards of one game index (``format_screen``)."""


class FormatScreen:
    """A format's lists as one game index's cards: each card the format bans, restricts or leaves
    out, with the copies a deck may hold (0, or a restricted card's limit)."""

    def __init__(self, index: CardIndex, allowed: dict[CardInfo, int]) -> None:
        self.index = index
        self.allowed = allowed
        self.cards = frozenset(allowed)


def format_screen(rules: FormatRules, index: CardIndex) -> FormatScreen:
    """The screen of ``rules`` for ``index``, computed once per snapshot and index."""
    screen = rules.screen
    if screen is not None and screen.index is index:
        return screen
    allowed: dict[CardInfo, int] = {}
    for card in index.cards:
        if card.id in rules.banned or card.set_code not in rules.legal_sets:
            allowed[card] = 0
        elif card.id in rules.restricted:
            allowed[card] = rules.restricted[card.id]
    screen = FormatScreen(index, allowed)
    rules.screen = screen  # one assignment: another thread sees the old screen or this one
    return screen


def _warn_not_in_effect(rules: FormatRules, report: ValidationReport) -> None:
    if not rules.in_effect:
        report.warn(
            "format-not-in-effect",
            f"Format: {rules.name} is not in effect on {rules.as_of.isoformat()}; its lists are "
            "applied as they stood",
            "Formats",
        )


def check_deck_format(rules: FormatRules, deck: ResolvedDeck, report: ValidationReport) -> None:
    """``check_format`` for a resolved deck, with the same report: a deck that holds none of the
    cards the format screens is passed at once, one that holds them within their limits after a
    look at each card, and only a deck that breaks the format gets the full check."""
    _warn_not_in_effect(rules, report)
    if deck.own_cards:
        screen = format_screen(rules, deck.index)
        if not deck.holds_any(screen.cards):
            return
        allowed = screen.allowed
        cards, counts = deck.listed()
        for card, count in zip(cards, counts, strict=True):
            most = allowed.get(card)
            if most is not None and count > most:
                break
        else:
            return  # restricted cards within their limits: nothing to report
    _check_cards(rules, deck.totals, report)


def check_format(rules: FormatRules, totals: dict[CardInfo, int], report: ValidationReport) -> None:
    """Report banned cards, restricted cards over their limit and cards from sets not allowed."""
    _warn_not_in_effect(rules, report)
    _check_cards(rules, totals, report)


def _check_cards(rules: FormatRules, totals: dict[CardInfo, int], report: ValidationReport) -> None:
    day = rules.as_of.isoformat()
    outside: dict[str, list[str]] = {}
    for card, count in totals.items():
        if card.id in rules.banned:
            reason = rules.banned[card.id]
            report.add(
                "banned",
                f"Banned: {card.name} is banned in {rules.name} on {day}"
                + (f" ({reason})" if reason else ""),
                "Formats",
                [card.name],
                format=rules.slug,
            )
        limit = rules.restricted.get(card.id)
        if limit is not None and count > limit:
            report.add(
                "restricted",
                f"Restricted: {count} copies of {card.name}, {rules.name} allows {limit} on {day}",
                "Formats",
                [card.name],
                count=count,
                limit=limit,
                format=rules.slug,
            )
        if card.set_code not in rules.legal_sets:
            outside.setdefault(card.set_code, []).append(card.name)
    for set_code, names in sorted(outside.items()):
        names.sort()
        report.add(
            "not-in-format",
            f"Not in format: {len(names)} card(s) from set {set_code}, which {rules.name} "
            f"does not allow on {day}: {', '.join(names)}",
            "Formats",
            names,
            set=set_code,
            format=rules.slug,
        )
