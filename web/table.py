"""The table a page draws: a game's plugin turns an engine state and a viewing seat into table
data (``rules.engines.core.table``); this module adds each card's page and image links and the
seats' names, and replays a stored game to the position a replay step shows. No game is named
here: every game's table comes from its plugin's ``table_builder``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.db.models import Count, Max

from cards.images.links import card_image_links
from cards.models import Card
from rules.adapters import engine_for
from rules.engines.core import Action, State, card_key, find_plugin
from rules.engines.core.table import PUBLIC

#: the viewer parameter of the open view (both hands shown: replays of finished games)
OPEN = "open"


def _card_data_stamp(game_slug: str) -> tuple[Any, ...]:
    """What changes when any card of the game changes (one query): count and latest edit."""
    stamp = Card.objects.filter(game__slug=game_slug).aggregate(Count("pk"), Max("updated_at"))
    return (stamp["pk__count"], stamp["updated_at__max"])


#: per game, (card data stamp, value) of what pages rebuild only when a card changes
_LINKS: dict[str, tuple[tuple[Any, ...], dict[str, dict[str, Any]]]] = {}


def _card_links(game_slug: str, stamp: tuple[Any, ...]) -> dict[str, dict[str, Any]]:
    """Per card key of the game: its name, page and image links (rebuilt when a card changed)."""
    cached = _LINKS.get(game_slug)
    if cached is None or cached[0] != stamp:
        links = {}
        for card in Card.objects.for_game(game_slug).with_related():
            image = card_image_links(card)
            links[card_key(card.name)] = {
                "name": card.name,
                "url": card.get_absolute_url(),
                "image": image.url,
                "thumb": image.thumb_url,
                # the page reserves the thumbnail's box before it loads, so nothing moves then
                "thumb_width": image.thumb_width,
                "thumb_height": image.thumb_height,
                "alt": image.alt,
            }
        cached = (stamp, links)
        _LINKS[game_slug] = cached
    return cached[1]


def card_links(game_slug: str) -> dict[str, dict[str, Any]]:
    """Per card key of the game: its name, page and image links (``name``, ``url``, ``image``,
    ``thumb`` with ``thumb_width`` and ``thumb_height``, ``alt``), cached until a card of the
    game changes."""
    return _card_links(game_slug, _card_data_stamp(game_slug))


def table_for(
    game_slug: str,
    state: State,
    viewer: int | str | None,
    seat_names: Sequence[str] = (),
    *,
    stamp: tuple[Any, ...] | None = None,
) -> dict[str, Any] | None:
    """The table of ``state`` seen from seat ``viewer`` (None: the open view; ``PUBLIC``: what
    no seat holds privately, for spectators), every card with
    its ``link`` (name, page, image URLs; None for a back or a card without a page), seats named
    by ``seat_names`` where given. None when the game has no table view."""
    plugin = find_plugin(game_slug)
    if plugin is None or not plugin.has_table:
        return None
    if viewer == PUBLIC:
        model = plugin.public_table(state)
    else:
        model = plugin.table_with_picks(state, viewer if isinstance(viewer, int) else None)
    links = _card_links(game_slug, stamp or _card_data_stamp(game_slug))
    for zone in model["shared"]:
        zone["dom_id"] = f"table-shared-{zone['id']}"
    for seat in model["seats"]:
        for zone in seat["zones"]:
            zone["dom_id"] = f"table-seat{seat['seat']}-{zone['id']}"
    cells = model["grid"]["cells"] if model["grid"] else []
    for index, cell in enumerate(cells):
        cell["dom_id"] = f"table-cell-{index}"
    holders = [
        *model["shared"],
        *(zone for seat in model["seats"] for zone in seat["zones"]),
        *cells,
    ]
    for holder in holders:
        for card in holder["cards"]:
            card["link"] = links.get(card["key"]) if card["key"] is not None else None
            if card["link"]:
                card["name"] = card["link"]["name"]
    for seat in model["seats"]:
        if seat["seat"] < len(seat_names):
            seat["name"] = seat_names[seat["seat"]]
        seat["viewer"] = seat["seat"] == viewer
    return model


def parse_viewer(raw: str, players: int) -> int | None:
    """A ``view`` parameter as a seat (``"1"`` is seat 0) or None for the open view; anything
    else (or a seat the game does not have) is the open view."""
    if raw.isascii() and raw.isdigit() and 1 <= int(raw) <= players:
        return int(raw) - 1
    return None


def replay_to(engine: Any, record: Mapping[str, Any], events_start: int, events_end: int) -> State:
    """The state of a stored game (``rules.simulation.game_record``: seed, setup, actions) as
    the replay step holding its events ``events_start`` to ``events_end`` leaves it: after the
    last action whose events all fall before ``events_end`` or, when a single action makes the
    whole step (and the next one's start), after that action."""
    actions = [Action.parse(str(item["action"])) for item in record["actions"]]

    def fresh() -> State:
        state: State = engine.new_initial_state(int(record["seed"]), record["setup"])
        return state

    state = fresh()
    counts = [len(state.events or [])]  # counts[k]: events after k actions
    for action in actions:
        if counts[-1] >= events_end:
            break
        state.apply_unchecked(action)  # the record's own actions, legal when it was played
        counts.append(len(state.events or []))
    within = [k for k, count in enumerate(counts) if count <= events_end]
    taken = within[-1] if within else 0
    if counts[taken] <= events_start and taken + 1 < len(counts):
        taken += 1
    if taken == len(counts) - 1:
        return state
    state = fresh()
    for action in actions[:taken]:
        state.apply_unchecked(action)
    return state


def replay_table(
    game_slug: str,
    record: Mapping[str, Any],
    step: int,
    seat_names: Sequence[str],
    viewer: int | str | None,
) -> dict[str, Any] | None:
    """The table as replay step ``step`` (1-based, one per group of the narrated log) of a
    stored game leaves it, seen from ``viewer`` (None: open; ``PUBLIC``: a spectator's). None
    without a table view."""
    plugin = find_plugin(game_slug)
    if plugin is None or not plugin.has_table or step < 1:
        return None
    ends = plugin.narration(seat_names).group_ends(record.get("events", []))
    if step > len(ends):
        return None
    start = ends[step - 2] if step > 1 else 0
    stamp = _card_data_stamp(game_slug)
    state = replay_to(engine_for(game_slug), record, start, ends[step - 1])
    return table_for(game_slug, state, viewer, seat_names, stamp=stamp)
