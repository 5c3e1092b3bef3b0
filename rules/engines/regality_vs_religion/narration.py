"""Regality vs Religion events in words: tiles by name, the nine spaces of the board by where
they lie ("the top-left space", "the centre space"), as "How to play" and "Tile effects and
icons" speak of spaces."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core.narration import CardRef, Narrator, Part, listing

Event = Mapping[str, Any]
Said = tuple[Part, ...] | None

#: the engine's columns a-c and ranks 1-3 as the board is drawn (the table view, Regality's side
#: nearest: rank 1 at the bottom, ``board.py``)
COLUMNS = {"a": "left", "b": "middle", "c": "right"}
ROWS = {"1": "bottom", "2": "middle", "3": "top"}


def where(event: Event) -> str:
    """The space an event's ``cell`` names, in words."""
    return space(event.get("cell"))


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

    subject_key = "tile"
    needs_subject = frozenset(
        (
            "pick", "place", "cover", "negated", "decline", "banish", "reenact", "transport",
            "recall", "assassinate", "removed",
        )
    )  # fmt: skip

    def describe_game_start(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        variant = str(event.get("variant", "standard")).replace("-", " ")
        starts = str(event.get("starts", "")).title()
        return (f"A {variant} game; {starts} ({self.whom(player)}) starts.",)

    def describe_order(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        return (f"{str(event.get('starts', '')).title()} starts.",)

    def describe_pick(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'picks')} ", tile, ".")

    def describe_keep(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        return (f"{self.does(player, 'keeps')} a tile secret.",)

    def describe_place(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'places')} ", tile, f" on {where(event)}.")

    def describe_cover(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(tile, " covers ", self.card(event["covered"]), f" on {where(event)}.")

    def describe_negated(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(tile, f" on {where(event)} is negated: its effect does not apply.")

    def describe_decline(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'does')} not use the effect of ", tile, ".")

    def describe_turn(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        spaces = listing([space(c) for c in event.get("cells") or []])
        return (f"{self.does(player, 'turns')} the tiles on {spaces}.",)

    def describe_destroy(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        spaces = listing([space(c) for c in event.get("cells") or []])
        return self.say(
            f"{self.does(player, 'destroys')} ",
            self.cards(event.get("tiles") or []),
            f" on {spaces}: face down until removed.",
        )

    def describe_banish(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'banishes')} ", tile, f" from {where(event)}.")

    def describe_reenact(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'reenacts')} ", tile, f" on {where(event)}.")

    def describe_transport(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(
            f"{self.does(player, 'transports')} ",
            tile,
            f" from {where(event)} to {space(event.get('to'))}.",
        )

    def describe_recall(self, event: Event, player: Any, tile: CardRef) -> Said:
        origin = "the discard pile" if event.get("zone") == "discard" else where(event)
        return self.say(f"{self.does(player, 'recalls')} ", tile, f" from {origin}.")

    def describe_assassinate(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say(f"{self.does(player, 'assassinates')} ", tile, ".")

    def describe_removed(self, event: Event, player: Any, tile: CardRef) -> Said:
        return self.say("The destroyed ", tile, f" is removed from {where(event)}.")

    def describe_position(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        return ("The game starts from a set position.",)

    def describe_game_end(self, event: Event, player: Any, tile: CardRef | None) -> Said:
        reason = self.end_reason(event.get("reason"))
        winner = event.get("winner")
        if not winner:
            return (f"The game ends in a draw: {reason}.",)
        return (f"{str(winner).title()} wins: {reason}.",)
