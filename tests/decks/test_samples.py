"""Every sample decklist in fixtures/decks/<game>/ validates as its file name says.

``legal-*.txt`` must be legal. ``illegal-<code>.txt`` must report exactly ``<code>``; where a
game's rules make one break imply another (a Reign Absolute faction deck is the whole faction
deck), the file says so in a ``# expect: code, code`` line and must report exactly those codes.
"""

from __future__ import annotations

import datetime as dt
from pathlib import Path

import pytest

from decks.decklist import decklist_entries, decklist_read
from decks.validation import validate
from tests.decks.conftest import SAMPLES_DIR

SAMPLES = sorted(SAMPLES_DIR.glob("*/*.txt"))


def _validate_sample(path: Path):
    game = path.parent.name
    decklist = decklist_read(path.read_text(encoding="utf-8"))
    meta = decklist.metadata
    assert meta.get("game") == game, f"{path.name} names game {meta.get('game')!r}"
    as_of = dt.date.fromisoformat(meta["as_of"]) if "as_of" in meta else None
    return decklist, validate(
        game,
        decklist_entries(game, decklist),
        format=meta.get("format"),
        as_of=as_of,
        variant=meta.get("variant"),
    )


def test_every_game_has_legal_and_illegal_samples():
    games = {path.parent.name for path in SAMPLES}
    for game in games:
        names = [p.name for p in SAMPLES if p.parent.name == game]
        assert len([n for n in names if n.startswith("legal-")]) >= 2, game
        assert len([n for n in names if n.startswith("illegal-")]) >= 3, game
    assert "revolt-n-reign" in games


@pytest.mark.django_db
@pytest.mark.parametrize("path", SAMPLES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_sample_deck_verdict(path: Path):
    decklist, report = _validate_sample(path)

    if path.stem.startswith("legal-"):
        assert report.legal, report.to_dict()
        assert report.warnings == []
    else:
        assert path.stem.startswith("illegal-")
        named = path.stem.removeprefix("illegal-")
        expected = {named}
        if "expect" in decklist.metadata:
            expected = {code.strip() for code in decklist.metadata["expect"].split(",")}
            assert named in expected
        assert set(report.codes) == expected, report.to_dict()
        assert not report.legal


@pytest.mark.django_db
def test_every_revolt_n_reign_code_has_an_illegal_sample():
    codes = {p.stem.removeprefix("illegal-") for p in SAMPLES_DIR.glob("revolt-n-reign/illegal-*")}

    assert codes >= {
        "deck-size",
        "ua-count",
        "copy-limit",
        "duplicate-names",
        "rights-cap",
        "freedom-cap",
        "bill-cap",
        "unknown-card",
        "banned",
        "restricted",
        "not-in-format",
    }
