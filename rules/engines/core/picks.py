"""Click paths: every legal action as the table elements a player clicks to take it.

The play page lets a player act by clicking what an action acts on (a card in hand, a card or
unit on the table, a square, then a target) instead of reading a list of buttons. Each element
of a table (``rules.engines.core.table``) carries a *pick*: a short token without spaces naming
it ("hand0:village-green", "card:17", "cell:b2"). A game's plugin maps each legal action to the
sequence of picks it is taken by (``GamePlugin.action_picks``); this module gives every table
element its pick, checks each path against the table, and makes the paths *unambiguous*: one
path per action, none the beginning of another, so a page matches clicks against the paths and
submits the one action they lead to with no rule of any game in its script.

Where an action's path does not tell it from another one (two actions on the same card), or
names something the table does not show (a card in a hidden hand), the path ends with a
*control*: a pick ``do:…`` the page draws as a labelled chip on the table, worded by the action.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

#: the prefix of a pick drawn as a labelled control on the table rather than found on it
CONTROL = "do:"


def card_pick(zone_id: str, seat: int | None, key: str) -> str:
    """The default pick of a card ``key`` in zone ``zone_id`` of ``seat`` (None: shared)."""
    return f"{zone_id}{'' if seat is None else seat}:{key}"


def cell_pick(label: str) -> str:
    """The default pick of a board cell labelled ``label``."""
    return "cell:" + "-".join(label.split())


def control(name: str) -> str:
    """A control pick ``do:name`` (spaces made dashes: a pick holds none)."""
    return CONTROL + "-".join(str(name).split())


def assign_picks(model: dict[str, Any]) -> dict[str, Any]:
    """Give every card of the table whose key the viewer sees, and every board cell, its
    ``pick`` (keeping one its builder set); returns ``model`` itself."""
    for holder in model["shared"]:
        for entry in holder["cards"]:
            if entry["key"] is not None and not entry.get("pick"):
                entry["pick"] = card_pick(holder["id"], None, entry["key"])
    for seat in model["seats"]:
        for holder in seat["zones"]:
            for entry in holder["cards"]:
                if entry["key"] is not None and not entry.get("pick"):
                    entry["pick"] = card_pick(holder["id"], seat["seat"], entry["key"])
    if model["grid"]:
        for cell in model["grid"]["cells"]:
            if not cell.get("pick"):
                cell["pick"] = cell_pick(cell["label"])
    return model


def table_picks(model: Mapping[str, Any]) -> set[str]:
    """Every pick the table shows (cards and cells)."""
    found: set[str] = set()
    zones = [*model["shared"], *(z for s in model["seats"] for z in s["zones"])]
    cells = model["grid"]["cells"] if model["grid"] else []
    for holder in zones:
        found.update(c["pick"] for c in holder["cards"] if c.get("pick"))
    for cell in cells:
        if cell.get("pick"):
            found.add(cell["pick"])
            found.update(c["pick"] for c in cell["cards"] if c.get("pick"))
    return found


def find_key(model: Mapping[str, Any], key: str, viewer: int | None) -> str | None:
    """The pick of a card ``key`` on the table, looked for in the viewer's own zones first,
    then the shared zones, the board and the other seats; None when it is nowhere in sight."""
    seats = sorted(model["seats"], key=lambda s: s["seat"] != viewer)
    holders: list[Mapping[str, Any]] = [*seats[:1][0]["zones"]] if seats else []
    holders += list(model["shared"])
    if model["grid"]:
        for cell in model["grid"]["cells"]:
            if any(c["key"] == key for c in cell["cards"]):
                return str(cell["pick"])
    for other in seats[1:]:
        holders += list(other["zones"])
    for holder in holders:
        for entry in holder["cards"]:
            if entry["key"] == key and entry.get("pick"):
                return str(entry["pick"])
    return None


def settle(
    paths: Sequence[Sequence[str]], shown: set[str], words: Callable[[int], str]
) -> list[tuple[tuple[str, ...], dict[str, str]]]:
    """Make ``paths`` (one per legal action) unambiguous against the table's picks ``shown``.

    A path is cut before the first pick the table does not show; a path that is the same as
    another one or the beginning of another one gets a control of its own, worded by
    ``words(index)`` (the action's button words). Returns per action its path and the labels
    of the controls it uses (pick -> words)."""
    settled: list[list[str]] = []
    labels: list[dict[str, str]] = []
    for index, path in enumerate(paths):
        kept: list[str] = []
        own: dict[str, str] = {}
        for pick in path:
            if pick.startswith(CONTROL) or pick in shown:
                kept.append(pick)
            else:
                break
        if len(kept) < len(path):
            end = control(f"a{index}")
            kept.append(end)
            own[end] = words(index)
        settled.append(kept)
        labels.append(own)
    for index, path in enumerate(settled):
        clash = any(
            other != index and settled[other][: len(path)] == path for other in range(len(settled))
        )
        if clash or not path:
            end = control(f"a{index}")
            path.append(end)
            labels[index][end] = words(index)
    return [(tuple(path), own) for path, own in zip(settled, labels, strict=True)]


def ambiguities(paths: Iterable[Sequence[str]]) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Pairs of paths where one is the other or begins it (empty: the paths are unambiguous)."""
    found = []
    listed = [tuple(path) for path in paths]
    for i, first in enumerate(listed):
        for j, second in enumerate(listed):
            if i != j and second[: len(first)] == first:
                found.append((first, second))
    return found
