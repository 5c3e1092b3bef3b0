"""A game's table as plain data: what a page draws for one position, seen by one seat or open.

A game declares ``GamePlugin.table_builder`` ("module:function"); the function turns an engine
state and a viewer into a ``table`` mapping of plain JSON-ready values, so the shared page code
names no game. A seat's table is built from ``State.observation(seat)`` for everything hidden
(hands, piles, face-down tiles and units), so it can hold no card that seat cannot see; the open
view (``viewer=None``, for replays of finished games) shows each seat's own private cards as that
seat sees them, and piles whose order nobody knows only as counts.

The shape, every key always present:

- ``viewer``: the seat the table is seen from, or None for the open view;
- ``counters``: the game-wide figures (turn, phase, whose turn ...), each ``{"label", "value"}``;
- ``seats``: per seat ``{"seat", "name", "active", "counters", "zones"}``;
- ``shared``: zones that belong to nobody (a supply row, a lineup, villains);
- ``grid``: None, or ``{"columns", "rows", "cells"}`` where every cell is ``{"label",
  "column", "row", "cards"}`` (1-based positions) for games played on a board.

A zone is ``{"id", "name", "cards", "count", "beside_choices"}``: ``count`` is how many cards
it holds, which is more than ``len(cards)`` when only the count is known (a deck);
``beside_choices`` marks a zone of the viewer's own seat holding what its open decision is about
(the unit it is placing), which the play page shows again next to the choices. A card is ``{"key", "name",
"face_down", "notes", "owner"}``; a face-down card's ``key`` and ``name`` are None unless the
viewer may see them, in which case ``face_down`` still says the table shows its back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import Any

from rules.engines.core.api import State

#: a game's table function: ``(state, viewer) -> table`` (viewer None: the open view)
TableBuilder = Callable[[State, int | None], dict[str, Any]]


def card_name(key: str) -> str:
    """A card key in words, for when no card record names it ("queen-cardinal" -> "Queen Cardinal")."""
    return key.replace("-", " ").title()


def card(
    key: str | None,
    *,
    name: str | None = None,
    face_down: bool = False,
    notes: Iterable[str] = (),
    owner: int | None = None,
) -> dict[str, Any]:
    """One card (or tile, or unit) on the table; ``key`` None for a back nobody here may see."""
    if key is not None and name is None:
        name = card_name(key)
    return {
        "key": key,
        "name": name if key is not None else None,
        "face_down": face_down or key is None,
        "notes": [str(note) for note in notes],
        "owner": owner,
    }


def backs(count: int, owner: int | None = None) -> list[dict[str, Any]]:
    """``count`` face-down cards nobody here may see."""
    return [card(None, owner=owner) for _ in range(count)]


def zone(
    zone_id: str,
    name: str,
    cards: Sequence[dict[str, Any]] = (),
    *,
    count: int | None = None,
    beside_choices: bool = False,
) -> dict[str, Any]:
    """A named zone holding ``cards`` (``count`` when more are there than shown: a deck);
    ``beside_choices``: what the viewer's open decision is about, shown again by its choices."""
    return {
        "id": zone_id,
        "name": name,
        "cards": list(cards),
        "count": len(cards) if count is None else count,
        "beside_choices": beside_choices,
    }


def counter(label: str, value: Any) -> dict[str, str]:
    """A named figure ("LP", "40")."""
    return {"label": label, "value": str(value)}


def seat(
    index: int,
    name: str,
    *,
    active: bool = False,
    counters: Sequence[dict[str, str]] = (),
    zones: Sequence[dict[str, Any]] = (),
) -> dict[str, Any]:
    """One seat's side of the table."""
    return {
        "seat": index,
        "name": name,
        "active": active,
        "counters": list(counters),
        "zones": list(zones),
    }


def table(
    viewer: int | str | None,
    *,
    counters: Sequence[dict[str, str]] = (),
    seats: Sequence[dict[str, Any]] = (),
    shared: Sequence[dict[str, Any]] = (),
    grid: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A whole table (see the module docstring for its shape)."""
    return {
        "viewer": viewer,
        "counters": list(counters),
        "seats": list(seats),
        "shared": list(shared),
        "grid": grid,
    }


def grid(
    columns: int, rows: int, cells: Sequence[dict[str, Any]], *, labels: bool = True
) -> dict[str, Any]:
    """A board of ``columns`` x ``rows`` cells (each ``{"label", "column", "row", "cards"}``)."""
    return {"columns": columns, "rows": rows, "cells": list(cells), "labels": labels}


def viewers(players: int, viewer: int | None) -> list[int]:
    """The seats whose own view a table uses for their private zones: the viewer, or all."""
    return list(range(players)) if viewer is None else [viewer]


def phase_words(code: str) -> str:
    """An engine phase code in words ("resolve_attacker" -> "Resolve attacker")."""
    return code.replace("_", " ").replace("-", " ").capitalize()


def table_keys(model: dict[str, Any]) -> list[str]:
    """Every card key a table shows (tests check a seat never gets one it may not see)."""
    found: list[str] = []
    zones = [*model["shared"], *(z for s in model["seats"] for z in s["zones"])]
    cells = model["grid"]["cells"] if model["grid"] else []
    for holder in [*zones, *cells]:
        found.extend(c["key"] for c in holder["cards"] if c["key"] is not None)
    return found


#: the viewer of a public table (``public_table``): no seat, so every private zone is backs
PUBLIC = "public"


def _signature(shown: dict[str, Any]) -> tuple[Any, ...]:
    return (shown["key"], shown["name"], shown["face_down"], tuple(shown["notes"]), shown["owner"])


def _public_cards(lists: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The cards of one zone as every seat sees them alike, in the first seat's order, then a
    back for each card some seat sees otherwise (its own hand, a tile kept secret): the backs
    come last, since where a hidden card sits among the others can tell what it is (a seat's
    own area is sorted by tile)."""
    common: dict[tuple[Any, ...], int] | None = None
    for cards in lists:
        counts: dict[tuple[Any, ...], int] = {}
        for shown in cards:
            counts[_signature(shown)] = counts.get(_signature(shown), 0) + 1
        common = (
            counts if common is None else {k: min(n, counts.get(k, 0)) for k, n in common.items()}
        )
    common = common or {}
    kept, hidden = [], []
    for shown in lists[0][: min(len(cards) for cards in lists)]:
        sig = _signature(shown)
        if common.get(sig, 0) > 0:
            common[sig] -= 1
            kept.append(
                card(
                    shown["key"],
                    name=shown["name"],
                    face_down=shown["face_down"],
                    notes=shown["notes"],
                    owner=shown["owner"],
                )
            )
        else:
            hidden.append(card(None, owner=shown["owner"]))
    return kept + hidden


def _public_zones(zone_lists: Sequence[Sequence[dict[str, Any]]]) -> list[dict[str, Any]]:
    """The zones every seat's table has, each with only what all seats see alike (a zone only
    one seat's table holds, such as what it passed, is private to that seat and left out)."""
    out = []
    for first in zone_lists[0]:
        same = [next((z for z in zones if z["id"] == first["id"]), None) for zones in zone_lists]
        if any(z is None for z in same):
            continue
        found = [z for z in same if z is not None]
        counts = {z["count"] for z in found}
        cards = _public_cards([z["cards"] for z in found])
        count = counts.pop() if len(counts) == 1 else len(cards)
        out.append(zone(first["id"], first["name"], cards, count=max(count, len(cards))))
    return out


def _public_counters(counter_lists: Sequence[Sequence[dict[str, str]]]) -> list[dict[str, str]]:
    return [c for c in counter_lists[0] if all(c in counters for counters in counter_lists)]


def _public_grid(grids: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The board every seat's table shows: the cells all of them show (matched by label: a
    board may reach further for the seat that can act beyond it, Reign Absolute's squares to
    move to), renumbered from the top left of what remains, each with the cards all name."""
    first = grids[0]
    by_label = [{cell["label"]: cell for cell in g["cells"]} for g in grids]
    common = [c for c in first["cells"] if all(c["label"] in cells for cells in by_label)]
    if not common:
        return grid(0, 0, [], labels=first.get("labels", True))
    left = min(int(c["column"]) for c in common)
    top = min(int(c["row"]) for c in common)
    cells = []
    for cell in common:
        lists = [cells_of[cell["label"]]["cards"] for cells_of in by_label]
        kept = {k: v for k, v in cell.items() if k != "cards"}
        kept["column"] = int(cell["column"]) - left + 1
        kept["row"] = int(cell["row"]) - top + 1
        cells.append({**kept, "cards": _public_cards(lists)})
    columns = max(int(c["column"]) for c in cells)
    rows = max(int(c["row"]) for c in cells)
    return grid(columns, rows, cells, labels=first.get("labels", True))


def public_table(seat_tables: Sequence[dict[str, Any]]) -> dict[str, Any]:
    """The table nobody holds privately, from every seat's own table of one position: a card
    is named only when every seat's table names it alike, so a hand (seen by its holder only)
    is backs, a deck a count, and a zone or figure one seat's table alone shows is left out.
    Whatever a seat's observation hides from it cannot reach this table, and whatever is hidden
    from any seat is hidden here: re-dealing it changes nothing (tests/web/
    test_friend_spectators.py). The rules are untouched; each game's ``observation`` already
    says what a seat sees."""
    first = seat_tables[0]
    seats = []
    for index, shown in enumerate(first["seats"]):
        others = [t["seats"][index] for t in seat_tables]
        seats.append(
            seat(
                shown["seat"],
                shown["name"],
                active=shown["active"],
                counters=_public_counters([s["counters"] for s in others]),
                zones=_public_zones([s["zones"] for s in others]),
            )
        )
    board = None
    if first["grid"] is not None:
        board = _public_grid([t["grid"] for t in seat_tables])
    return table(
        PUBLIC,
        counters=_public_counters([t["counters"] for t in seat_tables]),
        seats=seats,
        shared=_public_zones([t["shared"] for t in seat_tables]),
        grid=board,
    )
