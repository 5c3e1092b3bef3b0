"""Card checks the game engines ask the fixture loader to run (the Django side of the engines).

Revolt N Reign's engine executes an effect language; a card whose effects it cannot execute must
fail ``load_game_data`` with a message naming the card and the problem, never reach a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.checks import register_card_check
from rules.engines.revolt_n_reign.cards import card_problems


@register_card_check("revolt-n-reign")
def revolt_n_reign_effects_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Revolt N Reign engine could not execute this card (empty when it can)."""
    return [f"the Revolt N Reign engine cannot play this card: {p}" for p in card_problems(record)]
