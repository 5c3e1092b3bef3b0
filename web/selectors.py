"""Reads the pages need: the card browser, a card's formats and decks, decks a viewer may see,
the deck builder's panels and tournament batches.

Everything here composes the apps' own selectors (``cards.search``, ``decks.selectors``,
``decks.stats``, ``decks.validation``); nothing here writes.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.core.paginator import Page, Paginator
from django.db.models import F, QuerySet
from django.http import Http404
from django.utils import timezone

from cards.models import Branch, Card, CardSet, CardType, Game, Rarity
from cards.search import QueryError, card_search
from decks.decklist import DecklistParseError, decklist_entries, decklist_read
from decks.decklist import guess_kind as decklist_guess_kind
from decks.models import Deck, DeckCard, Format, Visibility
from decks.selectors import (
    deck_entries,
    deck_list_for_viewer,
    deck_readable_by,
    deck_validate,
)
from decks.stats import DeckStats, card_matches, deck_stats
from decks.validation import ValidationReport, rules_for
from decks.validation.formats import format_rules

CARDS_PER_PAGE = 48

SORTS = {
    "name": ("name_key",),
    "cost": ("cost",),
    "rarity": ("rarity__sort_order",),
    "type": ("card_type__sort_order",),
    "set": ("card_set__release_date", "collector_number"),
    "game": ("game__sort_order",),
}


# -- card browser ---------------------------------------------------------------------------------


@dataclass
class CardBrowse:
    """What the card browser shows: a page of cards, or the error that stopped the query."""

    page: Page | None
    error: QueryError | None = None
    total: int = 0


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
) -> CardBrowse:
    """Cards matching the query language and the filters, sorted and paginated.

    A query that cannot run comes back as ``error`` (with its position) and no page.
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
    cards = cards.with_related().order_by(*_ordering(sort, direction))
    paginator = Paginator(cards, per_page)
    page_obj = paginator.get_page(page)
    return CardBrowse(page=page_obj, total=paginator.count)


def card_filter_choices() -> dict[str, Any]:
    """Games and every game's types, branches, rarities and sets, for the browser's filters."""
    games = list(Game.objects.order_by("sort_order", "name"))
    by_game: dict[str, dict[int, list[Any]]] = {}
    for label, model in (
        ("types", CardType),
        ("branches", Branch),
        ("rarities", Rarity),
    ):
        grouped: dict[int, list[Any]] = {}
        for row in model.objects.order_by("game_id", "sort_order", "name"):
            grouped.setdefault(row.game_id, []).append(row)
        by_game[label] = grouped
    sets: dict[int, list[CardSet]] = {}
    for row in CardSet.objects.order_by("game_id", "release_date", "code"):
        sets.setdefault(row.game_id, []).append(row)
    by_game["sets"] = sets

    def grouped(label: str) -> list[tuple[Game, list[Any]]]:
        return [(g, by_game[label].get(g.pk, [])) for g in games if by_game[label].get(g.pk)]

    return {
        "games": games,
        "types": grouped("types"),
        "branches": grouped("branches"),
        "rarities": grouped("rarities"),
        "sets": grouped("sets"),
    }


# -- card page ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class CardFormatStatus:
    format: Format
    status: str  # legal | banned | restricted | not-legal
    detail: str = ""


def card_format_statuses(card: Card, on: dt.date | None = None) -> list[CardFormatStatus]:
    """Where ``card`` may be played on a date: per format of its game, legal, banned,
    restricted (with its limit) or not legal (its set is not in the format)."""
    day = on or timezone.localdate()
    statuses = []
    for fmt in Format.objects.filter(game_id=card.game_id).order_by("-is_default", "name"):
        rules = format_rules(fmt.pk, day)
        if card.pk in rules.banned:
            statuses.append(CardFormatStatus(fmt, "banned", rules.banned[card.pk]))
        elif card.pk in rules.restricted:
            limit = rules.restricted[card.pk]
            statuses.append(
                CardFormatStatus(
                    fmt, "restricted", f"at most {limit} cop{'y' if limit == 1 else 'ies'}"
                )
            )
        elif card.card_set.code in rules.legal_sets:
            statuses.append(CardFormatStatus(fmt, "legal"))
        else:
            statuses.append(
                CardFormatStatus(fmt, "not-legal", f"{card.card_set.code} is not in this format")
            )
    return statuses


def card_public_decks(card: Card, limit: int = 20) -> QuerySet[Deck]:
    """Public decks holding ``card``, most recently changed first."""
    return (
        Deck.objects.filter(visibility=Visibility.PUBLIC, cards__card=card)
        .select_related("owner", "format")
        .distinct()
        .order_by("-updated_at", "pk")[:limit]
    )


# -- decks ----------------------------------------------------------------------------------------


def deck_for_viewer(user: AbstractBaseUser | AnonymousUser, pk: int) -> Deck:
    """The deck if ``user`` may see it (public, unlisted by link, or their own); else Http404,
    so a private deck's existence is not revealed."""
    deck = deck_readable_by(user).filter(pk=pk).first()
    if deck is None:
        raise Http404("No such deck")
    return deck


def deck_for_owner(user: AbstractBaseUser | AnonymousUser, pk: int) -> Deck:
    """The deck if ``user`` owns it; Http404 otherwise (also for other people's public decks)."""
    if not user.is_authenticated:
        raise Http404("No such deck")
    deck = Deck.objects.filter(pk=pk, owner_id=user.pk).select_related("game", "format").first()
    if deck is None:
        raise Http404("No such deck")
    return deck


@dataclass
class DeckRow:
    card: Card
    quantity: int
    zone: str


@dataclass
class DeckSection:
    title: str
    count: int
    rows: list[DeckRow] = field(default_factory=list)


def deck_sections(deck: Deck) -> list[DeckSection]:
    """The deck's cards grouped by zone (zoned games) or by card type, in the game's order."""
    rules = rules_for(deck.game.slug)
    rows = (
        DeckCard.objects.filter(deck=deck)
        .select_related("card__card_type", "card__branch", "card__rarity")
        .order_by("zone", "card__card_type__sort_order", "card__name")
    )
    sections: dict[str, DeckSection] = {}
    order: dict[str, tuple[int, str]] = {}
    for row in rows:
        if rules.zones:
            title = rules.zone_labels.get(row.zone, row.zone or "Deck")
            position = rules.zones.index(row.zone) if row.zone in rules.zones else 99
        else:
            title = row.card.card_type.name
            position = row.card.card_type.sort_order
        section = sections.get(title)
        if section is None:
            section = sections[title] = DeckSection(title=title, count=0)
            order[title] = (position, title)
        section.rows.append(DeckRow(card=row.card, quantity=row.quantity, zone=row.zone))
        section.count += row.quantity
    return [sections[title] for title in sorted(sections, key=lambda t: order[t])]


@dataclass
class DrawOdds:
    label: str
    hits: int
    chances: list[tuple[str, Fraction]]


@dataclass
class StatsPanel:
    """The statistics panel: counts with display names, the cost curve and draw odds."""

    stats: DeckStats
    by_type: list[tuple[str, int]]
    by_branch: list[tuple[str, int]]
    by_rarity: list[tuple[str, int]]
    curve: list[tuple[int, int]]
    odds: list[DrawOdds]
    turns: list[str]
    no_odds_reason: str = ""


def _names(model: Any, game: Game) -> dict[str, str]:
    return dict(model.objects.filter(game=game).values_list("slug", "name"))


def deck_stats_panel(deck: Deck, entries: Iterable[Any] | None = None) -> StatsPanel:
    """Counts by type/branch/rarity, the cost curve and draw odds per card type for a deck."""
    game = deck.game
    stats = deck_stats(game.slug, entries if entries is not None else deck_entries(deck))
    type_names = _names(CardType, game)
    branch_names = _names(Branch, game)
    rarity_names = _names(Rarity, game)

    def named(counts: dict[str, int], names: dict[str, str]) -> list[tuple[str, int]]:
        return [
            (names.get(slug, "None" if slug == "none" else slug), n) for slug, n in counts.items()
        ]

    rules = rules_for(game.slug)
    turns = [(0, "Opening hand"), (1, "By turn 1"), (3, "By turn 3")]
    turns = [(t, label) for t, label in turns if rules.cards_seen(t) is not None]
    odds: list[DrawOdds] = []
    reason = ""
    if not turns:
        reason = f"{game.name} has no hand to draw, so there are no draw odds."
    elif stats.draw_pile_size == 0:
        reason = "Add cards to see the odds of drawing them."
    else:
        for type_slug in stats.by_type:
            test = card_matches(type=type_slug)
            hits = sum(n for card, n in stats.draw_pile if test(card))
            if not hits:
                continue
            chances = [(label, stats.draw_probability(test, turn=t)) for t, label in turns]
            odds.append(DrawOdds(type_names.get(type_slug, type_slug), hits, chances))
    return StatsPanel(
        stats=stats,
        by_type=named(stats.by_type, type_names),
        by_branch=named(stats.by_branch, branch_names),
        by_rarity=named(stats.by_rarity, rarity_names),
        curve=list(stats.cost_curve.items()),
        odds=odds,
        turns=[label for _, label in turns],
        no_odds_reason=reason,
    )


@dataclass
class DeckWorkspace:
    """Everything the builder re-renders after a change: the list, the verdict, the statistics."""

    deck: Deck
    sections: list[DeckSection]
    report: ValidationReport
    stats: StatsPanel


def deck_workspace(deck: Deck) -> DeckWorkspace:
    """The deck builder's live panels for ``deck``."""
    entries = deck_entries(deck)
    return DeckWorkspace(
        deck=deck,
        sections=deck_sections(deck),
        report=deck_validate(deck),
        stats=deck_stats_panel(deck, entries),
    )


def deck_zones(game: Game) -> list[tuple[str, str]]:
    """``[(zone, label)]`` of a game whose decks have zones; empty otherwise."""
    rules = rules_for(game.slug)
    return [(zone, rules.zone_labels.get(zone, zone)) for zone in rules.zones]


def game_variants() -> list[tuple[str, list[str]]]:
    """``[(game name, variants)]`` for games that have variants."""
    return [
        (game.name, list(rules_for(game.slug).variants))
        for game in Game.objects.order_by("sort_order", "name")
        if rules_for(game.slug).variants
    ]


# -- tournament batches ---------------------------------------------------------------------------

_SEPARATOR = re.compile(r"^\s*-{3,}\s*$", re.MULTILINE)


@dataclass
class BatchDeck:
    name: str
    entries: list[Any] | None
    errors: list[str]


def batch_read(
    game: Game, *, pasted: str = "", files: Iterable[tuple[str, str]] = ()
) -> list[BatchDeck]:
    """Decks from uploaded files (``(filename, text)``) and pasted text (decks separated by a line
    of three or more dashes); unreadable ones carry their errors instead of entries."""
    sources: list[tuple[str, str, str]] = []
    for filename, text in files:
        sources.append((filename, text, decklist_guess_kind(filename, text)))
    chunks = [chunk for chunk in _SEPARATOR.split(pasted or "") if chunk.strip()]
    for number, chunk in enumerate(chunks, start=1):
        sources.append((f"Pasted deck {number}", chunk, decklist_guess_kind("", chunk)))
    decks = []
    for label, text, kind in sources:
        try:
            parsed = decklist_read(text, kind)  # type: ignore[arg-type]
        except DecklistParseError as error:
            decks.append(BatchDeck(label, None, [str(p) for p in error.problems]))
            continue
        declared = parsed.metadata.get("game")
        if declared and declared != game.slug:
            decks.append(
                BatchDeck(label, None, [f"this decklist is for {declared}, not {game.slug}"])
            )
            continue
        name = parsed.metadata.get("name")
        display = f"{label}: {name}" if name and name not in label else label
        try:
            entries = decklist_entries(game.slug, parsed)
        except DecklistParseError as error:  # a section or quantity the game cannot have
            decks.append(BatchDeck(display, None, [str(p) for p in error.problems]))
            continue
        decks.append(BatchDeck(display, entries, []))
    return decks


def deck_list_visible_to(user: AbstractBaseUser | AnonymousUser) -> QuerySet[Deck]:
    """Decks a user may pick for a matchup: public ones and their own, by game and name."""
    return deck_list_for_viewer(user).order_by("game__sort_order", "name", "pk")
