"""Rival Realms' table: each realm's field with its units' attack, defense and damage, Life and
Supply, hand and deck counts, discard and lost piles, and the combat in progress. Built from
``observation`` so a seat never sees the rival's hand."""

from __future__ import annotations

from typing import Any

from rules.engines.core.table import backs, card, counter, phase_words, seat, table, viewers, zone
from rules.engines.rival_realms.state import RealmsState

PHASES = {
    "deploy": "Deploy",
    "attack": "Declare attackers",
    "defend": "Declare blockers",
    "resolve_attacker": "Attacker reinforces",
    "resolve_defender": "Defender reinforces",
    "damage": "Damage",
    "redraw": "Redraw",
}


def _keys(keys: list[str], owner: int) -> list[dict[str, Any]]:
    return [card(key, owner=owner) for key in keys]


def realms_table(state: RealmsState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` seen by ``viewer`` (None: both hands open)."""
    views = {p: state.observation(p) for p in viewers(2, viewer)}
    public = next(iter(views.values()))
    attackers = set(public["combat"]["attackers"])
    seats = []
    for p in (0, 1):
        own = views.get(p)
        hand = _keys(own["hand"], p) if own is not None else backs(public["rival_hand"], p)
        field = [
            card(
                unit["card"],
                owner=p,
                notes=[
                    f"{unit['attack']}/{unit['defense']}",
                    *([f"{unit['damage']} damage"] if unit["damage"] else []),
                    *([f"{unit['shield']} shield"] if unit["shield"] else []),
                    *(
                        ["attacking"]
                        if unit["card"] in attackers and p == public["active_player"]
                        else []
                    ),
                ],
            )
            for unit in public["fields"][p]
        ]
        for slot, unit in enumerate(field):
            unit["pick"] = f"field{p}:{slot}"  # a unit by its place: two copies, two targets
        seats.append(
            seat(
                p,
                f"Player {p + 1}",
                active=public["active_player"] == p,
                counters=[
                    counter("Life", public["life"][p]),
                    counter("Supply", public["supply"][p]),
                    counter("Hand", len(hand)),
                    counter("Deck", public["draw_decks"][p]),
                ],
                zones=[
                    zone("field", "Field", field),
                    zone("hand", "Hand", hand),
                    zone("deck", "Draw deck", [], count=public["draw_decks"][p]),
                    zone("discard", "Discard pile", _keys(public["discard_decks"][p], p)),
                    zone("lost", "Lost", _keys(public["lost_decks"][p], p)),
                ],
            )
        )
    shared = []
    if public["being_played"]:
        shared.append(zone("stack", "Being played", _keys(public["being_played"], -1)))
    if public["combat"]["reinforce_cards"]:
        shared.append(
            zone("reinforce", "Combat cards", _keys(public["combat"]["reinforce_cards"], -1))
        )
    return table(
        viewer,
        counters=[
            counter("Turn", public["turn"]),
            counter("Phase", PHASES.get(public["phase"], phase_words(public["phase"]))),
        ],
        seats=seats,
        shared=shared,
    )
