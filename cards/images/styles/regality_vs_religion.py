"""Regality vs Religion: Revolution: square tiles showing each power's targeting pattern.

The pattern is drawn from the tile's ``effects`` on a 3x3 grid seen from the tile's controller
(N is straight ahead, at the top); the centre cell is the tile itself, pointing ahead:

* ``reach: adjacent`` marks each target cell with a dot. Tiles that choose one direction
  (every group a single direction) use white dots; a group of several directions, all hit
  together, shares one colour, and a second such group gets another colour.
* ``reach: line`` draws arrows instead: every tile in that direction, up to the board's edge.
* ``shield`` on the tile itself puts a shield on the centre; ``protect`` puts shields on the
  protected neighbours; ``negate`` marks cells with a struck-through ring.
* a power that reaches anywhere rings every cell; Death's skull sits on the centre;
* powers aimed at no cell (the opponent's area, the discard pile, an ally) are named in the
  legend under the grid, which also says how targets are chosen for every tile.

The power type icon (active: a play triangle; passive: a ring) sits at the left of the name bar.
"""

from __future__ import annotations

import math
from typing import Any

from cards.images.art import draw_generated_art
from cards.images.face import CardFace
from cards.images.layout import Box
from cards.images.paint import RGB, Painter, darken, ink_on, lighten, mix, rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette

TILE_SIZE = (630, 630)
TILE_THUMB_SIZE = (252, 252)
DIRECTIONS: dict[str, tuple[int, int]] = {
    "NW": (-1, -1),
    "N": (0, -1),
    "NE": (1, -1),
    "W": (-1, 0),
    "C": (0, 0),
    "E": (1, 0),
    "SW": (-1, 1),
    "S": (0, 1),
    "SE": (1, 1),
}
CHOICE_DOT = rgb("#fbfbf6")
GROUP_DOTS = (rgb("#f4c430"), rgb("#4fd1c5"), rgb("#ff7a59"), rgb("#b388ff"))
EMPTY_CELL = rgb("#2a2a30")
_ZONE_WORDS = {
    "opponent-area": "a tile in the opponent's area",
    "discard": "a tile from the discard pile",
    "self": "this tile",
}


def _groups(effect: dict[str, Any]) -> list[list[str]]:
    target = effect.get("target") or {}
    groups = target.get("groups") or []
    return [[str(d) for d in group if str(d) in DIRECTIONS] for group in groups if group]


def pattern_marks(effects: list[Any]) -> dict[str, tuple[str, RGB]]:
    """Which grid cells a tile's effects mark, and how: cell -> (marker kind, colour).

    Marker kinds: ``dot``, ``arrow``, ``shield``, ``negate``, ``ring`` (anywhere on the board) and
    ``skull`` (the tile itself makes its holder lose). The centre cell is ``C``.
    """
    marks: dict[str, tuple[str, RGB]] = {}
    colour_index = 0
    for effect in effects:
        if not isinstance(effect, dict):
            continue
        kind = effect.get("kind")
        target = effect.get("target") or {}
        if kind == "shield" and target.get("zone") == "self":
            marks["C"] = ("shield", CHOICE_DOT)
            continue
        if kind == "lose" and target.get("zone") == "self":
            marks["C"] = ("skull", CHOICE_DOT)
            continue
        if target.get("reach") == "any":
            for direction in DIRECTIONS:
                if direction != "C":
                    marks[direction] = ("ring", CHOICE_DOT)
            continue
        groups = _groups(effect)
        if not groups:
            continue
        marker = "arrow" if target.get("reach") == "line" else "dot"
        if kind == "protect":
            marker = "shield"
        elif kind == "negate":
            marker = "negate"
        single_choice = all(len(group) == 1 for group in groups)
        for group in groups:
            if single_choice:
                colour = CHOICE_DOT
            else:
                colour = GROUP_DOTS[colour_index % len(GROUP_DOTS)]
                colour_index += 1
            for direction in group:
                marks[direction] = (marker, colour)
    return marks


def pattern_legend(effects: list[Any]) -> str:
    """One line saying what the pattern means: the power's kind and how its targets are chosen."""
    parts = []
    for effect in effects:
        if not isinstance(effect, dict):
            continue
        kind = str(effect.get("kind", "")).replace("_", " ").capitalize()
        target = effect.get("target") or {}
        groups = _groups(effect)
        if target.get("only_shielded"):
            kind += " shielded"
        if groups:
            if all(len(group) == 1 for group in groups):
                how = f"choose 1 of {len(groups)}"
            elif len(groups) == 1:
                how = "both" if len(groups[0]) == 2 else f"all {len(groups[0])}"
            else:
                how = f"all of one colour ({len(groups)} colours)"
            if target.get("reach") == "line":
                how += ", to the edge"
        elif target.get("reach") == "any":
            how = "any tile, anywhere"
        elif effect.get("timing") == "end":
            how = "at the end, for whoever holds it"
        elif target.get("filter") == "ally" and target.get("zone") == "board":
            how = "one of your allies"
        else:
            how = _ZONE_WORDS.get(str(target.get("zone")), str(target.get("zone", "")))
        parts.append(f"{kind}: {how}")
    return " / ".join(parts) if parts else "No power"


@register_style
class RegalityVsReligionStyle(CardStyle):
    game_slug = "regality-vs-religion"
    size = TILE_SIZE
    thumb_size = TILE_THUMB_SIZE

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        return Palette(
            border=rgb("#0d0d0f"),
            frame=base,
            panel=rgb("#f3efe6"),
            panel_ink=rgb("#1a1a1c"),
            accent=darken(base, 0.3) if face.branch_slug != "neutral" else rgb("#55555c"),
            art_top=EMPTY_CELL,
            art_bottom=EMPTY_CELL,
            emblem=lighten(base, 0.3),
        )

    def draw_face(self, painter: Painter, face: CardFace, palette: Palette) -> None:
        width, height = self.size
        self.draw_frame(painter, face, palette)
        name_bar = Box(28, 26, width - 28, 92)
        grid = Box(width // 2 - 144, 104, width // 2 + 144, 392)
        legend = Box(40, 400, width - 40, 432)
        text_box = Box(36, 440, width - 36, height - 66)
        footer = Box(36, height - 56, width - 36, height - 24)
        self.draw_tile_name(painter, face, palette, name_bar)
        self.draw_pattern(painter, face, palette, grid)
        painter.text(
            "legend",
            pattern_legend(face.effects),
            legend,
            fill=palette.frame_ink,
            max_size=22,
            min_size=12,
            max_lines=1,
            align="center",
            valign="middle",
        )
        painter.panel(text_box, palette.panel, radius=10, outline=palette.accent, width=2)
        if face.rules_text.strip():
            painter.text(
                "rules",
                face.rules_text,
                text_box.inset(14, 8),
                fill=palette.panel_ink,
                max_size=26,
                min_size=12,
                align="center",
                valign="middle",
            )
        self.draw_footer(painter, face, palette, footer)

    def footer_note(self, face: CardFace) -> str:
        return face.branch_name or face.game_short_name

    def draw_tile_name(self, painter: Painter, face: CardFace, palette: Palette, bar: Box) -> None:
        painter.panel(bar, palette.panel, radius=12, outline=palette.accent, width=3)
        icon = Box(bar.x0 + 10, bar.y0 + 8, bar.x0 + 10 + bar.height - 16, bar.y1 - 8)
        power_type = str(face.stats.get("power_type", "none"))
        self.draw_power_type(painter, palette, icon, power_type)
        painter.text(
            "name",
            face.name,
            Box(icon.x1 + 14, bar.y0 + 10, bar.x1 - icon.width - 24, bar.y1 - 10),
            fill=palette.panel_ink,
            max_size=36,
            min_size=18,
            max_lines=1,
            align="center",
            valign="middle",
            stroke=1,
        )

    def draw_power_type(
        self, painter: Painter, palette: Palette, icon: Box, power_type: str
    ) -> None:
        """Active: a play triangle in a disc; passive: a thick ring; no power: nothing."""
        cx, cy = icon.center
        r = icon.width / 2
        if power_type == "active":
            painter.disc((cx, cy), r, palette.accent)
            painter.draw.polygon(
                [(cx - r * 0.35, cy - r * 0.5), (cx + r * 0.55, cy), (cx - r * 0.35, cy + r * 0.5)],
                fill=ink_on(palette.accent),
            )
        elif power_type == "passive":
            painter.draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), outline=palette.accent, width=max(3, round(r / 4))
            )
        else:
            return
        painter.layout.points["power-type"] = (cx, cy)

    def draw_pattern(self, painter: Painter, face: CardFace, palette: Palette, grid: Box) -> None:
        cell = grid.width // 3
        gap = 8
        painter.panel(grid.inset(-6), darken(palette.frame, 0.45), radius=14)
        marks = pattern_marks(face.effects)
        lines = any(marker == "arrow" for marker, _ in marks.values())
        for direction, (dx, dy) in DIRECTIONS.items():
            x0 = grid.x0 + (dx + 1) * cell
            y0 = grid.y0 + (dy + 1) * cell
            box = Box(x0 + gap // 2, y0 + gap // 2, x0 + cell - gap // 2, y0 + cell - gap // 2)
            centre = box.center
            painter.layout.points[f"cell-{direction}"] = centre
            if direction == "C":
                self.draw_self_cell(painter, face, palette, box)
            else:
                painter.panel(box, EMPTY_CELL, radius=8)
            mark = marks.get(direction)
            if mark is None:
                continue
            marker, colour = mark
            radius = cell * 0.2
            if marker == "dot":
                painter.disc(centre, radius, colour, outline=darken(colour, 0.6))
            elif marker == "arrow":
                self.draw_arrow(painter, centre, (dx, dy), cell * 0.36, colour)
            elif marker in ("shield", "skull"):
                spot = box.inset(round(cell * 0.22))
                if direction == "C":  # below the notch that shows which way the tile faces
                    spot = Box(spot.x0, spot.y0 + 8, spot.x1, spot.y1 + 8)
                painter.emblem(marker, spot, colour)
            elif marker == "ring":
                painter.draw.ellipse(
                    (
                        centre[0] - radius,
                        centre[1] - radius,
                        centre[0] + radius,
                        centre[1] + radius,
                    ),
                    outline=colour,
                    width=max(3, round(radius / 4)),
                )
            elif marker == "negate":
                painter.draw.ellipse(
                    (
                        centre[0] - radius,
                        centre[1] - radius,
                        centre[0] + radius,
                        centre[1] + radius,
                    ),
                    outline=colour,
                    width=max(3, round(radius / 4)),
                )
                painter.disc(centre, radius * 0.35, colour)
                offset = radius * 0.75
                painter.draw.line(
                    [
                        (centre[0] - offset, centre[1] + offset),
                        (centre[0] + offset, centre[1] - offset),
                    ],
                    fill=colour,
                    width=max(3, round(radius / 4)),
                )
            painter.layout.points[f"mark-{direction}"] = centre
        if lines:
            painter.layout.points["pattern-lines"] = grid.center

    def draw_self_cell(self, painter: Painter, face: CardFace, palette: Palette, box: Box) -> None:
        """The tile itself: its generated art (``cards.images.art``) in its alignment colour, with
        a notch pointing ahead (towards N)."""
        draw_generated_art(painter, face, mix(palette.frame, (255, 255, 255), 0.15), box)
        painter.draw.rounded_rectangle(box.as_tuple(), radius=8, outline=palette.panel, width=3)
        cx = box.center[0]
        r = box.width * 0.16
        painter.draw.polygon(
            [(cx, box.y0 + 8), (cx + r, box.y0 + 8 + r), (cx - r, box.y0 + 8 + r)],
            fill=ink_on(palette.frame),
        )

    @staticmethod
    def draw_arrow(
        painter: Painter,
        centre: tuple[int, int],
        direction: tuple[int, int],
        length: float,
        colour: RGB,
    ) -> None:
        """An arrow through ``centre`` pointing away from the tile, along ``direction``."""
        dx, dy = direction
        norm = math.hypot(dx, dy)
        ux, uy = dx / norm, dy / norm
        px, py = -uy, ux
        cx, cy = centre
        tail = (cx - ux * length * 0.7, cy - uy * length * 0.7)
        neck = (cx + ux * length * 0.1, cy + uy * length * 0.1)
        tip = (cx + ux * length, cy + uy * length)
        shaft = length * 0.16
        head = length * 0.45
        painter.draw.polygon(
            [
                (tail[0] + px * shaft, tail[1] + py * shaft),
                (neck[0] + px * shaft, neck[1] + py * shaft),
                (neck[0] + px * head, neck[1] + py * head),
                tip,
                (neck[0] - px * head, neck[1] - py * head),
                (neck[0] - px * shaft, neck[1] - py * shaft),
                (tail[0] - px * shaft, tail[1] - py * shaft),
            ],
            fill=colour,
            outline=darken(colour, 0.6),
        )
