"""The games' plug-ins: found by slug, each declaring what the shared code used to table."""

from __future__ import annotations

import pkgutil
from collections.abc import Mapping
from typing import Any

import pytest

from rules.agents.team import game_policy
from rules.engines.core import (
    DeckCards,
    GamePlugin,
    SetupError,
    find_plugin,
    plugin_for,
    plugins,
    registered_games,
)
from rules.engines.core.hands import HandsModel
from rules.engines.core.registry import ENGINES_FOLDER
from rules.services import AGENT_LABELS, agent_spec

GAMES = registered_games()
#: the engine packages discovery walks: every folder under rules/engines but core
ENGINE_PACKAGES = sorted(
    module.name
    for module in pkgutil.iter_modules([str(ENGINES_FOLDER)])
    if module.ispkg and module.name != "core"
)


def cards(label: str, *records: Mapping[str, Any], variant: str = "") -> DeckCards:
    return DeckCards(label, tuple(records), variant)


def test_one_plugin_per_engine_found_by_slug():
    assert [plugin.slug for plugin in plugins()] == sorted(registered_games())
    assert sorted(plugin.module_name for plugin in plugins()) == ENGINE_PACKAGES
    assert find_plugin("chess") is None
    with pytest.raises(KeyError, match="no game 'chess'"):
        plugin_for("chess")


@pytest.mark.parametrize("slug", GAMES)
def test_each_plugin_declares_its_engine_hands_and_words(slug: str):
    plugin = plugin_for(slug)
    assert isinstance(plugin, GamePlugin) and plugin.game.slug == slug
    hands = plugin.hands()
    assert isinstance(hands, HandsModel) and hands.default_policy in hands.mulligan_policies
    assert plugin.words.matchup_rules.startswith(plugin.name.split(":")[0])
    assert {"random", "greedy", "mcts"} <= set(plugin.matchup_agents) <= set(AGENT_LABELS)
    assert set(plugin.agent_labels) <= set(plugin.matchup_agents)
    assert plugin.min_decks <= plugin.max_decks


@pytest.mark.parametrize("slug", GAMES)
def test_cutoff_reasons_are_among_the_games_end_reasons(slug: str):
    import importlib
    import importlib.util

    plugin = plugin_for(slug)
    package = f"rules.engines.{plugin.module_name}"
    reasons = next(
        importlib.import_module(name).END_REASONS
        for name in (f"{package}.state", f"{package}.game")
        if importlib.util.find_spec(name) is not None
        and hasattr(importlib.import_module(name), "END_REASONS")
    )
    # a cut-off is one of the engine's end reasons, never all of them, and pages name it
    assert plugin.cutoff_reasons and plugin.cutoff_reasons < set(reasons)
    assert plugin.cutoff_reasons <= set(plugin.words.end_reasons)


def test_each_game_offers_the_agents_that_make_sense_for_it():
    offered = {plugin.slug: plugin.matchup_agents for plugin in plugins()}
    # Reggae Revolution's own team policy first (the form's default), alpha-beta where every
    # tile is in the open, turn plans (at a reduced budget) for Revolt N Reign
    assert offered["reggae-revolution"][0] == "team"
    # Rival Realms' own policy first too (docs/rules/rival-realms.md, "Measured")
    assert offered["rival-realms"][0] == "team"
    assert [slug for slug, names in offered.items() if "team" in names] == [
        "reggae-revolution",
        "rival-realms",
    ]
    assert [slug for slug, names in offered.items() if "alphabeta" in names] == [
        "regality-vs-religion"
    ]
    assert [slug for slug, names in offered.items() if "plan" in names] == ["revolt-n-reign"]
    assert plugin_for("reggae-revolution").policy() is not None
    assert plugin_for("rival-realms").policy() is not None
    assert plugin_for("revolt-n-reign").policy() is None
    # a game's other policies by name: ``team(policy=NAME)``; an unknown name is refused
    assert plugin_for("rival-realms").policy("dig") is not None
    assert plugin_for("rival-realms").policy("plain") is not None
    assert plugin_for("rival-realms").policy("nonesuch") is None
    with pytest.raises(ValueError, match="no team policy 'nonesuch'"):
        game_policy("rival-realms", "nonesuch")


def test_agent_budgets_come_from_the_plugin_over_the_shared_ones():
    assert agent_spec("mcts", "reign-absolute").keywords == {"iterations": 40, "rollout_turns": 4}
    assert agent_spec("mcts", "revolt-n-reign").keywords == {"iterations": 40}
    assert agent_spec("greedy").keywords == {"max_nodes": 100}
    assert agent_spec("alphabeta", "regality-vs-religion").keywords == {"depth": 4, "reach": 1}
    plan = agent_spec("plan", "revolt-n-reign").keywords
    assert plan == {"samples": 100, "plan_nodes": 100}


def test_the_default_seating_puts_deck_i_in_seat_i_and_names_the_first_player():
    plugin = plugin_for("rival-realms")
    a = cards("A", {"name": "Barracks", "zone": ""}, {"name": "Grain Tithe", "zone": ""})
    b = cards("B", {"name": "Timber Levy", "zone": ""})
    plan = plugin.matchup_setup([a, b], first=1)
    assert plan.setup == {
        "decks": [["Barracks", "Grain Tithe"], ["Timber Levy"]],
        "first_player": 1,
    }
    assert plan.seats == (0, 1)
    assert "first_player" not in plugin.matchup_setup([a, b], first=None).setup
    assert plugin.swap_seats(plan.setup)["decks"] == [["Timber Levy"], ["Barracks", "Grain Tithe"]]
    with pytest.raises(SetupError, match="played by 2 decks, not 1"):
        plugin.matchup_setup([a])


def test_reign_absolute_seats_one_faction_per_deck_and_swaps_them():
    plugin = plugin_for("reign-absolute")
    decks = [cards(f, {"name": f"{f} unit", "branch": f, "zone": ""}) for f in ("elves", "azuma")]
    plan = plugin.matchup_setup([*decks, cards("u", {"name": "x", "branch": "umbrous"})])
    assert plan.setup == {"factions": ["elves", "azuma", "umbrous"]}
    assert plugin.swap_seats({"factions": ["elves", "azuma"]})["factions"] == ["azuma", "elves"]
    with pytest.raises(SetupError, match="exactly one faction"):
        plugin.matchup_setup([decks[0], cards("mixed", *decks[0].records, *decks[1].records)])


def test_regality_vs_religion_seats_by_alignment_and_pools_neutral_tiles():
    plugin = plugin_for("regality-vs-religion")
    religion = cards(
        "Flock",
        {"name": "Monk", "branch": "religion", "zone": "side"},
        {"name": "Sage", "branch": "neutral", "zone": "neutral"},
        variant="standard",
    )
    regality = cards(
        "Court",
        {"name": "King", "branch": "regality", "zone": "side"},
        {"name": "Bard", "branch": "neutral", "zone": "neutral"},
        {"name": "Sage", "branch": "neutral", "zone": "neutral"},
    )
    plan = plugin.matchup_setup([religion, regality], first=0)
    assert plan.seats == (1, 0)  # seat 0 is Regality: deck B
    assert plan.setup == {"variant": "standard", "first": "religion", "neutral": ["Sage", "Bard"]}
    assert plugin.matchup_setup([religion, regality], first=None).setup["first"] == "random"


def test_the_team_agent_plays_reggae_revolutions_own_policy_and_refuses_other_games():
    from rules.agents import make_agent
    from rules.engines.core import get_game
    from rules.engines.reggae_revolution.policy import play_greedy
    from rules.simulation import run

    game = get_game("reggae-revolution")
    # the agent's games are the policy's own, move for move (same seed, same end)
    report = run(game, {"players": 2}, ["team", "team"], 6, 4, log_game=0)
    assert report.team is not None and report.games == 6
    assert set(report.end_reasons) <= set(plugin_for("reggae-revolution").words.end_reasons)
    seed = report.game_log["seed"]
    assert [step["action"] for step in report.game_log["actions"]] == [
        str(action) for _, action in play_greedy(game, seed, {"players": 2}).history
    ]
    # a game without a policy of its own is refused with its name
    state = get_game("revolt-n-reign").new_initial_state(0, {})
    with pytest.raises(ValueError, match="Revolt N Reign has no team policy"):
        make_agent("team").act(state)
