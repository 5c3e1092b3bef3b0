"""Every way a game of the five can end has words on the pages: the engine's end-reason codes,
found in its source and in seeded random games, each named by the game's plugin."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path
from types import ModuleType

import pytest

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, TERMINAL, get_game, plugin_for

#: the module whose ``END_REASONS`` lists the codes, and that sets ``reason`` / calls ``_finish``
ENGINE_MODULES = {
    "revolt-n-reign": "rules.engines.revolt_n_reign.state",
    "rival-realms": "rules.engines.rival_realms.state",
    "reggae-revolution": "rules.engines.reggae_revolution.state",
    "regality-vs-religion": "rules.engines.regality_vs_religion.game",
    "reign-absolute": "rules.engines.reign_absolute.state",
}
ENDERS = ("_finish", "_win", "_end_match")


def module_source(module: ModuleType) -> str:
    """The module's ``.py`` text, also where the module runs compiled (rules/compiled.py)."""
    spec_file = Path(module.__file__ or "")
    return spec_file.with_name(spec_file.name.split(".")[0] + ".py").read_text()


def reasons_in_source(module: ModuleType) -> set[str]:
    """The codes the module's code ends a game with: string constants and module constants given
    to ``_finish``/``_win``/``_end_match``, or assigned to ``reason`` / ``self.reason``."""
    found: set[str] = set()

    def collect(node: ast.AST) -> None:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Constant) and isinstance(sub.value, str):
                found.add(sub.value)
            elif isinstance(sub, ast.Name) and isinstance(getattr(module, sub.id, None), str):
                found.add(getattr(module, sub.id))

    for node in ast.walk(ast.parse(module_source(module))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            if node.func.attr in ENDERS:
                for arg in node.args:
                    collect(arg)
        elif isinstance(node, ast.Assign):
            for target in node.targets:
                name = (
                    target.attr if isinstance(target, ast.Attribute) else getattr(target, "id", "")
                )
                if name == "reason":
                    collect(node.value)
    found.discard("")
    return found


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_every_end_reason_in_the_engine_source_has_words(slug: str):
    module = importlib.import_module(ENGINE_MODULES[slug])
    declared = set(module.END_REASONS)
    in_source = reasons_in_source(module)
    assert len(in_source) >= 3, in_source  # the scan found the engine's endings
    assert in_source == declared
    words = plugin_for(slug).words
    for code in declared:
        assert code in words.end_reasons, f"{slug}: no words for {code!r}"
        text = words.end_reason(code)
        assert text not in (code, code.replace("-", " ")), f"{slug}: {code!r} is not in words"


@pytest.mark.parametrize("slug", sorted(ENGINE_MODULES))
def test_seeded_random_games_end_only_in_ways_that_have_words(slug: str):
    module = importlib.import_module(ENGINE_MODULES[slug])
    game = get_game(slug)
    words = plugin_for(slug).words
    seen: set[str] = set()
    for setup in game.example_setups():
        for seed in range(4):
            state = game.new_initial_state(seed, setup)
            agent = RandomAgent(seed)
            while state.current_player() != TERMINAL:
                player = state.current_player()
                state.apply(state.sample_chance() if player == CHANCE else agent.act(state))
            seen.add(state.end_reason())
    assert seen and seen <= set(module.END_REASONS)
    assert all(code in words.end_reasons for code in seen)


def test_a_code_without_words_still_reads_as_words():
    words = plugin_for("revolt-n-reign").words
    assert words.end_reason("lp-victory") == "LP Victory (Life Points down to 0)"
    assert words.end_reason("some_new-ending") == "some new ending"
