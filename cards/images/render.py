"""Rendering a card face to full-size and thumbnail images, named by content digest."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from cards.images.face import CardFace, face_digest
from cards.images.layout import Layout
from cards.images.styles import style_for

VARIANTS = ("full", "thumb", "icon")
# A list row shows the card at about 32 CSS pixels: the icon is a quarter of the thumbnail (sharp
# at twice that on high-density screens, a tenth of the thumbnail's bytes).
ICON_DIVISOR = 4


@dataclass
class RenderedFace:
    """One rendered face: both image sizes, the layout measurements and the content digest."""

    face: CardFace
    digest: str
    image: Image.Image
    layout: Layout

    def variant(self, name: str) -> Image.Image:
        """The ``full`` image or its ``thumb`` (fixed sizes given by the game's style)."""
        if name == "full":
            return self.image
        if name in ("thumb", "icon"):
            size = output_size(self.face.game_slug, name)
            return self.image.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
        raise ValueError(f"unknown image variant {name!r}; expected one of {VARIANTS}")


def image_digest(face: CardFace) -> str:
    """The content digest of ``face`` as its game's style draws it (no rendering needed)."""
    return face_digest(face, style_for(face.game_slug).key)


def output_size(game_slug: str, variant: str) -> tuple[int, int]:
    """The fixed pixel size of a game's ``full``, ``thumb`` or ``icon`` images."""
    style = style_for(game_slug)
    if variant == "full":
        return style.size
    width, height = style.thumb_size
    if variant == "icon":
        return (width // ICON_DIVISOR, height // ICON_DIVISOR)
    return (width, height)


def render_face(face: CardFace) -> RenderedFace:
    """Draw ``face`` with its game's style."""
    style = style_for(face.game_slug)
    image, layout = style.render(face)
    return RenderedFace(face=face, digest=face_digest(face, style.key), image=image, layout=layout)
