"""What the rules lab stores: simulation jobs (matchups, gauntlets, metagames and the doctor's
races: chunks of games played by any number of workers, each stored once, with a lease on each
chunk being played) and the games people play against agents."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.db import models


class SimulationJob(models.Model):
    """Many games between decks, cut into chunks that workers play independently.

    One model for every kind of job: a ``matchup`` (decks of one table, one pairing), a
    ``metagame`` (every pair of 2-16 decks, a round robin), a ``gauntlet`` (one deck
    against several) and a ``doctor`` (a deck's one-card swaps against a gauntlet): each is a list
    of ``pairings`` (an engine setup, its agents and its number of games) captured when the job is
    created, so editing a deck later never changes a job. Games are numbered across the whole job
    (pairing by pairing); game ``g`` is seeded from ``seed`` and ``g`` alone, and chunk ``c`` plays
    games ``c * chunk_size`` up to the next chunk's first, so the results never depend on the chunk
    size, on how many workers played the chunks or in what order they finished.
    """

    class Kind(models.TextChoices):
        MATCHUP = "matchup", "Matchup"
        GAUNTLET = "gauntlet", "Gauntlet"
        METAGAME = "metagame", "Metagame"
        DOCTOR = "doctor", "Deck doctor"

    class Status(models.TextChoices):
        QUEUED = "queued", "Queued"
        RUNNING = "running", "Running"
        DONE = "done", "Done"
        FAILED = "failed", "Failed"
        CANCELLED = "cancelled", "Cancelled"

    kind = models.CharField(max_length=10, choices=Kind.choices)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        on_delete=models.CASCADE,
        null=True,
        blank=True,
        related_name="simulation_jobs",
    )
    session_key = models.CharField(
        max_length=40, blank=True, help_text="The anonymous visitor's session that owns the job."
    )
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="+")
    decks = models.JSONField(
        default=list,
        help_text='The decks of the job, at its start: {"deck" (id), "name", "label", "version", '
        '"hash"}; pairings name them by their index in this list.',
    )
    pairings = models.JSONField(
        default=list,
        help_text='Per pairing: {"sides" (the deck index of each side, in its seat of the '
        'pairing\'s first game), "agents" (per side), "setup" (the engine setup), "games", and '
        '"fixed_seats" where every side keeps its seat in every game (else seats rotate)}.',
    )
    meta_shares = models.JSONField(
        default=list, help_text="Per deck, its share of the field (metagame jobs; any scale)."
    )
    doctor = models.JSONField(
        default=dict,
        blank=True,
        help_text="Doctor jobs: the deck's records, the gauntlet's, the screened swaps, the "
        "racing schedule and the games of each round (rules.doctor); empty for other kinds.",
    )
    seed = models.BigIntegerField()
    games_total = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField(
        help_text="Games a chunk plays (the last may be short)."
    )
    chunk_count = models.PositiveIntegerField()
    chunks_done = models.PositiveIntegerField(default=0, help_text="Chunks stored so far.")
    games_done = models.PositiveIntegerField(default=0, help_text="Games of the stored chunks.")
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.QUEUED)
    worker = models.BooleanField(
        default=False, help_text="Played by Celery workers (else in-process, in a thread)."
    )
    aggregate = models.JSONField(
        default=dict,
        help_text='Once done: {"pairings": [totals per pairing]}, added up in chunk (= game) order.',
    )
    error = models.TextField(blank=True)
    legacy_run = models.PositiveIntegerField(
        null=True,
        blank=True,
        unique=True,
        help_text="The id of the matchup run this job was carried over from (migration 0009), "
        "so that the run's old /matchups/<id>/ links find it; empty for every job since.",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-created_at", "-pk")
        indexes = [
            models.Index(fields=("owner", "-created_at"), name="simjob_owner_idx"),
            models.Index(fields=("session_key", "-created_at"), name="simjob_session_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} of {len(self.decks)} decks ({self.games_total} games)"

    @property
    def finished(self) -> bool:
        """Done, failed or cancelled: no chunk will be played any more."""
        return self.status in (self.Status.DONE, self.Status.FAILED, self.Status.CANCELLED)

    @property
    def labels(self) -> list[str]:
        """The name shown for each deck."""
        return [str(deck.get("label", "")) for deck in self.decks]

    @property
    def progress(self) -> float:
        """Games stored over games planned, from 0 to 1."""
        return self.games_done / self.games_total if self.games_total else 0.0


class SimulationChunk(models.Model):
    """One chunk's games, stored once: a re-delivered chunk finds its row and changes nothing."""

    job = models.ForeignKey(SimulationJob, on_delete=models.CASCADE, related_name="chunks")
    index = models.PositiveIntegerField()
    start = models.PositiveIntegerField(help_text="The job's number of the chunk's first game.")
    stop = models.PositiveIntegerField(help_text="One past the number of its last game.")
    totals = models.JSONField(
        default=dict, help_text="Pairing index (a string) to the counts of its games here."
    )
    outcomes = models.JSONField(
        default=list,
        help_text="Per game, in order: [pairing, winning side or null, actions, turns, end "
        "reason, side that moved first or null].",
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ("job", "index")
        constraints = [
            models.UniqueConstraint(fields=("job", "index"), name="simulationchunk_once_per_job")
        ]

    def __str__(self) -> str:
        return f"chunk {self.index} of job {self.job_id} (games {self.start}-{self.stop - 1})"


class SimulationChunkLease(models.Model):
    """A chunk being played now: how many of its games are played, and when its player last
    showed it is alive. A worker (or the in-process runner) takes the lease as it starts the
    chunk, moves ``beat_at`` while it plays and removes the lease with the chunk's stored row;
    a lease whose heartbeat stopped belongs to a dead player, and its chunk is played again."""

    job = models.ForeignKey(SimulationJob, on_delete=models.CASCADE, related_name="leases")
    index = models.PositiveIntegerField()
    games_played = models.PositiveIntegerField(
        default=0, help_text="Games of the chunk played so far by its current player."
    )
    beat_at = models.DateTimeField(help_text="The player's last heartbeat.")

    class Meta:
        ordering = ("job", "index")
        constraints = [
            models.UniqueConstraint(fields=("job", "index"), name="simulationlease_once_per_chunk")
        ]

    def __str__(self) -> str:
        return f"lease on chunk {self.index} of job {self.job_id} ({self.games_played} played)"


class PlayedGame(models.Model):
    """A game a signed-in player plays in the browser against an agent (``rules.play``).

    The position is never stored: it is the seed and setup replayed through ``actions`` (every
    action in order: the player's, the agent's and chance outcomes), so a resumed or replayed
    game is the game that was played. ``version`` counts the moves stored; a move posted for an
    older version (a double submit, a second tab) is refused instead of being applied twice.
    """

    class Status(models.TextChoices):
        ACTIVE = "active", "In play"
        FINISHED = "finished", "Finished"

    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="played_games"
    )
    game = models.ForeignKey("cards.Game", on_delete=models.PROTECT, related_name="+")
    setup: models.JSONField[Any] = models.JSONField()
    seed = models.BigIntegerField()
    #: per side: the deck's label, id and version when the game started (decks may change later)
    decks: models.JSONField[Any] = models.JSONField(default=list)
    #: an agent name or one of the game's difficulty levels ("easy", "normal", "hard")
    agent = models.CharField(max_length=20)
    #: the CPU milliseconds the agent thought over its last reply (every move of it); None
    #: until it has replied
    reply_ms = models.PositiveIntegerField(null=True, blank=True)
    #: the engine seat the player sits in; every other seat is played by ``agent``
    seat = models.PositiveSmallIntegerField(default=0)
    actions: models.JSONField[Any] = models.JSONField(default=list)
    version = models.PositiveIntegerField(default=0)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.ACTIVE)
    #: "won", "lost" or "draw" once finished; ``end_reason`` is the engine's code
    result = models.CharField(max_length=10, blank=True)
    end_reason = models.CharField(max_length=60, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ("-updated_at",)
        indexes = [models.Index(fields=("owner", "-updated_at"), name="playedgame_owner_idx")]

    def __str__(self) -> str:
        return f"{self.game_id} game {self.pk} of {self.owner_id}"
