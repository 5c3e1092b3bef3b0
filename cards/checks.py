"""Extra per-game card checks that go beyond the JSON card schema.

An app registers a check for a game slug (the rules app registers each engine plug-in's
``card_problems``, which refuses effects the engine cannot execute). ``load_game_data`` runs every registered check on every
card record before writing anything, so a card no engine can play never reaches the database.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

CardCheck = Callable[[Mapping[str, Any]], list[str]]

_CHECKS: dict[str, list[CardCheck]] = {}


def register_card_check(game_slug: str) -> Callable[[CardCheck], CardCheck]:
    """Decorator: run ``check(record) -> [problems]`` on every card of ``game_slug`` when loading."""

    def decorator(check: CardCheck) -> CardCheck:
        checks = _CHECKS.setdefault(game_slug, [])
        if check not in checks:
            checks.append(check)
        return check

    return decorator


def unregister_card_checks(game_slug: str) -> None:
    """Forget every check of ``game_slug`` (tests that plug a game in for a while)."""
    _CHECKS.pop(game_slug, None)


def card_check_errors(game_slug: str, record: Mapping[str, Any]) -> list[str]:
    """Return the problems every registered check finds in ``record``."""
    problems: list[str] = []
    for check in _CHECKS.get(game_slug, []):
        problems.extend(check(record))
    return problems
