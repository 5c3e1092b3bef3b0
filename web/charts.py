"""Server-rendered SVG bar charts: the geometry here, the markup in ``web/_bar_chart.html``.

No chart library and no script: a chart is a handful of ``<rect>`` and ``<text>`` elements with a
title and a description for screen readers, and the numbers are also written on the bars.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Bar:
    label: str
    value: int
    x: float
    y: float
    width: float
    height: float

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
        return not self.bars

    @property
    def tick_y(self) -> float:
        return self.baseline + 14

    @property
    def axis_label_y(self) -> float:
        return self.height - 3

    @property
    def center_x(self) -> float:
        return self.width / 2


def bar_chart(
    points: Sequence[tuple[object, int]],
    *,
    title: str,
    x_label: str,
    y_label: str,
    width: int = 360,
    height: int = 180,
) -> BarChart:
    """Lay out one bar per ``(label, value)`` point, scaled to the largest value."""
    top, bottom, side = 16.0, 34.0, 8.0
    plot_height = height - top - bottom
    baseline = height - bottom
    largest = max((value for _, value in points), default=0) or 1
    slot = (width - 2 * side) / max(len(points), 1)
    bar_width = max(4.0, slot * 0.7)
    bars = []
    for index, (label, value) in enumerate(points):
        bar_height = plot_height * value / largest
        x = side + index * slot + (slot - bar_width) / 2
        bars.append(
            Bar(
                label=str(label),
                value=value,
                x=round(x, 1),
                y=round(baseline - bar_height, 1),
                width=round(bar_width, 1),
                height=round(bar_height, 1),
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
