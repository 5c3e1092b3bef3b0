"""Matchup runs over the API, read only: your runs and each one's results by deck and by seat (a
run is started on the ``/matchups/`` page). Thin: the results are ``rules.selectors``'."""

from __future__ import annotations

from typing import Any

from django.db.models import QuerySet
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response

from api.serializers import matchups as s
from deckwright.inputs import ID_PATTERN
from rules.models import MatchupRun
from rules.selectors import matchup_runs_owned_by


class MatchupRunViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Your matchup runs, newest first; another user's run is a 404."""

    permission_classes = [IsAuthenticated]
    serializer_class = s.MatchupRunSerializer
    lookup_value_regex = ID_PATTERN

    def get_queryset(self) -> QuerySet[MatchupRun]:
        return matchup_runs_owned_by(self.request.user, None).order_by("-created_at", "-pk")

    @extend_schema(summary="Your matchup runs, with their results by deck and by seat")
    def list(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().list(request, *args, **kwargs)

    @extend_schema(summary="One of your matchup runs: results by deck, by seat, first player")
    def retrieve(self, request: Request, *args: Any, **kwargs: Any) -> Response:
        return super().retrieve(request, *args, **kwargs)
