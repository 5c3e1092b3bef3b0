"""Rules text from effects: the sentence a Revolt N Reign card shows, generated from its data.

The phrasing follows the "text" columns of the effect-language tables in
``docs/rules/revolt-n-reign.md``: a fixed core sentence for the printed numbers, then one sentence
per effect. A test renders every fixture card and compares it with its ``rules_text``, so text and
behaviour cannot drift apart.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rules.engines.core import CardRecord, thaw

BRANCH_NAMES = {
    "bison": "Bison",
    "eagle": "Eagle",
    "liberty-bell": "Liberty Bell",
    "scroll": "Scroll",
}
CARD_TARGET_TEXT = {
    "opponent_attack": "an opponent's Attack card",
    "opponent_defense": "an opponent's Defense",
    "opponent_freedom": "an opponent's Freedom card",
    "opponent_petition": "an opponent's Petition",
    "opponent_ua": "an opponent's UA",
}
DAMAGE_TARGET_TEXT = {
    **CARD_TARGET_TEXT,
    "opponent_ua": "an opponent's UA, bypassing Defense",
    "opponent_lp": "the opponent's LP",
}
BLOCK_TARGET_TEXT = {
    "opponent_mill": "the opponent's mill effects",
    "opponent_discard": "the opponent's discard effects",
    "opponent_lock": "the opponent's lock effects",
    "opponent_each_turn": "the opponent's Each turn effects",
}
TRIGGER_TEXT = {
    "on_play": "On play",
    "each_turn": "Each turn",
    "when_attacked": "When attacked",
    "on_destroyed": "When destroyed",
    "when_gain_ip": "When you gain IP",
    "static": "While in play",
}
DURATION_TEXT = {
    "this_turn": " this turn",
    "until_your_next_turn": " until your next turn",
    "permanent": " permanently",
}


def _amount(amount: Any) -> tuple[str, str, bool]:
    """Return (the number as written, the phrase after it, whether it reads as plural)."""
    if isinstance(amount, int):
        return str(amount), "", amount != 1
    cap = f" (at most {amount['max']})" if "max" in amount else ""
    each = amount["each"]
    per = amount["per"]
    if per == "x":
        return ("X" if each == 1 else f"{each}X"), cap, True
    branch = BRANCH_NAMES.get(amount.get("branch") or "", "")
    if per == "pillar":
        counted = f"{branch} Pillar" if branch else "Pillar"
    elif per == "petition":
        counted = "Petition"
    else:
        counted = f"{branch} card"
    return str(each), f" for each {counted} you control{cap}", each != 1


def action_text(action: Mapping[str, Any], static: bool = False) -> str:
    """Return the words for one action (a ``static`` prevention adds "on each opponent's turn")."""
    op = action["op"]
    number, after, plural = _amount(action["amount"]) if "amount" in action else ("", "", False)
    cards = "cards" if plural else "card"
    target = action.get("target", "")
    if op == "damage":
        return f"deal {number} attack damage to {DAMAGE_TARGET_TEXT[target]}{after}"
    if op == "lose_lp":
        return f"the opponent loses {number} LP{after}"
    if op == "gain_lp":
        return f"gain {number} LP{after}"
    if op == "gain_ip":
        return f"gain {number} IP{after}"
    if op == "draw":
        return f"draw {number} {cards}{after}"
    if op == "mill":
        return f"mill {number} {cards} from the opponent's draw pile{after}"
    if op == "discard":
        if action["choice"] == "random":
            return f"the opponent discards {number} {cards} at random{after}"
        return f"look at the opponent's hand and discard {number} {cards} from it{after}"
    if op == "lock":
        return f"lock {CARD_TARGET_TEXT[target]}"
    if op == "block":
        return f"block {BLOCK_TARGET_TEXT[target]}"
    if op == "prevent_lp_loss":
        source = (
            "UA LP drain" if action["source"] == "ua_drain" else "any source including UA LP drain"
        )
        when = " on each opponent's turn" if static else ""
        return f"prevent up to {number} LP loss{after} from {source}{when}"
    if op == "modify_ua_drain":
        if action["whose"] == "yours":
            return f"your UA LP drain is increased by {action['delta']}"
        return f"the opponent's UA LP drain is reduced by {-action['delta']}"
    if op == "destroy":
        return f"destroy {CARD_TARGET_TEXT[target]}"
    if op == "exile":
        return f"exile {CARD_TARGET_TEXT[target]}"
    if op == "return_to_hand":
        return f"return {CARD_TARGET_TEXT[target]} to its owner's hand"
    raise ValueError(f"no text for op {op!r}")


def _cost_text(cost: Mapping[str, Any]) -> str:
    parts = []
    if "ip" in cost:
        parts.append(f"Pay {cost['ip']} IP")
    if cost.get("discard_self"):
        parts.append("discard this card" if parts else "Discard this card")
    return " and ".join(parts)


def _condition_text(condition: Mapping[str, Any]) -> str:
    parts = []
    if "controls_branch" in condition:
        count = condition["at_least"]
        branch = BRANCH_NAMES[condition["controls_branch"]]
        if count == 1:
            parts.append(f"you control a {branch} card")
        else:
            parts.append(f"you control {count} or more {branch} cards")
    if "lp_at_most" in condition:
        parts.append(f"your LP is {condition['lp_at_most']} or less")
    return f"if {' and '.join(parts)}, "


def effect_text(effect: Mapping[str, Any]) -> str:
    """Return the sentence for one effect."""
    trigger = effect["trigger"]
    head = _cost_text(effect["cost"]) if trigger == "activated" else TRIGGER_TEXT[trigger]
    words = [action_text(a, static=trigger == "static") for a in effect["actions"]]
    body = words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
    condition = _condition_text(effect["condition"]) if effect.get("condition") else ""
    duration = DURATION_TEXT.get(effect.get("duration") or "", "")
    return f"{head}: {condition}{body}{duration}."


def core_text(record: Mapping[str, Any]) -> str:
    """Return the fixed sentence for a card's printed numbers (empty for effect-only types)."""
    kind = record["type"]
    if kind == "unconstitutional-act":
        return f"Each of your turns, the opponent loses {record['drain']} LP (UA LP drain)."
    if kind == "pillar":
        return f"Each of your turns, generate {record['generation']} IP."
    if kind == "attack":
        return (
            f"Deal {record['attack']} attack damage to an opponent's Defense, "
            "or to a UA if they control no Defense."
        )
    if kind == "defense":
        return f"Protects your UAs with {record['defense']} Defense points."
    return ""


def rules_text(record: Mapping[str, Any] | CardRecord) -> str:
    """Return a card's rules text from its ``Card.record()`` data (printed numbers and effects)."""
    data = record.as_record() if isinstance(record, CardRecord) else thaw(record)
    parts = [core_text(data), *(effect_text(e) for e in data.get("effects") or ())]
    return " ".join(part for part in parts if part)


def activated_words(effect: Any) -> str:
    """What an engine effect (``cards.Effect``) does, in the rules text's words and without its
    cost ("deal 2 attack damage to an opponent's Defense"): the name an activation's button and
    chip give it."""
    words = []
    for act in effect.acts:
        data: dict[str, Any] = {
            name: getattr(act, name)
            for name in ("op", "target", "choice", "source", "whose", "delta")
            if getattr(act, name) is not None
        }
        amount = act.amount
        if amount is not None and not isinstance(amount, int):
            data["amount"] = {"each": amount.each, "per": amount.per, "branch": amount.branch}
            if amount.cap is not None:
                data["amount"]["max"] = amount.cap
        elif amount is not None:
            data["amount"] = amount
        try:
            words.append(action_text(data))
        except (KeyError, ValueError):
            words.append(str(act.op).replace("_", " "))
    return words[0] if len(words) == 1 else f"{', '.join(words[:-1])} and {words[-1]}"
