"""Reads the API needs beyond the apps' own selectors: name lookup, autocomplete, format checks."""

from __future__ import annotations

import datetime as dt
from collections import Counter
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from rapidfuzz import fuzz, process

from api.errors import NotFoundWithSuggestions
from cards.models import Card, Game
from cards.naming import name_key
from cards.search.index import name_contains_q, name_prefix_q
from decks.models import Deck, Format, Visibility
from decks.validation import validate

FUZZY_CUTOFF = 70


def _cards(game: Game | None) -> QuerySet[Card]:
    cards = Card.objects.all()
    return cards.filter(game=game) if game is not None else cards


def _detail(card_ids: list[int]) -> Card:
    return (
        Card.objects.with_related()
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
    if found is None and exact is not None:
        raise NotFoundWithSuggestions(
            f"No card is called {wanted!r}.", _closest(cards, key, limit=5)
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
            f"No card name is close to {wanted!r}.", _closest(cards, key, limit=5)
        )
    return _detail([found])


def _closest(
    cards: QuerySet[Card], key: str, *, limit: int, cutoff: int = 50, ids: bool = False
) -> list:
    if not key:
        return []
    rows = list(cards.values_list("pk", "name_key", "name"))
    matches = process.extract(
        key, [row[1] for row in rows], scorer=fuzz.WRatio, limit=limit, score_cutoff=cutoff
    )
    return [rows[index][0] if ids else rows[index][2] for _choice, _score, index in matches]


def card_autocomplete(text: str, *, game: Game | None = None, limit: int = 20) -> list[Card]:
    """Up to ``limit`` cards whose name starts with ``text``, then ones containing it."""
    key = name_key(text)
    if not key:
        return []
    cards = _cards(game).select_related("game").only("id", "name", "name_key", "game__slug")
    found = list(cards.filter(name_prefix_q(key)).order_by("name_key", "id")[:limit])
    if len(found) < limit:
        seen = [card.pk for card in found]
        found += list(
            cards.filter(name_contains_q(key))
            .exclude(pk__in=seen)
            .order_by("name_key", "id")[: limit - len(found)]
        )
    return found


def format_check(
    fmt: Format,
    decks: list[tuple[str, list[Any] | None, list[str]]],
    *,
    as_of: dt.date | None = None,
) -> dict[str, Any]:
    """Judge many decks against one format on one day: a verdict per deck and a summary.

    ``decks`` holds ``(name, entries, errors)``; a deck whose list could not be read has no
    entries and its reading errors, and counts as unreadable rather than illegal.
    """
    day = as_of or timezone.localdate()
    results, codes = [], Counter()
    for index, (name, entries, errors) in enumerate(decks):
        result: dict[str, Any] = {"index": index, "name": name, "errors": errors, "report": None}
        if entries is None:
            result.update(legal=False, codes=[])
        else:
            report = validate(fmt.game.slug, entries, format=fmt.pk, as_of=day).to_dict()
            deck_codes = sorted({violation["code"] for violation in report["violations"]})
            codes.update(deck_codes)
            result.update(legal=report["legal"], codes=deck_codes, report=report)
        results.append(result)
    legal = sum(1 for result in results if result["legal"])
    unreadable = sum(1 for result in results if result["errors"])
    return {
        "format": fmt.slug,
        "game": fmt.game.slug,
        "as_of": day.isoformat(),
        "results": results,
        "summary": {
            "decks": len(results),
            "legal": legal,
            "illegal": len(results) - legal - unreadable,
            "unreadable": unreadable,
            "by_code": dict(sorted(codes.items())),
        },
    }


def deck_readable_by(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Deck]:
    """Decks ``user`` may read: public and unlisted ones, and all of their own.

    Private decks of others are simply absent, so looking one up is a 404, not a 403. Each deck
    carries ``card_count``.
    """
    condition = ~Q(visibility=Visibility.PRIVATE)
    if user.is_authenticated:
        condition |= Q(owner=user)
    total = Coalesce(Sum("cards__quantity"), Value(0), output_field=IntegerField())
    return (
        Deck.objects.filter(condition)
        .select_related("game", "format", "owner")
        .annotate(card_count=total)
    )


def deck_list_for_client(
    user: AbstractBaseUser | AnonymousUser, *, game_slug: str | None = None, mine: bool = False
) -> QuerySet[Deck]:
    """The decks a list shows ``user``: public ones and their own (others' unlisted ones stay
    reachable by link only), newest change first."""
    decks = deck_readable_by(user).exclude(
        Q(visibility=Visibility.UNLISTED) & ~Q(owner_id=user.pk or 0)
    )
    if game_slug:
        decks = decks.filter(game__slug=game_slug)
    if mine:
        decks = decks.filter(owner_id=user.pk or 0)
    return decks.order_by("-updated_at", "pk")
