"""A format's lists applied to one deck: banned, restricted and not-in-format, as of a date.

Pure Python over plain data (a ``FormatRules`` snapshot, built from the database once per format
and date by ``decks.validation.formats``), no Django, so mypyc compiles it with the engines
(``rules/compiled.py``). Most decks hold none of the cards a format names or leaves out: those are
screened once per snapshot and game index, so such a deck costs a few set lookups and builds no
message.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from decks.validation.records import CardIndex, CardInfo
from decks.validation.report import ValidationReport

#: below this many screened cards, each is looked up in the deck; above, the deck in the screen
_FEW = 16


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
    screen: tuple[CardIndex, frozenset[CardInfo]] | None = None
    """The cards of one game index that this format bans, restricts or leaves out (lazily)."""


def screened_cards(rules: FormatRules, index: CardIndex) -> frozenset[CardInfo]:
    """The cards of ``index`` that ``check_format`` must look at: banned, restricted, or from a
    set the format does not allow (computed once per snapshot and index)."""
    screen = rules.screen
    if screen is not None and screen[0] is index:
        return screen[1]
    flagged = frozenset(
        card
        for card in index.cards
        if card.id in rules.banned
        or card.id in rules.restricted
        or card.set_code not in rules.legal_sets
    )
    rules.screen = (index, flagged)  # one assignment: a thread sees the old pair or the new one
    return flagged


def _touches(flagged: frozenset[CardInfo], totals: dict[CardInfo, int]) -> bool:
    if len(flagged) <= _FEW:
        return any(card in totals for card in flagged)
    return not flagged.isdisjoint(totals)


def check_format(
    rules: FormatRules,
    totals: dict[CardInfo, int],
    report: ValidationReport,
    index: CardIndex | None = None,
) -> None:
    """Report banned cards, restricted cards over their limit and cards from sets not allowed.

    With the deck's ``index``, a deck holding none of the format's screened cards is passed at
    once (same report as the full check).
    """
    if not rules.in_effect:
        report.warn(
            "format-not-in-effect",
            f"Format: {rules.name} is not in effect on {rules.as_of.isoformat()}; its lists are "
            "applied as they stood",
            "Formats",
        )
    if index is not None and not _touches(screened_cards(rules, index), totals):
        return
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
