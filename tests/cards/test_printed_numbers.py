"""The one list of printed-number columns and the one way a card's printed numbers are read."""

from __future__ import annotations

import pytest

from cards.models import Card
from cards.schema import PRINTED_NUMBERS, printed_numbers
from decks.validation.index import CardInfo
from rules.engines.core.records import NUMBER_KEYS


def test_the_engines_read_the_columns_the_card_database_stores():
    # Engines may not import cards (they are pure Python), so they keep their own copy: pinned.
    assert NUMBER_KEYS == PRINTED_NUMBERS
    assert set(PRINTED_NUMBERS) <= set(CardInfo.__dataclass_fields__)
    assert all(Card._meta.get_field(column).null for column in PRINTED_NUMBERS)


@pytest.mark.django_db
def test_a_card_prints_its_games_numbers_by_name_and_label_in_the_games_order():
    card = Card.objects.select_related("game").get(game__slug="revolt-n-reign", name="Eagle Dive")

    numbers = card.printed_numbers()

    assert [(n.column, n.name, n.label, n.value) for n in numbers] == [
        ("cost", "ip_cost", "IP cost", 4),
        ("attack", "attack_damage", "Attack damage", 25),
    ]


def test_unset_numbers_are_left_out_and_a_bare_label_entry_falls_back_to_the_column():
    class Record:
        cost, attack, strength = 2, None, 5

    numbers = printed_numbers(
        {"strength": {"label": "Strength"}, "attack": {}, "cost": None}, Record
    )

    assert [(n.column, n.name, n.label, n.value) for n in numbers] == [
        ("strength", "strength", "Strength", 5),
        ("cost", "cost", "cost", 2),
    ]
