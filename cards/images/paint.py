"""Drawing helpers shared by every face style: colours, measured text, shapes and emblems.

``Painter`` wraps one image and its ``Layout``. Every text goes through ``Painter.text``, which fits
it to its region and records the ink box Pillow measured, so the layout is an honest account of
what was drawn. Emblems are small pictograms built from Pillow primitives (no image assets).
"""

from __future__ import annotations

import math
from collections.abc import Callable

from PIL import Image, ImageDraw, ImageFont

from cards.images.layout import Box, Layout, PlacedText
from cards.images.text import fit_text

RGB = tuple[int, int, int]


def rgb(value: str | RGB | None, default: RGB = (119, 119, 119)) -> RGB:
    """Parse ``#rrggbb`` (or ``#rgb``) into an RGB tuple; anything unparsable gives ``default``."""
    if isinstance(value, tuple):
        return value
    if not value or not isinstance(value, str):
        return default
    text = value.strip().lstrip("#")
    if len(text) == 3:
        text = "".join(c * 2 for c in text)
    try:
        return (int(text[0:2], 16), int(text[2:4], 16), int(text[4:6], 16))
    except (ValueError, IndexError):
        return default


def mix(a: RGB, b: RGB, amount: float) -> RGB:
    """Blend ``amount`` (0..1) of colour ``b`` into colour ``a``."""
    return (
        round(a[0] + (b[0] - a[0]) * amount),
        round(a[1] + (b[1] - a[1]) * amount),
        round(a[2] + (b[2] - a[2]) * amount),
    )


def lighten(color: RGB, amount: float) -> RGB:
    return mix(color, (255, 255, 255), amount)


def darken(color: RGB, amount: float) -> RGB:
    return mix(color, (0, 0, 0), amount)


def luminance(color: RGB) -> float:
    """Relative luminance (WCAG) of an sRGB colour, 0 (black) to 1 (white)."""

    def channel(value: int) -> float:
        c = value / 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(v) for v in color)
    return 0.2126 * r + 0.7152 * g + 0.0722 * b


def ink_on(background: RGB, dark: RGB = (24, 22, 20), light: RGB = (250, 248, 242)) -> RGB:
    """The text colour (``dark`` or ``light``) with the better contrast on ``background``."""
    bg = luminance(background)
    contrast_dark = (bg + 0.05) / (luminance(dark) + 0.05)
    contrast_light = (luminance(light) + 0.05) / (bg + 0.05)
    return dark if contrast_dark >= contrast_light else light


def _ink_width(line: str, font: ImageFont.FreeTypeFont, stroke: int) -> float:
    left, _, right, _ = font.getbbox(line, anchor="la", stroke_width=stroke)
    return max(font.getlength(line) + 2 * stroke, right - min(0, left))


class Painter:
    """Draws on one face image and records every text element in its layout."""

    def __init__(self, image: Image.Image, layout: Layout):
        self.image = image
        self.layout = layout
        self.draw = ImageDraw.Draw(image)

    # -- text -----------------------------------------------------------------------------------
    def text(
        self,
        role: str,
        text: str,
        region: Box,
        *,
        fill: RGB,
        max_size: int,
        min_size: int,
        max_lines: int | None = None,
        align: str = "left",
        valign: str = "top",
        stroke: int = 0,
        spacing: float = 1.18,
    ) -> PlacedText:
        """Fit ``text`` into ``region``, draw it, and record where its ink landed."""
        fitted = fit_text(
            text,
            region.width,
            region.height,
            max_size=max_size,
            min_size=min_size,
            max_lines=max_lines,
            stroke=stroke,
            spacing=spacing,
        )
        font = fitted.font
        block = fitted.block_height()
        if valign == "middle":
            top = region.y0 + (region.height - block) // 2
        elif valign == "bottom":
            top = region.y1 - block
        else:
            top = region.y0
        top = max(top, region.y0)
        planned: list[tuple[int, int, str, Box]] = []
        for index, line in enumerate(fitted.lines):
            if not line:
                continue
            # whole pixels: a FreeType font's box is in them (typed float for other fonts)
            bbox = [round(edge) for edge in font.getbbox(line, anchor="la", stroke_width=stroke)]
            left_overhang = -min(0, bbox[0])
            width = _ink_width(line, font, stroke)
            if align == "center":
                start = region.x0 + (region.width - width) / 2
            elif align == "right":
                start = region.x1 - width
            else:
                start = region.x0
            x = round(start) + left_overhang
            y = top + index * fitted.line_height
            ink_box = Box(x + bbox[0], y + bbox[1], x + bbox[2], y + bbox[3])
            planned.append((x, y, line, ink_box))
        ink: Box | None = None
        for *_, line_box in planned:
            ink = line_box if ink is None else ink.union(line_box)
        # Glyphs may overhang their advance by a pixel or two; nudge the block back inside.
        dx = dy = 0
        if ink is not None:
            dx = max(0, region.x0 - ink.x0) - max(0, ink.x1 - region.x1)
            dy = max(0, region.y0 - ink.y0) - max(0, ink.y1 - region.y1)
        for x, y, line, _ in planned:
            self.draw.text(
                (x + dx, y + dy),
                line,
                font=font,
                fill=fill,
                anchor="la",
                stroke_width=stroke,
                stroke_fill=fill,
            )
        if ink is not None:
            # font.getbbox at the same anchor is exactly what draw.textbbox reports there.
            ink = Box(ink.x0 + dx, ink.y0 + dy, ink.x1 + dx, ink.y1 + dy)
        placed = PlacedText(role=role, text=text, region=region, ink=ink, fitted=fitted)
        self.layout.texts.append(placed)
        return placed

    # -- shapes ---------------------------------------------------------------------------------
    def panel(
        self,
        box: Box,
        fill: RGB,
        *,
        radius: int = 10,
        outline: RGB | None = None,
        width: int = 2,
    ) -> None:
        self.draw.rounded_rectangle(
            box.as_tuple(), radius=radius, fill=fill, outline=outline, width=width
        )

    def vertical_gradient(self, box: Box, top: RGB, bottom: RGB) -> None:
        height = max(1, box.height - 1)
        for row in range(box.height):
            color = mix(top, bottom, row / height)
            self.draw.line([(box.x0, box.y0 + row), (box.x1 - 1, box.y0 + row)], fill=color)

    def rays(self, box: Box, color: RGB, count: int = 16) -> None:
        """A sunburst of alternating wedges from the centre of ``box`` (clipped to it)."""
        overlay = Image.new("RGBA", (box.width, box.height), (0, 0, 0, 0))
        draw = ImageDraw.Draw(overlay)
        cx, cy = box.width / 2, box.height / 2
        reach = math.hypot(cx, cy) + 2
        for index in range(0, count * 2, 2):
            a0 = math.tau * index / (count * 2)
            a1 = math.tau * (index + 1) / (count * 2)
            draw.polygon(
                [
                    (cx, cy),
                    (cx + reach * math.cos(a0), cy + reach * math.sin(a0)),
                    (cx + reach * math.cos(a1), cy + reach * math.sin(a1)),
                ],
                fill=(*color, 46),
            )
        self.image.paste(overlay, (box.x0, box.y0), overlay)

    def star(self, center: tuple[float, float], radius: float, fill: RGB, points: int = 5) -> None:
        cx, cy = center
        vertices = []
        for index in range(points * 2):
            r = radius if index % 2 == 0 else radius * 0.45
            angle = -math.pi / 2 + math.pi * index / points
            vertices.append((cx + r * math.cos(angle), cy + r * math.sin(angle)))
        self.draw.polygon(vertices, fill=fill)

    def diamond(self, center: tuple[float, float], radius: float, fill: RGB) -> None:
        cx, cy = center
        self.draw.polygon(
            [(cx, cy - radius), (cx + radius, cy), (cx, cy + radius), (cx - radius, cy)], fill=fill
        )

    def disc(
        self, center: tuple[float, float], radius: float, fill: RGB, outline: RGB | None = None
    ) -> None:
        cx, cy = center
        self.draw.ellipse(
            (cx - radius, cy - radius, cx + radius, cy + radius),
            fill=fill,
            outline=outline,
            width=max(1, round(radius / 6)),
        )

    def rarity_mark(self, center: tuple[float, float], radius: float, rank: int) -> None:
        """Common: dark disc; uncommon: silver diamond; rare: gold star; beyond: orange star."""
        outline = (20, 20, 20)
        if rank <= 0:
            self.disc(center, radius * 0.75, (40, 40, 40), outline=(235, 235, 235))
        elif rank == 1:
            self.diamond(center, radius + 1, outline)
            self.diamond(center, radius - 1.5, (176, 186, 196))
        elif rank == 2:
            self.star(center, radius + 2, outline)
            self.star(center, radius - 0.5, (222, 170, 40))
        else:
            self.star(center, radius + 2, outline, points=7)
            self.star(center, radius - 0.5, (226, 96, 38), points=7)

    def emblem(self, name: str, box: Box, color: RGB) -> None:
        """Draw a pictogram from ``EMBLEMS`` centred in ``box`` (a plain disc when unknown)."""
        size = min(box.width, box.height)
        cx, cy = box.center
        EMBLEMS.get(name, _emblem_disc)(self.draw, (cx, cy), size / 2, color)


def _emblem_disc(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    draw.ellipse((c[0] - r * 0.6, c[1] - r * 0.6, c[0] + r * 0.6, c[1] + r * 0.6), fill=color)


def _emblem_sword(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.polygon(
        [(x, y - r), (x + r * 0.12, y - r * 0.8), (x + r * 0.12, y + r * 0.35),
         (x - r * 0.12, y + r * 0.35), (x - r * 0.12, y - r * 0.8)],
        fill=color,
    )  # fmt: skip
    draw.rectangle((x - r * 0.45, y + r * 0.35, x + r * 0.45, y + r * 0.47), fill=color)
    draw.rectangle((x - r * 0.07, y + r * 0.47, x + r * 0.07, y + r * 0.85), fill=color)
    draw.ellipse((x - r * 0.13, y + r * 0.8, x + r * 0.13, y + r * 1.0), fill=color)


def _emblem_shield(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    points = [(x - r * 0.75, y - r * 0.8), (x + r * 0.75, y - r * 0.8), (x + r * 0.75, y - r * 0.1)]
    for step in range(1, 10):
        t = step / 10
        points.append((x + r * 0.75 * (1 - t), y - r * 0.1 + r * 1.05 * math.sin(t * math.pi / 2)))
    points.append((x, y + r * 0.95))
    points.extend((2 * x - px, py) for px, py in reversed(points[3:-1]))
    points.append((x - r * 0.75, y - r * 0.1))
    draw.polygon(points, fill=color)


def _emblem_column(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.polygon([(x - r * 0.8, y - r * 0.6), (x, y - r), (x + r * 0.8, y - r * 0.6)], fill=color)
    draw.rectangle((x - r * 0.75, y - r * 0.55, x + r * 0.75, y - r * 0.45), fill=color)
    for offset in (-0.5, -0.17, 0.17, 0.5):
        draw.rectangle(
            (x + r * (offset - 0.09), y - r * 0.38, x + r * (offset + 0.09), y + r * 0.62),
            fill=color,
        )
    draw.rectangle((x - r * 0.8, y + r * 0.7, x + r * 0.8, y + r * 0.85), fill=color)


def _emblem_scroll(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.rectangle((x - r * 0.6, y - r * 0.75, x + r * 0.6, y + r * 0.75), fill=color)
    draw.ellipse((x - r * 0.8, y - r * 0.95, x - r * 0.4, y - r * 0.55), fill=color)
    draw.ellipse((x + r * 0.4, y + r * 0.55, x + r * 0.8, y + r * 0.95), fill=color)
    draw.rectangle((x - r * 0.6, y - r * 0.95, x + r * 0.6, y - r * 0.75), fill=color)
    draw.rectangle((x - r * 0.6, y + r * 0.75, x + r * 0.6, y + r * 0.95), fill=color)


def _emblem_crown(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.polygon(
        [(x - r * 0.85, y + r * 0.5), (x - r * 0.85, y - r * 0.55), (x - r * 0.45, y - r * 0.05),
         (x, y - r * 0.8), (x + r * 0.45, y - r * 0.05), (x + r * 0.85, y - r * 0.55),
         (x + r * 0.85, y + r * 0.5)],
        fill=color,
    )  # fmt: skip
    draw.rectangle((x - r * 0.85, y + r * 0.6, x + r * 0.85, y + r * 0.8), fill=color)


def _emblem_star(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    vertices = []
    for index in range(10):
        radius = r * (0.95 if index % 2 == 0 else 0.4)
        angle = -math.pi / 2 + math.pi * index / 5
        vertices.append((x + radius * math.cos(angle), y + radius * math.sin(angle)))
    draw.polygon(vertices, fill=color)


def _emblem_heart(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.ellipse((x - r * 0.85, y - r * 0.7, x + r * 0.02, y + r * 0.15), fill=color)
    draw.ellipse((x - r * 0.02, y - r * 0.7, x + r * 0.85, y + r * 0.15), fill=color)
    draw.polygon(
        [(x - r * 0.8, y - r * 0.1), (x + r * 0.8, y - r * 0.1), (x, y + r * 0.9)], fill=color
    )


def _emblem_note(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.ellipse((x - r * 0.75, y + r * 0.35, x - r * 0.2, y + r * 0.8), fill=color)
    draw.ellipse((x + r * 0.25, y + r * 0.2, x + r * 0.8, y + r * 0.65), fill=color)
    draw.rectangle((x - r * 0.3, y - r * 0.75, x - r * 0.2, y + r * 0.58), fill=color)
    draw.rectangle((x + r * 0.7, y - r * 0.9, x + r * 0.8, y + r * 0.43), fill=color)
    draw.polygon(
        [(x - r * 0.3, y - r * 0.75), (x + r * 0.8, y - r * 0.9), (x + r * 0.8, y - r * 0.65),
         (x - r * 0.3, y - r * 0.5)],
        fill=color,
    )  # fmt: skip


def _emblem_tower(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.rectangle((x - r * 0.5, y - r * 0.45, x + r * 0.5, y + r * 0.9), fill=color)
    for offset in (-0.5, -0.1, 0.3):
        draw.rectangle(
            (x + r * offset, y - r * 0.8, x + r * (offset + 0.2), y - r * 0.45), fill=color
        )


def _emblem_bolt(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.polygon(
        [(x + r * 0.2, y - r), (x - r * 0.55, y + r * 0.1), (x - r * 0.05, y + r * 0.1),
         (x - r * 0.25, y + r), (x + r * 0.55, y - r * 0.15), (x + r * 0.05, y - r * 0.15)],
        fill=color,
    )  # fmt: skip


def _emblem_gem(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.polygon(
        [(x - r * 0.8, y - r * 0.3), (x - r * 0.4, y - r * 0.75), (x + r * 0.4, y - r * 0.75),
         (x + r * 0.8, y - r * 0.3), (x, y + r * 0.9)],
        fill=color,
    )  # fmt: skip


def _emblem_skull(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.ellipse((x - r * 0.75, y - r * 0.85, x + r * 0.75, y + r * 0.45), fill=color)
    draw.rectangle((x - r * 0.45, y + r * 0.2, x + r * 0.45, y + r * 0.8), fill=color)
    hole = darken(color, 0.85)
    draw.ellipse((x - r * 0.5, y - r * 0.35, x - r * 0.12, y + r * 0.05), fill=hole)
    draw.ellipse((x + r * 0.12, y - r * 0.35, x + r * 0.5, y + r * 0.05), fill=hole)


def _emblem_fist(draw: ImageDraw.ImageDraw, c: tuple[float, float], r: float, color: RGB) -> None:
    x, y = c
    draw.rounded_rectangle(
        (x - r * 0.6, y - r * 0.55, x + r * 0.6, y + r * 0.25), r * 0.15, fill=color
    )
    draw.rectangle((x - r * 0.4, y + r * 0.2, x + r * 0.4, y + r * 0.95), fill=color)
    for index in range(3):
        left = x - r * 0.6 + index * r * 0.4
        draw.line(
            [(left + r * 0.4, y - r * 0.55), (left + r * 0.4, y - r * 0.05)],
            fill=darken(color, 0.6),
            width=max(1, round(r * 0.05)),
        )


EMBLEMS: dict[str, Callable[[ImageDraw.ImageDraw, tuple[float, float], float, RGB], None]] = {
    "disc": _emblem_disc,
    "sword": _emblem_sword,
    "shield": _emblem_shield,
    "column": _emblem_column,
    "scroll": _emblem_scroll,
    "crown": _emblem_crown,
    "star": _emblem_star,
    "heart": _emblem_heart,
    "note": _emblem_note,
    "tower": _emblem_tower,
    "bolt": _emblem_bolt,
    "gem": _emblem_gem,
    "skull": _emblem_skull,
    "fist": _emblem_fist,
}
