"""The greedy agent: looks one turn ahead and keeps the best result by the engine's evaluation."""

from __future__ import annotations

from rules.agents.base import searchable_view
from rules.engines.core import Action, Rng, State

#: the most decisions of one turn the search looks down a single line
MAX_DEPTH = 200


class GreedyAgent:
    """Plays the action whose turn ends best for it by ``State.evaluate``.

    Engines where one turn takes several decisions (place a tile, then choose a target) are
    expanded until the turn passes to someone else, up to ``max_nodes`` states per move and
    ``MAX_DEPTH`` decisions deep (a turn may go on as long as its player likes, e.g. a Rival
    Realms draw ability fed by supply cards; the depth bound keeps the search off Python's
    recursion limit).

    In a game with hidden information each action is scored on ``samples`` determinisations
    (``State.determinise``), each searched with its own ``max_nodes``, and the scores averaged:
    one sampled deal shows a single guess at the hidden cards and at the coming draws, and an
    action that only pays off in that guess (attacking a face-down unit that may be far
    stronger) looks as good as a sure one. The default, 1, scores on one deal.
    """

    name = "greedy"

    def __init__(self, seed: int = 0, max_nodes: int = 5000, samples: int = 1) -> None:
        self.rng = Rng(seed)
        self.max_nodes = max_nodes
        self.samples = max(1, samples)

    def act(self, state: State) -> Action:
        """Return the legal action with the best one-turn evaluation (ties broken at random)."""
        player = state.current_player()
        deals = 1 if state.is_perfect_information() else self.samples
        views = [searchable_view(state, player, self.rng) for _ in range(deals)]
        actions = views[0].legal_actions()
        budgets = [[self.max_nodes] for _ in views]
        best_value = float("-inf")
        best: list[Action] = []
        for action in actions:
            value = 0.0
            for view, budget in zip(views, budgets, strict=True):
                child = view.clone()
                child.apply_unchecked(action)
                value += self._turn_value(child, player, budget, 1)
            value /= deals
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return self.rng.choice(best)

    def _turn_value(self, state: State, player: int, budget: list[int], depth: int) -> float:
        budget[0] -= 1
        if (
            state.is_terminal()
            or state.current_player() != player
            or budget[0] <= 0
            or depth >= MAX_DEPTH
        ):
            return state.evaluate(player)
        best = float("-inf")
        for action in state.legal_actions():
            child = state.clone()
            child.apply_unchecked(action)
            best = max(best, self._turn_value(child, player, budget, depth + 1))
        return best
