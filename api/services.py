"""Writes the API needs that ``decks.services`` does not offer (yet): deck metadata and deletion.

Same rules as there: keyword-only arguments, the owner check first, one transaction.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction

from decks.models import Deck, Format, Visibility
from decks.services import DeckError, DeckPermissionError


def _check_owner(deck: Deck, actor: AbstractBaseUser) -> None:
    if actor.pk != deck.owner_id:
        raise DeckPermissionError("only the deck's owner can change it")


@transaction.atomic
def deck_details_update(
    *,
    deck: Deck,
    actor: AbstractBaseUser,
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
    format: Format | None = None,
    clear_format: bool = False,
) -> Deck:
    """Change a deck's name, description, visibility or format (its cards have their own service)."""
    _check_owner(deck, actor)
    deck = Deck.objects.select_for_update().get(pk=deck.pk)
    problems = []
    if name is not None and not name.strip():
        problems.append("a deck needs a name")
    if visibility is not None and visibility not in Visibility.values:
        problems.append(f"visibility must be one of {', '.join(Visibility.values)}")
    if format is not None and format.game_id != deck.game_id:
        problems.append(f"format {format.name} belongs to another game")
    if problems:
        raise DeckError(problems)
    fields = []
    for field, value in (("name", name and name.strip()), ("description", description)):
        if value is not None:
            setattr(deck, field, value)
            fields.append(field)
    if visibility is not None:
        deck.visibility = visibility
        fields.append("visibility")
    if format is not None or clear_format:
        deck.format = format
        fields.append("format")
    if fields:
        deck.save(update_fields=[*fields, "updated_at"])
    return deck


@transaction.atomic
def deck_delete(*, deck: Deck, actor: AbstractBaseUser) -> None:
    """Delete a deck with its cards and versions; only its owner may."""
    _check_owner(deck, actor)
    deck.delete()
