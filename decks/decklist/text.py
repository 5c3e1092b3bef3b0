"""The plain-text decklist format (documented in docs/decklists.md).

    # game: revolt-n-reign          leading "# key: value" lines are metadata
    # name: Eagle Control
    [Attack]                        a section header ("Attack:" works too)
    2 Stamp Act                     "2 Name", "2x Name" or "Name" (one copy)
    # any other comment

Reading never raises anything but ``DecklistParseError``, which lists every problem by line.
Headers are kept in ``Decklist.headers``; whether a game knows them is ``decklist_entries``'s
check. A sideboard section is refused here: no game has one, and its cards would join the deck.
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
    is_sideboard,
    metadata_line,
    quantity_message,
    sideboard_message,
)

_QUANTITY = re.compile(r"^(\d+)[xX\u00d7]?\s+(\S.*)$")
_BARE_QUANTITY = re.compile(r"^\d+\s*[xX\u00d7]?$")
_BRACKET_SECTION = re.compile(r"^\[(.*)\]$")
_CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]")
# "-2 Stamp Act", "\u22122x Stamp Act", "2.5 Sugar Act": quantities no deck can hold
_NEGATIVE_QUANTITY = re.compile(r"^([-\u2212\u2013]\s*\d+)\s*[xX\u00d7]?\s+\S")
_FRACTION_QUANTITY = re.compile(r"^(\d+\.\d+)\s*[xX\u00d7]?\s+\S")
MAX_HEADER_LENGTH = 60


def _section_header(line: str) -> str | None:
    match = _BRACKET_SECTION.match(line)
    if match:
        return match.group(1).strip()
    if line.endswith(":") and not line[0].isdigit():
        return line[:-1].strip()
    return None


def _header_problem(line: str, header: str) -> str | None:
    """What is wrong with a section header line, or None."""
    if not header:
        return "a section header needs a name"
    if "[" in header or "]" in header:
        return f"{line!r} is not a section header: write '[Name]' with no brackets inside the name"
    if len(header) > MAX_HEADER_LENGTH:
        return f"a section header is at most {MAX_HEADER_LENGTH} characters"
    if is_sideboard(header):
        return sideboard_message(header)
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
            pair = metadata_line(line)
            if in_header and pair:
                decklist.metadata[pair[0]] = pair[1]
            continue
        in_header = False
        header = _section_header(line)
        if header is None and line.startswith("["):
            problems.append(ParseProblem(number, "a section header is '[Name]' alone on its line"))
            continue
        if header is not None:
            problem = _header_problem(line, header)
            if problem:
                problems.append(ParseProblem(number, problem))
            else:
                section = header
                decklist.headers.append((number, header))
            continue
        negative = _NEGATIVE_QUANTITY.match(line)
        if negative:
            problems.append(ParseProblem(number, quantity_message(negative.group(1))))
            continue
        fraction = _FRACTION_QUANTITY.match(line)
        if fraction:
            problems.append(
                ParseProblem(number, f"quantity {fraction.group(1)} is not a whole number")
            )
            continue
        if _BARE_QUANTITY.match(line):
            problems.append(ParseProblem(number, f"{line!r} has a quantity but no card name"))
            continue
        match = _QUANTITY.match(line)
        if match:
            digits, name = match.group(1), match.group(2).strip()
            quantity = int(digits) if len(digits) <= 6 else MAX_QUANTITY + 1
            if quantity > MAX_QUANTITY and digits == line.split()[0]:
                # No deck holds 1776 copies: "1776 Declaration" is a card name, if a card has it.
                name, quantity = line, 1
                decklist.long_numbers[number] = digits
        else:
            name, quantity = line, 1
        if not 1 <= quantity <= MAX_QUANTITY:
            problems.append(ParseProblem(number, quantity_message(digits)))
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
