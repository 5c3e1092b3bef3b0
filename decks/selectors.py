"""Reads for decks and formats: who may see and change a deck, lists, versions and what changed,
the deck builder's panels, a card's formats and decks, tournament batches, the organiser role
(events: ``decks.events.selectors``).

The web pages and the API both read through here, so a rule (who owns a deck, which decks a list
shows) is written once.
"""

from __future__ import annotations

import datetime as dt
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AnonymousUser, Permission, User
from django.db.models import IntegerField, Q, QuerySet, Sum, Value
from django.db.models.functions import Coalesce
from django.http import Http404
from django.utils import timezone

from cards.images.links import CardImageLinks, card_image_links_many
from cards.links import card_page_urls
from cards.models import Branch, Card, CardType, Game, Rarity
from cards.naming import name_key
from cards.schema import PrintedNumber
from decks.decklist import (
    DecklistEntry,
    DecklistParseError,
    DecklistSettings,
    decklist_entries,
    decklist_export,
    decklist_read,
    decklist_settings,
)
from decks.decklist import guess_kind as decklist_guess_kind
from decks.errors import DeckPermissionError
from decks.models import (
    Deck,
    DeckCard,
    DeckVersion,
    Format,
    FormatCardEntry,
    Visibility,
)
from decks.stats import DeckStats, card_matches, deck_stats, hypergeometric_at_least
from decks.validation import UnknownVariantError, ValidationReport, rules_for, validate
from decks.validation.formats import format_rules, game_formats


def _with_card_count(decks: QuerySet[Deck]) -> QuerySet[Deck]:
    """The decks with their game, format and owner, and ``card_count``. The game's card schema
    (a JSON Schema of 2-12 KB that only a card's own checks read) is left in the database: a
    list decoded it again for every deck, half the time of the API's deck list."""
    total = Coalesce(Sum("cards__quantity"), Value(0), output_field=IntegerField())
    return (
        decks.select_related("game", "format", "owner")
        .defer("game__card_schema")
        .annotate(card_count=total)
    )


def deck_readable_by(user: User | AnonymousUser) -> QuerySet[Deck]:
    """Decks ``user`` may read: public and unlisted ones, and all of their own.

    Private decks of others are simply absent, so looking one up is a 404, not a 403. Each deck
    carries ``card_count``.
    """
    return _with_card_count(Deck.objects.filter(_readable(user)))


def _readable(user: User | AnonymousUser) -> Q:
    condition = ~Q(visibility=Visibility.PRIVATE)
    if user.is_authenticated:
        condition |= Q(owner=user)
    return condition


def deck_owned_by(deck: Deck, user: User | AnonymousUser | None) -> bool:
    """The one ownership rule: only the user who made a deck (or cloned it) may change it."""
    return bool(user is not None and user.is_authenticated and user.pk == deck.owner_id)


def deck_for_viewer(user: User | AnonymousUser, pk: int) -> Deck:
    """The deck if ``user`` may see it (public, unlisted by link, or their own); else Http404,
    so a private deck's existence is not revealed."""
    deck = deck_readable_by(user).filter(pk=pk).first()
    if deck is None:
        raise Http404("No such deck")
    return deck


def deck_for_change(user: User | AnonymousUser, pk: int) -> Deck:
    """The deck ``user`` is about to change: Http404 when they may not even see it, and
    ``DeckPermissionError`` when they may see it but it is not theirs (a 403, on the API and the
    pages alike). The services check ownership again under the deck's lock.

    The deck's row only (no card count): the write re-reads what it needs under its lock.
    """
    deck = Deck.objects.filter(_readable(user), pk=pk).select_related("game", "format").first()
    if deck is None:
        raise Http404("No such deck")
    if not deck_owned_by(deck, user):
        raise DeckPermissionError("Only the deck's owner can change it.")
    return deck


def deck_with_cards(user: User | AnonymousUser, pk: int) -> Deck:
    """A readable deck with its card rows and their cards prefetched (the API's deck body)."""
    deck = deck_readable_by(user).prefetch_related("cards__card").filter(pk=pk).first()
    if deck is None:
        raise Http404("No such deck")
    return deck


def deck_list_for_viewer(
    user: User | AnonymousUser, *, game_slug: str | None = None, mine: bool = False
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


def deck_list_public(*, game: Game | None = None) -> QuerySet[Deck]:
    """Public decks (never unlisted or private ones), newest change first, with card counts."""
    decks = Deck.objects.filter(visibility=Visibility.PUBLIC)
    if game is not None:
        decks = decks.filter(game=game)
    return _with_card_count(decks).order_by("-updated_at", "pk")


def deck_list_owned(user: User, *, game: Game | None = None) -> QuerySet[Deck]:
    """A user's own decks (of one game, when given), newest change first, with card counts."""
    decks = Deck.objects.filter(owner=user)
    if game is not None:
        decks = decks.filter(game=game)
    return _with_card_count(decks).order_by("-updated_at", "pk")


def deck_current_version(deck_id: int) -> int | None:
    """The version the deck is at in the database now (None when it was deleted meanwhile)."""
    return Deck.objects.filter(pk=deck_id).values_list("version", flat=True).first()


def deck_entries(deck: Deck) -> list[DecklistEntry]:
    """The deck's cards as decklist entries (canonical names, zones), sorted by zone and name."""
    return _entries_of(deck.cards.select_related("card").order_by("zone", "card__name"))


def _entries_of(rows: Iterable[DeckCard]) -> list[DecklistEntry]:
    return [DecklistEntry(r.card.name, r.quantity, r.zone, 0, r.zone) for r in rows]


def _listed_rows(deck: Deck) -> list[DeckCard]:
    """The deck's rows with everything the builder's list shows of their cards, in
    :func:`deck_entries`' order (zone, then name), so one read serves both."""
    return list(
        DeckCard.objects.filter(deck=deck)
        # not card__game: every card is of the deck's game, and a join would decode the game's
        # JSON schema once per row (a third of the page's time); deck_sections sets it instead
        .select_related("card__card_set", "card__card_type", "card__branch", "card__rarity")
        .prefetch_related("card__subtypes")
        .order_by("zone", "card__name")
    )


def deck_validate(
    deck: Deck,
    *,
    format: Format | None = None,
    as_of: dt.date | None = None,
    entries: list[DecklistEntry] | None = None,
) -> ValidationReport:
    """Validate a deck against its game and its own format (or the one given). ``entries``: the
    deck's :func:`deck_entries` where the caller read them already."""
    chosen = format or deck.format
    listed = deck_entries(deck) if entries is None else entries
    slug = deck.game.slug
    try:
        return validate(
            slug,
            listed,
            format=chosen.pk if chosen else None,
            as_of=as_of,
            variant=deck.variant or None,
        )
    except UnknownVariantError as error:
        # A variant stored before its game dropped it (or typed in past the forms): the deck
        # is judged as the game's default and told why it is not legal, rather than fail.
        report = validate(slug, listed, format=chosen.pk if chosen else None, as_of=as_of)
        rules = rules_for(slug)
        known = ", ".join(error.known) or "none"
        report.add(
            "unknown-variant",
            f"Unknown variant: this deck is stored with the variant {deck.variant!r}, which "
            f"{deck.game.name} does not have (its variants: {known}); it was checked as "
            f"{rules.default_variant or 'the game without a variant'}. Edit the deck to pick one.",
            rules.variants_rule or rules.pool_rule,
            variant=deck.variant,
            variants=list(error.known),
        )
        return report


def deck_export(deck: Deck, kind: str = "text") -> str:
    """The deck as a canonical decklist in ``text``, ``json`` or ``csv``."""
    metadata = {"name": deck.name, "format": deck.format.slug if deck.format else ""}
    if deck.variant:
        metadata["variant"] = deck.variant
    return decklist_export(deck.game.slug, deck_entries(deck), metadata, kind)  # type: ignore[arg-type]


def deck_versions(deck: Deck) -> QuerySet[DeckVersion]:
    return deck.versions.order_by("number")


def _counts(version: DeckVersion) -> dict[tuple[str, str], int]:
    return {(e["name"], e.get("zone", "")): e["quantity"] for e in version.entries}


def deck_version_diff(deck: Deck, older: int, newer: int) -> dict[str, Any]:
    """What changed between two version numbers of a deck: cards added, removed and changed."""
    versions = {v.number: v for v in deck.versions.filter(number__in=(older, newer))}
    missing = [n for n in (older, newer) if n not in versions]
    if missing:
        raise DeckVersion.DoesNotExist(f"{deck.name} has no version {missing[0]}")
    before, after = _counts(versions[older]), _counts(versions[newer])
    added, removed, changed = [], [], []
    for key in sorted(set(before) | set(after)):
        name, zone = key
        was, now = before.get(key, 0), after.get(key, 0)
        row = {"name": name, "zone": zone}
        if was == 0:
            added.append({**row, "quantity": now})
        elif now == 0:
            removed.append({**row, "quantity": was})
        elif was != now:
            changed.append({**row, "from": was, "to": now})
    return {"from": older, "to": newer, "added": added, "removed": removed, "changed": changed}


@dataclass
class DeckChanges:
    """What happened to a deck after a version someone had open: the saves since, by version
    number and note, and the cards added, removed and changed between then and now."""

    since: int
    current: int
    saves: list[tuple[int, str]]
    diff: dict[str, Any] | None

    @property
    def cards_changed(self) -> bool:
        return bool(
            self.diff and (self.diff["added"] or self.diff["removed"] or self.diff["changed"])
        )


def deck_changes_since(deck: Deck, version: int, *, until: int | None = None) -> DeckChanges:
    """The saves of ``deck`` after ``version`` up to ``until`` (default: its current version).

    ``diff`` is None when the older snapshot is missing (a version number the deck never had).
    """
    current = deck.version if until is None else until
    saves = list(
        deck.versions.filter(number__gt=version, number__lte=current)
        .order_by("number")
        .values_list("number", "note")
    )
    try:
        diff = deck_version_diff(deck, version, current) if version < current else None
    except DeckVersion.DoesNotExist:
        diff = None
    return DeckChanges(since=version, current=current, saves=saves, diff=diff)


def formats_with_games() -> QuerySet[Format]:
    """Formats with their game joined, less the game's card schema (2-12 KB of JSON that only a
    card's own checks read, else decoded again for every format)."""
    return Format.objects.select_related("game").defer("game__card_schema")


def format_list(*, game_slug: str | None = None) -> QuerySet[Format]:
    """Formats of every game (or of one), by game then slug."""
    formats = formats_with_games().order_by("game__sort_order", "slug")
    return formats.filter(game__slug=game_slug) if game_slug else formats


def format_by_slug(slug: str, *, game: Game | None = None) -> list[Format]:
    """The formats called ``slug`` (of ``game`` when given): none, one, or several games' own."""
    formats = formats_with_games().filter(slug=slug)
    if game is not None:
        formats = formats.filter(game=game)
    return list(formats.order_by("game__sort_order")[:2])


def format_list_for_game(game: Game | str) -> QuerySet[Format]:
    condition = Q(game=game) if isinstance(game, Game) else Q(game__slug=game)
    return formats_with_games().filter(condition)


def format_default(game: Game | str) -> Format | None:
    """The game's default format (``default: true`` in its formats.yaml), if any."""
    return format_list_for_game(game).filter(is_default=True).first()


def format_list_entries_on(fmt: Format, on: dt.date) -> QuerySet[FormatCardEntry]:
    """The banned and restricted entries in force on a date ("was this list legal then?")."""
    return fmt.card_entries.in_effect(on).select_related("card").order_by("status", "card__name")


# -- the organiser role ---------------------------------------------------------------------------

ORGANISERS_GROUP = "Organisers"  # created by migration decks 0002, with the permission below
ORGANISER_PERMISSION = ("decks", "add_event")


def user_is_organiser(user: User | AnonymousUser) -> bool:
    """Whether ``user`` may create events: an active member of the Organisers group, anyone given
    ``decks.add_event`` directly (e.g. in the admin), or a superuser."""
    app_label, codename = ORGANISER_PERMISSION
    return bool(user.is_authenticated and user.has_perm(f"{app_label}.{codename}"))


def organiser_list() -> QuerySet[Any]:
    """Every active user who is an organiser (by group, direct permission or superuser status)."""
    app_label, codename = ORGANISER_PERMISSION
    permission = Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    holds = Q(groups__permissions__in=permission) | Q(user_permissions__in=permission)
    user_model = get_user_model()
    users = user_model.objects.filter(holds | Q(is_superuser=True), is_active=True)
    return users.distinct().order_by(user_model.USERNAME_FIELD)


#: the most decks one format check judges (the API's and the tournament page's)
MAX_BATCH_DECKS = 100


def format_check(
    fmt: Format,
    decks: list[BatchDeck],
    *,
    as_of: dt.date | None = None,
    variant: str | None = None,
) -> dict[str, Any]:
    """Judge many decks against one format: a verdict per deck and a summary.

    A deck whose list could not be read has no entries and its reading errors, and counts as
    unreadable rather than illegal. Each deck is judged on ``as_of`` and in ``variant`` when
    the caller gives them, else on the day and in the variant its own lines name
    (``BatchDeck.settings``), else today in the game's standard rules: the summary's ``as_of``
    is the caller's day, or today. A variant the game does not have leaves that deck unreadable,
    saying so. Each result names the day it was judged on (``as_of``), and the summary counts
    the decks judged on a day of their own (``own_dates``): a list dated before a ban would
    otherwise pass as legal under a summary that names today.
    """
    day = as_of or timezone.localdate()
    results: list[dict[str, Any]] = []
    codes: Counter[str] = Counter()
    for index, deck in enumerate(decks):
        entries, errors = deck.entries, list(deck.errors)
        judged_on = as_of or deck.settings.as_of or day
        result: dict[str, Any] = {
            "index": index,
            "name": deck.name,
            "as_of": judged_on.isoformat(),
            "report": None,
        }
        report = None
        if entries is not None:
            try:
                report = validate(
                    fmt.game.slug,
                    entries,
                    format=fmt.pk,
                    as_of=judged_on,
                    variant=variant or deck.settings.variant,
                ).to_dict()
            except UnknownVariantError as error:
                errors.append(str(error))
        result["errors"] = errors
        if report is None:
            result.update(legal=False, codes=[])
        else:
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
            "own_dates": sum(1 for result in results if result["as_of"] != day.isoformat()),
            "by_code": dict(sorted(codes.items())),
        },
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
    for fmt in game_formats(card.game_id):  # from memory, like each format's rules
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


# -- the deck builder's panels --------------------------------------------------------------------


GROUPINGS = ("type", "cost", "branch")
"""How the builder may group a deck's list besides the game's own (by zone, else by type)."""
SORTS = ("name", "cost")


@dataclass
class DeckRow:
    card: Card
    quantity: int
    zone: str
    image: CardImageLinks | None = None
    numbers: tuple[PrintedNumber, ...] = ()
    problems: list[str] = field(default_factory=list)
    """Messages of the validation violations that name this card."""
    url: str = ""
    """The card's page (``card.get_absolute_url()``)."""

    @property
    def cost(self) -> int | None:
        return self.card.cost


@dataclass
class DeckSection:
    title: str
    count: int
    rows: list[DeckRow] = field(default_factory=list)


def _group_key(card: Card, group: str, game: Game) -> tuple[tuple[int, str], str]:
    """``((position, tie-break), title)`` of the section a card goes to when grouped by ``group``."""
    if group == "cost":
        if card.cost is None:
            return (10**6, ""), "No cost"
        cost = game.number_labels.get("cost")
        label = (cost.get("label") or "Cost") if isinstance(cost, dict) else "Cost"
        return (card.cost, ""), f"{label} {card.cost}"
    if group == "branch":
        if card.branch is None:
            return (10**6, ""), f"No {game.branch_label.lower()}"
        return (card.branch.sort_order, card.branch.name), card.branch.name
    return (card.card_type.sort_order, card.card_type.name), card.card_type.name


def deck_sections(
    deck: Deck,
    *,
    group: str = "",
    sort: str = "name",
    report: ValidationReport | None = None,
    rows: list[DeckCard],
) -> list[DeckSection]:
    """The deck's cards in sections, with each row's image links, printed numbers and the
    messages of the violations in ``report`` that name it.

    ``group`` "" is the game's own grouping: by zone (zoned games) or by card type; "type",
    "cost" or "branch" group by that (within each zone, for zoned games). ``sort`` orders the
    rows of a section by "name" or by "cost" (then name; cards without a cost last). ``rows``:
    the deck's rows as ``_listed_rows`` reads them (the caller shares them with the verdict)."""
    game = deck.game
    rules = rules_for(game.slug)
    problems: dict[str, list[str]] = {}
    for violation in report.violations if report is not None else ():
        for name in dict.fromkeys(violation.cards):
            problems.setdefault(name_key(name), []).append(violation.message)
    sections: dict[str, DeckSection] = {}
    order: dict[str, tuple[Any, ...]] = {}
    cards = [row.card for row in rows]
    for card in cards:
        card.game = game
    # one URL reversal for every row's image and one for every row's page, not one a row each
    images = card_image_links_many(cards)
    pages = card_page_urls(cards)
    for row, image, page in zip(rows, images, pages, strict=True):
        card = row.card
        zone_position = rules.zones.index(row.zone) if row.zone in rules.zones else 99
        zone_title = rules.zone_labels.get(row.zone, row.zone or "Deck")
        if group in GROUPINGS:
            position, title = _group_key(card, group, game)
            if rules.zones:
                title = f"{zone_title} · {title}"
            key: tuple[Any, ...] = (zone_position, *position)
        elif rules.zones:
            title, key = zone_title, (zone_position,)
        else:
            title, key = card.card_type.name, (card.card_type.sort_order,)
        section = sections.get(title)
        if section is None:
            section = sections[title] = DeckSection(title=title, count=0)
            order[title] = (*key, title)
        section.rows.append(
            DeckRow(
                card=card,
                quantity=row.quantity,
                zone=row.zone,
                image=image,
                numbers=card.printed_numbers(),
                problems=problems.get(name_key(card.name), []),
                url=page,
            )
        )
        section.count += row.quantity
    for section in sections.values():
        if sort == "cost":
            section.rows.sort(
                key=lambda r: (r.card.cost is None, r.card.cost or 0, r.card.name.casefold())
            )
        else:
            section.rows.sort(key=lambda r: r.card.name.casefold())
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
    card_odds: list[DrawOdds] = field(default_factory=list)
    """The same odds for each card of the draw pile (all its copies)."""
    no_odds_reason: str = ""
    breakdowns: list[tuple[str, list[tuple[str, int]]]] = field(default_factory=list)
    """``(caption, rows)`` of the counts that mean something for the game: by type, by branch
    (the game's word for it) and by rarity, each only where the game has two or more of them."""
    cost_label: str | None = None
    """What the game calls a card's cost (``IP cost``); None where cards print no cost, so
    there is no cost curve."""


def _names(model: Any, game: Game) -> dict[str, str]:
    return dict(model.objects.filter(game=game).values_list("slug", "name"))


def deck_stats_panel(deck: Deck, entries: Iterable[Any] | None = None) -> StatsPanel:
    """Counts by type/branch/rarity, the cost curve and draw odds per card type for a deck."""
    game = deck.game
    stats = deck_stats(game.slug, entries if entries is not None else deck_entries(deck))
    type_names = _names(CardType, game)
    branch_names = _names(Branch, game)
    rarity_names = _names(Rarity, game)

    def named(
        counts: dict[str, int], names: dict[str, str], none: str = "None"
    ) -> list[tuple[str, int]]:
        return [
            (names.get(slug, none if slug == "none" else slug), n) for slug, n in counts.items()
        ]

    rules = rules_for(game.slug)
    turns = [(0, "Opening hand"), (1, "By turn 1"), (3, "By turn 3")]
    turns = [(t, label) for t, label in turns if rules.cards_seen(t) is not None]
    odds: list[DrawOdds] = []
    card_odds: list[DrawOdds] = []
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
        copies: dict[str, int] = {}
        for card, n in stats.draw_pile:
            copies[card.name] = copies.get(card.name, 0) + n
        for name in sorted(copies, key=str.casefold):
            test = card_matches(name=name)
            chances = [(label, stats.draw_probability(test, turn=t)) for t, label in turns]
            card_odds.append(DrawOdds(name, copies[name], chances))
    by_type = named(stats.by_type, type_names)
    by_branch = named(stats.by_branch, branch_names, f"No {game.branch_label.lower()}")
    by_rarity = named(stats.by_rarity, rarity_names, "No rarity")
    breakdowns = [
        (caption, rows)
        for caption, rows, kinds in (
            ("By type", by_type, type_names),
            (f"By {game.branch_label.lower()}", by_branch, branch_names),
            ("By rarity", by_rarity, rarity_names),
        )
        if len(kinds) >= 2
    ]
    cost = game.number_labels.get("cost")
    return StatsPanel(
        stats=stats,
        by_type=by_type,
        by_branch=by_branch,
        by_rarity=by_rarity,
        breakdowns=breakdowns,
        cost_label=(cost.get("label") or "Cost") if isinstance(cost, dict) else None,
        curve=list(stats.cost_curve.items()),
        odds=odds,
        card_odds=card_odds,
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
    as_of: dt.date | None = None


def deck_workspace(
    deck: Deck, *, group: str = "", sort: str = "name", as_of: dt.date | None = None
) -> DeckWorkspace:
    """The deck builder's live panels for ``deck``: the list grouped and sorted as asked, its
    verdict on ``as_of`` (default today), the statistics."""
    rows = _listed_rows(deck)  # one read for the verdict, the list and the statistics
    entries = _entries_of(rows)
    report = deck_validate(deck, as_of=as_of, entries=entries)
    return DeckWorkspace(
        deck=deck,
        sections=deck_sections(deck, group=group, sort=sort, report=report, rows=rows),
        report=report,
        stats=deck_stats_panel(deck, entries),
        as_of=as_of,
    )


@dataclass
class CustomOdds:
    """The answer of the builder's calculator: P(at least ``at_least`` of ``names`` among
    ``seen`` cards drawn from a pile of ``pile`` holding ``hits`` of them)."""

    names: list[str]
    hits: int
    pile: int
    seen: int
    at_least: int
    chance: Fraction


def deck_custom_odds(
    stats: DeckStats, *, names: Iterable[str], at_least: int, seen: int
) -> CustomOdds:
    """Exact odds of drawing at least ``at_least`` copies of the cards ``names`` (together) in
    the first ``seen`` cards of the deck's draw pile."""
    wanted = sorted(set(names), key=str.casefold)
    chosen = set(wanted)
    hits = sum(n for card, n in stats.draw_pile if card.name in chosen)
    pile = stats.draw_pile_size
    return CustomOdds(
        names=wanted,
        hits=hits,
        pile=pile,
        seen=min(seen, pile),
        at_least=at_least,
        chance=hypergeometric_at_least(pile, hits, seen, at_least),
    )


def deck_zones(game: Game) -> list[tuple[str, str]]:
    """``[(zone, label)]`` of a game whose decks have zones; empty otherwise."""
    rules = rules_for(game.slug)
    return [(zone, rules.zone_labels.get(zone, zone)) for zone in rules.zones]


# -- tournament batches ---------------------------------------------------------------------------

#: a line of three or more dashes between pasted decks, its line break included, so each deck's
#: line numbers count from its own first line
_SEPARATOR = re.compile(r"^[ \t]*-{3,}[ \t]*(?:\r?\n|\Z)", re.MULTILINE)


@dataclass
class BatchDeck:
    """One deck of a batch: its entries (None when unreadable, with its ``errors``) and how its
    own ``# key: value`` lines ask to be judged."""

    name: str
    entries: list[Any] | None
    errors: list[str]
    settings: DecklistSettings = field(default_factory=DecklistSettings)


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
        name = parsed.metadata.get("name")
        display = f"{label}: {name}" if name and name not in label else label
        try:
            settings = decklist_settings(parsed, game.slug)  # another game's list is unreadable
            entries = decklist_entries(game.slug, parsed)
        except DecklistParseError as error:  # a section or quantity the game cannot have
            decks.append(BatchDeck(display, None, [str(p) for p in error.problems]))
            continue
        decks.append(BatchDeck(display, entries, [], settings))
    return decks


def deck_list_visible_to(
    user: User | AnonymousUser,
    *,
    games: Iterable[str] | None = None,
    pk: int | None = None,
) -> QuerySet[Deck]:
    """Decks a user may pick for a matchup: public ones and their own, by game and name; only
    those of the ``games`` slugs, or the one deck ``pk``, when given."""
    decks = deck_list_for_viewer(user)
    if games is not None:
        decks = decks.filter(game__slug__in=list(games))
    if pk is not None:
        decks = decks.filter(pk=pk)
    return decks.order_by("game__sort_order", "name", "pk")
