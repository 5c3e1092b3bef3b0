"""Board geometry: cells, directions seen from each player, rays and the board's symmetries.

Cells are numbered 0..8, ``index = (rank - 1) * 3 + file``: files a, b, c run left to right and
ranks 1..3 run away from Regality (player 0), so ``a1`` is Regality's near-left corner. A direction
is named from the point of view of the tile's controller: "N" is away from them. Religion (player 1)
sits opposite, so its directions are Regality's turned by 180 degrees.
"""

from __future__ import annotations

from collections.abc import Iterable

CELLS = tuple(range(9))
CELL_NAMES = tuple(f"{'abc'[i % 3]}{i // 3 + 1}" for i in CELLS)
CELL_INDEX = {name: i for i, name in enumerate(CELL_NAMES)}

DIRECTIONS = ("N", "NE", "E", "SE", "S", "SW", "W", "NW")
VECTORS = {
    "N": (1, 0),
    "NE": (1, 1),
    "E": (0, 1),
    "SE": (-1, 1),
    "S": (-1, 0),
    "SW": (-1, -1),
    "W": (0, -1),
    "NW": (1, -1),
}
VECTOR_NAMES = {vector: name for name, vector in VECTORS.items()}


def _step(cell: int, vector: tuple[int, int]) -> int:
    rank, file = divmod(cell, 3)
    rank, file = rank + vector[0], file + vector[1]
    return rank * 3 + file if 0 <= rank < 3 and 0 <= file < 3 else -1


def oriented(direction: str, player: int) -> tuple[int, int]:
    """Return the board vector of ``direction`` as seen by ``player``."""
    dr, dc = VECTORS[direction]
    return (dr, dc) if player == 0 else (-dr, -dc)


def neighbour(cell: int, direction: str, player: int) -> int:
    """Return the adjacent cell in ``direction`` for ``player``, or -1 off the board."""
    return _step(cell, oriented(direction, player))


def ray(cell: int, direction: str, player: int) -> tuple[int, ...]:
    """Return every cell from ``cell`` (excluded) to the edge in ``direction`` for ``player``."""
    vector = oriented(direction, player)
    cells = []
    current = _step(cell, vector)
    while current >= 0:
        cells.append(current)
        current = _step(current, vector)
    return tuple(cells)


# The eight symmetries of the square as linear maps on (rank, file) offsets from the centre.
_LINEAR = (
    lambda r, c: (r, c),
    lambda r, c: (c, -r),
    lambda r, c: (-r, -c),
    lambda r, c: (-c, r),
    lambda r, c: (r, -c),
    lambda r, c: (-r, c),
    lambda r, c: (c, r),
    lambda r, c: (-c, -r),
)
SYMMETRY_NAMES = (
    "identity",
    "rotate-90",
    "rotate-180",
    "rotate-270",
    "mirror-files",
    "mirror-ranks",
    "transpose",
    "anti-transpose",
)


def _perm(linear) -> tuple[int, ...]:
    result = []
    for cell in CELLS:
        rank, file = divmod(cell, 3)
        r, c = linear(rank - 1, file - 1)
        result.append((r + 1) * 3 + (c + 1))
    return tuple(result)


SYMMETRY_PERMS = tuple(_perm(linear) for linear in _LINEAR)


def symmetry_keeps(index: int, groups: Iterable[Iterable[str]]) -> bool:
    """Return True if symmetry ``index`` maps this set of direction groups onto itself."""
    linear = _LINEAR[index]
    original = {frozenset(group) for group in groups}
    mapped = {frozenset(VECTOR_NAMES[linear(*VECTORS[d])] for d in group) for group in original}
    return mapped == original
