"""Rival Realms events in words (the rulebook's "Turn Sequence" headings name the phases)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import CardRef, Narrator, Part, plural

Event = Mapping[str, Any]
Said = tuple[Part, ...] | None

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

    needs_subject = frozenset(
        ("supply", "play", "enter", "use", "attack", "block", "discard", "pay", "return", "effect",
         "lose")
    )  # fmt: skip

    def describe_setup(self, event: Event, player: Any, card: CardRef | None) -> Said:
        decks = event.get("decks") or []
        sizes = " and ".join(plural(int(n), "card") for n in decks)
        return (f"{self.does(player, 'goes')} first. The decks hold {sizes}.",)

    def describe_supply(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(
            f"{self.does(player, 'plays')} the Supply card ",
            card,
            f" (Supply {event.get('supply')}).",
        )

    def describe_play(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'plays')} ", card, ".")

    def describe_enter(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(card, " enters ", f"{self.whose(player)} field.")

    def describe_use(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'uses')} an ability of ", card, ".")

    def describe_attack(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'attacks')} with ", card, ".")

    def describe_block(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(
            f"{self.does(player, 'blocks')} ", self.card(event["attacker"]), " with ", card, "."
        )

    def describe_discard(self, event: Event, player: Any, card: CardRef) -> Said:
        why = " to redraw" if event.get("redraw") else ""
        return self.say(f"{self.does(player, 'discards')} ", card, f"{why}.")

    def describe_pay(self, event: Event, player: Any, card: CardRef) -> Said:
        how = "loses" if event.get("lost") else "discards"
        return self.say(f"{self.does(player, how)} ", card, " to pay a cost.")

    def describe_return(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(f"{self.does(player, 'returns')} ", card, " from the discard pile to hand.")

    def describe_effect(self, event: Event, player: Any, card: CardRef) -> Said:
        what = str(event.get("op", "")).replace("_", " ")
        return self.say(card, f"'s effect: {what}." if what else " takes effect.")

    def describe_lose(self, event: Event, player: Any, card: CardRef) -> Said:
        return self.say(card, f" leaves {self.whose(player)} field.")

    def describe_reshuffle(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"{self.does(player, 'shuffles')} the discard pile into a new draw pile "
            f"({plural(int(event.get('cards', 0)), 'card')}).",
        )

    def describe_damage(self, event: Event, player: Any, card: CardRef | None) -> Said:
        hits = int(event.get("hits", 0))
        life = int(event.get("to_player", 0))
        units = f"; {plural(hits, 'unit')} took damage" if hits else ""
        if isinstance(player, int) and player >= 0:
            loses = self.does(1 - player, "loses", inside=True)
        else:
            loses = "the defending player loses"
        return (f"Resolve: {loses} {life} life{units}.",)

    def describe_pass(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (f"{self.does(player, 'passes')}.",)

    def describe_end(self, event: Event, player: Any, card: CardRef | None) -> Said:
        phase = PHASES.get(str(event.get("phase")), "")
        step = f"the {phase} step" if phase else "the step"
        return (f"{self.does(player, 'ends')} {step}.",)
