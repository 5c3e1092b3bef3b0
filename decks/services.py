"""Writes for decks, formats and the organiser role (events: ``decks.events.services``). Every
check happens here, before anything is written."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import yaml
from django.conf import settings
from django.contrib.auth.models import Group, Permission, User
from django.db import OperationalError, transaction
from django.db.models import F
from django.utils import timezone

from cards.models import Card, CardSet, Game
from cards.naming import name_key
from common.inputs import name_problem
from decks.decklist import (
    Decklist,
    DecklistEntry,
    DecklistParseError,
    decklist_entries,
    decklist_read,
    decklist_settings,
)
from decks.decklist.model import MAX_QUANTITY
from decks.errors import DeckBusyError, DeckError, DeckPermissionError, DeckVersionConflict
from decks.models import (
    Deck,
    DeckCard,
    DeckVersion,
    Format,
    FormatCardEntry,
    FormatCardStatus,
    FormatSet,
    Visibility,
)
from decks.selectors import (
    ORGANISER_PERMISSION,
    ORGANISERS_GROUP,
    deck_owned_by,
    user_is_organiser,
)
from decks.validation import card_index, rules_for

FORMATS_FILE = "formats.yaml"
T = TypeVar("T")


class OrganiserRequiredError(PermissionError):
    """Someone without the organiser role tried to create an event; the message says what to do."""

    def __init__(self) -> None:
        super().__init__(
            "Only organisers can create events. Ask an administrator of this site to make you an "
            "organiser: they add you to the Organisers group in the admin, or run "
            "`manage.py organiser grant YOUR_USERNAME`."
        )


# -- helpers --------------------------------------------------------------------------------------


def format_and_variant_problems(game: Game, format: Format | None, variant: str) -> dict[str, str]:
    """What is wrong with a deck's or event's format and variant for ``game``, by field name:
    the format must be the game's own, and a variant one of the game's."""
    problems = {}
    if format is not None and format.game_id != game.pk:
        problems["format"] = f"format {format.name} belongs to another game"
    if variant and variant not in rules_for(game.slug).variants:
        problems["variant"] = f"{game.name} has no variant {variant!r}"
    return problems


def _game(game: Game | str) -> Game:
    return game if isinstance(game, Game) else Game.objects.get(slug=game)


def _read(decklist: str | Decklist | Iterable[Any] | Mapping[str, int], kind: str) -> Decklist:
    if isinstance(decklist, Decklist):
        return decklist
    if isinstance(decklist, str | bytes):
        return decklist_read(decklist, kind)  # type: ignore[arg-type]
    if isinstance(decklist, Mapping):
        return Decklist([DecklistEntry(str(n), int(q)) for n, q in decklist.items()])
    entries: list[DecklistEntry] = []
    rows: Iterable[Any] = decklist
    for item in rows:
        if isinstance(item, tuple | list):
            name, quantity, *rest = item
            zone = rest[0] if rest else ""
            entries.append(DecklistEntry(str(name), int(quantity), zone, 0, zone))
        else:
            entries.append(item)
    return Decklist(entries)


def _cards_for(game: Game, entries: list[DecklistEntry]) -> dict[tuple[int, str], int]:
    """``{(card id, zone): quantity}``; raises DeckError naming unknown cards and bad zones."""
    index = card_index(game.slug)
    rules = rules_for(game.slug)
    wanted: dict[tuple[int, str], int] = {}
    names: dict[tuple[int, str], str] = {}
    problems = []
    for entry in entries:
        card = index.lookup(entry.name)
        if card is None:
            suggestions = index.suggest(entry.name)
            hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
            where = f"line {entry.line}: " if entry.line else ""
            problems.append(f"{where}{entry.name!r} is not a {game.name} card{hint}")
            continue
        if rules.zones and entry.zone not in rules.zones:
            problems.append(f"{entry.name}: {game.name} has no zone {entry.zone!r}")
            continue
        key = (card.id, entry.zone if rules.zones else "")
        wanted[key] = wanted.get(key, 0) + entry.quantity
        names[key] = card.name
    # The lines of one card add up (a list may name it twice): the sum is what a deck holds,
    # and a deck holds what its export can say again (``MAX_COPIES``, the readers' bound).
    problems.extend(
        f"a deck holds at most {MAX_COPIES} copies of {names[key]}: the list gives {count}"
        for key, count in wanted.items()
        if count > MAX_COPIES
    )
    if problems:
        raise DeckError(problems)
    return wanted


def _snapshot(deck: Deck) -> list[dict[str, Any]]:
    rows = deck.cards.select_related("card").order_by("zone", "card__name")
    return [{"name": r.card.name, "zone": r.zone, "quantity": r.quantity} for r in rows]


def _record_version(
    deck: Deck, note: str, *, author: User | None = None, foldable: bool = False
) -> DeckVersion:
    return DeckVersion.objects.create(
        deck=deck,
        number=deck.version,
        note=note[:200],
        entries=_snapshot(deck),
        author=author,
        foldable=foldable,
        saved_at=timezone.now(),
    )


def deck_hash(entries: Iterable[Any] | Mapping[str, int]) -> str:
    """A stable SHA-256 over the deck's sorted (name key, zone, count) lines.

    Case, punctuation, line order and repeated lines do not change it; any count does.
    """
    counts: dict[tuple[str, str], int] = {}
    items: Iterable[Any] = entries.items() if isinstance(entries, Mapping) else entries
    for item in items:
        if isinstance(item, tuple | list):
            name, quantity, *rest = item
            zone = rest[0] if rest else ""
        else:
            name, quantity, zone = item.name, item.quantity, item.zone
        key = (name_key(str(name)), zone or "")
        counts[key] = counts.get(key, 0) + int(quantity)
    lines = [f"{count} {name}|{zone}" for (name, zone), count in sorted(counts.items()) if count]
    return hashlib.sha256("\n".join(lines).encode("utf-8")).hexdigest()


# -- decks ----------------------------------------------------------------------------------------
#
# Every write to an existing deck follows one pattern, so that concurrent writers never lose each
# other's changes: lock the deck's row first (``_lock``: SELECT ... FOR UPDATE on PostgreSQL; on
# SQLite, which has no row locks, ``transaction_mode=IMMEDIATE`` in settings makes each write
# transaction take the database's write lock at BEGIN, so writers queue there instead), check the
# owner and, when the writer says which version it read, that the deck is still at it
# (``DeckVersionConflict`` otherwise); change quantities by increments computed in the database
# (``F()``), never from a count read earlier; then count the change (``_bump``: version + 1 and
# its ``DeckVersion`` snapshot). The unique (deck, number) constraint on versions is the last
# guard: two writes can never both record the same version.

#: the copies of one card a deck holds at most: what a decklist line may say, so that every
#: stored deck reads back from its own export
MAX_COPIES = MAX_QUANTITY


def _write(func: Callable[..., T]) -> Callable[..., T]:
    """``transaction.atomic``, with SQLite's "database is locked" (another writer held the database
    past the connection's timeout) raised as ``DeckBusyError`` for a clear 503 rather than a 500."""
    atomic = transaction.atomic(func)

    @functools.wraps(func)
    def write(*args: Any, **kwargs: Any) -> T:
        try:
            return atomic(*args, **kwargs)
        except OperationalError as error:
            if "locked" not in str(error).lower():
                raise
            raise DeckBusyError from error

    return write


def _lock(deck: Deck | int) -> Deck:
    """The deck re-read with its row locked until the transaction ends (Deck.DoesNotExist if it was
    deleted meanwhile): what the caller had in hand may be stale."""
    pk = deck.pk if isinstance(deck, Deck) else deck
    return Deck.objects.select_for_update(of=("self",)).select_related("game").get(pk=pk)


def _check_owner(deck: Deck, actor: User | None) -> None:
    """``actor`` None is the system (loaders, migrations, tests), which may change any deck."""
    if actor is not None and not deck_owned_by(deck, actor):
        raise DeckPermissionError("only the deck's owner can change it")


def _check_version(deck: Deck, expected_version: int | Collection[int] | None) -> None:
    """Refuse a write made from a copy of the deck older than its current version."""
    if expected_version is None:
        return
    allowed = {expected_version} if isinstance(expected_version, int) else set(expected_version)
    if deck.version not in allowed:
        raise DeckVersionConflict(deck_id=deck.pk, expected=allowed, current=deck.version)


def _locked_for_write(
    deck: Deck | int,
    actor: User | None,
    expected_version: int | Collection[int] | None,
) -> Deck:
    deck = _lock(deck)
    _check_owner(deck, actor)
    _check_version(deck, expected_version)
    return deck


def _fold_target(deck: Deck, actor: User | None, onto: int | None) -> DeckVersion | None:
    """The deck's latest version when a one-copy change by ``actor``, made from a page showing
    version ``onto``, may be folded into it: ``onto`` is still the latest (a click from an older
    page, another tab, gets its own version and is told what changed), and that version is a
    one-copy change by the same user saved less than ``DECK_VERSION_FOLD_SECONDS`` ago."""
    window = settings.DECK_VERSION_FOLD_SECONDS
    if actor is None or not window or onto != deck.version:
        return None
    latest = deck.versions.filter(number=deck.version).first()
    if latest is None or not latest.foldable or latest.author_id != actor.pk:
        return None
    last = latest.saved_at or latest.created_at
    if timezone.now() - last > dt.timedelta(seconds=window):
        return None
    return latest


def _fold_note(deck: Deck, version: DeckVersion, entries: list[dict[str, Any]]) -> str:
    """What the folded changes amount to, from the version before ``version`` to ``entries``."""
    before_entries = deck.versions.filter(number=version.number - 1).values_list(
        "entries", flat=True
    )
    before = {(e["name"], e.get("zone", "")): e["quantity"] for e in next(iter(before_entries), [])}
    after = {(e["name"], e.get("zone", "")): e["quantity"] for e in entries}
    changes = [
        f"{name}: {before.get((name, zone), 0)} -> {after.get((name, zone), 0)}"
        for name, zone in sorted(set(before) | set(after))
        if before.get((name, zone), 0) != after.get((name, zone), 0)
    ]
    return "; ".join(changes) if changes else "no net change"


def _bump(
    deck: Deck,
    note: str,
    *,
    actor: User | None = None,
    fold: bool = False,
    fold_onto: int | None = None,
) -> Deck:
    """Count one change of a locked deck: version + 1 in the database, and its snapshot.

    ``fold``: a one-copy change (the builder's + and -), made from a page showing version
    ``fold_onto``. When that version is still the latest and is one too, by the same user and
    recent (``_fold_target``), it is updated instead of a new one being recorded, so a burst of
    clicks makes one version; the deck's number stays the same."""
    target = _fold_target(deck, actor, fold_onto) if fold else None
    now = timezone.now()
    if target is not None:
        entries = _snapshot(deck)
        target.entries = entries
        target.note = _fold_note(deck, target, entries)[:200]
        target.saved_at = now
        target.save(update_fields=["entries", "note", "saved_at"])
        Deck.objects.filter(pk=deck.pk).update(updated_at=now)
        deck.refresh_from_db(fields=["version", "updated_at"])
        return deck
    Deck.objects.filter(pk=deck.pk).update(version=F("version") + 1, updated_at=now)
    deck.refresh_from_db(fields=["version", "updated_at"])
    _record_version(deck, note, author=actor, foldable=fold)
    return deck


def _whole(value: Any, low: int, high: int, what: str) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise DeckError.about(what, f"{what} must be a whole number from {low} to {high}")
    return value


def _card_of(deck: Deck, card: Card | str) -> tuple[int, str]:
    """``(card id, canonical name)`` of a card of the deck's game, found by any spelling."""
    game = deck.game
    if isinstance(card, Card):
        if card.game_id != deck.game_id:
            raise DeckError([f"{card.name} is a card of another game"])
        return card.pk, card.name
    index = card_index(game.slug)
    info = index.lookup(card)
    if info is None:
        suggestions = index.suggest(card)
        hint = f" Did you mean {' or '.join(suggestions)}?" if suggestions else ""
        raise DeckError([f"{card.strip()!r} is not a {game.name} card.{hint}"])
    return info.id, info.name


def _zone_of(deck: Deck, zone: str) -> str:
    """The zone a card goes to: the game's first when none is given, "" for games without (a
    zone named there is refused, as a decklist's is: docs/decklists.md)."""
    rules = rules_for(deck.game.slug)
    if not rules.zones:
        if zone:
            raise DeckError.about(
                "zone",
                f"{deck.game.name} decks have no zones, so zone {zone!r} means nothing: "
                "leave the zone empty",
            )
        return ""
    zone = zone or rules.zones[0]
    if zone not in rules.zones:
        raise DeckError.about("zone", f"{deck.game.name} has no zone {zone!r}")
    return zone


@_write
def deck_create(
    *,
    owner: User,
    game: Game | str,
    name: str,
    decklist: str | Decklist | Iterable[Any] | Mapping[str, int] = "",
    kind: str = "text",
    format: Format | None = None,
    description: str = "",
    visibility: str = Visibility.PRIVATE,
    variant: str = "",
) -> Deck:
    """Create a deck from a decklist. Only real cards are accepted; legality is not required.

    A ``format`` or ``variant`` not given is the one the decklist names for itself
    (``# format:``, ``# variant:``; ``decks.decklist.decklist_settings``). Raises
    ``DecklistParseError`` for unreadable text or a decklist of another game, and ``DeckError``
    for unknown cards, a format of another game, an unknown visibility or variant.
    """
    game = _game(game)
    parsed = _read(decklist, kind)
    own = decklist_settings(parsed, game.slug)
    problems: dict[str, str] = {}  # each problem, and the field it is about
    if format is None and own.format:
        format = Format.objects.filter(game=game, slug=own.format).first()
        if format is None:
            wrong = f"the decklist's format {own.format!r} is not a format of {game.name}"
            problems[wrong] = "decklist"
    variant = variant or own.variant or ""
    if (unnamed := name_problem(name, "a deck")) is not None:
        problems[unnamed] = "name"
    setup = format_and_variant_problems(game, format, variant)
    if "format" in setup:
        problems[setup["format"]] = "format"
    if visibility not in Visibility.values:
        problems[f"visibility must be one of {', '.join(Visibility.values)}"] = "visibility"
    if "variant" in setup:
        problems[setup["variant"]] = "variant"
    if problems:
        raise DeckError(list(problems), problems)
    wanted = _cards_for(game, decklist_entries(game.slug, parsed))
    deck = Deck.objects.create(
        owner=owner,
        game=game,
        format=format,
        name=name.strip(),
        description=description,
        visibility=visibility,
        variant=variant,
    )
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
        for (card_id, zone), quantity in wanted.items()
    )
    _record_version(deck, "created")
    return deck


@_write
def deck_card_add(
    *,
    deck: Deck,
    card: Card | str,
    quantity: int = 1,
    zone: str = "",
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
    fold_onto: int | None = None,
) -> Deck:
    """Add ``quantity`` copies of a card (any spelling of its name) to a deck; records a version.

    The count grows in the database under the deck's lock, so N concurrent adds of one copy add
    N copies. ``expected_version`` is only for callers that want a stale add refused: adds commute,
    so without it an add made from an old copy of the deck still counts. ``fold_onto``: the
    version the user's page showed; a one-copy add may be folded into it (``_bump``).
    """
    _whole(quantity, 1, MAX_COPIES, "quantity")
    deck = _locked_for_write(deck, actor, expected_version)
    card_id, card_name = _card_of(deck, card)
    zone = _zone_of(deck, zone)
    rows = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone)
    room = rows.filter(quantity__lte=MAX_COPIES - quantity)
    if not room.update(quantity=F("quantity") + quantity):
        if rows.exists():
            raise DeckError([f"a deck holds at most {MAX_COPIES} copies of {card_name}"])
        DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
    now = rows.values_list("quantity", flat=True).get()
    return _bump(
        deck,
        f"{card_name}: {now - quantity} -> {now}",
        actor=actor,
        fold=quantity == 1 and fold_onto is not None,
        fold_onto=fold_onto,
    )


@_write
def deck_card_remove(
    *,
    deck: Deck,
    card: Card | str,
    quantity: int = 1,
    zone: str = "",
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
    fold_onto: int | None = None,
) -> Deck:
    """Take ``quantity`` copies of a card out of a deck (the last copy removes its line).

    Like ``deck_card_add`` the count shrinks in the database under the lock, so concurrent removals
    all count; removing more copies than the deck holds is refused and changes nothing.
    """
    _whole(quantity, 1, MAX_COPIES, "quantity")
    deck = _locked_for_write(deck, actor, expected_version)
    card_id, card_name = _card_of(deck, card)
    zone = _zone_of(deck, zone)
    rows = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone)
    if rows.filter(quantity__gt=quantity).update(quantity=F("quantity") - quantity):
        now = rows.values_list("quantity", flat=True).get()
    elif rows.filter(quantity=quantity).delete()[0]:
        now = 0
    else:
        have = rows.values_list("quantity", flat=True).first() or 0
        copies = f"{have} cop{'y' if have == 1 else 'ies'}"
        raise DeckError(
            [f"the deck holds {copies} of {card_name}, so {quantity} cannot be removed"]
        )
    return _bump(
        deck,
        f"{card_name}: {now + quantity} -> {now}",
        actor=actor,
        fold=quantity == 1 and fold_onto is not None,
        fold_onto=fold_onto,
    )


@_write
def deck_card_set(
    *,
    deck: Deck,
    card: Card | str,
    quantity: int,
    zone: str = "",
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Set how many copies of a card the deck holds (0 removes it); records a new version.

    An absolute count overwrites whatever others did to that line: pass ``expected_version`` (the
    version the count was read from) to have the write refused when the deck changed since.
    """
    _whole(quantity, 0, MAX_COPIES, "quantity")
    deck = _locked_for_write(deck, actor, expected_version)
    card_id, card_name = _card_of(deck, card)
    zone = _zone_of(deck, zone)
    rows = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone)
    current = rows.values_list("quantity", flat=True).first() or 0
    if current == quantity:
        return deck
    if quantity == 0:
        rows.delete()
    elif not rows.update(quantity=quantity):
        DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
    return _bump(deck, f"{card_name}: {current} -> {quantity}", actor=actor)


@_write
def deck_cards_add(
    *,
    deck: Deck,
    decklist: str | Decklist | Iterable[Any] | Mapping[str, int],
    kind: str = "text",
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Add a decklist's cards to the deck's (repeated names add up), as one version.

    Each line grows in the database under the deck's lock, so concurrent pastes keep every card.
    """
    deck = _locked_for_write(deck, actor, expected_version)
    wanted = _cards_for(deck.game, decklist_entries(deck.game.slug, _read(decklist, kind)))
    if not wanted:
        return deck
    have = {
        (card_id, zone): quantity
        for card_id, zone, quantity in deck.cards.values_list("card_id", "zone", "quantity")
    }
    too_many = [key for key, n in wanted.items() if have.get(key, 0) + n > MAX_COPIES]
    if too_many:
        names = dict(Card.objects.filter(pk__in=[k[0] for k in too_many]).values_list("pk", "name"))
        raise DeckError(
            [f"a deck holds at most {MAX_COPIES} copies of {names[key[0]]}" for key in too_many]
        )
    for (card_id, zone), quantity in wanted.items():
        rows = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone)
        if not rows.update(quantity=F("quantity") + quantity):
            DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
    added = sum(wanted.values())
    return _bump(
        deck, f"{added} card{'' if added == 1 else 's'} added from a decklist", actor=actor
    )


CARD_CHANGE_OPS = ("add", "remove", "set")


@dataclass(frozen=True)
class CardChange:
    """One change to one line of a deck: ``add`` or ``remove`` ``count`` copies, or ``set`` the
    line to ``count`` copies (0 removes it). ``zone`` is for games with zones ("" = the first)."""

    card: Card | str
    op: str
    count: int
    zone: str = ""


def _card_changes_apply(deck: Deck, changes: Iterable[CardChange]) -> list[str]:
    """Apply ``changes`` in order to a deck whose row the caller holds locked; one note each.

    Every count moves in the database (``F()`` increments, or an absolute ``set`` of that one
    line), so a change never rewrites a line it does not name: concurrent changes to different
    cards all land. Raises ``DeckError`` listing every change that cannot be made (an unknown
    card or zone, a count out of range, more copies removed than the deck holds, more than
    ``MAX_COPIES``); the caller's transaction then writes nothing.
    """
    problems: list[str] = []
    notes: list[str] = []
    for position, change in enumerate(changes, start=1):
        where = f"change {position}: "
        if change.op not in CARD_CHANGE_OPS:
            problems.append(f"{where}op must be one of {', '.join(CARD_CHANGE_OPS)}")
            continue
        low = 0 if change.op == "set" else 1
        try:
            count = _whole(change.count, low, MAX_COPIES, "count")
            card_id, card_name = _card_of(deck, change.card)
            zone = _zone_of(deck, change.zone)
        except DeckError as error:
            problems.extend(where + problem for problem in error.problems)
            continue
        rows = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone)
        have = rows.values_list("quantity", flat=True).first() or 0
        if change.op == "add":
            now = have + count
            if now > MAX_COPIES:
                problems.append(f"{where}a deck holds at most {MAX_COPIES} copies of {card_name}")
                continue
            if not rows.update(quantity=F("quantity") + count):
                DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=count)
        elif change.op == "remove":
            if count > have:
                copies = f"{have} cop{'y' if have == 1 else 'ies'}"
                problems.append(
                    f"{where}the deck holds {copies} of {card_name}, so {count} cannot be removed"
                )
                continue
            now = have - count
            if now:
                rows.update(quantity=F("quantity") - count)
            else:
                rows.delete()
        else:
            now = count
            if now == have:
                continue
            if now == 0:
                rows.delete()
            elif not rows.update(quantity=now):
                DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=now)
        notes.append(f"{card_name}: {have} -> {now}")
    if problems:
        raise DeckError(problems)
    return notes


@_write
def deck_cards_change(
    *,
    deck: Deck,
    changes: Iterable[CardChange],
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Apply a list of card changes (add n, remove n, set n) under the deck's row lock, all or
    nothing, as one version (none when nothing changed).

    Only the lines named change, so no ``expected_version`` is needed for concurrent writers to
    keep each other's changes; pass it to have the write refused when the deck moved on anyway.
    """
    return deck_update(
        deck=deck, actor=actor, expected_version=expected_version, card_changes=changes
    )


def _setting_notes(
    deck: Deck, changes: dict[str, Any], format_names: dict[int | None, str]
) -> list[str]:
    notes = []
    for field_name, value in changes.items():
        before = getattr(deck, f"{field_name}_id" if field_name == "format" else field_name)
        after = value.pk if field_name == "format" and value is not None else value
        if before == after:
            continue
        if field_name == "description":
            notes.append("description changed")
        elif field_name == "format":
            notes.append(f"format: {format_names[before]} -> {format_names[after]}")
        else:
            notes.append(f"{field_name}: {before} -> {after}")
    return notes


@_write
def deck_update(
    *,
    deck: Deck,
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
    decklist: str | Decklist | Iterable[Any] | Mapping[str, int] | None = None,
    kind: str = "text",
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
    format: Format | None = None,
    clear_format: bool = False,
    variant: str | None = None,
    card_changes: Iterable[CardChange] | None = None,
) -> Deck:
    """Change a deck's settings (name, description, visibility, format, variant) and its cards, by
    replacing them with a decklist's or by ``card_changes`` (``_card_changes_apply``), all at once:
    one check, one version (none when nothing changed).

    Raises ``DeckError`` (nothing written) for an empty name, an unknown visibility, a format or
    variant the deck's game does not have, or unknown cards, and ``DeckVersionConflict`` when ``expected_version`` is given
    and the deck has moved on since.
    """
    deck = _locked_for_write(deck, actor, expected_version)
    problems: dict[str, str] = {}  # each problem, and the field it is about
    if name is not None and (unnamed := name_problem(name, "a deck")) is not None:
        problems[unnamed] = "name"
    if visibility is not None and visibility not in Visibility.values:
        problems[f"visibility must be one of {', '.join(Visibility.values)}"] = "visibility"
    setup = format_and_variant_problems(deck.game, format, variant or "")
    problems.update({text: field for field, text in setup.items()})
    if decklist is not None and card_changes is not None:
        problems["give either a decklist or card changes, not both"] = "decklist"
    if problems:
        raise DeckError(list(problems), problems)
    wanted = None
    if decklist is not None:
        wanted = _cards_for(deck.game, decklist_entries(deck.game.slug, _read(decklist, kind)))
    changes: dict[str, Any] = {}
    if name is not None:
        changes["name"] = name.strip()
    if description is not None:
        changes["description"] = description
    if visibility is not None:
        changes["visibility"] = visibility
    if format is not None or clear_format:
        changes["format"] = format
    if variant is not None:
        changes["variant"] = variant
    format_names: dict[int | None, str] = {None: "none"}
    if "format" in changes:
        format_names.update(
            Format.objects.filter(pk__in=[deck.format_id, format and format.pk]).values_list(
                "pk", "name"
            )
        )
    notes = _setting_notes(deck, changes, format_names)
    if notes:
        for field_name, value in changes.items():
            setattr(deck, field_name, value)
        deck.save(update_fields=[*changes, "updated_at"])
    if wanted is not None:
        current = {(r.card_id, r.zone): r.quantity for r in deck.cards.all()}
        if current != wanted:
            deck.cards.all().delete()
            DeckCard.objects.bulk_create(
                DeckCard(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
                for (card_id, zone), quantity in wanted.items()
            )
            notes.insert(0, "decklist replaced")
    if card_changes is not None:
        notes[:0] = _card_changes_apply(deck, card_changes)
    if not notes:
        return deck
    return _bump(deck, "; ".join(notes), actor=actor)


def deck_cards_replace(
    *,
    deck: Deck,
    decklist: str | Decklist | Iterable[Any] | Mapping[str, int],
    kind: str = "text",
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Replace all of a deck's cards with a decklist's; records one new version if anything changed.

    A replacement overwrites whatever others did: pass ``expected_version`` to have it refused
    (``DeckVersionConflict``) when the deck changed since that version.
    """
    return deck_update(
        deck=deck, actor=actor, expected_version=expected_version, decklist=decklist, kind=kind
    )


@_write
def deck_revert(
    *,
    deck: Deck,
    number: int,
    actor: User | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Make the deck's cards those of its version ``number`` again, as a new version (the history
    is kept: a revert can itself be reverted). Settings (name, format...) are left as they are.

    Raises ``DeckError`` for a version the deck never had, or a card of that version that no
    longer exists; returns the deck unchanged (no version) when it already holds those cards.
    """
    deck = _locked_for_write(deck, actor, expected_version)
    version = deck.versions.filter(number=number).first()
    if version is None:
        raise DeckError([f"this deck has no version {number} (it is at version {deck.version})"])
    entries = [(e["name"], e["quantity"], e.get("zone", "")) for e in version.entries]
    wanted = _cards_for(deck.game, decklist_entries(deck.game.slug, _read(entries, "text")))
    current = {(r.card_id, r.zone): r.quantity for r in deck.cards.all()}
    if current == wanted:
        return deck
    deck.cards.all().delete()
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
        for (card_id, zone), quantity in wanted.items()
    )
    return _bump(deck, f"reverted to version {number}", actor=actor)


def deck_details_update(
    *,
    deck: Deck,
    actor: User | None,
    name: str | None = None,
    description: str | None = None,
    visibility: str | None = None,
    format: Format | None = None,
    clear_format: bool = False,
    variant: str | None = None,
    expected_version: int | Collection[int] | None = None,
) -> Deck:
    """Change a deck's name, description, visibility, format or variant (a version notes what
    changed)."""
    return deck_update(
        deck=deck,
        actor=actor,
        expected_version=expected_version,
        name=name,
        description=description,
        visibility=visibility,
        format=format,
        clear_format=clear_format,
        variant=variant,
    )


@_write
def deck_delete(
    *,
    deck: Deck,
    actor: User | None,
    expected_version: int | Collection[int] | None = None,
) -> None:
    """Delete a deck with its cards and versions; only its owner may."""
    _locked_for_write(deck, actor, expected_version).delete()


@_write
def deck_clone(*, deck: Deck, owner: User, name: str | None = None) -> Deck:
    """Copy a deck (cards, format, variant) to ``owner``; a private deck only its owner may clone.

    The source is locked while it is read, so the copy is exactly the version its note names.
    """
    deck = _lock(deck)
    if deck.visibility == Visibility.PRIVATE and not deck_owned_by(deck, owner):
        raise DeckPermissionError("a private deck can only be cloned by its owner")
    clone = Deck.objects.create(
        owner=owner,
        game_id=deck.game_id,
        format_id=deck.format_id,
        name=(name or f"{deck.name} (copy)").strip(),
        description=deck.description,
        variant=deck.variant,
        visibility=Visibility.PRIVATE,
    )
    DeckCard.objects.bulk_create(
        DeckCard(deck=clone, card_id=row.card_id, zone=row.zone, quantity=row.quantity)
        for row in deck.cards.all()
    )
    _record_version(clone, f"cloned from {deck.name} v{deck.version}")
    return clone


# -- formats --------------------------------------------------------------------------------------


@dataclass
class FormatLoadReport:
    game: str
    formats: int = 0
    sets: int = 0
    entries: int = 0
    problems: list[str] = field(default_factory=list)

    def summary(self) -> str:
        return (
            f"{self.game} formats: {self.formats} format(s), {self.sets} legal set window(s), "
            f"{self.entries} banned/restricted entr{'y' if self.entries == 1 else 'ies'}"
        )


def _date(value: Any, where: str, problems: list[str]) -> dt.date | None:
    if value in (None, ""):
        return None
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        problems.append(f"{where}: {value!r} is not a date (YYYY-MM-DD)")
        return None


@transaction.atomic
def _format_sets(
    raw: dict[str, Any], where: str, sets: dict[str, CardSet], problems: list[str]
) -> list[tuple[CardSet, dt.date | None, dt.date | None]]:
    """A format entry's legal sets (a code, or ``{code, from, until}``), each with its dates."""
    legal = []
    for item in raw.get("sets") or []:
        item = {"code": item} if isinstance(item, str) else item
        code = item.get("code") if isinstance(item, dict) else None
        if code not in sets:
            problems.append(f"{where}: unknown set {code!r} (known: {', '.join(sets)})")
            continue
        legal.append(
            (
                sets[code],
                _date(item.get("from"), where, problems),
                _date(item.get("until"), where, problems),
            )
        )
    return legal


def _format_cards(
    raw: dict[str, Any], where: str, index: Any, problems: list[str]
) -> list[dict[str, Any]]:
    """A format entry's banned and restricted cards as ``FormatCardEntry`` field values."""
    entries = []
    for status in (FormatCardStatus.BANNED, FormatCardStatus.RESTRICTED):
        for item in raw.get(status.value) or []:
            item = {"card": item} if isinstance(item, str) else item
            name = item.get("card") if isinstance(item, dict) else None
            card = index.lookup(str(name)) if name else None
            if card is None:
                suggestions = index.suggest(str(name)) if name else []
                hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
                problems.append(f"{where}: {status.value} card {name!r} is unknown{hint}")
                continue
            limit = item.get("limit", 0 if status == FormatCardStatus.BANNED else 1)
            start = _date(item.get("from"), where, problems)
            end = _date(item.get("until"), where, problems)
            if isinstance(limit, bool) or not isinstance(limit, int) or limit < 0:
                problems.append(f"{where}: {name}: limit must be a whole number >= 0")
                continue
            entries.append(
                {
                    "card_id": card.id,
                    "status": status.value,
                    "limit": limit,
                    "reason": str(item.get("reason") or ""),
                    "effective_from": start,
                    "effective_until": end,
                }
            )
    return entries


def _format_plan(
    raw: Any, where: str, sets: dict[str, CardSet], index: Any, problems: list[str]
) -> dict[str, Any] | None:
    """One entry of ``formats.yaml`` checked and resolved (sets and cards looked up), its
    problems added to ``problems``; None when it lacks a slug or a name."""
    if not isinstance(raw, dict) or not raw.get("slug") or not raw.get("name"):
        problems.append(f"{where}: a format needs 'slug' and 'name'")
        return None
    where = f"{where} ({raw['slug']})"
    return {
        "values": {
            "name": str(raw["name"]),
            "description": str(raw.get("description") or "").strip(),
            "is_default": bool(raw.get("default", False)),
            "effective_from": _date(raw.get("effective_from"), where, problems),
            "effective_until": _date(raw.get("effective_until"), where, problems),
        },
        "slug": str(raw["slug"]),
        "sets": _format_sets(raw, where, sets, problems),
        "cards": _format_cards(raw, where, index, problems),
    }


def _format_store(game: Game, plan: dict[str, Any], report: FormatLoadReport) -> None:
    """Write one resolved format: its row, its legal sets (only the changed rows) and its card
    list (replaced whole)."""
    fmt, _ = Format.objects.update_or_create(game=game, slug=plan["slug"], defaults=plan["values"])
    report.formats += 1
    wanted_sets = {(s.pk, start, end) for s, start, end in plan["sets"]}
    have_sets = {
        (row.card_set_id, row.effective_from, row.effective_until): row
        for row in fmt.legal_sets.all()
    }
    for key, row in have_sets.items():
        if key not in wanted_sets:
            row.delete()
    for set_id, start, end in wanted_sets - set(have_sets):
        FormatSet.objects.create(
            format=fmt, card_set_id=set_id, effective_from=start, effective_until=end
        )
    report.sets += len(wanted_sets)
    fmt.card_entries.all().delete()
    FormatCardEntry.objects.bulk_create(FormatCardEntry(format=fmt, **c) for c in plan["cards"])
    report.entries += len(plan["cards"])


def format_data_load(*, slug: str, fixtures_dir: Path) -> FormatLoadReport | None:
    """Load ``fixtures/<slug>/formats.yaml`` (if present) idempotently, after the game's cards.

    The file's formats replace the database's lists for those formats (legal sets, banned and
    restricted cards). Raises ``DeckError`` listing every problem and writes nothing then.
    """
    path = Path(fixtures_dir) / slug / FORMATS_FILE
    if not path.is_file():
        return None
    report = FormatLoadReport(game=slug)
    try:
        data = yaml.safe_load(path.read_text(encoding="utf-8")) or {}
    except (yaml.YAMLError, OSError) as exc:
        raise DeckError([f"{path}: cannot be read: {exc}"]) from exc
    game = Game.objects.filter(slug=slug).first()
    if game is None:
        raise DeckError([f"{path}: game {slug!r} is not loaded"])
    formats = data.get("formats") if isinstance(data, dict) else None
    if not isinstance(formats, list):
        raise DeckError([f"{path}: the top level needs a 'formats' list"])
    sets = {s.code: s for s in CardSet.objects.filter(game=game)}
    index = card_index(slug)
    plans = [
        _format_plan(raw, f"{slug}/{FORMATS_FILE}#{position}", sets, index, report.problems)
        for position, raw in enumerate(formats)
    ]
    if report.problems:
        raise DeckError(report.problems)
    for plan in plans:
        if plan is not None:
            _format_store(game, plan, report)
    from decks.validation.formats import format_rules_invalidate

    format_rules_invalidate()
    return report


# -- the organiser role (events themselves: decks.events) ------------------------------------


def _organisers_group() -> Group:
    """The Organisers group with its permission (remade if someone deleted it in the admin)."""
    app_label, codename = ORGANISER_PERMISSION
    group, _ = Group.objects.get_or_create(name=ORGANISERS_GROUP)
    group.permissions.add(
        Permission.objects.get(content_type__app_label=app_label, codename=codename)
    )
    return group


def _forget_permissions(user: User) -> None:
    """Drop the permission caches ``has_perm`` keeps on the instance, so it sees the change."""
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)


@transaction.atomic
def organiser_grant(*, user: User) -> bool:
    """Make ``user`` an organiser (a member of the Organisers group); False if they already were."""
    was_organiser = user_is_organiser(user)
    user.groups.add(_organisers_group())
    _forget_permissions(user)
    return not was_organiser and user_is_organiser(user)


@transaction.atomic
def organiser_revoke(*, user: User) -> bool:
    """Take the organiser role from ``user``: the group and the permission given directly.

    False if nothing changed: they were not an organiser, or still are one (a superuser, or through
    another group holding the permission). Events they organised stay theirs.
    """
    app_label, codename = ORGANISER_PERMISSION
    was_organiser = user_is_organiser(user)
    user.groups.remove(*Group.objects.filter(name=ORGANISERS_GROUP))
    user.user_permissions.remove(
        *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    )
    _forget_permissions(user)
    return was_organiser and not user_is_organiser(user)


__all__ = [
    "CardChange",
    "DeckBusyError",
    "DeckError",
    "DeckPermissionError",
    "DeckVersionConflict",
    "DecklistParseError",
    "OrganiserRequiredError",
    "deck_card_add",
    "deck_card_remove",
    "deck_card_set",
    "deck_cards_add",
    "deck_cards_change",
    "deck_cards_replace",
    "deck_clone",
    "deck_create",
    "deck_delete",
    "deck_details_update",
    "deck_hash",
    "deck_revert",
    "deck_update",
    "format_data_load",
    "organiser_grant",
    "organiser_revoke",
]
