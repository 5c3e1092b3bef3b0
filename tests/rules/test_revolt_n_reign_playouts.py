"""Revolt N Reign played out: hidden information, cheap copies, replays, invariants, victories.

Random games with the legal sample decks (``fixtures/decks/revolt-n-reign/legal-*.txt``) check
what every position must satisfy; a larger run checks that all four victories happen.
"""

from __future__ import annotations

import collections
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.agents import GreedyAgent, MCTSAgent, PlanAgent, RandomAgent
from rules.agents.base import Agent
from rules.agents.plan import LATER
from rules.engines.core import TERMINAL, Action, Rng
from rules.engines.revolt_n_reign import RevoltNReignGame, RevoltState, deck_records, sample_decks
from rules.engines.revolt_n_reign.state import (
    ATTACK_VICTORY,
    DECK_OUT,
    END,
    LP_VICTORY,
    PETITION_VICTORY,
)
from tests.rules.differential import spies_on_methods

GAME = RevoltNReignGame()
SETUPS = GAME.example_setups()
DECKS = sample_decks()
VICTORIES = {LP_VICTORY, ATTACK_VICTORY, PETITION_VICTORY, DECK_OUT}
RARE_UAS = ("Intolerable Acts", "Writs of Assistance", "Proclamation Line")


def drain_deck() -> list:
    """Bison Pressure with the three rare UAs (7 LP drain a turn) instead of its 1-drain ones."""
    entries = [
        entry
        for entry in DECKS["legal-bison-pressure"]
        if entry[1] not in ("Boston Port Act", "Molasses Act", "Quartering Act")
    ]
    return deck_records([*entries, *((1, name) for name in RARE_UAS)], GAME.records)


def pairings() -> list[dict]:
    """Every ordered pair of sample decks, and the drain deck against each of them."""
    names = sorted(DECKS)
    setups = [{"decks": [GAME.sample_deck(a), GAME.sample_deck(b)]} for a in names for b in names]
    setups += [{"decks": [drain_deck(), GAME.sample_deck(name)]} for name in names]
    return setups


def random_game(seed: int, setup: dict, check: bool = False) -> RevoltState:
    state = GAME.new_initial_state(seed, setup)
    rng = Rng(seed + 1)
    while not state.is_terminal():
        actions = state.legal_actions()
        assert actions
        state.apply_unchecked(rng.choice(actions))
        if check:
            assert_invariants(state)
    return state


def assert_invariants(state: RevoltState) -> None:
    assert sum(state.zone_counts().values()) == 120
    assert all(Action.parse(str(a)) == a for a in state.legal_actions())
    for player in (0, 1):
        owned = [
            c
            for pile in (
                state.draw,
                state.hand,
                state.discard,
                state.exile,
                state.uas,
                state.pillars,
                state.board,
                state.resolving,
            )
            for c in pile[player]
        ]
        assert sorted(owned) == list(range(60 * player, 60 * player + 60))
    assert (state.current_player() == TERMINAL) == (state.legal_actions() == [])


# --- observation and determinise --------------------------------------------------------------
def test_observation_hides_the_rivals_hand_and_draw_piles() -> None:
    state = GAME.new_initial_state(4, SETUPS[0])
    view = state.observation(0)
    me, rival = view["players"]
    assert isinstance(me["hand"], list) and len(me["hand"]) == 7
    assert rival["hand"] == 7
    assert me["draw_pile"] == 50 and rival["draw_pile"] == 50
    assert view["first_player"] is None  # "Mulligans occur before turn order is decided"
    json.dumps(view)  # JSON-ready


def test_determinise_resamples_only_hidden_cards() -> None:
    state = GAME.new_initial_state(11, SETUPS[1])
    rng = Rng(3)
    for _ in range(40):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    player = state.current_player()
    rival = 1 - player
    other = state.determinise(player, Rng(99))
    assert other.observation(player) == state.observation(player)
    assert other.hand[player] == state.hand[player]
    assert sorted(other.hand[rival] + other.draw[rival]) == sorted(
        state.hand[rival] + state.draw[rival]
    )
    assert sorted(other.draw[player]) == sorted(state.draw[player])
    assert other.board == state.board and other.uas == state.uas


@settings(max_examples=25, deadline=None)
@given(
    seed=st.integers(min_value=0, max_value=2**32),
    steps=st.integers(min_value=0, max_value=150),
    viewer=st.sampled_from([0, 1]),
)
def test_determinise_is_consistent_with_the_observation(seed: int, steps: int, viewer: int) -> None:
    state = GAME.new_initial_state(seed, SETUPS[seed % 3])
    rng = Rng(seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(rng.choice(state.legal_actions()))
    before = state.key()
    other = state.determinise(viewer, Rng(seed + 1))
    assert other.observation(viewer) == state.observation(viewer)
    assert state.key() == before  # the real state is untouched
    if not other.is_terminal():
        other.apply(other.legal_actions()[-1])
    assert state.key() == before


# --- clone, replay, seeded randomness ---------------------------------------------------------
def test_clone_is_independent() -> None:
    state = GAME.new_initial_state(5, SETUPS[2])
    copy = state.clone()
    copy.apply(copy.legal_actions()[0])
    copy.hand[0].clear()
    assert len(state.hand[0]) == 7 and state.history == []


def test_same_seed_and_actions_replay_the_same_game_whatever_global_random_does() -> None:
    first = random_game(21, SETUPS[0])
    random.seed(12345)
    random.random()
    again = GAME.replay(21, SETUPS[0], [action for _, action in first.history])
    assert again.key() == first.key()
    assert [e.as_dict() for e in again.event_log()] == [e.as_dict() for e in first.event_log()]


# --- invariants over random games -------------------------------------------------------------
@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(min_value=0, max_value=2**32), setup=st.sampled_from(range(len(SETUPS))))
def test_random_playouts_keep_every_invariant(seed: int, setup: int) -> None:
    state = random_game(seed, SETUPS[setup], check=True)
    assert state.end_reason() in VICTORIES | {"turn-limit"}
    results = state.returns()
    assert sorted(results) in ([-1.0, 1.0], [0.0, 0.0])


def test_every_victory_type_occurs_in_random_games() -> None:
    setups = pairings()
    reasons = collections.Counter(
        random_game(seed, setups[seed % len(setups)]).end_reason() for seed in range(120)
    )
    assert set(reasons) >= VICTORIES, reasons


@pytest.mark.slow
def test_every_victory_type_occurs_in_1000_random_games() -> None:
    # With the three sample decks alone LP Victory does not happen in random play (their UAs
    # drain 3 LP a turn, decks run out first: see the Rulings); the drain deck provides it.
    setups = pairings()
    reasons = collections.Counter(
        random_game(seed, setups[seed % len(setups)]).end_reason() for seed in range(1000)
    )
    assert set(reasons) >= VICTORIES, reasons
    samples_only = collections.Counter(
        random_game(seed, SETUPS[seed % 3]).end_reason() for seed in range(300)
    )
    assert set(samples_only) >= {ATTACK_VICTORY, PETITION_VICTORY, DECK_OUT}


# --- agents -----------------------------------------------------------------------------------
def test_agents_play_a_game_through_the_observation_api() -> None:
    state = GAME.new_initial_state(8, {**SETUPS[0], "turn_limit": 6})
    agents: list[Agent] = [
        MCTSAgent(seed=1, iterations=8, rollout_limit=30),
        GreedyAgent(seed=2, max_nodes=40),
    ]
    while not state.is_terminal():
        player = state.current_player()
        action = agents[player].act(state)
        assert action in state.legal_actions()
        state.apply(action)
    assert state.end_reason()


def test_evaluate_prefers_the_healthier_side() -> None:
    state = GAME.new_initial_state(9, SETUPS[0])
    assert state.evaluate(0) == pytest.approx(-state.evaluate(1))
    state.lp[1] = 40
    assert state.evaluate(0) > 0.1
    state.exile[1].append(state.uas[1].pop())
    better = state.evaluate(0)
    assert better > 0.2 and -1 <= better <= 1
    agent = RandomAgent(seed=1)
    assert agent.act(state) in state.legal_actions()


# --- test hands -------------------------------------------------------------------------------
def test_test_hands_sample_reports_openings_ip_and_wins() -> None:
    from rules.engines.revolt_n_reign.hands import HandReport
    from rules.test_hands import sample

    deck = GAME.sample_deck("legal-scroll-petitions")
    report = sample(deck, n=12, seed=3, mulligan_policy="no-pillar", game=GAME.slug)
    assert isinstance(report, HandReport)  # Revolt N Reign's figures
    again = sample(deck, n=12, seed=3, mulligan_policy="no-pillar", game=GAME.slug)
    assert report == again  # seeded
    assert report.games == 12 and len(report.opening_hands) == 5
    assert all(len(hand) == 7 for hand in report.opening_hands)
    assert 0.0 <= report.pillar_on_turn_1 <= 1.0
    # a Pillar a turn: 0 + 1 + 2 IP by the 3rd turn at most, 10 by the 5th
    assert 0 < report.ip_by_turn[3] <= 3 and report.ip_by_turn[3] < report.ip_by_turn[5] <= 10
    assert sum(report.wins.values()) == 12
    # the deck's plan works against an idle rival (counted in the plugin's words)
    assert "won: Petition Victory (the Petitions needed in play)" in report.wins
    json.dumps(report.as_dict())


def test_test_hands_mulligan_policy_is_applied() -> None:
    from rules.engines.revolt_n_reign.hands import HandReport
    from rules.test_hands import sample

    deck = GAME.sample_deck("legal-bison-pressure")
    always = sample(deck, n=4, seed=1, mulligan_policy=lambda hand, taken: True, game=GAME.slug)
    never = sample(deck, n=4, seed=1, mulligan_policy="never", game=GAME.slug)
    assert isinstance(always, HandReport) and isinstance(never, HandReport)
    assert always.mulligan_rate == 2.0 and never.mulligan_rate == 0.0


# --- search strength (issue 6) ----------------------------------------------------------------
def lethal_position() -> RevoltState:
    """Seat 0's first Play Phase; seat 1 is down to one UA with 10 DP and has no Defense."""
    setup = {**SETUPS[0], "first_player": 0, "mulligans": False}
    state = GAME.new_initial_state(12, setup)
    if state.phase == "equalize":
        state.apply(Action("pass"))
    for cid in state.uas[1][:2]:
        state.exile[1].append(cid)
        state.uas[1].remove(cid)
        del state.dp[cid]
    state.dp[state.uas[1][0]] = 10
    state.place(0, "minuteman-volley", "hand")
    state.ip[0] = 2
    return state


def test_mcts_takes_the_attack_victory_on_offer() -> None:
    state = lethal_position()
    assert state.phase == "play" and state.active == 0 and not state.board[1]
    assert any(a.args[:1] == ("minuteman-volley",) for a in state.legal_actions())
    agent = MCTSAgent(seed=4, iterations=60)
    for _ in range(10):
        if state.is_terminal() or state.active != 0:
            break
        state.apply(agent.act(state))
    assert state.winner() == 0 and state.end_reason() == ATTACK_VICTORY


def test_search_actions_keep_the_turn_open_while_a_pillar_may_be_laid() -> None:
    """One free Pillar a turn ("Phase 3: Play Phase"): ending without it is dominated, so search
    never branches on ``end`` until the Pillar is down (``legal_actions`` still offers it)."""
    state = lethal_position()
    state.place(0, "village-green", "hand")
    assert END in state.legal_actions() and END not in state.search_actions()
    assert state.search_actions() == state.legal_actions()[:-1]
    state.apply(Action("pillar", ("village-green",)))
    assert state.search_actions() == state.legal_actions() and END in state.search_actions()


def test_mcts_lays_its_pillar_before_it_ends_the_turn() -> None:
    """Seat 0 holds a Pillar and nothing it can afford; MCTS lays the Pillar before passing."""
    state = lethal_position()
    state.hand[0] = [cid for cid in state.hand[0] if state.table[cid].type != "pillar"]
    state.place(0, "village-green", "hand")
    state.ip[0] = 0
    before = len(state.pillars[0])
    agent = MCTSAgent(seed=2, iterations=40)
    while not state.is_terminal() and state.active == 0 and state.phase == "play":
        state.apply(agent.act(state))
    assert len(state.pillars[0]) == before + 1


@spies_on_methods
@pytest.mark.parametrize(
    "agent", [MCTSAgent(seed=1, iterations=30), PlanAgent(seed=1, samples=20)], ids=["mcts", "plan"]
)
def test_search_agents_choose_only_among_the_search_actions(
    agent: MCTSAgent | PlanAgent, monkeypatch: pytest.MonkeyPatch
) -> None:
    state = lethal_position()
    state.place(0, "village-green", "hand")
    legal = state.legal_actions()
    only = next(a for a in legal if a.kind == "play")
    monkeypatch.setattr(RevoltState, "search_actions", lambda self: [only])
    assert len(legal) > 2 and agent.act(state) == only


def test_plan_agent_lays_a_pillar_and_takes_the_attack_victory_in_one_turn() -> None:
    """The whole turn is planned: the free Pillar, a lethal Attack, then ``end`` to reach the
    Resolve Phase where the last UA falls ("Attack Victory")."""
    state = lethal_position()
    state.place(0, "village-green", "hand")
    agent = PlanAgent(seed=4, samples=40, plan_nodes=120)
    played = []
    while not state.is_terminal() and state.active == 0:
        action = agent.act(state)
        assert action in state.legal_actions()
        played.append(action.kind)
        state.apply(action)
    assert state.winner() == 0 and state.end_reason() == ATTACK_VICTORY
    assert "pillar" in played and played[-1] == "end"


def test_plan_agent_scores_a_turn_against_the_rivals_best_reply() -> None:
    """Seat 0 is down to one UA with 10 DP and no Defense; seat 1 holds a Night Ride Dispatch
    (10 AD) and the IP to play it. Whatever the rollout seed, ending the turn scores a loss: the
    rival's reply is its own best turn (the Attack, then the Resolve Phase's Attack Victory). A
    loss met after the mover's turn weighs ``LATER``, less than one the turn itself brings."""
    state = lethal_position()
    for cid in state.uas[0][:2]:
        state.exile[0].append(cid)
        state.uas[0].remove(cid)
        del state.dp[cid]
    state.dp[state.uas[0][0]] = 10
    while len(state.hand[0]) > 7:  # no End Phase discard: ``end`` hands the turn over
        state.discard[0].append(state.hand[0].pop())
    state.place(1, "night-ride-dispatch", "hand")
    state.ip[1] = 2
    agent = PlanAgent(seed=1, reply_nodes=40)
    assert [agent._score(state.clone(), END, [], seed) for seed in range(8)] == [-LATER] * 8


@spies_on_methods
def test_plan_agent_searches_determinisations_from_its_own_seat(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    state = lethal_position()
    calls = []
    original = RevoltState.determinise

    def spy(self: RevoltState, player: int, rng: Rng) -> RevoltState:
        calls.append(player)
        return original(self, player, rng)

    monkeypatch.setattr(RevoltState, "determinise", spy)
    action = PlanAgent(seed=3, samples=24, plan_nodes=60).act(state)
    assert action in state.legal_actions()
    assert len(calls) > 2 and set(calls) == {0}


def test_plan_agent_replays_by_seed_and_passes_only_in_the_play_phase() -> None:
    """Same seed, same game. ``pass_action`` (how a plan whose search budget runs out ends the
    turn) is ``end`` in the Play Phase and nothing while mulligans are decided."""

    def game(seed: int) -> list:
        state = GAME.new_initial_state(5, {**SETUPS[1], "turn_limit": 8})
        agents: list[Agent] = [PlanAgent(seed=seed, samples=10, plan_nodes=8), RandomAgent(seed=2)]
        while not state.is_terminal():
            state.apply(agents[state.current_player()].act(state))
        return list(state.history)

    first = game(7)
    assert len(first) > 20 and first == game(7)
    assert lethal_position().pass_action() == END
    opening = GAME.new_initial_state(3, SETUPS[0])
    assert opening.phase == "mulligan" and opening.pass_action() is None


def test_rollout_value_is_antisymmetric_and_counts_a_lost_ua() -> None:
    state = lethal_position()
    assert state.rollout_value(0) == pytest.approx(-state.rollout_value(1))
    before = state.rollout_value(0)
    state.exile[0].append(state.uas[0].pop())
    assert state.rollout_value(0) < before - 0.1


def _opening_with_pillars(pillars: int, seed: int = 0) -> RevoltState:
    """A fresh game at Step 3 (seat 0 deciding) whose opening hand holds ``pillars`` Pillars."""
    for attempt in range(2000):
        state = GAME.new_initial_state(seed + attempt, SETUPS[0])
        held = sum(1 for cid in state.hand[0] if state.table[cid].type == "pillar")
        if state.phase == "mulligan" and state.seat == 0 and held == pillars:
            return state
    raise AssertionError(f"no opening hand with {pillars} Pillars in 2000 seeds")


@pytest.mark.parametrize(("pillars", "expected"), [(0, "mulligan"), (3, "keep"), (7, "mulligan")])
def test_mcts_mulligans_by_the_engines_advice(pillars: int, expected: str) -> None:
    """Setup, Step 3: search cannot see a hand's worth (rollouts stop after two turns), so MCTS
    takes the engine's advice: keep within one Pillar of a fresh seven's 24/57 share (about 3)."""
    state = _opening_with_pillars(pillars)
    assert state.advice() == Action(expected)
    agent = MCTSAgent(seed=3, iterations=20)
    assert agent.act(state) == Action(expected)


def test_mulligan_advice_keeps_the_last_hand_and_reads_only_own_cards() -> None:
    state = _opening_with_pillars(0)
    rival_hand = list(state.hand[1])
    state.hand[1][:] = state.draw[1][:7]
    state.draw[1][:7] = rival_hand
    assert state.advice() == Action("mulligan")  # the rival's cards do not change seat 0's advice
    state.mulligans[0] = 2
    assert state.advice() == Action("keep")  # "up to two" mulligans: the third hand is kept
    state.phase = "play"
    assert state.advice() is None  # only Step 3 has advice; every other decision is searched
