"""A gauntlet's figures (one deck against a list of decks) and a co-operative game's field of team
win rates, with Wilson 95% intervals.

Pure Python (no Django), like ``rules.metagame``. In a gauntlet the first deck (the "hero") plays
every other deck; each opponent's row is the hero's wins over the games against it (a draw is a
win for neither), and the overall rate is the opponents' rates weighted by their meta shares, its
interval Wilson's at the effective number of games (``weighted_rate_interval``).

A co-operative game (Reggae Revolution: the players win or lose together against the game) has
no deck beating another. There a metagame is a *field of solo rates*: each deck's own team plays
the game and the figure is how often that team wins, one row a deck, no matrix; the field's rate
is the rows weighted by the meta shares (how often the team wins with a deck drawn from the
field). A co-operative gauntlet seats the hero deck beside each listed deck as its partner, and
a row is how often that team of two wins: the same figures as a competitive gauntlet, read as
"with" instead of "against".
"""

from __future__ import annotations

import io
import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass
from typing import Any

from common.csvcells import csv_writer
from rules.engines.core.intervals import weighted_rate_interval, wilson_interval
from rules.metagame import MetagameError, meta_shares_normalised


@dataclass(frozen=True)
class SideCounts:
    """One pairing's counts for the deck it rates: its opponent or partner (``deck``, an index
    into the job's decks, or the deck itself for a solo team), games, wins and draws."""

    deck: int
    games: int
    wins: int
    draws: int = 0


@dataclass(frozen=True)
class RateRow:
    """A row of a gauntlet (the hero against or with ``deck``) or of a co-operative field
    (``deck``'s own team): its counts, win rate and Wilson 95% interval, and its meta share."""

    deck: int
    label: str
    share: float
    games: int
    wins: int
    losses: int
    draws: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None


@dataclass(frozen=True)
class RateTable:
    """A gauntlet (``hero`` set) or a co-operative field (``hero`` None): a row per opponent,
    partner or deck, and the rows' rate weighted by their shares (normalised to sum to 1) with
    its interval; ``cooperative`` says whether a win is a team's win against the game."""

    hero: str | None
    cooperative: bool
    rows: list[RateRow]
    games: int
    win_rate: float | None
    ci_low: float | None
    ci_high: float | None

    def as_dict(self) -> dict[str, Any]:
        """Plain, JSON-ready data."""
        return asdict(self)


def _row(counts: SideCounts, label: str, share: float) -> RateRow:
    if counts.wins + counts.draws > counts.games or min(counts.wins, counts.draws) < 0:
        raise MetagameError("A pairing's wins and draws do not fit its games.")
    low, high = wilson_interval(counts.wins, counts.games)
    rated = counts.games > 0
    return RateRow(
        deck=counts.deck,
        label=label,
        share=round(share, 6),
        games=counts.games,
        wins=counts.wins,
        losses=counts.games - counts.wins - counts.draws,
        draws=counts.draws,
        win_rate=round(counts.wins / counts.games, 6) if rated else None,
        ci_low=round(low, 6) if rated else None,
        ci_high=round(high, 6) if rated else None,
    )


def _table(
    hero: str | None,
    cooperative: bool,
    counts: Sequence[SideCounts],
    labels: Sequence[str],
    shares: Sequence[float] | None,
) -> RateTable:
    if any(not 0 <= part.deck < len(labels) for part in counts):
        raise MetagameError(f"A pairing names a deck outside the job's {len(labels)} decks.")
    weights = meta_shares_normalised(shares, len(counts)) if counts else []
    rows = [
        _row(part, labels[part.deck], weight) for part, weight in zip(counts, weights, strict=True)
    ]
    rated = weighted_rate_interval([(part.wins, part.games) for part in counts], weights)
    games = sum(part.games for part in counts)
    if rated is None:
        return RateTable(hero, cooperative, rows, games, None, None, None)
    rate, low, high = rated
    return RateTable(hero, cooperative, rows, games, round(rate, 6), round(low, 6), round(high, 6))


def gauntlet_compute(
    labels: Sequence[str],
    opponents: Sequence[SideCounts],
    shares: Sequence[float] | None = None,
    *,
    cooperative: bool = False,
) -> RateTable:
    """The hero's (deck 0's) rate against (or, ``cooperative``, with) each of ``opponents``
    and overall, the opponents weighted by ``shares`` (one per opponent, any scale; None:
    equal). Raises ``MetagameError`` for shares or counts that do not fit."""
    if not labels:
        raise MetagameError("A gauntlet needs its deck.")
    if any(part.deck == 0 for part in opponents):
        raise MetagameError("The gauntlet's deck cannot be its own opponent.")
    return _table(labels[0], cooperative, opponents, labels, shares)


def team_field_compute(
    labels: Sequence[str], teams: Sequence[SideCounts], shares: Sequence[float] | None = None
) -> RateTable:
    """A co-operative metagame: each deck's team win rate against the game (``teams``, one per
    deck, a draw counting as no win) and the field's, weighted by ``shares`` (one per deck)."""
    return _table(None, True, teams, labels, shares)


def rate_table_json(table: RateTable) -> str:
    """The table as canonical JSON (sorted keys): the same counts give the same bytes."""
    return json.dumps(table.as_dict(), sort_keys=True, indent=2)


def rate_table_csv(table: RateTable) -> str:
    """The rows as CSV, then the weighted overall (or field) row with its interval."""
    out = io.StringIO()
    writer = csv_writer(out, lineterminator="\n")
    head = "partner" if table.hero and table.cooperative else "opponent" if table.hero else "deck"
    fields = ("win_rate", "ci_low", "ci_high")
    writer.writerow([head, "share", "games", "wins", "losses", "draws", *fields])

    def number(value: float | None) -> str:
        return "" if value is None else f"{value:.6f}"

    for row in table.rows:
        rates = [number(getattr(row, name)) for name in fields]
        writer.writerow(
            [row.label, number(row.share), row.games, row.wins, row.losses, row.draws, *rates]
        )
    overall = [number(getattr(table, name)) for name in fields]
    writer.writerow(["(weighted)", number(1.0), table.games, "", "", "", *overall])
    return out.getvalue()


def rate_table_text(table: RateTable) -> str:
    """The table as text: a line per row (win rate and 95% interval), then the weighted one."""
    what = "with" if table.cooperative else "against"
    title = (
        f"{table.hero} {what} each deck:" if table.hero else "Each deck's team against the game:"
    )
    width = max([len(row.label) for row in table.rows] + [10])
    lines = [title]

    def rate(games: int, value: float | None, low: float | None, high: float | None) -> str:
        if value is None or low is None or high is None:
            return "no games"
        return f"{100 * value:5.1f}%  [{100 * low:5.1f}, {100 * high:5.1f}]  {games} games"

    for row in table.rows:
        share = f"share {100 * row.share:5.1f}%"
        body = rate(row.games, row.win_rate, row.ci_low, row.ci_high)
        lines.append(f"  {row.label:<{width}}  {share}  {body}")
    overall = rate(table.games, table.win_rate, table.ci_low, table.ci_high)
    lines.append(f"  {'weighted':<{width}}  {'':<12}  {overall}")
    return "\n".join(lines) + "\n"
