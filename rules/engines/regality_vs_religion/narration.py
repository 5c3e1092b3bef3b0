"""Regality vs Religion events in words: tiles by name, the nine spaces of the board by where
they lie ("the top-left space", "the centre space"), as "How to play" and "Tile effects and
icons" speak of spaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import Narrator, Part, listing

#: the engine's columns a-c and ranks 1-3 as the board is drawn (the table view, Regality's side
#: nearest: rank 1 at the bottom, ``board.py``)
COLUMNS = {"a": "left", "b": "middle", "c": "right"}
ROWS = {"1": "bottom", "2": "middle", "3": "top"}


def space(cell: Any) -> str:
    """A board cell in words: ``a1`` -> "the bottom-left space", ``b2`` -> "the centre space"."""
    text = str(cell)
    column, row = COLUMNS.get(text[:1]), ROWS.get(text[1:])
    if column is None or row is None:
        return "a space of the board"
    if column == row == "middle":
        return "the centre space"
    return f"the {row}-{column} space"


class RegalityVsReligionNarrator(Narrator):
    """Two sides (Regality and Religion) placing tiles on a 3x3 board."""

    def describe(self, event: Mapping[str, Any]) -> tuple[Part, ...] | None:
        """One Regality vs Religion event in words."""
        kind, player = event.get("kind"), event.get("player")
        tile = self.card(event["tile"]) if event.get("tile") else None
        where = space(event.get("cell"))
        if kind == "game-start":
            variant = str(event.get("variant", "standard")).replace("-", " ")
            starts = str(event.get("starts", "")).title()
            return (f"A {variant} game; {starts} ({self.whom(player)}) starts.",)
        if kind == "order":
            return (f"{str(event.get('starts', '')).title()} starts.",)
        if kind == "pick" and tile:
            return self.say(f"{self.does(player, 'picks')} ", tile, ".")
        if kind == "keep":
            return (f"{self.does(player, 'keeps')} a tile secret.",)
        if kind == "place" and tile:
            return self.say(f"{self.does(player, 'places')} ", tile, f" on {where}.")
        if kind == "cover" and tile:
            return self.say(tile, " covers ", self.card(event["covered"]), f" on {where}.")
        if kind == "negated" and tile:
            return self.say(tile, f" on {where} is negated: its effect does not apply.")
        if kind == "decline" and tile:
            return self.say(f"{self.does(player, 'does')} not use the effect of ", tile, ".")
        if kind == "turn":
            spaces = listing([space(c) for c in event.get("cells") or []])
            return (f"{self.does(player, 'turns')} the tiles on {spaces}.",)
        if kind == "destroy":
            spaces = listing([space(c) for c in event.get("cells") or []])
            return self.say(
                f"{self.does(player, 'destroys')} ",
                self.cards(event.get("tiles") or []),
                f" on {spaces}: face down until removed.",
            )
        if kind == "banish" and tile:
            return self.say(f"{self.does(player, 'banishes')} ", tile, f" from {where}.")
        if kind == "reenact" and tile:
            return self.say(f"{self.does(player, 'reenacts')} ", tile, f" on {where}.")
        if kind == "transport" and tile:
            return self.say(
                f"{self.does(player, 'transports')} ",
                tile,
                f" from {where} to {space(event.get('to'))}.",
            )
        if kind == "recall" and tile:
            origin = "the discard pile" if event.get("zone") == "discard" else where
            return self.say(f"{self.does(player, 'recalls')} ", tile, f" from {origin}.")
        if kind == "assassinate" and tile:
            return self.say(f"{self.does(player, 'assassinates')} ", tile, ".")
        if kind == "removed" and tile:
            return self.say("The destroyed ", tile, f" is removed from {where}.")
        if kind == "position":
            return ("The game starts from a set position.",)
        if kind == "game-end":
            reason = self.end_reason(event.get("reason"))
            winner = event.get("winner")
            if not winner:
                return (f"The game ends in a draw: {reason}.",)
            return (f"{str(winner).title()} wins: {reason}.",)
        return super().describe(event)
