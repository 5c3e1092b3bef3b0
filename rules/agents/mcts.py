"""Information-set Monte Carlo tree search for games with hidden information.

Each iteration asks the state for a determinisation from the searching player's point of view
(``State.determinise``: hidden parts resampled from what that player cannot see) and walks one
shared tree with UCT, counting how often each action was available (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012). The agent never reads hidden state itself.

Rollouts play random moves to the end by default. An engine can make them cheaper and better
with the search hooks every ``State`` declares (rules/engines/core/api.py; the defaults change
nothing): ``rollout_action(rng)`` (a quick playout policy, used when the state sets
``has_rollout_policy``) and ``rollout_turns()`` (how many turn changes a rollout plays before it
stops and scores the position with ``evaluate``, or with ``rollout_value(player)`` when the engine
has a policy). ``action_priors(player)`` (one value per search action, or None) seeds the root's
actions with ``prior_visits`` virtual visits each (progressive bias). ``advice()`` (an action or
``None``) decides, without search, the decisions whose effect lies beyond any rollout, such as
a mulligan; ``MCTSAgent(advice=False)`` searches them too. ``search_actions()`` (the legal
actions less those the engine knows to be dominated) is what the tree branches on, root included.
``MCTSAgent(rollout_turns=...)`` overrides the engine's cut-off (``None`` plays to the end);
``rollout_policy=False`` ignores the engine's policy.
"""

from __future__ import annotations

import math
from typing import Literal

from rules.agents.base import searchable_view
from rules.engines.core import CHANCE, Action, Rng, State

AUTO: Literal["auto"] = "auto"


def search_candidates(state: State) -> list[Action]:
    """The actions worth searching: the engine's ``search_actions()`` (default: all legal)."""
    return state.search_actions()


def unsearched_choice(state: State, legal: list[Action], use_advice: bool) -> Action | None:
    """The decision a search agent takes without searching: the only candidate, or the engine's
    ``advice()`` when ``use_advice`` and it names a candidate; ``None`` means search."""
    if len(legal) == 1:
        return legal[0]
    if use_advice:
        advised = state.advice()
        if advised is not None and advised in legal:
            return advised
    return None


def play_out(
    state: State, rng: Rng, turns: int | None, limit: int, policy: bool, last: int | None = None
) -> None:
    """Advance ``state`` in place until it ends, ``limit`` actions pass, or the turn has changed
    hands more than ``turns`` times (``None``: no cut-off) counting from ``last`` (default the
    player to act). Moves come from the engine's ``rollout_action`` when ``policy``, else uniform."""
    changes = 0
    last = state.current_player() if last is None else last
    for _ in range(limit):
        if state.is_terminal():
            return
        mover = state.current_player()
        if mover == CHANCE:
            state.apply_unchecked(state.sample_chance())
            continue
        if mover != last:
            changes += 1
            last = mover
            if turns is not None and changes > turns:
                return
        if policy:
            state.apply_unchecked(state.rollout_action(rng))
        else:
            state.apply_unchecked(rng.choice(state.legal_actions()))


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who chose the action leading here
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class MCTSAgent:
    """UCT over determinisations; ``iterations`` playouts per move.

    Rollouts use the engine's ``rollout_action`` policy when it has one (else random moves) and
    stop after ``rollout_turns`` turn changes (``"auto"``: the engine's ``rollout_turns()`` hook,
    or play to the end), scoring the position with ``evaluate``.
    """

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout_limit: int = 400,
        rollout_turns: int | Literal["auto"] | None = AUTO,
        rollout_policy: bool = True,
        prior_visits: int = 10,
        advice: bool = True,
    ) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit
        self.rollout_turns = rollout_turns
        self.rollout_policy = rollout_policy
        self.prior_visits = prior_visits
        self.advice = advice
        self._turns: int | None = None
        self._policy = False

    def act(self, state: State) -> Action:
        """Return the most visited root action after the search."""
        player = state.current_player()
        legal = search_candidates(state)
        settled = unsearched_choice(state, legal, self.advice)
        if settled is not None:
            return settled
        turns = self.rollout_turns
        if turns == AUTO:
            turns = state.rollout_turns()
        self._turns = turns
        self._policy = self.rollout_policy and state.has_rollout_policy
        # search from a copy that keeps no history or event log (cheaper determinisations)
        base = state.clone().quiet()
        root = _Node(mover=-1)
        if self._policy and self.prior_visits > 0:
            self._seed_root(root, searchable_view(base, player, self.rng), player, legal)
        for _ in range(self.iterations):
            self._iterate(root, searchable_view(base, player, self.rng))
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

    def _seed_root(self, root: _Node, view: State, player: int, legal: list[Action]) -> None:
        """Progressive bias: start each root action with ``prior_visits`` visits at its prior."""
        priors = view.action_priors(player)
        if priors is None or len(priors) != len(legal):
            return
        weight = self.prior_visits
        for action, prior in zip(legal, priors, strict=True):
            child = root.children[action] = _Node(player)
            child.visits = child.available = weight
            child.total = prior * weight

    def _iterate(self, root: _Node, state: State) -> None:
        path = [root]
        node = root
        while not state.is_terminal():
            mover = state.current_player()
            if mover == CHANCE:
                action = state.sample_chance()
                child = node.children.get(action)
                if child is None:
                    child = node.children[action] = _Node(CHANCE)
                state.apply_unchecked(action)
                node = child
                path.append(node)
                continue
            actions = search_candidates(state)
            for action in actions:
                child = node.children.get(action)
                if child is not None:
                    child.available += 1
            untried = [a for a in actions if a not in node.children]
            if untried:
                action = self.rng.choice(untried)
                child = node.children[action] = _Node(mover)
                child.available = 1
                state.apply_unchecked(action)
                path.append(child)
                break
            action = max(actions, key=lambda a: self._ucb(node.children[a]))
            state.apply_unchecked(action)
            node = node.children[action]
            path.append(node)
        returns = self._rollout(state)
        for visited in path:
            visited.visits += 1
            if visited.mover >= 0:
                visited.total += returns[visited.mover]

    def _ucb(self, node: _Node) -> float:
        mean = node.total / node.visits
        return mean + self.exploration * math.sqrt(math.log(max(node.available, 1)) / node.visits)

    def _rollout(self, state: State) -> list[float]:
        play_out(state, self.rng, self._turns, self.rollout_limit, self._policy)
        if state.is_terminal():
            return state.returns()
        players = len(state.returns())
        if self._policy:
            return [state.rollout_value(p) for p in range(players)]
        return [state.evaluate(p) for p in range(players)]
