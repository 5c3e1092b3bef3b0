"""The matchup runs' old read-only API, deprecated: matchups are simulation jobs of kind
``matchup`` (``/api/v1/simulations/``). Each old URL answers a permanent redirect (301) to what
replaced it, with a ``Deprecation`` header (RFC 9745), a ``Link`` to the successor and a problem
document saying so (``moved-to-simulations``); ``docs/api.md`` says how to move over."""

from __future__ import annotations

from typing import Any

from django.urls import reverse
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import status, viewsets
from rest_framework.exceptions import NotFound
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from common.inputs import ID_PATTERN
from common.problems import problem
from rules.lab.selectors import simulation_job_legacy_run

#: when the matchup URLs were deprecated (2026-12-02T00:00:00Z), as RFC 9745 writes it
DEPRECATED_SINCE = "@1796169600"

MOVED = OpenApiResponse(
    description="Moved for good: Location (and Link, rel=successor-version) names the "
    "simulation job the run became, or the list of jobs; the body is a problem document "
    "(moved-to-simulations) with the same location."
)


def _moved(request: Request, path: str, detail: str) -> Response:
    location = request.build_absolute_uri(path)
    body = problem(
        status.HTTP_301_MOVED_PERMANENTLY,
        detail,
        code="moved-to-simulations",
        request=request,
        location=location,
    )
    headers = {
        "Location": location,
        "Deprecation": DEPRECATED_SINCE,
        "Link": f'<{location}>; rel="successor-version"',
    }
    response = Response(body, status=status.HTTP_301_MOVED_PERMANENTLY, headers=headers)
    response.content_type = "application/problem+json"
    return response


#: the 301's headers, as ``api.schema.ProblemAutoSchema`` documents them
MOVED_HEADERS = {
    "Location": {
        "schema": {"type": "string", "format": "uri"},
        "description": "The simulation job the run became, or the list of jobs.",
    },
    "Deprecation": {
        "schema": {"type": "string", "example": DEPRECATED_SINCE},
        "description": "RFC 9745: when these URLs were deprecated, as @ and Unix seconds.",
    },
    "Link": {
        "schema": {"type": "string"},
        "description": 'The same location, rel="successor-version".',
    },
}


class MatchupRunViewSet(viewsets.ViewSet):
    """Deprecated: matchup runs are simulation jobs of kind matchup."""

    permission_classes = [IsAuthenticated]
    lookup_value_regex = ID_PATTERN
    documented_responses = {"301": MOVED_HEADERS}

    @extend_schema(
        summary="Deprecated: your matchups are simulation jobs (kind matchup)",
        deprecated=True,
        responses={301: MOVED},
    )
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return _moved(
            request,
            reverse("api:simulation-list"),
            "Matchup runs are simulation jobs now: list yours at /api/v1/simulations/ (those "
            "of kind matchup).",
        )

    @extend_schema(
        summary="Deprecated: a matchup run is the simulation job it became",
        deprecated=True,
        responses={301: MOVED},
    )
    def retrieve(self, request: Request, pk: str, *args: Any, **kwargs: Any) -> Response:
        job = simulation_job_legacy_run(int(pk))
        if job is None:
            raise NotFound("There is no matchup run with this id.")
        return _moved(
            request,
            reverse("api:simulation-detail", args=[job.pk]),
            f"Matchup run {pk} is simulation job {job.pk} now; its results are at "
            f"/api/v1/simulations/{job.pk}/results/.",
        )
