"""Play against the AI: pick a game, your deck, an opponent deck and an agent; play the whole
game from your seat (only your observation reaches the page), resume it later, replay it.

The views are thin: ``rules.play`` starts games, applies moves and replays stored actions.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.views.decorators.http import require_POST, require_safe

from accounts.users import signed_in
from cards.vocabulary import game_slug_named
from common.inputs import ParameterError, bounded_int
from decks.selectors import deck_list_visible_to
from rules.engines.core import find_plugin
from rules.engines.core.narration import CardRef
from rules.matchups import (
    PlayRefused,
    agent_label,
    agents_needing_open_play,
    agents_offered,
    decks_facing,
    decks_hiding,
    levels_offered,
)
from rules.models import PlayedGame
from rules.play import (
    PlayConflict,
    events_for_player,
    game_record,
    play_continue,
    play_move,
    play_position,
    play_start,
    played_games_of,
    result_words,
    seat_names,
)
from tables.clocks import TAKEOVER_CHOICES
from tables.selectors import (
    friend_result_words,
    friend_seat_of,
    friend_table_title,
    friend_tables_of,
)
from tables.services import friend_table_chairs
from tables.spectators import DELAYS
from web.limits import heavy_page
from web.matchups import matchup_plugins
from web.narration import card_pages, narrated_log
from web.table import replay_table, table_for
from web.views import message_page


def _not_found(request: HttpRequest) -> HttpResponse:
    return message_page(
        request, "No such game", "There is no game here that you are playing.", status=404
    )


@login_required
@require_safe
def play_home(request: HttpRequest) -> HttpResponse:
    """Your games (resume or replay) and the form that starts a new one (``deck``: the deck of
    yours it picks first)."""
    picked = {"deck": request.GET["deck"]} if request.GET.get("deck") else None
    # slug, short name or name, as the API reads it
    slug = game_slug_named(request.GET.get("game", ""))
    if slug and slug not in {plugin.slug for plugin in matchup_plugins()}:
        # a mistyped or old link: say so above the game picker rather than show it silently
        text = f"There is no game {slug[:40]!r} to play here: pick one of these."
        return home_page(request, "", errors={"game": [text]}, status=400)
    return home_page(request, slug, posted=picked)


#: the form's field of each part of a refusal (``PlayRefused.field``)
FORM_FIELDS = {"deck_a": "deck", "deck_b": "opponent", "agent": "agent"}


#: the friend-table settings of the /play/ form, with what it offers first
FRIEND_DEFAULTS = {
    "chairs": "2",
    "takeover_after": "120",
    "clock_minutes": "",
    "clock_increment": "0",
    "spectators": "none",
    "spectator_delay": "0",
}


#: the choices of the friend-table settings, (value, words), from what the tables accept
TAKEOVER_OFFERED = tuple(
    ("never" if seconds is None else str(seconds), words) for seconds, words in TAKEOVER_CHOICES
)
SPECTATORS_OFFERED = (
    ("none", "Nobody"),
    ("link", "Who has the spectator link"),
    ("public", "Anyone"),
)
DELAYS_OFFERED = tuple(
    (str(seconds), "as it is played" if not seconds else f"{words} behind")
    for seconds, words in DELAYS.items()
)


def home_page(
    request: HttpRequest,
    slug: str,
    *,
    posted: dict[str, str] | None = None,
    errors: dict[str, list[str]] | None = None,
    status: int = 200,
) -> HttpResponse:
    """The /play/ page for game ``slug``: the form keeps what was ``posted`` (the friend-table
    settings of ``FRIEND_DEFAULTS`` too) and says each of ``errors`` beside its field (key
    ``form`` for the whole form, ``friend`` for the friend-table settings)."""
    user = signed_in(request.user)
    plugins = matchup_plugins()
    plugin = find_plugin(slug) if slug else None
    context: dict[str, Any] = {
        "games": [(p.slug, p.name) for p in plugins],
        "plugin": plugin,
        "played": [(game, result_words(game)) for game in played_games_of(user)],
        "friend_tables": [
            (
                table,
                friend_table_title(table),
                friend_result_words(table, friend_seat_of(table, user)),
            )
            for table in friend_tables_of(user)
        ],
        "errors": errors or {},
        "friend": {key: (posted or {}).get(key, value) for key, value in FRIEND_DEFAULTS.items()},
        "takeover_choices": TAKEOVER_OFFERED,
        "spectator_choices": SPECTATORS_OFFERED,
        "delay_choices": DELAYS_OFFERED,
    }
    if plugin is not None:
        decks = list(deck_list_visible_to(request.user, games=[plugin.slug]).order_by("name"))
        facing = decks_facing(decks)
        hiding = decks_hiding(decks, facing)
        posted = posted or {}
        deck = _picked(posted.get("deck"), [d.pk for d in decks])
        if deck is None and decks:
            # the first deck that can face a deck (itself included), else the first deck
            deck = next((d.pk for d in decks if facing[d.pk]), decks[0].pk)
        opponents = facing.get(deck, []) if deck is not None else []
        opponent = _picked(posted.get("opponent"), [d.pk for d in decks])
        if opponent is None and "opponent" not in posted and opponents:
            # another deck than yours where there is one
            opponent = next((pk for pk in opponents if pk != deck), opponents[0])
        context["decks"] = [
            {"deck": d, "facing": " ".join(str(pk) for pk in facing[d.pk]), "hides": d.pk in hiding}
            for d in decks
        ]
        context["needs_open"] = agents_needing_open_play(plugin)
        context["needs_open_list"] = sorted(context["needs_open"])
        context["deck_hides"] = deck in hiding
        context["deck_picked"] = deck
        context["opponent_picked"] = opponent
        context["opponents_offered"] = set(opponents)
        context["friend_chairs"] = list(friend_table_chairs(plugin))
        context["agents"] = agents_offered(plugin)
        context["levels"] = levels_offered(plugin)
        levels = list(plugin.difficulty_levels)
        default = levels[len(levels) // 2] if levels else ""
        if deck in hiding and default in context["needs_open"]:
            # the deck's games hide tiles: the first level that plays them
            names = [*levels, *plugin.matchup_agents]
            default = next((n for n in names if n not in context["needs_open"]), default)
        context["default_level"] = posted.get("agent") or default
    return render(request, "web/play_home.html", context, status=status)


def _picked(value: str | None, known: list[int]) -> int | None:
    """The deck id posted, if it is one of ``known``."""
    try:
        pk = int(value or "")
    except ValueError:
        return None
    return pk if pk in known else None


@login_required
@require_POST
@heavy_page("play_move")
def play_new(request: HttpRequest) -> HttpResponse:
    """Start a game with the decks and agent posted and show it; a refusal is said beside the
    field it is about, on the form again (400)."""
    posted = {key: request.POST.get(key, "") for key in ("deck", "opponent", "agent")}
    visible = deck_list_visible_to(request.user)
    try:
        deck_id = bounded_int(posted["deck"], name="deck")
    except ParameterError as error:
        return home_page(request, "", errors={"deck": [str(error)]}, status=400)
    deck = visible.filter(pk=deck_id).select_related("game").first()
    if deck is None:
        return home_page(request, "", errors={"deck": ["Pick a deck you can see."]}, status=400)
    slug = deck.game.slug

    def refused(field: str, text: str) -> HttpResponse:
        return home_page(request, slug, posted=posted, errors={field: [text]}, status=400)

    opponent = None
    if posted["opponent"]:
        try:
            opponent_id = bounded_int(posted["opponent"], name="opponent")
        except ParameterError as error:
            return refused("opponent", str(error))
        opponent = visible.filter(pk=opponent_id).first()
        if opponent is None:
            return refused("opponent", "Pick a deck you can see.")
    try:
        game = play_start(
            owner=signed_in(request.user), deck=deck, opponent=opponent, agent=posted["agent"]
        )
    except PlayRefused as error:
        return refused(FORM_FIELDS.get(error.field, "form"), str(error))
    return redirect("play-game", pk=game.pk)


def _owned(request: HttpRequest, pk: int) -> PlayedGame | None:
    return PlayedGame.objects.select_related("game").filter(pk=pk, owner_id=request.user.pk).first()


def _choices(
    game: PlayedGame, state: Any, table: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """The player's legal actions as buttons (per action its index, its words and the picks
    on ``table`` it is taken by: ``path``) and the control chips those paths use."""
    if game.status != PlayedGame.Status.ACTIVE:
        return [], []
    return seat_choices(game.game.slug, state, game.seat, table)


def seat_choices(
    slug: str, state: Any, seat: int, table: dict[str, Any] | None
) -> tuple[list[dict[str, Any]], list[dict[str, str]]]:
    """Seat ``seat``'s legal actions as buttons and the control chips their paths use (see
    ``_choices``); none when it is not that seat's turn (also a friend table's, web/friends.py)."""
    if state.is_terminal() or state.current_player() != seat:
        return [], []
    plugin = find_plugin(slug)
    if plugin is None:
        return [], []
    pages = card_pages(slug)
    actions = state.legal_actions()
    paths = plugin.click_paths(state, seat, table) if table is not None else []
    choices: list[dict[str, Any]] = []
    controls: dict[str, str] = {}
    for index, action in enumerate(actions):
        words = []
        for part in plugin.action_words(state, action):
            if isinstance(part, CardRef):
                card = pages.get(part.key)
                words.append(card.name if card is not None else part.name)
            else:
                words.append(part)
        choice = {"index": index, "text": "".join(words), "path": ""}
        if index < len(paths):
            path, labels = paths[index]
            choice["path"] = " ".join(path)
            for pick, label in labels.items():
                controls.setdefault(pick, label)
        choices.append(choice)
    return choices, [{"pick": pick, "label": label} for pick, label in controls.items()]


@login_required
@require_safe
def play_game(request: HttpRequest, pk: int) -> HttpResponse:
    """The game from your seat: the table, your choices as buttons, the log so far."""
    game = _owned(request, pk)
    if game is None:
        return _not_found(request)
    return _game_page(request, game)


def _game_page(request: HttpRequest, game: PlayedGame, status: int = 200, error: str = "") -> Any:
    slug = game.game.slug
    state = play_position(game)
    players = len(state.returns())
    names = seat_names(game, players)
    log = narrated_log(slug, events_for_player(state, game.seat), names)
    table = table_for(slug, state, game.seat, names)
    choices, controls = _choices(game, state, table)
    context = {
        "game": game,
        "name": game.game.name,
        "table": table,
        "beside_choices": beside_choices(table),
        "hand": hand_in_bar(slug, table) if choices else [],
        "choices": choices,
        "controls": controls,
        "log": [group for group in log if group["lines"]],
        "result": result_words(game),
        "error": error,
        "waiting": game.status == PlayedGame.Status.ACTIVE and state.current_player() != game.seat,
        "ai_label": agent_label(game.agent, slug),
        "reply_seconds": f"{(game.reply_ms or 0) / 1000:.1f}",
    }
    return render(request, "web/play_game.html", context, status=status)


def beside_choices(table: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The zones of the player's own seat holding what their open decision is about (the unit
    they are placing), shown again next to their choices."""
    if table is None:
        return []
    return [
        {**zone, "dom_id": f"{zone['dom_id']}-choices"}  # the page shows the zone twice
        for seat in table["seats"]
        if seat.get("viewer")
        for zone in seat["zones"]
        if zone.get("beside_choices")
    ]


def hand_in_bar(slug: str, table: dict[str, Any] | None) -> list[dict[str, Any]]:
    """The player's hand zones (``GamePlugin.hand_zones``), taken out of their seat on the
    table to sit in the sticky bar beside the choices."""
    plugin = find_plugin(slug)
    if table is None or plugin is None:
        return []
    found = []
    for seat in table["seats"]:
        if not seat.get("viewer"):
            continue
        for zone in seat["zones"]:
            if zone["id"] in plugin.hand_zones:
                zone["in_bar"] = True  # the table leaves it out
                found.append(zone)
    return found


@login_required
@require_POST
@heavy_page("play_move")
def play_action(request: HttpRequest, pk: int) -> HttpResponse:
    """Play one of your legal actions (its index, at the game's version); the agent replies."""
    return _versioned_post(
        request,
        pk,
        lambda version, index: play_move(
            owner=signed_in(request.user), pk=pk, index=index, version=version
        ),
        with_action=True,
    )


@login_required
@require_POST
@heavy_page("play_move")
def play_continue_view(request: HttpRequest, pk: int) -> HttpResponse:
    """Let the AI finish a reply it left unfinished (a reply is cut at ``MAX_REPLY_ACTIONS``)."""
    return _versioned_post(
        request,
        pk,
        lambda version, _: play_continue(owner=signed_in(request.user), pk=pk, version=version),
    )


def _versioned_post(
    request: HttpRequest,
    pk: int,
    change: Callable[[int, int], PlayedGame],
    *,
    with_action: bool = False,
) -> HttpResponse:
    """Read the form's ``version`` (and ``action``), make ``change``, and answer as a move is
    answered: back to the game, or its page with a 400/409 saying why, or a 404."""
    try:
        index = bounded_int(request.POST.get("action"), name="action") if with_action else 0
        version = bounded_int(request.POST.get("version"), name="version")
    except ParameterError as error:
        game = _owned(request, pk)
        if game is None:
            return _not_found(request)
        return _game_page(request, game, 400, str(error))
    try:
        change(version, index)
    except PlayedGame.DoesNotExist:
        return _not_found(request)
    except PlayConflict as error:
        return _game_page(request, _owned(request, pk), 409, str(error))  # type: ignore[arg-type]
    except PlayRefused as error:
        return _game_page(request, _owned(request, pk), 400, str(error))  # type: ignore[arg-type]
    return redirect("play-game", pk=pk)


@login_required
@require_safe
@heavy_page("replay")
def play_replay(request: HttpRequest, pk: int) -> HttpResponse:
    """Step through a stored game turn by turn (every hand open once it is over; from your
    seat while it is still in play)."""
    game = _owned(request, pk)
    if game is None:
        return _not_found(request)
    slug = game.game.slug
    state = play_position(game)
    names = seat_names(game, len(state.returns()))
    finished = game.status == PlayedGame.Status.FINISHED
    events = [e.as_dict() for e in state.event_log()] if finished else None
    log = narrated_log(slug, events or events_for_player(state, game.seat), names)
    total = len(log)
    try:
        step = bounded_int(request.GET.get("step") or str(total), name="step")
    except ParameterError:
        step = total
    step = min(max(step, 1), max(total, 1))
    viewer = None if finished else game.seat
    table = replay_table(slug, game_record(game, state), step, names, viewer) if total else None
    context = {
        "game": game,
        "name": game.game.name,
        "table": table,
        "current": log[step - 1] if total else None,
        "step": step,
        "total": total,
        "previous_step": max(step - 1, 1),
        "next_step": min(step + 1, total),
        "result": result_words(game),
        "finished": finished,
    }
    return render(request, "web/play_replay.html", context)
