"""The one legality CSV (validate_decks --csv and the tournament download both write it)."""

from __future__ import annotations

import csv
import io

from decks.validation.report import (
    LEGALITY_CSV_COLUMNS,
    ValidationReport,
    legality_csv_rows,
    legality_csv_write,
)


def _illegal_report() -> dict:
    report = ValidationReport(game="revolt-n-reign", card_count=61)
    report.add("deck-size", "61 cards, not 60", "Deck Construction", [])
    report.add("copy-limit", "3 copies of Eagle Dive", "Deck Construction", ["Eagle Dive", "x"])
    return report.to_dict()


def test_a_row_per_violation_one_for_a_legal_deck_one_per_reading_error():
    legal = ValidationReport(game="revolt-n-reign", card_count=60).to_dict()
    rows = [
        *legality_csv_rows("bad.txt", _illegal_report()),
        *legality_csv_rows("good.txt", legal),
        *legality_csv_rows("broken.txt", None, ["line 2: no quantity", "line 3: no name"]),
    ]
    out = io.StringIO()

    legality_csv_write(out, rows, name_column="file")

    read = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert list(read[0]) == ["file", *LEGALITY_CSV_COLUMNS]
    assert [(r["file"], r["verdict"], r["code"]) for r in read] == [
        ("bad.txt", "illegal", "deck-size"),
        ("bad.txt", "illegal", "copy-limit"),
        ("good.txt", "legal", ""),
        ("broken.txt", "unreadable", ""),
        ("broken.txt", "unreadable", ""),
    ]
    assert read[1]["cards"] == "Eagle Dive; x"
    assert read[1]["card_count"] == "61"
    assert read[4]["message"] == "line 3: no name"
