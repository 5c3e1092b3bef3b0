"""Reign Absolute events in words: units and Reinforcements by name, spaces of the Battlefield
by where they lie from its middle (Setup places the first Unit "in the middle of the play area"),
and the Turn's two phases by the rulebook's headings (Action Phase, Reinforcement Phase)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.core.narration import CardRef, Narrator, Part, listing, plural

Event = Mapping[str, Any]
Said = tuple[Part, ...] | None

#: a step between orthogonally adjacent spaces, in words
STEPS = {(0, 1): "up", (0, -1): "down", (1, 0): "right", (-1, 0): "left"}


def space(square: Any) -> str:
    """A square of the Battlefield in words: ``[0, 0]`` -> "the middle space of the Battlefield",
    ``[2, -1]`` -> "the space 2 right and 1 down from the middle"."""
    try:
        x, y = (int(v) for v in square)
    except (TypeError, ValueError):
        return "a space of the Battlefield"
    if x == y == 0:
        return "the middle space of the Battlefield"
    parts = []
    if x:
        parts.append(f"{abs(x)} {'right' if x > 0 else 'left'}")
    if y:
        parts.append(f"{abs(y)} {'up' if y > 0 else 'down'}")
    return f"the space {' and '.join(parts)} from the middle"


def direction(origin: Sequence[int], target: Sequence[int]) -> str:
    """Which way a unit went from ``origin`` to the adjacent ``target``."""
    step = (int(target[0]) - int(origin[0]), int(target[1]) - int(origin[1]))
    return STEPS.get(step, "")


class ReignAbsoluteNarrator(Narrator):
    """Two to four factions on a grid Battlefield; "Reign Absolute" rulebook words."""

    def describe_first_player_draw(self, event: Event, player: Any, card: CardRef | None) -> Said:
        values = [str(v) for v in event.get("values") or []]
        return (
            f"Setup: each player draws a Reinforcement for the 1st Player (values "
            f"{listing(values)}); {self.does(player, 'goes', inside=True)} first.",
        )

    def describe_setup(self, event: Event, player: Any, card: CardRef | None) -> Said:
        factions = [str(f).title() for f in event.get("factions") or []]
        return (f"Factions: {listing(factions)}.",)

    def describe_place(self, event: Event, player: Any, card: CardRef | None) -> Said:
        where = space(event.get("square"))
        return (f"{self.does(player, 'places')} a Unit face down on {where}.",)

    def describe_swap(self, event: Event, player: Any, card: CardRef | None) -> Said:
        a, b = (event.get("squares") or [[0, 0], [0, 0]])[:2]
        return (f"{self.does(player, 'swaps')} the Units on {space(a)} and {space(b)}.",)

    def describe_reinforce(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"Reinforcement Phase: {self.does(player, 'places')} a Combat Reinforcement "
            f"face down under the Unit on {space(event.get('square'))}.",
        )

    def describe_move(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self._moved(event, player, "Move Action")

    def describe_march(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self._moved(event, player, "March")

    def _moved(self, event: Event, player: Any, how: str) -> Said:
        """A Unit moved one space (a Move Action, or a March), and which way."""
        way = direction(event["origin"], event["square"]) if event.get("origin") else ""
        return (
            f"{how}: {self.does(player, 'moves')} the Unit on "
            f"{space(event.get('origin'))}{' ' + way if way else ''} to "
            f"{space(event.get('square'))}.",
        )

    def describe_attack(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"Attack Action: {self.whose(player).capitalize()} ",
            self.card(event["attacker"]),
            f" on {space(event.get('origin'))} attacks ",
            self.card(event["defender"]),
            f" on {space(event.get('square'))}.",
        )

    def describe_peek(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (f"{self.does(player, 'looks')} at the Unit on {space(event.get('square'))}.",)

    def describe_doom(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (f"Doom Action: {self.does(player, 'calls')} Doom; every player discards a Unit.",)

    def describe_doom_discard(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"{self.does(player, 'discards')} ",
            self.card(event["unit"]),
            f" from {space(event.get('square'))}.",
        )

    def describe_pass(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (f"{self.does(player, 'takes')} no Action.",)

    def describe_reveal(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"{self.does(player, 'reveals')} ",
            self.card(event["unit"]),
            f" on {space(event.get('square'))}.",
        )

    def describe_recall(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"{self.does(player, 'returns')} ",
            self.card(event["unit"]),
            f" from the Unit Discard pile to {space(event.get('square'))}.",
        )

    def describe_draw(self, event: Event, player: Any, card: CardRef | None) -> Said:
        if card is None:
            return (f"Reinforcement Phase: {self.does(player, 'draws')} a Combat Reinforcement.",)
        return self.say(f"Reinforcement Phase: {self.does(player, 'draws')} ", card, ".")

    def describe_resolve(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(f"{self.does(player, 'resolves')} ", self.card(event["card"]), ".")

    def describe_ignore(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self.say(
            f"{self.does(player, 'ignores')} and {self.verb(player, 'discards')} ",
            self.card(event["card"]),
            ".",
        )

    def describe_reshuffle(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return (
            f"The Reinforcement Discard pile is shuffled into a new Reinforcement Deck "
            f"({plural(int(event.get('cards', 0)), 'card')}).",
        )

    def describe_eradicated(self, event: Event, player: Any, card: CardRef | None) -> Said:
        who = self.who(player)
        return (f"{who} {'are' if who == 'You' else 'is'} eradicated from the game.",)

    def describe_combat(self, event: Event, player: Any, card: CardRef | None) -> Said:
        return self._combat(event)

    def _combat(self, event: Mapping[str, Any]) -> tuple[Part, ...]:
        attacker, defender = self.card(event["attacker"]), self.card(event["defender"])
        totals = [int(t) for t in event.get("totals") or [0, 0]]
        parts: list[Part | Sequence[Part]] = ["Combat: "]
        for role, unit, cards, total in (
            ("attacker", attacker, event.get("attacker_cards") or [], totals[0]),
            ("defender", defender, event.get("defender_cards") or [], totals[-1]),
        ):
            if role == "defender":
                parts.append("; ")
            parts.append(unit)
            if cards:
                parts += [" with ", self.cards(cards)]
            parts.append(f" has Strength {total}")
        defeated = [attacker if r == "attacker" else defender for r in event.get("defeated") or []]
        if defeated:
            parts += [". Defeated: ", self.cards([d.name for d in defeated]), "."]
        else:
            parts.append(". Neither Unit is defeated.")
        return self.say(*parts)
