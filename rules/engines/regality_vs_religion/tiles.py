"""The built-in copy of the Regality vs Religion tile records (pure-Python use, no database).

It mirrors ``fixtures/regality-vs-religion/cards/tiles.yaml`` record for record; a test loads the
fixture through the database adapter and proves the two agree. Powers are data in the effect
language described in ``docs/rules/regality-vs-religion.md``: a ``kind`` (what happens), a
``timing`` (active / passive / placement / end) and a ``target`` (a ``zone`` plus, on the board,
``groups`` of directions seen from the tile's controller: one group is chosen, every tile in it is
affected; ``reach`` ``adjacent`` for dots, ``line`` for arrows).
"""

from __future__ import annotations

from typing import Any

ORTHOGONAL = ["N", "E", "S", "W"]
DIAGONAL = ["NE", "SE", "SW", "NW"]
EIGHT = ["N", "NE", "E", "SE", "S", "SW", "W", "NW"]


def _each(directions: list[str]) -> list[list[str]]:
    return [[d] for d in directions]


def _board(kind: str, groups: list[list[str]], reach: str = "adjacent", **extra: Any) -> dict:
    return {
        "kind": kind,
        "timing": "active",
        "target": {"zone": "board", "reach": reach, "groups": groups, **extra},
    }


SHIELD = {"kind": "shield", "timing": "passive", "target": {"zone": "self"}}

# (regality name, religion name, effects, power type, rules text)
SIDED: list[tuple[str, str, list[dict], str, str]] = [
    (
        "King",
        "Hierophant",
        [_board("destroy", _each(EIGHT))],
        "active",
        "Destroy one adjacent tile, in any of the eight directions.",
    ),
    (
        "Queen",
        "Cardinal",
        [_board("turn", _each(EIGHT), reach="line")],
        "active",
        "Turn every tile in one of the eight directions, up to the edge of the board.",
    ),
    (
        "Princess",
        "Saint",
        [_board("turn", [ORTHOGONAL, DIAGONAL])],
        "active",
        "Turn either all four orthogonal neighbours or all four diagonal neighbours.",
    ),
    (
        "Minister",
        "Bishop",
        [_board("turn", _each(EIGHT))],
        "active",
        "Turn one adjacent tile, in any of the eight directions.",
    ),
    (
        "General",
        "Paladin",
        [_board("destroy", _each(ORTHOGONAL))],
        "active",
        "Destroy one orthogonally adjacent tile.",
    ),
    (
        "Wizard",
        "Monk",
        [_board("destroy", _each(DIAGONAL))],
        "active",
        "Destroy one diagonally adjacent tile.",
    ),
    ("Castle", "Temple", [SHIELD], "passive", "Shielded: no effect can touch this tile."),
]

# (name, effects, power type, rules text)
NEUTRAL: list[tuple[str, list[dict], str, str]] = [
    ("Citizen", [], "none", "No power. The starting player places it first."),
    (
        "Samurai",
        [_board("banish", _each(ORTHOGONAL))],
        "active",
        "Banish one orthogonally adjacent tile.",
    ),
    (
        "Ninja",
        [_board("banish", _each(DIAGONAL))],
        "active",
        "Banish one diagonally adjacent tile.",
    ),
    (
        "Bard",
        [_board("reenact", _each(ORTHOGONAL))],
        "active",
        "Re-enact the active power of one orthogonally adjacent tile.",
    ),
    (
        "Performer",
        [_board("reenact", _each(DIAGONAL))],
        "active",
        "Re-enact the active power of one diagonally adjacent tile.",
    ),
    (
        "Shaman",
        [
            {
                "kind": "negate",
                "timing": "passive",
                "target": {"zone": "board", "reach": "adjacent", "groups": [ORTHOGONAL]},
            }
        ],
        "passive",
        "Tiles placed on the four orthogonally adjacent spaces lose their active power.",
    ),
    (
        "Sorceress",
        [
            {
                "kind": "negate",
                "timing": "passive",
                "target": {"zone": "board", "reach": "adjacent", "groups": [DIAGONAL]},
            }
        ],
        "passive",
        "Tiles placed on the four diagonally adjacent spaces lose their active power.",
    ),
    (
        "Sage",
        [
            {
                "kind": "protect",
                "timing": "passive",
                "target": {"zone": "board", "reach": "adjacent", "groups": [["W", "E"]]},
            }
        ],
        "passive",
        "The tiles to its left and right are shielded.",
    ),
    (
        "Fortuneteller",
        [_board("turn", [["NW", "N", "NE"]])],
        "active",
        "Turn the three tiles ahead of it (straight ahead and both forward diagonals).",
    ),
    (
        "Fairy",
        [
            {
                "kind": "transport",
                "timing": "active",
                "target": {"zone": "board", "reach": "any", "to": "empty"},
            }
        ],
        "active",
        "Move any tile on the board to an empty space.",
    ),
    (
        "Assassin",
        [{"kind": "banish", "timing": "active", "target": {"zone": "opponent-area"}}],
        "active",
        "Banish one tile from the opponent's area.",
    ),
    (
        "Hermit",
        [{"kind": "recall", "timing": "active", "target": {"zone": "discard"}}],
        "active",
        "Take one tile from the discard pile into your area.",
    ),
    (
        "Pirate",
        [_board("destroy", _each(EIGHT), only_shielded=True, ignores_shield=True)],
        "active",
        "Destroy one adjacent shielded tile; the shield does not stop it.",
    ),
    ("Dragon", [_board("turn", [EIGHT])], "active", "Turn all eight surrounding tiles."),
    (
        "Tower",
        [
            {"kind": "cover", "timing": "placement", "target": {"zone": "board", "filter": "ally"}},
            SHIELD,
        ],
        "passive",
        "Placed on top of one of your allies, which loses its power. Shielded.",
    ),
    (
        "Witch",
        [{"kind": "recall", "timing": "active", "target": {"zone": "board", "filter": "ally"}}],
        "active",
        "Take one of your allies from the board back into your area.",
    ),
    (
        "Death",
        [{"kind": "lose", "timing": "end", "target": {"zone": "self", "filter": "ally"}}],
        "passive",
        "At the end of the game, the player who has this tile as an ally loses.",
    ),
]


def builtin_records() -> list[dict[str, Any]]:
    """Return every tile as a ``Card.record()``-shaped dict, in fixture order."""
    records: list[dict[str, Any]] = []
    for branch, index in (("regality", 0), ("religion", 1)):
        for pair in SIDED:
            name, other = pair[index], pair[1 - index]
            records.append(
                {
                    "name": name,
                    "type": "tile",
                    "subtypes": [],
                    "branch": branch,
                    "set": "RVR1",
                    "stats": {"power_type": pair[3], "counterpart": other},
                    "effects": pair[2],
                }
            )
    for name, effects, power_type, _text in NEUTRAL:
        records.append(
            {
                "name": name,
                "type": "tile",
                "subtypes": [],
                "branch": "neutral",
                "set": "RVR1",
                "stats": {"power_type": power_type},
                "effects": effects,
            }
        )
    return records
