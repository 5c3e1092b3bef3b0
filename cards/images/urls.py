"""URLs of card images, mounted under ``/cards/``.

``/cards/<game>/<card>.<digest>.png`` (and ``.thumb.png``) is immutable: the digest changes with
the card, so it may be cached for a year. ``/cards/<game>/<card>.png`` always shows the current
face and asks browsers to revalidate it (cheap, by ETag).
"""

from __future__ import annotations

from django.urls import path, register_converter

from cards.images import views
from cards.images.face import DIGEST_LENGTH


class DigestConverter:
    regex = f"[0-9a-f]{{{DIGEST_LENGTH}}}"

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


register_converter(DigestConverter, "card-image-digest")

urlpatterns = [
    path(
        "<slug:game>/<slug:slug>.<card-image-digest:digest>.png",
        views.card_image,
        {"variant": "full"},
        name="card-image",
    ),
    path(
        "<slug:game>/<slug:slug>.<card-image-digest:digest>.thumb.png",
        views.card_image,
        {"variant": "thumb"},
        name="card-image-thumb",
    ),
    path(
        "<slug:game>/<slug:slug>.<card-image-digest:digest>.icon.png",
        views.card_image,
        {"variant": "icon"},
        name="card-image-icon",
    ),
    path(
        "<slug:game>/<slug:slug>.png",
        views.card_image,
        {"variant": "full"},
        name="card-image-latest",
    ),
    path(
        "<slug:game>/<slug:slug>.thumb.png",
        views.card_image,
        {"variant": "thumb"},
        name="card-image-latest-thumb",
    ),
]
