"""The uniform random agent: the baseline every engine is tested and benchmarked with."""

from __future__ import annotations

from rules.engines.core import Action, Rng, State


class RandomAgent:
    """Plays uniformly among the legal actions, from its own seeded generator."""

    name = "random"

    def __init__(self, seed: int = 0) -> None:
        self.rng = Rng(seed)

    def act(self, state: State) -> Action:
        """Return a uniformly chosen legal action."""
        return self.rng.choice(state.legal_actions())
