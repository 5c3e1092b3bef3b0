"""Revolt N Reign card records as the engine plays them, the effect-language checker and readers.

A ``CardSpec`` is one card definition with its effects parsed into small immutable ``Effect`` and
``Act`` values, so the hot loop never looks into nested dicts. ``card_problems(record)`` says why
the engine could not execute a record (the Django side registers it as a card check, so such a
card fails fixture loading). ``fixture_records()`` and ``read_decklist()`` read the fixture files
with PyYAML alone, so tests and benchmarks play without a database.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rules.engines.core import CardRecord, card_key, thaw
from rules.engines.core.records import read_fixture_records, read_yaml

GAME_SLUG = "revolt-n-reign"
FIXTURE_DIR = Path(__file__).resolve().parents[3] / "fixtures" / GAME_SLUG
DECK_DIR = Path(__file__).resolve().parents[3] / "fixtures" / "decks" / GAME_SLUG

UA = "unconstitutional-act"
PILLAR = "pillar"
ATTACK = "attack"
DEFENSE = "defense"
RIGHTS = "rights"
FREEDOM = "freedom"
BILL = "bill"
CARD_TYPES = (UA, PILLAR, ATTACK, DEFENSE, RIGHTS, FREEDOM, BILL)
BRANCHES = ("bison", "eagle", "liberty-bell", "scroll")
PETITION = "petition"

TRIGGERS_BY_TYPE: dict[str, frozenset[str]] = {
    UA: frozenset({"static", "each_turn", "on_destroyed"}),
    PILLAR: frozenset({"each_turn", "static", "when_gain_ip", "activated"}),
    ATTACK: frozenset({"on_play", "on_destroyed", "activated"}),
    DEFENSE: frozenset(
        {"when_attacked", "on_play", "each_turn", "static", "on_destroyed", "activated"}
    ),
    RIGHTS: frozenset({"on_play"}),
    PETITION: frozenset({"on_play", "each_turn", "static", "activated", "when_gain_ip"}),
    FREEDOM: frozenset(
        {"on_play", "each_turn", "static", "activated", "when_gain_ip", "on_destroyed"}
    ),
    BILL: frozenset({"on_play"}),
}

#: card-target classes and the card types they name
CARD_TARGETS: dict[str, str] = {
    "opponent_attack": ATTACK,
    "opponent_defense": DEFENSE,
    "opponent_freedom": FREEDOM,
    "opponent_petition": PETITION,
    "opponent_ua": UA,
}
BLOCK_TARGETS = frozenset(
    {"opponent_mill", "opponent_discard", "opponent_lock", "opponent_each_turn"}
)
LASTING_OPS = frozenset({"block", "prevent_lp_loss", "modify_ua_drain"})
DURATIONS = frozenset({"this_turn", "until_your_next_turn", "permanent"})
COUNTERS = frozenset({"x", "pillar", "petition", "card"})

#: op -> (allowed targets or None when the op takes no target, maximum amount or None)
OPS: dict[str, tuple[frozenset[str] | None, int | None]] = {
    "damage": (
        frozenset({"opponent_defense", "opponent_ua", "opponent_lp", "opponent_attack"}),
        50,
    ),
    "lose_lp": (frozenset({"opponent"}), 10),
    "gain_lp": (None, 20),
    "gain_ip": (None, 5),
    "draw": (None, 4),
    "mill": (frozenset({"opponent"}), 5),
    "discard": (frozenset({"opponent"}), 3),
    "lock": (frozenset(CARD_TARGETS), None),
    "block": (BLOCK_TARGETS, None),
    "prevent_lp_loss": (None, 10),
    "modify_ua_drain": (None, None),
    "destroy": (frozenset(CARD_TARGETS) - {"opponent_ua"}, None),
    "exile": (frozenset(CARD_TARGETS), None),
    "return_to_hand": (frozenset(CARD_TARGETS) - {"opponent_ua"}, None),
}
ACTION_KEYS: dict[str, frozenset[str]] = {
    "damage": frozenset({"op", "target", "amount"}),
    "lose_lp": frozenset({"op", "target", "amount"}),
    "gain_lp": frozenset({"op", "amount"}),
    "gain_ip": frozenset({"op", "amount"}),
    "draw": frozenset({"op", "amount"}),
    "mill": frozenset({"op", "target", "amount"}),
    "discard": frozenset({"op", "target", "amount", "choice"}),
    "lock": frozenset({"op", "target"}),
    "block": frozenset({"op", "target"}),
    "prevent_lp_loss": frozenset({"op", "amount", "source"}),
    "modify_ua_drain": frozenset({"op", "whose", "delta"}),
    "destroy": frozenset({"op", "target"}),
    "exile": frozenset({"op", "target"}),
    "return_to_hand": frozenset({"op", "target"}),
}

#: the Resolve Phase step at which each op's action happens ("Phase 4: Resolve Phase")
OP_STEP: dict[str, str] = {
    "lock": "1",
    "block": "1",
    "prevent_lp_loss": "1",
    "modify_ua_drain": "1",
    "damage": "4",
    "destroy": "5B",
    "lose_lp": "5C",
    "gain_ip": "5C",
    "draw": "5C",
    "mill": "5C",
    "discard": "5C",
    "exile": "5C",
    "return_to_hand": "5C",
    "gain_lp": "7",
}


class CardDataError(ValueError):
    """Card records the engine cannot play with; the message lists every problem."""


@dataclass(frozen=True, slots=True)
class Amount:
    """A counted amount: ``each`` times a counter (X paid, Pillars, Petitions, cards), capped."""

    each: int
    per: str
    branch: str | None = None
    cap: int | None = None


@dataclass(frozen=True, slots=True)
class Act:
    """One action of an effect (an op with its fields)."""

    op: str
    target: str | None = None
    amount: int | Amount | None = None
    choice: str | None = None
    source: str | None = None
    whose: str | None = None
    delta: int = 0

    @property
    def card_target(self) -> bool:
        """Return True when the controller picks a card for this action."""
        return self.target in CARD_TARGETS


def responds(act: Act) -> bool:
    """Return True when ``act`` only locks, blocks, prevents or modifies what the opponent's
    Resolve Phase does ("2. WHO MAY INTERACT (CRITICAL DISTINCTION)"): a lock or a block, LP
    loss prevention, a cut to the opponent's UA LP drain, or an action aimed at an opponent's
    Attack card (which alters the Attack Damage about to resolve)."""
    if act.op in ("lock", "block", "prevent_lp_loss"):
        return True
    if act.op == "modify_ua_drain":
        return act.whose == "opponent"
    return act.target == "opponent_attack"


@dataclass(frozen=True, slots=True)
class Effect:
    """One effect: its trigger, cost, condition, actions and duration."""

    trigger: str
    acts: tuple[Act, ...]
    cost_ip: int | str | None = None
    discard_self: bool = False
    branch: str | None = None
    at_least: int = 0
    lp_at_most: int | None = None
    duration: str | None = None
    #: the actions whose target is a card the controller picks, in order
    targets: tuple[Act, ...] = field(default=(), compare=False)
    #: Resolve Phase step -> (action index, action) of the actions done at that step
    steps: Mapping[str, tuple[tuple[int, Act], ...]] = field(
        default_factory=dict, compare=False, hash=False
    )
    #: the largest X worth paying (beyond every cap an X amount has, X buys nothing)
    x_top: int = field(default=10, compare=False)
    #: True when every action only interacts with what the opponent's Resolve Phase does, so
    #: the inactive player may use it in their response (``responds``, Ruling 19)
    response: bool = field(default=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "targets", tuple(a for a in self.acts if a.card_target))
        steps: dict[str, list[tuple[int, Act]]] = {}
        for index, act in enumerate(self.acts):
            steps.setdefault(OP_STEP[act.op], []).append((index, act))
        object.__setattr__(self, "steps", {k: tuple(v) for k, v in steps.items()})
        top = 10
        for act in self.acts:
            amount = act.amount
            if isinstance(amount, Amount) and amount.per == "x" and amount.cap:
                top = min(top, -(-amount.cap // amount.each))
        object.__setattr__(self, "x_top", top)
        object.__setattr__(self, "response", all(responds(act) for act in self.acts))

    @property
    def pay_x(self) -> bool:
        """Return True for a ``Pay X IP`` effect."""
        return self.cost_ip == "X"


@dataclass(frozen=True, slots=True)
class CardSpec:
    """One card definition: what the engine needs to play it."""

    key: str
    name: str
    type: str
    branch: str | None
    petition: bool
    cost: int
    attack: int
    defense: int
    drain: int
    generation: int
    effects: tuple[Effect, ...]
    kind: str = field(default="", compare=False)
    by_trigger: Mapping[str, tuple[tuple[int, Effect], ...]] = field(
        default_factory=dict, compare=False, hash=False
    )
    #: (effect index, action index, action) of every static action
    static_acts: tuple[tuple[int, int, Act], ...] = field(default=(), compare=False)
    #: the card-target actions of its On play effects, in the order they are declared
    play_targets: tuple[Act, ...] = field(default=(), compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "kind", PETITION if self.petition else self.type)
        grouped: dict[str, list[tuple[int, Effect]]] = {}
        for index, effect in enumerate(self.effects):
            grouped.setdefault(effect.trigger, []).append((index, effect))
        object.__setattr__(self, "by_trigger", {k: tuple(v) for k, v in grouped.items()})
        statics = tuple(
            (i, n, act)
            for i, effect in enumerate(self.effects)
            if effect.trigger == "static"
            for n, act in enumerate(effect.acts)
        )
        object.__setattr__(self, "static_acts", statics)
        object.__setattr__(
            self,
            "play_targets",
            tuple(a for e in self.effects if e.trigger == "on_play" for a in e.targets),
        )

    def effects_with(self, trigger: str) -> tuple[tuple[int, Effect], ...]:
        """Return (index, effect) for every effect with ``trigger``."""
        return self.by_trigger.get(trigger, ())


def _plain(record: Mapping[str, Any] | CardRecord) -> dict[str, Any]:
    if isinstance(record, CardRecord):
        return record.as_record()
    return thaw(record)


def _amount_problems(where: str, amount: Any, maximum: int | None) -> list[str]:
    if isinstance(amount, bool) or amount is None:
        return [f"{where}: an amount is needed"]
    if isinstance(amount, int):
        if amount < 1 or (maximum is not None and amount > maximum):
            return [f"{where}: amount {amount} is outside 1..{maximum}"]
        return []
    if not isinstance(amount, Mapping):
        return [f"{where}: an amount is a whole number or a counted amount"]
    problems = []
    extra = set(amount) - {"each", "per", "branch", "max"}
    if extra:
        problems.append(f"{where}: unknown amount keys {sorted(extra)}")
    each, per = amount.get("each"), amount.get("per")
    if not isinstance(each, int) or each < 1:
        problems.append(f"{where}: a counted amount needs a positive 'each'")
    if per not in COUNTERS:
        problems.append(f"{where}: the engine cannot count {per!r}")
    branch = amount.get("branch")
    if per == "card" and branch not in BRANCHES:
        problems.append(f"{where}: 'for each card' needs a branch")
    if per in ("x", "petition") and branch is not None:
        problems.append(f"{where}: the {per} counter takes no branch")
    if branch is not None and branch not in BRANCHES:
        problems.append(f"{where}: unknown branch {branch!r}")
    cap = amount.get("max")
    if cap is not None and (not isinstance(cap, int) or cap < 1):
        problems.append(f"{where}: 'max' must be a positive whole number")
    return problems


def _effect_problems(kind: str, index: int, effect: Any) -> list[str]:
    where = f"effects.{index}"
    if not isinstance(effect, Mapping):
        return [f"{where}: an effect is a mapping"]
    problems: list[str] = []
    extra = set(effect) - {"trigger", "actions", "cost", "condition", "duration"}
    if extra:
        problems.append(f"{where}: the engine does not know {sorted(extra)}")
    trigger = effect.get("trigger")
    allowed = TRIGGERS_BY_TYPE.get(kind, frozenset())
    if trigger not in allowed:
        problems.append(f"{where}.trigger: a {kind} card cannot use trigger {trigger!r}")
    cost = effect.get("cost")
    if trigger == "activated":
        if not isinstance(cost, Mapping) or not cost:
            problems.append(f"{where}.cost: an activated effect needs a cost")
        else:
            if set(cost) - {"ip", "discard_self"}:
                problems.append(f"{where}.cost: the engine cannot pay {sorted(set(cost))}")
            ip = cost.get("ip")
            if ip is not None and ip != "X" and not (isinstance(ip, int) and 1 <= ip <= 10):
                problems.append(f"{where}.cost.ip: {ip!r} is not 1..10 or X")
            if "discard_self" in cost and cost["discard_self"] is not True:
                problems.append(f"{where}.cost.discard_self: must be true")
            if cost.get("discard_self") and kind == DEFENSE:
                problems.append(
                    f"{where}.cost: a Defense card cannot rely on Forced Resolution (use on_destroyed)"
                )
    elif cost is not None:
        problems.append(f"{where}.cost: only activated effects have a cost")
    condition = effect.get("condition")
    if condition is not None:
        if not isinstance(condition, Mapping) or not condition:
            problems.append(f"{where}.condition: a condition is a non-empty mapping")
        else:
            if set(condition) - {"controls_branch", "at_least", "lp_at_most"}:
                problems.append(f"{where}.condition: unknown keys {sorted(set(condition))}")
            if ("controls_branch" in condition) != ("at_least" in condition):
                problems.append(f"{where}.condition: controls_branch and at_least go together")
            if "controls_branch" in condition and condition["controls_branch"] not in BRANCHES:
                problems.append(
                    f"{where}.condition: unknown branch {condition['controls_branch']!r}"
                )
    duration = effect.get("duration")
    actions = effect.get("actions")
    if not isinstance(actions, list | tuple) or not 1 <= len(actions) <= 3:
        return [*problems, f"{where}.actions: one to three actions are needed"]
    has_x_amount = False
    for number, action in enumerate(actions):
        at = f"{where}.actions.{number}"
        if not isinstance(action, Mapping):
            problems.append(f"{at}: an action is a mapping")
            continue
        op = action.get("op")
        if op not in OPS:
            problems.append(f"{at}.op: the engine cannot execute {op!r}")
            continue
        extra = set(action) - ACTION_KEYS[op]
        if extra:
            problems.append(f"{at}: {op} does not take {sorted(extra)}")
        targets, maximum = OPS[op]
        target = action.get("target")
        if targets is None and target is not None:
            problems.append(f"{at}.target: {op} acts on its controller and takes no target")
        if targets is not None and target not in targets:
            problems.append(f"{at}.target: {op} cannot target {target!r}")
        if "amount" in ACTION_KEYS[op]:
            problems.extend(_amount_problems(f"{at}.amount", action.get("amount"), maximum))
            amount = action.get("amount")
            if isinstance(amount, Mapping) and amount.get("per") == "x":
                has_x_amount = True
        if op == "discard" and action.get("choice") not in ("random", "chosen"):
            problems.append(f"{at}.choice: discard is 'random' or 'chosen'")
        if op == "prevent_lp_loss" and action.get("source") not in ("any", "ua_drain"):
            problems.append(f"{at}.source: prevention is from 'any' or 'ua_drain'")
        if op == "modify_ua_drain":
            whose, delta = action.get("whose"), action.get("delta")
            if whose not in ("yours", "opponent") or not isinstance(delta, int):
                problems.append(f"{at}: modify_ua_drain needs whose and a whole delta")
            elif (whose == "yours" and not 1 <= delta <= 3) or (
                whose == "opponent" and not -3 <= delta <= -1
            ):
                problems.append(f"{at}.delta: no self harm (raise yours, lower the opponent's)")
        if trigger == "static" and op not in LASTING_OPS:
            problems.append(f"{at}.op: a static effect only holds lasting actions")
        if trigger == "when_gain_ip" and op == "gain_ip":
            problems.append(f"{at}.op: a 'when you gain IP' effect may not gain IP")
        if op in LASTING_OPS and trigger != "static" and duration not in DURATIONS:
            problems.append(f"{at}: {op} needs a duration outside a static effect")
    if duration is not None:
        if duration not in DURATIONS:
            problems.append(f"{where}.duration: unknown duration {duration!r}")
        if trigger == "static":
            problems.append(f"{where}.duration: a static effect lasts while its card is in play")
        if any(isinstance(a, Mapping) and a.get("op") not in LASTING_OPS for a in actions):
            problems.append(f"{where}.duration: only lasting actions take a duration")
    pay_x = isinstance(cost, Mapping) and cost.get("ip") == "X"
    if has_x_amount != pay_x:
        problems.append(f"{where}: an X amount and a Pay X IP cost need each other")
    return problems


def card_problems(record: Mapping[str, Any] | CardRecord) -> list[str]:
    """Return why the engine could not play ``record`` (empty when it can)."""
    data = _plain(record)
    card_type = data.get("type")
    if card_type not in CARD_TYPES:
        return [f"type: the engine does not know card type {card_type!r}"]
    petition = PETITION in (data.get("subtypes") or ())
    kind = PETITION if petition and card_type == RIGHTS else card_type
    problems: list[str] = []
    if petition and card_type != RIGHTS:
        problems.append("subtypes: only a Rights card can be a Petition")
    needs = {
        UA: ("defense", "drain"),
        PILLAR: ("generation",),
        ATTACK: ("cost", "attack"),
        DEFENSE: ("cost", "defense"),
        RIGHTS: ("cost",),
        FREEDOM: ("cost",),
        BILL: ("cost",),
    }[card_type]
    for column in needs:
        value = data.get(column)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            problems.append(f"{column}: a {card_type} card needs a printed {column}")
    if card_type != UA and data.get("branch") not in BRANCHES:
        problems.append("branch: every card but a UA shows one Branch symbol")
    effects = data.get("effects") or []
    if card_type in (RIGHTS, FREEDOM, BILL) and not effects:
        problems.append("effects: this card type does nothing without an effect")
    for index, effect in enumerate(effects):
        problems.extend(_effect_problems(kind, index, effect))
    return problems


def _parse_amount(amount: Any) -> int | Amount | None:
    if amount is None or isinstance(amount, int):
        return amount
    return Amount(
        each=int(amount["each"]),
        per=str(amount["per"]),
        branch=amount.get("branch"),
        cap=amount.get("max"),
    )


def _parse_effect(effect: Mapping[str, Any]) -> Effect:
    cost = effect.get("cost") or {}
    condition = effect.get("condition") or {}
    acts = tuple(
        Act(
            op=a["op"],
            target=a.get("target"),
            amount=_parse_amount(a.get("amount")),
            choice=a.get("choice"),
            source=a.get("source"),
            whose=a.get("whose"),
            delta=int(a.get("delta", 0)),
        )
        for a in effect["actions"]
    )
    return Effect(
        trigger=effect["trigger"],
        acts=acts,
        cost_ip=cost.get("ip"),
        discard_self=bool(cost.get("discard_self")),
        branch=condition.get("controls_branch"),
        at_least=int(condition.get("at_least", 0)),
        lp_at_most=condition.get("lp_at_most"),
        duration=effect.get("duration"),
    )


def card_spec(record: Mapping[str, Any] | CardRecord) -> CardSpec:
    """Build a ``CardSpec``; raise CardDataError naming the card when the engine cannot play it."""
    data = _plain(record)
    name = str(data.get("name", "?"))
    problems = card_problems(data)
    if problems:
        raise CardDataError("; ".join(f"{name}: {p}" for p in problems))
    return CardSpec(
        key=card_key(name),
        name=name,
        type=data["type"],
        branch=data.get("branch"),
        petition=PETITION in (data.get("subtypes") or ()),
        cost=int(data.get("cost") or 0),
        attack=int(data.get("attack") or 0),
        defense=int(data.get("defense") or 0),
        drain=int(data.get("drain") or 0),
        generation=int(data.get("generation") or 0),
        effects=tuple(_parse_effect(e) for e in data.get("effects") or ()),
    )


def fixture_records(folder: Path = FIXTURE_DIR) -> list[dict[str, Any]]:
    """Read the game's fixture files into ``Card.record()``-shaped dicts, without Django."""
    return read_fixture_records(folder)


def fixture_rules_texts(folder: Path = FIXTURE_DIR) -> dict[str, str]:
    """Return each fixture card's printed ``rules_text`` by name."""
    texts: dict[str, str] = {}
    for path in sorted((folder / "cards").glob("*.yaml")):
        for entry in read_yaml(path) or []:
            texts[entry["name"]] = entry.get("rules_text", "")
    return texts


_LINE = re.compile(r"^\s*(\d+)\s*x?\s+(.+?)\s*$")


def read_decklist(text: str) -> list[tuple[int, str]]:
    """Read a plain-text decklist into (count, name) pairs (comments and [sections] skipped)."""
    entries: list[tuple[int, str]] = []
    for line in text.splitlines():
        stripped = line.strip()
        if not stripped or stripped.startswith(("#", "//", "[")):
            continue
        match = _LINE.match(stripped)
        if match is None:
            raise CardDataError(f"cannot read decklist line {stripped!r}")
        entries.append((int(match.group(1)), match.group(2)))
    return entries


def deck_records(
    entries: Iterable[tuple[int, str]], records: Iterable[Mapping[str, Any]]
) -> list[Mapping[str, Any]]:
    """Expand (count, name) entries into one record per physical card."""
    by_key = {card_key(str(r["name"])): r for r in records}
    deck: list[Mapping[str, Any]] = []
    for count, name in entries:
        record = by_key.get(card_key(name))
        if record is None:
            raise CardDataError(f"{name!r} is not a Revolt N Reign card")
        deck.extend([record] * count)
    return deck


def sample_decks(folder: Path = DECK_DIR) -> dict[str, list[tuple[int, str]]]:
    """Return the legal sample decklists by file stem (``legal-bison-pressure`` ...)."""
    return {
        path.stem: read_decklist(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("legal-*.txt"))
    }
