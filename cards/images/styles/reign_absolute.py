"""Reign Absolute: Umbrous Edition: dark faces in the faction colour, Strength in the top badge.

Reinforcement cards print a random number per copy in the bottom right corner (used to decide the
first player); the face lists every copy's number there.
"""

from __future__ import annotations

from cards.images.face import CardFace, PrintedNumber
from cards.images.paint import darken, lighten, rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette

_BONUS_COLUMNS = ("attack", "defense")


@register_style
class ReignAbsoluteStyle(CardStyle):
    game_slug = "reign-absolute"
    type_colors = {"combat-reinforcement": "#5a5a6e", "turn-reinforcement": "#7a6533"}
    emblems = {
        "liege": "crown",
        "unit": "sword",
        "combat-reinforcement": "shield",
        "turn-reinforcement": "bolt",
    }

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        return Palette(
            border=rgb("#08070c"),
            frame=darken(base, 0.15),
            panel=rgb("#1f1c27"),
            panel_ink=rgb("#ece6f2"),
            accent=lighten(base, 0.1),
            art_top=darken(base, 0.55),
            art_bottom=darken(base, 0.85),
            emblem=lighten(base, 0.6),
        )

    def cost_number(self, face: CardFace) -> PrintedNumber | None:
        return face.number("strength")

    def number_text(self, number: PrintedNumber) -> str:
        if number.column in _BONUS_COLUMNS and number.value >= 0:
            return f"+{number.value}"  # bonuses print signed, as in the rulebook (+4 Attack)
        return str(number.value)

    def footer_note(self, face: CardFace) -> str:
        values = face.stats.get("random_values")
        if isinstance(values, list) and values:
            return "Random " + " / ".join(str(v) for v in values)
        return face.game_short_name
