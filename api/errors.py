"""One error shape for the whole API: RFC 9457 problem details (``application/problem+json``).

DRF exceptions go through ``problem_exception_handler``; Django's own 400/403/404/500 handlers
(``deckwright/urls.py``) answer the same shape for ``/api/`` paths and the usual pages elsewhere.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.exceptions import (
    BadRequest,
    PermissionDenied,
    RequestDataTooBig,
    TooManyFieldsSent,
    TooManyFilesSent,
)
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.views import defaults
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import exception_handler

from api.parsers import RefusedBody
from cards.search import QueryError
from common.problems import DRF_CODES, PROBLEM_CONTENT_TYPE, PROBLEM_TYPES, problem
from decks.errors import DeckBusyError

logger = logging.getLogger(__name__)


class InvalidQuery(exceptions.APIException):
    """A card query that cannot run; carries the parser's or compiler's positioned error."""

    status_code = status.HTTP_400_BAD_REQUEST
    default_code = "invalid-query"

    def __init__(self, error: QueryError, parameter: str = "q") -> None:
        super().__init__(detail=error.message, code="invalid-query")
        self.error = error
        self.parameter = parameter


class NotFoundWithSuggestions(exceptions.NotFound):
    """A 404 that tells the client what it may have meant."""

    def __init__(self, detail: str, suggestions: list[str]) -> None:
        super().__init__(detail=detail)
        self.problem_extra = {"suggestions": suggestions}


class Conflict(exceptions.APIException):
    status_code = status.HTTP_409_CONFLICT
    default_code = "conflict"
    default_detail = "The request conflicts with the resource's current state."


class PreconditionFailed(exceptions.APIException):
    """A write whose ``If-Match`` names a version that is no longer current (HTTP 412): the body
    carries the current version and the ``ETag`` header the current entity tag."""

    status_code = status.HTTP_412_PRECONDITION_FAILED
    default_code = "precondition-failed"
    default_detail = "The resource changed since you read it; nothing was written."

    def __init__(self, detail: str, *, current_version: int, etag: str) -> None:
        super().__init__(detail=detail, code="precondition-failed")
        self.problem_extra = {"current_version": current_version}
        self.problem_headers = {"ETag": etag}


class PreconditionRequired(exceptions.APIException):
    """A write that would overwrite the whole resource, sent without ``If-Match`` (HTTP 428,
    RFC 6585): refused so that no one loses a change by default; the detail says how to send it."""

    status_code = 428
    default_code = "precondition-required"
    default_detail = "This write needs an If-Match header; nothing was written."

    def __init__(self, detail: str) -> None:
        super().__init__(detail=detail, code="precondition-required")


class ServiceBusy(exceptions.APIException):
    """The database stayed locked by other writers past its timeout (SQLite): retry shortly."""

    status_code = status.HTTP_503_SERVICE_UNAVAILABLE
    default_code = "busy"
    default_detail = "The database is busy saving other changes; nothing was changed."

    def __init__(self, detail: str | None = None) -> None:
        super().__init__(detail=detail, code="busy")
        self.problem_headers = {"Retry-After": "1"}


def _flatten(detail: Any, prefix: str = "") -> list[dict[str, str]]:
    """DRF's nested validation errors as a flat list of {field, code, detail}."""
    if isinstance(detail, dict):
        found = []
        for key, value in detail.items():
            name = "" if key == "non_field_errors" else str(key)
            found += _flatten(value, f"{prefix}.{name}" if prefix and name else prefix or name)
        return found
    if isinstance(detail, list):
        found = []
        for index, value in enumerate(detail):
            if isinstance(value, dict | list) and not isinstance(value, exceptions.ErrorDetail):
                found += _flatten(value, f"{prefix}.{index}" if prefix else str(index))
            else:
                found += _flatten(value, prefix)
        return found
    return [{"field": prefix, "code": getattr(detail, "code", "invalid"), "detail": str(detail)}]


def _summary(errors: list[dict[str, str]]) -> str:
    if not errors:
        return "The request is invalid."
    first = errors[0]
    where = f"{first['field']}: " if first["field"] else ""
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}{first['detail']}{more}"


def _refused_request(exc: Exception) -> Exception:
    """Django's refusals of an oversized body (raised while DRF reads it) as API problems."""
    if isinstance(exc, RequestDataTooBig):
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = f"The request body is larger than the {limit} bytes the API reads."
        return RefusedBody(detail, "body-too-large", limit=limit)
    if isinstance(exc, TooManyFieldsSent | TooManyFilesSent):
        return exceptions.ParseError(str(exc))
    return exc


def _not_acceptable(request: Any, view: Any) -> str:
    """A 406's detail: what the request's Accept asked for and what the endpoint sends."""
    asked = request.META.get("HTTP_ACCEPT", "") if request is not None else ""
    offered = sorted({renderer.media_type for renderer in getattr(view, "renderer_classes", ())})
    sends = ", ".join(offered) or "application/json"
    return f"Accept: {asked!r} names no type this endpoint sends; it sends {sends}."


def problem_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    """DRF's handler, reshaped into problem details; unexpected errors stay 500s for Django."""
    if isinstance(exc, DeckBusyError):
        exc = ServiceBusy(str(exc))
    exc = _refused_request(exc)
    response = exception_handler(exc, context)
    if response is None:
        return None
    request = context.get("request")
    status_code = response.status_code
    if isinstance(exc, InvalidQuery):
        error = exc.error
        where = error.as_dict()
        body = problem(
            status_code,
            error.message,
            code="invalid-query",
            request=request,
            parameter=exc.parameter,
            **{key: where[key] for key in ("query", "position", "column", "length", "expected")},
            errors=[{"field": exc.parameter, "code": error.code, "detail": error.message}],
        )
    elif isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
        body = problem(
            status_code, _summary(errors), code="validation-error", request=request, errors=errors
        )
    elif isinstance(exc, exceptions.APIException):
        codes = exc.get_codes()
        drf_code = codes if isinstance(codes, str) else getattr(exc, "default_code", "")
        code = DRF_CODES.get(drf_code, drf_code if drf_code in PROBLEM_TYPES else None)
        detail = exc.detail if isinstance(exc.detail, str) else str(exc.detail)
        if isinstance(exc, exceptions.NotAcceptable):
            detail = _not_acceptable(request, context.get("view"))
        extra: dict[str, Any] = {}
        # Throttled sets ``wait`` in __init__; DRF's stubs leave the attribute out
        wait: float | None = getattr(exc, "wait", None)
        if isinstance(exc, exceptions.Throttled) and wait is not None:
            extra["retry_after"] = int(wait + 0.999)
        extra.update(getattr(exc, "problem_extra", {}))
        body = problem(status_code, str(detail), code=code, request=request, **extra)
    else:  # Http404 / Django PermissionDenied, already turned into a response by DRF
        detail = response.data.get("detail", "") if isinstance(response.data, dict) else ""
        body = problem(status_code, str(detail), request=request)
    for name, value in getattr(exc, "problem_headers", {}).items():
        response[name] = value
    response.data = body
    renderer = getattr(request, "accepted_renderer", None)
    if request is not None and getattr(renderer, "format", None) != "api":
        # Problem details are JSON whatever the view renders otherwise (the schema's YAML, the
        # documentation pages' HTML, or nothing the client accepts: a 406); only the browsable
        # API (text/html for a browser) keeps its own page.
        request.accepted_renderer = JSONRenderer()
        request.accepted_media_type = PROBLEM_CONTENT_TYPE
        response.content_type = PROBLEM_CONTENT_TYPE
    return response


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def _json_problem(request: HttpRequest, status_code: int, detail: str) -> HttpResponse:
    return JsonResponse(
        problem(status_code, detail, request=request),
        status=status_code,
        content_type=PROBLEM_CONTENT_TYPE,
    )


def handler400(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_problem(request, 400, "The request cannot be served as sent.")
    return defaults.bad_request(request, exception or BadRequest())


def handler403(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_problem(request, 403, "You may not do this.")
    return defaults.permission_denied(request, exception or PermissionDenied())


def handler404(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_problem(request, 404, f"Nothing at {request.path}. The API index is /api/v1/.")
    return defaults.page_not_found(request, exception)


class ProblemNotFoundMiddleware:
    """Under DEBUG Django answers a path no route matches with its HTML debug page instead of
    ``handler404``; an /api/ path gets the problem details the API promises either way. Listed
    before ``CommonMiddleware``, so a slash it adds (a redirect) is left alone."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        response = self.get_response(request)
        if (
            response.status_code == 404
            and _is_api(request)
            and response.get("Content-Type", "").startswith("text/html")
        ):
            return handler404(request)
        return response


def handler500(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json_problem(request, 500, "Something failed on our side; it has been logged.")
    return defaults.server_error(request)
