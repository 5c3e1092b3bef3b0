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
from drf_spectacular.settings import spectacular_settings
from drf_spectacular.utils import extend_schema
from drf_spectacular.views import (
    SCHEMA_KWARGS,
    SpectacularAPIView,
    SpectacularRedocView,
    SpectacularSwaggerView,
)
from rest_framework import serializers
from rest_framework.decorators import api_view, permission_classes, throttle_classes
from rest_framework.exceptions import NotFound
from rest_framework.metadata import SimpleMetadata
from rest_framework.permissions import AllowAny
from rest_framework.renderers import JSONRenderer
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


# The OpenAPI document, rendered, by (renderer, language, version, URL configuration): it is a function of
# the code and the settings alone (the same for every user and whatever rows the database holds;
# tests/api/test_openapi.py checks both), so this process builds it once. Building it took
# 90 ms and rendering it 85 ms as YAML on the demo database, on every visit of the docs pages.
_schemas: dict[tuple[str, str, str, str], tuple[bytes, str, str, str]] = {}
_schemas_lock = threading.Lock()


@receiver(setting_changed)
def _schemas_forget(**kwargs: Any) -> None:
    """A changed setting (a test's override of the URLs or of SPECTACULAR_SETTINGS) may change
    the document: the next request builds it again."""
    schemas_forget()


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

    A copy is kept for each format and each language of ``settings.LANGUAGES``: ``?lang=`` is
    read as Django reads a browser's language (``get_supported_language_variant``: ``de-AT`` is
    German), and a value it does not know gets the default language's document. So no request
    can make this process keep more than those few, nor keep one language's document under
    another's name. The API's version is in its path (``/api/v1/``): a ``?version=`` is not read
    (drf-spectacular copied any value into the document and into its file name, where a newline
    was a 500).
    """

    @extend_schema(**SCHEMA_KWARGS)  # as drf-spectacular's view: not in the document itself
    def get(self, request: Request, *args: Any, **kwargs: Any) -> HttpResponse:
        language = self._language(request)
        renderer = request.accepted_renderer
        key = (
            f"{type(renderer).__module__}.{type(renderer).__qualname__}",
            language,
            str(self.api_version or request.version or ""),  # none: the API has one version
            str(get_urlconf()),
        )
        found = _schemas.get(key)
        if found is None:
            with _schemas_lock:
                found = _schemas.get(key)
                if found is None:
                    found = _schemas[key] = self._render(request, language)
        content, content_type, disposition, etag = found
        whole = HttpResponse(content, content_type=content_type)
        whole["Content-Disposition"] = disposition
        whole["ETag"] = etag
        # a 304 when If-None-Match holds the ETag, else the whole document
        response = get_conditional_response(request, etag=etag, response=whole) or whole
        patch_cache_control(response, no_cache=True)
        patch_vary_headers(response, ["Accept"])
        return response

    @staticmethod
    def _language(request: Request) -> str:
        wanted = request.GET.get("lang", "")
        if wanted and settings.USE_I18N:
            try:
                return translation.get_supported_language_variant(wanted).lower()
            except LookupError:
                pass
        return (translation.get_language() or settings.LANGUAGE_CODE).lower()

    def _render(self, request: Request, language: str) -> tuple[bytes, str, str, str]:
        """The document in ``language``, rendered as ``request`` negotiated (its strings are
        translated as they are rendered, so both happen in the language)."""
        version = self.api_version or request.version
        with translation.override(language):
            generator = self.generator_class(
                urlconf=self.urlconf, api_version=version, patterns=self.patterns
            )
            data = generator.get_schema(request=request, public=self.serve_public)
            # the renderer DRF negotiated, as DRF gives it to a view's Response
            response = self.finalize_response(request, Response(data))
            response.render()
        content = bytes(response.content)
        title = spectacular_settings.TITLE or "schema"
        suffix = f" ({version})" if version else ""
        disposition = f'inline; filename="{title}{suffix}.{request.accepted_renderer.format}"'
        etag = '"' + hashlib.sha256(content).hexdigest()[:32] + '"'
        return (content, response["Content-Type"], disposition, etag)


def _options_in_json(view: APIView, request: Request) -> Response:
    """OPTIONS on a documentation page: DRF answers it with the view's metadata, which the
    page's HTML renderer has no template for (a 500). It goes out as JSON instead, as every
    other API endpoint sends it."""
    request.accepted_renderer = JSONRenderer()
    request.accepted_media_type = "application/json"
    return Response(SimpleMetadata().determine_metadata(request, view))


class SwaggerView(SpectacularSwaggerView):
    """The Swagger UI page of the schema."""

    def options(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        """The page described in JSON (``request``: DRF's, typed Any as View's and
        APIView's stubs disagree on it)."""
        return _options_in_json(self, request)


class RedocView(SpectacularRedocView):
    """The Redoc page of the schema."""

    def options(self, request: Any, *args: Any, **kwargs: Any) -> Response:
        """The page described in JSON (``request``: DRF's, typed Any as View's and
        APIView's stubs disagree on it)."""
        return _options_in_json(self, request)
