"""Revolt N Reign's table: per player LP, IP, the Unconstitutional Acts with their Defense Points,
Pillars, Defense and Attack cards in play, hand and pile counts, and the phase of the turn
(rulebook, *Turn Structure* and *Resolve*). Built from ``observation`` so a seat never sees the
rival's hand."""

from __future__ import annotations

from typing import Any

from rules.engines.core.records import card_key
from rules.engines.core.table import (
    backs,
    card,
    counter,
    seat,
    table,
    viewers,
    zone,
)
from rules.engines.revolt_n_reign.cards import ATTACK, DEFENSE, PILLAR, UA
from rules.engines.revolt_n_reign.state import RevoltState

PHASES = {
    "mulligan": "Mulligans",
    "equalize": "Equalising hands",
    "play": "Playing cards",
    "respond": "The rival may respond",
    "resolve": "Resolving declared cards",
    "choose": "Choosing a target",
    "discard": "Discarding to hand size",
    "over": "Game over",
}
#: the in-play groups a player's side shows, in order: (zone id, heading, card kinds)
BOARD_ZONES = (
    ("defense", "Defense", (DEFENSE,)),
    ("attack", "Attack", (ATTACK,)),
)


def _in_play(entries: list[dict[str, Any]], owner: int) -> list[dict[str, Any]]:
    out = []
    for entry in entries:
        notes = []
        if "remaining" in entry:
            notes.append(f"{entry['remaining']} DP")
        if "locked_until_turn" in entry:
            notes.append(f"locked to turn {entry['locked_until_turn']}")
        shown = card(card_key(entry["name"]), name=entry["name"], notes=notes, owner=owner)
        if "id" in entry:
            shown["pick"] = f"card:{entry['id']}"  # two copies in play are two targets
        out.append(shown)
    return out


def _names(names: list[str], owner: int) -> list[dict[str, Any]]:
    return [card(card_key(name), name=name, owner=owner) for name in names]


def rnr_table(state: RevoltState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` seen by ``viewer`` (None: both hands open)."""
    views = {p: state.observation(p) for p in viewers(2, viewer)}
    public = next(iter(views.values()))
    seats = []
    for p in (0, 1):
        mine = views.get(p)
        side = (mine or public)["players"][p]
        hand = side["hand"]
        hand_cards = _names(hand, p) if isinstance(hand, list) else backs(hand, p)
        board = side["board"]
        kinds = {entry["id"]: state.table[entry["id"]].kind for entry in board}
        zones = [
            zone("uas", "Unconstitutional Acts", _in_play(side["uas"], p)),
            zone(
                "pillars",
                f"Pillars ({side['pillars_turned']} turned)",
                _in_play(side["pillars"], p),
            ),
        ]
        shown = {UA, PILLAR}
        for zone_id, heading, wanted in BOARD_ZONES:
            cards = [e for e in board if kinds[e["id"]] in wanted]
            zones.append(zone(zone_id, heading, _in_play(cards, p)))
            shown.update(wanted)
        others = [e for e in board if kinds[e["id"]] not in shown]
        zones.append(zone("other", "Rights, Freedoms and Bills", _in_play(others, p)))
        zones.append(zone("resolving", "Being resolved", _names(side["resolving"], p)))
        zones.append(zone("hand", "Hand", hand_cards))
        zones.append(zone("draw", "Draw pile", [], count=side["draw_pile"]))
        zones.append(zone("discard", "Discard pile", _names(side["discard_pile"], p)))
        if side["exile"]:
            zones.append(zone("exile", "Exiled", _names(side["exile"], p)))
        seats.append(
            seat(
                p,
                f"Player {p + 1}",
                active=public["active_player"] == p,
                counters=[
                    counter("LP", side["lp"]),
                    counter("IP", side["ip"]),
                    counter("Hand", len(hand) if isinstance(hand, list) else hand),
                    counter("Draw pile", side["draw_pile"]),
                ],
                zones=zones,
            )
        )
    declared = [
        card(card_key(d["card"]), name=d["card"], notes=[d["kind"]], owner=d["player"])
        for d in public["declared"]
    ]
    counters = [
        counter("Turn", public["turn"]),
        counter("Phase", PHASES.get(public["phase"], public["phase"])),
    ]
    if public["choosing"]:
        counters.append(counter("Choosing for", public["choosing"]["card"]))
    return table(
        viewer,
        counters=counters,
        seats=seats,
        shared=[zone("declared", "Declared, waiting to resolve", declared)] if declared else [],
    )
