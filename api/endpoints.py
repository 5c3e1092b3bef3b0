"""Every endpoint of the API, for its root (``GET /api/v1/``): found by walking the URL resolver,
so a new route is listed without an edit here, and described by its OpenAPI summary (the
``extend_schema`` of its view) or, lacking one, the first line of its docstring."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from django.urls import URLPattern, URLResolver, get_resolver

API_NAMESPACE = "api"
HIDDEN_METHODS = frozenset({"head", "options", "trace"})

# The API's own documentation views are not operations of the schema they serve.
DOCUMENTATION = {
    "schema": "The OpenAPI 3 document of this API (YAML; JSON with ?format=json).",
    "docs": "Interactive API documentation (Swagger UI): try any endpoint from the browser.",
    "redoc": "The API reference, one page (ReDoc).",
}


@dataclass(frozen=True)
class Endpoint:
    """One route of the API: its URL name, path template, HTTP methods and what it does."""

    name: str
    path: str
    """The path with its parameters in braces: ``/api/v1/decks/{pk}/``."""
    methods: dict[str, str]
    """Each HTTP method with a line on what it does."""
    description: str


def _template(pattern: Any) -> str:
    """A URL pattern as a path template: ``<slug:code>`` and ``(?P<pk>...)`` become ``{name}``."""
    text = str(pattern)
    if text.startswith("^") or text.endswith("$"):
        text = text.lstrip("^").rstrip("$")
        text = re.sub(r"\(\?P<(\w+)>[^)]*\)", r"{\1}", text)
    return re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", text)


def _patterns(resolver: URLResolver, prefix: str) -> list[tuple[str, URLPattern]]:
    found: list[tuple[str, URLPattern]] = []
    for entry in resolver.url_patterns:
        path = prefix + _template(entry.pattern)
        if isinstance(entry, URLResolver):
            found.extend(_patterns(entry, path))
        else:
            found.append((path, entry))
    return found


def _first_line(text: str | None) -> str:
    """The first sentence of a docstring or description, on one line."""
    paragraph = (text or "").strip().split("\n\n")[0]
    words = " ".join(paragraph.split())
    return re.split(r"(?<=[.!?])\s", words, maxsplit=1)[0]


def _view_methods(callback: Any) -> dict[str, str]:
    """``{METHOD: docstring line}`` of a DRF view or viewset route (none for a plain view)."""
    view_class = getattr(callback, "cls", None)
    if view_class is None:
        return {}
    actions = getattr(callback, "actions", None)
    if actions:  # a viewset route: HTTP method -> action
        # DRF adds "head" to this shared dict on the route's first GET: hidden as for plain views
        pairs = [
            (method, getattr(view_class, action, None))
            for method, action in actions.items()
            if method not in HIDDEN_METHODS
        ]
    else:
        pairs = [
            (method, getattr(view_class, method))
            for method in view_class.http_method_names
            if method not in HIDDEN_METHODS and hasattr(view_class, method)
        ]
    fallback = _first_line(view_class.__doc__)
    return {
        method.upper(): _first_line(getattr(handler, "__doc__", None)) or fallback
        for method, handler in pairs
    }


def _same_path(path: str) -> str:
    """A path template with its parameters unnamed (the schema calls ``{pk}`` ``{id}``)."""
    return re.sub(r"\{\w+\}", "{}", path)


@cache
def _summaries() -> dict[tuple[str, str], str]:
    """``(path, METHOD) -> summary`` from the OpenAPI document (computed once per process)."""
    from drf_spectacular.generators import SchemaGenerator

    schema = SchemaGenerator().get_schema(request=None, public=True)
    summaries = {}
    for path, operations in schema["paths"].items():
        for method, operation in operations.items():
            line = operation.get("summary") or _first_line(operation.get("description"))
            summaries[(_same_path(path), method.upper())] = line
    return summaries


def api_endpoints() -> list[Endpoint]:
    """Every route under the API's namespace, in the order the URL configuration lists them."""
    prefix, resolver = get_resolver().namespace_dict[API_NAMESPACE]
    summaries = _summaries()
    endpoints = []
    for path, pattern in _patterns(resolver, "/" + _template(prefix)):
        url_name = pattern.name or ""
        methods = _view_methods(pattern.callback)
        for method in methods:
            summary = summaries.get((_same_path(path), method))
            if summary:
                methods[method] = summary
        description = (
            DOCUMENTATION.get(url_name)
            or methods.get("GET")
            or next(iter(methods.values()), "")
            or _first_line(pattern.callback.__doc__)
        )
        endpoints.append(
            Endpoint(
                name=f"{API_NAMESPACE}:{url_name}" if url_name else "",
                path=path,
                methods={
                    method: DOCUMENTATION.get(url_name) or line or description
                    for method, line in methods.items()
                }
                or {"GET": description},
                description=description,
            )
        )
    return endpoints
