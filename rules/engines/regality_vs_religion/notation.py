"""A one-line text notation for Regality vs Religion positions (used by ``rvr_solve``).

    <board> | <regality area> | <religion area> | <neutral area> | <to move> [| <discard>]

``<board>`` lists occupied cells separated by spaces: ``cell=tile/side`` where ``side`` (``reg`` or
``rel``) is the player the tile faces. ``a1=king/reg!rel`` is a face-down tile destroyed by Religion
(removed when Religion's next turn starts); ``b2=tower/rel[cardinal]`` is a Tower covering a
Cardinal. Areas are comma-separated tile keys; ``-`` is an empty field. ``<to move>`` is ``reg`` or
``rel``. Tiles named nowhere are out of the game. Example (Regality to move, two cells empty)::

    a1=citizen/reg b1=hierophant/rel c1=queen/reg a2=cardinal/rel b2=king/reg c2=bishop/rel
    a3=castle/reg | princess | temple | - | reg
"""

from __future__ import annotations

import re

from rules.engines.core import SetupError
from rules.engines.regality_vs_religion.board import CELL_INDEX, CELL_NAMES, CELLS

SIDES = ("reg", "rel")
_CELL = re.compile(
    r"^(?P<cell>[abc][123])=(?P<tile>[a-z-]+)/(?P<side>reg|rel)"
    r"(?:\[(?P<covers>[a-z-]+)\])?(?:!(?P<by>reg|rel))?$"
)


def _tiles(state, field: str, seen: set[int]) -> list[int]:
    if field.strip() in ("", "-"):
        return []
    result = []
    for word in field.split(","):
        result.append(_tile(state, word.strip(), seen))
    return sorted(result)


def _tile(state, key: str, seen: set[int]) -> int:
    tile = state.tables.by_key.get(key)
    if tile is None:
        raise SetupError(f"unknown tile {key!r} in the position")
    if tile in seen:
        raise SetupError(f"tile {key!r} appears twice in the position")
    seen.add(tile)
    return tile


def load_position(state, text: str) -> None:
    """Set ``state`` (fresh from ``new_initial_state``) to the position written in ``text``."""
    fields = [f.strip() for f in text.split("|")]
    if len(fields) not in (5, 6):
        raise SetupError("a position has 5 or 6 fields separated by '|'")
    seen: set[int] = set()
    cells = [-1] * 9
    if fields[0] not in ("", "-"):
        for word in fields[0].split():
            match = _CELL.match(word)
            if not match:
                raise SetupError(f"cannot read board entry {word!r} (e.g. b2=queen/reg)")
            cell = CELL_INDEX[match["cell"]]
            if cells[cell] != -1:
                raise SetupError(f"cell {match['cell']} is given twice")
            tile = _tile(state, match["tile"], seen)
            code = tile | (SIDES.index(match["side"]) << 5)
            if match["covers"]:
                if not state.tables.cover[tile]:
                    raise SetupError(f"{match['tile']} cannot cover a tile")
                code |= (_tile(state, match["covers"], seen) + 1) << 8
            if match["by"]:
                code |= (SIDES.index(match["by"]) + 1) << 6
            cells[cell] = code
    areas = [_tiles(state, fields[1], seen), _tiles(state, fields[2], seen)]
    neutral = _tiles(state, fields[3], seen)
    if fields[4] not in SIDES:
        raise SetupError("the side to move must be reg or rel")
    to_move = SIDES.index(fields[4])
    discard = _tiles(state, fields[5], seen) if len(fields) == 6 else []
    tables = state.tables
    state.cells = cells
    state.areas = areas
    state.neutral = neutral
    state.discard = discard
    state.pile = []
    state.used = [t for t in range(len(tables.specs)) if t not in seen]
    everyone = frozenset(state.used)
    state.seen_out = [everyone, everyone]
    state.first = to_move
    state.placements = sum(1 for code in cells if code >= 0)
    state.citizen_due = state.placements == 0
    state.log("position", to_move, position=text)
    state._compute_symmetries()
    state._start_turn(to_move)


def format_position(state) -> str:
    """Write ``state`` (at a placement) in the position notation."""
    keys = state.tables.keys
    words = []
    for cell in CELLS:
        code = state.cells[cell]
        if code < 0:
            continue
        word = f"{CELL_NAMES[cell]}={keys[code & 31]}/{SIDES[(code >> 5) & 1]}"
        if (code >> 8) - 1 >= 0:
            word += f"[{keys[(code >> 8) - 1]}]"
        if code & 0xC0:
            word += f"!{SIDES[((code >> 6) & 3) - 1]}"
        words.append(word)

    def area(tiles: list[int]) -> str:
        return ",".join(keys[t] for t in tiles) or "-"

    fields = [
        " ".join(words) or "-",
        area(state.areas[0]),
        area(state.areas[1]),
        area(state.neutral),
        SIDES[state.to_move],
    ]
    if state.discard:
        fields.append(area(sorted(state.discard)))
    return " | ".join(fields)
