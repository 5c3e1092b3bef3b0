"""Revolt N Reign: parchment faces framed in the branch colour; Unconstitutional Acts in crimson."""

from __future__ import annotations

from cards.images.face import CardFace
from cards.images.paint import darken, lighten, rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette


@register_style
class RevoltNReignStyle(CardStyle):
    game_slug = "revolt-n-reign"
    type_colors = {"unconstitutional-act": "#5b0f14"}
    emblems = {
        "unconstitutional-act": "crown",
        "pillar": "column",
        "attack": "sword",
        "defense": "shield",
        "rights": "scroll",
        "freedom": "star",
        "bill": "gem",
    }

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        if face.type_slug == "unconstitutional-act":
            border = rgb("#1a0406")
            emblem = rgb("#e8c15a")
        else:
            border = rgb("#14213d")
            emblem = lighten(base, 0.88)
        return Palette(
            border=border,
            frame=base,
            panel=rgb("#f4ecd8"),
            panel_ink=rgb("#1b1a17"),
            accent=darken(base, 0.4),
            art_top=lighten(base, 0.5),
            art_bottom=darken(base, 0.2),
            emblem=emblem,
        )
