"""The one confidence interval of a win rate or any proportion: Wilson's score interval.

Simulations, matchups, test-hand figures and the engines' own reports all call this, with the one
z below, so every "95% interval" the site shows is computed the same way.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

#: the two-sided 95% quantile of the standard normal distribution
Z_95 = 1.959963984540054


def wilson_interval(successes: float, trials: float, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval of ``successes`` in ``trials`` (95% by default).

    No trials say nothing: the interval is then the whole (0, 1). Both may be fractional (an
    effective number of trials, ``weighted_rate_interval``).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)


def weighted_rate_interval(
    parts: Sequence[tuple[int, int]], weights: Sequence[float], z: float = Z_95
) -> tuple[float, float, float] | None:
    """The weighted mean of several win rates (``parts``: successes and trials of each) and its
    Wilson interval: the rate against a field of opponents weighted by how often each is met.

    Weights are normalised over the parts with trials and a positive weight; the interval is
    Wilson's at the effective number of trials ``1 / sum(w_i^2 / n_i)`` (Kish), which is the
    plain pooled interval when every part has the same weight and trials. Returns None when no
    part counts (no trials, or no weight).
    """
    kept = [
        (successes, trials, weight)
        for (successes, trials), weight in zip(parts, weights, strict=True)
        if trials > 0 and weight > 0
    ]
    total = sum(weight for _, _, weight in kept)
    if not kept or total <= 0:
        return None
    rate = sum(weight / total * successes / trials for successes, trials, weight in kept)
    effective = 1.0 / sum((weight / total) ** 2 / trials for _, trials, weight in kept)
    low, high = wilson_interval(rate * effective, effective, z)
    return rate, min(low, rate), max(high, rate)
