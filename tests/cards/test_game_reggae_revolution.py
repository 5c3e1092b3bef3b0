"""Reggae Revolution card data: the game box, its card schema and its effect language.

The shipped fixtures are loaded into the test database by ``tests/conftest.py``; these tests read
them back. Rulings in ``docs/rules/reggae-revolution.md`` name the tests that pin them.
"""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path
from typing import Any

import pytest
import yaml
from django.conf import settings

from cards.gamedata import GameDataError
from cards.models import Card, Game
from cards.schema import record_errors
from cards.services import game_data_load
from rules.adapters import engine_for, game_records
from rules.engines.reggae_revolution.cards import fixture_records
from rules.engines.reggae_revolution.effects import COLOURS, SYMBOLS, render_rules_text
from tests.cards.rows import branch_slug, copies
from tests.conftest import read_rulebook

pytestmark = pytest.mark.django_db

SLUG = "reggae-revolution"
FIXTURES = Path(settings.FIXTURES_DIR)
STARTER_COLOURS = {"peace": "green", "love": "red", "unity": "yellow", "respect": "black"}


@pytest.fixture
def game() -> Game:
    return Game.objects.get(slug=SLUG)


@pytest.fixture
def cards(game: Game) -> list[Card]:
    return list(Card.objects.filter(game=game).with_related().order_by("collector_number"))


def of_type(cards: list[Card], slug: str) -> list[Card]:
    return [card for card in cards if card.card_type.slug == slug]


def test_game_metadata(game: Game) -> None:
    assert game.name == "Reggae Revolution"
    assert (game.min_players, game.max_players) == (1, 4)
    assert game.branch_label == "Colour"
    assert game.sort_order == 3
    assert game.deck_summary == "12-card starting deck (3 peace, 3 love, 3 unity, 3 respect)"
    assert "co-operative" in game.description
    assert sorted(game.branch_set.values_list("slug", flat=True)) == sorted(COLOURS)
    assert game.number_field("symbol_cost") == "cost"
    assert game.number_field("persuasion") == "strength"


def test_the_game_box_holds_every_kind_of_card(cards: list[Card]) -> None:
    kinds = Counter(card.card_type.slug for card in cards)
    assert kinds == {
        "starter": 4,
        "main": 48,
        "wild": 4,
        "villain": 16,
        "scheme": 6,
        "oppression": 1,
    }
    main_deck = sum(copies(card) for card in cards if card.card_type.slug in ("main", "wild"))
    assert main_deck >= 40


def test_one_starter_per_symbol_in_its_fixed_colour(cards: list[Card]) -> None:
    """Ruling "Setup: starter colours" and "Setup: starter piles"."""
    starters = of_type(cards, "starter")
    assert {card.stats["symbol"]: branch_slug(card) for card in starters} == STARTER_COLOURS
    # enough copies for four starting decks of three per symbol, with piles left over
    assert all(card.copies_in_set == 20 for card in starters)
    assert all(card.effects == [] for card in starters)


def test_every_symbol_colour_pair_has_main_deck_cards(cards: list[Card]) -> None:
    pairs = Counter((c.stats["symbol"], branch_slug(c)) for c in of_type(cards, "main"))
    assert set(pairs) == {(s, c) for s in SYMBOLS for c in COLOURS}
    assert set(pairs.values()) == {3}


def test_costs_are_symbols_and_cost_counts_them(cards: list[Card]) -> None:
    for card in cards:
        if card.card_type.slug in ("starter", "main", "wild"):
            assert card.cost == len(card.stats["cost"]), card.name
            assert set(card.stats["cost"]) <= set(SYMBOLS), card.name
        else:
            assert card.cost is None, card.name


def test_villains_have_colour_suppression_persuasion_and_arrival(cards: list[Card]) -> None:
    villains = of_type(cards, "villain")
    assert len(villains) >= 12
    assert Counter(branch_slug(v) for v in villains) == dict.fromkeys(COLOURS, 4)
    for villain in villains:
        assert 1 <= len(villain.stats["suppresses"]) <= 2, villain.name
        assert villain.strength is not None and 1 <= villain.strength <= 3, villain.name
        assert villain.effects, villain.name
    suppressed = {s for v in villains for s in v.stats["suppresses"]}
    assert suppressed == set(SYMBOLS)  # the loss condition can happen
    assert {v.strength for v in villains} == {1, 2, 3}  # multi-card persuasion exists


def test_oppression_is_one_card_with_many_copies(cards: list[Card]) -> None:
    (oppression,) = of_type(cards, "oppression")
    assert oppression.copies_in_set == 16
    assert oppression.branch is None and oppression.effects == []


def test_rules_text_is_rendered_from_the_effects(cards: list[Card]) -> None:
    """What players read and what the engine does come from the same data."""
    for card in cards:
        assert card.rules_text == render_rules_text(card.record()), card.name


def test_names_are_our_own_and_not_rulebook_sentences(cards: list[Card]) -> None:
    rulebook = read_rulebook("reggae-revolution.txt").lower()
    for card in cards:
        assert card.rules_text.lower() not in rulebook, card.name


def test_engine_records_equal_the_database_records() -> None:
    """The engine's PyYAML reader and the Django loader see the same cards."""

    def plain(record: dict[str, Any]) -> dict[str, Any]:
        return {k: v for k, v in record.items() if k != "rarity"}

    from_db = sorted((plain(r) for r in game_records(SLUG)), key=lambda r: r["name"])
    from_files = sorted((plain(r) for r in fixture_records()), key=lambda r: r["name"])
    assert from_db == from_files


def test_the_engine_plays_with_the_database_cards() -> None:
    game = engine_for(SLUG)
    state = game.new_initial_state(seed=3, setup={"players": 2})
    assert sum(state.zone_counts().values()) == 4 * 20 + 48 + 4 + 16 + 6 + 16


# --- the card schema refuses broken cards ------------------------------------------------------
def main_card(**changes: Any) -> dict[str, Any]:
    record = {
        "name": "Test Groove",
        "type": "main",
        "subtypes": [],
        "branch": "red",
        "set": "RR1",
        "copies_in_set": 1,
        "cost": 2,
        "stats": {"symbol": "love", "cost": ["peace", "unity"]},
        "effects": [{"op": "draw", "amount": 1}],
    }
    record.update(changes)
    return record


def test_a_valid_card_passes_the_schema(game: Game) -> None:
    assert record_errors(game.card_schema, main_card()) == []


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"cost": 3}, "stats.cost"),  # cost must count the symbols
        ({"stats": {"symbol": "joy", "cost": ["peace"]}, "cost": 1}, "stats.symbol"),
        ({"effects": [{"op": "discard", "amount": 1}]}, "effects.0.op"),  # a blow on a player card
        ({"effects": [{"op": "draw", "amount": 0}]}, "effects.0.amount"),
        ({"effects": [{"op": "draw", "amount": 1, "who": "villains"}]}, "effects.0.who"),
        ({"effects": [{"op": "extra_yay", "amount": 2}]}, "effects.0"),
        ({"attack": 3}, "attack"),
        ({"branch": "purple"}, "branch"),
        ({"copies_in_set": 0}, "copies_in_set"),
    ],
)
def test_schema_rejects_a_broken_main_card(
    game: Game, changes: dict[str, Any], message: str
) -> None:
    problems = record_errors(game.card_schema, main_card(**changes))
    assert problems and any(message in p for p in problems), problems


@pytest.mark.parametrize(
    "record",
    [
        # a villain needs suppressed symbols and prints no cost
        main_card(type="villain", strength=2, stats={"suppresses": ["love"]}, effects=[]),
        main_card(type="villain", strength=2, stats={"suppresses": []}, effects=[], cost=None),
        main_card(type="villain", strength=4, stats={"suppresses": ["love"]}, effects=[]),
        # a wild card has no colour of its own
        main_card(type="wild", stats={"cost": ["peace", "unity"]}, effects=[]),
        # a scheme needs an effect, and only villain-deck ops
        main_card(type="scheme", branch=None, cost=None, stats={}, effects=[]),
        main_card(
            type="scheme", branch=None, cost=None, stats={}, effects=[{"op": "draw", "amount": 1}]
        ),
        # oppression has no effect and no colour
        main_card(
            type="oppression",
            branch=None,
            cost=None,
            stats={},
            effects=[{"op": "unscore", "amount": 1}],
        ),
        # starters carry no effect
        main_card(type="starter"),
    ],
)
def test_schema_rejects_broken_villain_deck_and_special_cards(
    game: Game, record: dict[str, Any]
) -> None:
    record = {k: v for k, v in record.items() if v is not None}
    assert record_errors(game.card_schema, record)


def test_loader_rejects_a_staged_copy_with_a_broken_card_and_writes_nothing(tmp_path: Path) -> None:
    shutil.copytree(FIXTURES / SLUG, tmp_path / SLUG)
    villains_file = tmp_path / SLUG / "cards" / "04-villains.yaml"
    villains = yaml.safe_load(villains_file.read_text())
    villains[0]["effects"] = [{"op": "gain_free", "max_cost": 2}]  # a boon on a villain
    villains_file.write_text(yaml.safe_dump(villains, sort_keys=False))
    before = list(Card.objects.filter(game__slug=SLUG).values("name", "effects").order_by("name"))

    with pytest.raises(GameDataError) as info:
        game_data_load(slug=SLUG, fixtures_dir=tmp_path)

    assert any("04-villains.yaml#0" in p and "effects.0.op" in p for p in info.value.problems), (
        info.value.problems
    )
    after = list(Card.objects.filter(game__slug=SLUG).values("name", "effects").order_by("name"))
    assert after == before


def test_villains_never_suppress_their_own_colours_starter_symbol(cards: list[Card]) -> None:
    """The starters that can persuade a villain are never the cards its arrival discards."""
    symbol_of_colour = {colour: symbol for symbol, colour in STARTER_COLOURS.items()}
    for villain in of_type(cards, "villain"):
        assert symbol_of_colour[branch_slug(villain)] not in villain.stats["suppresses"], (
            villain.name
        )


def test_rulings_cite_rulebook_headings_and_existing_tests() -> None:
    doc = (Path(settings.BASE_DIR) / "docs" / "rules" / "reggae-revolution.md").read_text()
    rulebook = read_rulebook("reggae-revolution.txt")
    headings = {line.strip() for line in rulebook.splitlines() if line.strip()}
    cited = set(re.findall(r"§`([^`]+)`", doc))
    assert cited and cited <= headings, cited - headings
    tests_dir = Path(settings.BASE_DIR) / "tests"
    sources = "".join(path.read_text() for path in sorted((tests_dir / "rules").glob("*.py")))
    sources += Path(__file__).read_text()
    rulings = doc.split("## Rulings", 1)[1]
    pinned = set(re.findall(r"`(test_[a-z0-9_]+)`", rulings))
    numbers = [int(n) for n in re.findall(r"^(\d+)\. \*\*", rulings, flags=re.M)]
    assert numbers == list(range(1, len(numbers) + 1)) and len(numbers) >= 20, numbers
    missing = {name for name in pinned if f"def {name}(" not in sources}
    assert not missing, missing
