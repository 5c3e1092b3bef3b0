"""Deck validation compiled (rules/compiled.py) judges exactly as the Python it is built from.

The differential test needs a compiled build that matches the source (``make install`` makes one
where a C compiler is); without one it is skipped and says so. The property tests hold for both
builds: the shortcuts of the per-deck path (the ``{name: quantity}`` fast path, the format screen)
give the reports of the general path.
"""

from __future__ import annotations

import datetime as dt
import json
import os
import subprocess
import sys
from collections import Counter
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from decks.validation import card_index, validate
from decks.validation.format_check import check_deck_format, check_format
from decks.validation.formats import format_id_for, format_rules
from decks.validation.report import ValidationReport
from decks.validation.resolved import ResolvedDeck
from rules import compiled
from rules.engines.core import registered_games
from tests.rules.differential import run_scripts

ROOT = Path(__file__).resolve().parents[2]
SCRIPT = ROOT / "tests" / "decks" / "validation_differential.py"
GAMES = registered_games()


@pytest.mark.slow
@pytest.mark.skipif(
    not compiled.fresh_build(),
    reason="no compiled build matching the source (make install builds one where a C compiler "
    "is present)",
)
def test_compiled_and_python_validation_give_identical_reports() -> None:
    (compiled_header, compiled_lines), (python_header, python_lines) = run_scripts(
        SCRIPT, ["compiled", "python"]
    )
    assert compiled_header["build"] == "compiled"
    assert compiled_header["module"].endswith(".so") or compiled_header["module"].endswith(".pyd")
    assert python_header["build"].startswith("python") and python_header["module"] == "resolved.py"
    # every game, legal and illegal decks of each, a few hundred in all
    verdicts = Counter(
        (json.loads(line)["game"], json.loads(line)["legal"]) for line in python_lines
    )
    for game in GAMES:
        assert verdicts[(game, True)] >= 5 and verdicts[(game, False)] >= 50, (game, verdicts)
    assert len(compiled_lines) == len(python_lines)
    for ours, theirs in zip(compiled_lines, python_lines, strict=True):
        assert ours == theirs


def test_a_process_told_to_run_python_loads_no_compiled_validation_module() -> None:
    env = {**os.environ, compiled.ENV: "python"}
    code = (
        "import django; django.setup();"
        "import decks.validation.resolved as r, decks.validation.revolt_n_reign as g;"
        "import rules.compiled as c; print(r.__file__, g.__file__, c.chosen, sep='|')"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True
    )
    assert done.returncode == 0, done.stderr
    resolved_file, game_file, chosen = done.stdout.strip().splitlines()[-1].split("|")
    assert resolved_file.endswith("resolved.py") and game_file.endswith("revolt_n_reign.py")
    assert chosen.startswith("python")


def test_the_validation_modules_are_in_the_build_and_the_database_side_is_not() -> None:
    built = {str(path.relative_to(compiled.ROOT)) for path in compiled.sources()}
    for module in (
        "resolved",
        "format_check",
        "records",
        "report",
        "game_rules",
        "validator",
        "revolt_n_reign",
    ):
        assert f"decks/validation/{module}.py" in built
    for module in ("__init__", "base", "formats", "index"):
        assert f"decks/validation/{module}.py" not in built


NAME_KEYS = st.sampled_from(["", "!", " ", "x"])


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_a_name_mapping_is_judged_as_the_same_entries_listed_one_by_one(data) -> None:
    # given a game and a {name: quantity} deck of its cards, some misspelt, some quantities odd
    game = data.draw(st.sampled_from(["revolt-n-reign", "rival-realms", "reign-absolute"]))
    names = [card.name for card in card_index(game).cards]
    keys = st.tuples(st.sampled_from(names), NAME_KEYS).map(lambda pair: pair[0] + pair[1])
    quantities = st.one_of(st.integers(1, 4), st.sampled_from([0, -1, 2.0, "3", True]))
    deck = data.draw(st.dictionaries(keys, st.integers(1, 4) | quantities, min_size=0, max_size=45))
    format_slug = data.draw(st.sampled_from([None, "standard"]))
    # when it is validated as a mapping (the fast path when every entry is exact) and as tuples
    as_mapping = validate(game, deck, format=format_slug, as_of=dt.date(2026, 10, 1))
    as_tuples = validate(game, list(deck.items()), format=format_slug, as_of=dt.date(2026, 10, 1))
    # then the reports are the same
    assert as_mapping.to_dict() == as_tuples.to_dict()


@pytest.mark.django_db
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_the_format_screen_passes_exactly_the_decks_the_full_check_passes(data) -> None:
    # given cards of Revolt N Reign with counts, and a format on a date
    index = card_index("revolt-n-reign")
    cards = data.draw(st.lists(st.sampled_from(index.cards), max_size=50, unique=True))
    totals = {card: data.draw(st.integers(1, 3)) for card in cards}
    format_slug = data.draw(st.sampled_from(["standard", "founding"]))
    day = data.draw(
        st.sampled_from([dt.date(2026, 3, 15), dt.date(2026, 5, 15), dt.date(2026, 10, 1)])
    )
    format_id = format_id_for("revolt-n-reign", format_slug)
    assert format_id is not None
    snapshot = format_rules(format_id, day)
    # when the format is checked with the screen (a resolved deck) and card by card
    deck = ResolvedDeck(index, list(totals), list(totals.values()))
    screened, full = (
        ValidationReport(game="revolt-n-reign"),
        ValidationReport(game="revolt-n-reign"),
    )
    check_deck_format(snapshot, deck, screened)
    check_format(snapshot, totals, full)
    # then the reports are the same
    assert screened.to_dict() == full.to_dict()
