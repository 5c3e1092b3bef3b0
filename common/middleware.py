"""Refuse, with a 400 that says why, input that no view can take.

- A NUL character (``\\x00``, ``%00``) in the path or in a query or form parameter: PostgreSQL
  cannot store or even compare text holding one (a ``DataError``, so a 500), where SQLite takes
  it. Refusing it here covers every parameter of every view, including the lookups (a game's
  slug, a format's, a friend table's invite token in the path) that no form field checks. JSON
  bodies are checked by the API's parser (``api/parsers.py``).
- An empty ``_to_field`` on an admin page: the admin reads it as a field name and fails with
  ``FieldDoesNotExist`` instead of ignoring it.

A form body Django refuses to read (too large, too many fields) is answered here too, with the
same words. The API gets problem details (``validation-error``, ``body-too-large``), the pages a
message page; so does a page's bodiless 405 (``require_POST``: a GET of a form's target).

``ContentSecurityPolicyMiddleware`` gives every response a Content-Security-Policy that allows no
inline script without the request's nonce.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable

from django.conf import settings
from django.core.exceptions import RequestDataTooBig, TooManyFieldsSent, TooManyFilesSent
from django.http import HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.http.multipartparser import MultiPartParserError
from django.shortcuts import render

from common.problems import PROBLEM_CONTENT_TYPE, problem

FORM_TYPES = ("application/x-www-form-urlencoded", "multipart/form-data")


class RefuseUnusableInputMiddleware:
    """Answer 400 before the view for input that would otherwise end in a database error."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        refused = _refusal(request)
        if refused is not None:
            return _answer(request, *refused)
        response = self.get_response(request)
        if response.status_code == 405 and not response.content:
            return _method_page(request, response)
        return response


def _method_page(request: HttpRequest, response: HttpResponse) -> HttpResponse:
    """A page for Django's bodiless 405 (``require_POST`` and the like): what the address takes,
    and where to go instead. The API's 405s are problem documents already; HEAD gets no body."""
    if request.path.startswith("/api/") or request.method == "HEAD":
        return response
    allowed = response.get("Allow", "")
    text = (
        f"This address does not answer {request.method}; it takes {allowed or 'other methods'}. "
        "It is the target of a button or form on the site: go back and use it there."
    )
    page = render(request, "web/message.html", {"title": "Not here", "text": text}, status=405)
    if allowed:
        page["Allow"] = allowed
    return page


def _form(request: HttpRequest) -> QueryDict:
    if request.method != "POST" or not (request.content_type or "").startswith(FORM_TYPES):
        return QueryDict()
    return request.POST


def _refusal(request: HttpRequest) -> tuple[str, str, str] | None:
    """``(field, detail, problem code)`` of the first unusable parameter, or None."""
    if "\x00" in request.path:
        return "path", "The path holds a NUL character (\\x00): no address may.", "validation-error"
    try:
        sources = [("query parameter", request.GET), ("form field", _form(request))]
        for where, data in sources:
            for key, values in data.lists():
                if "\x00" in key or any("\x00" in value for value in values):
                    shown = key.replace("\x00", "\\x00")[:60]
                    detail = f"The {where} '{shown}' holds a NUL character (\\x00): no text may."
                    return shown, detail, "validation-error"
        if request.path.startswith("/admin/"):
            for data in (request.GET, _form(request)):
                if data.get("_to_field", None) == "":
                    detail = "_to_field names a field: it may not be empty."
                    return "_to_field", detail, "validation-error"
    except RequestDataTooBig:
        limit = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        detail = f"The request body is larger than the {limit} bytes this site reads."
        return "", detail, "body-too-large"
    except (MultiPartParserError, TooManyFieldsSent, TooManyFilesSent) as error:
        return "", f"The form body cannot be read: {error}", "bad-request"
    return None


def _answer(request: HttpRequest, field: str, detail: str, code: str) -> HttpResponse:
    if request.path.startswith("/api/"):
        errors = [{"field": field, "code": "invalid", "detail": detail}]
        # The same fields as the API's own refusal of a body (api.errors): the limit in bytes.
        extra = {"limit": settings.DATA_UPLOAD_MAX_MEMORY_SIZE} if code == "body-too-large" else {}
        body = problem(400, detail, code=code, request=request, errors=errors, **extra)
        return JsonResponse(body, status=400, content_type=PROBLEM_CONTENT_TYPE)
    context = {"title": "This request cannot be read", "text": detail}
    return render(request, "web/message.html", context, status=400)


# -- Content-Security-Policy ------------------------------------------------------------------------

#: The policy of every response. Scripts come only from this site (static files) or carry the
#: request's nonce (``request.csp_nonce``; only the API documentation pages need one), never
#: inline: no ``<script>`` without it, no ``on…=`` attribute, no ``javascript:`` URL. Styles may be
#: inline (htmx adds its indicator style; templates use ``style=`` for bar widths).
CSP_DIRECTIVES = (
    "default-src 'self'",
    "script-src 'self' 'nonce-{nonce}'",
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
)


class ContentSecurityPolicyMiddleware:
    """Give each request a fresh nonce (``request.csp_nonce``) and every response the policy
    ``CSP_DIRECTIVES`` (a view that set its own ``Content-Security-Policy`` keeps it)."""

    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response
        # live tables' WebSocket server, where it is not this site's own address (make serve)
        socket = settings.WEBSOCKET_URL
        self.policy = "; ".join(
            f"{d} {socket}" if socket and d.startswith("connect-src") else d for d in CSP_DIRECTIVES
        )

    def __call__(self, request: HttpRequest) -> HttpResponse:
        nonce = secrets.token_urlsafe(18)
        request.csp_nonce = nonce  # type: ignore[attr-defined]
        response = self.get_response(request)
        if "Content-Security-Policy" not in response:
            response["Content-Security-Policy"] = self.policy.format(nonce=nonce)
        return response
