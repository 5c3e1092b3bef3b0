"""Cache invalidation only: card and format changes drop the validation indexes built from them.

No business rule lives here; writes go through services.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import m2m_changed, post_delete, post_save


def _cards_changed(**kwargs: Any) -> None:
    from decks.validation.index import card_index_invalidate

    card_index_invalidate()


def _formats_changed(**kwargs: Any) -> None:
    from decks.validation.formats import format_rules_invalidate

    format_rules_invalidate()


def connect() -> None:
    """Connect the invalidation receivers (called once from ``DecksConfig.ready``)."""
    from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Subtype
    from decks.models import Format, FormatCardEntry, FormatSet

    for model in (Card, CardSet, CardType, Branch, Rarity, Subtype, Game):
        uid = f"decks-card-index-{model.__name__}"
        post_save.connect(_cards_changed, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_cards_changed, sender=model, dispatch_uid=f"{uid}-delete")
    m2m_changed.connect(
        _cards_changed, sender=Card.subtypes.through, dispatch_uid="decks-card-index-subtypes"
    )
    for rules_model in (Format, FormatSet, FormatCardEntry, CardSet):
        uid = f"decks-format-rules-{rules_model.__name__}"
        post_save.connect(_formats_changed, sender=rules_model, dispatch_uid=f"{uid}-save")
        post_delete.connect(_formats_changed, sender=rules_model, dispatch_uid=f"{uid}-delete")
