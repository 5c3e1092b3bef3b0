"""Card checks the game engines ask the fixture loader to run (the Django side of the engines).

Every engine compiles card records into its own specs; a card an engine cannot compile or execute
must fail ``load_game_data`` with a message naming the card and the problem, never reach a game.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from cards.checks import register_card_check
from rules.engines.regality_vs_religion.powers import power_problems
from rules.engines.reggae_revolution.effects import effect_problems
from rules.engines.reign_absolute import cards as reign_absolute_cards
from rules.engines.revolt_n_reign.cards import card_problems
from rules.engines.rival_realms import cards as rival_realms_cards


@register_card_check("revolt-n-reign")
def revolt_n_reign_effects_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Revolt N Reign engine could not execute this card (empty when it can)."""
    return [f"the Revolt N Reign engine cannot play this card: {p}" for p in card_problems(record)]


@register_card_check("regality-vs-religion")
def regality_vs_religion_power_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Regality vs Religion engine could not play this tile."""
    return power_problems(record)


@register_card_check("reggae-revolution")
def reggae_revolution_effects_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Reggae Revolution engine could not execute this card's effects."""
    problems = effect_problems(record.get("type", ""), record.get("effects", []))
    return [f"the Reggae Revolution engine cannot play this card: {p}" for p in problems]


@register_card_check("reign-absolute")
def reign_absolute_card_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Reign Absolute engine could not use this card."""
    try:
        reign_absolute_cards.card_spec(record)
    except reign_absolute_cards.CardDataError as exc:
        return [f"the Reign Absolute engine cannot use this card: {exc}"]
    return []


@register_card_check("rival-realms")
def rival_realms_card_check(record: Mapping[str, Any]) -> list[str]:
    """Return why the Rival Realms engine could not use this card."""
    try:
        rival_realms_cards.card_spec(record)
    except rival_realms_cards.CardDataError as exc:
        return [f"the Rival Realms engine cannot use this card: {exc}"]
    return []
