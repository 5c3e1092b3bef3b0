"""The ``team`` agent: plays a game's own hand-written policy, which the game's plugin supplies.

Some games come with a policy of their own that knows the game better than a generic search on a
web budget: Reggae Revolution's greedy team policy (``rules.engines.reggae_revolution.policy``)
wins a third to two thirds of its team games, where random play almost never wins. The plugin
names it (``GamePlugin.team_policy``); this agent looks it up by the state's game, so no shared
code names a game. A game without a policy refuses the agent with a message.

With ``lookahead`` (positions a decision; 0, the default, is off) the policy hands the decisions
the engine names (``State.lookahead_actions``: Rival Realms' choice of which units attack) to a
one-turn search: each of those actions is played on one guess at the hidden cards
(``State.determinise``), the rest of the turn searched as greedy searches it
(``rules.agents.greedy.turn_value``), and the best is played. A rule of thumb for such a choice
("every unit attacks") is blind to the position; the search weighs the field each choice leaves.
"""

from __future__ import annotations

from rules.agents.base import searchable_view
from rules.agents.greedy import turn_value
from rules.engines.core import Action, Rng, State, find_plugin
from rules.engines.core.plugin import Policy


class TeamAgent:
    """Plays the policy of the game it is asked to move in, for whichever seat is to act."""

    name = "team"

    def __init__(self, seed: int = 0, policy: str = "", lookahead: int = 0) -> None:
        # the policies are deterministic; the seed drives the look-ahead's guesses and ties
        self.rng = Rng(seed)
        #: a policy of the game's ``team_policies`` by name ("": the game's own)
        self.variant = policy
        #: positions the one-turn search may visit for each action it weighs (0: no search)
        self.lookahead = max(0, lookahead)
        self._policies: dict[str, Policy] = {}

    def act(self, state: State) -> Action:
        """Return the game's own policy's action, or where the engine offers a choice to look
        ahead on, the best of it; ``ValueError`` when the game has no policy."""
        slug = state.game.slug
        policy = self._policies.get(slug)
        if policy is None:
            policy = game_policy(slug, self.variant)
            self._policies[slug] = policy
        chosen = policy(state)
        if self.lookahead:
            choices = state.lookahead_actions()
            if choices is not None and len(choices) > 1 and chosen in choices:
                return self._looked_ahead(state, choices)
        return chosen

    def _looked_ahead(self, state: State, choices: list[Action]) -> Action:
        """The action of ``choices`` whose turn ends best by the evaluation, on one guess at
        what the player cannot see (ties broken at random)."""
        player = state.current_player()
        view = searchable_view(state, player, self.rng)
        best: list[Action] = []
        best_value = float("-inf")
        for action in choices:
            child = view.clone()
            child.apply_unchecked(action)
            value = turn_value(child, player, [self.lookahead])
            if value > best_value + 1e-12:
                best_value, best = value, [action]
            elif abs(value - best_value) <= 1e-12:
                best.append(action)
        return self.rng.choice(best)


def game_policy(slug: str, variant: str = "") -> Policy:
    """The policy of game ``slug`` (its policy ``variant`` when named); ``ValueError`` naming
    the game when it has none."""
    plugin = find_plugin(slug)
    policy = plugin.policy(variant) if plugin is not None else None
    if policy is None:
        name = plugin.name if plugin is not None else slug
        if variant:
            raise ValueError(f"{name} has no team policy {variant!r}")
        raise ValueError(f"{name} has no team policy of its own: the 'team' agent cannot play it")
    return policy
