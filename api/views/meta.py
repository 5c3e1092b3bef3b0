"""The API's root (every endpoint, with its URL and what it does) and its problem types."""

from __future__ import annotations

import hashlib
import threading
from typing import Any

from django.conf import settings
from django.core.signals import setting_changed
from django.dispatch import receiver
from django.http import HttpResponse
from django.urls import get_urlconf, reverse
from django.utils import translation
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import SCHEMA_KWARGS, SpectacularAPIView
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


# The OpenAPI document, rendered, by (renderer, language, URL configuration): it is a function of
# the code and the settings alone (the same for every user and whatever rows the database holds;
# tests/api/test_openapi.py checks both), so this process builds it once. Building it took
# 90 ms and rendering it 85 ms as YAML on the demo database, on every visit of the docs pages.
_schemas: dict[tuple[str, str, str, str], tuple[bytes, str, str, str]] = {}
_schemas_lock = threading.Lock()


@receiver(setting_changed)
def _schemas_forget(**kwargs: Any) -> None:
    """A changed setting (a test's override of the URLs or of SPECTACULAR_SETTINGS) may change
    the document: the next request builds it again."""
    _schemas.clear()


def schemas_forget() -> None:
    """Drop this process's rendered OpenAPI documents (tests; nothing else changes them)."""
    _schemas.clear()


def schema_copies() -> int:
    """How many rendered OpenAPI documents this process keeps."""
    return len(_schemas)


class SchemaView(SpectacularAPIView):
    """The OpenAPI 3 document (YAML, or JSON with ``?format=json`` or by ``Accept``), built once
    a process, with a strong ``ETag`` (a digest of its bytes): ``If-None-Match`` with it is a 304,
    and ``Cache-Control: no-cache`` makes browsers (the Swagger and Redoc pages) ask so on each
    visit rather than fetch the whole document again.

    A copy is kept for each format and each ``lang`` of ``settings.LANGUAGES`` (or none); a
    document in another ``lang`` is built every time, as before, so no request can make this
    process keep more than a few. The API's version is in its path (``/api/v1/``): a
    ``?version=`` is not read (drf-spectacular would copy any value into the document and into
    its file name, where a newline was a 500).
    """

    @extend_schema(**SCHEMA_KWARGS)  # as drf-spectacular's view: not in the document itself
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        key = self._key(request)
        if key is None:
            return super().get(request, *args, **kwargs)
        found = _schemas.get(key)
        if found is None:
            with _schemas_lock:
                found = _schemas.get(key)
                if found is None:
                    found = _schemas[key] = self._render(request, *args, **kwargs)
        content, content_type, disposition, etag = found
        whole = HttpResponse(content, content_type=content_type)
        whole["Content-Disposition"] = disposition
        whole["ETag"] = etag
        # a 304 when If-None-Match holds the ETag, else the whole document
        response = get_conditional_response(request, etag=etag, response=whole) or whole
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["Accept"])
        return response

    def _get_version_parameter(self, request: Request) -> None:
        return None

    def _key(self, request: Request) -> tuple[str, str, str, str] | None:
        lang = request.GET.get("lang")
        if lang is not None and not (settings.USE_I18N and lang in dict(settings.LANGUAGES)):
            return None
        language = lang or translation.get_language() or ""
        renderer = type(request.accepted_renderer)
        version = str(self.api_version or request.version or "")  # none: the API has one
        name = f"{renderer.__module__}.{renderer.__qualname__}"
        return (name, language, version, str(get_urlconf()))

    def _render(self, request: Request, *args: Any, **kwargs: Any) -> tuple[bytes, str, str, str]:
        response = super().get(request, *args, **kwargs)
        response.accepted_renderer = request.accepted_renderer
        response.accepted_media_type = request.accepted_media_type
        response.renderer_context = self.get_renderer_context()
        response.render()
        content = bytes(response.content)
        etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
        return (content, response["Content-Type"], response["Content-Disposition"], etag)
