"""Reads from the card database: games, card lists, the card browser, autocomplete, export."""

from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Any

from django.db.models import Count, F, JSONField, QuerySet
from django.db.models.expressions import RawSQL

from cards.caching import GenerationMemo
from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Ruling, Subtype
from cards.naming import name_key
from cards.schema import PRINTED_NUMBERS, printed_numbers
from cards.search import QueryError, card_search
from cards.search.index import name_contains_q, name_prefix_q
from cards.search.paging import (
    CardCount,
    CardPage,
    PageNotFound,
    card_count,
    card_page,
    page_number,
)
from cards.vocabulary import attach_vocabulary, vocabularies


def game_list_with_counts() -> QuerySet[Game]:
    """Every game with ``card_count`` annotated, in display order."""
    return Game.objects.annotate(card_count=Count("cards")).order_by("sort_order", "name")


def card_list_for_game(game: Game) -> QuerySet[Card]:
    return Card.objects.filter(game=game).with_related().order_by("name")


def card_export(game: Game) -> list[dict[str, Any]]:
    """The game's cards as plain JSON-ready objects, sorted by name (the export contract)."""
    cards = []
    for card in card_list_for_game(game):
        numbers = {
            number.name: number.value for number in printed_numbers(game.number_labels, card)
        }
        cards.append(
            {
                "name": card.name,
                "slug": card.slug,
                "set": card.card_set.code,
                "collector_number": card.collector_number,
                "type": card.card_type.slug,
                "subtypes": sorted(s.slug for s in card.subtypes.all()),
                "branch": card.branch.slug if card.branch else None,
                "rarity": card.rarity.slug if card.rarity else None,
                "cost": card.cost,
                "numbers": numbers,
                "copies_in_set": card.copies_in_set,
                "stats": card.stats,
                "effects": card.effects,
                "rules_text": card.rules_text,
                "flavor_text": card.flavor_text,
                "attribution": card.attribution,
            }
        )
    return cards


def card_autocomplete(text: str, *, game: Game | None = None, limit: int = 20) -> list[Card]:
    """Up to ``limit`` cards whose name starts with ``text``, then ones containing it."""
    key = name_key(text)
    if not key:
        return []
    cards = Card.objects.filter(game=game) if game is not None else Card.objects.all()
    cards = cards.select_related("game").only("id", "name", "name_key", "game__slug")
    found = list(cards.filter(name_prefix_q(key)).order_by("name_key", "id")[:limit])
    if len(found) < limit:
        seen = [card.pk for card in found]
        found += list(
            cards.filter(name_contains_q(key))
            .exclude(pk__in=seen)
            .order_by("name_key", "id")[: limit - len(found)]
        )
    return found


def vocabulary_list(model: type[Any]) -> QuerySet[Any]:
    """A vocabulary (card types, branches, rarities, subtypes) of every game, in display order."""
    return (
        model.objects.select_related("game")
        .defer("game__card_schema")
        .order_by("game__sort_order", "game__name", "sort_order", "name")
    )


def card_set_list() -> QuerySet[CardSet]:
    """Card sets of every game, by game then oldest first."""
    return (
        CardSet.objects.select_related("game")
        .defer("game__card_schema")
        .order_by("game__sort_order", "game__name", "release_date", "code")
    )


def card_list_for_api(*, detail: bool) -> QuerySet[Card]:
    """Cards with their related rows; a list leaves out what it does not show (behaviour, the
    game's schema), a detail adds the rulings."""
    if detail:
        return Card.objects.with_related(single=True).prefetch_related("rulings")
    # The game is prefetched once for the page (``with_related``), its schema decoded once.
    return Card.objects.with_related().defer("stats", "effects", "flavor_text")


# Columns of a card as the API's lists show it, read as plain rows (no model instances) and
# without joins: the game, set, type, branch and rarity are ids, named from memory
# (``cards.vocabulary.row_labels``).
CARD_LIST_VALUES = (
    "id",
    "name",
    "slug",
    "game_id",
    "card_set_id",
    "collector_number",
    "card_type_id",
    "branch_id",
    "rarity_id",
    "rules_text",
    *PRINTED_NUMBERS,
)
CARD_DETAIL_VALUES = (
    *CARD_LIST_VALUES,
    "copies_in_set",
    "stats",
    "effects",
    "flavor_text",
    "attribution",
)


@functools.cache
def _card_rows_template() -> QuerySet[Card]:
    # Never evaluated itself: each caller gets a clone (building it is a third of a millisecond,
    # a clone a hundredth of that).
    return Card.objects.values(*CARD_LIST_VALUES, subtype_slugs=_card_json_lists()["subtype_slugs"])


def card_rows_for_api() -> QuerySet[Card, Any]:
    """Cards as ``CARD_LIST_VALUES`` rows plus ``subtype_slugs`` (a JSON list, sorted, from a
    subquery: no second round trip for a page): the API list's base queryset (filter and sort
    it; ``values_list`` of other fields leaves the subquery out)."""
    return _card_rows_template().all()


class _JsonList(RawSQL):
    """A correlated subquery aggregating rows of a card into a JSON list, per database."""

    def __init__(self, postgresql: str, sqlite: str) -> None:
        self.sql_by_vendor = {"postgresql": postgresql, "sqlite": sqlite}
        super().__init__(postgresql, (), output_field=JSONField())

    def as_sql(self, compiler: Any, connection: Any) -> tuple[str, tuple[Any, ...]]:
        return f"({self.sql_by_vendor[connection.vendor]})", ()


def _card_json_lists() -> dict[str, _JsonList]:
    card = Card._meta.db_table
    through = Card.subtypes.through._meta.db_table
    subtype = Subtype._meta.db_table
    ruling = Ruling._meta.db_table
    subtypes_from = (
        f"FROM {through} cs JOIN {subtype} s ON s.id = cs.subtype_id "
        f'WHERE cs.card_id = "{card}"."id"'
    )
    rulings_from = f'FROM {ruling} r WHERE r.card_id = "{card}"."id"'
    return {
        "subtype_slugs": _JsonList(
            f"SELECT COALESCE(jsonb_agg(s.slug ORDER BY s.slug), '[]'::jsonb) {subtypes_from}",
            f"SELECT json_group_array(slug) FROM (SELECT s.slug AS slug {subtypes_from} "
            "ORDER BY s.slug)",
        ),
        "ruling_list": _JsonList(
            "SELECT COALESCE(jsonb_agg(jsonb_build_object('published_on', r.published_on, "
            "'source', r.source, 'text', r.text) ORDER BY r.published_on, r.id), '[]'::jsonb) "
            + rulings_from,
            "SELECT json_group_array(json_object('published_on', published_on, 'source', source, "
            "'text', text)) FROM (SELECT r.published_on AS published_on, r.source AS source, "
            f"r.text AS text {rulings_from} ORDER BY r.published_on, r.id)",
        ),
    }


def _detail_row(card_id: int) -> dict[str, Any] | None:
    rows = Card.objects.filter(pk=card_id).values(*CARD_DETAIL_VALUES, **_card_json_lists())
    return next(iter(rows.order_by()[:1]), None)


# Card detail rows by id, kept in each process (``cards.caching``): the API's card detail is the
# catalogue's hottest read (a deck page's tooltips, other tools' lookups). Any write to a card,
# its vocabulary, subtypes or rulings drops them (``cards.signals``); 5,000 rows is a few MB.
DETAIL_GENERATION_KEY = "cards-detail-rows-generation"
_detail_rows: GenerationMemo[int, dict[str, Any] | None] = GenerationMemo(
    DETAIL_GENERATION_KEY, _detail_row, max_entries=5000
)


def card_detail_row(card_id: int) -> dict[str, Any] | None:
    """One card as a ``CARD_DETAIL_VALUES`` row plus ``subtype_slugs`` and ``ruling_list`` (one
    query, the subtypes and rulings as JSON lists; then from memory until a card changes); None
    if there is none. The row is shared: read it, never change it."""
    return _detail_rows.get(card_id)


def card_detail_rows_invalidate(**_kwargs: Any) -> None:
    """Forget every remembered detail row, here at once and in every process within a second."""
    _detail_rows.invalidate()


def card_detail_rows_forget_local() -> None:
    """Drop this process's detail rows only (tests roll back writes that sent no signal)."""
    _detail_rows.forget_local()


def card_type_counts(game: Game) -> QuerySet[Card, Any]:
    """``[{"card_type__name", "n"}]``: how many cards of each type a game has, in type order."""
    return (
        Card.objects.filter(game=game)
        .values("card_type__name")
        .annotate(n=Count("id"))
        .order_by("card_type__sort_order")
    )


def game_card_total(game: Game) -> CardCount:
    """How many cards ``game`` has: exact up to ``CARD_COUNT_EXACT_UP_TO``, else an estimate."""
    return card_count(Card.objects.filter(game=game))


def _page_card(key: tuple[str, str]) -> Card | None:
    game_slug, slug = key
    cards = Card.objects.with_related(single=True).prefetch_related("rulings")
    return cards.filter(game__slug=game_slug, slug=slug).first()


# The card pages' cards (with their set, type, branch, rarity, game, subtypes and rulings) by
# game and slug, kept in each process on the detail rows' counter: the same writes drop both
# (``cards.signals``; ``cards.caching`` drops memos on one counter together).
_page_cards: GenerationMemo[tuple[str, str], Card | None] = GenerationMemo(
    DETAIL_GENERATION_KEY, _page_card, max_entries=5000
)


def card_for_page(*, game_slug: str, slug: str) -> Card:
    """A card with everything its page shows (related rows, subtypes, rulings): three queries,
    then from memory until game data changes; Card.DoesNotExist if none. The card is shared by
    every request of the process: read it, never change it."""
    card = _page_cards.get((game_slug, slug))
    if card is None:
        raise Card.DoesNotExist(f"No card {slug!r} in {game_slug!r}.")
    return card


# -- card browser ---------------------------------------------------------------------------------

CARDS_PER_PAGE = 48

SORTS = {
    "name": ("name_key",),
    "cost": ("cost",),
    "rarity": ("rarity__sort_order",),
    "type": ("card_type__sort_order",),
    "set": ("card_set__release_date", "collector_number"),
    "game": ("game__sort_order",),
}


@dataclass
class CardBrowse:
    """What the card browser shows: a page of cards, or the error that stopped the query.

    ``total`` is exact when ``total_exact``; past ``CARD_COUNT_EXACT_UP_TO`` matches it is an
    estimate (see ``cards.search.paging``).
    """

    page: CardPage | None
    error: QueryError | None = None
    total: int = 0
    total_exact: bool = True


def _ordering(sort: str, direction: str) -> list[Any]:
    columns = SORTS.get(sort, SORTS["name"])
    descending = direction == "desc"
    order = [
        F(column).desc(nulls_last=True) if descending else F(column).asc(nulls_last=True)
        for column in columns
    ]
    return [*order, "name_key", "pk"]


def card_browse(
    *,
    query: str = "",
    game: Game | None = None,
    card_type: CardType | None = None,
    branch: Branch | None = None,
    rarity: Rarity | None = None,
    card_set: CardSet | None = None,
    sort: str = "name",
    direction: str = "asc",
    page: int | str = 1,
    per_page: int = CARDS_PER_PAGE,
    ids_only: bool = False,
) -> CardBrowse:
    """Cards matching the query language and the filters, sorted and paginated.

    A query that cannot run comes back as ``error`` (with its position) and no page. A page
    number that is not one, or lies past the last match, shows the first page. With
    ``ids_only`` the page holds the cards' ids (for a caller that keeps what it shows of each
    card, ``web.cardrows``): no row is read.
    """
    try:
        cards = card_search(query, game)
    except QueryError as error:
        return CardBrowse(page=None, error=error)
    filters = {
        "card_type": card_type,
        "branch": branch,
        "rarity": rarity,
        "card_set": card_set,
    }
    cards = cards.filter(**{name: value for name, value in filters.items() if value is not None})
    # The game, set, type, branch and rarity of every row come from memory (no join, no
    # prefetch query); only the subtypes are read.
    if not ids_only:
        cards = cards.prefetch_related("subtypes")
    ordering = _ordering(sort, direction)
    try:
        page_obj = card_page(cards, ordering, page_number(page), per_page, ids_only=ids_only)
    except PageNotFound:
        page_obj = card_page(cards, ordering, 1, per_page, ids_only=ids_only)
    if not ids_only:
        attach_vocabulary(page_obj.object_list)
    return CardBrowse(page=page_obj, total=page_obj.count, total_exact=page_obj.count_exact)


@dataclass(frozen=True)
class CardFilter:
    """One of the card browser's filters that follow the game: its choices, game by game."""

    name: str
    """The form field and query parameter (``type``, ``branch``, ``rarity``, ``set``)."""
    label: str
    empty: str
    groups: list[tuple[Game, list[Any]]]


def card_filter_choices(game: Game | None = None) -> dict[str, Any]:
    """The games, and the browser's type, branch, rarity and set filters with their choices.

    With a game chosen, each filter offers that game's values only, under the game's words (its
    branch is a Faction, a Colour ...), and a filter the game has no values for is left out; with
    none, every game's values, grouped by game.
    """
    known = vocabularies()  # from memory: the filters cost no query
    games = list(known.games)
    rows: dict[str, dict[int, list[Any]]] = {}
    for name in ("type", "branch", "rarity", "set"):
        by_game: dict[int, list[Any]] = {}
        for row in known.entries(name, game):
            by_game.setdefault(row.game_id, []).append(row)
        rows[name] = by_game
    shown = games if game is None else [game]

    def groups(name: str) -> list[tuple[Game, list[Any]]]:
        return [(g, rows[name][g.pk]) for g in shown if rows[name].get(g.pk)]

    branch_word = game.branch_label if game is not None and game.branch_label else "Branch"
    filters = [
        CardFilter("type", "Type", "Any type", groups("type")),
        CardFilter("branch", branch_word, f"Any {branch_word.lower()}", groups("branch")),
        CardFilter("rarity", "Rarity", "Any rarity", groups("rarity")),
        CardFilter("set", "Set", "Any set", groups("set")),
    ]
    return {"games": games, "filters": [f for f in filters if f.groups]}
