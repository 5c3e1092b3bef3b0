"""What an agent is: something that picks an action for the player to act."""

from __future__ import annotations

from typing import Protocol

from rules.engines.core import Action, State


class Agent(Protocol):
    """Picks an action in states where it is the player to act."""

    name: str

    def act(self, state: State) -> Action:
        """Return one of ``state.legal_actions()``."""
        ...


def searchable_view(state: State, player: int, rng) -> State:
    """Return a state the agent may look into: a clone, or a determinisation if information is hidden."""
    if state.is_perfect_information():
        return state.clone()
    return state.determinise(player, rng)
