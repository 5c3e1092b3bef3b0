"""Serving card images: drawn on first request, then straight from the disk cache."""

from __future__ import annotations

import io
import logging
from typing import BinaryIO

from django.core.handlers.asgi import ASGIRequest
from django.http import FileResponse, HttpRequest, HttpResponse, HttpResponseRedirect
from django.http.response import HttpResponseBase
from django.shortcuts import get_object_or_404
from django.utils.cache import get_conditional_response
from django.views.decorators.http import require_safe

from cards.images.face import CardFace, face_for_card
from cards.images.links import card_image_url
from cards.images.render import image_digest, render_face
from cards.images.storage import ensure_card_images
from cards.models import Card

logger = logging.getLogger(__name__)

IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "public, max-age=0, must-revalidate"


@require_safe
def card_image(
    request: HttpRequest, game: str, slug: str, variant: str, digest: str | None = None
) -> HttpResponseBase:
    """The PNG of a card face; an outdated digest redirects to the current one."""
    card = get_object_or_404(Card.objects.with_related(single=True), game__slug=game, slug=slug)
    face = face_for_card(card)
    current = image_digest(face)
    if digest is not None and digest != current:
        moved = HttpResponseRedirect(card_image_url(face, variant))
        moved["Cache-Control"] = "no-cache"
        return moved
    etag = f'"{current}-{variant}"'
    cache_control = IMMUTABLE if digest is not None else REVALIDATE
    not_modified = get_conditional_response(request, etag=etag)
    if not_modified is not None:
        not_modified["ETag"] = etag
        not_modified["Cache-Control"] = cache_control
        return not_modified
    try:
        cached = _open_cached(face, variant)
        if isinstance(request, ASGIRequest):
            # Under ASGI (runserver with daphne, `make run`) a file would be streamed by a
            # synchronous iterator, which Django consumes with a warning at every image; a card
            # face is tens of kilobytes, so it is read whole. WSGI (gunicorn) keeps the file
            # response, which its server sends from the file itself.
            with cached:
                response: HttpResponseBase = HttpResponse(cached.read(), content_type="image/png")
        else:
            response = FileResponse(cached, content_type="image/png")
    except OSError:
        # The cache folder is not writable (a read-only deployment): draw into memory instead.
        logger.warning("card image cache unavailable; serving %s from memory", face.slug)
        response = HttpResponse(_png_bytes(face, variant), content_type="image/png")
    response["ETag"] = etag
    response["Cache-Control"] = cache_control
    return response


def _open_cached(face: CardFace, variant: str) -> BinaryIO:
    paths, _ = ensure_card_images(face)
    try:
        return paths[variant].open("rb")
    except FileNotFoundError:  # removed by a concurrent re-render between the two steps
        paths, _ = ensure_card_images(face, force=True)
        return paths[variant].open("rb")


def _png_bytes(face: CardFace, variant: str) -> bytes:
    buffer = io.BytesIO()
    render_face(face).variant(variant).save(buffer, format="PNG")
    return buffer.getvalue()
