"""Revolt N Reign blunder positions: one decision wins or saves the game, every web agent finds it.

Each position is hand-built on a real table (``table()`` of ``test_revolt_n_reign``) and named
after the situation; the agents play it at the budget the web gives them
(``rules.services.agent_spec``), with fixed seeds, so a test fails only when an agent's choice
changes, never by the luck of a random stream. Win rates over many games are measured in
``bench/`` instead (``bench/revolt_n_reign.py --strength``, ``docs/performance.md``).
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules.engines.core import Action
from rules.engines.revolt_n_reign import RevoltState
from rules.engines.revolt_n_reign.state import ATTACK_VICTORY, LP_VICTORY, PETITION_VICTORY
from rules.services import agent_spec
from tests.rules.test_revolt_n_reign import END, FILLER, hand, play, table

SLUG = "revolt-n-reign"
#: every agent the web offers for this game but random (its default, ``plan``, first)
AGENTS = ("plan", "mcts", "greedy")


def decide_for(state: RevoltState, seat: int, agent_name: str, seed: int = 3) -> list[Action]:
    """Let ``agent_name`` make every decision of ``seat`` until that seat's turn has resolved or
    the game is over; return the actions it took. Decisions of the other seat take the first
    legal option (pass, end, the first choice)."""
    agent = agent_spec(agent_name, SLUG)(seed)
    taken: list[Action] = []
    start = state.turn
    while not state.is_terminal() and state.turn == start:
        if state.current_player() == seat:
            action = agent.act(state)
            assert action in state.legal_actions()
            taken.append(action)
        else:
            action = END if state.phase in ("play", "respond") else state.legal_actions()[0]
        state.apply(action)
    return taken


def last_ua(state: RevoltState, player: int, dp: int) -> int:
    """Leave ``player`` one UA, at ``dp`` Defense points (the others exiled); return it."""
    for cid in state.uas[player][1:]:
        state.uas[player].remove(cid)
        state.exile[player].append(cid)
        del state.dp[cid]
    state.dp[state.uas[player][0]] = dp
    return state.uas[player][0]


def attack_victory_on_offer() -> RevoltState:
    state = table(p0=("Minuteman Volley",))
    last_ua(state, 1, 10)
    hand(state, 0, "Minuteman Volley")
    state.ip[0] = 2
    return state


def petition_victory_on_offer() -> RevoltState:
    petitions = ("Petition for Redress", "Petition of the Townships", "Grievance Roll")
    state = table(p0=(*petitions, "Sailors' Petition"))
    for name in petitions:
        play(state, 0, name)
    for _ in range(3):
        play(state, 0, FILLER)  # a Scroll Pillar
    hand(state, 0, "Sailors' Petition")
    state.ip[0] = 2
    return state


def lp_victory_on_offer() -> RevoltState:
    # the drain takes 3; Freedom of the Frontier's "Pay X IP: 2X LP" with X = 1 takes the rest
    state = table(p0=("Freedom of the Frontier",))
    play(state, 0, "Freedom of the Frontier")
    state.lp[1] = 5
    state.ip[0] = 1
    return state


def free_pillar_on_offer() -> RevoltState:
    state = table(p0=("Village Green",))
    hand(state, 0, "Village Green")
    return state


def prevent_a_lethal_drain() -> RevoltState:
    # Seat 1 is at 3 LP and seat 0's three UAs drain 3 on seat 0's turn; Frontier Stockade's
    # "Pay 2 IP: prevent up to 2 LP loss" is a response ("2. WHO MAY INTERACT"). Not using it
    # loses the game by LP Victory at seat 0's End Phase.
    state = table(p1=("Frontier Stockade",))
    play(state, 1, "Frontier Stockade")
    state.ip[1] = 2
    state.lp[1] = 3
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def lock_the_attack_on_the_last_ua() -> RevoltState:
    # Seat 0 declares Liberty Tree Rally (10) at seat 1's last UA, at 10 DP; Lighthouse Keep's
    # "Pay 3 IP: lock an opponent's Attack card" stops it ("Lock — Effect Scope").
    state = table(p0=("Liberty Tree Rally",), p1=("Lighthouse Keep",))
    play(state, 1, "Lighthouse Keep")
    state.ip[1] = 3
    target = last_ua(state, 1, 10)
    hand(state, 0, "Liberty Tree Rally")
    state.ip[0] = 1
    state.apply(Action("play", ("liberty-tree-rally", target)))
    state.apply(END)
    assert state.phase == "respond" and state.current_player() == 1
    return state


def won(reason: str) -> Callable[[RevoltState], bool]:
    return lambda state: state.winner() == 0 and state.end_reason() == reason


def survived(state: RevoltState) -> bool:
    return not state.is_terminal() and state.active == 1 and bool(state.uas[1])


def laid_the_pillar(state: RevoltState) -> bool:
    return [state.spec(c).name for c in state.pillars[0]] == ["Village Green"]


#: situation -> (the position, the seat to decide, what choosing right leads to)
POSITIONS: dict[str, tuple[Callable[[], RevoltState], int, Callable[[RevoltState], bool]]] = {
    "take_the_attack_victory_on_offer": (attack_victory_on_offer, 0, won(ATTACK_VICTORY)),
    "take_the_petition_victory_on_offer": (petition_victory_on_offer, 0, won(PETITION_VICTORY)),
    "take_the_lp_victory_on_offer": (lp_victory_on_offer, 0, won(LP_VICTORY)),
    "never_pass_with_a_free_pillar_in_hand": (free_pillar_on_offer, 0, laid_the_pillar),
    "respond_by_preventing_a_lethal_drain": (prevent_a_lethal_drain, 1, survived),
    "respond_by_locking_the_attack_on_the_last_ua": (lock_the_attack_on_the_last_ua, 1, survived),
}


def solved(situation: str, agent: str, seed: int) -> bool:
    build, seat, right = POSITIONS[situation]
    state = build()
    decide_for(state, seat, agent, seed)
    return right(state)


@pytest.mark.parametrize("agent", AGENTS)
@pytest.mark.parametrize("situation", sorted(POSITIONS))
def test_blunder_suite_the_web_agents_choose_right(situation: str, agent: str) -> None:
    assert solved(situation, agent, seed=3)


@pytest.mark.parametrize("situation", sorted(POSITIONS))
def test_blunder_suite_each_position_is_a_real_test(situation: str) -> None:
    # A position that even random play always gets right tests nothing: random blunders in
    # at least one of 20 seeds (the choice is real), and right play is possible.
    outcomes = {solved(situation, "random", seed) for seed in range(20)}
    assert outcomes == {True, False}
