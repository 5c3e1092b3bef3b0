"""Playing against the AI in the browser: start a game, replay its stored actions to the current
position, apply the player's move and the agent's reply, all in one place.

A ``PlayedGame`` stores the seed, the setup and every action in order (the player's, the
agents' and chance outcomes), never a position: ``play_position`` replays them. A move names
the index of one of the current legal actions and the game's ``version`` it was chosen at; the
row is locked (``select_for_update``) while it is checked and applied, so a double submit or a
second tab is refused with ``PlayRefused`` and the stored game stays as it was.
"""

from __future__ import annotations

import secrets
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, NamedTuple, Protocol

from django.db import transaction

from rules.engines.core import CHANCE, Action, SetupError, State, find_plugin
from rules.matchups import (
    PlayRefused,
    agent_label,
    deck_cards,
    deck_field,
    play_decks_legal,
    play_plugin,
    play_setup_check,
    seat_plan,
)
from rules.models import PlayedGame

if TYPE_CHECKING:
    from django.contrib.auth.models import User

    from decks.models import Deck

#: the most actions agents and chance may take in one reply (a whole opponent turn fits many
#: times over); a game still waiting on an agent after that is stored as it stands
MAX_REPLY_ACTIONS = 2000
#: event kinds whose ``card`` another seat must not read (a card drawn into a hidden hand)
PRIVATE_EVENTS = frozenset({"draw"})


class StoredGame(Protocol):
    """A game stored as seed, setup and actions (a ``PlayedGame``, a friend table's game)."""

    game: Any  # the cards.Game row: its ``slug`` names the engine
    seed: Any
    setup: Any
    actions: Any


class PlayConflict(PlayRefused):
    """A move chosen at an older version of the game (a double submit, another tab)."""


#: positions each process keeps (``play_position``): a stored game's latest, and the earlier one
#: last asked for (a delayed spectator's)
POSITIONS_KEPT = 256
#: which of a stored game's kept positions: the latest, or the earlier one last asked for
LATEST, EARLIER = "latest", "earlier"


class _Kept(NamedTuple):
    engine: Any
    seed: Any
    setup: Any
    actions: tuple[str, ...]
    state: State

    def leads_to(self, engine: Any, game: StoredGame, actions: Sequence[str]) -> bool:
        """True when ``actions`` of ``game`` continue this position (same engine, seed, setup)."""
        done = len(self.actions)
        return (
            self.engine is engine
            and self.seed == game.seed
            and self.setup == game.setup
            and done <= len(actions)
            and tuple(actions[:done]) == self.actions
        )


# (kind of stored game, its pk, LATEST or EARLIER) -> that position
_positions: OrderedDict[tuple[str, Any, str], _Kept] = OrderedDict()
_positions_lock = threading.Lock()


def play_position(game: StoredGame, count: int | None = None) -> State:
    """The position the stored actions lead to, or the first ``count`` of them (replayed from
    the seed and setup).

    Each process keeps two positions of each stored game (``POSITIONS_KEPT`` in all): its
    latest, and the earlier one last asked for. A move, and then each seat's view of it,
    continue from the latest and apply only the actions stored since, instead of replaying the
    whole game again (which grows with the game: 41 ms for a 940-action Reign Absolute game);
    a spectator watching with a delay asks for an earlier position that moves on an action at a
    time, and continues from the one it saw last. A kept position is used only when its actions
    are the first of the ones asked for and the game's engine is the one it was played with (no
    card has changed since), so it is always the position a replay would give; the caller gets
    its own copy to play on.
    """
    from rules.adapters import engine_for

    engine = engine_for(game.game.slug)
    actions = [str(text) for text in (game.actions if count is None else game.actions[:count])]
    pk = getattr(game, "pk", None)  # None: not stored, nothing names it from call to call
    name = type(game).__qualname__
    kept = None
    if pk is not None:
        usable = (_positions.get((name, pk, which)) for which in (LATEST, EARLIER))
        kept = max(
            (k for k in usable if k is not None and k.leads_to(engine, game, actions)),
            key=lambda k: len(k.actions),
            default=None,
        )
    if kept is not None:
        state = kept.state.clone()
        done = len(kept.actions)
    else:
        state = engine.new_initial_state(int(game.seed), game.setup)
        done = 0
    for text in actions[done:]:
        state.apply(Action.parse(text))
    if pk is not None and (kept is None or done < len(actions)):
        key = (name, pk, LATEST if count is None else EARLIER)
        with _positions_lock:
            _positions[key] = _Kept(engine, game.seed, game.setup, tuple(actions), state.clone())
            _positions.move_to_end(key)
            while len(_positions) > POSITIONS_KEPT:
                _positions.popitem(last=False)
    return state


def _agent_reply(game: PlayedGame, state: State) -> None:
    """Let chance and the agent play every seat but the player's until the player is to act or
    the game ends, appending each action to ``game.actions``."""
    from rules.services import agent_spec

    factory = agent_spec(game.agent, game.game.slug)
    thinking, moved = 0.0, False
    for _ in range(MAX_REPLY_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == game.seat:
            break
        if player == CHANCE:
            action = state.sample_chance()
        else:
            start = time.process_time()
            agent = factory((int(game.seed) + len(game.actions)) & 0xFFFFFFFF)
            action = agent.act(state)
            thinking += time.process_time() - start
            moved = True
        state.apply(action)
        game.actions.append(str(action))
    if moved:
        game.reply_ms = round(thinking * 1000)
    _finish(game, state)


def _finish(game: PlayedGame, state: State) -> None:
    """Record the result once the game is over."""
    if not state.is_terminal():
        return
    game.status = PlayedGame.Status.FINISHED
    game.end_reason = state.end_reason() or ""
    plugin = find_plugin(game.game.slug)
    if plugin is not None and plugin.cooperative:
        outcome = state.returns()[game.seat]
        game.result = "won" if outcome > 0 else "lost" if outcome < 0 else "draw"
    else:
        winner = state.winner()
        game.result = "draw" if winner is None else "won" if winner == game.seat else "lost"


def play_start(
    *,
    owner: User,
    deck: Deck,
    opponent: Deck | None,
    agent: str,
    seed: int | None = None,
) -> PlayedGame:
    """Start a game of ``deck`` (the player's) against ``opponent`` played by ``agent`` (for a
    co-operative game: with ``opponent``, or a partner playing ``deck`` when None); the agent
    moves at once if it moves first; ``seed`` (a random one when None) deals the game. Raises ``PlayRefused`` with a message for the player."""

    plugin = find_plugin(deck.game.slug)
    if plugin is None:
        raise PlayRefused(f"{deck.game.name} has no engine to play it.")
    if not agent:
        raise PlayRefused(f"Pick the AI that plays {plugin.name} against you.", field="agent")
    if agent not in plugin.matchup_agents and agent not in plugin.difficulty_levels:
        raise PlayRefused(f"{agent_label(agent)} does not play {plugin.name}.", field="agent")
    decks = [table_deck for table_deck in (deck, opponent) if table_deck is not None]
    if len(decks) < plugin.min_decks:
        raise PlayRefused(
            f"{deck.game.name} is played by two decks: pick the agent's deck too.",
            field=deck_field(1),
        )
    if len(decks) > plugin.max_decks:
        raise PlayRefused(
            f"{deck.game.name} is played by one deck: leave the agent's deck out.",
            field=deck_field(1),
        )
    play_plugin(decks)  # all of one game
    play_decks_legal(plugin, decks)
    players = len(decks) if plugin.cooperative and len(decks) > 1 else 2
    try:
        plan = seat_plan(deck.game.slug, [deck_cards(d) for d in decks], players=players, first=0)
    except SetupError as error:
        raise PlayRefused(str(error), field=deck_field(1)) from error
    seated = [decks[index] for index in plan.seats]
    play_setup_check(
        deck.game.slug, plan.setup, [agent] * len(seated), [seat.name for seat in seated]
    )
    game = PlayedGame(
        owner=owner,
        game=deck.game,
        setup=plan.setup,
        seed=secrets.randbelow(2**31) if seed is None else seed,
        decks=[{"label": d.name, "deck": d.pk, "version": d.version} for d in seated],
        agent=agent,
        seat=list(plan.seats).index(0),
    )
    state = play_position(game)
    _agent_reply(game, state)
    with transaction.atomic():
        game.save()
    return game


def stale_position_words(seen: object, reached: int, how: str = "") -> str:
    """When a move was chosen, said to its player: "on an older position of the game" (``how``
    it may have happened, in brackets) or, for a position number past ``reached``, that the
    game has not reached it."""
    if type(seen) is int and seen > reached:
        return f"for position {seen}, which the game has not reached"
    return "on an older position of the game" + (f" ({how})" if how else "")


def _advance(
    owner: User,
    pk: int,
    version: int,
    step: Callable[[PlayedGame, State], None],
) -> PlayedGame:
    """Lock ``owner``'s game ``pk``, check it is still at ``version`` and active, replay its
    position, let ``step`` change it (it raises ``PlayRefused`` to refuse), then store it one
    version later. Nothing is stored when anything raises."""
    with transaction.atomic():
        game = (
            PlayedGame.objects.select_for_update()
            .select_related("game")
            .get(pk=pk, owner_id=owner.pk)
        )
        if game.version != version:
            when = stale_position_words(
                version, game.version, "sent twice, or played in another tab"
            )
            raise PlayConflict(
                f"This was chosen {when}: nothing was changed. The page now shows the game as "
                "it stands."
            )
        if game.status != PlayedGame.Status.ACTIVE:
            raise PlayRefused("This game is over: no more moves can be made.")
        step(game, play_position(game))
        game.version += 1
        game.save()
    return game


def play_move(*, owner: User, pk: int, index: int, version: int) -> PlayedGame:
    """Apply the player's legal action number ``index`` (0-based, of the legal actions at
    ``version``) to their game ``pk``, then the agent's reply. Raises ``PlayedGame.DoesNotExist``
    for a game that is not theirs, ``PlayConflict`` for a stale version and ``PlayRefused`` for
    a finished game or an index out of range; none of them changes the stored game."""

    def move(game: PlayedGame, state: State) -> None:
        if state.current_player() != game.seat:
            raise PlayRefused("It is not your turn to act.")
        legal = state.legal_actions()
        if not 0 <= index < len(legal):
            raise PlayRefused(
                f"Action {index} is not one of the {len(legal)} open to you here (0 to "
                f"{len(legal) - 1}): pick one of the buttons."
            )
        state.apply(legal[index])
        game.actions.append(str(legal[index]))
        _agent_reply(game, state)

    return _advance(owner, pk, version, move)


def play_continue(*, owner: User, pk: int, version: int) -> PlayedGame:
    """Let the agent go on with a reply it left unfinished (``MAX_REPLY_ACTIONS`` reached) in
    ``owner``'s game ``pk`` at ``version``. Raises as ``play_move`` does, and ``PlayRefused``
    when it is the player's turn (nothing to continue); none of them changes the stored game."""

    def go_on(game: PlayedGame, state: State) -> None:
        if state.current_player() == game.seat:
            raise PlayRefused("It is your turn: the AI has nothing to continue.")
        _agent_reply(game, state)

    return _advance(owner, pk, version, go_on)


def seat_names(game: PlayedGame, players: int) -> list[str]:
    """What the log and table call each seat: "You" for the player, the others by deck."""
    labels = [str(side.get("label", "")) for side in game.decks]
    names = []
    for seat in range(players):
        if seat == game.seat:
            names.append("You")
        else:
            label = labels[seat] if seat < len(labels) else ""
            names.append(f"{label} (AI)" if label else f"Seat {seat + 1} (AI)")
    return names


def events_for_player(state: State, seat: int) -> list[dict[str, Any]]:
    """The game's events as the player may read them: a card another seat drew into its hidden
    hand is not named."""
    events = []
    for event in state.event_log():
        record = event.as_dict()
        if record.get("kind") in PRIVATE_EVENTS and record.get("player") != seat:
            record = {key: value for key, value in record.items() if key != "card"}
        events.append(record)
    return events


def game_record(game: StoredGame, state: State) -> dict[str, Any]:
    """The stored game in the shape ``web.table.replay_table`` steps through."""
    return {
        "seed": game.seed,
        "setup": game.setup,
        "actions": [{"action": text} for text in game.actions],
        "events": [event.as_dict() for event in state.event_log()],
    }


def played_games_of(owner: User) -> Sequence[PlayedGame]:
    """The player's games, latest move first."""
    return list(PlayedGame.objects.filter(owner_id=owner.pk).select_related("game")[:50])


def result_words(game: PlayedGame) -> str:
    """How the game stands, in words."""
    if game.status == PlayedGame.Status.ACTIVE:
        return "in play"
    words: Mapping[str, str] = {"won": "you won", "lost": "you lost", "draw": "a draw"}
    plugin = find_plugin(game.game.slug)
    reason = plugin.words.end_reason(game.end_reason) if plugin and game.end_reason else ""
    return words.get(game.result, game.result) + (f" ({reason})" if reason else "")


def public_events(state: State) -> list[dict[str, Any]]:
    """The game's events as someone in no seat may read them (a spectator): no card drawn into
    any hidden hand is named."""
    events = []
    for event in state.event_log():
        record = event.as_dict()
        if record.get("kind") in PRIVATE_EVENTS:
            record = {key: value for key, value in record.items() if key != "card"}
        events.append(record)
    return events
