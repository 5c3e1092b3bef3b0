"""Play friends: open a table with your deck and the number of chairs (the game's players: two
rivals, two to four for Reign Absolute, a team of one to four for Reggae Revolution), send the
invite link, let friends (or the AI) take the free chairs, then play live (the page talks to
web/consumers.py over a WebSocket) and replay the game afterwards like any other.

The views are thin: ``tables.services`` opens tables, seats players and applies moves;
``web.friends`` builds what a seat is shown.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from urllib.parse import urlencode

from django.conf import settings
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from accounts.users import signed_in
from common.inputs import ParameterError, bounded_int
from decks.models import Deck
from decks.selectors import deck_list_visible_to
from rules.engines.core.table import PUBLIC
from rules.play import events_for_player, game_record, public_events
from tables.clocks import clock_now, table_settings_parse, table_settings_words
from tables.models import FriendTable
from tables.selectors import (
    friend_chairs,
    friend_result_words,
    friend_seat_names,
    friend_seat_of,
    friend_table_by_token,
    friend_table_get,
    friend_table_title,
    friend_waiting_words,
)
from tables.services import (
    TableRefused,
    friend_table_create,
    friend_table_fill_with_ai,
    friend_table_join,
    tables_deadlines_enforce,
)
from tables.spectators import (
    DELAYS,
    cards_revealed,
    reveal_after_set,
    spectator_check,
    spectator_choice,
    spectator_settings_set,
    visible_action_count,
)
from web.consumers import table_changed_notify
from web.friends import channel_layer_words, spectator_update_at, table_position, watching_words
from web.limits import heavy_page
from web.narration import narrated_log
from web.table import replay_table
from web.views import message_page
from web.views.play import FRIEND_DEFAULTS, home_page

if TYPE_CHECKING:
    from cards.models import Game
    from rules.engines.core import State


def _no_table(request: HttpRequest) -> HttpResponse:
    return message_page(
        request,
        "No such table",
        "There is no table here that you sit at. To join a friend's table, open their invite link.",
        status=404,
    )


def _posted_deck(request: HttpRequest, game: Game | None = None) -> Deck:
    """The deck of the form's ``deck`` field, one the user can see (of ``game`` when given);
    ``TableRefused`` otherwise, saying which."""
    try:
        pk = bounded_int(request.POST.get("deck"), name="deck")
    except ParameterError as error:
        raise TableRefused(str(error)) from error
    deck = deck_list_visible_to(request.user).filter(pk=pk).select_related("game").first()
    if deck is None:
        raise TableRefused("Pick a deck you can see.")
    if game is not None and deck.game_id != game.pk:
        raise TableRefused(
            f"{deck.name} is a {deck.game.name} deck, and this table plays {game.name}: pick a "
            f"{game.name} deck."
        )
    return deck


def _posted_chairs(request: HttpRequest) -> int | None:
    """The form's ``chairs`` (None when left out: the game's usual count)."""
    value = request.POST.get("chairs")
    if value in (None, ""):
        return None
    try:
        return bounded_int(value, name="chairs")
    except ParameterError as error:
        raise TableRefused(str(error)) from error


@login_required
@require_POST
@heavy_page("play_move")
def friend_new(request: HttpRequest) -> HttpResponse:
    """Open a table of the posted number of chairs with the posted deck of yours and settings
    (the AI taking over for a player away, a clock) and show its invite link (a table of one
    chair, a team of one, shows its game at once)."""
    try:
        settings_ = table_settings_parse(
            request.POST.get("takeover_after"),
            request.POST.get("clock_minutes"),
            request.POST.get("clock_increment"),
        )
        who, delay = spectator_choice(
            request.POST.get("spectators"), request.POST.get("spectator_delay")
        )
        table = friend_table_create(
            owner=signed_in(request.user),
            deck=_posted_deck(request),
            chairs=_posted_chairs(request),
            settings=settings_,
        )
    except TableRefused as error:
        # the /play/ form again, every choice kept, the reason beside the friend settings
        posted = {key: request.POST.get(key, "") for key in ("deck", *FRIEND_DEFAULTS)}
        try:
            deck: Deck | None = _posted_deck(request)
        except TableRefused:
            deck = None
        return home_page(
            request,
            deck.game.slug if deck is not None else "",
            posted=posted,
            errors={"friend": [str(error)]} if deck is not None else {"form": [str(error)]},
            status=400,
        )
    spectator_settings_set(table, spectators=who, delay=delay)
    return redirect("friend-table", pk=table.pk)


def _deadline_enforced(pk: int) -> None:
    """Act on the table's deadline if it passed (the AI taking over, a flag fall), telling its
    players, before it is shown."""
    if tables_deadlines_enforce(table_pk=pk):
        table_changed_notify(pk)


def _my_decks(request: HttpRequest, table: FriendTable) -> list[Deck]:
    return list(deck_list_visible_to(request.user, games=[table.game.slug]).order_by("name"))


@login_required
@require_safe
def friend_table_page(request: HttpRequest, pk: int) -> HttpResponse:
    """The table: every chair; while one is free, the invite link (and the AI to fill free
    chairs); then the live game from your seat (the page's script connects to its WebSocket)."""
    _deadline_enforced(pk)
    table = friend_table_get(pk)
    seat = friend_seat_of(table, signed_in(request.user)) if table is not None else None
    if table is None or seat is None:
        return _no_table(request)
    return _table_page(request, table, seat)


def _table_page(request, table, seat, *, error: str = "", status: int = 200) -> HttpResponse:
    context = {
        "table": table,
        "seat": seat,
        "seats": list(table.seats.all()),
        "title": friend_table_title(table),
        "chairs": friend_chairs(table, seat),
        "waiting_words": friend_waiting_words(table),
        "free": table.chairs - len(table.seats.all()),
        "error": error,
        "result": friend_result_words(table, seat),
        "layer_words": channel_layer_words(),
        "settings_words": table_settings_words(table),
        "socket_url": f"{settings.WEBSOCKET_URL}/ws/play/friends/{table.pk}/",
        "invite_url": request.build_absolute_uri(reverse("friend-join", args=[table.invite_token])),
        "watch_url": _watch_url(request, table),
        "watching": watching_words(table),
        "delay_words": DELAYS.get(table.spectator_delay, f"{table.spectator_delay} seconds"),
    }
    if table.status == FriendTable.Status.WAITING and table.owner_id == request.user.pk:
        context["decks"] = _my_decks(request, table)
    return render(request, "web/friend_table.html", context, status=status)


def _replay_steps(
    request: HttpRequest,
    table: FriendTable,
    state: State,
    log: list[dict[str, Any]],
    names: list[str],
    viewer: int | str | None,
) -> dict[str, Any]:
    """The step of ``log`` the request asks for (``?step=``; the last by default) and the table
    at it as ``viewer`` sees it: what ``_replay_steps.html`` reads, for players and spectators."""
    total = len(log)
    try:
        step = bounded_int(request.GET.get("step") or str(total), name="step")
    except ParameterError:
        step = total
    step = min(max(step, 1), max(total, 1))
    record = game_record(table, state)
    view = replay_table(table.game.slug, record, step, names, viewer) if total else None
    return {
        "view": view,
        "current": log[step - 1] if total else None,
        "step": step,
        "total": total,
        "previous_step": max(step - 1, 1),
        "next_step": min(step + 1, total),
    }


@require_safe
@heavy_page("replay")
def friend_watch_replay(request: HttpRequest, pk: int, token: str = "") -> HttpResponse:
    """A spectator's replay of a finished table (once its delay has passed): every hand open
    when every seated person agreed, otherwise only what was public."""
    table = friend_table_get(pk)
    try:
        spectator_check(table, token)
    except TableRefused as error:
        return message_page(request, "You cannot watch this table", str(error), status=404)
    assert table is not None
    over = table.status == FriendTable.Status.FINISHED
    if not over or visible_action_count(table, clock_now().timestamp()) < len(table.actions):
        return message_page(
            request,
            "The replay is not open yet",
            "Spectators can replay a game once it is over and the table's delay has passed.",
            status=404,
        )
    slug = table.game.slug
    state = table_position(table)
    opened = cards_revealed(table)
    names = friend_seat_names(table, None)
    events = [e.as_dict() for e in state.event_log()] if opened else public_events(state)
    log = narrated_log(slug, events, names)
    context = {
        "table": table,
        **_replay_steps(request, table, state, log, names, None if opened else PUBLIC),
        "result": friend_result_words(table, None),
        "finished": opened,
        "public_replay": not opened,
        "watch_url": reverse("friend-watch", args=[pk, token])
        if token
        else reverse("friend-watch-public", args=[pk]),
    }
    return render(request, "web/friend_watch_replay.html", context)


def _watch_url(request: HttpRequest, table: FriendTable) -> str:
    """The spectator link of the table ('' when nobody may watch)."""
    if table.spectators == FriendTable.Spectators.NONE:
        return ""
    if table.spectators == FriendTable.Spectators.PUBLIC:
        return request.build_absolute_uri(reverse("friend-watch-public", args=[table.pk]))
    return request.build_absolute_uri(
        reverse("friend-watch", args=[table.pk, table.spectator_token])
    )


@login_required
@require_POST
def friend_reveal(request: HttpRequest, pk: int) -> HttpResponse:
    """Your seat's choice: show your cards to spectators (and the players) after the game."""
    table = friend_table_get(pk)
    seat = friend_seat_of(table, signed_in(request.user)) if table is not None else None
    if table is None or seat is None:
        return _no_table(request)
    reveal_after_set(
        table_pk=pk, user=signed_in(request.user), reveal=request.POST.get("reveal") == "on"
    )
    table_changed_notify(pk)  # spectators of a finished game may now see every hand
    return redirect("friend-table", pk=pk)


@require_safe
@heavy_page("replay")
def friend_watch(request: HttpRequest, pk: int, token: str = "") -> HttpResponse:
    """Watch a table as a spectator, by its spectator link (or without one when anyone may
    watch): the game as it stood the table's delay ago, showing only what no player holds
    privately, kept live by a WebSocket. Nobody needs to sign in."""
    table = friend_table_get(pk)
    try:
        spectator_check(table, token)
    except TableRefused as error:
        return message_page(request, "You cannot watch this table", str(error), status=404)
    assert table is not None
    query = f"?{urlencode({'token': token})}" if token else ""
    replay = (
        reverse("friend-watch-replay", args=[pk, token])
        if token
        else reverse("friend-watch-replay-public", args=[pk])
    )
    context = {
        "table": table,
        "seats": list(table.seats.all()),
        "delay_words": DELAYS.get(table.spectator_delay, f"{table.spectator_delay} seconds"),
        "socket_url": f"{settings.WEBSOCKET_URL}/ws/play/friends/{table.pk}/watch/{query}",
        "html": spectator_update_at(table, clock_now().timestamp())[0]["html"]
        if table.seed is not None
        else "",
        "replay_url": replay,
    }
    return render(request, "web/friend_watch.html", context)


@login_required
@require_POST
@heavy_page("play_move")
def friend_ai(request: HttpRequest, pk: int) -> HttpResponse:
    """Seat the AI with the posted deck in the first free chair of your table (``every``: in
    every free chair); the game starts when no chair is left free."""
    table = friend_table_get(pk)
    seat = friend_seat_of(table, signed_in(request.user)) if table is not None else None
    if table is None or seat is None:
        return _no_table(request)
    try:
        friend_table_fill_with_ai(
            table_pk=pk,
            owner=signed_in(request.user),
            deck=_posted_deck(request, table.game),
            every=request.POST.get("every") == "1",
        )
    except TableRefused as error:
        return _table_page(request, friend_table_get(pk), seat, error=str(error), status=400)
    table_changed_notify(pk)
    return redirect("friend-table", pk=pk)


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def friend_join(request: HttpRequest, token: str) -> HttpResponse:
    """The invite link: pick one of your decks and take the first free chair."""
    table = friend_table_by_token(token)
    if table is None:
        return message_page(
            request, "No such invite", "This invite link opens no table.", status=404
        )
    if friend_seat_of(table, signed_in(request.user)) is not None:
        return redirect("friend-table", pk=table.pk)
    error, status = "", 200
    if request.method == "POST":
        try:
            friend_table_join(
                table_pk=table.pk,
                token=token,
                user=signed_in(request.user),
                deck=_posted_deck(request, table.game),
            )
        except TableRefused as error_:
            error, status = str(error_), 400
        else:
            table_changed_notify(table.pk)  # the opener's page, waiting, shows the game
            return redirect("friend-table", pk=table.pk)
    context = {
        "table": friend_table_get(table.pk),
        "token": token,
        "decks": _my_decks(request, table),
        "error": error,
        "full": table.status != FriendTable.Status.WAITING,
        "chairs": friend_chairs(table, None),
        "waiting_words": friend_waiting_words(table),
    }
    return render(request, "web/friend_join.html", context, status=status)


@login_required
@require_safe
@heavy_page("replay")
def friend_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a table's game as a game against the AI is replayed (``play_replay``):
    every hand open once it is over, from your seat while it is in play."""
    _deadline_enforced(pk)
    table = friend_table_get(pk)
    seat = friend_seat_of(table, signed_in(request.user)) if table is not None else None
    if table is None or seat is None:
        return _no_table(request)
    if table.seed is None:
        return _table_page(request, table, seat)
    slug = table.game.slug
    state = table_position(table)
    finished = table.status == FriendTable.Status.FINISHED
    opened = cards_revealed(table)
    names = friend_seat_names(table, seat)
    viewer = int(seat.engine_seat or 0)
    events = [e.as_dict() for e in state.event_log()] if opened else None
    log = narrated_log(slug, events or events_for_player(state, viewer), names)
    context = {
        "table": table,
        "title": friend_table_title(table),
        **_replay_steps(request, table, state, log, names, None if opened else viewer),
        "result": friend_result_words(table, seat),
        "finished": opened,  # every hand open (_replay_steps.html says so)
        "over": finished,
        "hidden_after": finished and not opened,
    }
    return render(request, "web/friend_replay.html", context)
