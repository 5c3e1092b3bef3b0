"""What changes a friend table: create it with the number of chairs its opener picked, take a
chair (a person or the AI), start the game when the last chair is taken, and apply a seat's
move (then the AI's and chance's) after checking it, all in one place. Every refusal is
``TableRefused`` with a message for the player, raised before anything is stored (or in the
transaction that stores it, which it undoes)."""

from __future__ import annotations

import secrets
from datetime import datetime
from typing import TYPE_CHECKING

from django.db import transaction

from decks.selectors import deck_validate
from rules.engines.core import CHANCE, GamePlugin, SetupError, State, find_plugin
from rules.matchups import PlayRefused, deck_cards, play_setup_check, seat_plan
from rules.play import MAX_REPLY_ACTIONS, play_position, stale_position_words
from tables import clocks
from tables.clocks import TableSettings
from tables.errors import StaleMove, TableRefused
from tables.models import FriendSeat, FriendTable
from tables.spectators import stamp_action_times

if TYPE_CHECKING:
    from collections.abc import Sequence

    from django.contrib.auth.models import User

    from decks.models import Deck

#: the agent of an AI chair until the game starts and its level is picked for the decks dealt
AI_TO_PICK = "ai"
#: tables one ``tables_deadlines_enforce`` call acts on at most (the rest on the next call)
ENFORCE_BATCH = 500


def _deck_checked(deck: Deck, game_id: int) -> None:
    """Refuse a deck of another game, or one its game's rules do not allow (with the reasons)."""
    if deck.game_id != game_id:
        raise TableRefused(f"{deck.name} is a deck of another game.")
    report = deck_validate(deck)
    if not report.legal:
        reasons = "; ".join(str(violation.message) for violation in report.violations)
        raise TableRefused(f"{deck.name} is not a legal deck: {reasons}")


def _seat_deck(seat: FriendSeat, deck: Deck) -> None:
    seat.deck = deck
    seat.label = deck.name
    seat.deck_version = deck.version


def friend_table_chairs(plugin: GamePlugin) -> range:
    """The numbers of chairs a table of ``plugin``'s game may have: its players by the rulebook
    (the decks it seats, one a person; a co-operative game's team sizes)."""
    low, high = plugin.min_decks, plugin.max_decks
    if plugin.team_sizes:
        low, high = max(low, min(plugin.team_sizes)), min(high, max(plugin.team_sizes))
    return range(low, high + 1)


def _chairs_checked(plugin: GamePlugin, chairs: object) -> int:
    """``chairs`` if the game seats that many players; ``TableRefused`` saying the range else."""
    allowed = friend_table_chairs(plugin)
    if allowed.start == allowed.stop - 1:
        players = f"{allowed.start} player{'s' if allowed.start > 1 else ''}"
    else:
        players = f"{allowed.start} to {allowed.stop - 1} players"
    if plugin.cooperative:
        players = f"a team of {players}"
    if type(chairs) is not int or chairs not in allowed:
        raise TableRefused(
            f"{plugin.name} is played by {players}: a table of {chairs} chairs cannot be opened."
        )
    return chairs


def friend_table_create(
    *,
    owner: User,
    deck: Deck,
    chairs: int | None = None,
    settings: TableSettings | None = None,
) -> FriendTable:
    """A table of ``deck``'s game with ``chairs`` chairs (None: the game's fewest players, two at
    least where the game allows) and ``owner`` in chair 0 playing ``deck``, waiting for friends
    (or the AI) in the others; a table of one chair (a co-operative team of one) starts at once.
    ``settings`` (``tables.clocks.table_settings_parse``) say when the AI plays for a player
    away and give the clock (None: the AI never takes over, no clock). Refuses a game
    without an engine, a number of chairs the game does not seat, and an illegal deck."""
    plugin = find_plugin(deck.game.slug)
    if plugin is None or not plugin.has_table:
        raise TableRefused(f"{deck.game.name} cannot be played at a table here yet.")
    if chairs is None:
        allowed = friend_table_chairs(plugin)
        chairs = 2 if 2 in allowed else allowed.start
    chairs = _chairs_checked(plugin, chairs)
    _deck_checked(deck, deck.game_id)
    with transaction.atomic():
        settings = settings or clocks.TableSettings()
        table = FriendTable.objects.create(
            game=deck.game,
            owner=owner,
            chairs=chairs,
            takeover_after=settings.takeover_after,
            clock_seconds=settings.clock_seconds,
            clock_increment=settings.clock_increment,
        )
        seat = FriendSeat(table=table, chair=0, user=owner)
        _seat_deck(seat, deck)
        seat.save()
        if chairs == 1:
            _start(table)
    return table


def _locked(pk: int) -> FriendTable:
    return FriendTable.objects.select_for_update().select_related("game").get(pk=pk)


def friend_table_join(*, table_pk: int, token: str, user: User, deck: Deck) -> FriendTable:
    """Seat ``user`` with ``deck`` in the first free chair of the table the invite ``token``
    opens; the game starts when that was the last one. Refuses a wrong token, a full table, a
    second chair for someone seated, an illegal deck and one the decks seated cannot play with
    (two Reign Absolute decks of one faction)."""
    with transaction.atomic():
        table = _locked(table_pk)
        if not secrets.compare_digest(table.invite_token, token):
            raise TableRefused("This invite link is not valid for this table.")
        if table.seats.filter(user_id=user.pk).exists():
            raise TableRefused("You are already at this table: send the link to your friends.")
        _deck_checked(deck, table.game_id)
        _take_free_chairs(table, user=user, agent="", deck=deck, count=1)
    return table


def friend_table_fill_with_ai(
    *, table_pk: int, owner: User, deck: Deck, every: bool = False
) -> FriendTable:
    """Let the AI (the game's default level) take the first free chair of ``owner``'s table with
    ``deck`` (``every``: every free chair, each with ``deck``); the game starts when the last
    chair is taken."""
    with transaction.atomic():
        table = _locked(table_pk)
        if table.owner_id != owner.pk:
            raise TableRefused("Only the player who opened the table can seat the AI.")
        _deck_checked(deck, table.game_id)
        _take_free_chairs(
            table, user=None, agent=AI_TO_PICK, deck=deck, count=table.chairs if every else 1
        )
    return table


def _take_free_chairs(
    table: FriendTable, *, user: User | None, agent: str, deck: Deck, count: int
) -> None:
    """Seat ``deck`` in the first ``count`` free chairs (fewer when fewer are free); check the
    decks seated can play together, and start the game once no chair is free."""
    if table.status != FriendTable.Status.WAITING:
        raise TableRefused("Every chair of this table is taken.")
    taken = {seat.chair for seat in table.seats.all()}
    free = [chair for chair in range(table.chairs) if chair not in taken][:count]
    if not free:
        raise TableRefused("Every chair of this table is taken.")
    for chair in free:
        seat = FriendSeat(table=table, chair=chair, user=user, agent=agent)
        _seat_deck(seat, deck)
        seat.save()
    if len(taken) + len(free) == table.chairs:
        _start(table)
    else:
        _decks_together_checked(table)


def _seated_decks(table: FriendTable) -> tuple[list[FriendSeat], list[Deck]]:
    seats = list(table.seats.select_related("deck", "deck__game").order_by("chair"))
    decks = [seat.deck for seat in seats if seat.deck is not None]
    if len(decks) < len(seats):
        raise TableRefused("A deck of this table was deleted: open a new table.")
    return seats, decks


def _decks_together_checked(table: FriendTable) -> None:
    """Refuse, before the table fills, decks the game's setup already cannot seat together."""
    plugin = find_plugin(table.game.slug)
    _, decks = _seated_decks(table)
    if plugin is None or len(decks) < plugin.min_decks:
        return
    try:
        seat_plan(table.game.slug, [deck_cards(d) for d in decks], players=len(decks), first=None)
    except SetupError as error:
        raise TableRefused(f"These decks cannot play together: {error}") from error


def _ai_level(slug: str, setup: dict) -> str:
    """The game's default AI (the middle difficulty level, as /play/ offers first), or the first
    level or agent that can play a setup hiding cards."""
    plugin = find_plugin(slug)
    assert plugin is not None
    levels = list(plugin.difficulty_levels)
    middle = levels[len(levels) // 2 :] + levels[: len(levels) // 2]
    for name in [*middle, *plugin.matchup_agents]:
        try:
            play_setup_check(slug, setup, [name])
        except PlayRefused:
            continue
        return name
    raise TableRefused(f"No AI of {plugin.name} can play these decks.")


def _start(table: FriendTable) -> None:
    """Seat the decks as the game's rules do (one player a chair; the rulebook's first player:
    ``first=None``), deal, and let the AI and chance play until a person is to move."""
    seats, decks = _seated_decks(table)
    slug = table.game.slug
    try:
        cards = [deck_cards(deck) for deck in decks]
        plan = seat_plan(slug, cards, players=len(decks), first=None)
        names = [decks[index].name for index in plan.seats]
        play_setup_check(slug, plan.setup, ["random"] * len(seats), names)
    except (SetupError, PlayRefused) as error:
        raise TableRefused(f"These decks cannot play together: {error}") from error
    for engine_seat, chair in enumerate(plan.seats):
        seat = seats[chair]
        seat.engine_seat = engine_seat
        if seat.agent:
            seat.agent = _ai_level(slug, plan.setup)
        seat.save()
    table.setup = plan.setup
    table.seed = secrets.randbelow(2**31)
    table.status = FriendTable.Status.ACTIVE
    state = play_position(table)
    _machine_moves(table, state, {s.engine_seat: s.agent for s in seats if s.agent})
    clocks.clocks_start(table, seats)
    now = clocks.clock_now()
    clocks.turn_begin(table, state, seats, now)
    stamp_action_times(table, now.timestamp())
    table.save()


def _machine_moves(table: FriendTable, state: State, agents: dict[int | None, str]) -> None:
    """Let chance and the AI seats (``agents``: engine seat -> level) act until a person is to
    move or the game ends, appending each action; record the result once it is over."""
    from rules.services import agent_spec

    slug = table.game.slug
    for _ in range(MAX_REPLY_ACTIONS):
        if state.is_terminal():
            break
        player = state.current_player()
        if player == CHANCE:
            action = state.sample_chance()
        elif player in agents:
            agent = agent_spec(agents[player], slug)(
                (int(table.seed or 0) + len(table.actions)) & 0xFFFFFFFF
            )
            action = agent.act(state)
        else:
            break
        state.apply(action)
        table.actions.append(str(action))
    if state.is_terminal():
        table.status = FriendTable.Status.FINISHED
        table.winner = state.winner()
        table.end_reason = state.end_reason() or ""


def friend_table_move(
    *,
    table_pk: int,
    user: User,
    index: object,
    seen: object,
    now: datetime | None = None,
) -> FriendTable:
    """Apply the legal action number ``index`` (of the legal actions after ``seen`` actions)
    for ``user``'s seat, then the AI's and chance's replies. Refuses, changing nothing: a user
    not seated here, a finished or waiting table, a stale ``seen`` (``StaleMove``), a move out
    of turn, an ``index`` that is not one of the legal actions (a forged move), and a move
    after the seat's clock ran out. The seat's clock is charged up to ``now``
    (``tables.clocks``)."""
    now = now or clocks.clock_now()
    with transaction.atomic():
        table = _locked(table_pk)
        seats = list(table.seats.all())
        mine = next((s for s in seats if s.user_id is not None and s.user_id == user.pk), None)
        if mine is None:
            raise TableRefused("You are not seated at this table.")
        if table.status == FriendTable.Status.WAITING:
            raise TableRefused("The game has not started: a chair is still free.")
        if table.status == FriendTable.Status.FINISHED:
            raise TableRefused("This game is over: no more moves can be made.")
        if type(seen) is not int or seen != len(table.actions):
            when = stale_position_words(seen, len(table.actions))
            raise StaleMove(
                f"This move was chosen {when}: nothing was changed. The table now shows the "
                "game as it stands."
            )
        state = play_position(table)
        if state.current_player() != mine.engine_seat:
            raise TableRefused("It is not your turn to act: nothing was changed.")
        legal = state.legal_actions()
        if type(index) is not int or not 0 <= index < len(legal):
            raise TableRefused("That is not one of your legal moves: nothing was changed.")
        clocks.clock_charge(table, mine, now)
        state.apply(legal[index])
        table.actions.append(str(legal[index]))
        _machine_moves(table, state, seat_agents(table, seats))
        clocks.turn_end(table, state, seats, mine, now)
        stamp_action_times(table, now.timestamp())
        table.save()
    return table


def seat_agents(table: FriendTable, seats: Sequence[FriendSeat]) -> dict[int | None, str]:
    """Who the AI plays, engine seat -> level: the AI's chairs, and the people it stands in for
    (at the level the table's AI would play)."""
    agents: dict[int | None, str] = {s.engine_seat: s.agent for s in seats if s.agent}
    standing = [s for s in seats if not s.agent and (s.stand_in or s.flagged)]
    if standing:
        level = _ai_level(table.game.slug, table.setup or {})
        agents.update({s.engine_seat: level for s in standing})
    return agents


def _ai_can_play(table: FriendTable) -> bool:
    try:
        _ai_level(table.game.slug, table.setup or {})
    except TableRefused:
        return False
    return True


def _table_enforce(table_pk: int, now: datetime) -> bool:
    """Act on one table if a deadline passed (``tables.clocks.deadline_act``: a flag fall, or
    the AI taking over), then let the AI and chance move; True when the table changed."""
    with transaction.atomic():
        table = _locked(table_pk)
        if table.status != FriendTable.Status.ACTIVE or table.deadline_at is None:
            return False
        if table.deadline_at > now:
            return False
        seats = list(table.seats.select_related("user"))
        if not clocks.deadline_act(table, seats, now, lambda: _ai_can_play(table)):
            table.save(update_fields=["takeover_after", "deadline_at"])
            return False
        state = play_position(table)
        if table.status == FriendTable.Status.ACTIVE:
            _machine_moves(table, state, seat_agents(table, seats))
        clocks.turn_begin(table, state, seats, now)
        stamp_action_times(table, now.timestamp())
        table.save()
    return True


def tables_deadlines_enforce(
    now: datetime | None = None, *, table_pk: int | None = None
) -> list[int]:
    """Act on every active table past its deadline (only ``table_pk`` when given): flag falls
    and AI takeovers. Returns the tables that changed (their players are to be told)."""
    now = now or clocks.clock_now()
    due = FriendTable.objects.filter(status=FriendTable.Status.ACTIVE, deadline_at__lte=now)
    if table_pk is not None:
        due = due.filter(pk=table_pk)
    pks = list(due.order_by("deadline_at").values_list("pk", flat=True)[:ENFORCE_BATCH])
    return [pk for pk in pks if _table_enforce(pk, now)]
