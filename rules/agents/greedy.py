"""The greedy agent: looks one turn ahead and keeps the best result by the engine's evaluation,
optionally checking its best few actions against the rivals' greedy replies."""

from __future__ import annotations

from rules.agents.base import searchable_view
from rules.agents.mcts import unsearched_choice
from rules.engines.core import CHANCE, Action, Rng, State

#: the most decisions of one turn the search looks down a single line
MAX_DEPTH = 200
#: the most decisions a reply line plays for each return of the turn it waits for (the rest of
#: the agent's turn, then the rivals' turns) before it is scored where it stands
REPLY_DEPTH = 60


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

    ``replies`` (default 0: off) looks one turn further: the ``replies`` actions the one-turn
    evaluation ranks best are each played on every determinisation, the agent finishing its turn
    and each rival then playing its own turn by the same one-step greedy rule (each mover taking
    the action its own evaluation scores best), and the action whose line ends best for the agent
    once the turn is back with it wins. An action that gains a point but leaves a unit open to a
    stronger one loses to a quieter one there. Ties keep the one-turn order.

    ``reply_turns`` (default 1) plays each line on until the turn has come back that many times,
    the agent's own later turns by the same one-step rule, and scores it by the mean of the
    positions it came back to (a finished game counting for every return it cut short). Scored
    only where the last turn ends, every line would lose a unit the agent's one-step turns walk
    into danger later, whatever the first move, and the first move's own danger would no longer
    tell the lines apart; the mean keeps it (Reign Absolute's default plays 4 turns on:
    docs/agents.md, *Reign Absolute: looking past the rival's reply*).

    ``advice`` (default off) takes the engine's ``advice()`` without searching where it names a
    legal action, as MCTS and turn plans do: a win on offer whose line is longer than the node
    budget reaches (Rival Realms' supply card toward the Concord of Crowns), or a mulligan no
    one-turn evaluation can judge. Rival Realms' budget turns it on (``agent_budgets``).
    """

    name = "greedy"

    def __init__(
        self,
        seed: int = 0,
        max_nodes: int = 5000,
        samples: int = 1,
        replies: int = 0,
        reply_turns: int = 1,
        advice: bool = False,
    ) -> None:
        self.rng = Rng(seed)
        self.max_nodes = max_nodes
        self.samples = max(1, samples)
        self.replies = max(0, replies)
        self.reply_turns = max(1, reply_turns)
        self.advice = advice

    def act(self, state: State) -> Action:
        """Return the legal action with the best one-turn evaluation (ties broken at random), or
        with ``replies`` the best of the leading few once the rivals have replied (with
        ``advice``, the engine's advice where it gives one)."""
        if self.advice:
            settled = unsearched_choice(state, state.legal_actions(), True)
            if settled is not None:
                return settled
        player = state.current_player()
        deals = 1 if state.is_perfect_information() else self.samples
        views = [searchable_view(state, player, self.rng) for _ in range(deals)]
        actions = views[0].legal_actions()
        budgets = [[self.max_nodes] for _ in views]
        values: list[float] = []
        best_value = float("-inf")
        best: list[Action] = []
        for action in actions:
            value = 0.0
            for view, budget in zip(views, budgets, strict=True):
                child = view.clone()
                child.apply_unchecked(action)
                value += self._turn_value(child, player, budget, 1)
            value /= deals
            if self.replies:
                values.append(value)
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        if self.replies and len(actions) > 1 and len(views[0].returns()) > 1:
            return self._best_against_replies(views, actions, values, player)
        return self.rng.choice(best)

    def _best_against_replies(
        self, views: list[State], actions: list[Action], values: list[float], player: int
    ) -> Action:
        """The action among the one-turn evaluation's best ``replies`` whose reply lines end
        best for ``player``, averaged over ``views``."""
        order = sorted(range(len(actions)), key=lambda i: -values[i])[: self.replies]
        best_index = order[0]
        best_value = float("-inf")
        for index in order:
            value = 0.0
            for view in views:
                line = view.clone()
                line.apply_unchecked(actions[index])
                value += self._reply_value(line, player)
            if value > best_value + 1e-12:
                best_value, best_index = value, index
        return actions[best_index]

    def _reply_value(self, state: State, player: int) -> float:
        """Play ``state`` on, every mover taking its best one-step action, until the turn has
        left ``player`` and come back ``reply_turns`` times (or the game ends), and score it for
        ``player``: the mean of its evaluation at each return, a finished game counting for
        every return it cut short."""
        left = False
        back = 0
        total = 0.0
        for _ in range(REPLY_DEPTH * self.reply_turns):
            if state.is_terminal():
                break
            mover = state.current_player()
            if mover == CHANCE:
                state.apply_unchecked(state.sample_chance())
                continue
            if mover != player:
                left = True
            elif left:
                back += 1
                total += state.evaluate(player)
                if back == self.reply_turns:
                    return total / back
                left = False
            state.apply_unchecked(self._one_step(state, mover))
        return (total + state.evaluate(player) * (self.reply_turns - back)) / self.reply_turns

    def _one_step(self, state: State, mover: int) -> Action:
        """The action of ``state`` that ``mover``'s evaluation scores best (the first of equals)."""
        legal = state.legal_actions()
        best = legal[0]
        best_value = float("-inf")
        for action in legal:
            child = state.clone()
            child.apply_unchecked(action)
            value = child.evaluate(mover)
            if value > best_value:
                best, best_value = action, value
        return best

    def _turn_value(self, state: State, player: int, budget: list[int], depth: int) -> float:
        return turn_value(state, player, budget, depth)


def turn_value(state: State, player: int, budget: list[int], depth: int = 1) -> float:
    """The best ``State.evaluate`` for ``player`` that the rest of its turn can reach from
    ``state``, searched depth-first while ``budget[0]`` (positions, spent in place) lasts and
    at most ``MAX_DEPTH`` decisions deep; a position where another player is to act is scored
    as it stands."""
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
        best = max(best, turn_value(child, player, budget, depth + 1))
    return best
