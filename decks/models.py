"""What a deck is and where it may be played: formats, decks and their versions, events.

Formats carry dated lists (legal sets, banned and restricted cards), so "was this deck legal on
2026-05-01?" is answered from the rows themselves. Every deck change goes through
``decks.services`` and leaves a ``DeckVersion`` snapshot; event registrations keep the exact
decklist a player submitted and a hash that proves it.
"""

from __future__ import annotations

import datetime as dt

from django.conf import settings
from django.db import models
from django.db.models import Q

from cards.models import Card, CardSet, Game


class DatedQuerySet(models.QuerySet):
    def in_effect(self, on: dt.date) -> DatedQuerySet:
        """Rows whose ``effective_from`` .. ``effective_until`` window covers ``on``.

        ``effective_until`` is the first day a row no longer applies; empty means open-ended.
        """
        return self.filter(
            Q(effective_from__isnull=True) | Q(effective_from__lte=on),
            Q(effective_until__isnull=True) | Q(effective_until__gt=on),
        )


class _Dated(models.Model):
    effective_from = models.DateField(
        null=True, blank=True, help_text="First day this applies (empty: always applied)."
    )
    effective_until = models.DateField(
        null=True, blank=True, help_text="First day this no longer applies (empty: open-ended)."
    )

    objects = DatedQuerySet.as_manager()

    class Meta:
        abstract = True

    def in_effect(self, on: dt.date) -> bool:
        return (self.effective_from is None or self.effective_from <= on) and (
            self.effective_until is None or self.effective_until > on
        )


class Format(_Dated):
    """A way to play a game: which sets are legal and which cards are banned or restricted."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="formats")
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    is_default = models.BooleanField(
        default=False, help_text="The format a new deck of this game gets."
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("game", "-is_default", "name")
        constraints = [
            models.UniqueConstraint(fields=("game", "slug"), name="format_unique_slug_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.game.short_name or self.game.name})"


class FormatSet(_Dated):
    """A card set that is legal in a format during a window of dates."""

    format = models.ForeignKey(Format, on_delete=models.CASCADE, related_name="legal_sets")
    card_set = models.ForeignKey(CardSet, on_delete=models.CASCADE, related_name="format_entries")

    class Meta:
        ordering = ("format", "card_set__release_date", "effective_from")

    def __str__(self) -> str:
        return f"{self.card_set.code} in {self.format.name}"


class FormatCardStatus(models.TextChoices):
    BANNED = "banned", "Banned"
    RESTRICTED = "restricted", "Restricted"


class FormatCardEntry(_Dated):
    """A ban-list or restricted-list line: a card, its status and copy limit, its dates."""

    format = models.ForeignKey(Format, on_delete=models.CASCADE, related_name="card_entries")
    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="format_entries")
    status = models.CharField(max_length=12, choices=FormatCardStatus.choices)
    limit = models.PositiveSmallIntegerField(
        default=1, help_text="Copies allowed while restricted (ignored for a banned card)."
    )
    reason = models.CharField(max_length=240, blank=True)

    class Meta:
        ordering = ("format", "status", "card__name", "effective_from")
        verbose_name_plural = "format card entries"

    def __str__(self) -> str:
        return f"{self.card.name}: {self.status} in {self.format.name}"


class Visibility(models.TextChoices):
    PUBLIC = "public", "Public"
    UNLISTED = "unlisted", "Unlisted"
    PRIVATE = "private", "Private"


class Deck(models.Model):
    """A player's deck of one game; ``version`` counts the changes made to it."""

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="decks"
    )
    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="decks")
    format = models.ForeignKey(
        Format, on_delete=models.SET_NULL, null=True, blank=True, related_name="decks"
    )
    name = models.CharField(max_length=120)
    description = models.TextField(blank=True)
    variant = models.CharField(
        max_length=40, blank=True, help_text="Game variant, where the game has several."
    )
    visibility = models.CharField(
        max_length=10, choices=Visibility.choices, default=Visibility.PRIVATE
    )
    version = models.PositiveIntegerField(default=1)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated_at", "pk")
        indexes = [models.Index(fields=("owner", "game"), name="deck_owner_game_idx")]

    def __str__(self) -> str:
        return self.name


class DeckCard(models.Model):
    """How many copies of a card a deck holds, in which zone (empty where the game has none)."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="cards")
    card = models.ForeignKey(Card, on_delete=models.PROTECT, related_name="deck_cards")
    quantity = models.PositiveSmallIntegerField()
    zone = models.CharField(max_length=20, blank=True, default="")

    class Meta:
        ordering = ("deck", "zone", "card__name")
        constraints = [
            models.UniqueConstraint(
                fields=("deck", "card", "zone"), name="deckcard_unique_card_per_zone"
            ),
            models.CheckConstraint(condition=Q(quantity__gte=1), name="deckcard_quantity_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.quantity} {self.card.name}"


class DeckVersion(models.Model):
    """A snapshot of a deck after one change: its cards by name, zone and count."""

    deck = models.ForeignKey(Deck, on_delete=models.CASCADE, related_name="versions")
    number = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    saved_at = models.DateTimeField(
        null=True, blank=True, help_text="Last change folded into this version (empty: none)."
    )
    author = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="+",
        help_text="Who made the change (empty: the system, or a deleted account).",
    )
    foldable = models.BooleanField(
        default=False,
        help_text="A one-copy change that the same author's next one-copy change, soon after, "
        "may be folded into.",
    )
    note = models.CharField(max_length=200, blank=True)
    entries = models.JSONField(
        default=list, help_text='[{"name": ..., "zone": ..., "quantity": ...}] sorted.'
    )

    class Meta:
        ordering = ("deck", "number")
        constraints = [
            models.UniqueConstraint(fields=("deck", "number"), name="deckversion_unique_number")
        ]

    def __str__(self) -> str:
        return f"{self.deck} v{self.number}"


class Event(models.Model):
    """A tournament: one game and format on one date, with a decklist deadline.

    The rules (when it locks, who sees and changes what, which dates are sane) live in
    ``decks.events``; the date is a day where the event takes place, in ``time_zone``.
    """

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="events")
    format = models.ForeignKey(Format, on_delete=models.PROTECT, related_name="events")
    name = models.CharField(max_length=160)
    date = models.DateField()
    decklist_deadline = models.DateTimeField(
        help_text="Stored in UTC; pages show it in the event's time zone."
    )
    time_zone = models.CharField(
        max_length=64,
        default="UTC",
        help_text="IANA time zone of the event (e.g. Europe/Paris): the event day and the "
        "deadline's wall-clock time are read in it.",
    )
    variant = models.CharField(max_length=40, blank=True)
    organiser = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="organised_events",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("-date", "name")

    def __str__(self) -> str:
        return f"{self.name} ({self.date})"


class Registration(models.Model):
    """A player's entry to an event: the decklist exactly as submitted, its hash and verdict."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="registrations")
    player = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="registrations"
    )
    decklist = models.TextField(help_text="The decklist text as submitted.")
    entries = models.JSONField(default=list)
    deck_hash = models.CharField(max_length=64, db_index=True)
    submitted_at = models.DateTimeField()
    legal = models.BooleanField(default=False)
    verdict = models.JSONField(default=dict, help_text="The validation report at submission.")

    class Meta:
        ordering = ("event", "submitted_at")
        constraints = [
            models.UniqueConstraint(fields=("event", "player"), name="registration_one_per_player")
        ]

    def __str__(self) -> str:
        return f"{self.player} at {self.event}"
