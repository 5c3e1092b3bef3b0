"""OpenAPI generation: every operation documents its error responses as problem details.

``ProblemAutoSchema`` adds, to whatever an endpoint declares, the errors it can actually return:
400/401/404/406/429/500 everywhere (bad parameters, a bad token, a missing object or page, an
``Accept`` naming no type the endpoint sends, throttling, a server fault), 403 where writing or signing in is involved, and what a view declares besides
(``extra_error_statuses``, or ``extra_error_statuses_by_action``: 412, 428 and 503 for deck
writes); each with an example body. A view's ``documented_responses`` (status -> headers) adds
the headers of an answer it sends as a problem document, such as the deprecated matchup URLs'
301 with its ``Location``, ``Deprecation`` and ``Link``. The catalogue's reads (``decks.httpcache``) also
document their ``ETag`` and the ``304`` an ``If-None-Match`` with it gets.
"""

from __future__ import annotations

from typing import Any, Literal

from drf_spectacular.openapi import AutoSchema
from rest_framework import permissions, serializers

from common.problems import PROBLEM_TYPES
from decks.httpcache import CACHE_HEADER, CATALOGUE_ROUTES

PROBLEM_MEDIA_TYPE = "application/problem+json"


class ProblemFieldErrorSerializer(serializers.Serializer):
    field = serializers.CharField(help_text="Dotted path of the field; empty for the whole input.")
    code = serializers.CharField()
    detail = serializers.CharField()


class ProblemSerializer(serializers.Serializer):
    """RFC 9457 problem details, with Deckwright's extension members."""

    type = serializers.CharField(help_text="URL of the problem type (GET it for a description).")
    title = serializers.CharField()
    status = serializers.IntegerField()
    detail = serializers.CharField()
    code = serializers.ChoiceField(choices=sorted(PROBLEM_TYPES))
    instance = serializers.CharField(required=False)
    errors = ProblemFieldErrorSerializer(many=True, required=False)  # type: ignore[assignment]  # stubs: declared fields leave the class
    parameter = serializers.CharField(required=False, help_text="invalid-query: the parameter.")
    query = serializers.CharField(required=False, help_text="invalid-query: the query text.")
    position = serializers.IntegerField(required=False, help_text="0-based offset of the problem.")
    column = serializers.IntegerField(required=False, help_text="1-based column of the problem.")
    length = serializers.IntegerField(required=False, help_text="Characters the problem spans.")
    expected = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="What would have been accepted."
    )
    retry_after = serializers.IntegerField(
        required=False,
        help_text="throttled, locked-out, account-guarded, quota-exceeded, busy: seconds to wait.",
    )
    current_version = serializers.IntegerField(
        required=False, help_text="precondition-failed: the resource's current version."
    )


def problem_example(code: str, detail: str, **extra: Any) -> dict[str, Any]:
    problem = PROBLEM_TYPES[code]
    return {
        "type": f"https://deckwright.example/api/v1/problems/{code}/",
        "title": problem.title,
        "status": problem.status,
        "detail": detail,
        "code": code,
        **extra,
    }


EXAMPLES: dict[str, dict[str, dict[str, Any]]] = {
    "400": {
        "invalid-query": problem_example(
            "invalid-query",
            'The query ended early at column 3; expected a value or a "quoted phrase".',
            parameter="q",
            query="t:",
            position=2,
            column=3,
            length=0,
            expected=['a "quoted phrase"', "a value"],
            errors=[{"field": "q", "code": "query-syntax", "detail": "The query ended early ..."}],
        ),
        "validation-error": problem_example(
            "validation-error",
            "game: Select a valid choice.",
            errors=[
                {"field": "game", "code": "invalid_choice", "detail": "Select a valid choice."}
            ],
        ),
    },
    "401": {
        "not-authenticated": problem_example(
            "not-authenticated", "Authentication credentials were not provided."
        ),
        "authentication-failed": problem_example("authentication-failed", "Invalid token."),
        "token-expired": problem_example(
            "token-expired",
            "The token expired on 2026-05-01 12:00 UTC. Get a new one with POST "
            "/api/v1/auth/token/ (username and password).",
        ),
    },
    "403": {
        "permission-denied": problem_example(
            "permission-denied", "CSRF Failed: CSRF token missing."
        )
    },
    "404": {"not-found": problem_example("not-found", "No Card matches the given query.")},
    "409": {"conflict": problem_example("conflict", "Registration is closed.")},
    "412": {
        "precondition-failed": problem_example(
            "precondition-failed",
            'This deck changed since you read it: If-Match names "deck-12-v3", it is now at '
            'version 5 (ETag "deck-12-v5"). Nothing was written.',
            current_version=5,
        )
    },
    "428": {
        "precondition-required": problem_example(
            "precondition-required",
            "Replacing the whole card list of deck 12 needs If-Match. Read the deck (GET "
            "/api/v1/decks/12/) and send its ETag back in If-Match, or send only the cards that "
            "change as changes, which need none. Nothing was written.",
        )
    },
    "415": {
        "unsupported-media-type": problem_example(
            "unsupported-media-type", 'Unsupported media type "text/plain" in request.'
        )
    },
    "429": {
        "throttled": problem_example(
            "throttled", "Request was throttled. Expected available in 12 seconds.", retry_after=12
        ),
        "quota-exceeded": problem_example(
            "quota-exceeded",
            "Simulation jobs may play 20000 games an hour per account and 50000 per address. "
            "This job has 12000; your account has 9000 left until 14:00 UTC.",
            retry_after=1260,
        ),
        "locked-out": problem_example(
            "locked-out",
            "Too many failed log-ins from your address. You can try again at 19:42 UTC (in 15 "
            "minutes); each failed attempt until then restarts the wait.",
            retry_after=900,
        ),
        "account-guarded": problem_example(
            "account-guarded",
            "Too many failed log-ins at this account, from many addresses: log-ins from new "
            "addresses are paused for it (try again in 41 minutes). Logging in from a browser or "
            "address you used before still works; or reset your password by email.",
            retry_after=2460,
        ),
    },
    "406": {
        "not-acceptable": problem_example(
            "not-acceptable",
            "Accept: 'text/csv' names no type this endpoint sends; it sends application/json, "
            "text/html.",
        )
    },
    "500": {
        "server-error": problem_example(
            "server-error", "Something failed on our side; it has been logged."
        )
    },
    "503": {
        "busy": problem_example(
            "busy", "The database is busy saving other changes; nothing was changed."
        )
    },
}
DESCRIPTIONS = {
    "400": "Invalid parameters or body (problem details).",
    "401": "Not signed in, or a bad token.",
    "403": "Not allowed (or a session request without its CSRF token).",
    "404": "No such object, page, or an object that is not yours to see.",
    "406": "The Accept header names no type this endpoint sends (problem details, as JSON).",
    "409": "The object's state does not allow this.",
    "412": "If-Match names a version that is no longer current; nothing was written.",
    "415": "The body is not JSON, a URL-encoded form or a multipart form.",
    "428": "A whole-list replacement without If-Match; nothing was written.",
    "429": "Throttled; see the Retry-After header.",
    "500": "Server fault.",
    "503": "The database is busy with other writes; nothing was written. Retry shortly.",
}


NOT_MODIFIED = (
    "Not Modified: If-None-Match named the current ETag (anonymous clients; docs/api.md, "
    "Caching and conditional requests). No body."
)
CATALOGUE_HEADERS = {
    "ETag": {
        "schema": {"type": "string"},
        "description": "Anonymous clients: a weak validator of this answer; send it back in "
        "If-None-Match to get 304 while the catalogue has not changed.",
    },
    CACHE_HEADER: {
        "schema": {"type": "string", "enum": ["hit", "miss", "revalidated", "bypass"]},
        "description": "Anonymous clients: whether the shared response cache answered.",
    },
}


class ProblemAutoSchema(AutoSchema):
    def _needs_auth(self) -> bool:
        classes = getattr(self.view, "permission_classes", [])
        return any(
            cls is not permissions.AllowAny and cls is not permissions.IsAuthenticatedOrReadOnly
            for cls in classes
        ) or self.method not in ("GET", "HEAD", "OPTIONS")

    def _error_codes(self) -> list[str]:
        # 401 everywhere: a bad token is refused whatever the operation.
        codes = ["400", "401", "404", "406", "429", "500"]
        if self._needs_auth():
            codes.append("403")
        if self.method in ("POST", "PUT", "PATCH") and self.get_request_serializer() is not None:
            codes.append("415")
        codes += [str(code) for code in getattr(self.view, "extra_error_statuses", ())]
        by_action = getattr(self.view, "extra_error_statuses_by_action", {})
        codes += [str(code) for code in by_action.get(getattr(self.view, "action", None), ())]
        return sorted(set(codes))

    def _is_catalogue_read(self) -> bool:
        """True for a GET that ``decks.httpcache`` answers with validators (its URL name)."""
        action = getattr(self.view, "action", None)
        basename = getattr(self.view, "basename", None)
        if self.method != "GET" or action is None or basename is None:
            return False
        suffix = {"list": "list", "retrieve": "detail"}.get(action)
        if suffix is None:
            suffix = getattr(getattr(self.view, action, None), "url_name", action)
        return f"api:{basename}-{suffix}" in CATALOGUE_ROUTES

    def _get_response_bodies(
        self, direction: Literal["request", "response"] = "response"
    ) -> dict[str, Any]:
        responses = super()._get_response_bodies(direction)
        if direction != "response":
            return responses
        if self._is_catalogue_read():
            if "200" in responses:
                responses["200"].setdefault("headers", {}).update(CATALOGUE_HEADERS)
            responses["304"] = {"description": NOT_MODIFIED, "headers": CATALOGUE_HEADERS}
        ref = self.resolve_serializer(ProblemSerializer, "response").ref
        for code in self._error_codes():
            entry = responses.setdefault(code, {"description": DESCRIPTIONS[code]})
            content = entry.setdefault("content", {})
            content[PROBLEM_MEDIA_TYPE] = {
                "schema": ref,
                "examples": {
                    name: {"value": value, "summary": PROBLEM_TYPES[name].title}
                    for name, value in EXAMPLES[code].items()
                },
            }
            if code == "412":
                entry.setdefault("headers", {})["ETag"] = {
                    "schema": {"type": "string"},
                    "description": "The current entity tag of the resource.",
                }
            if code in ("429", "503"):
                entry.setdefault("headers", {})["Retry-After"] = {
                    "schema": {"type": "integer"},
                    "description": "Seconds to wait before the next request.",
                }
        for code, headers in getattr(self.view, "documented_responses", {}).items():
            entry = responses.setdefault(code, {"description": ""})
            entry.setdefault("headers", {}).update(headers)
            entry["content"] = {PROBLEM_MEDIA_TYPE: {"schema": ref}}
        return responses
