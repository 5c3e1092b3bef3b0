"""Typed reads of a card row's nullable columns, for the tests of a game's data: each field
read here must be set on the card (a test fails on the card that lacks it)."""

from __future__ import annotations

from cards.models import Card


def branch_slug(card: Card) -> str:
    """The slug of the card's branch."""
    assert card.branch is not None, card.name
    return card.branch.slug


def rarity_slug(card: Card) -> str:
    """The slug of the card's rarity."""
    assert card.rarity is not None, card.name
    return card.rarity.slug


def copies(card: Card) -> int:
    """How many copies of the card its set has."""
    assert card.copies_in_set is not None, card.name
    return card.copies_in_set
