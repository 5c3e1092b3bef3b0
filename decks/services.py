"""Writes for decks, formats and the organiser role (events: ``decks.events.services``). Every
check happens here, before anything is written."""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml
from django.contrib.auth.models import AbstractBaseUser, Group, Permission
from django.db import transaction

from cards.models import Card, CardSet, Game
from cards.naming import name_key
from decks.decklist import (
    Decklist,
    DecklistEntry,
    DecklistParseError,
    decklist_entries,
    decklist_read,
)
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
from decks.selectors import ORGANISER_PERMISSION, ORGANISERS_GROUP, user_is_organiser
from decks.validation import card_index, rules_for

FORMATS_FILE = "formats.yaml"


class DeckError(ValueError):
    """A deck change that cannot be made; ``problems`` says why, one line each."""

    def __init__(self, problems: list[str]):
        self.problems = problems
        super().__init__("; ".join(problems))


class DeckPermissionError(PermissionError):
    """Someone other than the owner tried to change a deck."""


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
    entries = []
    for item in decklist:
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
    if problems:
        raise DeckError(problems)
    return wanted


def _snapshot(deck: Deck) -> list[dict[str, Any]]:
    rows = deck.cards.select_related("card").order_by("zone", "card__name")
    return [{"name": r.card.name, "zone": r.zone, "quantity": r.quantity} for r in rows]


def _record_version(deck: Deck, note: str) -> DeckVersion:
    return DeckVersion.objects.create(
        deck=deck, number=deck.version, note=note[:200], entries=_snapshot(deck)
    )


def _check_owner(deck: Deck, actor: AbstractBaseUser | None) -> None:
    if actor is not None and actor.pk != deck.owner_id:
        raise DeckPermissionError("only the deck's owner can change it")


def deck_hash(entries: Iterable[Any] | Mapping[str, int]) -> str:
    """A stable SHA-256 over the deck's sorted (name key, zone, count) lines.

    Case, punctuation, line order and repeated lines do not change it; any count does.
    """
    counts: dict[tuple[str, str], int] = {}
    items = entries.items() if isinstance(entries, Mapping) else entries
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


@transaction.atomic
def deck_create(
    *,
    owner: AbstractBaseUser,
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

    Raises ``DecklistParseError`` for unreadable text and ``DeckError`` for unknown cards, a
    format of another game, an unknown visibility or variant.
    """
    game = _game(game)
    parsed = _read(decklist, kind)
    problems = []
    if not name.strip():
        problems.append("a deck needs a name")
    setup = format_and_variant_problems(game, format, variant)
    if "format" in setup:
        problems.append(setup["format"])
    if visibility not in Visibility.values:
        problems.append(f"visibility must be one of {', '.join(Visibility.values)}")
    if "variant" in setup:
        problems.append(setup["variant"])
    if problems:
        raise DeckError(problems)
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


@transaction.atomic
def deck_card_set(
    *,
    deck: Deck,
    card: Card | str,
    quantity: int,
    zone: str = "",
    actor: AbstractBaseUser | None = None,
) -> Deck:
    """Set how many copies of a card the deck holds (0 removes it); records a new version."""
    _check_owner(deck, actor)
    deck = Deck.objects.select_for_update().select_related("game").get(pk=deck.pk)
    rules = rules_for(deck.game.slug)
    if isinstance(card, str):
        info = card_index(deck.game.slug).lookup(card)
        if info is None:
            raise DeckError([f"{card!r} is not a {deck.game.name} card"])
        card_id, card_name = info.id, info.name
    else:
        if card.game_id != deck.game_id:
            raise DeckError([f"{card.name} is a card of another game"])
        card_id, card_name = card.pk, card.name
    if isinstance(quantity, bool) or not isinstance(quantity, int) or not 0 <= quantity <= 999:
        raise DeckError(["quantity must be a whole number from 0 to 999"])
    if rules.zones:
        zone = zone or rules.zones[0]
        if zone not in rules.zones:
            raise DeckError([f"{deck.game.name} has no zone {zone!r}"])
    else:
        zone = ""
    row = DeckCard.objects.filter(deck=deck, card_id=card_id, zone=zone).first()
    current = row.quantity if row else 0
    if current == quantity:
        return deck
    if quantity == 0:
        row.delete()  # type: ignore[union-attr]
    elif row is None:
        DeckCard.objects.create(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
    else:
        row.quantity = quantity
        row.save(update_fields=["quantity"])
    deck.version += 1
    deck.save(update_fields=["version", "updated_at"])
    _record_version(deck, f"{card_name}: {current} -> {quantity}")
    return deck


@transaction.atomic
def deck_cards_replace(
    *,
    deck: Deck,
    decklist: str | Decklist | Iterable[Any] | Mapping[str, int],
    kind: str = "text",
    actor: AbstractBaseUser | None = None,
) -> Deck:
    """Replace all of a deck's cards with a decklist's; records one new version if anything changed."""
    _check_owner(deck, actor)
    deck = Deck.objects.select_for_update().select_related("game").get(pk=deck.pk)
    wanted = _cards_for(deck.game, decklist_entries(deck.game.slug, _read(decklist, kind)))
    current = {(r.card_id, r.zone): r.quantity for r in deck.cards.all()}
    if current == wanted:
        return deck
    deck.cards.all().delete()
    DeckCard.objects.bulk_create(
        DeckCard(deck=deck, card_id=card_id, zone=zone, quantity=quantity)
        for (card_id, zone), quantity in wanted.items()
    )
    deck.version += 1
    deck.save(update_fields=["version", "updated_at"])
    _record_version(deck, "decklist replaced")
    return deck


@transaction.atomic
def deck_clone(*, deck: Deck, owner: AbstractBaseUser, name: str | None = None) -> Deck:
    """Copy a deck (cards, format, variant) to ``owner``; a private deck only its owner may clone."""
    if deck.visibility == Visibility.PRIVATE and owner.pk != deck.owner_id:
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
    problems = report.problems
    plans = []
    for position, raw in enumerate(formats):
        where = f"{slug}/{FORMATS_FILE}#{position}"
        if not isinstance(raw, dict) or not raw.get("slug") or not raw.get("name"):
            problems.append(f"{where}: a format needs 'slug' and 'name'")
            continue
        where = f"{where} ({raw['slug']})"
        plan: dict[str, Any] = {
            "values": {
                "name": str(raw["name"]),
                "description": str(raw.get("description") or "").strip(),
                "is_default": bool(raw.get("default", False)),
                "effective_from": _date(raw.get("effective_from"), where, problems),
                "effective_until": _date(raw.get("effective_until"), where, problems),
            },
            "slug": str(raw["slug"]),
            "sets": [],
            "cards": [],
        }
        for item in raw.get("sets") or []:
            item = {"code": item} if isinstance(item, str) else item
            code = item.get("code") if isinstance(item, dict) else None
            if code not in sets:
                problems.append(f"{where}: unknown set {code!r} (known: {', '.join(sets)})")
                continue
            plan["sets"].append(
                (
                    sets[code],
                    _date(item.get("from"), where, problems),
                    _date(item.get("until"), where, problems),
                )
            )
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
                plan["cards"].append(
                    {
                        "card_id": card.id,
                        "status": status.value,
                        "limit": limit,
                        "reason": str(item.get("reason") or ""),
                        "effective_from": start,
                        "effective_until": end,
                    }
                )
        plans.append(plan)
    if problems:
        raise DeckError(problems)
    for plan in plans:
        fmt, _ = Format.objects.update_or_create(
            game=game, slug=plan["slug"], defaults=plan["values"]
        )
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


def _forget_permissions(user: AbstractBaseUser) -> None:
    """Drop the permission caches ``has_perm`` keeps on the instance, so it sees the change."""
    for cache in ("_perm_cache", "_user_perm_cache", "_group_perm_cache"):
        user.__dict__.pop(cache, None)


@transaction.atomic
def organiser_grant(*, user: AbstractBaseUser) -> bool:
    """Make ``user`` an organiser (a member of the Organisers group); False if they already were."""
    was_organiser = user_is_organiser(user)
    user.groups.add(_organisers_group())  # type: ignore[attr-defined]
    _forget_permissions(user)
    return not was_organiser and user_is_organiser(user)


@transaction.atomic
def organiser_revoke(*, user: AbstractBaseUser) -> bool:
    """Take the organiser role from ``user``: the group and the permission given directly.

    False if nothing changed: they were not an organiser, or still are one (a superuser, or through
    another group holding the permission). Events they organised stay theirs.
    """
    app_label, codename = ORGANISER_PERMISSION
    was_organiser = user_is_organiser(user)
    user.groups.remove(*Group.objects.filter(name=ORGANISERS_GROUP))  # type: ignore[attr-defined]
    user.user_permissions.remove(  # type: ignore[attr-defined]
        *Permission.objects.filter(content_type__app_label=app_label, codename=codename)
    )
    _forget_permissions(user)
    return was_organiser and not user_is_organiser(user)


__all__ = [
    "DeckError",
    "DeckPermissionError",
    "DecklistParseError",
    "OrganiserRequiredError",
    "deck_card_set",
    "deck_cards_replace",
    "deck_clone",
    "deck_create",
    "deck_hash",
    "format_data_load",
    "organiser_grant",
    "organiser_revoke",
]


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
    for attribute, value in (("name", name and name.strip()), ("description", description)):
        if value is not None:
            setattr(deck, attribute, value)
            fields.append(attribute)
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
