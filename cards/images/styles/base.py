"""The portrait card face every game style builds on.

A style is a ``CardStyle`` subclass registered for one game slug. The base class draws a complete
face (frame, name bar with cost, art generated from the card's own data with its type's emblem
(``cards.images.art``), type line, rules and flavour text, printed numbers, set code, collector
number and rarity mark); a game style changes the palette, the emblem per card type, the number
badges or any single step by overriding one method.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from cards.images.art import draw_generated_art
from cards.images.face import CardFace, PrintedNumber
from cards.images.layout import Box, Layout
from cards.images.paint import RGB, Painter, darken, ink_on, lighten, mix, rgb

CARD_SIZE = (630, 880)
CARD_THUMB_SIZE = (252, 352)


@dataclass(frozen=True)
class Palette:
    """The colours of one face, chosen by game, card type and branch."""

    border: RGB
    frame: RGB
    panel: RGB
    panel_ink: RGB
    accent: RGB
    art_top: RGB
    art_bottom: RGB
    emblem: RGB

    @property
    def frame_ink(self) -> RGB:
        return ink_on(self.frame)


class CardStyle:
    """A game's card face. Subclasses set ``game_slug`` and override what differs."""

    game_slug: str = ""
    version: str = "1"
    size: tuple[int, int] = CARD_SIZE
    thumb_size: tuple[int, int] = CARD_THUMB_SIZE
    neutral_color: RGB = (120, 116, 108)
    type_colors: dict[str, str] = {}
    emblems: dict[str, str] = {}
    default_emblem: str = "disc"

    @property
    def key(self) -> str:
        """Identifies the style (and its version) in the image digest."""
        return f"{type(self).__module__}.{type(self).__qualname__}:{self.version}"

    # -- colours --------------------------------------------------------------------------------
    def base_color(self, face: CardFace) -> RGB:
        """The face's main colour: its branch colour, else its card type's, else neutral."""
        if face.branch_color:
            return rgb(face.branch_color, self.neutral_color)
        if face.type_slug in self.type_colors:
            return rgb(self.type_colors[face.type_slug], self.neutral_color)
        return self.neutral_color

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        return Palette(
            border=(22, 20, 18),
            frame=base,
            panel=(246, 242, 232),
            panel_ink=(28, 26, 24),
            accent=darken(base, 0.35),
            art_top=lighten(base, 0.45),
            art_bottom=darken(base, 0.25),
            emblem=lighten(base, 0.85),
        )

    # -- drawing --------------------------------------------------------------------------------
    def render(self, face: CardFace) -> tuple[Image.Image, Layout]:
        """Draw ``face`` at full size and return the image with its layout measurements."""
        width, height = self.size
        image = Image.new("RGBA", self.size, (0, 0, 0, 0))  # rounded corners stay transparent
        layout = Layout(width=width, height=height)
        painter = Painter(image, layout)
        palette = self.palette(face)
        self.draw_face(painter, face, palette)
        return image, layout

    def draw_face(self, painter: Painter, face: CardFace, palette: Palette) -> None:
        width, height = self.size
        self.draw_frame(painter, face, palette)
        name_bar = Box(30, 28, width - 30, 100)
        art = Box(40, 110, width - 40, 468)
        type_bar = Box(30, 476, width - 30, 522)
        numbers = self.stat_numbers(face)
        numbers_bar = Box(40, height - 118, width - 40, height - 56) if numbers else None
        text_box = Box(40, 530, width - 40, (numbers_bar.y0 - 8) if numbers_bar else height - 56)
        footer = Box(36, height - 48, width - 36, height - 16)
        self.draw_name_bar(painter, face, palette, name_bar)
        self.draw_art(painter, face, palette, art)
        self.draw_type_line(painter, face, palette, type_bar)
        self.draw_text_box(painter, face, palette, text_box)
        if numbers_bar is not None:
            self.draw_numbers(painter, face, palette, numbers_bar, numbers)
        self.draw_footer(painter, face, palette, footer)

    def draw_frame(self, painter: Painter, face: CardFace, palette: Palette) -> None:
        width, height = self.size
        painter.panel(Box(0, 0, width, height), palette.border, radius=30)
        painter.panel(Box(12, 12, width - 12, height - 12), palette.frame, radius=22)

    def cost_number(self, face: CardFace) -> PrintedNumber | None:
        """The number shown in the name bar's badge (the cost, where the card prints one)."""
        return face.number("cost")

    def stat_numbers(self, face: CardFace) -> list[PrintedNumber]:
        """The numbers shown in the badge row at the bottom (every printed number but the cost)."""
        cost = self.cost_number(face)
        return [n for n in face.numbers if cost is None or n.column != cost.column]

    def draw_name_bar(self, painter: Painter, face: CardFace, palette: Palette, bar: Box) -> None:
        painter.panel(bar, palette.panel, radius=14, outline=palette.accent, width=3)
        cost = self.cost_number(face)
        name_region = bar.inset(18, 14)
        if cost is not None:
            badge = Box(bar.x1 - 116, bar.y0 + 6, bar.x1 - 8, bar.y1 - 6)
            name_region = Box(name_region.x0, name_region.y0, badge.x0 - 12, name_region.y1)
            self.draw_badge(painter, palette, badge, cost, role="cost")
        painter.text(
            "name",
            face.name,
            name_region,
            fill=palette.panel_ink,
            max_size=36,
            min_size=20,
            max_lines=1,
            valign="middle",
            stroke=1,
        )

    def draw_badge(
        self, painter: Painter, palette: Palette, box: Box, number: PrintedNumber, *, role: str
    ) -> None:
        """A rounded badge with the number's value large and its label small beneath."""
        painter.panel(box, palette.accent, radius=12, outline=palette.border, width=2)
        ink = ink_on(palette.accent)
        value_box, label_box = box.inset(6, 4).split_y(round(box.height * 0.62) - 4)
        painter.text(
            f"{role}-value",
            self.number_text(number),
            value_box,
            fill=ink,
            max_size=min(40, value_box.height),
            min_size=12,
            max_lines=1,
            align="center",
            valign="middle",
            stroke=1,
        )
        painter.text(
            f"{role}-label",
            number.label,
            label_box,
            fill=ink,
            max_size=min(15, label_box.height),
            min_size=8,
            max_lines=1,
            align="center",
            valign="middle",
        )
        painter.layout.points[role] = box.center

    def number_text(self, number: PrintedNumber) -> str:
        """How a printed number reads on the face (a game may add a sign or a unit)."""
        return str(number.value)

    def emblem_for(self, face: CardFace) -> str:
        return self.emblems.get(face.type_slug, self.default_emblem)

    def draw_art(self, painter: Painter, face: CardFace, palette: Palette, art: Box) -> None:
        """The card's generated art (``cards.images.art``) with its type's emblem on top."""
        draw_generated_art(painter, face, palette.frame, art)
        size = round(min(art.width, art.height) * 0.5)
        cx, cy = art.center
        medallion = Box(cx - size // 2, cy - size // 2, cx + size // 2, cy + size // 2)
        painter.disc(medallion.center, size / 2, palette.accent, outline=palette.emblem)
        painter.emblem(self.emblem_for(face), medallion.inset(size // 6), palette.emblem)
        painter.draw.rectangle(art.as_tuple(), outline=palette.border, width=3)
        painter.layout.points["emblem"] = medallion.center

    def type_line(self, face: CardFace) -> str:
        parts = [face.type_name + (" - " + ", ".join(face.subtypes) if face.subtypes else "")]
        if face.branch_name:
            parts.append(face.branch_name)
        return "  ·  ".join(parts)

    def draw_type_line(self, painter: Painter, face: CardFace, palette: Palette, bar: Box) -> None:
        painter.panel(bar, palette.panel, radius=10, outline=palette.accent, width=2)
        painter.text(
            "type",
            self.type_line(face),
            bar.inset(16, 8),
            fill=palette.panel_ink,
            max_size=24,
            min_size=14,
            max_lines=1,
            valign="middle",
        )

    def flavor_line(self, face: CardFace) -> str:
        if not face.flavor_text:
            return ""
        if face.attribution:
            return f"{face.flavor_text}\n- {face.attribution}"
        return face.flavor_text

    def draw_text_box(self, painter: Painter, face: CardFace, palette: Palette, box: Box) -> None:
        painter.panel(box, palette.panel, radius=8, outline=palette.accent, width=2)
        inner = box.inset(16, 12)
        flavor = self.flavor_line(face)
        rules = face.rules_text.strip()
        if flavor and rules:
            flavor_height = round(inner.height * 0.3)
            rules_box, flavor_box = inner.split_y(inner.height - flavor_height - 10, gap=10)
            painter.draw.line(
                [(rules_box.x0 + 40, rules_box.y1 + 4), (rules_box.x1 - 40, rules_box.y1 + 4)],
                fill=mix(palette.panel, palette.accent, 0.5),
                width=1,
            )
        elif flavor:
            rules_box, flavor_box = None, inner
        else:
            rules_box, flavor_box = inner, None
        if rules_box is not None and rules:
            painter.text(
                "rules",
                rules,
                rules_box,
                fill=palette.panel_ink,
                max_size=26,
                min_size=13,
                valign="middle" if not flavor else "top",
            )
        if flavor_box is not None:
            painter.text(
                "flavor",
                flavor,
                flavor_box,
                fill=mix(palette.panel_ink, palette.panel, 0.35),
                max_size=20,
                min_size=12,
                valign="bottom" if rules else "middle",
            )

    def draw_numbers(
        self,
        painter: Painter,
        face: CardFace,
        palette: Palette,
        bar: Box,
        numbers: list[PrintedNumber],
    ) -> None:
        gap = 10
        count = len(numbers)
        width = min(150, (bar.width - gap * (count - 1)) // count)
        left = bar.x1 - count * width - gap * (count - 1)
        for index, number in enumerate(numbers):
            x0 = left + index * (width + gap)
            self.draw_badge(
                painter, palette, Box(x0, bar.y0, x0 + width, bar.y1), number, role=number.column
            )

    def set_line(self, face: CardFace) -> str:
        number = f" · {face.collector_number}" if face.collector_number else ""
        return f"{face.set_code}{number}"

    def footer_note(self, face: CardFace) -> str:
        """The short text at the bottom right, beside the rarity mark."""
        return face.rarity_name or face.game_short_name

    def draw_footer(self, painter: Painter, face: CardFace, palette: Palette, footer: Box) -> None:
        ink = palette.frame_ink
        mark_size = footer.height
        mark_box = Box(footer.x1 - mark_size, footer.y0, footer.x1, footer.y1)
        left, right = (
            Box(footer.x0, footer.y0, footer.x0 + footer.width // 2, footer.y1),
            Box(footer.x0 + footer.width // 2 + 8, footer.y0, mark_box.x0 - 10, footer.y1),
        )
        painter.text(
            "set",
            self.set_line(face),
            left,
            fill=ink,
            max_size=20,
            min_size=11,
            max_lines=1,
            valign="middle",
        )
        painter.text(
            "footer-note",
            self.footer_note(face),
            right,
            fill=ink,
            max_size=18,
            min_size=10,
            max_lines=1,
            align="right",
            valign="middle",
        )
        if face.rarity_slug:
            painter.rarity_mark(mark_box.center, mark_size / 2 - 3, face.rarity_rank)
            painter.layout.points["rarity"] = mark_box.center
