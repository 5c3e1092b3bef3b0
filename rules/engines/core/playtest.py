"""A manual playtest: one deck laid out on a table as its rulebook deals it, then moved by hand.

No rule is checked and there is no opponent: the player draws, moves cards between the game's
zones, turns cards, keeps the game's scores on counters, undoes and starts again. What a game
offers is one ``Playtest`` declared on its plugin (``GamePlugin.playtest``), whose numbers come
from the game's engine (the opening hand, the mulligans, the starting scores), so the rulebook's
figures are written once. The layout itself is plain JSON-ready data (a page keeps it in the
visitor's session): ``{"zones": {id: [[name, turned], ...]}, "counters": [int, ...], "turn": n,
"mulligans": n, "history": [earlier layouts]}``, the top of a pile first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.engines.core.rng import Rng

#: how many earlier layouts ``undo`` can go back to
UNDO_DEPTH = 30


class PlaytestError(Exception):
    """An action the layout cannot take (a stale card, an empty pile); the message is for the
    player."""


@dataclass(frozen=True)
class PlaytestCounter:
    """A score the player keeps by hand, named as the game's rulebook names it."""

    name: str
    start: int = 0


@dataclass(frozen=True)
class Playtest:
    """What a game's manual playtest offers.

    ``zones`` are (id, name) pairs in the order a page shows them; ``hidden`` zones are piles
    shown face down, as a count. ``draw`` is the zone cards are drawn from and ``hand`` the zone
    they are drawn to ("" where the game draws nothing); the opening deals ``opening_hand``
    cards, which may be shuffled back and dealt again ``mulligans`` times (0: the game has no
    mulligan). ``tap`` is the game's word for turning a card in one of ``tap_zones`` (the zones
    in play), ``untap`` for turning it back and ``tap_look`` how it shows (``sideways``,
    ``reversed`` or ``revealed``); "" where the game turns no card. ``untap_each_turn``: the
    next turn turns every card back.
    """

    zones: tuple[tuple[str, str], ...]
    draw: str = ""
    hand: str = ""
    opening_hand: int = 0
    mulligans: int = 0
    mulligan_word: str = "Mulligan"
    hidden: frozenset[str] = frozenset()
    tap: str = ""
    tap_zones: frozenset[str] = frozenset()
    untap: str = ""
    tap_look: str = "sideways"
    untap_each_turn: bool = False
    counters: tuple[PlaytestCounter, ...] = field(default=())

    @property
    def turned_word(self) -> str:
        """How a page says a turned card is shown ("turned sideways", "revealed")."""
        return {"sideways": "turned sideways", "reversed": "turned", "revealed": "revealed"}.get(
            self.tap_look, "turned"
        )

    @property
    def zone_ids(self) -> list[str]:
        """The zones' ids, in order."""
        return [zone_id for zone_id, _ in self.zones]

    def top_first(self, zone_id: str) -> bool:
        """Whether a card moved into ``zone_id`` goes on top (a face-down pile) or at the end."""
        return zone_id in self.hidden


def open_layout(rules: Playtest, zones: Mapping[str, list[str]], seed: int) -> dict[str, Any]:
    """The opening layout: the game's setup zones (``zones``, from ``GamePlugin.playtest_deal``)
    with the opening hand dealt from the draw pile, counters at their starting values."""
    layout: dict[str, Any] = {
        "zones": {
            zone_id: [[name, False] for name in zones.get(zone_id, [])]
            for zone_id in rules.zone_ids
        },
        "counters": [counter.start for counter in rules.counters],
        "turn": 1,
        "mulligans": 0,
        "seed": seed,
        "history": [],
    }
    _deal_hand(rules, layout)
    return layout


def fits(rules: Playtest, layout: Any) -> bool:
    """Whether a stored layout is one of this game's current shape (else the page deals anew)."""
    return (
        isinstance(layout, dict)
        and isinstance(layout.get("zones"), dict)
        and set(layout["zones"]) == set(rules.zone_ids)
        and isinstance(layout.get("counters"), list)
        and len(layout["counters"]) == len(rules.counters)
        and isinstance(layout.get("history"), list)
    )


def mulligan_allowed(rules: Playtest, layout: Mapping[str, Any]) -> bool:
    """Whether the opening may still be sent back (before the first turn ends)."""
    return bool(rules.mulligans) and layout["turn"] == 1 and layout["mulligans"] < rules.mulligans


def apply(rules: Playtest, layout: dict[str, Any], op: str, data: Mapping[str, Any]) -> None:
    """Take one action on ``layout`` in place; ``PlaytestError`` (layout unchanged) when it
    cannot. ``op``: ``draw``, ``shuffle``, ``mulligan``, ``move`` (``source``, ``index``,
    ``target``), ``tap`` (``source``, ``index``), ``counter`` (``counter``, ``delta``),
    ``turn`` (the next turn) or ``undo``."""
    if op == "undo":
        if not layout["history"]:
            raise PlaytestError("There is nothing to undo.")
        earlier = layout["history"].pop()
        history = layout["history"]
        layout.clear()
        layout.update(earlier, history=history)
        return
    before = {key: value for key, value in layout.items() if key != "history"}
    snapshot = _copy(before)
    _ACTIONS.get(op, _unknown)(rules, layout, data)
    layout["history"] = [*layout["history"], snapshot][-UNDO_DEPTH:]


def _copy(value: Any) -> Any:
    """A deep copy of plain JSON-ready data (lists, dicts, scalars)."""
    if isinstance(value, dict):
        return {key: _copy(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_copy(item) for item in value]
    return value


def _unknown(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    raise PlaytestError("Pick one of the buttons.")


def _rng(layout: dict[str, Any]) -> Rng:
    """The layout's own generator, moved on each time it shuffles (replayable by its seed)."""
    layout["seed"] = (int(layout.get("seed", 0)) * 6364136223846793005 + 1) % (2**63)
    return Rng(layout["seed"])


def _draw(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    if not rules.draw:
        raise PlaytestError("This game draws no card.")
    pile = layout["zones"][rules.draw]
    if not pile:
        raise PlaytestError("The draw pile is empty.")
    layout["zones"][rules.hand].append(pile.pop(0))


def _shuffle(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    if not rules.draw:
        raise PlaytestError("This game has no pile to shuffle.")
    _rng(layout).shuffle(layout["zones"][rules.draw])


def _deal_hand(rules: Playtest, layout: dict[str, Any]) -> None:
    if not (rules.draw and rules.hand):
        return
    pile, hand = layout["zones"][rules.draw], layout["zones"][rules.hand]
    for _ in range(min(rules.opening_hand, len(pile))):
        hand.append(pile.pop(0))


def _mulligan(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    if not mulligan_allowed(rules, layout):
        raise PlaytestError(
            "This game has no mulligan."
            if not rules.mulligans
            else "No mulligan is left: the opening is kept."
        )
    pile, hand = layout["zones"][rules.draw], layout["zones"][rules.hand]
    pile.extend([name, False] for name, _ in hand)
    hand.clear()
    _rng(layout).shuffle(pile)
    layout["mulligans"] += 1
    _deal_hand(rules, layout)


def _card(layout: dict[str, Any], data: Mapping[str, Any], key: str = "source") -> tuple[str, int]:
    """The zone and index a form names, checked against the layout."""
    zone_id = str(data.get(key, ""))
    if zone_id not in layout["zones"]:
        raise PlaytestError("There is no such zone.")
    raw = str(data.get("index", ""))
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= len(layout["zones"][zone_id]):
        raise PlaytestError("That card is no longer there: the layout below is the current one.")
    return zone_id, int(raw)


def _move(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    source, index = _card(layout, data)
    target = str(data.get("target", ""))
    if target not in layout["zones"]:
        raise PlaytestError("Choose the zone to move the card to.")
    name, _ = layout["zones"][source].pop(index)
    moved = [name, False]  # a moved card arrives untouched, as it would on a real table
    if rules.top_first(target):
        layout["zones"][target].insert(0, moved)  # back on top of a face-down pile
    else:
        layout["zones"][target].append(moved)


def _tap(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    if not rules.tap:
        raise PlaytestError("This game turns no card.")
    source, index = _card(layout, data)
    if source not in rules.tap_zones:
        raise PlaytestError("Only a card in play is turned.")
    card = layout["zones"][source][index]
    card[1] = not card[1]


def _counter(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    raw, delta = str(data.get("counter", "")), str(data.get("delta", ""))
    if not (raw.isascii() and raw.isdigit()) or int(raw) >= len(rules.counters):
        raise PlaytestError("There is no such counter.")
    try:
        step = int(delta)
    except ValueError:
        raise PlaytestError("A counter changes by a whole number.") from None
    if abs(step) > 1000:
        raise PlaytestError("A counter changes by at most 1000 at a time.")
    layout["counters"][int(raw)] += step


def _next_turn(rules: Playtest, layout: dict[str, Any], data: Mapping[str, Any]) -> None:
    layout["turn"] += 1
    if rules.untap_each_turn:
        for cards in layout["zones"].values():
            for card in cards:
                card[1] = False


_ACTIONS = {
    "draw": _draw,
    "shuffle": _shuffle,
    "mulligan": _mulligan,
    "move": _move,
    "tap": _tap,
    "counter": _counter,
    "turn": _next_turn,
}
