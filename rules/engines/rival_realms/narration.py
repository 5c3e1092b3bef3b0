"""Rival Realms events in words (the rulebook's "Turn Sequence" headings name the phases)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import Narrator, Part, plural

#: the engine's phase codes -> the rulebook's headings (Deploy, Combat's steps, Redraw)
PHASES = {
    "deploy": "Deploy",
    "attack": "Attack",
    "defend": "Defend",
    "reinforce": "Reinforce",
    "resolve_attacker": "Resolve",
    "resolve_defender": "Resolve",
    "redraw": "Redraw",
}


class RivalRealmsNarrator(Narrator):
    """Cards by name, the phases by the rulebook's "Turn Sequence" headings."""

    def turn_of(self, event: Mapping[str, Any]) -> int | None:
        """The engine's own ``turn`` event starts each turn."""
        return int(event["turn"]) if event.get("kind") == "turn" else None

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """One Rival Realms event in words."""
        kind, player = event.get("kind"), event.get("player")
        card = self.card(event["card"]) if event.get("card") else None
        if kind == "setup":
            decks = event.get("decks") or []
            sizes = " and ".join(plural(int(n), "card") for n in decks)
            return (f"{self.does(player, 'goes')} first. The decks hold {sizes}.",)
        if kind == "supply" and card:
            return self.say(
                f"{self.does(player, 'plays')} the Supply card ",
                card,
                f" (Supply {event.get('supply')}).",
            )
        if kind == "play" and card:
            return self.say(f"{self.does(player, 'plays')} ", card, ".")
        if kind == "enter" and card:
            return self.say(card, " enters ", f"{self.whose(player)} field.")
        if kind == "use" and card:
            return self.say(f"{self.does(player, 'uses')} an ability of ", card, ".")
        if kind == "attack" and card:
            return self.say(f"{self.does(player, 'attacks')} with ", card, ".")
        if kind == "block" and card:
            return self.say(
                f"{self.does(player, 'blocks')} ", self.card(event["attacker"]), " with ", card, "."
            )
        if kind == "discard" and card:
            why = " to redraw" if event.get("redraw") else ""
            return self.say(f"{self.does(player, 'discards')} ", card, f"{why}.")
        if kind == "pay" and card:
            how = "loses" if event.get("lost") else "discards"
            return self.say(f"{self.does(player, how)} ", card, " to pay a cost.")
        if kind == "return" and card:
            return self.say(
                f"{self.does(player, 'returns')} ", card, " from the discard pile to hand."
            )
        if kind == "effect" and card:
            what = str(event.get("op", "")).replace("_", " ")
            return self.say(card, f"'s effect: {what}." if what else " takes effect.")
        if kind == "lose" and card:
            return self.say(card, f" leaves {self.whose(player)} field.")
        if kind == "reshuffle":
            return (
                f"{self.does(player, 'shuffles')} the discard pile into a new draw pile "
                f"({plural(int(event.get('cards', 0)), 'card')}).",
            )
        if kind == "damage":
            hits = int(event.get("hits", 0))
            life = int(event.get("to_player", 0))
            units = f"; {plural(hits, 'unit')} took damage" if hits else ""
            if isinstance(player, int) and player >= 0:
                loses = self.does(1 - player, "loses", inside=True)
            else:
                loses = "the defending player loses"
            return (f"Resolve: {loses} {life} life{units}.",)
        if kind == "pass":
            return (f"{self.does(player, 'passes')}.",)
        if kind == "end":
            phase = PHASES.get(str(event.get("phase")), "")
            return (
                f"{self.does(player, 'ends')} the {phase} step."
                if phase
                else f"{self.does(player, 'ends')} the step.",
            )
        if kind == "game_over":
            reason = self.end_reason(event.get("reason"))
            if isinstance(player, int) and player >= 0:
                return (f"{self.does(player, 'wins')}: {reason}.",)
            return (f"The game ends: {reason}.",)
        return super().describe(event)
