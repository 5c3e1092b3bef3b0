"""Reign Absolute test hands: the deal (placement order), reinforcements and goldfish games."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engines.core import SetupError, plugin_for
from rules.engines.reign_absolute.hands import (
    EARLY_PLACEMENTS,
    Goldfish,
    IdleRival,
    ReignAbsoluteHands,
    ReignHandReport,
    _new_game,
    game_for,
    rival_faction,
    sample_deck,
    sample_decks,
)
from rules.simulation import wilson_interval
from tests.rules.hands_helpers import plugin_model, sampled

HANDS = plugin_model("reign-absolute", ReignAbsoluteHands)
walk = HANDS.walk


def sample(
    deck: list[dict[str, Any]], *, model: ReignAbsoluteHands | None = None, **options: Any
) -> ReignHandReport:
    """``model.sample`` (the plugin's model by default), whose report is this game's own."""
    return sampled(model or HANDS, ReignHandReport, deck, **options)


def short_games(turns: int) -> ReignAbsoluteHands:
    """The model with sampled games cut off after ``turns`` of the player's own turns."""
    return ReignAbsoluteHands(plugin_for("reign-absolute"), sample_turns=turns)


EMPIRE = sample_deck("legal-empire-legion")
UMBROUS = sample_deck("legal-umbrous-shadows")
ELVES = sample_deck("legal-elves-grove")
GAME = game_for(EMPIRE)


def test_there_is_no_hand_so_never_is_the_only_policy() -> None:
    assert HANDS.policies() == ["never"]
    with pytest.raises(ValueError, match=r"unknown mulligan policy 'no-liege' \(known: never\)"):
        sample(EMPIRE, n=1, mulligan_policy="no-liege")


@pytest.mark.parametrize("stem", sample_decks())
def test_every_sample_faction_eradicates_the_idle_rival(stem: str) -> None:
    report = sample(sample_deck(stem), n=6, seed=2)
    assert report == sample(sample_deck(stem), n=6, seed=2)  # seeded
    assert report.games == 6 and sum(report.wins.values()) == 6
    assert report.wins.get("won: the last Liege Unit in play", 0) >= 5
    assert 1 <= report.win_turn["won: the last Liege Unit in play"] <= 40
    assert report.under_units[3] >= 0 and report.units_defeated >= report.units_lost
    assert all(len(opening) == EARLY_PLACEMENTS for opening in report.opening_hands)
    assert "Liege among your first 3 units placed" in dict(report.figures)
    json.dumps(report.as_dict())


def test_liege_placement_and_first_draw_agree_with_the_exact_odds() -> None:
    # given: 12 Empire units with one Liege; 41 Reinforcements of which 31 are Combat ones
    units = len(EMPIRE)
    combat = sum(1 for spec in GAME.table if spec.is_combat)
    reinforcements = len(GAME.reinforcement_ids())
    n = 300
    report = sample(EMPIRE, model=short_games(1), n=n, seed=500)
    # then: P(Liege among the first 3 placed) = 3/12 (one success, hypergeometric) ...
    low, high = wilson_interval(round(report.liege_early * n), n)
    assert low <= EARLY_PLACEMENTS / units <= high
    # ... and the Liege's placement round is uniform on 1..12: mean 6.5, variance (12² - 1) / 12
    error = math.sqrt((units**2 - 1) / 12 / n)
    assert abs(report.liege_round - (units + 1) / 2) <= 1.96 * error
    # ... and the first Reinforcement drawn is a uniform card of the shuffled deck, whatever
    # combats drew before it. Umbrous (10 units) never calls Doom on turn 1 against a larger
    # faction, so it draws on turn 1 unless its first attack already took the rival's Liege.
    umbrous = sample(UMBROUS, model=short_games(1), n=n, seed=500)
    drew = umbrous.games_with_draw
    assert n - 5 <= drew <= n
    low, high = wilson_interval(round(umbrous.first_draw_combat * drew), drew)
    assert low <= combat / reinforcements <= high


def test_a_deck_that_is_not_a_whole_faction_deck_is_refused() -> None:
    missing = [r for r in EMPIRE if r["name"] != "Empire Ballista"]
    with pytest.raises(
        SetupError, match=r"not the whole empire faction deck.*Empire Ballista 0 of 1"
    ):
        sample(missing, n=1)
    mixed = [*missing, ELVES[-1]]
    view = walk(mixed, seed=3)
    assert view.finished and "faction deck" in view.error


def test_the_rival_is_each_other_faction_in_turn() -> None:
    rivals = {rival_faction(GAME, "empire", seed) for seed in range(3)}
    assert rivals == {"azuma", "elves", "umbrous"}


def test_walk_shows_the_deal_then_the_battlefield_and_replays_by_seed() -> None:
    deal = walk(EMPIRE, seed=8)
    (label, order), *_ = deal.zones
    assert label == "Placement order" and len(order) == len(EMPIRE)
    assert not deal.hand and not deal.can_mulligan
    first = sorted(name.split(". ", 1)[1] for name in order[:EARLY_PLACEMENTS])
    assert first == sample(EMPIRE, model=short_games(1), n=1, seed=8).opening_hands[0]
    placed = walk(EMPIRE, seed=8, kept=True)
    assert len(dict(placed.zones)["Your units"]) == len(EMPIRE)
    assert sum("(Liege)" in line for line in dict(placed.zones)["Your units"]) == 1
    step = walk(EMPIRE, seed=8, kept=True, turns=1)
    assert step.turns == 1 and step.log
    assert step == walk(EMPIRE, seed=8, kept=True, turns=1)


def test_an_idle_rival_left_with_one_unit_falls_to_doom() -> None:
    # given: a game in which the rival has only its Liege left, on the player's turn
    state, _ = _new_game(EMPIRE, 4, 30)
    goldfish, rival = Goldfish(state), IdleRival(4)
    while state.tasks[0][0] != "action":
        state.apply(goldfish.act(state) if state.current_player() == 0 else rival.act(state))
    for square in state.units_of(1):
        if not state.spec_at(square).is_liege:
            state.unit_discards[1].append(state.board.pop(square))
    # when: the goldfish acts
    action = goldfish.act(state)
    state.apply(action)
    while not state.is_terminal() and state.tasks[0][0] != "action":
        state.apply(goldfish.act(state) if state.current_player() == 0 else rival.act(state))
    # then: it called Doom and the rival's Liege was discarded: the rival is eradicated
    assert action.kind == "doom"
    assert state.is_terminal() and state.winner_seat() == 0


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**31 - 1), stem=st.sampled_from(sample_decks()))
def test_goldfish_plays_legally_and_the_idle_rival_never_moves(seed: int, stem: str) -> None:
    state, _ = _new_game(sample_deck(stem), seed, 8)
    goldfish, rival = Goldfish(state), IdleRival(seed)
    placed: dict[int, tuple[int, int]] = {}
    while not state.is_terminal():
        task = state.tasks[0]
        actor = goldfish if state.current_player() == 0 else rival
        action = actor.act(state)
        assert action in state.legal_actions()
        mine = task[0] == "action" and task[1] == 0 and action.kind == "attack"
        if mine and state.spec_at(_square(action.args[:2])).is_liege:
            assert len(state.units_of(0)) == 1  # the Liege attacks only as the last unit
        if task[0] == "action" and task[1] == 1:
            assert action.kind == "pass"
        state.apply(action)
        for square, unit in state.board.items():
            if state.owner[unit] == 1 and state.tasks and state.tasks[0][0] != "place":
                assert placed.setdefault(unit, square) == square  # rival units never move


def _square(args: tuple[str | int, ...]) -> tuple[int, int]:
    """An action's (row, column) arguments as the square they name."""
    row, column = args
    assert isinstance(row, int) and isinstance(column, int), args
    return row, column
