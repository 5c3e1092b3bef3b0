"""The one confidence interval of a win rate or any proportion: Wilson's score interval.

Simulations, matchups, test-hand figures and the engines' own reports all call this, with the one
z below, so every "95% interval" the site shows is computed the same way.
"""

from __future__ import annotations

import math

#: the two-sided 95% quantile of the standard normal distribution
Z_95 = 1.959963984540054


def wilson_interval(successes: int, trials: int, z: float = Z_95) -> tuple[float, float]:
    """Return the Wilson score interval of ``successes`` in ``trials`` (95% by default).

    No trials say nothing: the interval is then the whole (0, 1).
    """
    if trials == 0:
        return 0.0, 1.0
    p = successes / trials
    denominator = 1 + z * z / trials
    centre = (p + z * z / (2 * trials)) / denominator
    half = z * math.sqrt(p * (1 - p) / trials + z * z / (4 * trials * trials)) / denominator
    return max(0.0, centre - half), min(1.0, centre + half)
