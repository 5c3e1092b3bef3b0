"""Rival Realms: stone-grey faces whose frame colour tells the card type (no branches)."""

from __future__ import annotations

from cards.images.face import CardFace
from cards.images.paint import darken, lighten, rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette

_REINFORCE_KINDS = {"once": "Once Reinforce", "discard": "Discard Reinforce"}


@register_style
class RivalRealmsStyle(CardStyle):
    game_slug = "rival-realms"
    type_colors = {
        "supply": "#a8832a",
        "realm": "#3f6e3a",
        "unit": "#8c2f2f",
        "reinforce": "#2f5c8c",
    }
    emblems = {"supply": "gem", "realm": "tower", "unit": "sword", "reinforce": "shield"}

    def palette(self, face: CardFace) -> Palette:
        base = self.base_color(face)
        return Palette(
            border=rgb("#1c1c1f"),
            frame=base,
            panel=rgb("#ecebe6"),
            panel_ink=rgb("#202022"),
            accent=darken(base, 0.35),
            art_top=lighten(base, 0.35),
            art_bottom=darken(base, 0.45),
            emblem=lighten(base, 0.85),
        )

    def type_line(self, face: CardFace) -> str:
        kind = _REINFORCE_KINDS.get(str(face.stats.get("reinforce_kind", "")))
        line = kind or face.type_name
        if face.subtypes:
            line += " - " + ", ".join(face.subtypes)
        return line
