"""The manual playtest's layout (``rules.engines.core.playtest``) over every game that declares
one: a declaration that hangs together, an opening that keeps every card and replays by its seed,
and actions that conserve cards and undo exactly."""

from __future__ import annotations

import copy
import random

import pytest

from rules.engines.core import DeckCards, plugins
from rules.engines.core.playtest import UNDO_DEPTH, PlaytestError, apply

PLAYTESTS = [plugin for plugin in plugins() if plugin.playtest is not None]


def _deck(slug: str) -> DeckCards:
    """Twenty cards without zones (a pasted list): every game lays them out somewhere."""
    records = tuple({"name": f"Card {n:02d}", "type": "unit", "zone": ""} for n in range(20))
    return DeckCards(slug, records)


def _count(layout) -> int:
    return sum(len(cards) for cards in layout["zones"].values())


def test_every_game_offers_a_playtest():
    games = {"revolt-n-reign", "rival-realms", "reggae-revolution", "regality-vs-religion"}
    assert games | {"reign-absolute"} <= {plugin.slug for plugin in PLAYTESTS}


@pytest.mark.parametrize("plugin", PLAYTESTS, ids=lambda plugin: plugin.slug)
def test_a_declaration_hangs_together(plugin):
    rules = plugin.playtest
    ids = set(rules.zone_ids)
    assert len(ids) == len(rules.zones)
    assert bool(rules.draw) == bool(rules.hand)
    assert {rules.draw, rules.hand} - {""} <= ids
    assert rules.hidden <= ids and rules.tap_zones <= ids
    assert bool(rules.tap) == bool(rules.tap_zones) == bool(rules.untap)
    assert rules.mulligans == 0 or rules.opening_hand > 0
    assert rules.tap_look in ("sideways", "reversed", "revealed")


@pytest.mark.parametrize("plugin", PLAYTESTS, ids=lambda plugin: plugin.slug)
def test_the_opening_keeps_every_card_and_replays_by_its_seed(plugin):
    rules = plugin.playtest
    deck = _deck(plugin.slug)
    layout = plugin.playtest_open(deck, 7)
    assert _count(layout) == 20
    if rules.hand:
        assert len(layout["zones"][rules.hand]) == min(rules.opening_hand, 20)
    random.seed(1)  # the global generator plays no part
    assert plugin.playtest_open(deck, 7) == layout
    assert layout["counters"] == [counter.start for counter in rules.counters]


@pytest.mark.parametrize("plugin", PLAYTESTS, ids=lambda plugin: plugin.slug)
def test_random_actions_conserve_cards_and_undo_exactly(plugin):
    rules = plugin.playtest
    layout = plugin.playtest_open(_deck(plugin.slug), 3)
    pick = random.Random(plugin.slug)
    seen = []
    for _ in range(60):
        op = pick.choice(["draw", "shuffle", "mulligan", "move", "tap", "counter", "turn"])
        source = pick.choice(rules.zone_ids)
        data = {
            "source": source,
            "index": pick.randrange(max(1, len(layout["zones"][source]))),
            "target": pick.choice(rules.zone_ids),
            "counter": pick.randrange(len(rules.counters)),
            "delta": pick.choice([-1, 1, 5]),
        }
        before = copy.deepcopy({key: value for key, value in layout.items() if key != "history"})
        try:
            apply(rules, layout, op, data)
        except PlaytestError:
            assert {k: v for k, v in layout.items() if k != "history"} == before
            continue
        seen.append(before)
        assert _count(layout) == 20
    assert len(layout["history"]) == min(len(seen), UNDO_DEPTH)
    for earlier in reversed(seen[-UNDO_DEPTH:]):
        apply(rules, layout, "undo", {})
        assert {k: v for k, v in layout.items() if k != "history"} == earlier
    with pytest.raises(PlaytestError, match="nothing to undo"):
        apply(rules, layout, "undo", {})
