"""A manual playtest of a deck: draw, play and move cards by hand, with no opponent and no rules
enforced (the game's plugin names the zones, ``GamePlugin.playtest_zones``). The layout lives in
the visitor's session, one per deck; nothing is stored in the database."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from decks.selectors import deck_for_viewer
from rules.engines.core import Rng, find_plugin
from rules.matchups import deck_cards
from web.limits import heavy_page

SESSION_KEY = "web:playtest:{pk}"


def playtest_available(game_slug: str) -> bool:
    """Whether the game's plugin offers a manual playtest."""
    plugin = find_plugin(game_slug)
    return plugin is not None and bool(plugin.playtest_zones)


@heavy_page("playtest")
def deck_playtest(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the layout; POST ``op``: ``draw``, ``shuffle`` (the draw pile), ``restart``, or
    ``move`` (card ``index`` of zone ``source`` to zone ``target``), then back to the layout."""
    deck = deck_for_viewer(request.user, pk)
    plugin = find_plugin(deck.game.slug)
    if plugin is None or not plugin.playtest_zones:
        return render(
            request,
            "web/message.html",
            {"title": "No manual playtest", "text": f"{deck.game.name} has no manual playtest."},
            status=404,
        )
    key = SESSION_KEY.format(pk=deck.pk)
    names = dict(plugin.playtest_zones)
    zones: dict[str, list[str]] | None = request.session.get(key)
    if zones is None or set(zones) != set(names):
        zones = plugin.playtest_deal(deck_cards(deck), secrets.randbelow(2**31))
    error = ""
    if request.method == "POST":
        op = request.POST.get("op", "")
        draw = plugin.playtest_zones[0][0]
        if op == "restart":
            zones = plugin.playtest_deal(deck_cards(deck), secrets.randbelow(2**31))
        elif op == "shuffle":
            Rng(secrets.randbelow(2**31)).shuffle(zones[draw])
        elif op == "draw":
            hand = plugin.playtest_zones[1][0]
            if zones[draw]:
                zones[hand].append(zones[draw].pop(0))
            else:
                error = "The draw pile is empty."
        elif op == "move":
            error = _move(zones, request.POST)
        else:
            error = "Pick one of the buttons."
        request.session[key] = zones
        if not error:
            return redirect("deck-playtest", pk=deck.pk)
    request.session[key] = zones
    draw_id = plugin.playtest_zones[0][0]
    context: dict[str, Any] = {
        "deck": deck,
        "error": error,
        "draw_count": len(zones[draw_id]),
        "zones": [
            {"id": zone_id, "name": name, "cards": list(enumerate(zones[zone_id]))}
            for zone_id, name in plugin.playtest_zones
            if zone_id != draw_id
        ],
        "targets": list(plugin.playtest_zones),
    }
    return render(request, "web/deck_playtest.html", context, status=400 if error else 200)


def _move(zones: dict[str, list[str]], data: Any) -> str:
    """Move a card between zones; the reason it cannot ("" when it moved)."""
    source, target = data.get("source", ""), data.get("target", "")
    if source not in zones or target not in zones:
        return "There is no such zone."
    raw = str(data.get("index", ""))
    if not raw.isdigit() or int(raw) >= len(zones[source]):
        return "That card is no longer there: the layout below is the current one."
    card = zones[source].pop(int(raw))
    if target == next(iter(zones)):
        zones[target].insert(0, card)  # back on top of the draw pile
    else:
        zones[target].append(card)
    return ""
