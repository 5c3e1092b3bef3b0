"""Cache invalidation only: writes to game data drop what each process keeps in memory.

The search's vocabularies (``cards.vocabulary``) follow the games and their vocabulary models;
the card detail rows (``cards.selectors.card_detail_row``) follow those and the cards, their
subtypes and rulings. Memos on either counter elsewhere follow it (the card pages' cards in
``cards.selectors``; the card browser's drawn rows and filters and the card sections in
``web.cardrows``): ``cards.caching`` drops memos on one counter together. Writes that bypass ``save()``/``delete()`` (``QuerySet.update``, raw SQL)
send no signal: ``load_game_data`` saves row by row, and ``generate_cards`` (which bulk-creates)
calls ``game_data_changed`` when it is done.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import m2m_changed, post_delete, post_save


def game_data_changed(**kwargs: Any) -> None:
    """Drop both memos; for writes that send no signal (``bulk_create``), call it after them."""
    from cards.selectors import card_detail_rows_invalidate
    from cards.vocabulary import vocabularies_invalidate

    vocabularies_invalidate()
    card_detail_rows_invalidate()


def _card_changed(**kwargs: Any) -> None:
    from cards.selectors import card_detail_rows_invalidate

    card_detail_rows_invalidate()


def connect() -> None:
    """Connect the receivers (called once from ``CardsConfig.ready``)."""
    from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Ruling, Subtype

    for model, receiver in (
        (Game, game_data_changed),
        (CardType, game_data_changed),
        (Branch, game_data_changed),
        (Rarity, game_data_changed),
        (Subtype, game_data_changed),
        (CardSet, game_data_changed),
        (Card, _card_changed),
        (Ruling, _card_changed),
    ):
        uid = f"cards-memo-{model.__name__}"
        post_save.connect(receiver, sender=model, dispatch_uid=f"{uid}-save")
        post_delete.connect(receiver, sender=model, dispatch_uid=f"{uid}-delete")
    m2m_changed.connect(
        _card_changed, sender=Card.subtypes.through, dispatch_uid="cards-memo-subtypes"
    )
