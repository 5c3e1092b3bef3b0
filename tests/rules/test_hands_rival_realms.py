"""Rival Realms test hands: openings without a mulligan, the goldfish line and its figures."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.core import SetupError, plugin_for
from rules.engines.rival_realms.hands import (
    HAND_SIZE,
    OPENING_SUPPLY,
    Goldfish,
    RealmsHandReport,
    RivalRealmsHands,
    _new_game,
    idle_action,
    own_turn,
    sample_deck,
)
from rules.engines.rival_realms.state import STARTING_LIFE
from rules.simulation import wilson_interval
from tests.rules.hands_helpers import plugin_model, sampled

HANDS = plugin_model("rival-realms", RivalRealmsHands)
walk = HANDS.walk


def sample(
    deck: list[dict[str, Any]], *, model: RivalRealmsHands | None = None, **options: Any
) -> RealmsHandReport:
    """``model.sample`` (the plugin's model by default), whose report is this game's own."""
    return sampled(model or HANDS, RealmsHandReport, deck, **options)


def short_games(turns: int) -> RivalRealmsHands:
    """The model with sampled games cut off after ``turns`` of the player's own turns."""
    return RivalRealmsHands(plugin_for("rival-realms"), sample_turns=turns)


COURT = sample_deck("legal-arcane-court")
KNIGHTS = sample_deck("legal-knights-and-keeps")
DECK_SIZE = 40


def _supply_count(deck: list[dict]) -> int:
    return sum(1 for record in deck if record["type"] == "supply")


def test_the_rulebook_has_no_mulligan_so_never_is_the_only_policy() -> None:
    assert HANDS.policies() == ["never"]
    with pytest.raises(ValueError, match=r"unknown mulligan policy 'no-supply' \(known: never\)"):
        sample(COURT, n=1, mulligan_policy="no-supply")


def test_sample_is_seeded_and_reports_openings_deploys_damage_and_ends() -> None:
    report = sample(KNIGHTS, n=12, seed=4)
    assert report == sample(KNIGHTS, n=12, seed=4)
    assert report.games == 12 and sum(report.wins.values()) == 12
    assert all(len(hand) == HAND_SIZE for hand in report.opening_hands)
    assert set(report.deployed_on_turn) == {1, 2, 3}
    # Cards played and damage only grow with the turns.
    played, damage = report.played_by_turn, report.damage_by_turn
    assert played[3] <= played[5] <= played[10]
    assert 0 <= damage[3] <= damage[5] <= damage[10] <= STARTING_LIFE
    labels = [label for label, _ in report.figures]
    assert "Realm or unit deployed on turn 1" in labels
    assert "Damage to the rival by turn 5" in labels
    assert all(label.startswith(("won: ", "lost: ", "drawn: ")) for label in report.wins)
    json.dumps(report.as_dict())


def test_supply_in_opening_hands_agrees_with_the_hypergeometric_odds() -> None:
    # given: 21 supply cards in 40; seven cards dealt, no mulligan
    supply = _supply_count(COURT)
    n = 400
    report = sample(COURT, model=short_games(1), n=n, seed=1000)
    # then: P(at least 2 supply cards) is inside the Monte Carlo figure's 95% interval
    none_or_one = sum(
        math.comb(supply, k) * math.comb(DECK_SIZE - supply, HAND_SIZE - k)
        for k in range(OPENING_SUPPLY)
    )
    exact = 1 - none_or_one / math.comb(DECK_SIZE, HAND_SIZE)
    low, high = wilson_interval(round(report.opening_with_supply * n), n)
    assert low <= exact <= high
    # and the mean supply count is within 1.96 standard errors of 7 * 21 / 40
    p = supply / DECK_SIZE
    variance = HAND_SIZE * p * (1 - p) * (DECK_SIZE - HAND_SIZE) / (DECK_SIZE - 1)
    assert abs(report.supply_in_opening - HAND_SIZE * p) <= 1.96 * math.sqrt(variance / n)


def test_a_deck_the_engine_cannot_play_is_refused_with_its_reason() -> None:
    short = KNIGHTS[:-1]
    with pytest.raises(SetupError, match="40 cards"):
        sample(short, n=1)
    view = walk(short, seed=1)
    assert view.finished and "40 cards" in view.error


def test_walk_deals_the_same_opening_hand_as_sample_and_replays_by_seed() -> None:
    opening = walk(COURT, seed=21)
    assert not opening.kept and not opening.can_mulligan
    assert opening.hand == sample(COURT, model=short_games(2), n=1, seed=21).opening_hands[0]
    assert walk(COURT, seed=21, kept=True, turns=3) == walk(COURT, seed=21, kept=True, turns=3)


def test_walk_steps_one_own_turn_at_a_time_and_shows_the_table() -> None:
    first = walk(KNIGHTS, seed=2, kept=True, turns=1)
    second = walk(KNIGHTS, seed=2, kept=True, turns=2)
    assert (first.turns, second.turns) == (1, 2)
    # each walk's log starts with the player's last turn
    assert (first.events[0]["kind"], first.events[0]["turn"], first.events[0]["player"]) == (
        "turn",
        1,
        0,
    )
    assert (second.events[0]["turn"], second.events[0]["player"]) == (3, 0)
    assert first.log and all(not line.startswith("turn (") for line in first.log)
    counters = dict(second.counters)
    assert int(counters["Rival's life"]) <= int(dict(first.counters)["Rival's life"])
    assert [label for label, _ in second.zones] == ["Your field", "Your discard deck"]


def _seed_with(names: set[str], supply_at_least: int) -> int:
    for seed in range(200):
        state = _new_game(KNIGHTS, seed, 3)
        hand = [state.table[c] for c in state.hand[0]]
        supply = sum(spec.supply for spec in hand)
        if names <= {spec.name for spec in hand} and supply >= supply_at_least:
            return seed
    raise AssertionError("no such deal in 200 seeds")


def test_goldfish_deploys_a_prerequisite_and_its_unit_together_then_attacks() -> None:
    # given: an opening hand with Stables, a Scout Rider (needs Stables) and supply for both (3 + 2)
    seed = _seed_with({"Stables", "Scout Rider"}, 5)
    # when: the first turn is played
    view = walk(KNIGHTS, seed=seed, kept=True, turns=1)
    # then: both were deployed, the Rider attacked unblocked and was discarded after combat
    assert "You play Stables." in view.log
    assert "You play Scout Rider." in view.log
    assert "You attack with Scout Rider." in view.log
    assert "Stables" in dict(view.zones)["Your field"]
    assert "Scout Rider" in dict(view.zones)["Your discard deck"]
    assert int(dict(view.counters)["Rival's life"]) <= STARTING_LIFE - 2


@pytest.mark.parametrize("deck", [COURT, KNIGHTS], ids=["arcane-court", "knights-and-keeps"])
def test_redraw_by_the_book_the_sample_hands_bring_the_idle_rival_to_0(deck: list) -> None:
    """By the rulebook (no Redraw discard, ruling 23) the sample decks carry enough supply for
    their cheap units that their hands keep flowing (§`Redraw`, §`Supply`): the test hands
    bring an idle rival's life to 0 in nearly every game instead of locking (ruling 21). Knights
    and Keeps as it was until 2026-12-07 locked in about a quarter of them."""
    report = sample(deck, n=100, seed=3)
    assert report.wins.get("won: life down to 0", 0) >= 95
    assert 0 < report.damage_by_turn[3] <= report.damage_by_turn[10]


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), deck=st.sampled_from([COURT, KNIGHTS]))
def test_goldfish_plays_legally_and_the_idle_rival_never_acts(seed: int, deck: list) -> None:
    state = _new_game(deck, seed, 6)
    goldfish = Goldfish()
    while not state.is_terminal():
        if state.current_player() == 1:
            action = idle_action(state)
        else:
            if state.phase == "deploy" and not state.tasks:
                plan = goldfish.plan(state)
                names = {state.table[c].name for c in state.field[0]}
                # the plan is payable from the hand's supply and meets prerequisites in order
                supply = state.supply[0] + sum(
                    state.table[c].supply for c in state.hand[0] if state.table[c].type == "supply"
                )
                assert sum(state.table[c].cost for c in plan) <= supply
                for card in plan:
                    assert set(state.table[card].prerequisites) <= names
                    names.add(state.table[card].name)
            action = goldfish.act(state)
        assert action in state.legal_actions()
        state.apply(action)
        assert not state.field[1] and len(state.hand[1]) == HAND_SIZE
        assert sum(state.zone_counts().values()) == 2 * DECK_SIZE
    assert own_turn(state) <= 7
