"""The metagame's figures (rules.metagame): a symmetric matrix, field win rates weighted by the
meta shares, and the CSV and JSON exports."""

from __future__ import annotations

import csv
import io
import json

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.metagame import (
    MetagameError,
    PairingCounts,
    meta_shares_normalised,
    metagame_compute,
    metagame_csv,
    metagame_json,
)


@st.composite
def round_robins(draw):
    """Labels and every pair's counts (some pairs with no games), and meta shares."""
    size = draw(st.integers(2, 6))
    pairings = []
    for a in range(size):
        for b in range(a + 1, size):
            games = draw(st.integers(0, 40))
            first = draw(st.integers(0, games))
            second = draw(st.integers(0, games - first))
            pairings.append(PairingCounts((a, b), games, (first, second), games - first - second))
    shares = draw(st.lists(st.floats(0.0, 10.0), min_size=size, max_size=size))
    if sum(shares) <= 0:
        shares = [1.0] * size
    return [f"deck {i}" for i in range(size)], pairings, shares


@given(round_robins())
def test_a_versus_b_plus_b_versus_a_is_one_minus_the_draws(case):
    labels, pairings, shares = case
    metagame = metagame_compute(labels, pairings, shares)
    for row in range(len(labels)):
        assert metagame.cells[row][row] is None
        for col in range(len(labels)):
            cell, mirror = metagame.cells[row][col], metagame.cells[col][row]
            if row == col or cell is None:
                assert mirror is None or row != col
                continue
            assert (cell.games, cell.draws, cell.wins) == (
                mirror.games,
                mirror.draws,
                mirror.losses,
            )
            assert cell.win_rate + mirror.win_rate == pytest.approx(
                1 - cell.draws / cell.games, abs=2e-6
            )


@given(round_robins())
def test_a_field_rate_lies_between_the_rates_of_its_row(case):
    labels, pairings, shares = case
    metagame = metagame_compute(labels, pairings, shares)
    weights = meta_shares_normalised(shares, len(labels))
    assert sum(metagame.shares) == pytest.approx(1.0, abs=1e-5)
    for row, field in enumerate(metagame.field):
        rates = [
            cell.win_rate
            for col, cell in enumerate(metagame.cells[row])
            # the weights the field uses (normalised: a share too small to survive the division,
            # such as 5e-324 beside 2.0, weighs nothing)
            if cell is not None and weights[col] > 0
        ]
        if field.win_rate is None:
            assert not rates
            continue
        assert min(rates) - 1e-5 <= field.win_rate <= max(rates) + 1e-5
        assert field.ci_low <= field.win_rate <= field.ci_high


def test_a_deck_met_more_often_counts_more_in_the_field_rate():
    pairings = [
        PairingCounts((0, 1), 10, (10, 0), 0),  # deck 0 beats deck 1 every time
        PairingCounts((0, 2), 10, (0, 10), 0),  # and loses to deck 2 every time
        PairingCounts((1, 2), 10, (5, 5), 0),
    ]
    even = metagame_compute(["a", "b", "c"], pairings)
    many_b = metagame_compute(["a", "b", "c"], pairings, [1, 3, 1])
    assert even.field[0].win_rate == 0.5
    assert many_b.field[0].win_rate == 0.75
    assert many_b.shares == [0.2, 0.6, 0.2]


def test_the_exports_carry_the_matrix_and_the_field_rates():
    pairings = [PairingCounts((0, 1), 4, (3, 1), 0)]
    metagame = metagame_compute(["Elves", "Empire"], pairings)
    rows = list(csv.reader(io.StringIO(metagame_csv(metagame))))
    assert rows[0] == [
        "deck",
        "Elves",
        "Empire",
        "meta_share",
        "field_win_rate",
        "ci_low",
        "ci_high",
    ]
    assert rows[1][:5] == ["Elves", "", "0.750000", "0.500000", "0.750000"]
    assert rows[2][:5] == ["Empire", "0.250000", "", "0.500000", "0.250000"]
    data = json.loads(metagame_json(metagame))
    assert data["labels"] == ["Elves", "Empire"]
    assert data["cells"][0][1]["wins"] == 3 and data["cells"][0][0] is None
    assert metagame_json(metagame) == metagame_json(metagame_compute(["Elves", "Empire"], pairings))


@pytest.mark.parametrize(
    ("shares", "reason"),
    [
        ([1, 2], "one meta share per deck"),
        ([1, -1, 1], "from 0 to 1,000,000,000"),
        ([0, 0, 0], "more than 0"),
        # each finite, but their sum is infinity: every fraction came out 0 until 2026-12-07
        ([1e308, 1e308, 1], "from 0 to 1,000,000,000"),
        ([float("nan"), 1, 1], "from 0 to"),
    ],
)
def test_bad_meta_shares_are_refused_with_a_reason(shares, reason):
    with pytest.raises(MetagameError, match=reason):
        meta_shares_normalised(shares, 3)


def test_the_largest_meta_shares_still_weigh_the_field():
    assert meta_shares_normalised([1e9, 1e9, 0], 3) == [0.5, 0.5, 0.0]
