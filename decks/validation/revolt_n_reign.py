"""Revolt N Reign deck construction, as the rulebook states it (sections cited per rule).

A deck is 60 cards: exactly 3 Unconstitutional Acts (kept out of the draw pile) and 57 others.
Attack and Defense names may be doubled, at most 4 names in all; non-rare, non-petition Pillars are
unlimited; every other name is a single copy. At most 12 Rights (petitions included), 3 Freedom
and 3 Bills. Rulings on ambiguous passages are in docs/rules/revolt-n-reign.md.
"""

from __future__ import annotations

from typing import ClassVar

from decks.validation.game_rules import GameRules, register
from decks.validation.records import CardIndex, CardInfo
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck

UA = "unconstitutional-act"
PILLAR = "pillar"
ATTACK = "attack"
DEFENSE = "defense"
RIGHTS = "rights"
FREEDOM = "freedom"
BILL = "bill"
PETITION = "petition"
RARE = "rare"

DECK_SIZE = 60
UA_COUNT = 3
DOUBLED_LIMIT = 2
MAX_DOUBLED_NAMES = 4
RIGHTS_CAP = 12
FREEDOM_CAP = 3
BILL_CAP = 3
UNLIMITED = 1 << 30
DOUBLABLE = frozenset({ATTACK, DEFENSE})
UA_BUCKET, RIGHTS_BUCKET, FREEDOM_BUCKET, BILL_BUCKET, OTHER_BUCKET = range(5)


def copy_limit(card: CardInfo) -> tuple[int, str, str]:
    """How many copies of a card a deck may hold, what kind of card that is, and the section."""
    if card.type == PILLAR:
        if card.rarity == RARE:
            return 1, "a rare Pillar", "Pillar Cards"
        if PETITION in card.subtypes:
            return 1, "a petition Pillar", "Pillar Cards"
        return UNLIMITED, "a non-rare Pillar", "Pillar Cards"
    if card.type in (ATTACK, DEFENSE):
        return DOUBLED_LIMIT, _a(f"{card.type_name} card"), "Duplicates"
    section = {
        FREEDOM: "Freedom Cards",
        BILL: "Bills",
        UA: "Unconstitutional Acts",
        RIGHTS: "Rights Cards",
    }.get(card.type, "Duplicates")
    return 1, _a(f"{card.type_name} card"), section


def _a(noun: str) -> str:
    return f"{'an' if noun[:1].lower() in 'aeiou' else 'a'} {noun}"


class CardLimits:
    """What the construction rules say of one card, worked out once per card index (its tag)."""

    __slots__ = ("bucket", "doublable", "kind", "limit", "rule")

    def __init__(self, bucket: int, doublable: bool, limit: int, kind: str, rule: str) -> None:
        self.bucket = bucket
        """The cap the card counts towards (``*_BUCKET``)."""
        self.doublable = doublable
        self.limit = limit
        self.kind = kind
        self.rule = rule


class RevoltNReign(GameRules):
    slug = "revolt-n-reign"
    rulebook = "revolt-n-reign.txt"
    pool_rule = "Components"
    hand_size = 7
    draws_per_turn = 1
    codes: ClassVar[dict[str, str]] = {
        "deck-size": "total cards (Unconstitutional Acts included) is not 60",
        "ua-count": "not exactly 3 Unconstitutional Acts",
        "copy-limit": "a name has more copies than it may",
        "duplicate-names": "more than 4 Attack/Defense names appear twice",
        "rights-cap": "more than 12 Rights cards (petitions count)",
        "freedom-cap": "more than 3 Freedom cards",
        "bill-cap": "more than 3 Bill cards",
    }

    def in_draw_pile(self, card: CardInfo, zone: str) -> bool:
        return card.type != UA

    def prepare(self, index: CardIndex) -> bool:
        """Tag each card once per index with its ``CardLimits``."""
        for card in index.cards:
            if card.type == UA:
                bucket = UA_BUCKET
            elif card.type == RIGHTS or PETITION in card.subtypes:
                bucket = RIGHTS_BUCKET
            elif card.type == FREEDOM:
                bucket = FREEDOM_BUCKET
            elif card.type == BILL:
                bucket = BILL_BUCKET
            else:
                bucket = OTHER_BUCKET
            limit, kind, rule = copy_limit(card)
            card.tag = CardLimits(bucket, card.type in DOUBLABLE, limit, kind, rule)
        return True

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        self.table(deck.index)
        buckets = [0, 0, 0, 0, 0]
        doubled: list[str] = []
        over: list[tuple[CardInfo, int]] = []
        cards, counts = deck.listed()
        for card, count in zip(cards, counts, strict=True):
            tag: CardLimits = card.tag
            buckets[tag.bucket] += count
            if count > 1:
                if tag.doublable:
                    doubled.append(card.name)
                if count > tag.limit:
                    over.append((card, count))
        uas, rights, freedoms, bills, _ = buckets

        total = deck.card_count
        if total != DECK_SIZE:
            report.add(
                "deck-size",
                f"Deck size: {total} card{'' if total == 1 else 's'}, the rulebook requires exactly {DECK_SIZE} "
                f"including the {UA_COUNT} Unconstitutional Acts (Components)",
                "Components",
                count=total,
                required=DECK_SIZE,
            )
        if uas != UA_COUNT:
            names = sorted(card.name for card in deck.totals if card.type == UA)
            report.add(
                "ua-count",
                f"Unconstitutional Acts: {uas} in the deck, the rulebook requires exactly "
                f"{UA_COUNT} (Unconstitutional Acts)",
                "Unconstitutional Acts",
                names,
                count=uas,
                required=UA_COUNT,
            )
        for card, count in sorted(over, key=lambda item: item[0].name):
            tag = card.tag
            limit, kind, rule = tag.limit, tag.kind, tag.rule
            copies = "copy" if limit == 1 else "copies"
            report.add(
                "copy-limit",
                f"Copy limit: {count} copies of {card.name}, the rulebook allows {limit} "
                f"{copies} of {kind} ({rule})",
                rule,
                [card.name],
                count=count,
                limit=limit,
            )
        if len(doubled) > MAX_DOUBLED_NAMES:
            doubled.sort()
            report.add(
                "duplicate-names",
                f"Duplicates: {len(doubled)} Attack/Defense names appear twice, the rulebook "
                f"allows {MAX_DOUBLED_NAMES} (Duplicates)",
                "Duplicates",
                doubled,
                count=len(doubled),
                limit=MAX_DOUBLED_NAMES,
            )
        for code, kind_name, count, cap, rule, kind in (
            ("rights-cap", "Rights", rights, RIGHTS_CAP, "Rights Cards", RIGHTS),
            ("freedom-cap", "Freedom", freedoms, FREEDOM_CAP, "Freedom Cards", FREEDOM),
            ("bill-cap", "Bill", bills, BILL_CAP, "Bills", BILL),
        ):
            if count > cap:
                names = sorted(
                    card.name
                    for card in deck.totals
                    if card.type == kind or (kind == RIGHTS and PETITION in card.subtypes)
                )
                report.add(
                    code,
                    f"{kind_name} cap: {count} {kind_name} cards, the rulebook allows {cap} ({rule})",
                    rule,
                    names,
                    count=count,
                    limit=cap,
                )


register(RevoltNReign)  # a call, not a decorator: the class is compiled
