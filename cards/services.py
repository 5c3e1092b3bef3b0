"""Writes to the card database. The only way game data enters it is ``game_data_load``."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models, transaction

from cards.checks import card_check_errors
from cards.gamedata import GameData, GameDataError, read_game
from cards.models import Branch, Card, CardSet, CardType, Game, Rarity, Subtype
from cards.naming import name_key, slugify_name
from cards.rulings import DocRuling, rulings_for_card, rulings_read
from cards.schema import PRINTED_NUMBERS, check_schema

CARD_KEYS = {
    "name",
    "slug",
    "set",
    "type",
    "subtypes",
    "branch",
    "rarity",
    "number",
    "copies_in_set",
    "stats",
    "effects",
    "rules_text",
    "flavor_text",
    "attribution",
    "rulings",
    *PRINTED_NUMBERS,
}


@dataclass
class ModelCounts:
    created: int = 0
    updated: int = 0
    unchanged: int = 0

    @property
    def total(self) -> int:
        return self.created + self.updated + self.unchanged


@dataclass
class LoadReport:
    """What one ``game_data_load`` call did, per model."""

    game: str
    counts: dict[str, ModelCounts] = field(default_factory=dict)
    stale_cards: list[str] = field(default_factory=list)
    pruned: int = 0

    def count(self, model: str) -> ModelCounts:
        return self.counts.setdefault(model, ModelCounts())

    @property
    def changed(self) -> bool:
        return self.pruned > 0 or any(c.created or c.updated for c in self.counts.values())

    def summary(self) -> str:
        parts = [
            f"{name}: {c.total} ({c.created} created, {c.updated} updated)"
            for name, c in self.counts.items()
        ]
        text = f"{self.game}: " + "; ".join(parts)
        if self.stale_cards:
            text += f"; {len(self.stale_cards)} card(s) in the database but not in the fixtures"
        if self.pruned:
            text += f"; {self.pruned} pruned"
        return text


def _upsert(
    model: type[models.Model], lookup: dict[str, Any], values: dict[str, Any], counts: ModelCounts
) -> Any:
    obj = model._default_manager.filter(**lookup).first()
    if obj is None:
        obj = model(**lookup, **values)
        obj.full_clean()
        obj.save()
        counts.created += 1
        return obj
    dirty = [name for name, value in values.items() if getattr(obj, name) != value]
    if dirty:
        for name in dirty:
            setattr(obj, name, values[name])
        obj.full_clean()
        obj.save()
        counts.updated += 1
    else:
        counts.unchanged += 1
    return obj


def _number_aliases(game: dict[str, Any]) -> dict[str, str]:
    aliases = {column: column for column in PRINTED_NUMBERS}
    for column, meta in (game.get("number_labels") or {}).items():
        if column not in PRINTED_NUMBERS:
            continue
        if isinstance(meta, dict) and meta.get("name"):
            aliases[meta["name"]] = column
    return aliases


def _card_values(
    data: GameData, where: str, raw: dict[str, Any], vocab: dict[str, dict[str, Any]]
) -> tuple[dict[str, Any], list[str], list[str]]:
    """Turn one card entry into model field values and subtype slugs, or problems."""
    problems: list[str] = []
    aliases = _number_aliases(data.game)
    unknown = sorted(set(raw) - CARD_KEYS - set(aliases))
    if unknown:
        problems.append(f"{where}: unknown field(s) {', '.join(unknown)}")
    name = raw.get("name")
    if not isinstance(name, str) or not name.strip():
        return {}, [], [*problems, f"{where}: a card needs a non-empty name"]
    values: dict[str, Any] = {
        "name": name.strip(),
        "slug": raw.get("slug") or slugify_name(name),
        "collector_number": str(raw.get("number") or ""),
        "copies_in_set": raw.get("copies_in_set"),
        "stats": raw.get("stats") or {},
        "effects": raw.get("effects") or [],
        "rules_text": (raw.get("rules_text") or "").strip(),
        "flavor_text": (raw.get("flavor_text") or "").strip(),
        "attribution": (raw.get("attribution") or "").strip(),
    }
    for column in PRINTED_NUMBERS:
        values[column] = None
    for key, value in raw.items():
        if key in aliases:
            if value is not None and (isinstance(value, bool) or not isinstance(value, int)):
                problems.append(f"{where}: {key} must be a whole number, got {value!r}")
            values[aliases[key]] = value
    for key, field_name, required in (
        ("set", "card_set", True),
        ("type", "card_type", True),
        ("branch", "branch", False),
        ("rarity", "rarity", False),
    ):
        slug = raw.get(key)
        if slug is None:
            if required:
                problems.append(f"{where}: {key} is required")
            values[field_name] = None
            continue
        obj = vocab[key].get(str(slug))
        if obj is None:
            known = ", ".join(sorted(vocab[key])) or "none"
            problems.append(f"{where}: unknown {key} {slug!r} (known: {known})")
        values[field_name] = obj
    subtypes = raw.get("subtypes") or []
    if not isinstance(subtypes, list):
        problems.append(f"{where}: subtypes must be a list")
        subtypes = []
    for slug in subtypes:
        if slug not in vocab["subtypes"]:
            known = ", ".join(sorted(vocab["subtypes"])) or "none"
            problems.append(f"{where}: unknown subtype {slug!r} (known: {known})")
    return values, sorted(set(subtypes)), problems


def _validate_card(
    game: Game, where: str, values: dict[str, Any], subtypes: list[str]
) -> tuple[Card, list[str]]:
    card = Card(game=game, **values)
    card.name_key = name_key(card.name)
    card.pending_subtypes = subtypes
    problems: list[str] = []
    try:
        card.full_clean(exclude=["name_key"], validate_unique=False, validate_constraints=False)
    except ValidationError as exc:
        for field_name, messages in exc.message_dict.items():
            label = "" if field_name == "__all__" else f"{field_name}: "
            problems.extend(f"{where}: {label}{message}" for message in messages)
    if not problems:
        problems.extend(
            f"{where}: {p}" for p in card_check_errors(game.slug, card.record(subtypes))
        )
    return card, problems


def _parse_date(value: Any) -> dt.date | None:
    if isinstance(value, dt.date):
        return value
    try:
        return dt.date.fromisoformat(str(value))
    except ValueError:
        return None


def _doc_rulings(slug: str, rulings_dir: Path | None) -> list[DocRuling]:
    """The rulings of ``<rulings_dir>/<slug>.md`` (settings.RULINGS_DIR by default), if any."""
    folder = rulings_dir if rulings_dir is not None else Path(settings.RULINGS_DIR)
    path = folder / f"{slug}.md"
    return rulings_read(path) if path.is_file() else []


#: the keys of ``game.yaml``'s ``game`` entry stored on the ``Game`` row
GAME_FIELDS = (
    "name",
    "short_name",
    "description",
    "rulebook",
    "min_players",
    "max_players",
    "branch_label",
    "deck_summary",
    "number_labels",
    "sort_order",
)


def _game_upsert(slug: str, data: GameData, report: LoadReport) -> Game:
    """The game's row, created or brought up to date from ``game.yaml``."""
    values = {key: data.game[key] for key in GAME_FIELDS if key in data.game}
    values["card_schema"] = data.card_schema
    values.setdefault("short_name", "")
    values.setdefault("description", "")
    short = str(values["short_name"]).strip()
    if short:
        # a query names a game by its short name too (g:RNR): two games may not share one
        clash = (
            Game.objects.filter(models.Q(short_name__iexact=short) | models.Q(slug__iexact=short))
            .exclude(slug=slug)
            .first()
        )
        if clash is not None:
            raise GameDataError(
                [
                    f"{slug}/game.yaml: short_name {short!r} is already the game "
                    f"{clash.slug!r}'s; a query could not tell the two apart"
                ]
            )
    return _upsert(Game, {"slug": slug}, values, report.count("games"))


def _vocabularies_upsert(
    game: Game, slug: str, data: GameData, report: LoadReport
) -> dict[str, dict[str, Any]]:
    """The game's card types, branches, rarities, subtypes and sets, created or brought up to
    date in file order, by kind and slug (sets by code)."""
    vocab: dict[str, dict[str, Any]] = {}
    for key, model, label, source in (
        ("type", CardType, "card types", data.card_types),
        ("branch", Branch, "branches", data.branches),
        ("rarity", Rarity, "rarities", data.rarities),
        ("subtypes", Subtype, "subtypes", data.subtypes),
    ):
        vocab[key] = {}
        for order, entry in enumerate(source):
            values = {
                "name": entry.get("name", entry.get("slug")),
                "description": (entry.get("description") or "").strip(),
                "sort_order": order,
            }
            if model is Branch:
                values["color"] = entry.get("color", "#777777")
            obj = _upsert(
                model, {"game": game, "slug": entry.get("slug")}, values, report.count(label)
            )
            vocab[key][obj.slug] = obj
    vocab["set"] = {}
    for entry in data.sets:
        release = _parse_date(entry.get("release_date"))
        if release is None:
            raise GameDataError(
                [f"{slug}/game.yaml: set {entry.get('code')!r} needs release_date as YYYY-MM-DD"]
            )
        obj = _upsert(
            CardSet,
            {"game": game, "code": entry.get("code")},
            {
                "name": entry.get("name", entry.get("code")),
                "release_date": release,
                "description": (entry.get("description") or "").strip(),
            },
            report.count("sets"),
        )
        vocab["set"][obj.code] = obj
    return vocab


Prepared = list[tuple[dict[str, Any], list[str], list[dict[str, Any]]]]


def _cards_prepare(game: Game, data: GameData, vocab: dict[str, dict[str, Any]]) -> Prepared:
    """Every card of the files as field values, subtypes and rulings, checked; raises
    ``GameDataError`` listing every problem of every card (two cards of one name included)."""
    prepared: Prepared = []
    seen_keys: dict[str, str] = {}
    problems = []
    for where, raw in data.cards:
        values, subtypes, card_problems = _card_values(data, where, raw, vocab)
        if not card_problems:
            _, card_problems = _validate_card(game, where, values, subtypes)
        key = name_key(values.get("name", "")) if values else ""
        if key and key in seen_keys:
            card_problems.append(f"{where}: same name as {seen_keys[key]}")
        elif key:
            seen_keys[key] = where
        problems.extend(card_problems)
        prepared.append((values, subtypes, raw.get("rulings") or []))
    if problems:
        raise GameDataError(problems)
    return prepared


def _cards_store(
    game: Game,
    prepared: Prepared,
    vocab: dict[str, dict[str, Any]],
    doc_rulings: list[DocRuling],
    report: LoadReport,
) -> dict[str, Card]:
    """Create or update every prepared card (only what changed is saved) and its rulings;
    return the game's cards the files no longer list, by name key."""
    existing = {card.name_key: card for card in Card.objects.filter(game=game)}
    subtype_rows = {
        (row["card_id"], row["subtype__slug"])
        for row in Card.subtypes.through.objects.filter(card__game=game).values(
            "card_id", "subtype__slug"
        )
    }
    counts = report.count("cards")
    names = [values["name"] for values, _, _ in prepared]
    for values, subtypes, rulings in prepared:
        card = existing.pop(name_key(values["name"]), None)
        if card is None:
            card = Card(game=game, **values)
            card.save()
            card.subtypes.set([vocab["subtypes"][s] for s in subtypes])
            counts.created += 1
        else:
            dirty = [name for name, value in values.items() if getattr(card, name) != value]
            current_subtypes = sorted(s for (cid, s) in subtype_rows if cid == card.pk)
            if dirty:
                for name in dirty:
                    setattr(card, name, values[name])
                card.save()
            if current_subtypes != subtypes:
                card.subtypes.set([vocab["subtypes"][s] for s in subtypes])
            if dirty or current_subtypes != subtypes:
                counts.updated += 1
            else:
                counts.unchanged += 1
        _sync_rulings(
            card,
            [*rulings, *_card_doc_rulings(card, doc_rulings, subtypes, vocab, game.slug, names)],
            report.count("rulings"),
        )
    return existing


def _stale_prune(stale: dict[str, Card], report: LoadReport) -> None:
    """Delete the cards the files no longer list, except those a deck uses (protected)."""
    from django.db.models import ProtectedError

    for card in stale.values():
        try:
            card.delete()
            report.pruned += 1
        except ProtectedError:
            pass


@transaction.atomic
def game_data_load(
    *, slug: str, fixtures_dir: Path, prune: bool = False, rulings_dir: Path | None = None
) -> LoadReport:
    """Load one game's data idempotently: validate everything first, then write in one transaction.

    Raises GameDataError listing every problem (file, card, field) and writes nothing if any card
    or vocabulary entry is invalid. Loading the same files twice reports nothing created or updated.
    Cards in the database that the files no longer list are reported as stale, and deleted only
    with ``prune=True`` (a card used by a deck is protected and stays).

    A card's rulings are those its file lists and those of the game's rulings document
    (``<rulings_dir>/<slug>.md``, default ``settings.RULINGS_DIR``) that concern it
    (``cards.rulings``).
    """
    data = read_game(fixtures_dir, slug)
    doc_rulings = _doc_rulings(slug, rulings_dir)
    problems = check_schema(data.card_schema)
    if problems:
        raise GameDataError([f"{slug}/game.yaml: {p}" for p in problems])
    report = LoadReport(game=slug)
    try:
        game = _game_upsert(slug, data, report)
        vocab = _vocabularies_upsert(game, slug, data, report)
    except ValidationError as exc:
        raise GameDataError([f"{slug}/game.yaml: {m}" for m in exc.messages]) from exc
    stale = _cards_store(game, _cards_prepare(game, data, vocab), vocab, doc_rulings, report)
    report.stale_cards = sorted(card.name for card in stale.values())
    if prune and stale:
        _stale_prune(stale, report)
    return report


def _card_doc_rulings(
    card: Card,
    doc_rulings: list[DocRuling],
    subtypes: list[str],
    vocab: dict[str, dict[str, Any]],
    slug: str,
    card_names: list[str],
) -> list[dict[str, Any]]:
    """The rulings document's rulings about ``card``, as ruling entries of a card file."""
    if not doc_rulings:
        return []
    # A game with a single card type (tiles) would get every type-wide ruling on every card.
    type_name = card.card_type.name if len(vocab["type"]) > 1 else ""
    concerning = rulings_for_card(
        doc_rulings,
        name=card.name,
        type_name=type_name,
        subtype_names=[vocab["subtypes"][s].name for s in subtypes],
        card_names=card_names,
    )
    return [
        {
            "date": (ruling.date or card.card_set.release_date).isoformat(),
            "text": ruling.text,
            "source": f"docs/rules/{slug}.md, ruling {ruling.number}",
        }
        for ruling in concerning
    ]


def _sync_rulings(card: Card, rulings: list[dict[str, Any]], counts: ModelCounts) -> None:
    current = {(r.published_on, r.text): r for r in card.rulings.all()}
    wanted = set()
    for entry in rulings:
        published = _parse_date(entry.get("date"))
        text = (entry.get("text") or "").strip()
        if published is None or not text:
            raise GameDataError([f"{card.name}: a ruling needs a date (YYYY-MM-DD) and text"])
        wanted.add((published, text))
        if (published, text) in current:
            counts.unchanged += 1
        else:
            card.rulings.create(
                published_on=published, text=text, source=entry.get("source", "Deckwright")
            )
            counts.created += 1
    for key, ruling in current.items():
        if key not in wanted:
            ruling.delete()
            counts.updated += 1
