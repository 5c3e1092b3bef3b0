"""Toy Duel's card face: a plum border, so a test can tell it from the plain style."""

from __future__ import annotations

from dataclasses import replace

from cards.images.face import CardFace
from cards.images.paint import rgb
from cards.images.styles import register_style
from cards.images.styles.base import CardStyle, Palette

BORDER = "#6a1b5a"


@register_style
class ToyDuelStyle(CardStyle):
    game_slug = "toy-duel"

    def palette(self, face: CardFace) -> Palette:
        return replace(super().palette(face), border=rgb(BORDER))
