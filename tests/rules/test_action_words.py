"""The buttons of the play page say every legal action in words (issue 18, point 4): no card
key with hyphens, no phase code with underscores, no bare card id or coordinate pair."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, find_plugin, get_game
from rules.engines.core.narration import CardRef

GAMES = [
    "revolt-n-reign",
    "rival-realms",
    "reggae-revolution",
    "regality-vs-religion",
    "reign-absolute",
]


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=5, deadline=None)
@given(seed=st.integers(min_value=0, max_value=2**20), steps=st.integers(min_value=0, max_value=60))
def test_every_legal_action_is_said_in_words(slug, seed, steps):
    plugin = find_plugin(slug)
    game = get_game(slug)
    state = game.new_initial_state(seed, game.example_setups()[0])
    agent = RandomAgent(seed=seed)
    for _ in range(steps):
        if state.is_terminal():
            break
        state.apply(state.sample_chance() if state.current_player() == CHANCE else agent.act(state))
    if state.is_terminal() or state.current_player() == CHANCE:
        return
    for action in state.legal_actions():
        parts = plugin.action_words(state, action)
        text = "".join(str(part) for part in parts)
        assert text[:1].isupper(), text
        assert "_" not in text, text
        assert not re.search(r"\b[a-z]+-[a-z]+\b", text), text  # a card key left as it is
        if slug in ("revolt-n-reign", "reign-absolute", "rival-realms"):
            assert not re.search(r"-?\d+ -?\d+", text), text  # ids, slots or squares as numbers
        if slug == "rival-realms":  # no field slot left as a bare number beside a card's name
            assert not any(re.fullmatch(r"-?\d+", str(part)) for part in parts), text
        keys = [part.key for part in parts if isinstance(part, CardRef)]
        assert all(isinstance(key, str) for key in keys)
