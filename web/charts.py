"""Server-rendered SVG bar charts: the geometry here, the markup in ``web/_bar_chart.html``; and
the heat map of a win-rate matrix, a table (``web/_heat_map.html``).

No chart library and no script: a chart is a handful of ``<rect>`` and ``<text>`` elements with a
title and a description for screen readers, and the numbers are also written on the bars.

A numeric axis is continuous: ``integer_points`` and ``bucket_points`` put in the empty values and
buckets a count left out, so a gap in a curve shows as a gap. Tick labels never overlap: on a
numeric axis only every n-th is written (the first one always), on a categorical one a label too
long for its bar is shortened with an ellipsis (the bar's tooltip and the description keep it
whole); a count too wide for its bar is left to the tooltip.

The heat map is an HTML table rather than a drawing, so its labels wrap like any text and are
never cut, and each cell writes its win rate, its games and its 95% interval: nothing is left to
a tooltip.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

CHAR_WIDTH = 6.4
"""Width of one character of an 11px label, an upper estimate for digits and most letters."""
LABEL_GAP = 6.0
"""Space kept between two tick labels."""
MAX_BUCKETS = 24
"""A histogram with more buckets than this merges neighbours, so its bars stay readable."""


def text_width(text: str) -> float:
    """Estimated width in pixels of ``text`` written as a tick or value label."""
    return len(text) * CHAR_WIDTH


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    x: float
    y: float
    width: float
    height: float
    tick: str = ""
    """The label written under the bar ('' where it is left out so labels do not overlap)."""
    show_value: bool = True

    @property
    def label_x(self) -> float:
        return round(self.x + self.width / 2, 1)

    @property
    def value_y(self) -> float:
        return round(self.y - 4, 1)


@dataclass(frozen=True)
class BarChart:
    title: str
    description: str
    x_label: str
    y_label: str
    width: int
    height: int
    baseline: float
    bars: tuple[Bar, ...]

    @property
    def empty(self) -> bool:
        return not any(bar.value for bar in self.bars)

    @property
    def caption(self) -> str:
        """``Cost curve (cards per IP cost)``: the axis words in lower case, acronyms kept."""

        def lower(words: str) -> str:
            return " ".join(w if w[1:2].isupper() else w.lower() for w in words.split())

        return f"{self.title} ({lower(self.y_label)} per {lower(self.x_label)})"

    @property
    def tick_y(self) -> float:
        return self.baseline + 14

    @property
    def axis_label_y(self) -> float:
        return self.height - 3

    @property
    def center_x(self) -> float:
        return self.width / 2


def integer_points(counts: Mapping[int, int], *, start: int | None = 0) -> list[tuple[int, int]]:
    """``(value, count)`` for every integer from ``start`` (default 0; None: the smallest value
    counted) to the largest value counted, 0 where nothing was counted."""
    if not counts:
        return []
    low = min(counts) if start is None else min(start, min(counts))
    return [(value, counts.get(value, 0)) for value in range(low, max(counts) + 1)]


def _bucket_bounds(key: str) -> tuple[int, int]:
    low, _, high = key.partition("-")
    return int(low), int(high or low)


def bucket_points(
    histogram: Mapping[str, int], *, max_buckets: int = MAX_BUCKETS
) -> list[tuple[str, int]]:
    """``("low-high", count)`` for every bucket from the first counted to the last, 0 for the
    empty ones. ``histogram`` maps ``"low-high"`` keys of equal width (``rules.simulation``'s
    ``0025-0049``) to counts; past ``max_buckets`` neighbours merge into wider buckets."""
    if not histogram:
        return []
    bounds = {_bucket_bounds(key): count for key, count in histogram.items()}
    width = min(high - low + 1 for low, high in bounds)
    counts: dict[int, int] = {}
    for (low, _), count in bounds.items():
        counts[low // width] = counts.get(low // width, 0) + count
    first, last = min(counts), max(counts)
    merge = math.ceil((last - first + 1) / max_buckets)
    points = []
    for start in range(first, last + 1, merge):
        total = sum(counts.get(index, 0) for index in range(start, start + merge))
        low = start * width
        points.append((f"{low}-{low + merge * width - 1}", total))
    return points


def _shortened(label: str, room: float) -> str:
    """``label`` cut to fit ``room`` pixels, an ellipsis marking the cut; nothing where not even
    one character and the ellipsis fit (the bar's tooltip and the description keep the label)."""
    if text_width(label) <= room:
        return label
    for keep in range(int(room / CHAR_WIDTH), 0, -1):
        cut = label[:keep].rstrip() + "…"
        if text_width(cut) <= room:
            return cut
    return ""


def bar_chart(
    points: Sequence[tuple[object, int]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    width: int = 360,
    height: int = 180,
    numeric: bool = False,
) -> BarChart:
    """Lay out one bar per ``(label, value)`` point, scaled to the largest value.

    ``numeric``: the labels are an ordered axis (costs, lengths): where they do not all fit,
    every n-th is written; otherwise each is shortened to fit under its bar (every n-th, with
    the room of n bars, where bars are too narrow for one character)."""
    top, bottom, side = 16.0, 34.0, 8.0
    plot_height = height - top - bottom
    baseline = height - bottom
    largest = max((value for _, value in points), default=0) or 1
    slot = (width - 2 * side) / max(len(points), 1)
    bar_width = max(4.0, slot * 0.7)
    widest = max((text_width(str(label)) for label, _ in points), default=0.0)
    if numeric:
        step = max(1, math.ceil((widest + LABEL_GAP) / slot))
    else:
        # each category under its bar, shortened to fit; where bars are too narrow for even a
        # character and an ellipsis, every n-th category gets the room of n bars instead
        step = max(1, math.ceil((text_width("M…") + LABEL_GAP) / slot))
    bars = []
    for index, (label, value) in enumerate(points):
        bar_height = plot_height * value / largest
        x = side + index * slot + (slot - bar_width) / 2
        if numeric:
            tick = str(label) if index % step == 0 else ""
        else:
            tick = _shortened(str(label), step * slot - LABEL_GAP) if index % step == 0 else ""
        bars.append(
            Bar(
                label=str(label),
                value=value,
                x=round(x, 1),
                y=round(baseline - bar_height, 1),
                width=round(bar_width, 1),
                height=round(bar_height, 1),
                tick=tick,
                show_value=text_width(str(value)) <= slot - 2,
            )
        )
    summary = ", ".join(f"{x_label} {label}: {value}" for label, value in points)
    return BarChart(
        title=title,
        description=summary or "No data.",
        x_label=x_label,
        y_label=y_label,
        width=width,
        height=height,
        baseline=baseline,
        bars=tuple(bars),
    )


#: a diverging orange-to-purple scale (ColorBrewer PuOr, safe for the common colour-blindness
#: types): 0% orange, 50% near white, 100% purple; every cell also prints its number
HEAT_LOW = (179, 88, 6)
HEAT_MID = (247, 247, 247)
HEAT_HIGH = (84, 39, 136)


def heat_colour(rate: float) -> str:
    """The fill of a win rate from 0 to 1 on the orange-white-purple scale."""
    rate = min(1.0, max(0.0, rate))
    start, end, share = (
        (HEAT_LOW, HEAT_MID, rate * 2) if rate < 0.5 else (HEAT_MID, HEAT_HIGH, rate * 2 - 1)
    )
    channels = (round(a + (b - a) * share) for a, b in zip(start, end, strict=True))
    return "#" + "".join(f"{channel:02x}" for channel in channels)


def games_text(count: int) -> str:
    """``1 game``, ``8 games``."""
    return f"{count} game" if count == 1 else f"{count} games"


@dataclass(frozen=True)
class HeatFigure:
    """What the heat map writes of one pairing: the row deck's win rate against the column
    deck, the bounds of its 95% interval (fractions of 1) and the games it rests on."""

    rate: float
    low: float
    high: float
    games: int


@dataclass(frozen=True)
class HeatCell:
    """One cell, written out in full: the rate, the games and the interval (in whole %), so a
    100 from 4 games reads as the guess it is without hovering."""

    fill: str
    rate: str
    games: int
    low: str
    high: str
    dark_text: bool
    tip: str

    @property
    def games_text(self) -> str:
        return games_text(self.games)


@dataclass(frozen=True)
class HeatRow:
    label: str
    cells: tuple[HeatCell | None, ...]


@dataclass(frozen=True)
class HeatMap:
    """A win-rate matrix laid out as a table (``web/_heat_map.html``): the labels are written
    whole, numbered so a column can be matched to its row, and wrap where they are long."""

    title: str
    columns: tuple[str, ...]
    rows: tuple[HeatRow, ...]


def heat_map(
    labels: Sequence[str],
    figures: Sequence[Sequence[HeatFigure | None]],
    *,
    title: str,
) -> HeatMap:
    """Lay out a win-rate matrix: ``figures[i][j]`` is row ``i`` against column ``j``, None where
    there is no figure (the diagonal, a pair without games). Rows and columns are numbered, and
    every label is kept whole."""
    numbered = [f"{index + 1}. {label}" for index, label in enumerate(labels)]
    rows = []
    for row, row_figures in enumerate(figures):
        cells: list[HeatCell | None] = []
        for col, figure in enumerate(row_figures):
            if figure is None:
                cells.append(None)
                continue
            tip = (
                f"{labels[row]} against {labels[col]}: {100 * figure.rate:.1f}% of "
                f"{games_text(figure.games)} (95% interval {100 * figure.low:.1f}-"
                f"{100 * figure.high:.1f}%)"
            )
            cells.append(
                HeatCell(
                    fill=heat_colour(figure.rate),
                    rate=f"{100 * figure.rate:.0f}",
                    games=figure.games,
                    low=f"{100 * figure.low:.0f}",
                    high=f"{100 * figure.high:.0f}",
                    dark_text=abs(figure.rate - 0.5) < 0.3,
                    tip=tip,
                )
            )
        rows.append(HeatRow(numbered[row], tuple(cells)))
    return HeatMap(
        title=title,
        columns=tuple(numbered),
        rows=tuple(rows),
    )
