"""Reign Absolute card data: faction decks, the shared Reinforcement deck and their rulings.

The shipped fixtures are loaded into the test database by ``tests/conftest.py``; these tests read
them back. Rulings referenced from ``docs/rules/reign-absolute.md`` name the tests below.
"""

from __future__ import annotations

import io
import json
import re
from collections import Counter, defaultdict
from pathlib import Path
from typing import Any

import pytest
from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.management import call_command

from cards.models import Branch, Card, CardType, Game
from tests.cards.rows import branch_slug, copies
from tests.conftest import read_rulebook

pytestmark = pytest.mark.django_db

SLUG = "reign-absolute"
UNIT_TYPES = {"liege", "unit"}
REINFORCEMENT_TYPES = {"combat-reinforcement", "turn-reinforcement"}
DOC = Path(settings.BASE_DIR) / "docs" / "rules" / "reign-absolute.md"
RULEBOOK = Path(settings.RULEBOOKS_DIR) / "reign-absolute.txt"


@pytest.fixture
def game() -> Game:
    return Game.objects.get(slug=SLUG)


@pytest.fixture
def cards(game: Game) -> dict[str, Card]:
    return {card.name: card for card in Card.objects.filter(game=game).with_related()}


def faction_decks(cards: dict[str, Card]) -> dict[str, list[Card]]:
    decks: dict[str, list[Card]] = defaultdict(list)
    for card in cards.values():
        if card.card_type.slug in UNIT_TYPES:
            decks[branch_slug(card)].append(card)
    return dict(decks)


def reinforcements(cards: dict[str, Card]) -> list[Card]:
    return [card for card in cards.values() if card.card_type.slug in REINFORCEMENT_TYPES]


def only_op(card: Card) -> dict[str, Any]:
    """A reinforcement does exactly one thing."""
    [effect] = card.effects
    [op] = effect["do"]
    return op


def test_game_metadata(game: Game) -> None:
    assert game.name == "Reign Absolute: Umbrous Edition"
    assert (game.min_players, game.max_players) == (2, 4)
    assert game.branch_label == "Faction"
    assert game.sort_order == 5
    assert game.deck_summary == "one faction's units (exactly one Liege)"
    assert {game.number_field(n) for n in ("strength", "attack_bonus", "defence_bonus")} == {
        "strength",
        "attack",
        "defense",
    }


def test_every_faction_has_exactly_one_liege(game: Game, cards: dict[str, Card]) -> None:
    decks = faction_decks(cards)
    assert len(decks) >= 3
    assert set(decks) == set(Branch.objects.for_game(game).values_list("slug", flat=True))
    for faction, deck in decks.items():
        lieges = [card for card in deck if card.card_type.slug == "liege"]
        assert len(lieges) == 1, faction
        assert lieges[0].copies_in_set == 1
        assert lieges[0].name.lower().startswith(faction), lieges[0].name


def test_each_faction_deck_matches_its_declared_size(cards: dict[str, Card]) -> None:
    for faction, deck in faction_decks(cards).items():
        [liege] = [card for card in deck if card.card_type.slug == "liege"]
        size = liege.stats["faction_deck_size"]
        assert sum(copies(card) for card in deck) == size, faction
        assert len(deck) >= 5, faction  # a Liege and at least four kinds of unit
        assert all(card.name.lower().startswith(faction) for card in deck)


def test_units_print_strength_and_optional_bonuses(cards: dict[str, Card]) -> None:
    for card in cards.values():
        if card.card_type.slug in UNIT_TYPES:
            assert card.strength is not None and card.strength > 0, card.name
            assert card.cost is None and card.rarity is None, card.name
            printed = [f"Strength {card.strength}"]
            printed += [f"Attack +{card.attack}"] if card.attack else []
            printed += [f"Defence +{card.defense}"] if card.defense else []
            assert ", ".join(printed) + "." in card.rules_text, card.name


def test_reinforcements_belong_to_no_faction(cards: dict[str, Card]) -> None:
    for card in reinforcements(cards):
        assert card.branch is None, card.name
        assert (card.strength, card.attack, card.defense) == (None, None, None), card.name
    assert not any(
        card.card_type.slug in REINFORCEMENT_TYPES for card in cards.values() if card.branch
    )


def test_reinforcement_deck_composition(cards: dict[str, Card]) -> None:
    deck = reinforcements(cards)
    combat = [card for card in deck if card.card_type.slug == "combat-reinforcement"]
    turn = [card for card in deck if card.card_type.slug == "turn-reinforcement"]
    ops: Counter[str] = Counter()
    for card in combat:
        op = only_op(card)
        kind = op["op"] if op["op"] != "bonus" else next(k for k in op if k != "op")
        ops[kind] += copies(card)

    assert {
        "attack",
        "defence",
        "strength",
        "draw_reinforcements",
        "cancel_enemy_reinforcements",
    } == set(ops)
    assert ops["attack"] >= 6 and ops["defence"] >= 6 and ops["strength"] >= 4
    assert {only_op(card)["op"] for card in turn} >= {"extra_turn", "extra_moves"}
    assert all(card.effects[0]["when"] == "in_combat" for card in combat)
    assert all(card.effects[0]["when"] == "on_draw" for card in turn)
    assert sum(copies(card) for card in combat) == 31
    assert sum(copies(card) for card in turn) == 10
    for name in ("+3 Attack", "+6 Defence", "+2 Strength", "+2 Defence", "+4 Defence"):
        assert name in cards
    for name in ("Draw 2", "Cancel", "Another Turn"):
        assert name in cards


def test_random_values_are_distinct_and_one_per_copy(cards: dict[str, Card]) -> None:
    deck = reinforcements(cards)
    values = [value for card in deck for value in card.stats["random_values"]]
    for card in deck:
        assert len(card.stats["random_values"]) == card.copies_in_set, card.name
    assert sorted(values) == list(range(1, len(values) + 1))


def test_abilities_name_units_of_their_own_faction(cards: dict[str, Card]) -> None:
    shogun = cards["Azuma Shogun"]
    assert shogun.card_type.slug == "liege"
    [ability] = shogun.effects
    assert ability == {
        "when": "when_defending",
        "do": [{"op": "reveal_adjacent", "unit": "Azuma Swordsmen", "each": {"defence": 3}}],
    }
    for card in cards.values():
        for effect in card.effects:
            for op in effect["do"]:
                if "unit" in op:
                    named = cards.get(op["unit"])
                    assert named is not None, f"{card.name} names unknown {op['unit']!r}"
                    assert named.branch_id == card.branch_id, card.name


def test_faction_setup_rules_live_on_the_liege(cards: dict[str, Card]) -> None:
    for card in cards.values():
        for effect in card.effects:
            if effect["when"] == "after_setup":
                assert card.card_type.slug == "liege", card.name


def combat_total(unit: Card, role: str, drawn: list[Card], voided: bool) -> int:
    """A unit's total Strength: base, the bonus for its role, and its combat reinforcements."""
    bonus_key = "attack" if role == "attacking" else "defence"
    unit_bonus = unit.attack if role == "attacking" else unit.defense
    assert unit.strength is not None, unit.name
    total = unit.strength + (unit_bonus or 0)
    if voided:
        return total
    for card in drawn:
        if card.card_type.slug != "combat-reinforcement":
            continue  # a Turn Reinforcement drawn in combat is ignored
        op = only_op(card)
        if op["op"] == "bonus":
            total += op.get("strength", 0) + op.get(bonus_key, 0)
    return total


def draw_in_combat(first: int, script: list[Card]) -> list[Card]:
    """Draw ``first`` cards, then whatever Draw N cards ask for, from a scripted deck."""
    pending, drawn = first, []
    deck = iter(script)
    while pending:
        card = next(deck)
        drawn.append(card)
        pending -= 1
        op = only_op(card)
        if card.card_type.slug == "combat-reinforcement" and op["op"] == "draw_reinforcements":
            pending += op["count"]
    return drawn


def test_attack_example_totals(cards: dict[str, Card]) -> None:
    # given the units and reinforcements of the rulebook's Attack Example
    archers, enchantress = cards["Empire Archers"], cards["Elves Enchantress"]
    archers_under = [cards["+3 Attack"], cards["+6 Defence"]]
    enchantress_under = [cards["+2 Strength"], cards["+2 Defence"]]
    assert (archers.strength, archers.attack) == (4, 4)
    assert enchantress.strength == 4

    # then before any draw: the defence card is ignored while attacking
    assert combat_total(archers, "attacking", archers_under, voided=False) == 11
    assert combat_total(enchantress, "defending", enchantress_under, voided=False) == 8

    # when the Enchantress draws at the start of combat, as her data says
    [ability] = enchantress.effects
    assert ability["when"] == "start_of_combat"
    script = [cards["Another Turn"], cards["Draw 2"], cards["+4 Defence"], cards["Cancel"]]
    drawn = draw_in_combat(ability["do"][0]["count"], script)

    # then Draw 2 chains into two more cards and Cancel voids only the Archers' reinforcements
    assert drawn == script
    enchantress_all = enchantress_under + drawn
    cancelled = any(
        only_op(card)["op"] == "cancel_enemy_reinforcements"
        for card in enchantress_all
        if card.card_type.slug == "combat-reinforcement"
    )
    archers_total = combat_total(archers, "attacking", archers_under, voided=cancelled)
    enchantress_total = combat_total(enchantress, "defending", enchantress_all, voided=False)
    assert (archers_total, enchantress_total) == (8, 12)


@pytest.fixture
def probe(cards: dict[str, Card]):
    """Build an unsaved copy of a real card with changes and return its schema problems."""

    def run(name: str, **changes: Any) -> str:
        source = cards[name]
        card = Card(
            game=source.game,
            card_set=source.card_set,
            card_type=source.card_type,
            branch=source.branch,
            name="Schema Probe",
            slug="schema-probe",
            strength=source.strength,
            attack=source.attack,
            defense=source.defense,
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


def test_every_real_card_passes_full_clean(cards: dict[str, Card]) -> None:
    for card in cards.values():
        card.full_clean(exclude=["name_key"], validate_unique=False)


@pytest.mark.parametrize(
    ("name", "changes", "expected"),
    [
        ("Azuma Shogun", {"copies_in_set": 2}, "copies_in_set: 1 was expected"),
        ("Azuma Shogun", {"stats": {}}, "stats: 'faction_deck_size' is a required property"),
        ("Azuma Swordsmen", {"strength": None}, "'strength' is a required property"),
        ("Azuma Swordsmen", {"branch": None}, "'branch' is a required property"),
        (
            "Azuma Swordsmen",
            {"stats": {"faction_deck_size": 12}},
            "stats: {'faction_deck_size': 12} is expected to be empty",
        ),
        ("Azuma Swordsmen", {"cost": 2}, "('cost' was unexpected)"),
        (
            "Elves Enchantress",
            {"effects": [{"when": "whenever", "do": [{"op": "draw_reinforcements", "count": 2}]}]},
            "effects.0.when: 'whenever' is not one of",
        ),
        (
            "Elves Enchantress",
            {"effects": [{"when": "start_of_combat", "do": [{"op": "immobile"}]}]},
            "effects.0.do.0.op: 'immobile' is not one of",
        ),
        ("Cancel", {"strength": 2}, "('strength' was unexpected)"),
        ("Cancel", {"stats": {}}, "stats: 'random_values' is a required property"),
        (
            "Cancel",
            {"stats": {"random_values": [3, 3]}},
            "stats.random_values: [3, 3] has non-unique elements",
        ),
        (
            "Cancel",
            {"effects": [{"when": "in_combat", "do": [{"op": "extra_turn"}]}]},
            "effects.0.do.0.op: 'extra_turn' is not one of",
        ),
        (
            "Another Turn",
            {"effects": [{"when": "in_combat", "do": [{"op": "extra_turn"}]}]},
            "effects.0.when: 'on_draw' was expected",
        ),
        (
            "+3 Attack",
            {"effects": [{"when": "in_combat", "do": [{"op": "bonus", "attack": 0}]}]},
            "effects.0.do.0.attack: 0 is less than the minimum of 1",
        ),
    ],
)
def test_schema_rejects_bad_cards_with_clear_messages(
    probe, name: str, changes: dict[str, Any], expected: str
) -> None:
    assert expected in probe(name, **changes)


def test_schema_rejects_a_reinforcement_with_a_faction(probe, game: Game) -> None:
    empire = Branch.objects.get(game=game, slug="empire")
    assert "('branch' was unexpected)" in probe("Cancel", branch=empire)


def test_schema_rejects_a_unit_typed_as_a_reinforcement(probe, game: Game) -> None:
    combat = CardType.objects.get(game=game, slug="combat-reinforcement")
    problems = probe("Azuma Swordsmen", card_type=combat)
    assert "('attack', 'branch', 'strength' were unexpected)" in problems
    assert "stats: 'random_values' is a required property" in problems


def test_export_cards_output(cards: dict[str, Card]) -> None:
    out = io.StringIO()
    call_command("export_cards", game=SLUG, stdout=out)
    exported = json.loads(out.getvalue())

    assert len(exported) == len(cards) == 44
    assert Counter(card["type"] for card in exported) == {
        "liege": 4,
        "unit": 20,
        "combat-reinforcement": 14,
        "turn-reinforcement": 6,
    }
    archers = next(card for card in exported if card["name"] == "Empire Archers")
    assert archers["numbers"] == {"strength": 4, "attack_bonus": 4}
    assert archers["branch"] == "empire" and archers["copies_in_set"] == 2
    cancel = next(card for card in exported if card["name"] == "Cancel")
    assert cancel["branch"] is None and cancel["numbers"] == {}


def rulebook_headings(text: str) -> set[str]:
    """Section headings of the plain-text rulebook: short lines that are not sentences."""
    return {
        line.strip()
        for line in text.splitlines()
        if line.strip() and len(line) <= 40 and not line.rstrip().endswith((".", "?", ":"))
    }


def test_rulings_cite_rulebook_headings_and_existing_tests() -> None:
    doc = DOC.read_text(encoding="utf-8")
    cited = set(re.findall(r"§`([^`]+)`", doc))
    assert cited, "the rules doc cites no rulebook headings"
    missing = cited - rulebook_headings(read_rulebook(RULEBOOK.name))
    assert not missing, f"not headings of {RULEBOOK.name}: {sorted(missing)}"
    pinned = set(re.findall(r"`(test_\w+)`", doc))
    assert pinned
    assert not {name for name in pinned if name not in globals()}, "a ruling names a missing test"
