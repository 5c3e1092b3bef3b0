"""Links to card images for pages: versioned URLs, fixed sizes and alt text."""

from __future__ import annotations

from dataclasses import dataclass

from django.urls import reverse

from cards.images.face import CardFace, face_for_card
from cards.images.render import image_digest, output_size
from cards.models import Card

_ROUTES = {"full": "card-image", "thumb": "card-image-thumb"}


@dataclass(frozen=True)
class CardImageLinks:
    """What a page needs to show a card's image: versioned URLs, sizes and alt text."""

    url: str
    thumb_url: str
    width: int
    height: int
    thumb_width: int
    thumb_height: int
    alt: str

    @property
    def display_width(self) -> int:
        """Pages show the full image at half size, so it stays sharp on high-density screens."""
        return self.width // 2

    @property
    def display_height(self) -> int:
        return self.height // 2


def card_image_url(face: CardFace, variant: str = "full") -> str:
    """The versioned (digest-bearing, cacheable forever) URL of a card's image."""
    return reverse(
        _ROUTES[variant],
        kwargs={"game": face.game_slug, "slug": face.slug, "digest": image_digest(face)},
    )


def card_image_links(card: Card) -> CardImageLinks:
    """URLs, sizes and alt text of ``card``'s image, for templates (no rendering happens here)."""
    face = face_for_card(card)
    width, height = output_size(face.game_slug, "full")
    thumb_width, thumb_height = output_size(face.game_slug, "thumb")
    return CardImageLinks(
        url=card_image_url(face, "full"),
        thumb_url=card_image_url(face, "thumb"),
        width=width,
        height=height,
        thumb_width=thumb_width,
        thumb_height=thumb_height,
        alt=f"Card face of {face.name} ({face.type_name}, {face.game_name})",
    )
