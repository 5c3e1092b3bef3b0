"""The plain-text decklist format (documented in docs/decklists.md).

    # game: revolt-n-reign          leading "# key: value" lines are metadata
    # name: Eagle Control
    [Attack]                        a section header ("Attack:" works too)
    2 Stamp Act                     "2 Name", "2x Name" or "Name" (one copy)
    # any other comment

Reading never raises anything but ``DecklistParseError``, which lists every problem by line.
"""

from __future__ import annotations

import re

from decks.decklist.model import (
    MAX_LINES,
    MAX_NAME_LENGTH,
    MAX_QUANTITY,
    Decklist,
    DecklistEntry,
    DecklistParseError,
    ParseProblem,
)

_QUANTITY = re.compile(r"^(\d+)[xX\u00d7]?\s+(\S.*)$")
_BARE_QUANTITY = re.compile(r"^\d+\s*[xX\u00d7]?$")
_METADATA = re.compile(r"^#\s*([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_BRACKET_SECTION = re.compile(r"^\[(.*)\]$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")


def _section_header(line: str) -> str | None:
    match = _BRACKET_SECTION.match(line)
    if match:
        return match.group(1).strip()
    if line.endswith(":") and not line[0].isdigit():
        return line[:-1].strip()
    return None


def parse_text(text: str | bytes) -> Decklist:
    """Read a plain-text decklist. Raises ``DecklistParseError`` naming every bad line."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise DecklistParseError(
                [ParseProblem(0, f"the decklist is not UTF-8 text (byte {exc.start})")]
            ) from None
    if not isinstance(text, str):
        raise DecklistParseError([ParseProblem(0, "a decklist must be text")])
    text = text.removeprefix("\ufeff")
    lines = text.splitlines()
    if len(lines) > MAX_LINES:
        raise DecklistParseError(
            [ParseProblem(0, f"a decklist has at most {MAX_LINES} lines, this one {len(lines)}")]
        )
    decklist = Decklist()
    problems: list[ParseProblem] = []
    section = ""
    in_header = True
    for number, raw in enumerate(lines, start=1):
        line = raw.strip()
        if not line:
            continue
        if _CONTROL.search(line):
            problems.append(ParseProblem(number, "contains control characters"))
            continue
        if line.startswith("#"):
            match = _METADATA.match(line)
            if in_header and match:
                key = match.group(1).lower().replace("-", "_")
                decklist.metadata[key] = match.group(2).strip()
            continue
        in_header = False
        if line.startswith("["):
            header = _section_header(line)
            if header is None:
                problems.append(
                    ParseProblem(number, "a section header is '[Name]' alone on its line")
                )
            elif not header:
                problems.append(ParseProblem(number, "a section header needs a name"))
            else:
                section = header
            continue
        header = _section_header(line)
        if header is not None:
            if not header:
                problems.append(ParseProblem(number, "a section header needs a name"))
            else:
                section = header
            continue
        if _BARE_QUANTITY.match(line):
            problems.append(ParseProblem(number, f"{line!r} has a quantity but no card name"))
            continue
        match = _QUANTITY.match(line)
        if match:
            digits, name = match.group(1), match.group(2).strip()
            quantity = int(digits) if len(digits) <= 6 else MAX_QUANTITY + 1
            if quantity > MAX_QUANTITY and digits == line.split()[0]:
                # No deck holds 1776 copies: "1776 Declaration" is a card name.
                name, quantity = line, 1
        else:
            name, quantity = line, 1
        if not 1 <= quantity <= MAX_QUANTITY:
            problems.append(
                ParseProblem(number, f"quantity {digits} is not between 1 and {MAX_QUANTITY}")
            )
            continue
        if len(name) > MAX_NAME_LENGTH:
            problems.append(
                ParseProblem(number, f"a card name is at most {MAX_NAME_LENGTH} characters")
            )
            continue
        decklist.entries.append(DecklistEntry(name, quantity, section, number))
    if problems:
        raise DecklistParseError(problems)
    return decklist


def _clean(value: str) -> str:
    return " ".join(str(value).split())


def format_text(
    sections: list[tuple[str, list[tuple[int, str]]]], metadata: dict[str, str] | None = None
) -> str:
    """Write sections of ``(quantity, name)`` lines, after a ``# key: value`` metadata block."""
    out: list[str] = []
    for key, value in (metadata or {}).items():
        if value not in (None, ""):
            out.append(f"# {key}: {_clean(value)}")
    for title, lines in sections:
        if not lines:
            continue
        if out:
            out.append("")
        out.append(f"[{title}]")
        out.extend(f"{quantity} {name}" for quantity, name in lines)
    return "\n".join(out) + "\n"
