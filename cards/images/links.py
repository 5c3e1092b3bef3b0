"""Links to card images for pages: versioned URLs, fixed sizes and alt text."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from django.urls import reverse

from cards.images.face import DIGEST_LENGTH, CardFace, face_for_card
from cards.images.render import image_digest, output_size
from cards.links import SLUG, RouteFill
from cards.models import Card

_DIGEST = re.compile(f"[0-9a-f]{{{DIGEST_LENGTH}}}")  # cards.images.urls.DigestConverter
_ROUTES = {"full": "card-image", "thumb": "card-image-thumb", "icon": "card-image-icon"}


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
    #: the small image a list row shows (a quarter of the thumbnail)
    icon_url: str = ""
    icon_width: int = 0
    icon_height: int = 0

    @property
    def display_width(self) -> int:
        """Pages show the full image at half size, so it stays sharp on high-density screens."""
        return self.width // 2

    @property
    def display_height(self) -> int:
        return self.height // 2


def card_image_url(face: CardFace, variant: str = "full", *, digest: str | None = None) -> str:
    """The versioned (digest-bearing, cacheable forever) URL of a card's image (``digest``:
    the face's ``image_digest`` where the caller has it already)."""
    return reverse(
        _ROUTES[variant],
        kwargs={"game": face.game_slug, "slug": face.slug, "digest": digest or image_digest(face)},
    )


def card_image_links(card: Card) -> CardImageLinks:
    """URLs, sizes and alt text of ``card``'s image, for templates (no rendering happens here)."""
    return _links(face_for_card(card), card_image_url)


def card_image_links_many(cards: Iterable[Card]) -> list[CardImageLinks]:
    """``card_image_links`` of each card, with one URL reversal for them all (a list page)."""
    cards = list(cards)
    if not cards:
        return []
    route = RouteFill(
        _ROUTES["full"],
        {
            "game": ("zgamez", SLUG),
            "slug": ("zcardz", SLUG),
            "digest": (("f0e1d2c3b4a59687" * 4)[:DIGEST_LENGTH], _DIGEST),
        },
    )

    def url(face: CardFace, variant: str = "full", *, digest: str | None = None) -> str:
        assert variant == "full"
        return route.url(game=face.game_slug, slug=face.slug, digest=digest or image_digest(face))

    return [_links(face_for_card(card), url) for card in cards]


def _links(face: CardFace, image_url: Callable[..., str]) -> CardImageLinks:
    url = image_url(face, "full", digest=image_digest(face))
    # The thumbnail and icon routes differ from the full image's only by the suffix
    # (cards/images/urls.py): one reverse() a card instead of three (a page shows 50 cards).
    stem = url.removesuffix(".png")
    width, height = output_size(face.game_slug, "full")
    thumb_width, thumb_height = output_size(face.game_slug, "thumb")
    icon_width, icon_height = output_size(face.game_slug, "icon")
    return CardImageLinks(
        url=url,
        thumb_url=f"{stem}.thumb.png",
        width=width,
        height=height,
        thumb_width=thumb_width,
        thumb_height=thumb_height,
        alt=f"Card face of {face.name} ({face.type_name}, {face.game_name})",
        icon_url=f"{stem}.icon.png",
        icon_width=icon_width,
        icon_height=icon_height,
    )
