"""The buttons of the play page say every legal action in words (issue 18, point 4): no card
key with hyphens, no phase code with underscores, no bare card id or coordinate pair."""

from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.agents import RandomAgent
from rules.engines.core import CHANCE, find_plugin, get_game, registered_games
from rules.engines.core.narration import CardRef

GAMES = registered_games()


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


def test_revolt_n_reign_resolve_phase_choices_name_the_cards():
    # A choice in the Resolve Phase (docs/rules/revolt-n-reign.md, rulings 23 and 36) says which
    # card's damage goes where by name, never as a bare card id ("Choose 2").
    from rules.engines.core import Action

    game = get_game("revolt-n-reign")
    plugin = find_plugin("revolt-n-reign")
    state = game.new_initial_state(7, {**game.example_setups()[0], "first_player": 0})
    state.apply(Action("keep"))
    state.apply(Action("keep"))
    if state.phase == "equalize":
        state.apply(Action("pass"))
    # an Attack card of seat 1's held back in play: seat 1 assigns its damage on seat 0's turn
    attack = next(c for c in state.draw[1] + state.hand[1] if state.spec(c).type == "attack")
    state.place(1, state.spec(attack).key, "play")
    state.apply(Action("end"))
    assert state.phase == "choose" and state.current_player() == 1
    said = ["".join(str(p) for p in plugin.action_words(state, a)) for a in state.legal_actions()]
    uas = sorted(state.spec(c).name.lower() for c in state.uas[0])
    assert sorted(text.rsplit(" to ", 1)[1].lower() for text in said) == uas
    lead = f"assign the damage of {state.spec(attack).name.lower()} to "
    assert all(text.lower().startswith(lead) for text in said)
