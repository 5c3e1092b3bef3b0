"""Charts: continuous numeric axes, tick labels that never overlap, and on the deck page only the
counts and curves that mean something for the deck's game."""

from __future__ import annotations

import itertools
import re

import pytest
from django.urls import reverse
from hypothesis import example, given, settings
from hypothesis import strategies as st

from cards.models import Card
from decks.selectors import format_default
from decks.services import deck_create
from tests.web.conftest import RNR, make_deck
from web.charts import LABEL_GAP, bar_chart, bucket_points, integer_points, text_width

# -- the geometry ---------------------------------------------------------------------------------


def test_integer_points_keep_the_empty_costs():
    assert integer_points({1: 2, 4: 1}) == [(0, 0), (1, 2), (2, 0), (3, 0), (4, 1)]
    assert integer_points({3: 1, 5: 2}, start=None) == [(3, 1), (4, 0), (5, 2)]
    assert integer_points({}) == []


def test_bucket_points_keep_the_empty_buckets():
    histogram = {"0025-0049": 3, "0100-0124": 1}
    assert bucket_points(histogram) == [("25-49", 3), ("50-74", 0), ("75-99", 0), ("100-124", 1)]


@settings(max_examples=60, deadline=None)
@given(
    st.dictionaries(st.integers(0, 400), st.integers(1, 50), min_size=1, max_size=12),
    st.integers(2, 40),
)
def test_bucket_points_are_contiguous_and_count_every_game(lows, max_buckets):
    histogram = {f"{low * 5:04d}-{low * 5 + 4:04d}": n for low, n in lows.items()}
    points = bucket_points(histogram, max_buckets=max_buckets)
    assert sum(n for _, n in points) == sum(lows.values())
    assert len(points) <= max_buckets
    bounds = [tuple(int(x) for x in label.split("-")) for label, _ in points]
    assert all(high + 1 == next_low for (_, high), (next_low, _) in itertools.pairwise(bounds))


def _tick_extents(chart) -> list[tuple[float, float]]:
    return [
        (bar.label_x - text_width(bar.tick) / 2, bar.label_x + text_width(bar.tick) / 2)
        for bar in chart.bars
        if bar.tick
    ]


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.integers(0, 1000), min_size=1, max_size=60),
    st.integers(0, 3000),
    st.booleans(),
)
@example(values=[0] * 60, first=10, numeric=False)  # 60 categories: too narrow for one each
def test_tick_labels_never_overlap(values, first, numeric):
    points = [(first + i, n) for i, n in enumerate(values)]
    chart = bar_chart(points, title="T", x_label="X", y_label="Y", numeric=numeric)
    extents = _tick_extents(chart)
    assert all(
        right + LABEL_GAP / 2 <= next_left
        for (_, right), (next_left, _) in itertools.pairwise(extents)
    )
    assert chart.bars[0].tick  # the axis always says where it starts


def test_a_long_category_is_shortened_not_overlapping():
    points = [(f"A very long way to end a game number {i}", i + 1) for i in range(6)]
    chart = bar_chart(points, title="How games ended", x_label="End", y_label="Games")
    assert all(bar.tick.endswith("…") for bar in chart.bars)
    assert "A very long way to end a game number 3: 4" in chart.description


# -- the deck page --------------------------------------------------------------------------------

pytestmark_db = pytest.mark.django_db


def bar_titles(html: str, chart_id: str) -> list[str]:
    svg = re.search(rf'<svg[^>]*data-testid="{chart_id}".*?</svg>', html, re.S)
    assert svg, f"no chart {chart_id}"
    return re.findall(r"<rect[^>]*><title>([^<]*)</title>", svg.group(0))


@pytestmark_db
def test_the_cost_curve_shows_the_empty_costs_between(alice, user):
    one = Card.objects.filter(game__slug=RNR, cost=1).order_by("name").first()
    four = Card.objects.filter(game__slug=RNR, cost=4).order_by("name").first()
    deck = deck_create(
        owner=user,
        game=RNR,
        name="Gappy",
        decklist=f"2 {one.name}\n1 {four.name}\n",
        format=format_default(RNR),
    )
    html = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert "<figcaption>Cost curve (cards per IP cost)</figcaption>" in html
    assert bar_titles(html, "cost-curve") == [
        "IP cost 0: 0 cards",
        "IP cost 1: 2 cards",
        "IP cost 2: 0 cards",
        "IP cost 3: 0 cards",
        "IP cost 4: 1 cards",
    ]


@pytestmark_db
def test_revolt_n_reign_shows_every_breakdown(alice, legal_deck):
    html = alice.get(reverse("deck-detail", args=[legal_deck.pk])).content.decode()
    captions = re.findall(r"<caption>(By [^<]*)</caption>", html)
    assert captions == ["By type", "By branch", "By rarity"]
    assert 'data-testid="cost-curve"' in html


@pytestmark_db
@pytest.mark.parametrize(
    ("game", "sample_name", "captions", "curve"),
    [
        ("rival-realms", "legal-arcane-court", ["By type", "By rarity"], True),  # no branches
        ("regality-vs-religion", "legal-regality-standard", ["By alignment"], False),  # tiles
        ("reign-absolute", "legal-empire-legion", ["By type", "By faction"], False),  # no cost
    ],
)
def test_a_game_shows_only_the_charts_that_mean_something(
    alice, user, game, sample_name, captions, curve
):
    deck = make_deck(user, game=game, sample_name=sample_name)
    html = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert re.findall(r"<caption>(By [^<]*)</caption>", html) == captions
    assert ('id="cost-curve' in html or 'data-testid="cost-curve"' in html) == curve
    assert "None" not in re.findall(r'<th scope="row">([^<]*)</th>', html)


@pytestmark_db
def test_an_empty_deck_says_nothing_to_chart_without_an_orphan_caption(alice, user):
    deck = deck_create(owner=user, game=RNR, name="Empty", decklist="", format=format_default(RNR))
    html = alice.get(reverse("deck-detail", args=[deck.pk])).content.decode()
    assert "Cost curve: nothing to chart yet." in html
    assert "<figcaption>Cost curve" not in html


@pytestmark_db
def test_the_game_length_chart_of_a_matchup_keeps_the_empty_buckets(user):
    import dataclasses

    from rules.lab.selectors import simulation_job_matchup
    from tests.web.conftest import store_matchup_job
    from web.matchups import matchup_summary

    # given: a matchup whose games lasted 25-49 actions (two) and 100-124 (one)
    job = store_matchup_job(user, make_deck(user), make_deck(user, name="B"), games=3, seed=1)
    run = dataclasses.replace(
        simulation_job_matchup(job),
        totals={
            "games": 3,
            "wins": [2, 1],
            "draws": 0,
            "length_total": 200,
            "histogram": {"0025-0049": 2, "0100-0124": 1},
            "end_reasons": {},
        },
    )
    # when
    points = matchup_summary(run)["length_points"]
    # then
    assert points == [("25-49", 2), ("50-74", 0), ("75-99", 0), ("100-124", 1)]
    chart = bar_chart(points, title="Game length", x_label="Actions", y_label="Games", numeric=True)
    assert [bar.value for bar in chart.bars] == [2, 0, 0, 1]
