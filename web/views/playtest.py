"""A manual playtest of a deck, for every game that declares one (``GamePlugin.playtest``): the
opening as the game's rulebook deals it, then draw, move, turn cards and keep the scores by hand,
with no opponent and no rule enforced (``rules.engines.core.playtest``). The layout lives in the
visitor's session, one per deck; nothing is stored in the database. Every action is a form post,
so the page works without JavaScript; ``static/js/playtest.js`` adds moving cards by click or
drag and sends the same posts without reloading the page."""

from __future__ import annotations

import secrets
from typing import Any

from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render

from decks.models import Deck
from decks.selectors import deck_for_viewer
from rules.engines.core import GamePlugin, card_key, find_plugin
from rules.engines.core.playtest import Playtest, PlaytestError, apply, fits, mulligan_allowed
from rules.matchups import deck_cards
from web.limits import heavy_page
from web.table import card_links
from web.views import message_page

SESSION_KEY = "web:playtest:{pk}"


def playtest_available(game_slug: str) -> bool:
    """Whether the game's plugin offers a manual playtest."""
    plugin = find_plugin(game_slug)
    return plugin is not None and plugin.playtest is not None


@heavy_page("playtest")
def deck_playtest(request: HttpRequest, pk: int) -> HttpResponse:
    """GET: the layout; POST ``op``: ``restart`` or one of ``rules.engines.core.playtest.apply``'s
    actions (draw, shuffle, mulligan, move, tap, counter, turn, undo), then back to the layout
    (htmx's posts get the new layout at once: one request an action, not two)."""
    deck = deck_for_viewer(request.user, pk)
    plugin = find_plugin(deck.game.slug)
    if plugin is None or plugin.playtest is None:
        return message_page(
            request, "No manual playtest", f"{deck.game.name} has no manual playtest.", status=404
        )
    rules = plugin.playtest
    key = SESSION_KEY.format(pk=deck.pk)
    layout: Any = request.session.get(key)
    if not fits(rules, layout):
        layout = _deal(plugin, deck)
    error = ""
    if request.method == "POST":
        op = request.POST.get("op", "")
        if op == "restart":
            layout = _deal(plugin, deck)
        else:
            try:
                apply(rules, layout, op, request.POST)
            except PlaytestError as exc:
                error = str(exc)
        request.session[key] = layout
        if not error and not request.headers.get("HX-Request"):
            return redirect("deck-playtest", pk=deck.pk)  # a reload does not post again
    request.session[key] = layout
    context = {"deck": deck, "error": error, **_page(deck.game.slug, rules, layout)}
    return render(request, "web/deck_playtest.html", context, status=400 if error else 200)


def _deal(plugin: GamePlugin, deck: Deck) -> dict[str, Any]:
    return plugin.playtest_open(deck_cards(deck), secrets.randbelow(2**31))


def _page(game_slug: str, rules: Playtest, layout: dict[str, Any]) -> dict[str, Any]:
    """What the template draws: every zone with its cards (image links where the card has a
    page), the counters, the turn and which buttons apply."""
    links = card_links(game_slug)
    zones = []
    for zone_id, name in rules.zones:
        cards = layout["zones"][zone_id]
        zones.append(
            {
                "id": zone_id,
                "name": name,
                "hidden": zone_id in rules.hidden,
                "taps": bool(rules.tap) and zone_id in rules.tap_zones,
                "count": len(cards),
                "cards": [
                    {
                        "index": index,
                        "name": card_name,
                        "turned": bool(turned),
                        "link": links.get(card_key(card_name)),
                    }
                    for index, (card_name, turned) in enumerate(cards)
                ],
            }
        )
    return {
        "rules": rules,
        "zones": zones,
        "targets": list(rules.zones),
        "counters": [
            {"index": index, "name": counter.name, "value": layout["counters"][index]}
            for index, counter in enumerate(rules.counters)
        ],
        "turn": layout["turn"],
        "draw_count": len(layout["zones"][rules.draw]) if rules.draw else 0,
        "hand_count": len(layout["zones"][rules.hand]) if rules.hand else 0,
        "can_mulligan": mulligan_allowed(rules, layout),
        "mulligans_left": rules.mulligans - layout["mulligans"],
        "can_undo": bool(layout["history"]),
    }
