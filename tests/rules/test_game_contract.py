"""Every registered game keeps the whole game contract: ``check_game`` (the engine, pure) and
``check_game_wiring`` (the Django side), read from the registry, never from a list of slugs."""

from __future__ import annotations

import pytest

from rules.contract import check_game_wiring, wiring_checks
from rules.engines.core import GamePlugin, plugins
from rules.engines.core.contract import CHECKS, ContractError, check_game, pure_checks

PLUGINS = plugins()


@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda plugin: plugin.slug)
def test_every_game_keeps_the_engine_contract(plugin: GamePlugin) -> None:
    check_game(plugin)


@pytest.mark.django_db
@pytest.mark.parametrize("plugin", PLUGINS, ids=lambda plugin: plugin.slug)
def test_every_game_is_wired_in(plugin: GamePlugin) -> None:
    check_game_wiring(plugin.slug)


def test_the_two_halves_check_distinct_obligations() -> None:
    assert not set(pure_checks()) & set(wiring_checks())
    assert list(CHECKS) == list(pure_checks())


def test_a_broken_obligation_is_named() -> None:
    # a plugin of a shipped engine offering no agent (GamePlugin, not a compiled plugin class,
    # is the one a game subclasses from outside)
    class Broken(GamePlugin):
        game = PLUGINS[0].game
        words = PLUGINS[0].words
        matchup_agents = ()

    with pytest.raises(ContractError, match=r"\[agents\] .*matchup_agents is empty"):
        check_game(Broken())


def test_a_test_hands_model_that_is_not_a_hands_model_is_named() -> None:
    class Broken(GamePlugin):
        game = PLUGINS[0].game
        words = PLUGINS[0].words
        # a function of the hands module, not its model class
        hands_model = "rules.engines.core.hands:outcome_label"

    with pytest.raises(ContractError, match=r"\[hands\] .*is not a HandsModel subclass"):
        check_game(Broken())
