"""Reggae Revolution: faces in the card's colour under a red-gold-green band, costs as symbols.

A player card shows its own symbol (peace, love, unity or respect) in the art and its cost as a
row of symbol discs; a villain shows the symbols it suppresses, struck through, and the number of
cards that persuade it; a wild card shows all four symbols on a four-colour frame.
"""

from __future__ import annotations

import math

from cards.images.art import draw_generated_art
from cards.images.face import CardFace
from cards.images.layout import Box
from cards.images.paint import RGB, Painter, darken, lighten, mix, rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette

SYMBOLS = ("peace", "love", "unity", "respect")
_BAND = (rgb("#c62828"), rgb("#f9a825"), rgb("#2e7d32"))
_COLOURS = (rgb("#c62828"), rgb("#2e7d32"), rgb("#f9a825"), rgb("#212121"))


def draw_symbol(
    painter: Painter, symbol: str, center: tuple[float, float], r: float, color: RGB
) -> None:
    """The pictogram of one of the four symbols, drawn from primitives."""
    x, y = center
    draw = painter.draw
    line = max(2, round(r * 0.16))
    if symbol == "peace":
        draw.ellipse((x - r, y - r, x + r, y + r), outline=color, width=line)
        draw.line([(x, y - r), (x, y + r)], fill=color, width=line)
        for side in (-1, 1):
            end = (x + side * r * math.cos(math.pi / 4), y + r * math.sin(math.pi / 4))
            draw.line([(x, y), end], fill=color, width=line)
    elif symbol == "love":
        painter.emblem("heart", Box(round(x - r), round(y - r), round(x + r), round(y + r)), color)
    elif symbol == "unity":
        for dx in (-0.38, 0.38):
            cx = x + dx * r
            draw.ellipse(
                (cx - r * 0.6, y - r * 0.6, cx + r * 0.6, y + r * 0.6), outline=color, width=line
            )
    elif symbol == "respect":
        painter.emblem("star", Box(round(x - r), round(y - r), round(x + r), round(y + r)), color)
    else:
        painter.disc(center, r * 0.5, color)


@register_style
class ReggaeRevolutionStyle(CardStyle):
    game_slug = "reggae-revolution"
    type_colors = {"wild": "#6a4c93", "scheme": "#37474f", "oppression": "#5d4037"}
    emblems = {"villain": "skull", "scheme": "bolt", "oppression": "tower"}

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        return Palette(
            border=rgb("#111111"),
            frame=base,
            panel=rgb("#fbf6e9"),
            panel_ink=rgb("#1c1a16"),
            accent=darken(base, 0.35) if face.branch_slug != "black" else lighten(base, 0.25),
            art_top=lighten(base, 0.4),
            art_bottom=darken(base, 0.3),
            emblem=lighten(base, 0.9),
        )

    def draw_frame(self, painter: Painter, face: CardFace, palette: Palette) -> None:
        super().draw_frame(painter, face, palette)
        width, height = self.size
        if face.type_slug == "wild":
            # Any colour: both side edges of the frame carry all four colours.
            step = (height - 24) // len(_COLOURS)
            for index, colour in enumerate(_COLOURS):
                y0 = 12 + index * step
                for x0 in (12, width - 30):
                    painter.draw.rectangle((x0, y0, x0 + 17, y0 + step - 1), fill=colour)
        for index, colour in enumerate(_BAND):
            y = 14 + index * 4
            painter.draw.rectangle((60, y, width - 60, y + 3), fill=colour)

    def draw_name_bar(self, painter: Painter, face: CardFace, palette: Palette, bar: Box) -> None:
        symbols = self.cost_symbols(face)
        if not symbols:
            super().draw_name_bar(painter, face, palette, bar)
            return
        # The cost is paid in symbols: one disc per symbol, right-aligned in the name bar.
        painter.panel(bar, palette.panel, radius=14, outline=palette.accent, width=3)
        radius = 24
        step = 2 * radius + 6
        right = bar.x1 - 12 - radius
        centre_y = bar.center[1]
        for index, symbol in enumerate(reversed(symbols)):
            cx = right - index * step
            painter.disc((cx, centre_y), radius, palette.accent, outline=palette.border)
            draw_symbol(painter, symbol, (cx, centre_y), radius * 0.62, palette.emblem)
            painter.layout.points[f"cost-symbol-{len(symbols) - 1 - index}"] = (cx, centre_y)
        left_of_symbols = right - (len(symbols) - 1) * step - radius - 12
        painter.text(
            "name",
            face.name,
            Box(bar.x0 + 18, bar.y0 + 14, left_of_symbols, bar.y1 - 14),
            fill=palette.panel_ink,
            max_size=36,
            min_size=18,
            max_lines=1,
            valign="middle",
            stroke=1,
        )

    def cost_symbols(self, face: CardFace) -> tuple[str, ...]:
        """The symbols paid to gain the card (``stats.cost``), in printed order."""
        cost = face.stats.get("cost")
        if not isinstance(cost, list):
            return ()
        return tuple(str(symbol) for symbol in cost)

    def draw_art(self, painter: Painter, face: CardFace, palette: Palette, art: Box) -> None:
        symbol = face.stats.get("symbol")
        suppressed = face.stats.get("suppresses")
        shown: list[str] = []
        if face.type_slug == "wild":
            shown = list(SYMBOLS)
        elif isinstance(suppressed, list):
            shown = [str(s) for s in suppressed]
        elif isinstance(symbol, str):
            shown = [symbol]
        if not shown:
            super().draw_art(painter, face, palette, art)
            return
        draw_generated_art(painter, face, palette.frame, art)
        radius = min(art.height * 0.36, art.width / (2.4 * len(shown)))
        spacing = art.width / len(shown)
        cy = art.center[1]
        for index, name in enumerate(shown):
            cx = art.x0 + spacing * (index + 0.5)
            painter.disc((cx, cy), radius, palette.accent, outline=palette.emblem)
            draw_symbol(painter, name, (cx, cy), radius * 0.6, palette.emblem)
            painter.layout.points[f"symbol-{name}"] = (round(cx), round(cy))
            if suppressed is not None:
                # Suppressed: struck through in red.
                offset = radius * 0.72
                painter.draw.line(
                    [(cx - offset, cy - offset), (cx + offset, cy + offset)],
                    fill=mix(rgb("#d32f2f"), palette.emblem, 0.1),
                    width=max(4, round(radius * 0.14)),
                )
        painter.draw.rectangle(art.as_tuple(), outline=palette.border, width=3)
