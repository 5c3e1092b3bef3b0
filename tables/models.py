"""A table of people (and AI seats) playing one game live, stored as every other played game is:
seed and setup, then every action in order (``rules.play.play_position`` replays it)."""

from __future__ import annotations

import secrets
from typing import Any

from django.conf import settings
from django.db import models


def new_invite_token() -> str:
    """The secret part of an invite link."""
    return secrets.token_urlsafe(18)


class FriendTable(models.Model):
    """A table of ``chairs`` seats: its creator sits in chair 0, the friends who open the invite
    link (or the AI, seated by the creator) in the next free chairs. The opener picks the count
    within the game's players (``tables.services.friend_table_chairs``): two for a game of two
    rivals, two to four for Reign Absolute, a team of one to four for co-operative Reggae
    Revolution (everyone on the same side, against the game).

    Until every chair is taken the table is ``waiting`` and has no seed nor setup; it starts when
    the last chair is filled. ``actions`` holds every action since (people's, the AI's, chance
    outcomes) as the engine writes them, so ``len(actions)`` is the table's move count that a
    client sends back with its move: a move chosen at another count is stale and refused.
    """

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for players"
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="+")
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="friend_tables"
    )
    invite_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    #: the number of chairs the opener picked: the game starts when the last one is taken
    chairs = models.PositiveSmallIntegerField(default=2)
    setup: models.JSONField[Any] = models.JSONField(null=True, blank=True)
    seed = models.BigIntegerField(null=True, blank=True)
    actions: models.JSONField[Any] = models.JSONField(default=list)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    #: the engine seat that won once finished (None: a draw, or not over)
    winner = models.PositiveSmallIntegerField(null=True, blank=True)
    end_reason = models.CharField(max_length=60, blank=True)
    #: seconds a player may be away while it is their move before the AI plays for them
    #: (None: never); chosen when the table is opened (``tables.clocks``)
    takeover_after = models.PositiveIntegerField(null=True, blank=True)
    #: a chess-style clock: seconds per player (None: no clock) and seconds added after a move
    clock_seconds = models.PositiveIntegerField(null=True, blank=True)
    clock_increment = models.PositiveIntegerField(default=0)
    #: the engine seat of the person to decide, and since when (None: nobody, or not started)
    turn_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    turn_started_at = models.DateTimeField(null=True, blank=True)
    #: the earliest moment a takeover or a flag fall is due (None: none is)
    deadline_at = models.DateTimeField(null=True, blank=True, db_index=True)
    #: what happened to the chairs (left, AI standing in, back, flag fell), oldest first
    notes: models.JSONField[Any] = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Spectators(models.TextChoices):
        NONE = "none", "No spectators"
        LINK = "link", "Spectators with the spectator link"
        PUBLIC = "public", "Anyone may watch"

    #: who may watch (tables.spectators), by a link with its own token or anyone
    spectators = models.CharField(max_length=6, choices=Spectators.choices, default="none")
    spectator_token = models.CharField(max_length=32, unique=True, default=new_invite_token)
    #: spectators see the game as it stood this many seconds ago
    spectator_delay = models.PositiveIntegerField(default=0)
    #: when each action of ``actions`` was stored (Unix seconds), parallel to it
    action_times: models.JSONField[Any] = models.JSONField(default=list)
    #: spectators' connections open now (shown to the players)
    watching = models.PositiveIntegerField(default=0)

    class Meta:
        ordering = ("-updated_at", "-pk")

    def __str__(self) -> str:
        return f"{self.game_id} friend table {self.pk}"


class FriendSeat(models.Model):
    """One chair of a table: a person (``user``) or the AI (``agent``), with the deck they
    play (its name and version as the game started: decks may change later)."""

    table = models.ForeignKey(FriendTable, on_delete=models.CASCADE, related_name="seats")
    chair = models.PositiveSmallIntegerField(
        help_text="0: the creator; 1 on: who joined, in order."
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.SET_NULL,
        null=True,
        blank=True,
        related_name="friend_seats",
    )
    agent = models.CharField(max_length=20, blank=True, help_text="The AI's level, or ''.")
    deck = models.ForeignKey("decks.Deck", on_delete=models.SET_NULL, null=True, blank=True)
    label = models.CharField(max_length=200)
    deck_version = models.PositiveIntegerField(default=1)
    #: the engine seat of this chair once the game started (the rulebook seats the sides)
    engine_seat = models.PositiveSmallIntegerField(null=True, blank=True)
    #: open WebSocket connections of this chair's player (several tabs count each)
    connections = models.PositiveIntegerField(default=0)
    #: the last sign of life of a connection (connect or ping), and when the last one closed
    seen_at = models.DateTimeField(null=True, blank=True)
    left_at = models.DateTimeField(null=True, blank=True)
    #: the AI plays this person's moves: they are away past the table's ``takeover_after``, or
    #: (``flagged``, three seats or more) their clock ran out
    stand_in = models.BooleanField(default=False)
    flagged = models.BooleanField(default=False)
    #: milliseconds left on this chair's clock (None: the table has no clock)
    clock_left_ms = models.BigIntegerField(null=True, blank=True)
    #: this seat's player lets spectators (and players) see every card once the game is over
    reveal_after = models.BooleanField(default=False)

    class Meta:
        ordering = ("table", "chair")
        constraints = [
            models.UniqueConstraint(fields=("table", "chair"), name="friendseat_once_per_chair")
        ]

    def __str__(self) -> str:
        return f"chair {self.chair} of table {self.table_id}"

    @property
    def is_ai(self) -> bool:
        return bool(self.agent)
