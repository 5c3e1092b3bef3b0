"""Reads the API needs beyond the apps' own selectors: name lookup, autocomplete, format checks."""

from __future__ import annotations

from django.db.models import QuerySet

from api.errors import NotFoundWithSuggestions
from cards.models import Card, Game
from cards.naming import close_matches, name_key
from cards.search.index import name_contains_q, name_prefix_q

FUZZY_CUTOFF = 70


def _cards(game: Game | None) -> QuerySet[Card]:
    cards = Card.objects.all()
    return cards.filter(game=game) if game is not None else cards


def _detail(card_ids: list[int]) -> Card:
    return (
        Card.objects.with_related(single=True)
        .prefetch_related("rulings")
        .filter(pk__in=card_ids)
        .order_by("game__sort_order", "name_key")[0]
    )


def _one_or_none(cards: QuerySet[Card], what: str, wanted: str) -> int | None:
    ids = list(cards.values_list("pk", flat=True)[:2])
    if len(ids) == 1:
        return ids[0]
    if len(ids) > 1:
        names = list(cards.select_related("game").values_list("name", "game__slug")[:10])
        raise NotFoundWithSuggestions(
            f"{wanted!r} {what} more than one card; pass game= or more of the name.",
            [f"{name} ({game})" for name, game in names],
        )
    return None


def card_named(*, exact: str | None = None, fuzzy: str | None = None, game: Game | None) -> Card:
    """The card called ``exact`` (any case/punctuation), or the best match for ``fuzzy``.

    Fuzzy tries, in order: the exact key, a unique prefix, a unique substring, then the closest
    name by rapidfuzz's WRatio (at least 70/100). Ambiguity or no match is a 404 with suggestions.
    """
    wanted = exact if exact is not None else fuzzy or ""
    key = name_key(wanted)
    cards = _cards(game)
    found = _one_or_none(cards.filter(name_key=key), "names", wanted) if key else None
    where = f" in {game.name}" if game is not None else ""
    if found is None and exact is not None:
        raise NotFoundWithSuggestions(
            f"No card is called {wanted!r}{where}.", _closest(cards, key, limit=5)
        )
    if found is None and key:
        found = _one_or_none(cards.filter(name_prefix_q(key)), "starts", wanted)
    if found is None and key:
        found = _one_or_none(cards.filter(name_contains_q(key)), "is part of", wanted)
    if found is None and key:
        best = _closest(cards, key, limit=1, cutoff=FUZZY_CUTOFF, ids=True)
        found = best[0] if best else None
    if found is None:
        raise NotFoundWithSuggestions(
            f"No card name is close to {wanted!r}{where}.", _closest(cards, key, limit=5)
        )
    return _detail([found])


def _closest(
    cards: QuerySet[Card], key: str, *, limit: int, cutoff: int = 50, ids: bool = False
) -> list:
    if not key:
        return []
    rows = list(cards.values_list("pk", "name_key", "name"))
    matches = close_matches(key, [row[1] for row in rows], limit=limit, cutoff=cutoff)
    return [rows[index][0] if ids else rows[index][2] for index in matches]
