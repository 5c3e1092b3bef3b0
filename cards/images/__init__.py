"""Card images: every card face of every game drawn with Pillow, cached on disk by content hash.

Entry points:
    face_for_card(card)         what a card shows, as plain data (``CardFace``)
    render_face(face)           draw it: full image, thumbnail, layout measurements, digest
    ensure_card_images(face)    the cached PNG files of its current digest, drawn when missing
    card_image_url(face, ...)   the versioned URL (digest in the path) the pages link to

Styles (one per game, ``cards/images/styles/<game>.py``) decide how a face looks.
"""

from __future__ import annotations

from cards.images.face import CardFace, face_for_card
from cards.images.render import RenderedFace, image_digest, output_size, render_face
from cards.images.storage import ensure_card_images, image_path

__all__ = [
    "CardFace",
    "RenderedFace",
    "ensure_card_images",
    "face_for_card",
    "image_digest",
    "image_path",
    "output_size",
    "render_face",
]
