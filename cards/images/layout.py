"""Geometry of a rendered card face: boxes, and the measurements the renderer records.

Every piece of text the renderer draws is recorded as a ``PlacedText``: the region the style gave
it and the ink box Pillow measured for the lines actually drawn. Tests (and ``render_cards``) read
these records to prove that no text leaves its box and to list the cards whose text had to be
shrunk or cut with an ellipsis.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from cards.images.text import FittedText


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in pixels; ``x1``/``y1`` are exclusive like Pillow's bboxes."""

    x0: int
    y0: int
    x1: int
    y1: int

    @property
    def width(self) -> int:
        return self.x1 - self.x0

    @property
    def height(self) -> int:
        return self.y1 - self.y0

    @property
    def center(self) -> tuple[int, int]:
        return ((self.x0 + self.x1) // 2, (self.y0 + self.y1) // 2)

    def as_tuple(self) -> tuple[int, int, int, int]:
        return (self.x0, self.y0, self.x1, self.y1)

    def inset(self, dx: int, dy: int | None = None) -> Box:
        dy = dx if dy is None else dy
        return Box(self.x0 + dx, self.y0 + dy, self.x1 - dx, self.y1 - dy)

    def contains(self, other: Box) -> bool:
        return (
            other.x0 >= self.x0
            and other.y0 >= self.y0
            and other.x1 <= self.x1
            and other.y1 <= self.y1
        )

    def union(self, other: Box) -> Box:
        return Box(
            min(self.x0, other.x0),
            min(self.y0, other.y0),
            max(self.x1, other.x1),
            max(self.y1, other.y1),
        )

    def split_y(self, at: int, gap: int = 0) -> tuple[Box, Box]:
        """Cut into a top box ``at`` pixels tall and the rest, ``gap`` pixels apart."""
        return (
            Box(self.x0, self.y0, self.x1, self.y0 + at),
            Box(self.x0, self.y0 + at + gap, self.x1, self.y1),
        )


@dataclass(frozen=True)
class PlacedText:
    """One text element as drawn: what it says, where it had to fit and where its ink landed."""

    role: str
    text: str
    region: Box
    ink: Box | None
    fitted: FittedText

    @property
    def overflows(self) -> bool:
        """True when any drawn pixel of this text lies outside its region."""
        return self.ink is not None and not self.region.contains(self.ink)


@dataclass
class Layout:
    """Everything measurable about one rendered face."""

    width: int
    height: int
    texts: list[PlacedText] = field(default_factory=list)
    points: dict[str, tuple[int, int]] = field(default_factory=dict)
    """Named pixel positions of drawn marks (pattern dots, arrows, badges), for pixel checks."""
    boxes: dict[str, Box] = field(default_factory=dict)
    """Named regions drawn (``art``: the generated art), for pixel checks."""

    def text(self, role: str) -> PlacedText:
        """Return the text element drawn for ``role``; KeyError when the face has none."""
        for placed in self.texts:
            if placed.role == role:
                return placed
        raise KeyError(role)

    def roles(self) -> list[str]:
        return [placed.role for placed in self.texts]

    @property
    def overflowing(self) -> list[PlacedText]:
        return [placed for placed in self.texts if placed.overflows]

    @property
    def ellipsized(self) -> list[PlacedText]:
        return [placed for placed in self.texts if placed.fitted.ellipsized]

    @property
    def shrunk(self) -> list[PlacedText]:
        return [placed for placed in self.texts if placed.fitted.shrunk]
