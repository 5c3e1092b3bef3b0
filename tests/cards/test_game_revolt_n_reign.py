"""Revolt N Reign card data: counts, the card schema and effect language, the doc, the export.

The real fixtures are loaded into the test database by ``tests/conftest.py``. Rulings referred to
by number are in ``docs/rules/revolt-n-reign.md``.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command
from hypothesis import given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity
from cards.schema import record_errors
from tests.cards.rows import branch_slug, rarity_slug

GAME = "revolt-n-reign"
DOC = Path(settings.BASE_DIR) / "docs" / "rules" / "revolt-n-reign.md"

BRANCHES = ("bison", "eagle", "liberty-bell", "scroll")
RARITIES = ("common", "uncommon", "rare")
UA_PATTERN = {"common": (20, 1), "uncommon": (25, 1), "rare": (30, 2)}
MINIMUM_PER_TYPE = {
    "unconstitutional-act": 10,
    "attack": 30,
    "defense": 25,
    "rights": 25,
    "freedom": 12,
    "bill": 12,
}
LASTING_OPS = {"block", "prevent_lp_loss", "modify_ua_drain"}

pytestmark = pytest.mark.django_db


# ---------------------------------------------------------------- helpers


@pytest.fixture
def game() -> Game:
    return Game.objects.get(slug=GAME)


@pytest.fixture
def cards(game: Game) -> list[Card]:
    return list(Card.objects.for_game(game).with_related())


def _subtypes(card: Card) -> set[str]:
    return {subtype.slug for subtype in card.subtypes.all()}


def _is_petition(card: Card) -> bool:
    return "petition" in _subtypes(card)


def _effects(card: Card) -> Iterator[dict[str, Any]]:
    yield from card.effects


def _actions(card: Card) -> Iterator[dict[str, Any]]:
    for effect in card.effects:
        yield from effect["actions"]


def _unsaved_card(game: Game, type_slug: str, **fields: Any) -> Card:
    """A new card of this game with the given vocabulary slugs and column values."""
    branch = fields.pop("branch", None)
    rarity = fields.pop("rarity", "common")
    name = fields.pop("name", "Schema Probe")
    return Card(
        game=game,
        card_set=CardSet.objects.get(game=game, code="RNR1"),
        card_type=CardType.objects.get(game=game, slug=type_slug),
        branch=Branch.objects.get(game=game, slug=branch) if branch else None,
        rarity=Rarity.objects.get(game=game, slug=rarity),
        name=name,
        slug="schema-probe",
        name_key="schema probe",
        rules_text="Probe.",
        **fields,
    )


def _errors(card: Card, subtypes: list[str] | None = None) -> str:
    """Every validation message for ``card`` joined into one string ('' when it is valid)."""
    try:
        if subtypes is None:
            card.full_clean(validate_unique=False, validate_constraints=False)
        else:
            card.clean(subtypes=subtypes)
    except ValidationError as exc:
        return "\n".join(exc.messages)
    return ""


def _valid_attack(game: Game, **fields: Any) -> Card:
    values: dict[str, Any] = {"branch": "eagle", "cost": 2, "attack": 15, "effects": []}
    values.update(fields)
    return _unsaved_card(game, "attack", **values)


def _attack_record(effects: list[Any]) -> dict[str, Any]:
    """A plain Attack card record for schema-only property tests."""
    return {
        "name": "Probe",
        "type": "attack",
        "subtypes": [],
        "branch": "eagle",
        "rarity": "common",
        "set": "RNR1",
        "cost": 2,
        "attack": 15,
        "stats": {},
        "effects": effects,
    }


def _doc_table(heading: str) -> set[str]:
    """The code values in the first column of the table under ``### heading`` in the rules doc."""
    lines = DOC.read_text(encoding="utf-8").splitlines()
    start = lines.index(f"### {heading}")
    values = set()
    for line in lines[start + 1 :]:
        if line.startswith("#"):
            break
        match = re.match(r"^\| `([^`]+)` \|", line)
        if match:
            values.add(match.group(1))
    return values


def _schema_targets(schema: dict[str, Any]) -> set[str]:
    targets: set[str] = set()
    for rule in schema["$defs"]["action"]["allOf"]:
        target = rule["then"]["properties"].get("target")
        if target:
            targets.update(target["enum"])
    return targets


# ---------------------------------------------------------------- the game and its vocabulary


def test_game_vocabulary_uses_the_stable_slugs(game: Game) -> None:
    assert (game.name, game.rulebook, game.branch_label) == (
        "Revolt N Reign",
        "revolt-n-reign.txt",
        "Branch",
    )
    assert (game.min_players, game.max_players, game.sort_order) == (2, 2, 1)
    assert game.deck_summary == "60 cards (3 Unconstitutional Acts + 57)"
    assert {column: meta["name"] for column, meta in game.number_labels.items()} == {
        "cost": "ip_cost",
        "attack": "attack_damage",
        "defense": "defense_points",
        "drain": "lp_drain",
        "generation": "ip_generation",
    }
    assert set(CardType.objects.for_game(game).values_list("slug", flat=True)) == {
        "unconstitutional-act",
        "pillar",
        "attack",
        "defense",
        "rights",
        "freedom",
        "bill",
    }
    assert set(Branch.objects.for_game(game).values_list("slug", flat=True)) == set(BRANCHES)
    assert set(Rarity.objects.for_game(game).values_list("slug", flat=True)) == set(RARITIES)
    sets = {s.code: s.release_date.isoformat() for s in CardSet.objects.for_game(game)}
    assert sets == {"RNR1": "2026-03-01", "RNR2": "2026-09-01"}


# ---------------------------------------------------------------- counts and coverage


def test_card_pool_meets_the_minimum_per_type(cards: list[Card]) -> None:
    counts = Counter(card.card_type.slug for card in cards)

    assert len(cards) >= 150
    for type_slug, minimum in MINIMUM_PER_TYPE.items():
        assert counts[type_slug] >= minimum, type_slug
    assert counts["pillar"] >= 4 * len(RARITIES)


def test_every_type_spans_every_rarity_and_branch(cards: list[Card]) -> None:
    rarities: dict[str, set[str]] = {}
    branches: dict[str, set[str]] = {}
    for card in cards:
        rarities.setdefault(card.card_type.slug, set()).add(rarity_slug(card))
        if card.branch:
            branches.setdefault(card.card_type.slug, set()).add(branch_slug(card))

    for type_slug, seen in rarities.items():
        assert seen == set(RARITIES), type_slug
    for type_slug in ("pillar", "attack", "defense", "rights", "freedom", "bill"):
        assert branches[type_slug] == set(BRANCHES), type_slug


def test_both_sets_are_used_and_most_cards_are_in_the_founding_set(cards: list[Card]) -> None:
    per_set = Counter(card.card_set.code for card in cards)

    assert set(per_set) == {"RNR1", "RNR2"}
    assert per_set["RNR1"] > 3 * per_set["RNR2"] > 0


def test_petitions_are_rights_cards(cards: list[Card]) -> None:
    petitions = [card for card in cards if _is_petition(card)]

    assert len(petitions) >= 8
    assert {card.card_type.slug for card in petitions} == {"rights"}


def test_petition_subtype_only_on_rights(cards: list[Card]) -> None:
    assert all(card.card_type.slug == "rights" for card in cards if _subtypes(card))


def test_every_ua_has_no_branch_and_no_ip_cost(cards: list[Card]) -> None:
    uas = [card for card in cards if card.card_type.slug == "unconstitutional-act"]

    assert uas
    for ua in uas:
        assert ua.branch is None and ua.cost is None, ua.name
        assert ua.defense and ua.drain, ua.name


def test_every_ua_follows_the_historical_pattern(cards: list[Card]) -> None:
    """Ruling 3: the data follows the pattern, though the schema does not require it."""
    uas = [card for card in cards if card.card_type.slug == "unconstitutional-act"]

    assert {rarity_slug(ua) for ua in uas} == set(RARITIES)
    for ua in uas:
        assert (ua.defense, ua.drain) == UA_PATTERN[rarity_slug(ua)], ua.name


def test_pillars_cover_every_branch_in_common_and_rare(cards: list[Card]) -> None:
    pillars = [card for card in cards if card.card_type.slug == "pillar"]
    seen = {(branch_slug(card), rarity_slug(card)) for card in pillars}

    for branch in BRANCHES:
        assert (branch, "common") in seen and (branch, "rare") in seen, branch
    assert any(rarity_slug(card) == "uncommon" for card in pillars)
    assert all(card.cost is None and card.generation for card in pillars)
    one_ip = sum(card.generation == 1 for card in pillars)
    assert one_ip >= 0.8 * len(pillars)


def test_some_cards_cost_zero_ip(cards: list[Card]) -> None:
    """Ruling 17: cards printing an IP cost of 0 exist for Pre-Game Equalization."""
    zero = [card for card in cards if card.cost == 0]

    assert len(zero) >= 4
    assert {card.card_type.slug for card in zero} >= {"attack", "defense"}


def test_names_are_unique_ignoring_case_and_punctuation(cards: list[Card]) -> None:
    keys = Counter(card.name_key for card in cards)

    assert [key for key, count in keys.items() if count > 1] == []


# ---------------------------------------------------------------- deck variety


def _construction_problems(deck: Counter[str], by_name: dict[str, Card]) -> list[str]:
    """The construction rules of docs/rules/revolt-n-reign.md, as an independent oracle."""
    problems = []
    types: Counter[str] = Counter()
    for name, copies in deck.items():
        types[by_name[name].card_type.slug] += copies
    doubled = 0
    for name, copies in deck.items():
        card = by_name[name]
        kind = card.card_type.slug
        if kind == "pillar" and rarity_slug(card) != "rare":
            continue
        limit = 2 if kind in ("attack", "defense") else 1
        if copies > limit:
            problems.append(f"copy-limit {name}")
        doubled += copies == 2 and kind in ("attack", "defense")
    if sum(deck.values()) != 60:
        problems.append("deck-size")
    if types["unconstitutional-act"] != 3:
        problems.append("ua-count")
    if doubled > 4:
        problems.append("duplicate-names")
    if types["rights"] > 12:
        problems.append("rights-cap")
    if types["freedom"] > 3:
        problems.append("freedom-cap")
    if types["bill"] > 3:
        problems.append("bill-cap")
    return problems


def _build_deck(cards: list[Card], branch: str, attack_doubles: int) -> Counter[str]:
    """A legal-by-construction deck leaning on ``branch``; other branches fill gaps."""

    def pick(type_slug: str, count: int, petitions: bool | None = None) -> list[Card]:
        pool = [
            card
            for card in cards
            if card.card_type.slug == type_slug
            and (petitions is None or _is_petition(card) == petitions)
        ]
        pool.sort(key=lambda card: (card.branch is None or branch_slug(card) != branch, card.name))
        return pool[:count]

    deck: Counter[str] = Counter()
    offset = BRANCHES.index(branch)
    uas = sorted(
        (card for card in cards if card.card_type.slug == "unconstitutional-act"),
        key=lambda c: c.name,
    )
    for ua in (uas[offset], uas[offset + 4], uas[offset + 8]):
        deck[ua.name] = 1
    for card in pick("rights", 4, petitions=True) + pick("rights", 8, petitions=False):
        deck[card.name] = 1
    for card in pick("freedom", 3) + pick("bill", 3):
        deck[card.name] = 1
    attacks, defenses = pick("attack", 8), pick("defense", 6)
    for index, card in enumerate(attacks):
        deck[card.name] = 2 if index < attack_doubles else 1
    for index, card in enumerate(defenses):
        deck[card.name] = 2 if index < 4 - attack_doubles else 1
    common_pillars = [
        card
        for card in cards
        if card.card_type.slug == "pillar"
        and rarity_slug(card) == "common"
        and branch_slug(card) == branch
    ]
    index = 0
    while sum(deck.values()) < 60:
        deck[common_pillars[index % len(common_pillars)].name] += 1
        index += 1
    return deck


def test_the_pool_supports_many_different_legal_decks(cards: list[Card]) -> None:
    by_name = {card.name: card for card in cards}
    non_petition_rights = [c for c in cards if c.card_type.slug == "rights" and not _is_petition(c)]
    assert len(non_petition_rights) >= 12

    decks = [
        _build_deck(cards, branch, attack_doubles)
        for branch in BRANCHES
        for attack_doubles in range(5)
    ]

    for deck in decks:
        assert _construction_problems(deck, by_name) == []
    assert len({frozenset(deck.items()) for deck in decks}) == len(decks)


def test_the_construction_oracle_catches_each_broken_rule(cards: list[Card]) -> None:
    by_name = {card.name: card for card in cards}
    legal = _build_deck(cards, "scroll", 2)
    assert _construction_problems(legal, by_name) == []
    rare_pillar = next(
        c for c in cards if c.card_type.slug == "pillar" and rarity_slug(c) == "rare"
    )
    extra_rights = [c.name for c in cards if c.card_type.slug == "rights" and c.name not in legal][
        :1
    ]
    broken = legal.copy()
    broken[rare_pillar.name] = 2
    broken[extra_rights[0]] = 1

    problems = _construction_problems(broken, by_name)

    assert f"copy-limit {rare_pillar.name}" in problems
    assert "rights-cap" in problems and "deck-size" in problems


# ---------------------------------------------------------------- the effect language in the data


def test_every_card_has_rules_text(cards: list[Card]) -> None:
    assert [card.name for card in cards if not card.rules_text.strip()] == []


def test_rules_text_opens_with_the_core_sentence(cards: list[Card]) -> None:
    templates = {
        "unconstitutional-act": "Each of your turns, the opponent loses {drain} LP (UA LP drain).",
        "pillar": "Each of your turns, generate {generation} IP.",
        "attack": "Deal {attack} attack damage to an opponent's Defense, "
        "or to a UA if they control no Defense.",
        "defense": "Protects your UAs with {defense} Defense points.",
    }
    for card in cards:
        template = templates.get(card.card_type.slug)
        if template:
            expected = template.format(
                drain=card.drain,
                generation=card.generation,
                attack=card.attack,
                defense=card.defense,
            )
            assert card.rules_text.startswith(expected), card.name


def test_rules_text_has_one_sentence_per_effect_with_its_trigger(cards: list[Card]) -> None:
    openings = {
        "on_play": "On play:",
        "each_turn": "Each turn:",
        "when_attacked": "When attacked:",
        "on_destroyed": "When destroyed:",
        "when_gain_ip": "When you gain IP:",
        "static": "While in play:",
    }
    for card in cards:
        for effect in card.effects:
            if effect["trigger"] == "activated":
                cost = effect["cost"]
                opening = f"Pay {cost['ip']} IP" if "ip" in cost else "Discard this card"
            else:
                opening = openings[effect["trigger"]]
            assert opening in card.rules_text, card.name


def test_one_time_rights_only_trigger_on_play(cards: list[Card]) -> None:
    """Ruling 7."""
    for card in cards:
        if card.card_type.slug == "rights" and not _is_petition(card):
            assert {effect["trigger"] for effect in card.effects} == {"on_play"}, card.name


def test_when_attacked_only_on_defense(cards: list[Card]) -> None:
    """Ruling 8."""
    for card in cards:
        if any(effect["trigger"] == "when_attacked" for effect in card.effects):
            assert card.card_type.slug == "defense", card.name


def test_no_defense_relies_on_forced_resolution(cards: list[Card]) -> None:
    """Ruling 10: Defense cards use on_destroyed, never a discard-self cost."""
    for card in cards:
        if card.card_type.slug == "defense":
            assert all(not effect.get("cost", {}).get("discard_self") for effect in card.effects), (
                card.name
            )


def test_prevention_text_names_ua_drain(cards: list[Card]) -> None:
    """Ruling 12: every prevention states that it affects UA LP drain."""
    preventing = [
        card for card in cards if any(a["op"] == "prevent_lp_loss" for a in _actions(card))
    ]

    assert preventing
    for card in preventing:
        assert "UA LP drain" in card.rules_text, card.name


def test_freedom_cards_offer_pay_x_abilities(cards: list[Card]) -> None:
    freedoms = [card for card in cards if card.card_type.slug == "freedom"]
    pay_x = [
        card
        for card in freedoms
        if any(effect.get("cost", {}).get("ip") == "X" for effect in card.effects)
    ]

    assert len(pay_x) >= 12


# ---------------------------------------------------------------- the schema rejects bad cards


def test_a_valid_card_passes_full_clean(game: Game) -> None:
    card = _valid_attack(
        game,
        effects=[
            {
                "trigger": "on_play",
                "actions": [{"op": "damage", "target": "opponent_defense", "amount": 10}],
            }
        ],
    )

    assert _errors(card) == ""


def test_schema_rejects_an_unknown_op(game: Game) -> None:
    card = _valid_attack(
        game, effects=[{"trigger": "on_play", "actions": [{"op": "smite", "amount": 3}]}]
    )

    message = _errors(card)

    assert "effects.0.actions.0.op: 'smite' is not one of" in message


def test_schema_rejects_a_misspelt_action_field(game: Game) -> None:
    card = _valid_attack(
        game,
        effects=[{"trigger": "on_play", "actions": [{"op": "draw", "amuont": 1}]}],
    )

    message = _errors(card)

    assert "effects.0.actions.0: 'amount' is a required property" in message
    assert "'amuont' was unexpected" in message


def test_schema_rejects_a_ua_with_a_branch(game: Game) -> None:
    card = _unsaved_card(
        game, "unconstitutional-act", branch="eagle", defense=20, drain=1, effects=[]
    )

    message = _errors(card)

    assert "branch: 'eagle' should not be valid" in message
    assert "an Unconstitutional Act has no branch" in message


def test_schema_rejects_a_ua_with_an_ip_cost(game: Game) -> None:
    card = _unsaved_card(game, "unconstitutional-act", cost=2, defense=20, drain=1, effects=[])

    assert (
        "cost: 2 should not be valid under {'description': 'an Unconstitutional Act has no IP cost'}"
        in _errors(card)
    )


def test_schema_rejects_an_attack_without_attack_damage(game: Game) -> None:
    card = _unsaved_card(game, "attack", branch="bison", cost=2, effects=[])

    assert "'attack' is a required property" in _errors(card)


def test_schema_rejects_a_card_without_a_branch(game: Game) -> None:
    card = _unsaved_card(game, "defense", cost=2, defense=15, effects=[])

    assert "'branch' is a required property" in _errors(card)


def test_schema_rejects_petition_on_a_non_rights_card(game: Game) -> None:
    card = _valid_attack(game)

    assert "type: 'rights' was expected" in _errors(card, subtypes=["petition"])


def test_schema_rejects_petition_on_a_pillar(game: Game) -> None:
    card = _unsaved_card(game, "pillar", branch="scroll", generation=1, effects=[])

    assert "type: 'rights' was expected" in _errors(card, subtypes=["petition"])
    assert _errors(card, subtypes=[]) == ""


def test_schema_accepts_a_ua_off_the_pattern(game: Game) -> None:
    """Ruling 3: a common UA with 30 DP and 2 drain is lawful card data."""
    card = _unsaved_card(game, "unconstitutional-act", defense=30, drain=2, effects=[])

    assert _errors(card) == ""


def test_schema_rejects_an_effect_without_trigger(game: Game) -> None:
    card = _valid_attack(game, effects=[{"actions": [{"op": "draw", "amount": 1}]}])

    assert "effects.0: 'trigger' is a required property" in _errors(card)


def test_schema_rejects_self_harm(game: Game) -> None:
    """Ruling 11: no target on your own side, no lowering your own drain."""
    own_lp = _valid_attack(
        game,
        effects=[
            {"trigger": "on_play", "actions": [{"op": "lose_lp", "target": "self", "amount": 2}]}
        ],
    )
    own_drain = _valid_attack(
        game,
        effects=[
            {
                "trigger": "on_play",
                "actions": [{"op": "modify_ua_drain", "whose": "yours", "delta": -1}],
                "duration": "this_turn",
            }
        ],
    )

    assert "effects.0.actions.0.target: 'self' is not one of ['opponent']" in _errors(own_lp)
    assert "effects.0.actions.0.delta: -1 is less than the minimum of 1" in _errors(own_drain)


def test_schema_rejects_a_duration_on_lock(game: Game) -> None:
    """Ruling 15."""
    card = _valid_attack(
        game,
        effects=[
            {
                "trigger": "on_play",
                "actions": [{"op": "lock", "target": "opponent_defense"}],
                "duration": "permanent",
            }
        ],
    )

    assert "effects.0.actions.0.op: 'lock' is not one of" in _errors(card)


def test_schema_rejects_a_lasting_action_without_duration(game: Game) -> None:
    card = _valid_attack(
        game,
        effects=[{"trigger": "on_play", "actions": [{"op": "block", "target": "opponent_mill"}]}],
    )

    assert "effects.0: 'duration' is a required property" in _errors(card)


def test_schema_rejects_gain_ip_when_gaining_ip(game: Game) -> None:
    """Ruling 16."""
    card = _unsaved_card(
        game,
        "pillar",
        branch="eagle",
        generation=1,
        effects=[{"trigger": "when_gain_ip", "actions": [{"op": "gain_ip", "amount": 1}]}],
    )

    assert "effects.0.actions.0.op" in _errors(card)


def test_schema_rejects_when_attacked_outside_defense(game: Game) -> None:
    card = _valid_attack(
        game, effects=[{"trigger": "when_attacked", "actions": [{"op": "draw", "amount": 1}]}]
    )

    assert "effects.0.trigger: 'when_attacked' is not one of" in _errors(card)


def test_schema_ties_x_amounts_to_pay_x_costs(game: Game) -> None:
    x_without_cost = _valid_attack(
        game,
        effects=[
            {"trigger": "on_play", "actions": [{"op": "draw", "amount": {"each": 1, "per": "x"}}]}
        ],
    )
    paid_x = _valid_attack(
        game,
        effects=[
            {
                "trigger": "activated",
                "cost": {"ip": "X"},
                "actions": [{"op": "draw", "amount": {"each": 1, "per": "x", "max": 3}}],
            }
        ],
    )

    assert "'cost' is a required property" in _errors(x_without_cost)
    assert _errors(paid_x) == ""


def test_schema_rejects_a_cost_outside_activated_effects(game: Game) -> None:
    card = _valid_attack(
        game,
        effects=[
            {"trigger": "on_play", "cost": {"ip": 1}, "actions": [{"op": "draw", "amount": 1}]}
        ],
    )

    assert "only activated effects have a cost" in _errors(card)


def test_schema_rejects_stats(game: Game) -> None:
    card = _valid_attack(game, stats={"speed": 1})

    assert "stats.speed: 1 should not be valid" in _errors(card)


# ---------------------------------------------------------------- property tests


def test_random_ops_outside_the_vocabulary_are_always_rejected(game: Game) -> None:
    schema = game.card_schema
    ops = set(schema["$defs"]["action"]["properties"]["op"]["enum"])

    @hypothesis_settings(max_examples=150, deadline=None)
    @given(op=st.text(min_size=1, max_size=20).filter(lambda text: text not in ops))
    def check(op: str) -> None:
        effect = {"trigger": "on_play", "actions": [{"op": op, "amount": 1}]}
        errors = record_errors(schema, _attack_record([effect]))
        assert any(e.startswith("effects.0.actions.0.op:") for e in errors)

    check()


def test_random_triggers_and_extra_keys_are_always_rejected(game: Game) -> None:
    schema = game.card_schema
    triggers = set(schema["$defs"]["effect"]["properties"]["trigger"]["enum"])
    effect_keys = set(schema["$defs"]["effect"]["properties"])

    @hypothesis_settings(max_examples=150, deadline=None)
    @given(
        trigger=st.text(min_size=1, max_size=20).filter(lambda text: text not in triggers),
        extra=st.text(min_size=1, max_size=12).filter(lambda text: text not in effect_keys),
        value=st.one_of(st.integers(), st.text(max_size=5), st.booleans(), st.none()),
    )
    def check(trigger: str, extra: str, value: Any) -> None:
        bad_trigger = {"trigger": trigger, "actions": [{"op": "draw", "amount": 1}]}
        extra_key = {"trigger": "on_play", "actions": [{"op": "draw", "amount": 1}], extra: value}
        assert record_errors(schema, _attack_record([bad_trigger]))
        assert record_errors(schema, _attack_record([extra_key]))

    check()


def test_damage_amounts_are_accepted_exactly_within_range(game: Game) -> None:
    schema = game.card_schema

    @hypothesis_settings(max_examples=150, deadline=None)
    @given(
        amount=st.integers(min_value=-100, max_value=200),
        target=st.sampled_from(
            ["opponent_defense", "opponent_ua", "opponent_lp", "opponent_attack"]
        ),
    )
    def check(amount: int, target: str) -> None:
        effect = {
            "trigger": "on_play",
            "actions": [{"op": "damage", "target": target, "amount": amount}],
        }
        errors = record_errors(schema, _attack_record([effect]))
        assert (errors == []) == (1 <= amount <= 50)

    check()


# ---------------------------------------------------------------- the doc cannot drift


def test_doc_tables_match_the_schema(game: Game) -> None:
    schema = game.card_schema
    effect = schema["$defs"]["effect"]

    assert _doc_table("Triggers") == set(effect["properties"]["trigger"]["enum"])
    assert _doc_table("Actions (ops)") == set(schema["$defs"]["action"]["properties"]["op"]["enum"])
    assert _doc_table("Targets") == _schema_targets(schema)
    assert _doc_table("Amounts") == set(schema["$defs"]["amount"]["properties"]["per"]["enum"])
    assert _doc_table("Conditions") == set(schema["$defs"]["condition"]["properties"])
    assert _doc_table("Durations") == set(effect["properties"]["duration"]["enum"])
    assert {value.split(":")[0] for value in _doc_table("Costs (activated effects)")} == set(
        schema["$defs"]["cost"]["properties"]
    )


def test_lasting_ops_in_the_doc_are_the_schema_ones(game: Game) -> None:
    rules = game.card_schema["$defs"]["effect"]["allOf"]
    static_rule = next(
        r for r in rules if r["if"].get("properties", {}).get("trigger") == {"const": "static"}
    )

    assert (
        set(static_rule["then"]["properties"]["actions"]["items"]["properties"]["op"]["enum"])
        == LASTING_OPS
    )
    text = DOC.read_text(encoding="utf-8")
    assert "Only the lasting ops `block`, `prevent_lp_loss` and `modify_ua_drain`" in text


def test_every_card_uses_only_documented_vocabulary(cards: list[Card]) -> None:
    triggers = _doc_table("Triggers")
    ops = _doc_table("Actions (ops)")
    targets = _doc_table("Targets")
    for card in cards:
        for effect in _effects(card):
            assert effect["trigger"] in triggers, card.name
        for action in _actions(card):
            assert action["op"] in ops, card.name
            assert action.get("target", "opponent") in targets, card.name


# ---------------------------------------------------------------- export contract


def test_export_cards_lists_every_card_with_the_contract_fields() -> None:
    out = io.StringIO()

    call_command("export_cards", "--game", GAME, stdout=out)
    exported = json.loads(out.getvalue())

    assert len(exported) >= 150
    fields = {
        "name",
        "slug",
        "set",
        "collector_number",
        "type",
        "subtypes",
        "branch",
        "rarity",
        "cost",
        "numbers",
        "copies_in_set",
        "stats",
        "effects",
        "rules_text",
        "flavor_text",
        "attribution",
    }
    for entry in exported:
        assert fields <= set(entry), entry["name"]
    attack = next(entry for entry in exported if entry["type"] == "attack")
    assert set(attack["numbers"]) == {"ip_cost", "attack_damage"}
    ua = next(entry for entry in exported if entry["type"] == "unconstitutional-act")
    assert set(ua["numbers"]) == {"defense_points", "lp_drain"} and ua["branch"] is None
