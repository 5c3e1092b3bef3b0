"""The ``team`` agent: plays a game's own hand-written policy, which the game's plugin supplies.

Some games come with a policy of their own that knows the game better than a generic search on a
web budget: Reggae Revolution's greedy team policy (``rules.engines.reggae_revolution.policy``)
wins a third to two thirds of its team games, where random play almost never wins. The plugin
names it (``GamePlugin.team_policy``); this agent looks it up by the state's game, so no shared
code names a game. A game without a policy refuses the agent with a message.
"""

from __future__ import annotations

from rules.engines.core import Action, Rng, State, find_plugin
from rules.engines.core.plugin import Policy


class TeamAgent:
    """Plays the policy of the game it is asked to move in, for whichever seat is to act."""

    name = "team"

    def __init__(self, seed: int = 0, policy: str = "") -> None:
        # the policies are deterministic; the seed is kept for the common agent signature
        self.rng = Rng(seed)
        #: a policy of the game's ``team_policies`` by name ("": the game's own)
        self.variant = policy
        self._policies: dict[str, Policy] = {}

    def act(self, state: State) -> Action:
        """Return the game's own policy's action; ``ValueError`` when the game has none."""
        slug = state.game.slug
        policy = self._policies.get(slug)
        if policy is None:
            policy = game_policy(slug, self.variant)
            self._policies[slug] = policy
        return policy(state)


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
