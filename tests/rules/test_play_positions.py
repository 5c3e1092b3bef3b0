"""A stored game's position (``rules.play.play_position``): a /play/ game's or a friend table's,
asked for at every move and for every seat's view. Each process keeps each game's latest
position and continues from it; these tests hold that to what a replay from the seed gives, in
every game, whatever is asked for next, and the engine to the cards as they are in the database.
"""

from __future__ import annotations

import json
import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cards.models import Card
from rules import play
from rules.adapters import engine_for
from rules.engines.core import CHANCE, Action, State
from rules.play import play_position

pytestmark = pytest.mark.django_db

GAMES = (
    "revolt-n-reign",
    "reign-absolute",
    "rival-realms",
    "reggae-revolution",
    "regality-vs-religion",
)


@dataclass
class GameRow:
    """The stored game ``play_position`` is given: the fields a ``PlayedGame`` or a
    ``FriendTable`` has."""

    slug: str
    pk: int
    seed: int
    setup: dict[str, Any]
    actions: list[str] = field(default_factory=list)

    @property
    def game(self) -> Any:
        return type("GameOfRow", (), {"slug": self.slug})()


def replayed(row: GameRow, count: int | None = None) -> State:
    """The position from the seed, every action applied again (what a fresh process does)."""
    state = engine_for(row.slug).new_initial_state(row.seed, row.setup)
    for text in row.actions if count is None else row.actions[:count]:
        state.apply(Action.parse(text))
    return state


def looks(state: State) -> tuple[Any, ...]:
    """Everything a page, a seat or an agent reads from a position."""
    players = len(state.returns())
    return (
        state.current_player(),
        [str(a) for a in state.legal_actions()],
        [json.dumps(state.observation(p), sort_keys=True, default=str) for p in range(players)],
        [(e.kind, e.player, repr(e.detail)) for e in state.event_log()],
        [(p, str(a)) for p, a in state.history],
        state.rng.getstate(),
        state.returns(),
    )


def next_action(state: State, chooser: random.Random) -> Action:
    if state.current_player() == CHANCE:
        return state.sample_chance()
    return chooser.choice(state.legal_actions())


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(seed=st.integers(0, 2**31 - 1), moves=st.integers(0, 2**31 - 1))
def test_every_position_asked_for_is_the_one_a_replay_from_the_seed_gives(slug, seed, moves):
    # given a stored game of each kind, played a move at a time
    engine = engine_for(slug)
    row = GameRow(slug, pk=seed % 1000 + 1, seed=seed, setup=engine.example_setups()[0])
    chooser = random.Random(moves)
    for _ in range(120):
        # when its position is asked for (the move, then each seat's view: twice)
        first = play_position(row)
        second = play_position(row)
        # then it is the replay's, both times
        assert looks(first) == looks(replayed(row))
        assert looks(second) == looks(first)
        if first.is_terminal():
            break
        # and what a caller plays on its copy (an agent's reply it then stores) changes
        # nothing of the next answer
        scratch = first.clone()
        for played_on in (first, second):
            played_on.apply(next_action(played_on.clone(), chooser))
        if chooser.random() < 0.2:
            assert looks(play_position(row)) == looks(scratch)
        row.actions.append(str(next_action(scratch, chooser)))
    # and an earlier position (a replay's step), or another game under the same number, is
    # still a replay's
    assert looks(play_position(row, count=len(row.actions) // 2)) == looks(
        replayed(row, len(row.actions) // 2)
    )
    # and a game under the same number whose moves part from this one's is its own replay,
    # asked for first or after this one
    fork = next((n for n in range(len(row.actions) - 1, -1, -1) if len(legal_at(row, n)) > 1), None)
    if fork is not None:
        other_move = next(a for a in legal_at(row, fork) if a != row.actions[fork])
        other = GameRow(slug, row.pk, seed, row.setup, [*row.actions[:fork], other_move])
        assert looks(play_position(other)) == looks(replayed(other))
        assert looks(play_position(row)) == looks(replayed(row))
        assert looks(play_position(other)) == looks(replayed(other))
    broken = GameRow(slug, row.pk, seed, row.setup, [*row.actions[:2], "not a move"])
    with pytest.raises(ValueError):
        play_position(broken)


def legal_at(row: GameRow, count: int) -> list[str]:
    """The player's choices after the first ``count`` actions (none at a chance node)."""
    state = replayed(row, count)
    if state.current_player() == CHANCE:
        return []
    return [str(a) for a in state.legal_actions()]


def test_a_card_saved_is_played_as_saved_from_the_next_position_on():
    # given a Revolt N Reign game whose position the process keeps
    slug = "revolt-n-reign"
    engine = engine_for(slug)
    row = GameRow(slug, pk=1, seed=5, setup=engine.example_setups()[0])
    chooser = random.Random(2)
    for _ in range(12):
        row.actions.append(str(next_action(play_position(row), chooser)))
    assert engine_for(slug) is engine, "the engine is kept while no card changes"
    # when a card is edited and saved (the admin's card form saves the row)
    card = Card.objects.for_game(slug).get(name="Freedom to Bear Arms")
    card.effects = [{"trigger": "each_turn", "actions": [{"op": "gain_lp", "amount": 3}]}]
    card.save()
    # then the engine plays the card as saved
    fresh = engine_for(slug)
    assert fresh is not engine
    saved = next(r for r in fresh.records if r["name"] == "Freedom to Bear Arms")
    assert saved["effects"] == card.effects
    # and the game's position is replayed with it, not continued from the kept one
    assert looks(play_position(row)) == looks(replayed(row))
    assert play_position(row).game is fresh


def played_row(slug: str, pk: int, seed: int, length: int, moves: int) -> GameRow:
    """A stored game of ``length`` actions (fewer if it ends), chosen at random by ``moves``."""
    engine = engine_for(slug)
    row = GameRow(slug, pk=pk, seed=seed, setup=engine.example_setups()[0])
    state, chooser = engine.new_initial_state(seed, row.setup), random.Random(moves)
    while len(row.actions) < length and not state.is_terminal():
        action = next_action(state, chooser)
        state.apply(action)
        row.actions.append(str(action))
    return row


def test_a_delayed_spectator_continues_from_the_position_it_saw_last(monkeypatch):
    # given a Reign Absolute table watched with a delay of 5 actions while its seats play
    full = played_row("reign-absolute", pk=7, seed=11, length=120, moves=3)
    row = GameRow(full.slug, full.pk, full.seed, full.setup)
    parsed: list[str] = []
    parse = Action.parse

    def counted(text: str) -> Action:
        parsed.append(text)
        return parse(text)

    monkeypatch.setattr(play, "Action", SimpleNamespace(parse=counted))
    delay, shown = 5, 0
    for action in full.actions:
        # when each action is stored, the seats ask for the latest position and the spectator
        # for the one 5 actions back
        row.actions.append(action)
        assert looks(play_position(row)) == looks(replayed(row))
        if len(row.actions) > delay:
            shown = len(row.actions) - delay
            assert looks(play_position(row, shown)) == looks(replayed(row, shown))
    # then every stored action was applied once for the seats and once for the spectator, where
    # replaying the spectator's position from the seed each time applies them over and over
    assert shown == len(full.actions) - delay > 100
    assert len(parsed) == len(full.actions) + shown


@pytest.mark.parametrize("slug", GAMES)
@settings(max_examples=4, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    seed=st.integers(0, 2**31 - 1),
    moves=st.integers(0, 2**31 - 1),
    asks=st.lists(st.one_of(st.none(), st.integers(0, 60)), min_size=1, max_size=30),
)
def test_earlier_and_latest_positions_asked_in_any_order_are_a_replay_s(slug, seed, moves, asks):
    # given a stored game of each kind, of up to 60 actions
    row = played_row(slug, pk=seed % 1000 + 2000, seed=seed, length=60, moves=moves)
    for count in asks:
        # when the latest position (None) or the first ``count`` actions' is asked for, in any
        # order (a spectator's delay, a step back, a seat between them)
        count = None if count is None else min(count, len(row.actions))
        # then it is the replay's
        assert looks(play_position(row, count)) == looks(replayed(row, count))
