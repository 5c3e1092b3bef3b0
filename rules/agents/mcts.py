"""Information-set Monte Carlo tree search for games with hidden information.

Each iteration asks the state for a determinisation from the searching player's point of view
(``State.determinise``: hidden parts resampled from what that player cannot see) and walks one
shared tree with UCT, counting how often each action was available (single-observer ISMCTS,
Cowling, Powley and Whitehouse 2012). The agent never reads hidden state itself.
"""

from __future__ import annotations

import math

from rules.agents.base import searchable_view
from rules.engines.core import CHANCE, Action, Rng, State


class _Node:
    __slots__ = ("available", "children", "mover", "total", "visits")

    def __init__(self, mover: int) -> None:
        self.mover = mover  # the player who chose the action leading here
        self.children: dict[Action, _Node] = {}
        self.visits = 0
        self.available = 0
        self.total = 0.0


class MCTSAgent:
    """UCT over determinisations; ``iterations`` playouts per move, rollouts by random play."""

    name = "mcts"

    def __init__(
        self,
        seed: int = 0,
        iterations: int = 200,
        exploration: float = 0.7,
        rollout_limit: int = 400,
    ) -> None:
        self.rng = Rng(seed)
        self.iterations = iterations
        self.exploration = exploration
        self.rollout_limit = rollout_limit

    def act(self, state: State) -> Action:
        """Return the most visited root action after the search."""
        player = state.current_player()
        legal = state.legal_actions()
        if len(legal) == 1:
            return legal[0]
        root = _Node(mover=-1)
        for _ in range(self.iterations):
            self._iterate(root, searchable_view(state, player, self.rng))
        return max(legal, key=lambda a: root.children[a].visits if a in root.children else -1)

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
            actions = state.legal_actions()
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
        for _ in range(self.rollout_limit):
            if state.is_terminal():
                return state.returns()
            if state.current_player() == CHANCE:
                state.apply_unchecked(state.sample_chance())
            else:
                state.apply_unchecked(self.rng.choice(state.legal_actions()))
        if state.is_terminal():
            return state.returns()
        players = len(state.returns())
        return [state.evaluate(p) for p in range(players)]
