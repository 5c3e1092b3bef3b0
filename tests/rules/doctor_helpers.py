"""Decks of the toy game for doctor tests (Toy Duel, plugged in by the ``toy_duel`` fixture: its
cards score 1 to 5 points, so a 1-point card is an obviously bad one): a deck with such cards
planted, and its gauntlet."""

from __future__ import annotations

from decks.services import deck_create

SLUG = "toy-duel"
# Sun Rush with its four 1-point cards: the planted bad card is Dawn One
SUN = "# game: toy-duel\n4 Dawn One\n4 Noon Three\n2 Blaze Five\n"
MOON = "# game: toy-duel\n4 Dusk Two\n4 Tide Four\n2 Dawn One\n"


def decks(owner):
    sun = deck_create(owner=owner, game=SLUG, name="Sun", decklist=SUN)
    moon = deck_create(owner=owner, game=SLUG, name="Moon", decklist=MOON)
    return sun, moon
