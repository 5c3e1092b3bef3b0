"""Helpers for the test-hands tests: sample decklists as engine records, and shared checks."""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any, TypeVar

from decks.decklist.text import parse_text
from decks.validation import rules_for
from rules.engines.core import plugin_for
from rules.engines.core.hands import HandsModel

DECKS = Path(__file__).resolve().parents[2] / "fixtures" / "decks"

ModelT = TypeVar("ModelT", bound=HandsModel)
ReportT = TypeVar("ReportT")


def plugin_model(slug: str, kind: type[ModelT]) -> ModelT:
    """The test-hands model ``slug``'s plugin names, checked to be the game's own ``kind``."""
    model = plugin_for(slug).hands()
    assert isinstance(model, kind), model
    return model


def sampled(
    model: HandsModel, kind: type[ReportT], deck: list[dict[str, Any]], **options: Any
) -> ReportT:
    """``model.sample(deck, **options)``, its report checked to be the game's own ``kind``."""
    report = model.sample(deck, **options)
    assert isinstance(report, kind), report
    return report


def deck_records(
    slug: str, filename: str, records: Mapping[str, Mapping[str, Any]]
) -> list[dict[str, Any]]:
    """One record per physical card of a sample decklist of ``fixtures/decks/<slug>``.

    Each record is the card's (from ``records``, by name: the shape ``Card.record()`` gives) plus
    the DeckCard zone its section maps to; a name ``records`` lacks gets a bare unknown record.
    """
    decklist = parse_text((DECKS / slug / filename).read_text(encoding="utf-8"))
    rules = rules_for(slug)
    cards = []
    for entry in decklist.entries:
        zone = rules.zone_for_section(entry.section) or rules.zones[0]
        record = records.get(entry.name, {"name": entry.name, "type": "unknown"})
        cards.extend([{**record, "zone": zone}] * entry.quantity)
    return cards


def within_95(rate: float, exact: float, games: int) -> bool:
    """Whether a Monte Carlo rate lies inside the 95% interval around the exact probability."""
    return abs(rate - exact) <= 1.96 * math.sqrt(exact * (1 - exact) / games)


def assert_seeded(
    sample: Callable[..., Any], deck: list[dict[str, Any]], n: int, seed: int
) -> None:
    """The same seed gives the same report, whatever the global generator does; another differs."""
    first = sample(deck, n=n, seed=seed).as_dict()
    random.random()  # the global generator must play no part
    assert sample(deck, n=n, seed=seed).as_dict() == first
    assert sample(deck, n=n, seed=seed + 1).as_dict() != first
