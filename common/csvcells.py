"""CSV the project writes, safe to open in a spreadsheet (no formula injection).

A spreadsheet reads a cell that starts with ``=``, ``+``, ``-`` or ``@`` as a formula, and some
also after a leading tab or carriage return: a deck named ``=HYPERLINK("http://...")`` would
become a live link (or worse) in whoever opens the export. Every CSV writer of the project goes
through ``csv_writer``, which neutralises such cells as OWASP advises: a single quote in front,
which the spreadsheet shows as text and does not evaluate.

What is neutralised, and what is not:

- text cells that start with one of those characters get the quote (``'=HYPERLINK(...)``,
  ``'-Foo``, ``'@home``);
- numbers stay numbers: an ``int`` or ``float`` cell, and a text cell that is exactly a decimal
  number (``-3``, ``+1.5``, ``-0.25e3``), are written as they are, so a spreadsheet user can
  still sum, sort and chart a numeric column. Such a cell cannot hold a formula. A deck whose
  whole name is a number (``-3``) is therefore read as that number by a spreadsheet: harmless;
- every other value (empty, ``None``, text starting with anything else) is written unchanged.

A program reading the CSV back sees the quote; ``csv_cell_restore`` undoes it where the project
reads its own exports (decklist CSV).
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterable
from typing import Any

FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
NEUTRALISER = "'"
_NUMBER = re.compile(r"[+-]?(?:[0-9]+(?:\.[0-9]*)?|\.[0-9]+)(?:[eE][+-]?[0-9]+)?")


def csv_cell(value: Any) -> Any:
    """``value`` as a cell a spreadsheet will not evaluate (see the module docstring)."""
    if not isinstance(value, str) or not value.startswith(FORMULA_STARTS):
        return value
    if _NUMBER.fullmatch(value):
        return value
    return NEUTRALISER + value


def csv_cell_restore(value: str) -> str:
    """A cell as it was before ``csv_cell`` (the quote taken off a neutralised cell)."""
    if value.startswith(NEUTRALISER) and value[1:].startswith(FORMULA_STARTS):
        return value[1:]
    return value


class SafeCsvWriter:
    """``csv.writer``'s ``writerow``/``writerows``, every cell passed through ``csv_cell``."""

    def __init__(self, out: Any, **kwargs: Any) -> None:
        self._writer = csv.writer(out, **kwargs)

    def writerow(self, row: Iterable[Any]) -> Any:
        return self._writer.writerow([csv_cell(value) for value in row])

    def writerows(self, rows: Iterable[Iterable[Any]]) -> None:
        for row in rows:
            self.writerow(row)


def csv_writer(out: Any, **kwargs: Any) -> SafeCsvWriter:
    """A CSV writer on ``out`` (``csv.writer``'s arguments) that neutralises formula cells."""
    return SafeCsvWriter(out, **kwargs)
