"""Content negotiation that lets ``?format=`` be a parameter of Deckwright's own.

DRF reads ``?format=`` (``URL_FORMAT_OVERRIDE``) to choose the response's renderer and answers
404 when no renderer has that name. Deckwright's deck validation takes the deck format there
(``GET /api/v1/decks/{id}/validate/?format=standard``, docs/api.md), so a value that names no
renderer is left to the view instead: the renderer is chosen by the ``Accept`` header as if the
parameter were absent. ``?format=json`` still chooses JSON, and a view that reads ``format``
treats the renderer's name as no value (``format_param``).
"""

from __future__ import annotations

from collections.abc import Iterable

from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer
from rest_framework.request import Request


class FormatParameterNegotiation(DefaultContentNegotiation):
    """DRF's negotiation, but ``?format=`` naming no renderer chooses by ``Accept`` alone."""

    def filter_renderers(
        self, renderers: Iterable[BaseRenderer], format: str
    ) -> list[BaseRenderer]:
        """The renderers called ``format``; all of them when none is (DRF raises 404)."""
        every = list(renderers)
        matching = [renderer for renderer in every if renderer.format == format]
        return matching or every


def format_param(request: Request, value: str | None) -> str | None:
    """``value`` of a view's own ``format`` parameter, or None when it only chose the response's
    renderer (``?format=json``)."""
    renderer = getattr(request, "accepted_renderer", None)
    if value and renderer is not None and value == renderer.format:
        return None
    return value
