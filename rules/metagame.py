"""A metagame's figures from its pairings' counts: the win-rate matrix and each deck's win rate
against the field, with Wilson 95% intervals, and their CSV and JSON exports.

Pure Python (no Django): the job's results, the command line and tests all call it. A cell
``(i, j)`` is deck ``i``'s wins over the games of ``i`` against ``j``; a draw is a win for neither,
so cell ``(i, j)`` plus cell ``(j, i)`` is one minus the pairing's draw rate. A deck's field win
rate is the mean of its row weighted by the other decks' meta shares (the mirror match is not
played), its interval Wilson's at the effective number of games
(``rules.engines.core.intervals.weighted_rate_interval``).
"""

from __future__ import annotations

import io
import json
import math
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from common.csvcells import csv_writer
from rules.engines.core.intervals import weighted_rate_interval, wilson_interval

MIN_DECKS = 2
MAX_DECKS = 16


class MetagameError(ValueError):
    """Meta shares or pairings that make no metagame; the message says why."""


@dataclass(frozen=True)
class PairingCounts:
    """What two decks' games gave: ``sides`` (the two decks' indexes), games, each side's wins
    (in the order of ``sides``) and the draws (games neither won)."""

    sides: tuple[int, int]
    games: int
    wins: tuple[int, int]
    draws: int


@dataclass(frozen=True)
class MatrixCell:
    """A deck's results against one opponent (the row's deck against the column's)."""

    wins: int
    losses: int
    draws: int
    games: int
    win_rate: float | None
    ci_low: float
    ci_high: float


@dataclass(frozen=True)
class FieldRate:
    """A deck's win rate against the whole field, weighted by the meta shares."""

    deck: int
    label: str
    share: float
    games: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None


@dataclass(frozen=True)
class Metagame:
    """The matrix (``cells[i][j]``; None on the diagonal and for pairs without games) and the
    field win rate of every deck; ``shares`` are normalised to sum to 1."""

    labels: list[str]
    shares: list[float]
    cells: list[list[MatrixCell | None]]
    field: list[FieldRate]

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data."""
        return asdict(self)


#: the largest meta share taken: any scale is fine, but shares near float's limit add up to
#: infinity and every fraction becomes 0
MAX_META_SHARE = 1e9


def meta_shares_normalised(shares: Sequence[float] | None, decks: int) -> list[float]:
    """``shares`` (any scale, one per deck) as fractions summing to 1; equal shares when None.
    Raises ``MetagameError`` for a wrong count, a negative, non-finite or too large share
    (over ``MAX_META_SHARE``), or all zero."""
    if decks < 1:
        raise MetagameError("A metagame needs decks.")
    if shares is None or len(shares) == 0:
        return [1.0 / decks] * decks
    if len(shares) != decks:
        raise MetagameError(f"Give one meta share per deck: {decks} decks, {len(shares)} shares.")
    values = [float(share) for share in shares]
    if any(not math.isfinite(value) or not 0 <= value <= MAX_META_SHARE for value in values):
        raise MetagameError(
            f"Meta shares are numbers from 0 to {MAX_META_SHARE:,.0f} (any scale: 30, 50, 20 "
            "or 0.3, 0.5, 0.2)."
        )
    total = sum(values)
    if total <= 0:
        raise MetagameError("At least one meta share must be more than 0.")
    return [value / total for value in values]


def _cell(wins: int, losses: int, draws: int, games: int) -> MatrixCell:
    low, high = wilson_interval(wins, games)
    rate = round(wins / games, 6) if games else None
    return MatrixCell(wins, losses, draws, games, rate, round(low, 6), round(high, 6))


def metagame_compute(
    labels: Sequence[str], pairings: Sequence[PairingCounts], shares: Sequence[float] | None = None
) -> Metagame:
    """The matrix and field win rates of ``labels``' decks from their pairings' counts.

    A pair may appear in several pairings (their counts add up) or in none (its cells are None).
    """
    size = len(labels)
    weights = meta_shares_normalised(shares, size)
    counts: dict[tuple[int, int], list[int]] = {}
    for pairing in pairings:
        a, b = pairing.sides
        if a == b or not (0 <= a < size and 0 <= b < size):
            raise MetagameError(f"A pairing names decks {a} and {b} of {size}.")
        if sum(pairing.wins) + pairing.draws != pairing.games:
            raise MetagameError("A pairing's wins and draws do not add up to its games.")
        for row, col, wins, losses in ((a, b, *pairing.wins), (b, a, *pairing.wins[::-1])):
            cell = counts.setdefault((row, col), [0, 0, 0, 0])
            cell[0] += wins
            cell[1] += losses
            cell[2] += pairing.draws
            cell[3] += pairing.games
    cells: list[list[MatrixCell | None]] = [
        [
            _cell(*counts[(row, col)]) if counts.get((row, col), [0, 0, 0, 0])[3] else None
            for col in range(size)
        ]
        for row in range(size)
    ]
    field = []
    for row in range(size):
        opponents = [col for col in range(size) if col != row]
        parts = [(c.wins, c.games) if (c := cells[row][col]) else (0, 0) for col in opponents]
        rated = weighted_rate_interval(parts, [weights[col] for col in opponents])
        games = sum(trials for _, trials in parts)
        if rated is None:
            field.append(
                FieldRate(row, labels[row], round(weights[row], 6), games, None, None, None)
            )
            continue
        rate, low, high = rated
        field.append(
            FieldRate(
                row,
                labels[row],
                round(weights[row], 6),
                games,
                round(rate, 6),
                round(low, 6),
                round(high, 6),
            )
        )
    return Metagame(list(labels), [round(weight, 6) for weight in weights], cells, field)


def metagame_json(metagame: Metagame) -> str:
    """The metagame as canonical JSON (sorted keys): the same counts give the same bytes."""
    return json.dumps(metagame.as_dict(), sort_keys=True, indent=2)


def metagame_csv(metagame: Metagame) -> str:
    """The matrix as CSV: a row per deck (its win rate against each column's deck, empty on the
    diagonal and for pairs without games), then its meta share and field win rate with the
    interval."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    writer.writerow(["deck", *metagame.labels, "meta_share", "field_win_rate", "ci_low", "ci_high"])
    for row, label in enumerate(metagame.labels):
        rates = ["" if cell is None else f"{cell.win_rate:.6f}" for cell in metagame.cells[row]]
        field = metagame.field[row]
        tail = [
            "" if value is None else f"{value:.6f}"
            for value in (field.win_rate, field.ci_low, field.ci_high)
        ]
        writer.writerow([label, *rates, f"{field.share:.6f}", *tail])
    return out.getvalue()
