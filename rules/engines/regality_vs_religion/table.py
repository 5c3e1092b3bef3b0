"""Regality vs Religion's table: the 3x3 board with each tile, the side it allies with, face-down
tiles and the tiles they cover, each side's area (its hand of tiles; the rival's secret tiles as
backs), the tiles a seat passed to its rival in a secret draft (to that seat), the neutral area,
the offer and the discard. Built from ``observation`` so a seat never sees the rival's secret
tiles."""

from __future__ import annotations

from typing import Any

from rules.engines.core.table import (
    backs,
    card,
    counter,
    grid,
    phase_words,
    seat,
    table,
    viewers,
    zone,
)
from rules.engines.regality_vs_religion.board import CELL_NAMES
from rules.engines.regality_vs_religion.game import SIDE_NAMES, RvRState


def _tile(entry: dict[str, Any]) -> dict[str, Any]:
    notes = [f"ally of {entry['ally_of']}"]
    if entry["face_down"]:
        notes.append("face down")
    if "covers" in entry:
        notes.append(f"covers {entry['covers'].replace('-', ' ')}")
    return card(entry["tile"], face_down=entry["face_down"], notes=notes)


def _passed(view: dict[str, Any] | None, player: int) -> list[dict[str, Any]]:
    """The tiles a seat passed to its rival in a secret draft (Game system options: Secret
    draft), which it saw and the rival kept one of: shown to that seat alone."""
    if not view or not view.get("passed_to_opponent"):
        return []
    tiles = [card(key, owner=player) for key in view["passed_to_opponent"]]
    return [zone("passed", "Passed to the rival (it keeps one of them, secretly)", tiles)]


def rvr_table(state: RvRState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` seen by ``viewer`` (None: both areas open)."""
    views = {p: state.observation(p) for p in viewers(2, viewer)}
    public = next(iter(views.values()))
    looker = next(iter(views))
    placed = {entry["cell"]: entry for entry in public["board"]}
    cells = []
    for name in CELL_NAMES:
        entry = placed.get(name)
        cells.append(
            {
                "label": name,
                "column": "abc".index(name[0]) + 1,
                "row": 4 - int(name[1]),
                "cards": [_tile(entry)] if entry else [],
            }
        )
    seats = []
    for p in (0, 1):
        if p in views:
            area = [card(key, owner=p) for key in views[p]["own_area"]]
        else:
            rival = views[looker]
            area = [card(key, owner=p) for key in rival["opponent_area"]]
            area += backs(rival["opponent_hidden"], p)
        seats.append(
            seat(
                p,
                SIDE_NAMES[p].title(),
                active=public["to_move"] == SIDE_NAMES[p],
                counters=[
                    counter("Allies", public["allies"][SIDE_NAMES[p]]),
                    counter("Tiles in area", len(area)),
                ],
                zones=[zone("area", "Tiles in area", area), *_passed(views.get(p), p)],
            )
        )
    offer = [card(key) for key in public["offer"]]
    if not offer and public["offer_size"]:
        offer = backs(public["offer_size"])
    counters = [
        counter("Phase", phase_words(public["phase"])),
        counter("To move", (public["to_move"] or "nobody").title()),
        counter("Placements", public["placements"]),
    ]
    if "match" in public:
        wins = public["match"]["wins"]
        counters.append(counter("Match", ", ".join(f"{s.title()} {w}" for s, w in wins.items())))
    return table(
        viewer,
        counters=counters,
        seats=seats,
        shared=[
            zone("neutral", "Neutral area", [card(key) for key in public["neutral_area"]]),
            zone("offer", "Offer", offer),
            zone("discard", "Discard", [card(key) for key in public["discard"]]),
        ],
        grid=grid(3, 3, cells),
    )
