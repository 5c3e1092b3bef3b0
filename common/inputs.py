"""Bounds on what a client may send: ids in paths, whole numbers in parameters, JSON nesting.

Every number a client sends ends up in a database query, and SQLite refuses integers beyond 64
bits with an ``OverflowError`` (PostgreSQL's ``integer`` columns stop at 2**31 - 1); every JSON
body ends up in ``json.loads``, which recurses once per level of nesting. These helpers turn such
input into a clear 400 (or a 404 for a path) before it gets that far. The API and the pages share
them; ``docs/api.md`` (*Limits*) lists the bounds.
"""

from __future__ import annotations

import json
import re
import sys
import unicodedata
from dataclasses import dataclass
from typing import Any

from django.conf import settings

# Ids in paths: 1 to 18 digits, so every id fits a 64-bit column on every database.
ID_PATTERN = "[0-9]{1,18}"
MAX_ID = 10**18 - 1
# Whole numbers stored in an ``integer`` column (PostgreSQL: 32 bits), e.g. version numbers.
MAX_INT32 = 2**31 - 1
# A number written with more digits than this is refused before ``int()`` is even called.
MAX_DIGITS = 20


class IdConverter:
    """``<id:pk>``: a database id in a path. Longer digit strings do not match (404)."""

    regex = ID_PATTERN

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value: int | str) -> str:
        number = int(value)
        if not 0 <= number <= MAX_ID:
            raise ValueError(f"{value} is not an id")
        return str(number)


class ParameterError(ValueError):
    """A parameter that is not a whole number in its range; ``message`` says which and why."""

    def __init__(self, name: str, message: str) -> None:
        super().__init__(message)
        self.name = name
        self.message = message


def bounded_int(value: Any, name: str, lo: int = 0, hi: int = MAX_INT32) -> int:
    """``value`` (text from a query or form) as a whole number from ``lo`` to ``hi``.

    Raises ``ParameterError`` naming the parameter; the API answers it as a 400 problem, a page
    as a 400 page.
    """
    if value is None or not str(value).strip():
        raise ParameterError(name, f"{name} is missing: give a whole number from {lo} to {hi}.")
    text = str(value).strip()
    digits = text.removeprefix("-").removeprefix("+")
    if not digits.isascii() or not digits.isdigit() or len(digits) > MAX_DIGITS:
        raise ParameterError(
            name, f"{name} must be a whole number from {lo} to {hi}, not {_shown(text)}."
        )
    number = int(text)
    if not lo <= number <= hi:
        raise ParameterError(name, f"{name} must be from {lo} to {hi}, not {_shown(text)}.")
    return number


def _shown(text: str) -> str:
    return repr(text if len(text) <= 40 else text[:40] + "…")


# --- JSON -------------------------------------------------------------------------------------


@dataclass
class JSONInputError(ValueError):
    """JSON refused before or after reading: too large, nested too deeply, or holding text that
    no database can store (a lone surrogate escape such as ``"\\ud800"``, or a NUL).
    ``message`` says what and where; ``code`` is the API's problem code."""

    message: str
    code: str
    position: int | None = None
    line: int | None = None
    column: int | None = None

    def __str__(self) -> str:
        return self.message


def json_max_depth() -> int:
    return int(getattr(settings, "API_JSON_MAX_DEPTH", 32))


def json_max_bytes() -> int:
    return int(getattr(settings, "API_JSON_MAX_BYTES", 0) or settings.DATA_UPLOAD_MAX_MEMORY_SIZE)


# A string (with its escapes) or one bracket: strings are skipped whole, so a "[" inside a card
# name does not count as nesting.
_TOKEN = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]', re.DOTALL)


def json_depth_check(text: str, max_depth: int | None = None) -> None:
    """Raise ``JSONInputError`` at the first bracket that nests deeper than ``max_depth``.

    Iterative (no recursion however deep the input), and it stops at the first offending bracket,
    so a body of thousands of "[" costs as much as one of ``max_depth``.
    """
    limit = json_max_depth() if max_depth is None else max_depth
    depth = 0
    for match in _TOKEN.finditer(text):
        token = match.group()
        if token in "[{":
            depth += 1
            if depth > limit:
                position = match.start()
                line = text.count("\n", 0, position) + 1
                column = position - (text.rfind("\n", 0, position) + 1) + 1
                raise JSONInputError(
                    f"JSON nested deeper than {limit} levels at line {line}, column {column} "
                    f"(character {position}).",
                    "json-too-deep",
                    position,
                    line,
                    column,
                )
        elif token in "]}":
            depth = max(depth - 1, 0)


# A NUL or a \uD800-\uDFFF escape (only a high surrogate then a low one makes a character).
_UNUSABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F][0-9a-fA-F]{2})")


def json_loads_bounded(text: str | bytes, max_depth: int | None = None, **options: Any) -> Any:
    """``json.loads`` that refuses deep nesting and unusable text with ``JSONInputError``.

    Deep nesting is found by ``json_depth_check`` before parsing, so nothing recurses; a string
    holding a lone surrogate (no database or response can encode it) or a NUL (PostgreSQL can
    neither store nor compare it) is refused. Other malformed JSON raises ``json.JSONDecodeError`` (or ``UnicodeDecodeError`` for bytes), as
    ``json.loads`` does; ``options`` go to ``json.loads``.
    """
    if isinstance(text, bytes | bytearray):
        text = text.decode("utf-8-sig")
    json_depth_check(text, max_depth)
    try:
        data = json.loads(text, **options)
    except RecursionError:  # a depth limit set above the interpreter's own recursion limit
        raise JSONInputError("JSON nested too deeply to read.", "json-too-deep") from None
    except ValueError as error:
        if isinstance(error, json.JSONDecodeError):
            raise
        _long_number(text)  # Python reads at most sys.get_int_max_str_digits() digits an int
        raise
    if _UNUSABLE_ESCAPE.search(text):
        _check_text(data)
    return data


# A JSON string whole (so digits in a card name are skipped), or a run of digits.
_STRING_OR_DIGITS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|\d+')


def _long_number(text: str) -> None:
    """Raise ``JSONInputError`` at the first whole number too long for Python to read."""
    limit = sys.get_int_max_str_digits()
    if not limit:
        return
    match = next(
        (
            m
            for m in _STRING_OR_DIGITS.finditer(text)
            if m.group()[0] != '"' and len(m.group()) > limit
        ),
        None,
    )
    if match is None:
        return
    position = match.start()
    line = text.count("\n", 0, position) + 1
    column = position - (text.rfind("\n", 0, position) + 1) + 1
    digits = len(match.group())
    raise JSONInputError(
        f"A number of {digits:,} digits at line {line}, column {column} (character {position}): "
        f"numbers of more than {limit:,} digits are not read.",
        "parse-error",
        position,
        line,
        column,
    )


def _check_text(data: Any) -> None:
    """Raise ``JSONInputError`` for the first key or string that holds unusable text."""
    pending = [data]
    while pending:
        item = pending.pop()
        if isinstance(item, dict):
            pending.extend(item.keys())
            pending.extend(item.values())
        elif isinstance(item, list):
            pending.extend(item)
        elif isinstance(item, str):
            if "\x00" in item:
                raise JSONInputError(
                    f"JSON text holds a NUL character (\\u0000) in {_shown(item)}: no text may.",
                    "invalid-text",
                )
            try:
                item.encode("utf-8")
            except UnicodeEncodeError as error:
                raise JSONInputError(
                    f"JSON text holds an unpaired surrogate (\\u{ord(item[error.start]):04x}) in "
                    f"{_shown(item)}: it is not a character and cannot be stored.",
                    "invalid-text",
                ) from None


def name_problem(name: str, thing: str) -> str | None:
    """Why ``name`` cannot name ``thing`` ("a deck", "an event"), or None: it is empty, or it is
    not one line. A name is shown on one line and written into decklist headers such as
    ``# name: ...``, so a line break or another control character would start a new line of an
    exported list, or hide in a page."""
    text = name.strip()
    if not text:
        return f"{thing} needs a name"
    for index, char in enumerate(text):
        kind = unicodedata.category(char)
        if kind in ("Zl", "Zp") or char in "\r\n":  # U+2028 and U+2029 end a line too
            shown = f"a line break (U+{ord(char):04X})" if kind in ("Zl", "Zp") else "a line break"
        elif kind == "Cc" and char != "\t":
            shown = f"a control character (U+{ord(char):04X})"
        else:
            continue
        return f"{thing} name is one line: it holds {shown} at character {index + 1}"
    return None
