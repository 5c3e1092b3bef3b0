"""Reign Absolute's table: the battlefield as a grid around the occupied squares, each unit with
its owner and reinforcements (a unit the viewer does not know shows its back), each player's
faction, Liege standing, faction deck and unit discard, and the Reinforcement deck. Built from
``observation`` so a seat sees only the units it knows; a seat's own units name their strength
and the Combat Reinforcements under them, and the unit (or Reinforcement) it is about to place
is shown to it alone (§Key Concepts & Mechanics, §Setup: docs/rules/reign-absolute.md)."""

from __future__ import annotations

from typing import Any

from rules.engines.core.table import card, counter, grid, seat, table, viewers, zone
from rules.engines.reign_absolute.cards import CardSpec
from rules.engines.reign_absolute.narration import space
from rules.engines.reign_absolute.state import ReignState

#: a seat's decision that puts a card only it may look at into play: its kind, the observation's
#: key naming the card, the zone's id and name
PRIVATE_PLACEMENTS = (
    ("place", "unit", "to-place", "Unit you are placing"),
    ("place_reinforcement", "card", "reinforcement-to-place", "Reinforcement you are placing"),
)


def _strength(spec: CardSpec | None) -> list[str]:
    """A unit's printed strength (and bonuses) as notes; none for a reinforcement."""
    if spec is None or not spec.faction:
        return []
    notes = [f"strength {spec.strength}"]
    if spec.attack:
        notes.append(f"+{spec.attack} attack")
    if spec.defence:
        notes.append(f"+{spec.defence} defence")
    return notes


def _placing(view: dict[str, Any], player: int, specs: dict[str, CardSpec]) -> list[dict[str, Any]]:
    """The zone of the card ``player`` is about to place, from its own view (none otherwise)."""
    decision = view.get("decision")
    if not decision or decision["player"] != player:
        return []
    for kind, field, zone_id, name in PRIVATE_PLACEMENTS:
        key = decision.get(field)
        if decision["kind"] == kind and key:
            notes = [*_strength(specs.get(key)), "only you see it"]
            placing = card(key, name=_name(key, specs), owner=player, notes=notes)
            return [zone(zone_id, name, [placing], beside_choices=True)]
    return []


def _name(key: str, specs: dict[str, CardSpec]) -> str | None:
    spec = specs.get(key)
    return spec.name if spec is not None else None


def reign_table(state: ReignState, viewer: int | None) -> dict[str, Any]:
    """The table of ``state`` seen by ``viewer`` (None: each unit as its owner sees it)."""
    players = state.n
    specs = {spec.key: spec for spec in state.table}
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
        if mine["unit"] is not None:
            notes += _strength(specs.get(mine["unit"]))
        if entry["reinforcements"]:
            count = entry["reinforcements"]
            under = mine["reinforcement_cards"] if owner in views else None
            named = f": {', '.join(_name(k, specs) or k for k in under)}" if under else ""
            notes.append(f"{count} reinforcement{'s' if count > 1 else ''}{named}")
        if entry["moved"]:
            notes.append("moved")
        units[(x, y)] = card(mine["unit"], owner=owner, notes=notes)
    to_act_on = _squares_to_act_on(state, viewer)
    xs = [x for x, _ in [*units, *to_act_on]] or [0]
    ys = [y for _, y in [*units, *to_act_on]] or [0]
    left, right, bottom, top = min(xs) - 1, max(xs) + 1, min(ys) - 1, max(ys) + 1
    cells = [
        {
            "label": space((x, y)),
            "column": x - left + 1,
            "row": top - y + 1,
            "cards": [units[(x, y)]] if (x, y) in units else [],
            "pick": f"sq:{x},{y}",
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
                *(_placing(views[p], p, specs) if p in views else []),
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


def _squares_to_act_on(state: ReignState, viewer: int | None) -> list[tuple[int, int]]:
    """The squares the viewer's legal actions name when it is to act (a march may end two
    squares away from every unit), so the board shows every square it can click."""
    if viewer is None or state.is_terminal() or state.current_player() != viewer:
        return []
    squares = []
    for action in state.legal_actions():
        numbers = [arg for arg in action.args if isinstance(arg, int)]
        squares += [(numbers[i], numbers[i + 1]) for i in range(0, len(numbers) - 1, 2)]
    return squares
