"""Card database models shared by every game.

Each game plugs in as data: its card types, branches, rarities, sets, card schema and cards are
loaded from ``fixtures/<game>/`` by ``manage.py load_game_data``. The typed columns of ``Card``
are what search filters on; everything a single game needs beyond them lives in ``stats`` (checked
against the game's card schema) and behaviour lives in ``effects`` (the game's effect language).
"""

from __future__ import annotations

import re
from typing import Any, Self

from django.core.exceptions import ValidationError
from django.db import models
from django.urls import reverse

from cards.naming import name_key, slugify_name
from cards.schema import PRINTED_NUMBERS, PrintedNumber, printed_numbers, record_errors


class Game(models.Model):
    """One of the games Deckwright serves, identified by a stable slug."""

    slug = models.SlugField(max_length=40, unique=True)
    name = models.CharField(max_length=120, unique=True)
    short_name = models.CharField(max_length=40, blank=True)
    description = models.TextField(blank=True)
    rulebook = models.CharField(
        max_length=120, blank=True, help_text="File name of the rulebook in shared/rulebooks."
    )
    min_players = models.PositiveSmallIntegerField(default=2)
    max_players = models.PositiveSmallIntegerField(default=2)
    branch_label = models.CharField(
        max_length=40,
        default="Branch",
        help_text="What this game calls a branch: Branch, Colour, Faction, Alignment ...",
    )
    deck_summary = models.CharField(max_length=200, blank=True)
    number_labels = models.JSONField(
        default=dict,
        blank=True,
        help_text="Printed numbers this game uses: column -> {name, label}, e.g. "
        '{"cost": {"name": "ip_cost", "label": "IP cost"}}.',
    )
    card_schema = models.JSONField(
        default=dict, blank=True, help_text="JSON Schema every card record of this game must fit."
    )
    sort_order = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ("sort_order", "name")

    def __str__(self) -> str:
        return self.name

    def get_absolute_url(self) -> str:
        return reverse("game-detail", kwargs={"slug": self.slug})

    def number_field(self, alias: str) -> str | None:
        """Return the Card column behind a game's own number name (``ip_cost`` -> ``cost``)."""
        for column, meta in self.number_labels.items():
            if alias in (column, meta.get("name")):
                return column
        return None


class GameScopedQuerySet(models.QuerySet):
    def for_game(self, game: Game | str) -> Self:
        if isinstance(game, Game):
            return self.filter(game=game)
        return self.filter(game__slug=game)


class _GameScoped(models.Model):
    """A per-game vocabulary entry (type, branch, rarity, subtype)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE)
    slug = models.SlugField(max_length=60)
    name = models.CharField(max_length=80)
    description = models.TextField(blank=True)
    sort_order = models.PositiveSmallIntegerField(default=0)

    objects = GameScopedQuerySet.as_manager()

    class Meta:
        abstract = True
        ordering = ("game", "sort_order", "name")

    def __str__(self) -> str:
        return self.name


class CardType(_GameScoped):
    class Meta(_GameScoped.Meta):
        constraints = [
            models.UniqueConstraint(fields=("game", "slug"), name="cardtype_unique_slug_per_game")
        ]


class Branch(_GameScoped):
    """A game's allegiance axis (a branch, a colour, a faction, an alignment: the game says)."""

    color = models.CharField(
        max_length=7, default="#777777", help_text="Hex colour for card faces."
    )

    class Meta(_GameScoped.Meta):
        verbose_name_plural = "branches"
        constraints = [
            models.UniqueConstraint(fields=("game", "slug"), name="branch_unique_slug_per_game")
        ]


class Rarity(_GameScoped):
    class Meta(_GameScoped.Meta):
        verbose_name_plural = "rarities"
        constraints = [
            models.UniqueConstraint(fields=("game", "slug"), name="rarity_unique_slug_per_game")
        ]


class Subtype(_GameScoped):
    class Meta(_GameScoped.Meta):
        constraints = [
            models.UniqueConstraint(fields=("game", "slug"), name="subtype_unique_slug_per_game")
        ]


class CardSet(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="sets")
    code = models.CharField(max_length=12)
    name = models.CharField(max_length=120)
    release_date = models.DateField()
    description = models.TextField(blank=True)

    objects = GameScopedQuerySet.as_manager()

    class Meta:
        ordering = ("game", "release_date", "code")
        constraints = [
            models.UniqueConstraint(fields=("game", "code"), name="cardset_unique_code_per_game")
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.code})"


class CardQuerySet(GameScopedQuerySet):
    def with_related(self, *, single: bool = False, game_known: bool = False) -> CardQuerySet:
        """Everything a card list shows, in a fixed number of queries.

        For a list the game is prefetched, not joined: a join decodes the game's JSON schema once
        per card row (half the time of a 50-card page), the prefetch once, and every card shares
        the one ``Game``. ``single=True`` (one card fetched by key) joins it: one query fewer.
        ``game_known=True``: the caller sets every row's ``game`` itself (a list of one game's
        cards), so it is neither joined nor prefetched."""
        related = ["card_set", "card_type", "branch", "rarity"]
        if single:
            return self.select_related("game", *related).prefetch_related("subtypes")
        if game_known:
            return self.select_related(*related).prefetch_related("subtypes")
        return self.select_related(*related).prefetch_related("game", "subtypes")


class Card(models.Model):
    """A card (or tile, or unit) definition of one game."""

    game = models.ForeignKey(Game, on_delete=models.PROTECT, related_name="cards")
    card_set = models.ForeignKey(CardSet, on_delete=models.PROTECT, related_name="cards")
    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140)
    name_key = models.CharField(max_length=140, editable=False, db_index=True)
    card_type = models.ForeignKey(CardType, on_delete=models.PROTECT, related_name="cards")
    subtypes = models.ManyToManyField(Subtype, blank=True, related_name="cards")
    branch = models.ForeignKey(
        Branch, on_delete=models.PROTECT, null=True, blank=True, related_name="cards"
    )
    rarity = models.ForeignKey(
        Rarity, on_delete=models.PROTECT, null=True, blank=True, related_name="cards"
    )
    collector_number = models.CharField(max_length=12, blank=True)
    cost = models.IntegerField(null=True, blank=True)
    attack = models.IntegerField(null=True, blank=True)
    defense = models.IntegerField(null=True, blank=True)
    drain = models.IntegerField(null=True, blank=True)
    generation = models.IntegerField(null=True, blank=True)
    strength = models.IntegerField(null=True, blank=True)
    copies_in_set = models.PositiveSmallIntegerField(
        null=True,
        blank=True,
        help_text="How many copies the card set holds, where the game limits by it.",
    )
    stats = models.JSONField(default=dict, blank=True)
    effects = models.JSONField(default=list, blank=True)
    rules_text = models.TextField(blank=True)
    flavor_text = models.TextField(blank=True)
    attribution = models.CharField(max_length=200, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    objects = CardQuerySet.as_manager()

    class Meta:
        ordering = ("game", "name")
        constraints = [
            models.UniqueConstraint(fields=("game", "name"), name="card_unique_name_per_game"),
            models.UniqueConstraint(fields=("game", "slug"), name="card_unique_slug_per_game"),
            models.UniqueConstraint(
                fields=("game", "name_key"), name="card_unique_name_key_per_game"
            ),
            models.CheckConstraint(
                condition=models.Q(cost__isnull=True) | models.Q(cost__gte=0),
                name="card_cost_not_negative",
            ),
        ]
        indexes = [
            models.Index(fields=("game", "card_type"), name="card_game_type_idx"),
            # Fields queries such as ``t:attack b:eagle ip<=2``: the type, the branch and a
            # range of the cost in one index scan, instead of every card of the type read and
            # filtered row by row (docs/performance.md, card search at catalogue scale).
            # Carrying the name key and id (PostgreSQL's INCLUDE; other databases leave them
            # out), the ids and sort keys of such a search's matches come from the index
            # alone, with no read of the cards' rows (cards.search.paging.page_statement).
            models.Index(
                fields=("game", "card_type", "branch", "cost"),
                include=("name_key", "id"),
                name="card_game_type_branch_cost_idx",
            ),
            models.Index(fields=("game", "branch"), name="card_game_branch_idx"),
            models.Index(fields=("game", "rarity"), name="card_game_rarity_idx"),
            models.Index(fields=("game", "cost"), name="card_game_cost_idx"),
            models.Index(fields=("game", "card_set"), name="card_game_set_idx"),
        ]

    def __str__(self) -> str:
        return self.name

    def save(self, *args: Any, **kwargs: Any) -> None:
        self.name_key = name_key(self.name)
        if not self.slug:
            self.slug = slugify_name(self.name)
        super().save(*args, **kwargs)

    def get_absolute_url(self) -> str:
        return reverse("card-detail", kwargs={"game": self.game.slug, "slug": self.slug})

    # Subtype slugs of an unsaved card, so record() and clean() see them before the
    # many-to-many exists (the loader sets this before full_clean()).
    pending_subtypes: list[str] | None = None

    def record(self, subtypes: list[str] | None = None) -> dict[str, Any]:
        """Return the card as plain data, the shape a game's card schema describes.

        Keys whose value is None (no branch, no printed attack ...) are left out.

        ``subtypes`` may be passed in for an unsaved card (whose many-to-many is not usable yet).
        """
        if subtypes is None:
            subtypes = self.pending_subtypes
        if subtypes is None:
            subtypes = sorted(s.slug for s in self.subtypes.all()) if self.pk else []
        data: dict[str, Any] = {
            "name": self.name,
            "type": self.card_type.slug if self.card_type_id else None,
            "subtypes": subtypes,
            "branch": self.branch.slug if self.branch is not None else None,
            "rarity": self.rarity.slug if self.rarity is not None else None,
            "set": self.card_set.code if self.card_set_id else None,
            "copies_in_set": self.copies_in_set,
            "stats": self.stats,
            "effects": self.effects,
        }
        for column in PRINTED_NUMBERS:
            data[column] = getattr(self, column)
        # Absent means absent: a schema says "required" or "must not be present" naturally.
        return {key: value for key, value in data.items() if value is not None}

    def printed_numbers(self) -> tuple[PrintedNumber, ...]:
        """Return the numbers this card prints, named and labelled as its game prints them."""
        return printed_numbers(self.game.number_labels, self)

    def clean(self, subtypes: list[str] | None = None) -> None:
        """Reject a card whose vocabulary belongs to another game or whose record breaks its schema."""
        errors: dict[str, list[str]] = {}
        if self.name and not name_key(self.name):
            errors.setdefault("name", []).append("A card name needs at least one letter or digit.")
        game_id = self.game_id
        for field in ("card_set", "card_type", "branch", "rarity"):
            related = getattr(self, field, None) if getattr(self, f"{field}_id") else None
            if related is not None and related.game_id != game_id:
                errors.setdefault(field, []).append(
                    f"{related} belongs to another game, not to this card's game."
                )
        if not isinstance(self.stats, dict):
            errors.setdefault("stats", []).append("stats must be a JSON object.")
        if not isinstance(self.effects, list):
            errors.setdefault("effects", []).append("effects must be a JSON list.")
        if game_id and not errors:
            problems = record_errors(self.game.card_schema, self.record(subtypes))
            if problems:
                errors.setdefault("__all__", []).extend(problems)
        if errors:
            raise ValidationError(errors)


# the source the card loader gives a ruling of docs/rules/<game>.md (cards.services)
_OWN_RULING = re.compile(r"docs/rules/[a-z0-9-]+\.md, ruling (\d+)")


class Ruling(models.Model):
    """An official or house ruling about one card."""

    card = models.ForeignKey(Card, on_delete=models.CASCADE, related_name="rulings")
    published_on = models.DateField()
    source = models.CharField(max_length=120, default="Deckwright")
    text = models.TextField()

    class Meta:
        ordering = ("card", "published_on", "pk")

    def __str__(self) -> str:
        return f"{self.card}: {self.text[:40]}"

    @property
    def source_label(self) -> str:
        """Where the ruling comes from, as a page says it: one of the project's own rulings
        ("Deckwright ruling 6", its file left to developers), else the source as stored."""
        own = _OWN_RULING.fullmatch(self.source)
        return f"Deckwright ruling {own.group(1)}" if own else self.source
