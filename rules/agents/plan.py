"""Turn-plan search: flat Monte Carlo over whole-turn plans, with determinisation.

For card games where one turn is many decisions (lay a Pillar, play three cards, end), UCT spends
most of a small budget on random follow-ups inside the turn, so an action's value is the average
of mostly poor turns. This agent scores each candidate action by the best turn that starts with
it instead, then tests those turns against the hidden cards and the rival's reply:

1. **Plans.** On one determinisation (``State.determinise``: hidden cards resampled from what the
   player cannot see), each candidate action is followed by a depth-first search of the rest of
   the turn (``plan_nodes`` positions shared evenly by the candidates), scored once the turn has
   passed. The best line is that action's plan.
2. **Samples.** Each sample is a fresh determinisation and a rollout seed. Every candidate still
   in the running is played on the same sample (common random numbers): its plan is replayed
   (stopping early if a step is not legal there, for instance after a different draw), the
   rival answers with its own best turn on that sample (the same depth-first search, over
   ``reply_nodes`` positions; 0 leaves the reply to the playout policy), and the game is rolled
   out to ``rollout_turns`` turn changes in all with the engine's playout policy, then scored.
   A game the plan itself ends scores its result; any other score is shrunk by ``LATER``, so a
   win taken this turn beats one the rival gets a turn to answer, and a loss put off beats one
   met now (without it, a sure win next turn ties with the win on offer now).
   Candidates are compared on the same samples, so much of a sample's luck cancels out of their
   differences: in six positions of the flagship card game (100 samples each, see
   ``docs/performance.md``) the standard deviation of a paired difference was 1.1-1.8 times
   smaller than with independent samples.
3. **Sequential halving** (Karnin, Koren and Somekh 2013) spreads ``samples`` evaluations over
   rounds; after each round the worse half of the candidates drops out. The agent plays the
   survivor's first action and plans again at its next decision.

Engine hooks (``State`` declares them all with neutral defaults): ``search_actions()`` (the
candidates; default all legal actions), ``rollout_action(rng)`` (the playout policy where the
state sets ``has_rollout_policy``; default uniform), ``rollout_value(player)`` (the score; default
``evaluate``), ``pass_action()`` (the action that ends the turn now, used when a plan search runs
out of positions; None scores the position as it stands) and ``advice()`` (a rule of thumb for a
decision search cannot judge, such as a mulligan).
"""

from __future__ import annotations

import math

from rules.agents.base import searchable_view
from rules.agents.mcts import play_out, search_candidates, unsearched_choice
from rules.engines.core import CHANCE, Action, Rng, State

#: the weight of a score the plan does not settle: its game goes on past the mover's turn
LATER = 0.99


class PlanAgent:
    """Flat Monte Carlo over turn plans: sequential halving with common random numbers."""

    name = "plan"

    def __init__(
        self,
        seed: int = 0,
        samples: int = 400,
        plan_nodes: int = 400,
        reply_nodes: int = 40,
        rollout_turns: int = 2,
        rollout_limit: int = 400,
        advice: bool = True,
    ) -> None:
        self.rng = Rng(seed)
        self.samples = samples
        self.plan_nodes = plan_nodes
        self.reply_nodes = reply_nodes
        self.rollout_turns = rollout_turns
        self.rollout_limit = rollout_limit
        self.advice = advice

    def act(self, state: State) -> Action:
        """Return the first action of the best turn plan found."""
        player = state.current_player()
        legal = search_candidates(state)
        settled = unsearched_choice(state, legal, self.advice)
        if settled is not None:
            return settled
        base = state.clone().quiet()
        plans = self.plans(searchable_view(base, player, self.rng), player, legal)
        return self._halve(base, player, legal, plans)

    def plans(self, view: State, player: int, legal: list[Action]) -> dict[Action, list[Action]]:
        """Map each candidate to the rest of its best turn on ``view`` (one determinisation)."""
        share = max(1, self.plan_nodes // len(legal))
        plans = {}
        for action in legal:
            child = view.clone()
            child.apply_unchecked(action)
            plans[action] = self._line(child, player, [share])[1]
        return plans

    def _halve(
        self, base: State, player: int, legal: list[Action], plans: dict[Action, list[Action]]
    ) -> Action:
        alive = list(legal)
        totals = dict.fromkeys(legal, 0.0)
        counts = dict.fromkeys(legal, 0)
        rounds = max(1, math.ceil(math.log2(len(alive))))
        for _ in range(rounds):
            for _ in range(max(1, self.samples // (len(alive) * rounds))):
                sample = searchable_view(base, player, self.rng)
                seed = self.rng.next_u64()
                for action in alive:
                    totals[action] += self._score(sample.clone(), action, plans[action], seed)
                    counts[action] += 1
            # ties keep the engine's order (stable sort), so the choice is reproducible
            alive.sort(key=lambda a: totals[a] / counts[a], reverse=True)
            alive = alive[: (len(alive) + 1) // 2]
            if len(alive) == 1:
                break
        return alive[0]

    def _value(self, state: State, player: int) -> float:
        if state.is_terminal():
            return state.returns()[player]
        return state.rollout_value(player)

    def _line(self, state: State, player: int, budget: list[int]) -> tuple[float, list[Action]]:
        """The best value reachable before the turn passes, and the actions that reach it."""
        budget[0] -= 1
        if state.is_terminal() or state.current_player() != player:
            return self._value(state, player), []
        if budget[0] <= 0:
            action = state.pass_action()
            if action is None:
                return self._value(state, player), []
            state.apply_unchecked(action)
            return self._value(state, player), [action]
        best, best_line = -math.inf, []
        for action in search_candidates(state):
            child = state.clone()
            child.apply_unchecked(action)
            value, line = self._line(child, player, budget)
            if value > best:
                best, best_line = value, [action, *line]
        return best, best_line

    def _score(self, state: State, action: Action, plan: list[Action], seed: int) -> float:
        """Play ``action`` and its plan on one sample, roll out, and score for the mover."""
        player = state.current_player()
        state.apply_unchecked(action)
        for step in plan:
            if state.is_terminal() or state.current_player() != player:
                break
            if step not in state.legal_actions():
                break  # a different draw in this sample: the playout policy finishes the turn
            state.apply_unchecked(step)
        if state.is_terminal():
            return state.returns()[player]
        rival = state.current_player()
        if self.reply_nodes > 0 and rival not in (player, CHANCE):
            # the rival's next turn: its own best plan on this sample, not the playout policy
            for step in self._line(state.clone(), rival, [self.reply_nodes])[1]:
                if state.is_terminal() or state.current_player() != rival:
                    break
                state.apply_unchecked(step)
        policy = state.has_rollout_policy
        play_out(state, Rng(seed), self.rollout_turns, self.rollout_limit, policy, last=player)
        return LATER * self._value(state, player)
