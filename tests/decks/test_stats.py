"""Deck statistics and exact draw probabilities."""

from __future__ import annotations

import math
import random
from fractions import Fraction
from math import comb

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from decks.stats import card_matches, deck_stats, hypergeometric_at_least
from tests.decks.conftest import RNR, legal_rnr_deck

PILLAR = card_matches(type="pillar")


@given(
    population=st.integers(1, 60),
    data=st.data(),
)
def test_hypergeometric_sums_to_one_and_matches_the_formula(population, data):
    successes = data.draw(st.integers(0, population))
    draws = data.draw(st.integers(0, population))
    exactly = [
        hypergeometric_at_least(population, successes, draws, k)
        - hypergeometric_at_least(population, successes, draws, k + 1)
        for k in range(draws + 1)
    ]

    assert sum(exactly) == 1
    assert all(p >= 0 for p in exactly)
    k = data.draw(st.integers(0, draws))
    assert exactly[k] == Fraction(
        comb(successes, k) * comb(population - successes, draws - k), comb(population, draws)
    )


MONTE_CARLO_RUNS = 2_000
# Hoeffding: P(|share - p| >= e) <= 2 exp(-2 n e^2); this e makes that 1e-9, so no seed fails
# in practice (30 examples: a 3e-8 chance over a whole run), and an error in the exact formula
# bigger than 7.3 points shows.
MONTE_CARLO_MARGIN = math.sqrt(math.log(2 / 1e-9) / (2 * MONTE_CARLO_RUNS))


@settings(max_examples=30, deadline=None)
@given(
    population=st.integers(1, 60),
    data=st.data(),
    seed=st.integers(0, 2**32 - 1),
)
def test_hypergeometric_agrees_with_drawing_from_a_shuffled_pile(population, data, seed):
    # given: a pile of `population` cards, `successes` of them hits (the first ones)
    successes = data.draw(st.integers(0, population))
    draws = data.draw(st.integers(0, population))
    at_least = data.draw(st.integers(0, draws + 1))
    rng = random.Random(seed)
    # when: drawing `draws` cards, many times
    hits = sum(
        sum(card < successes for card in rng.sample(range(population), draws)) >= at_least
        for _ in range(MONTE_CARLO_RUNS)
    )
    # then: the share of draws with enough hits is the exact chance, within the margin
    exact = hypergeometric_at_least(population, successes, draws, at_least)
    assert abs(hits / MONTE_CARLO_RUNS - float(exact)) <= MONTE_CARLO_MARGIN


@pytest.mark.django_db
def test_counts_by_type_branch_rarity_and_the_cost_curve():
    stats = deck_stats(RNR, legal_rnr_deck())

    assert stats.card_count == 60
    assert stats.by_type == {
        "unconstitutional-act": 3,
        "pillar": 23,
        "attack": 14,
        "defense": 8,
        "rights": 8,
        "freedom": 2,
        "bill": 2,
    }
    assert sum(stats.by_branch.values()) == 60 and stats.by_branch["none"] == 3
    assert sum(stats.by_rarity.values()) == 60
    assert sum(stats.cost_curve.values()) == 60 - 3 - 23  # UAs and Pillars print no IP cost
    assert list(stats.cost_curve) == sorted(stats.cost_curve)


@pytest.mark.django_db
def test_rnr_draws_from_the_57_cards_left_once_the_acts_are_set_aside():
    stats = deck_stats(RNR, legal_rnr_deck())

    opening = stats.draw_probability(PILLAR, at_least=1, turn=0)
    by_turn_three = stats.draw_probability(PILLAR, at_least=2, turn=3)

    assert stats.draw_pile_size == 57
    assert opening == 1 - Fraction(comb(34, 7), comb(57, 7))
    exactly = [Fraction(comb(23, k) * comb(34, 10 - k), comb(57, 10)) for k in range(2)]
    assert by_turn_three == 1 - sum(exactly)
    assert stats.draw_probability(card_matches(type="unconstitutional-act"), turn=5) == 0
    assert round(float(opening), 4) == 0.9797


@pytest.mark.django_db
def test_reggae_hands_are_six_cards_and_a_fresh_hand_each_turn():
    deck = [("Dove Badge", 3), ("Heart Patch", 3), ("Linked Hands", 3), ("Respect Nod", 3)]
    stats = deck_stats("reggae-revolution", deck)
    peace = card_matches(name="Dove Badge")

    assert stats.draw_pile_size == 12
    assert stats.draw_probability(peace, turn=0) == 1 - Fraction(comb(9, 6), comb(12, 6))
    assert stats.draw_probability(peace, at_least=3, turn=2) == 1


@pytest.mark.django_db
def test_games_without_fixed_draws_only_give_opening_odds():
    stats = deck_stats("rival-realms", {"Grain Tithe": 10, "Militia": 4})

    assert stats.draw_probability(card_matches(type="supply"), turn=0) == 1 - Fraction(
        comb(4, 7), comb(14, 7)
    )
    with pytest.raises(ValueError, match="no fixed hand or draws"):
        stats.draw_probability(card_matches(type="supply"), turn=2)
