"""The problem types the API answers with (RFC 9457), one entry per stable ``code``, and the body
of one problem (``problem``).

Every error body is ``{"type", "title", "status", "detail", "code", ...}``; ``type`` is the URL of
``/api/v1/problems/<code>/``, which serves the entry below. The API's handlers (``api.errors``),
the middleware refusing unusable input (``common.middleware``) and the log-in lockout
(``accounts.lockout``) all answer ``/api/`` paths with it, so it sits below them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest
from django.urls import reverse

PROBLEM_CONTENT_TYPE = "application/problem+json"


@dataclass(frozen=True)
class ProblemType:
    code: str
    status: int
    title: str
    description: str


PROBLEM_TYPES: dict[str, ProblemType] = {
    problem.code: problem
    for problem in [
        ProblemType(
            "invalid-query",
            400,
            "Invalid card query",
            "The q parameter does not parse, names an unknown field or gives a field a value it "
            "refuses. position (0-based), column (1-based), length and expected say where and why.",
        ),
        ProblemType(
            "validation-error",
            400,
            "Invalid input",
            "A parameter or body field is missing or wrong; errors lists each with its field.",
        ),
        ProblemType("parse-error", 400, "Malformed request body", "The body is not valid JSON."),
        ProblemType(
            "json-too-deep",
            400,
            "JSON nested too deeply",
            "The body nests arrays and objects deeper than API_JSON_MAX_DEPTH levels (32 by "
            "default). limit is the depth allowed; line, column and position say where it was "
            "passed.",
        ),
        ProblemType(
            "body-too-large",
            400,
            "Request body too large",
            "The body is larger than the API reads (API_JSON_MAX_BYTES for JSON, "
            "DATA_UPLOAD_MAX_MEMORY_SIZE for forms; 2.5 MB by default); limit says how many bytes.",
        ),
        ProblemType(
            "invalid-text",
            400,
            "Text that cannot be stored",
            "A JSON string holds an unpaired surrogate escape (such as \\ud800) or a NUL "
            "(\\u0000): neither can be stored. Escape characters beyond U+FFFF as a surrogate "
            "pair.",
        ),
        ProblemType("bad-request", 400, "Bad request", "The request cannot be served as sent."),
        ProblemType(
            "not-authenticated",
            401,
            "Authentication required",
            "Sign in (session) or send 'Authorization: Token <key>'.",
        ),
        ProblemType(
            "authentication-failed",
            401,
            "Authentication failed",
            "The token or session is invalid.",
        ),
        ProblemType(
            "token-expired",
            401,
            "Token expired",
            "The API token is older than API_TOKEN_TTL_DAYS; get a new one with POST "
            "/api/v1/auth/token/ (username and password).",
        ),
        ProblemType(
            "permission-denied",
            403,
            "Permission denied",
            "You may not do this (for sessions, a missing CSRF token also lands here).",
        ),
        ProblemType("not-found", 404, "Not found", "Nothing exists at this address for you."),
        ProblemType(
            "method-not-allowed",
            405,
            "Method not allowed",
            "The resource does not take this method.",
        ),
        ProblemType(
            "not-acceptable", 406, "Not acceptable", "No representation matches the Accept header."
        ),
        ProblemType(
            "conflict", 409, "Conflict", "The request conflicts with the resource's current state."
        ),
        ProblemType(
            "precondition-failed",
            412,
            "Precondition failed",
            "The If-Match header names a version of the resource that is no longer current: "
            "someone changed it since you read it, and nothing was written. current_version and "
            "the ETag header give the current one; read it again and redo your change.",
        ),
        ProblemType(
            "precondition-required",
            428,
            "Precondition required",
            "This write replaces the whole resource (for a deck, its card list), so it must say "
            "which version it replaces: read the resource, send its ETag back in If-Match, and a "
            "change someone made meanwhile is refused with a 412 instead of being lost. To change "
            "some of a deck's cards, send them as changes (add, remove, set), which need no "
            "If-Match. If-Match: * replaces whatever is there now. Nothing was written.",
        ),
        ProblemType(
            "unsupported-media-type",
            415,
            "Unsupported media type",
            "Send JSON (application/json) or a form.",
        ),
        ProblemType(
            "throttled",
            429,
            "Too many requests",
            "Slow down: the Retry-After header says how many seconds to wait.",
        ),
        ProblemType(
            "quota-exceeded",
            429,
            "Game quota used up",
            "Starting this simulation job would pass your hourly quota of games (per account: "
            "SIMULATION_USER_GAMES_PER_HOUR; per address: SIMULATION_GAMES_PER_HOUR_IP). "
            "Nothing was started; detail says how many games are left, and retry_after and the "
            "Retry-After header when the quota starts again.",
        ),
        ProblemType(
            "busy",
            503,
            "Busy",
            "The database is busy saving other changes (SQLite serialises writers); nothing was "
            "written. Retry after the Retry-After header's seconds.",
        ),
        ProblemType(
            "locked-out",
            429,
            "Log-in locked",
            "Too many failed log-ins from this address; retry_after and the Retry-After header "
            "say when to try again (each failure meanwhile restarts the wait).",
        ),
        ProblemType(
            "account-guarded",
            429,
            "Log-ins to this account paused",
            "Too many password checks at this account from addresses it never logged in from, "
            "whoever sent them; the password was not checked. retry_after and the Retry-After "
            "header say when to try again. Addresses and browsers the account logged in from "
            "before are not paused.",
        ),
        ProblemType(
            "moved-to-simulations",
            301,
            "Matchups are simulation jobs",
            "Matchup runs became simulation jobs of kind matchup; /api/v1/matchups/ is deprecated "
            "(the Deprecation header says since when) and answers with a permanent redirect: "
            "Location and the Link header (rel=successor-version) name the job (or the list of "
            "jobs), and location says it in the body too.",
        ),
        ProblemType(
            "server-error", 500, "Server error", "Something failed on our side; it has been logged."
        ),
    ]
}

# DRF's exception codes -> our problem codes.
DRF_CODES = {
    "invalid": "validation-error",
    "parse_error": "parse-error",
    "authentication_failed": "authentication-failed",
    "not_authenticated": "not-authenticated",
    "permission_denied": "permission-denied",
    "not_found": "not-found",
    "method_not_allowed": "method-not-allowed",
    "not_acceptable": "not-acceptable",
    "unsupported_media_type": "unsupported-media-type",
    "throttled": "throttled",
    "error": "server-error",
}
# A status with no more specific code gets this one.
STATUS_CODES = {
    400: "bad-request",
    401: "not-authenticated",
    403: "permission-denied",
    404: "not-found",
    405: "method-not-allowed",
    406: "not-acceptable",
    409: "conflict",
    412: "precondition-failed",
    415: "unsupported-media-type",
    428: "precondition-required",
    429: "throttled",
    500: "server-error",
    503: "busy",
}


def problem_type_url(code: str, request: HttpRequest | None = None) -> str:
    path = reverse("api:problem-detail", kwargs={"code": code})
    return request.build_absolute_uri(path) if request is not None else path


def problem(
    status_code: int,
    detail: str,
    *,
    code: str | None = None,
    request: HttpRequest | None = None,
    **extra: Any,
) -> dict[str, Any]:
    """The problem-details body for an error."""
    code = code or STATUS_CODES.get(
        status_code, "bad-request" if status_code < 500 else "server-error"
    )
    known = PROBLEM_TYPES.get(code)
    body: dict[str, Any] = {
        "type": problem_type_url(code, request) if known else "about:blank",
        "title": known.title if known else "Error",
        "status": status_code,
        "detail": detail,
        "code": code,
    }
    if request is not None:
        body["instance"] = request.get_full_path()
    body.update(extra)
    return body
