"""Rendering a card face to full-size and thumbnail images, named by content digest."""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image

from cards.images.face import CardFace, face_digest
from cards.images.layout import Layout
from cards.images.styles import style_for

VARIANTS = ("full", "thumb")


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
        if name == "thumb":
            size = style_for(self.face.game_slug).thumb_size
            return self.image.resize(size, Image.Resampling.LANCZOS, reducing_gap=2.0)
        raise ValueError(f"unknown image variant {name!r}; expected one of {VARIANTS}")


def image_digest(face: CardFace) -> str:
    """The content digest of ``face`` as its game's style draws it (no rendering needed)."""
    return face_digest(face, style_for(face.game_slug).key)


def output_size(game_slug: str, variant: str) -> tuple[int, int]:
    """The fixed pixel size of a game's ``full`` or ``thumb`` images."""
    style = style_for(game_slug)
    return style.size if variant == "full" else style.thumb_size


def render_face(face: CardFace) -> RenderedFace:
    """Draw ``face`` with its game's style."""
    style = style_for(face.game_slug)
    image, layout = style.render(face)
    return RenderedFace(face=face, digest=face_digest(face, style.key), image=image, layout=layout)
