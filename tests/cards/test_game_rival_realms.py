"""Rival Realms card data: the card set, its effect language and the rulings it encodes.

The shipped fixtures are loaded into the test database by ``tests/conftest.py``; these tests read
them back. Rulings referenced from ``docs/rules/rival-realms.md`` name the tests below.
"""

from __future__ import annotations

import io
import json
import random
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command

from cards.models import Card, CardType, Game
from cards.naming import name_key
from tests.cards.rows import copies, rarity_slug
from tests.conftest import read_rulebook

pytestmark = pytest.mark.django_db

SLUG = "rival-realms"
DECK_SIZE = 40
PHASES = {"deploy", "attack", "defend", "reinforce", "resolve", "redraw", "any"}
PERMANENT_TYPES = {"realm", "unit"}
KINDS = {
    "realm": {"building", "fortification", "land"},
    "unit": {"soldier", "archer", "rider", "mystic", "beast", "siege"},
}
DOC = Path(settings.BASE_DIR) / "docs" / "rules" / "rival-realms.md"
RULEBOOK = Path(settings.RULEBOOKS_DIR) / "rival-realms.md"


@pytest.fixture
def game() -> Game:
    return Game.objects.get(slug=SLUG)


@pytest.fixture
def cards(game: Game) -> list[Card]:
    return list(Card.objects.filter(game=game).with_related().order_by("collector_number"))


def abilities(card: Card) -> Iterator[dict[str, Any]]:
    yield from card.effects


def referenced_names(card: Card) -> Iterator[tuple[str, str]]:
    """Every card name a card's data refers to, with where it is referred to."""
    for name in card.stats.get("prerequisites", []):
        yield "prerequisites", name
    for index, payment in enumerate(card.stats.get("additional_costs", [])):
        if "name" in payment:
            yield f"additional_costs.{index}", payment["name"]
    for index, ability in enumerate(card.effects):
        for payment in ability.get("cost", []):
            if "name" in payment:
                yield f"effects.{index}.cost", payment["name"]
        for condition in ability.get("conditions", []):
            for name in condition.get("names", []):
                yield f"effects.{index}.conditions", name


def test_game_metadata(game: Game) -> None:
    assert game.name == "Rival Realms"
    assert (game.min_players, game.max_players) == (2, 2)
    assert game.sort_order == 2
    assert game.deck_summary == "40 cards from the card set"
    assert game.number_field("supply_cost") == "cost"
    assert game.number_field("supply") == "generation"


def test_game_has_no_branches(game: Game, cards: list[Card]) -> None:
    assert not game.branch_set.exists()
    assert all(card.branch_id is None for card in cards)


def test_card_set_has_at_least_60_distinct_cards_of_every_type(cards: list[Card]) -> None:
    by_type = Counter(card.card_type.slug for card in cards)

    assert len(cards) >= 60
    assert len({name_key(card.name) for card in cards}) == len(cards)
    assert set(by_type) == {"supply", "realm", "unit", "reinforce"}
    assert by_type["supply"] >= 5 and by_type["realm"] >= 15
    assert by_type["unit"] >= 20 and by_type["reinforce"] >= 10
    assert {card.card_set.code for card in cards} == {"RR1"}
    numbers = [card.collector_number for card in cards]
    assert numbers == [f"{n:03d}" for n in range(1, len(cards) + 1)]


def test_copies_in_set_is_on_every_card_and_varies(cards: list[Card]) -> None:
    assert all(card.copies_in_set and card.copies_in_set >= 1 for card in cards)
    supply = [copies(card) for card in cards if card.card_type.slug == "supply"]
    assert all(6 <= copies <= 10 for copies in supply)
    assert all(card.copies_in_set == 1 for card in cards if rarity_slug(card) == "rare")
    assert len({card.copies_in_set for card in cards}) >= 5


def test_printed_numbers_fit_each_type(cards: list[Card]) -> None:
    for card in cards:
        kind = card.card_type.slug
        if kind == "supply":
            assert card.generation and card.cost is None, card.name
        else:
            assert card.cost is not None and card.generation is None, card.name
        has_combat_numbers = card.attack is not None and card.defense is not None
        assert has_combat_numbers == (kind == "unit"), card.name


def test_rules_text_agrees_with_the_data(cards: list[Card]) -> None:
    phase_labels = {phase: phase.capitalize() for phase in PHASES} | {"any": "Any phase"}
    for card in cards:
        text = card.rules_text
        if card.card_type.slug == "supply":
            assert text.startswith(f"Supply {card.generation}."), card.name
        for subtype in card.subtypes.all():
            if card.card_type.slug == "unit":
                assert text.startswith(f"{subtype.name}."), card.name
        for name in card.stats.get("prerequisites", []):
            assert f"Prerequisite: {name}." in text, card.name
        if card.stats.get("additional_costs"):
            assert "Additional cost: " in text, card.name
        for ability in abilities(card):
            if ability["ability"] == "activated":
                label = "/".join(phase_labels[p] for p in ability["phases"])
                assert f"{label} - " in text, card.name
            if ability["ability"] == "victory":
                assert "Victory: " in text, card.name


def test_reinforce_cards_are_marked_once_or_discard(cards: list[Card]) -> None:
    kinds = Counter(
        card.stats["reinforce_kind"] for card in cards if card.card_type.slug == "reinforce"
    )
    assert set(kinds) == {"once", "discard"}
    assert all(
        "reinforce_kind" not in card.stats for card in cards if card.card_type.slug != "reinforce"
    )
    for card in cards:
        if card.card_type.slug == "reinforce":
            label = "Once Reinforce." if card.stats["reinforce_kind"] == "once" else "Discard"
            assert card.rules_text.startswith(label), card.name


def test_units_and_realms_have_exactly_one_kind(cards: list[Card]) -> None:
    for card in cards:
        subtypes = {s.slug for s in card.subtypes.all()}
        if card.card_type.slug in KINDS:
            assert len(subtypes) == 1 and subtypes <= KINDS[card.card_type.slug], card.name
        else:
            assert not subtypes, card.name


def test_card_types_state_when_they_are_played(game: Game) -> None:
    descriptions = {t.slug: t.description for t in CardType.objects.for_game(game)}
    assert "any time" in descriptions["supply"]
    assert "only during the player's deploy phase" in descriptions["realm"]
    assert "only during the player's deploy phase" in descriptions["unit"]
    assert "only during the reinforce phase" in descriptions["reinforce"]


def test_every_named_card_reference_is_a_real_card_of_the_set(cards: list[Card]) -> None:
    by_key = {name_key(card.name): card for card in cards}
    problems = []
    for card in cards:
        for where, name in referenced_names(card):
            target = by_key.get(name_key(name))
            if target is None:
                problems.append(f"{card.name}: {where} names unknown card {name!r}")
            elif target.pk == card.pk:
                problems.append(f"{card.name}: {where} names the card itself")
            elif target.card_type.slug not in PERMANENT_TYPES:
                problems.append(f"{card.name}: {where} names {name!r}, which is never on a field")
    assert not problems, "\n".join(problems)


def test_prerequisite_chains_are_playable(cards: list[Card]) -> None:
    """Every card can eventually be played: prerequisites form no cycle and start from nothing."""
    playable: set[str] = set()
    changed = True
    while changed:
        changed = False
        for card in cards:
            needs = {name_key(n) for n in card.stats.get("prerequisites", [])}
            if name_key(card.name) not in playable and needs <= playable:
                playable.add(name_key(card.name))
                changed = True
    assert playable == {name_key(card.name) for card in cards}
    assert sum(1 for card in cards if card.stats.get("prerequisites")) >= 15


def test_additional_costs_are_used_and_never_name_a_prerequisite(cards: list[Card]) -> None:
    with_costs = [card for card in cards if card.stats.get("additional_costs")]
    assert len(with_costs) >= 5
    for card in with_costs:
        prerequisites = {name_key(n) for n in card.stats.get("prerequisites", [])}
        for payment in card.stats["additional_costs"]:
            assert name_key(payment.get("name", "")) not in prerequisites, card.name


def test_abilities_use_the_rulebook_phases(cards: list[Card]) -> None:
    used: set[str] = set()
    for card in cards:
        for ability in abilities(card):
            used.update(ability.get("phases", []))
    assert used <= PHASES
    assert used == PHASES  # every phase of the turn sequence has at least one ability


def test_sacrifice_costs_are_explicit_cost_entries(cards: list[Card]) -> None:
    """What "participating in combat" forbids can only be checked if self-sacrifice is a cost."""
    self_costs = {
        card.name
        for card in cards
        for ability in abilities(card)
        for payment in ability.get("cost", [])
        if payment["pay"] in {"discard_self", "lose_self"}
    }
    assert {"Hedge Witch", "Martyr Acolyte", "Battering Ram"} <= self_costs
    for card in cards:
        for ability in abilities(card):
            for op in ability.get("do", []):
                if op["op"] == "lose_card":
                    assert op["target"].startswith("enemy_"), card.name


def test_reinforce_abilities_exist_on_permanents(cards: list[Card]) -> None:
    reinforce_abilities = [
        card.name
        for card in cards
        if card.card_type.slug in PERMANENT_TYPES
        for ability in abilities(card)
        if "reinforce" in ability.get("phases", [])
    ]
    assert len(reinforce_abilities) >= 3


def test_victory_conditions_are_on_permanents(cards: list[Card]) -> None:
    winners = [
        card
        for card in cards
        if any(ability["ability"] == "victory" for ability in abilities(card))
    ]
    assert len(winners) >= 4
    assert all(card.card_type.slug in PERMANENT_TYPES for card in winners)
    assert all("you win the game" in card.rules_text for card in winners)


def legal_random_deck(cards: list[Card], rng: random.Random) -> Counter[str]:
    pool = [card.name for card in cards for _ in range(copies(card))]
    return Counter(rng.sample(pool, DECK_SIZE))


def test_many_legal_40_card_decks_can_be_built(cards: list[Card]) -> None:
    limits = {card.name: copies(card) for card in cards}
    assert sum(limits.values()) >= 4 * DECK_SIZE
    rng = random.Random(2026)
    decks = {frozenset(legal_random_deck(cards, rng).items()) for _ in range(200)}

    assert len(decks) == 200
    for deck in decks:
        assert sum(count for _, count in deck) == DECK_SIZE
        assert all(count <= limits[name] for name, count in deck)


@pytest.fixture
def probe(cards: list[Card]):
    """Build an unsaved copy of a real card with changes and return its schema problems."""

    def run(name: str, **changes: Any) -> str:
        source = next(card for card in cards if card.name == name)
        card = Card(
            game=source.game,
            card_set=source.card_set,
            card_type=source.card_type,
            name="Schema Probe",
            slug="schema-probe",
            rarity=source.rarity,
            cost=source.cost,
            attack=source.attack,
            defense=source.defense,
            generation=source.generation,
            copies_in_set=source.copies_in_set,
            stats=json.loads(json.dumps(source.stats)),
            effects=json.loads(json.dumps(source.effects)),
        )
        for field, value in changes.items():
            setattr(card, field, value)
        with pytest.raises(ValidationError) as info:
            card.full_clean(exclude=["name_key"])
        return " | ".join(info.value.messages)

    return run


def test_a_real_card_passes_full_clean(cards: list[Card]) -> None:
    for card in cards:
        card.full_clean(exclude=["name_key"], validate_unique=False)


@pytest.mark.parametrize(
    ("name", "changes", "expected"),
    [
        ("Militia", {"attack": None}, "'attack' is a required property"),
        ("Militia", {"copies_in_set": None}, "'copies_in_set' is a required property"),
        (
            "Grain Tithe",
            {"cost": 1},
            "Additional properties are not allowed ('cost' was unexpected)",
        ),
        ("Grain Tithe", {"copies_in_set": 3}, "copies_in_set: 3 is less than the minimum of 6"),
        ("Young Dragon", {"copies_in_set": 2}, "copies_in_set: 1 was expected"),
        ("Rally Cry", {"stats": {}}, "stats: 'reinforce_kind' is a required property"),
        (
            "Rally Cry",
            {"stats": {"reinforce_kind": "twice"}},
            "stats.reinforce_kind: 'twice' is not one of ['once', 'discard']",
        ),
        ("Rally Cry", {"attack": 2}, "('attack' was unexpected)"),
        (
            "Militia",
            {"stats": {"prerequisites": []}},
            "stats.prerequisites: [] should be non-empty",
        ),
        (
            "Militia",
            {"stats": {"reinforce_kind": "once"}},
            "stats: Additional properties are not allowed ('reinforce_kind' was unexpected)",
        ),
        (
            "Militia",
            {"stats": {"additional_costs": [{"pay": "discard_self"}]}},
            "stats.additional_costs.0.pay: 'discard_self' is not one of",
        ),
        (
            "Mage Tower",
            {
                "effects": [
                    {
                        "ability": "activated",
                        "phases": ["upkeep"],
                        "cost": [{"pay": "supply", "amount": 2}],
                        "do": [{"op": "draw", "amount": 1}],
                    }
                ]
            },
            "effects.0.phases.0: 'upkeep' is not one of ['deploy', 'attack', 'defend'",
        ),
        (
            "Mage Tower",
            {
                "effects": [
                    {
                        "ability": "activated",
                        "phases": ["any"],
                        "cost": [{"pay": "supply", "amount": 0}],
                        "do": [{"op": "draw", "amount": 1}],
                    }
                ]
            },
            "effects.0.cost.0.amount: 0 is less than the minimum of 1",
        ),
        (
            "Stone Keep",
            {"effects": [{"ability": "static", "do": [{"op": "draw", "amount": 1}]}]},
            "effects.0.do.0.op: 'modify' was expected",
        ),
        (
            "Crown of Seven Realms",
            {"effects": [{"ability": "victory", "conditions": [{"test": "vibes"}]}]},
            "effects.0.conditions.0.test: 'vibes' is not one of",
        ),
        (
            "Rally Cry",
            {"effects": [{"ability": "static", "do": [{"op": "draw", "amount": 1}]}]},
            "effects.0.ability: 'on_play' was expected",
        ),
    ],
)
def test_schema_rejects_bad_cards_with_clear_messages(
    probe, name: str, changes: dict[str, Any], expected: str
) -> None:
    assert expected in probe(name, **changes)


def test_schema_rejects_a_branch(probe, game: Game) -> None:
    from cards.models import Branch

    other = Branch(game=game, slug="red", name="Red")
    other.save()
    assert "('branch' was unexpected)" in probe("Militia", branch=other)


def test_export_cards_output(cards: list[Card]) -> None:
    out = io.StringIO()
    call_command("export_cards", game=SLUG, stdout=out)
    exported = json.loads(out.getvalue())

    assert len(exported) == len(cards) == 71
    assert Counter(card["type"] for card in exported) == {
        "supply": 7,
        "realm": 22,
        "unit": 27,
        "reinforce": 15,
    }
    assert all(card["copies_in_set"] for card in exported)
    militia = next(card for card in exported if card["name"] == "Militia")
    assert militia["numbers"] == {"supply_cost": 1, "attack": 1, "defense": 2}
    tithe = next(card for card in exported if card["name"] == "Grain Tithe")
    assert tithe["numbers"] == {"supply": 1} and tithe["cost"] is None


def rulebook_headings(text: str) -> set[str]:
    return {line.lstrip("#").strip() for line in text.splitlines() if line.startswith("#")}


def test_rulings_cite_rulebook_headings_and_existing_tests() -> None:
    doc = DOC.read_text(encoding="utf-8")
    cited = set(re.findall(r"§`([^`]+)`", doc))
    assert cited, "the rules doc cites no rulebook headings"
    missing = cited - rulebook_headings(read_rulebook(RULEBOOK.name))
    assert not missing, f"not headings of {RULEBOOK.name}: {sorted(missing)}"
    pinned = set(re.findall(r"`(test_\w+)`", doc))
    assert pinned
    assert not {name for name in pinned if name not in globals()}, "a ruling names a missing test"
