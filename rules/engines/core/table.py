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
    viewer: int | None,
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
