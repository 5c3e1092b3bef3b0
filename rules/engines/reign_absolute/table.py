"""Reign Absolute's table: the battlefield as a grid around the occupied squares, each unit with
its owner and reinforcements (a unit the viewer does not know shows its back), each player's
faction, Liege standing, faction deck and unit discard, and the Reinforcement deck. Built from
``observation`` so a seat sees only the units it knows."""

from __future__ import annotations

from typing import Any

from rules.engines.core.table import card, counter, grid, seat, table, viewers, zone
from rules.engines.reign_absolute.narration import space
from rules.engines.reign_absolute.state import ReignState


def reign_table(state: ReignState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` seen by ``viewer`` (None: each unit as its owner sees it)."""
    players = state.n
    views = {p: state.observation(p) for p in viewers(players, viewer)}
    public = next(iter(views.values()))
    units: dict[tuple[int, int], dict[str, Any]] = {}
    for entry in public["battlefield"]:
        x, y = entry["square"]
        owner = entry["owner"]
        # the open view takes each unit from its owner's own view, who always knows it
        seen = views.get(owner, public)
        mine = next(e for e in seen["battlefield"] if e["square"] == entry["square"])
        notes = [f"player {owner + 1}"]
        if entry["reinforcements"]:
            count = entry["reinforcements"]
            notes.append(f"{count} reinforcement{'s' if count > 1 else ''}")
        if entry["moved"]:
            notes.append("moved")
        units[(x, y)] = card(mine["unit"], owner=owner, notes=notes)
    xs = [x for x, _ in units] or [0]
    ys = [y for _, y in units] or [0]
    left, right, bottom, top = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    cells = [
        {
            "label": space((x, y)),
            "column": x - left + 1,
            "row": top - y + 1,
            "cards": [units[(x, y)]] if (x, y) in units else [],
        }
        for y in range(top, bottom - 1, -1)
        for x in range(left, right + 1)
    ]
    seats = [
        seat(
            p,
            f"Player {p + 1}",
            active=public["active_player"] == p,
            counters=[
                counter("Faction", public["factions"][p].replace("-", " ").title()),
                counter("Liege", "standing" if public["alive"][p] else "fallen"),
                counter("Faction deck", public["faction_decks"][p]),
            ],
            zones=[
                zone("faction-deck", "Faction deck", [], count=public["faction_decks"][p]),
                zone(
                    "unit-discard",
                    "Unit discard",
                    [card(key, owner=p) for key in public["unit_discards"][p]],
                ),
            ],
        )
        for p in range(players)
    ]
    return table(
        viewer,
        counters=[
            counter("Turn", public["turn"]),
            counter("Reinforcement deck", public["reinforcement_deck"]),
        ],
        seats=seats,
        shared=[
            zone(
                "reinforcement-discard",
                "Reinforcement discard",
                [card(key) for key in public["reinforcement_discard"]],
            )
        ],
        grid=grid(right - left + 1, top - bottom + 1, cells, labels=False),
    )
