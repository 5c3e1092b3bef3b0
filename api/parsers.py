"""The API's JSON parser: DRF's, with a size cap, a nesting cap and Unicode checks.

``json.loads`` recurses once per level, so a body of a few thousand "[" used to end in a
``RecursionError`` (a 500). This parser refuses such bodies first, as a 400 problem saying what is
wrong and where (``json-too-deep``, ``body-too-large``, ``invalid-text``). The limits are the
settings ``API_JSON_MAX_DEPTH`` and ``API_JSON_MAX_BYTES`` (docs/api.md, *Limits*).
"""

from __future__ import annotations

from typing import Any

from rest_framework import exceptions

# DRF has parsers.get_encoding; its stubs left it out before 3.18.2 (either is installed)
from rest_framework.parsers import (  # type: ignore[attr-defined, unused-ignore]
    JSONParser,
    get_encoding,
)

from common.inputs import JSONInputError, json_loads_bounded, json_max_bytes, json_max_depth


class RefusedBody(exceptions.ParseError):
    """A body the API will not read; ``problem_extra`` says where the problem is."""

    def __init__(self, detail: str, code: str, **extra: Any) -> None:
        super().__init__(detail=detail, code=code)
        self.problem_extra = {key: value for key, value in extra.items() if value is not None}


class BoundedJSONParser(JSONParser):
    """JSON bodies of at most ``API_JSON_MAX_BYTES`` bytes, nested at most ``API_JSON_MAX_DEPTH``."""

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        encoding = get_encoding(parser_context or {})
        limit = json_max_bytes()
        raw = stream.read(limit + 1)
        if len(raw) > limit:
            raise RefusedBody(
                f"The JSON body is larger than the {limit} bytes the API reads.",
                "body-too-large",
                limit=limit,
            )
        try:
            text = raw.decode(encoding)
        except UnicodeDecodeError as error:
            raise exceptions.ParseError(
                f"JSON parse error - the body is not {encoding} text (byte {error.start})."
            ) from None
        try:
            return json_loads_bounded(
                text, json_max_depth(), parse_constant=_refuse_constant if self.strict else None
            )
        except JSONInputError as error:
            raise RefusedBody(
                error.message,
                error.code,
                limit=json_max_depth() if error.code == "json-too-deep" else None,
                position=error.position,
                line=error.line,
                column=error.column,
            ) from None
        except ValueError as error:
            raise exceptions.ParseError(f"JSON parse error - {error}") from None


def _refuse_constant(name: str) -> Any:
    """NaN and Infinity are not JSON (DRF's STRICT_JSON, on by default)."""
    raise ValueError(f"{name} is not a JSON value")
