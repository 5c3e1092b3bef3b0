"""CSV decklists: a header row with ``quantity`` and ``name`` (``zone`` optional), one card a row.

Lines before the header that start with ``#`` are read as the list's ``# key: value`` metadata,
as in a text list (``game``, ``variant``, ``as_of`` ...). The export writes none: it is the cards
alone, header first, for programs that read it with a plain CSV reader.
"""

from __future__ import annotations

import csv
import io
import re

from common.csvcells import csv_cell_restore, csv_writer
from decks.decklist.model import (
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

COLUMNS = ("quantity", "name", "zone")
_NEGATIVE = re.compile(r"^[-\u2212]\s*\d+$")
_FRACTION = re.compile(r"^\d*[.,]\d+$")


def parse_csv(text: str | bytes) -> Decklist:
    """Read a CSV decklist. Raises ``DecklistParseError`` naming every bad row by line number."""
    if isinstance(text, bytes | bytearray):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError:
            raise DecklistParseError([ParseProblem(0, "the CSV file is not UTF-8 text")]) from None
    if not isinstance(text, str):
        raise DecklistParseError([ParseProblem(0, "a decklist must be text")])
    text = text.removeprefix("\ufeff")
    if "\x00" in text:
        raise DecklistParseError([ParseProblem(0, "the CSV file contains NUL characters")])
    decklist = Decklist()
    lines = text.splitlines(keepends=True)
    skipped = 0  # the metadata lines before the header, and blank ones among them
    for raw in lines:
        stripped = raw.strip()
        if stripped and not stripped.startswith("#"):
            break
        pair = metadata_line(stripped)
        if pair:
            decklist.metadata[pair[0]] = pair[1]
        skipped += 1
    # strict: a quote left open, or a stray one after a quoted cell, is an error, not the rest
    # of the file read into one cell
    reader = csv.reader(io.StringIO("".join(lines[skipped:]), newline=""), strict=True)
    problems: list[ParseProblem] = []
    next_start = 1
    try:
        header = next(reader, None)
        if header is None:
            return decklist
        columns = [column.strip().lower() for column in header]
        if "name" not in columns:
            raise DecklistParseError(
                [
                    ParseProblem(
                        skipped + 1,
                        "the header row needs a 'name' column (and usually 'quantity')",
                    )
                ]
            )
        twice = sorted({c for c in columns if c in COLUMNS and columns.count(c) > 1})
        if twice:
            where = ", ".join(
                f"'{c}' (columns {', '.join(str(i + 1) for i, x in enumerate(columns) if x == c)})"
                for c in twice
            )
            raise DecklistParseError(
                [ParseProblem(skipped + 1, f"the header row names {where} more than once")]
            )
        name_at = columns.index("name")
        quantity_at = columns.index("quantity") if "quantity" in columns else None
        zone_at = columns.index("zone") if "zone" in columns else None
        next_start = reader.line_num + 1  # where the next row begins (a quote left open)
        for row in reader:
            line = reader.line_num + skipped
            next_start = reader.line_num + 1
            if not any(cell.strip() for cell in row):
                continue
            if any(cell.strip() for cell in row[len(columns) :]):
                problems.append(
                    ParseProblem(
                        line,
                        f"the row has {len(row)} cells, and the header names {len(columns)} "
                        "columns: a cell is out of place (a comma in a name needs quotes)",
                    )
                )
                continue
            name = csv_cell_restore(row[name_at].strip()) if name_at < len(row) else ""
            raw_quantity = (
                row[quantity_at].strip()
                if quantity_at is not None and quantity_at < len(row)
                else ""
            )
            zone = (
                csv_cell_restore(row[zone_at].strip())
                if zone_at is not None and zone_at < len(row)
                else ""
            )
            if not name:
                problems.append(ParseProblem(line, "the row has no card name"))
                continue
            if len(name) > MAX_NAME_LENGTH:
                problems.append(
                    ParseProblem(line, f"a card name is at most {MAX_NAME_LENGTH} characters")
                )
                continue
            if zone and is_sideboard(zone):
                problems.append(ParseProblem(line, sideboard_message(zone)))
                continue
            if _NEGATIVE.match(raw_quantity):
                problems.append(ParseProblem(line, quantity_message(raw_quantity)))
                continue
            if _FRACTION.match(raw_quantity):
                problems.append(
                    ParseProblem(line, f"quantity {raw_quantity} is not a whole number")
                )
                continue
            if raw_quantity and not (raw_quantity.isascii() and raw_quantity.isdigit()):
                problems.append(ParseProblem(line, f"quantity {raw_quantity!r} is not a number"))
                continue
            quantity = int(raw_quantity[:6]) if raw_quantity else 1
            if not 1 <= quantity <= MAX_QUANTITY:
                problems.append(ParseProblem(line, quantity_message(raw_quantity)))
                continue
            decklist.entries.append(DecklistEntry(name, quantity, zone, line, zone))
    except csv.Error as exc:
        said = (
            "a quoted cell is never closed: a closing '\"' is missing"
            if "unexpected end of data" in str(exc)
            else str(exc)
        )
        problems.append(ParseProblem(next_start + skipped, f"not valid CSV: {said}"))
    if problems:
        raise DecklistParseError(problems)
    return decklist


def format_csv(entries: list[tuple[int, str, str]]) -> str:
    """Write ``(quantity, name, zone)`` entries as CSV with a header row (formula-like names
    neutralised: ``common.csvcells``; ``parse_csv`` takes the quote off again)."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(COLUMNS)
    for quantity, name, zone in entries:
        writer.writerow((quantity, name, zone))
    return out.getvalue()
