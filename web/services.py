"""Writes the pages need beyond ``decks.services``: adding copies and merging pasted decklists.

Both are compositions of the deck services (which do the owner check, the card lookups and the
versioning), so the pages never write a model themselves.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from decks.decklist import Decklist, decklist_read
from decks.models import Deck, DeckCard
from decks.selectors import deck_entries
from decks.services import DeckError, deck_card_set, deck_cards_replace
from decks.validation import card_index, rules_for


@transaction.atomic
def deck_card_add(
    *, deck: Deck, name: str, quantity: int = 1, zone: str = "", actor: AbstractBaseUser
) -> Deck:
    """Add ``quantity`` copies of the card called ``name`` (any case or punctuation) to a deck."""
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 1 <= quantity <= 999:
        raise DeckError(["quantity must be a whole number from 1 to 999"])
    game = deck.game
    info = card_index(game.slug).lookup(name)
    if info is None:
        suggestions = card_index(game.slug).suggest(name)
        hint = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
        raise DeckError([f"{name.strip()!r} is not a {game.name} card.{hint}"])
    rules = rules_for(game.slug)
    zone = (zone or rules.zones[0]) if rules.zones else ""
    current = (
        DeckCard.objects.filter(deck=deck, card_id=info.id, zone=zone)
        .values_list("quantity", flat=True)
        .first()
        or 0
    )
    if current + quantity > 999:
        raise DeckError([f"a deck holds at most 999 copies of {info.name}"])
    return deck_card_set(
        deck=deck, card=info.name, quantity=current + quantity, zone=zone, actor=actor
    )


@transaction.atomic
def deck_decklist_merge(
    *, deck: Deck, decklist: str, kind: str = "text", actor: AbstractBaseUser
) -> Deck:
    """Add a pasted decklist's cards to the deck's (repeated names add up), as one version."""
    pasted = decklist_read(decklist, kind)  # type: ignore[arg-type]
    merged = Decklist(
        entries=[*deck_entries(deck), *pasted.entries],
        # the pasted text's headers and long numbers are checked against the game as usual
        headers=pasted.headers,
        long_numbers=pasted.long_numbers,
    )
    return deck_cards_replace(deck=deck, decklist=merged, actor=actor)
