"""Test hands for Reggae Revolution: re-draw, opening figures and single-player goldfish games.

Decks are the sample decklists of ``fixtures/decks/reggae-revolution``, turned into one record per
physical card (the shape ``Card.record()`` gives, plus the DeckCard zone) from the fixture YAML, so
most tests need no database; one test proves the database records play the same games.
"""

from __future__ import annotations

from math import comb
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.core import SetupError, plugin_for
from rules.engines.reggae_revolution import fixture_records, winnability
from rules.engines.reggae_revolution.game import ReggaeRevolutionGame
from rules.engines.reggae_revolution.hands import OUTCOMES
from rules.engines.reggae_revolution.state import LOSS_REASON, WIN_REASON
from tests.rules.hands_helpers import assert_seeded, deck_records, within_95

SLUG = "reggae-revolution"
HANDS = plugin_for(SLUG).hands()
assert HANDS is not None
sample, walk = HANDS.sample, HANDS.walk
RECORDS = {record["name"]: record for record in fixture_records()}
HAND, DECK = 6, 12


def card_records(filename: str) -> list[dict[str, Any]]:
    """One record per physical card of a sample decklist, each with its zone."""
    return deck_records(SLUG, filename, RECORDS)


STARTING = card_records("legal-starting-deck.txt")
FULL = card_records("legal-full-setup.txt")


def test_the_rulebooks_one_re_draw_is_the_mulligan():
    # Setup: a new hand, once; the default follows the greedy team policy's own rule.
    assert set(HANDS.mulligan_policies) == {
        "never",
        "fewer-than-three-symbols",
        "not-all-four-symbols",
    }
    assert HANDS.default_policy == "fewer-than-three-symbols"
    with pytest.raises(ValueError, match="unknown mulligan policy 'london'"):
        sample(STARTING, n=1, mulligan_policy="london")


def test_the_same_seed_gives_the_same_report():
    assert_seeded(sample, STARTING, n=12, seed=5)


def test_goldfish_games_are_the_engines_single_player_games_under_the_greedy_policy():
    # Single Player Rules: the greedy team policy plays one seat; same seeds, same games.
    report = sample(STARTING, n=30, seed=0)
    reference = winnability(ReggaeRevolutionGame(), {"players": 1}, games=30, seed=0)
    assert report.wins.get(OUTCOMES[WIN_REASON], 0) == reference.wins
    assert sum(report.wins.values()) == 30
    assert report.wins.get(OUTCOMES[LOSS_REASON], 0) == reference.end_reasons.get(LOSS_REASON, 0)
    # the outcomes are counted in the plugin's words
    assert OUTCOMES[WIN_REASON] == "won: all pairs scored (every symbol in every colour)"


def test_a_starter_is_in_the_opening_hand_as_often_as_the_hypergeometric_law_says():
    # Three copies of Dove Badge among 12 cards, six drawn: P(at least one) = 1 - C(9,6)/C(12,6).
    exact = 1 - comb(DECK - 3, HAND) / comb(DECK, HAND)
    games = 300
    hits = sum("Dove Badge" in walk(STARTING, seed=seed).hand for seed in range(games))
    assert within_95(hits / games, exact, games)
    assert all(len(walk(STARTING, seed=seed).hand) == HAND for seed in range(20))


def test_all_four_symbols_show_as_often_as_inclusion_exclusion_says():
    # P(no symbol missing) = 1 - 4 C(9,6)/C(12,6) + 6 C(6,6)/C(12,6) = 594/924.
    exact = 1 - (4 * comb(9, HAND) - 6 * comb(6, HAND)) / comb(DECK, HAND)
    games = 100
    report = sample(STARTING, n=games, seed=0, mulligan_policy="never")
    assert report.redraw_rate == 0
    assert within_95(report.all_four_symbols, exact, games)
    # Re-drawing every hand without all four symbols lifts the rate to p + (1 - p) p.
    redrawn = sample(STARTING, n=games, seed=0, mulligan_policy="not-all-four-symbols")
    assert within_95(redrawn.redraw_rate, 1 - exact, games)
    assert within_95(redrawn.all_four_symbols, exact + (1 - exact) * exact, games)
    assert redrawn.all_four_symbols > report.all_four_symbols


def test_figures_name_the_opening_the_pairs_and_the_ends():
    report = sample(STARTING, n=10, seed=0)
    labels = [label for label, _ in report.figures]
    assert labels[:4] == [
        "Games",
        "Re-draws taken",
        "Kept hand shows all four symbols",
        "Cards in hand after the first Villain Phase",
    ]
    assert "Pairs scored by turn 5" in labels and "Pairs scored by turn 10" in labels
    assert dict(report.figures)["Won"].endswith("%)")
    # The first two turns play the 12-card starting deck: never more than 12 symbols.
    assert 0 < report.raised_turns_1_2 <= DECK
    assert report.pairs_by_turn[5] <= report.pairs_by_turn[10] <= 16
    assert all(len(hand) == HAND for hand in report.opening_hands)
    assert report.as_dict()["figures"] == [list(row) for row in report.figures]


def test_a_walk_re_draws_once_at_most_and_keeps_the_twelve_cards():
    opening = walk(STARTING, seed=3)
    assert opening.can_mulligan and not opening.kept and opening.turns == 0
    again = walk(STARTING, seed=3, mulligans=1)
    assert not again.can_mulligan
    assert walk(STARTING, seed=3, mulligans=4) == again
    for hand in (opening.hand, again.hand):
        assert len(hand) == HAND and max(hand.count(name) for name in hand) <= 3
    assert "You shuffle the opening hand back and draw a new one (Setup)." in again.log


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 10_000), turns=st.integers(0, 6), mulligans=st.integers(0, 1))
def test_a_walk_replays_and_each_turn_extends_the_same_game(seed, turns, mulligans):
    before = walk(STARTING, seed=seed, mulligans=mulligans, kept=True, turns=turns)
    assert walk(STARTING, seed=seed, mulligans=mulligans, kept=True, turns=turns) == before
    after = walk(STARTING, seed=seed, mulligans=mulligans, kept=True, turns=turns + 1)
    if before.finished:
        assert after == before
        return
    counters_before, counters_after = dict(before.counters), dict(after.counters)
    assert after.turns == turns + 1
    assert after.finished or int(counters_after["Turn"]) == int(counters_before["Turn"]) + 1
    scored_before = dict(before.zones)["Score area"]
    scored_after = dict(after.zones)["Score area"]
    if "Villain Phase: the most recently scored card is destroyed." not in after.log:
        assert scored_after[: len(scored_before)] == scored_before


def test_a_kept_walk_is_at_the_first_main_phase_after_the_villain_phase():
    kept = walk(STARTING, seed=11, kept=True)
    assert kept.phase == "Turn 1: Main Phase" and kept.kept
    assert any(line.startswith("Villain Phase: the villain deck reveals") for line in kept.log)
    assert kept.turns == 0 and dict(kept.counters)["Pairs scored"] == "0 of 16"


def test_a_walk_to_the_end_says_how_the_game_ended():
    finished = walk(STARTING, seed=0, kept=True, turns=500)
    assert finished.finished and finished.phase == "Game over"
    assert finished.outcome.startswith(("You won on turn", "You lost"))
    assert finished.log[-1].startswith(("The players win: ", "The players lose: "))


def test_a_full_setup_deals_its_own_lineup_and_villain_deck():
    lineup = [r["name"] for r in FULL if r["zone"] == "lineup"]
    for seed in range(5):
        assert dict(walk(FULL, seed=seed).zones)["Lineup"] == lineup
    report = sample(FULL, n=5, seed=0)
    assert report.games == 5 and sum(report.wins.values()) == 5


def test_a_full_setup_without_villains_cannot_be_played():
    no_villains = [r for r in FULL if r["zone"] != "villain"]
    schemes_only = [*no_villains, {**RECORDS["Curfew Sirens"], "zone": "villain"}]
    with pytest.raises(
        SetupError, match="cannot play this deck: the records need at least one villain"
    ):
        sample(schemes_only, n=1)
    assert "at least one villain" in walk(schemes_only, seed=0).error


@pytest.mark.parametrize(
    ("filename", "message"),
    [
        ("illegal-starter-count.txt", r"3 of each of the four \(Setup\); this one has 12: 4 Dove"),
        ("illegal-starting-deck-size.txt", r"this one has 13"),
        ("illegal-lineup-size.txt", r"the lineup holds 6 cards \(Setup\), not 5"),
        ("illegal-wrong-zone.txt", r"cannot be in the main zone"),
        ("illegal-unknown-card.txt", r"Reggae Revolution cannot play this deck"),
    ],
)
def test_a_deck_the_engine_cannot_play_is_refused_with_the_reason(filename, message):
    deck = card_records(filename)
    with pytest.raises(SetupError, match=message):
        sample(deck, n=1)
    refused = walk(deck, seed=0)
    assert refused.error.startswith("Reggae Revolution cannot play this deck")
    assert not refused.hand


@pytest.mark.django_db
def test_database_records_play_the_same_games_as_the_fixture_records():
    from cards.models import Card

    cards = {c.name: c for c in Card.objects.filter(game__slug=SLUG, card_type__slug="starter")}
    deck = [
        {**cards[record["name"]].record(), "zone": record["zone"]}
        for record in sorted(STARTING, key=lambda r: r["name"])
    ]
    assert sample(deck, n=6, seed=2).as_dict() == sample(STARTING, n=6, seed=2).as_dict()
