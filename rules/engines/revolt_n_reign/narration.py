"""Revolt N Reign events in words, by the rulebook's names (LP, IP, UAs, the five phases)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import CardRef, Narrator, Part

Event = Mapping[str, Any]
Said = tuple[Part, ...] | None

#: what a "choose" event chose, as the Resolve Phase says it
CHOICES = {
    "target": "the target of",
    "mode": "a mode of",
    "discard": "a card to discard for",
    "assign": "the target of the Attack Damage of",
}


def opponent(player: Any) -> int | None:
    """The player's opponent (two seats), or None where the event names no player."""
    return None if player is None else 1 - int(player)


class RevoltNReignNarrator(Narrator):
    """Cards by name, LP and IP by the rulebook's abbreviations, phases by its headings."""

    needs_subject = frozenset(
        (
            "pillar", "play", "equalize", "clash", "activate", "damage", "destroyed", "exile",
            "return", "lock", "choose",
        )
    )  # fmt: skip

    def describe_mulligan(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"{self.does(player, 'takes')} mulligan {event.get('count', 1)} "
            "(Setup, Step 3: Opening Hand).",
        )

    def describe_turn_order(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"Step 4: Determine Turn Order: {self.does(player, 'goes')} first, "
            f"{self.whom(event.get('second'))} second.",
        )

    def describe_pillar(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'plays')} the Pillar ", card, ".")

    def describe_play(self, event: Event, player: Any, card: CardRef) -> Said:
        return self._played(event, player, card, "")

    def describe_equalize(self, event: Event, player: Any, card: CardRef) -> Said:
        return self._played(event, player, card, " (Step 5: Pre-Game Equalization, for free)")

    def describe_clash(self, event: Event, player: Any, card: CardRef) -> Said:
        if "against" in event:
            return self.say(card, " clashes with ", self.card(event["against"]), ".")
        return self._played(event, player, card, " as a Clash")

    def _played(self, event: Event, player: Any, card: CardRef, how: str) -> Said:
        """A card played (``how``: as a Clash, for free), with the targets it names."""
        if "against" in event:  # a play or an equalization never clashes: said plainly
            return self.plain(event)
        targets = [self.card(name) for name in event.get("targets") or ()]
        aimed: list[Part] = []
        for index, target in enumerate(targets):
            aimed.append(
                " targeting " if index == 0 else (" and " if index == len(targets) - 1 else ", ")
            )
            aimed.append(target)
        return self.say(f"{self.does(player, 'plays')} ", card, how, aimed, ".")

    def describe_activate(self, event: Event, player: Any, card: CardRef) -> Said:
        paid = int(event.get("x") or 0)
        cost = f", paying {paid} IP" if paid else ""
        return self.say(f"{self.does(player, 'activates')} ", card, f"{cost}.")

    def describe_drain(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"Resolve Phase, UA Drain to LP: {self.whose(player)} Unconstitutional Acts "
            f"drain {event.get('amount', 0)} LP from {self.whom(opponent(player))}.",
        )

    def describe_damage(self, event: Event, player: Any, card: CardRef) -> Said:
        amount = event.get("amount", 0)
        if event.get("target") == "lp":
            return self.say(card, f" deals {amount} LP damage to {self.whom(opponent(player))}.")
        return self.say(card, f" deals {amount} damage to ", self.card(event["target"]), ".")

    def describe_destroyed(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(card, " is destroyed.")

    def describe_exile(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'exiles')} ", card, ".")

    def describe_return(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'returns')} ", card, " to its owner's hand.")

    def describe_lock(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(card, f" is locked until the end of turn {event.get('until_turn')}.")

    def describe_choose(self, event: Event, player: Any, card: CardRef) -> Said:
        what = CHOICES.get(str(event.get("what")), "how to resolve")
        return self.say(f"{self.does(player, 'chooses')} {what} ", card, ".")

    def describe_game_over(self, event: Event, player: Any, card: CardRef | None) -> Said:
        if event.get("reason") == "turn-limit":
            return (f"The game ends in a draw: {self.end_reason('turn-limit')}.",)
        return (f"{self.does(player, 'wins')}: {self.end_reason(event.get('reason'))}.",)
