"""Revolt N Reign events in words, by the rulebook's names (LP, IP, UAs, the five phases)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import Narrator, Part

#: what a "choose" event chose, as the Resolve Phase says it
CHOICES = {
    "target": "the target of",
    "mode": "a mode of",
    "discard": "a card to discard for",
    "assign": "the target of the Attack Damage of",
}


class RevoltNReignNarrator(Narrator):
    """Cards by name, LP and IP by the rulebook's abbreviations, phases by its headings."""

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """One Revolt N Reign event in words."""
        kind, player = event.get("kind"), event.get("player")
        other = None if player is None else 1 - int(player)  # the player's opponent
        card = self.card(event["card"]) if event.get("card") else None
        if kind == "mulligan":
            return (
                f"{self.does(player, 'takes')} mulligan {event.get('count', 1)} "
                "(Setup, Step 3: Opening Hand).",
            )
        if kind == "turn_order":
            return (
                f"Step 4: Determine Turn Order: {self.does(player, 'goes')} first, "
                f"{self.whom(event.get('second'))} second.",
            )
        if kind == "pillar" and card:
            return self.say(f"{self.does(player, 'plays')} the Pillar ", card, ".")
        if kind in ("play", "equalize", "clash") and card and "against" not in event:
            targets = [self.card(name) for name in event.get("targets") or ()]
            how = {
                "play": "",
                "equalize": " (Step 5: Pre-Game Equalization, for free)",
                "clash": " as a Clash",
            }[str(kind)]
            aimed: list[Part] = []
            for index, target in enumerate(targets):
                aimed.append(
                    " targeting "
                    if index == 0
                    else (" and " if index == len(targets) - 1 else ", ")
                )
                aimed.append(target)
            return self.say(f"{self.does(player, 'plays')} ", card, how, aimed, ".")
        if kind == "clash" and card:
            return self.say(card, " clashes with ", self.card(event["against"]), ".")
        if kind == "activate" and card:
            paid = int(event.get("x") or 0)
            cost = f", paying {paid} IP" if paid else ""
            return self.say(f"{self.does(player, 'activates')} ", card, f"{cost}.")
        if kind == "drain":
            return (
                f"Resolve Phase, UA Drain to LP: {self.whose(player)} Unconstitutional Acts "
                f"drain {event.get('amount', 0)} LP from {self.whom(other)}.",
            )
        if kind == "damage" and card:
            amount = event.get("amount", 0)
            if event.get("target") == "lp":
                return self.say(card, f" deals {amount} LP damage to {self.whom(other)}.")
            return self.say(card, f" deals {amount} damage to ", self.card(event["target"]), ".")
        if kind == "destroyed" and card:
            return self.say(card, " is destroyed.")
        if kind == "exile" and card:
            return self.say(f"{self.does(player, 'exiles')} ", card, ".")
        if kind == "return" and card:
            return self.say(f"{self.does(player, 'returns')} ", card, " to its owner's hand.")
        if kind == "lock" and card:
            return self.say(card, f" is locked until the end of turn {event.get('until_turn')}.")
        if kind == "choose" and card:
            what = CHOICES.get(str(event.get("what")), "how to resolve")
            return self.say(f"{self.does(player, 'chooses')} {what} ", card, ".")
        if kind == "game_over" and event.get("reason") == "turn-limit":
            return (f"The game ends in a draw: {self.end_reason('turn-limit')}.",)
        if kind == "game_over":
            return (f"{self.does(player, 'wins')}: {self.end_reason(event.get('reason'))}.",)
        return super().describe(event)
