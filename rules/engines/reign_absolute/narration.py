"""Reign Absolute events in words: units and Reinforcements by name, spaces of the Battlefield
by where they lie from its middle (Setup places the first Unit "in the middle of the play area"),
and the Turn's two phases by the rulebook's headings (Action Phase, Reinforcement Phase)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.core.narration import Narrator, Part, listing, plural

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

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """One Reign Absolute event in words."""
        kind, player = event.get("kind"), event.get("player")
        if kind == "first_player_draw":
            values = [str(v) for v in event.get("values") or []]
            return (
                f"Setup: each player draws a Reinforcement for the 1st Player (values "
                f"{listing(values)}); {self.does(player, 'goes', inside=True)} first.",
            )
        if kind == "setup":
            factions = [str(f).title() for f in event.get("factions") or []]
            return (f"Factions: {listing(factions)}.",)
        if kind == "place":
            return (
                f"{self.does(player, 'places')} a Unit face down on {space(event.get('square'))}.",
            )
        if kind == "swap":
            a, b = (event.get("squares") or [[0, 0], [0, 0]])[:2]
            return (f"{self.does(player, 'swaps')} the Units on {space(a)} and {space(b)}.",)
        if kind == "reinforce":
            return (
                f"Reinforcement Phase: {self.does(player, 'places')} a Combat Reinforcement "
                f"face down under the Unit on {space(event.get('square'))}.",
            )
        if kind in ("move", "march"):
            way = direction(event["origin"], event["square"]) if event.get("origin") else ""
            how = "Move Action" if kind == "move" else "March"
            return (
                f"{how}: {self.does(player, 'moves')} the Unit on "
                f"{space(event.get('origin'))}{' ' + way if way else ''} to "
                f"{space(event.get('square'))}.",
            )
        if kind == "attack":
            return self.say(
                f"Attack Action: {self.whose(player).capitalize()} ",
                self.card(event["attacker"]),
                f" on {space(event.get('origin'))} attacks ",
                self.card(event["defender"]),
                f" on {space(event.get('square'))}.",
            )
        if kind == "combat":
            return self._combat(event)
        if kind == "peek":
            return (f"{self.does(player, 'looks')} at the Unit on {space(event.get('square'))}.",)
        if kind == "doom":
            return (
                f"Doom Action: {self.does(player, 'calls')} Doom; every player discards a Unit.",
            )
        if kind == "doom_discard":
            return self.say(
                f"{self.does(player, 'discards')} ",
                self.card(event["unit"]),
                f" from {space(event.get('square'))}.",
            )
        if kind == "pass":
            return (f"{self.does(player, 'takes')} no Action.",)
        if kind == "reveal":
            return self.say(
                f"{self.does(player, 'reveals')} ",
                self.card(event["unit"]),
                f" on {space(event.get('square'))}.",
            )
        if kind == "recall":
            return self.say(
                f"{self.does(player, 'returns')} ",
                self.card(event["unit"]),
                f" from the Unit Discard pile to {space(event.get('square'))}.",
            )
        if kind == "draw":
            if not event.get("card"):
                return (
                    f"Reinforcement Phase: {self.does(player, 'draws')} a Combat Reinforcement.",
                )
            return self.say(
                f"Reinforcement Phase: {self.does(player, 'draws')} ", self.card(event["card"]), "."
            )
        if kind == "resolve":
            return self.say(f"{self.does(player, 'resolves')} ", self.card(event["card"]), ".")
        if kind == "ignore":
            return self.say(
                f"{self.does(player, 'ignores')} and {self.verb(player, 'discards')} ",
                self.card(event["card"]),
                ".",
            )
        if kind == "reshuffle":
            return (
                f"The Reinforcement Discard pile is shuffled into a new Reinforcement Deck "
                f"({plural(int(event.get('cards', 0)), 'card')}).",
            )
        if kind == "eradicated":
            return (
                f"{self.who(player)} {'are' if self.who(player) == 'You' else 'is'} "
                "eradicated from the game.",
            )
        if kind == "game_over":
            reason = self.end_reason(event.get("reason"))
            if isinstance(player, int) and player >= 0:
                return (f"{self.does(player, 'wins')}: {reason}.",)
            return (f"The game ends: {reason}.",)
        return super().describe(event)

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
