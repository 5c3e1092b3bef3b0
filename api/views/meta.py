"""The API's root (every endpoint, with its URL and what it does) and its problem types."""

from __future__ import annotations

from django.urls import reverse
from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotFound
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from api.endpoints import api_endpoints
from api.serializers.cards import ProblemTypeSerializer
from common.problems import PROBLEM_TYPES


class EndpointSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The URL name (for Django's reverse).")
    url = serializers.CharField(help_text="Absolute URL; parameters in braces, e.g. {pk}.")
    methods = serializers.DictField(
        child=serializers.CharField(), help_text="Each HTTP method with what it does."
    )
    description = serializers.CharField()


class ApiRootSerializer(serializers.Serializer):
    title = serializers.CharField()
    docs = serializers.URLField(help_text="Interactive documentation of every endpoint.")
    schema = serializers.URLField(help_text="The OpenAPI 3 document.")
    endpoints = EndpointSerializer(many=True)


class ApiRootView(APIView):
    """Every endpoint of the API, with its URL and what it does."""

    permission_classes = [AllowAny]

    def get_view_name(self) -> str:
        return "Deckwright API"

    @extend_schema(
        tags=["meta"],
        summary="Every endpoint of the API, with its URL and what it does",
        responses=ApiRootSerializer,
    )
    def get(self, request: Request) -> Response:
        """Every endpoint of the API, with its URL and what it does."""
        return Response(_root(request))


def _root(request: Request) -> dict[str, object]:
    absolute = request.build_absolute_uri
    endpoints = [
        {
            "name": endpoint.name,
            # braces stay readable: the URL is a template, not a link to follow as is
            "url": absolute(endpoint.path).replace("%7B", "{").replace("%7D", "}"),
            "methods": endpoint.methods,
            "description": endpoint.description,
        }
        for endpoint in api_endpoints()
    ]
    return {
        "title": "Deckwright API",
        "docs": absolute(reverse("api:docs")),
        "schema": absolute(reverse("api:schema")),
        "endpoints": endpoints,
    }


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
