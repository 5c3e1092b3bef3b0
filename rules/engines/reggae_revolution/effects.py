"""The Reggae Revolution effect language: its vocabulary, a checker and the rules-text renderer.

Effects are plain dicts ``{"op": ..., ...}`` stored in a card's ``effects`` list. Player cards
(starter, main, wild) carry *boons*, which the player may resolve when playing the card; villains
and schemes carry *blows*, which always resolve. The grammar is repeated as JSON Schema in
``fixtures/reggae-revolution/game.yaml``; ``docs/rules/reggae-revolution.md`` documents each op.
The rules text shown to users is rendered from the effects by :func:`render_rules_text`, so the
text and the behaviour cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

SYMBOLS: tuple[str, ...] = ("peace", "love", "unity", "respect")
COLOURS: tuple[str, ...] = ("red", "green", "yellow", "black")
ANY = "any"

#: op -> (required keys, optional keys with their defaults)
BOON_OPS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "draw": (("amount",), {"who": "self"}),
    "gain_symbols": (("symbols",), {}),
    "destroy": (("amount",), {"from": "hand"}),
    "recover": (("amount",), {}),
    "gain_free": (("max_cost",), {}),
    "extra_yay": ((), {}),
    "open_gift": (("amount",), {}),
}
BLOW_OPS: dict[str, tuple[tuple[str, ...], dict[str, Any]]] = {
    "discard": (("amount",), {"who": "self"}),
    "oppress": (("amount",), {"who": "self", "to": "discard"}),
    "destroy_lineup": (("amount",), {}),
    "seed_villain_deck": (("amount",), {}),
    "reveal_again": ((), {}),
    "strip_gifts": ((), {}),
    "unscore": (("amount",), {}),
}
BOON_WHO = ("self", "others", "each", "next")
BLOW_WHO = ("self", "others", "each")
OPPRESS_TO = ("discard", "hand", "deck")
DESTROY_FROM = ("hand", "discard")

PLAYER_CARD_TYPES = ("starter", "main", "wild")
VILLAIN_DECK_TYPES = ("villain", "scheme")


def with_defaults(effect: Mapping[str, Any]) -> dict[str, Any]:
    """Return ``effect`` with every optional key of its op filled in."""
    op = effect["op"]
    spec = BOON_OPS.get(op) or BLOW_OPS[op]
    return {**spec[1], **effect}


def effect_problems(card_type: str, effects: Sequence[Mapping[str, Any]]) -> list[str]:
    """Return why the engine could not execute ``effects`` on a card of ``card_type`` (or [])."""
    problems: list[str] = []
    ops: dict[str, tuple[tuple[str, ...], dict[str, Any]]]
    who: tuple[str, ...]
    if card_type in PLAYER_CARD_TYPES:
        ops, who = BOON_OPS, BOON_WHO
    elif card_type in VILLAIN_DECK_TYPES:
        ops, who = BLOW_OPS, BLOW_WHO
    else:
        ops, who = {}, ()
    for index, effect in enumerate(effects):
        where = f"effects.{index}"
        op = effect.get("op") if isinstance(effect, Mapping) else None
        if op not in ops:
            problems.append(f"{where}: a {card_type} card cannot use op {op!r}")
            continue
        required, optional = ops[op]
        missing = [key for key in required if key not in effect]
        extra = sorted(set(effect) - {"op", *required, *optional})
        if missing:
            problems.append(f"{where}: {op} needs {', '.join(missing)}")
        if extra:
            problems.append(f"{where}: {op} does not take {', '.join(extra)}")
        amount = effect.get("amount", effect.get("max_cost", 1))
        if isinstance(amount, bool) or not isinstance(amount, int) or amount < 1:
            problems.append(f"{where}: amounts are whole numbers of at least 1")
        if effect.get("who", "self") not in who:
            problems.append(f"{where}: who must be one of {', '.join(who)}")
        if op == "gain_symbols":
            symbols = effect.get("symbols")
            if not isinstance(symbols, list) or not symbols:
                problems.append(f"{where}: symbols must be a non-empty list")
            elif any(symbol not in SYMBOLS and symbol != ANY for symbol in symbols):
                problems.append(f"{where}: symbols are peace, love, unity, respect or any")
        if op == "oppress" and effect.get("to", "discard") not in OPPRESS_TO:
            problems.append(f"{where}: to must be one of {', '.join(OPPRESS_TO)}")
        if op == "destroy" and effect.get("from", "hand") not in DESTROY_FROM:
            problems.append(f"{where}: from must be one of {', '.join(DESTROY_FROM)}")
    return problems


def _cards(amount: int, word: str = "card") -> str:
    return f"a {word}" if amount == 1 else f"{amount} {word}s"


def _join(words: Sequence[str]) -> str:
    if len(words) <= 1:
        return "".join(words)
    return ", ".join(words[:-1]) + " and " + words[-1]


def _subject(who: str, blow: bool) -> tuple[str, bool]:
    """Return (subject, third person singular?) for a ``who`` target; "" means imperative."""
    if who == "self":
        return ("The active player", True) if blow else ("", False)
    if who == "others":
        return "Each other player", True
    if who == "next":
        return "The player on your left", True
    return "Each player", True


def _sentence(subject: str, verb: str, third: bool, rest: str) -> str:
    if not subject:
        return f"{verb.capitalize()} {rest}."
    return f"{subject} {verb}{'s' if third else ''} {rest}."


def _oppression(amount: int) -> str:
    return "an oppression card" if amount == 1 else f"{amount} oppression cards"


def render_effect(effect: Mapping[str, Any]) -> str:
    """Return one sentence of rules text for one effect."""
    e = with_defaults(effect)
    op = e["op"]
    blow = op in BLOW_OPS
    if op == "draw":
        subject, third = _subject(e["who"], blow)
        return _sentence(subject, "draw", third, _cards(e["amount"]))
    if op == "gain_symbols":
        named = [s for s in e["symbols"] if s != ANY]
        wild = len(e["symbols"]) - len(named)
        parts = list(named)
        if wild:
            parts.append(
                "a symbol of your choice" if wild == 1 else f"{wild} symbols of your choice"
            )
        return f"Add {_join(parts)} to your pool."
    if op == "destroy":
        where = "hand" if e["from"] == "hand" else "discard pile"
        return f"Destroy up to {_cards(e['amount'])} from your {where}."
    if op == "recover":
        return f"Put up to {_cards(e['amount'])} from your discard pile into your hand."
    if op == "gain_free":
        return (
            f"Gain a card costing up to {e['max_cost']} symbols from the lineup or a starter "
            "pile without paying."
        )
    if op == "extra_yay":
        return "Take the Yay step one more time this turn."
    if op == "open_gift":
        gifts = "your next gift" if e["amount"] == 1 else f"your next {e['amount']} gifts"
        return f"This turn, {gifts} may persuade a villain of any colour."
    if op == "discard":
        subject, third = _subject(e["who"], blow)
        return _sentence(subject, "discard", third, _cards(e["amount"]))
    if op == "oppress":
        subject, third = _subject(e["who"], blow)
        place = {
            "discard": "into their discard pile",
            "hand": "into their hand",
            "deck": "onto their draw pile",
        }[e["to"]]
        rest = f"{_oppression(e['amount'])} from the oppression pile {place}"
        return _sentence(subject, "put", third, rest)
    if op == "destroy_lineup":
        count = "card" if e["amount"] == 1 else f"{e['amount']} cards"
        return f"Destroy the first {count} of the lineup, then refill it."
    if op == "seed_villain_deck":
        return f"Shuffle {_oppression(e['amount'])} from the oppression pile into the villain deck."
    if op == "reveal_again":
        return "Reveal another card from the villain deck."
    if op == "strip_gifts":
        return "Destroy every card given to villains in play."
    if op == "unscore":
        count = "card" if e["amount"] == 1 else f"{e['amount']} cards"
        return f"Destroy the most recently scored {count}."
    raise ValueError(f"unknown op {op!r}")


def render_rules_text(record: Mapping[str, Any]) -> str:
    """Return the rules text a card record's type, stats and effects mean."""
    card_type = record["type"]
    stats = record.get("stats") or {}
    effects = record.get("effects") or []
    body = " ".join(render_effect(effect) for effect in effects)
    if card_type == "villain":
        need = record["strength"]
        colour = record["branch"]
        gifts = f"a {colour} card" if need == 1 else f"{need} {colour} cards"
        text = f"Suppresses {_join(stats['suppresses'])}. Persuaded by {gifts}."
        return f"{text} On arrival: {body}" if body else text
    if card_type == "scheme":
        return body
    if card_type == "oppression":
        return (
            "No effect. Played from a hand it goes to that player's discard pile; revealed from "
            "the villain deck it goes back to the oppression pile."
        )
    if card_type == "wild":
        text = "Counts as any one symbol and any one colour; adds a symbol of your choice to your pool."
    else:
        text = f"Adds {stats['symbol']} to your pool."
    return f"{text} Optional: {body}" if body else text
