"""Test hands: sample opening hands, mulligans and goldfish games of a deck.

Revolt N Reign is the game with a test-hands model so far; the work is done by its engine package
(``rules.engines.revolt_n_reign.hands``), this module is the stable entry point.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from rules.engines.revolt_n_reign.hands import (
    MULLIGAN_POLICIES,
    HandReport,
    MulliganPolicy,
    goldfish_action,
)
from rules.engines.revolt_n_reign.hands import sample as _revolt_sample

__all__ = ["MULLIGAN_POLICIES", "HandReport", "MulliganPolicy", "goldfish_action", "sample"]


def sample(
    deck: Sequence[Mapping[str, Any]],
    n: int = 100,
    seed: int = 0,
    mulligan_policy: str | MulliganPolicy = "no-pillar",
) -> HandReport:
    """Deal ``n`` seeded goldfish games of a Revolt N Reign deck (60 card records) and report."""
    return _revolt_sample(deck, n=n, seed=seed, mulligan_policy=mulligan_policy)
