"""Regality vs Religion: Revolution: a side's 7 tiles plus the neutral tiles of the variant.

Zones: ``side`` (the player's area: the 7 tiles of one alignment, plus the Citizen for the starting
player) and ``neutral`` (the neutral tiles in play for the variant). Variants ("Preparations" and
"Game system options"): ``standard`` (a neutral area of 5), ``old-style`` (no neutral tiles but the
Citizen), ``random`` and ``secret-random`` (2 each), ``draft`` (2 for the starting player, who holds
the Citizen, 3 for the second), ``secret-draft`` (2 each). Rulings: docs/rules/regality-vs-religion.md.
"""

from __future__ import annotations

from typing import ClassVar

from decks.validation.game_rules import GameRules, register
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck

SIDE, NEUTRAL_ZONE = "side", "neutral"
REGALITY, RELIGION, NEUTRAL = "regality", "religion", "neutral"
CITIZEN = "citizen"
SIDE_SIZE = 7
DRAFT_STARTING_PLAYER = 2
NEUTRAL_TILES: dict[str, tuple[int, ...]] = {
    "standard": (5,),
    "old-style": (0,),
    "random": (2,),
    "secret-random": (2,),
    "draft": (2, 3),
    "secret-draft": (2,),
}
VARIANT_RULES = {
    "standard": "Preparations",
    "old-style": "Old style",
    "random": "Random",
    "secret-random": "Secret random",
    "draft": "Draft",
    "secret-draft": "Secret draft",
}


class RegalityVsReligion(GameRules):
    slug = "regality-vs-religion"
    rulebook = "regality-vs-religion.txt"
    pool_rule = "Preparations"
    zones = (SIDE, NEUTRAL_ZONE)
    zone_labels: ClassVar[dict[str, str]] = {SIDE: "Side", NEUTRAL_ZONE: "Neutral"}
    variants = tuple(NEUTRAL_TILES)
    default_variant = "standard"
    variants_rule = "Game system options"
    hand_size = None
    draws_per_turn = None
    codes: ClassVar[dict[str, str]] = {
        "side-tiles": "the side does not hold exactly the 7 tiles of one alignment",
        "mixed-alignment": "the side mixes Regality and Religion tiles",
        "neutral-count": "the number of neutral tiles does not fit the variant",
        "wrong-zone": "a neutral tile on the side, a sided tile among the neutrals, or the "
        "Citizen among the neutral tiles",
        "copy-limit": "a tile appears more than once (the game has one of each)",
    }

    def zone_for_section(self, section: str) -> str | None:
        wanted = section.strip().lower()
        if wanted in ("regality", "religion", "side tiles", "area", "my area"):
            return SIDE
        if wanted in ("neutral tiles", "neutral area", "neutrals"):
            return NEUTRAL_ZONE
        return super().zone_for_section(section)

    def check(self, deck: ResolvedDeck, report: ValidationReport, variant: str | None) -> None:
        variant = variant or "standard"
        side = deck.zones.get(SIDE, {})
        neutral = deck.zones.get(NEUTRAL_ZONE, {})
        for card, count in sorted(deck.totals.items(), key=lambda item: item[0].name):
            if count > 1:
                report.add(
                    "copy-limit",
                    f"Copy limit: {count} {card.name} tiles, the game has one (Contents)",
                    "Contents",
                    [card.name],
                    count=count,
                    limit=1,
                )
        wrong = sorted(
            [c.name for c in side if c.branch == NEUTRAL and c.key != CITIZEN]
            + [c.name for c in neutral if c.branch != NEUTRAL or c.key == CITIZEN]
        )
        if wrong:
            report.add(
                "wrong-zone",
                f"Zones: {', '.join(wrong)} cannot be where listed: the side holds its own "
                "alignment's tiles (and the Citizen for the starting player), the neutral tiles "
                "are drawn from the other neutral tiles (Preparations)",
                "Preparations",
                wrong,
            )
        alignments = {c.branch for c in side if c.branch in (REGALITY, RELIGION)}
        if len(alignments) > 1:
            names = sorted(c.name for c in side if c.branch in (REGALITY, RELIGION))
            report.add(
                "mixed-alignment",
                "Side: Regality and Religion tiles mixed, a player takes the seven tiles of "
                "one alignment (Preparations)",
                "Preparations",
                names,
            )
        sided = [c for c in side if c.branch in (REGALITY, RELIGION)]
        alignment = max(
            sorted(alignments), key=lambda a: sum(1 for c in sided if c.branch == a), default=None
        )
        if alignment is not None:
            expected = {c for c in deck.index.cards if c.branch == alignment}
            missing = sorted(c.name for c in expected if c not in side)
            have = sum(side.get(c, 0) for c in expected)
        else:
            missing, have = [], 0
        if alignment is None or missing or have != SIDE_SIZE:
            label = alignment.title() if alignment else "Regality or Religion"
            report.add(
                "side-tiles",
                f"Side: {have} {label} tile(s), a side is exactly its {SIDE_SIZE} tiles"
                + (f"; missing {', '.join(missing)}" if missing else "")
                + " (Preparations)",
                "Preparations",
                missing,
                count=have,
                required=SIDE_SIZE,
            )
        drawn = sum(n for c, n in neutral.items() if c.branch == NEUTRAL and c.key != CITIZEN)
        drawn += deck.unknown_by_zone.get(NEUTRAL_ZONE, 0)
        allowed = NEUTRAL_TILES[variant]
        starting = any(c.key == CITIZEN for c in side)
        if variant == "draft" and starting:
            # Draft: the starting player (who holds the Citizen) picks two, the second player
            # ends with three.
            allowed = (DRAFT_STARTING_PLAYER,)
        if drawn not in allowed:
            wanted = " or ".join(str(n) for n in allowed)
            rule = VARIANT_RULES[variant]
            who = " for the starting player" if variant == "draft" and starting else ""
            report.add(
                "neutral-count",
                f"Neutral tiles: {drawn}, the {variant} variant uses {wanted}{who} ({rule})",
                rule,
                sorted(c.name for c in neutral),
                count=drawn,
                allowed=list(allowed),
                variant=variant,
            )


register(RegalityVsReligion)  # a call, not a decorator: the class is compiled
