"""The API's index and its problem-type descriptions."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from api.problems import PROBLEM_TYPES
from api.serializers.cards import ProblemTypeSerializer


@extend_schema(tags=["meta"], responses=ProblemTypeSerializer)
@api_view(["GET"])
@permission_classes([AllowAny])
@throttle_classes([])
def problem_detail(request: Request, code: str) -> Response:
    """What one problem type (the ``type`` of an error body) means."""
    problem = PROBLEM_TYPES.get(code)
    if problem is None:
        raise NotFound(f"There is no problem type {code!r}.")
    return Response(ProblemTypeSerializer(problem).data)
