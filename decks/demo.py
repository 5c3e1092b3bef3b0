"""The demo set a fresh install loads, so a first visitor has something to open and try.

``demo_load`` (run by ``manage.py load_demo``, which ``make run`` calls unless ``DEMO=0``) writes:

- a demo user (``DEMO_USERNAME``) whose password is unusable, so nobody can log in as it;
- one public deck per legal sample decklist of every game (``fixtures/decks/<game>/legal-*.txt``),
  in its game's default format and the variant the file names, each checked by the deck
  validation first: a sample that is not legal there is reported and left out, never loaded;
- an example event (Revolt N Reign, the default format, a month ahead) organised by the demo user.

It is idempotent and never overwrites anything: a demo deck or event that exists (by its name,
owned or organised by the demo user) is left as it is, whatever was changed in it since; a second
run creates nothing. Asked to (``refresh=True``, ``manage.py load_demo --refresh``), it brings the
demo decks that exist up to their shipped lists instead: a deck whose cards differ gets the
sample's cards as a new version (its earlier versions stay, to compare or revert to); its name,
format, variant and description are left alone. Other users' decks, including copies of demo
decks, are never touched. A user who signed up under the demo user's name (one with a usable
password) stops the load with ``DemoError``: that account is theirs, and the demo does not take
it over.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import QuerySet
from django.utils import timezone

from cards.models import Game
from decks.decklist import decklist_entries, decklist_read
from decks.events.services import event_create
from decks.models import Deck, Event, Visibility
from decks.selectors import format_default
from decks.services import deck_cards_replace, deck_create, organiser_grant
from decks.validation import validate

DEMO_USERNAME = "demo"
SAMPLE_PATTERN = "legal-*.txt"
EVENT_GAME = "revolt-n-reign"
EVENT_NAME = "Deckwright Demo Open"
EVENT_DAYS_AHEAD = 30


class DemoError(Exception):
    """The demo set cannot be loaded; the message says why and what to do."""


@dataclass
class DemoReport:
    """What one ``demo_load`` did."""

    decks_created: list[str] = field(default_factory=list)
    decks_refreshed: list[str] = field(default_factory=list)
    """Demo decks that existed and were given their sample's cards (``refresh``)."""
    decks_kept: list[str] = field(default_factory=list)
    skipped: list[str] = field(default_factory=list)
    """Samples left out, with the reason (not legal in the default format, unreadable ...)."""
    user_created: bool = False
    event_created: bool = False

    @property
    def created(self) -> int:
        return len(self.decks_created) + int(self.user_created) + int(self.event_created)

    def summary(self) -> str:
        event = "1 created" if self.event_created else "kept"
        decks = len(self.decks_created) + len(self.decks_refreshed) + len(self.decks_kept)
        refreshed = (
            f"{len(self.decks_refreshed)} refreshed ({', '.join(self.decks_refreshed)}), "
            if self.decks_refreshed
            else ""
        )
        text = (
            f"demo: decks {decks} ({len(self.decks_created)} created, {refreshed}"
            f"{len(self.decks_kept)} kept as they were); "
            f"event {event}; user {DEMO_USERNAME!r} "
            f"({'created' if self.user_created else 'kept'}, cannot log in)"
        )
        if self.skipped:
            text += "; left out: " + "; ".join(self.skipped)
        return text


def demo_user() -> Any | None:
    """The demo user, if the demo set was loaded (None otherwise)."""
    user_model = get_user_model()
    return user_model.objects.filter(**{user_model.USERNAME_FIELD: DEMO_USERNAME}).first()


def demo_deck_list() -> QuerySet[Deck]:
    """The demo user's public decks, by game order then name: what the home page offers."""
    return (
        Deck.objects.filter(owner__username=DEMO_USERNAME, visibility=Visibility.PUBLIC)
        .select_related("game", "format")
        .order_by("game__sort_order", "game__name", "name")
    )


def _demo_user_get_or_create(report: DemoReport) -> Any:
    user = demo_user()
    if user is not None:
        if user.has_usable_password():
            raise DemoError(
                f"a user named {DEMO_USERNAME!r} exists and can log in, so it is someone's own "
                "account: the demo set was not loaded (rename that user, or run with DEMO=0)"
            )
        return user
    user_model = get_user_model()
    user = user_model(**{user_model.USERNAME_FIELD: DEMO_USERNAME})
    user.set_unusable_password()
    user.save()
    report.user_created = True
    return user


def _load_decks(owner: Any, samples_dir: Path, report: DemoReport, *, refresh: bool) -> None:
    existing = {deck.name: deck for deck in Deck.objects.filter(owner=owner)}
    games = {game.slug: game for game in Game.objects.all()}
    for path in sorted(samples_dir.glob(f"*/{SAMPLE_PATTERN}")):
        game = games.get(path.parent.name)
        if game is None:
            continue  # the game's cards are not loaded (load_game_data --game ...)
        where = f"{path.parent.name}/{path.name}"
        text = path.read_text(encoding="utf-8")
        decklist = decklist_read(text)
        name = decklist.metadata.get("name") or path.stem.removeprefix("legal-")
        deck = existing.get(name)
        # a name this run already created or refreshed is kept as that sample made it
        handled = name in report.decks_created or name in report.decks_refreshed
        if deck is not None and (not refresh or deck.game_id != game.pk or handled):
            report.decks_kept.append(name)
            continue
        fmt = format_default(game)
        variant = decklist.metadata.get("variant") or ""
        verdict = validate(
            game.slug,
            decklist_entries(game.slug, decklist),
            format=fmt.pk if fmt else None,
            variant=variant or None,
        )
        if not verdict.legal:
            report.skipped.append(f"{where} (not legal: {', '.join(verdict.codes)})")
            if deck is not None:
                report.decks_kept.append(name)
            continue
        if deck is not None:
            version = deck.version
            deck = deck_cards_replace(deck=deck, decklist=decklist, actor=owner)
            if deck.version != version:
                report.decks_refreshed.append(name)
            else:
                report.decks_kept.append(name)
            continue
        existing[name] = deck_create(
            owner=owner,
            game=game,
            name=name,
            decklist=decklist,
            format=fmt,
            variant=variant,
            visibility=Visibility.PUBLIC,
            description=(
                f"A sample {game.name} deck shipped with Deckwright ({where}). "
                "Clone it to make your own copy and change it."
            ),
        )
        report.decks_created.append(name)


def _load_event(organiser: Any, today: dt.date, report: DemoReport) -> None:
    if Event.objects.filter(organiser=organiser, name=EVENT_NAME).exists():
        return
    game = Game.objects.filter(slug=EVENT_GAME).first()
    fmt = format_default(game) if game else None
    if game is None or fmt is None:
        report.skipped.append(f"the example event ({EVENT_GAME} or its default format is missing)")
        return
    organiser_grant(user=organiser)
    day = today + dt.timedelta(days=EVENT_DAYS_AHEAD)
    event_create(
        game=game,
        format=fmt,
        name=EVENT_NAME,
        date=day,
        decklist_deadline=dt.datetime.combine(day - dt.timedelta(days=1), dt.time(18, 0)),
        organiser=organiser,
    )
    report.event_created = True


@transaction.atomic
def demo_load(
    *, samples_dir: Path, today: dt.date | None = None, refresh: bool = False
) -> DemoReport:
    """Load the demo set (see the module docstring); safe to run again, it creates only what is
    missing, and with ``refresh`` gives the demo decks that exist their sample's cards. Raises
    ``DemoError`` when the demo user's name belongs to a real account."""
    report = DemoReport()
    user = _demo_user_get_or_create(report)
    _load_decks(user, samples_dir, report, refresh=refresh)
    _load_event(user, today or timezone.localdate(), report)
    return report
