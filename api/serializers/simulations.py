"""Simulation jobs over the API: what a job is asked to play, what it is, and its results."""

from __future__ import annotations

from django.conf import settings
from rest_framework import serializers

from common.inputs import MAX_ID, MAX_INT32
from rules.lab.jobs import CREATABLE_KINDS
from rules.lab.selectors import simulation_job_games_played, simulation_job_pairing_count
from rules.metagame import MAX_DECKS, MAX_META_SHARE
from rules.models import SimulationJob


class RateSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    ci_low = serializers.FloatField(help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(help_text="Wilson 95% interval, high end.")


class SeatResultSerializer(RateSerializer):
    seat = serializers.IntegerField(help_text="0 for the first seat, whoever sat there.")


class MatchupDeckResultSerializer(RateSerializer):
    side = serializers.IntegerField(help_text="The deck's seat in the first game (0 for seat 1).")
    label = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    deck = serializers.IntegerField(allow_null=True, help_text="The deck's id.")
    agent = serializers.CharField()
    moved_first = serializers.IntegerField(
        allow_null=True, help_text="Games this deck moved first in (null: not recorded)."
    )
    first_wins = serializers.IntegerField(allow_null=True, help_text="Of those, games it won.")


class FirstPlayerSerializer(RateSerializer):
    games = serializers.IntegerField()


class TeamResultSerializer(RateSerializer):
    losses = serializers.IntegerField()


class MatchupReportSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games counted so far.")
    fixed_seats = serializers.BooleanField(
        help_text="True: every deck kept its seat in every game; false: the seats rotated "
        "(game k seats side (s + k) mod N in seat s)."
    )
    by_deck = MatchupDeckResultSerializer(many=True, required=False)
    by_seat = SeatResultSerializer(many=True, required=False)
    first_player = FirstPlayerSerializer(allow_null=True, required=False)
    draws = serializers.IntegerField(required=False)
    team = TeamResultSerializer(required=False, help_text="Co-operative matchups only.")


class SimulationCreateSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(
        choices=[str(kind) for kind in CREATABLE_KINDS],
        help_text="metagame: every pair of the decks (2 to 16 of one game; in a co-operative "
        "game each deck's own team plays the game instead); gauntlet: the first deck against "
        "each of the others (1 to 15; in a co-operative game, teamed with each); matchup: the "
        "decks at one table, as many as the game seats; doctor: the first deck's one-card swaps "
        "raced against the others (its gauntlet; team-mates in a co-operative game).",
    )
    decks = serializers.ListField(
        child=serializers.IntegerField(min_value=1, max_value=MAX_ID),
        min_length=1,
        max_length=MAX_DECKS,
        help_text="Deck ids: your own decks and public ones.",
    )
    games_per_pairing = serializers.IntegerField(
        min_value=1,
        max_value=MAX_INT32,
        help_text="Games every pairing plays (even in a competitive metagame and in a gauntlet; "
        "a matchup is one pairing; a doctor's: games a swap plays against each gauntlet deck in "
        "the first round, doubling each round). The job's total is limited by "
        "SIMULATION_MAX_GAMES and your quota.",
    )
    agent = serializers.CharField(
        required=False,
        max_length=40,
        help_text="The agent of every deck (default: the game's first, as on /matchups/).",
    )
    agents = serializers.ListField(
        child=serializers.CharField(max_length=40),
        required=False,
        max_length=MAX_DECKS,
        help_text="matchup only: one agent per deck, in the order of decks (instead of agent).",
    )
    players = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=8,
        help_text="Co-operative games: the team size of a one-deck matchup and of each deck's "
        "team in a metagame (default 2).",
    )
    fixed_seats = serializers.BooleanField(
        required=False,
        help_text="matchup only: every deck keeps its seat in every game (the first deck always "
        "sits first); by default the seats rotate from game to game.",
    )
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_INT32, help_text="Default: a random seed."
    )
    chunk_size = serializers.IntegerField(
        required=False,
        min_value=1,
        max_value=MAX_INT32,
        help_text=f"Games a chunk (a worker's task); default {settings.SIMULATION_CHUNK_GAMES}.",
    )
    swaps = serializers.IntegerField(
        required=False, min_value=1, max_value=64, help_text="doctor: swaps raced at most (16)."
    )
    top = serializers.IntegerField(
        required=False, min_value=1, max_value=16, help_text="doctor: swaps in the last round (3)."
    )
    cards_in = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        max_length=64,
        help_text="doctor: only these cards are tried as the card put in (default: the cards of "
        "the deck and of its gauntlet).",
    )
    cards_out = serializers.ListField(
        child=serializers.CharField(max_length=200),
        required=False,
        max_length=64,
        help_text="doctor: only these cards of the deck are tried as the card taken out.",
    )
    meta_shares = serializers.ListField(
        child=serializers.FloatField(min_value=0, max_value=MAX_META_SHARE),
        required=False,
        max_length=MAX_DECKS,
        help_text="metagame: each deck's share of the field, in the order of decks; gauntlet: "
        "one per opponent (decks after the first). Any scale, default equal. Field and "
        "overall win rates weigh the opponents by these.",
    )


class JobDeckSerializer(serializers.Serializer):
    deck = serializers.IntegerField(allow_null=True, help_text="The deck's id.")
    name = serializers.CharField()
    label = serializers.CharField(help_text="Its name in the results (the id added to twins).")  # type: ignore[assignment]  # stubs: declared fields leave the class
    version = serializers.IntegerField(help_text="The deck's version when the job started.")


class SimulationJobSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=SimulationJob.Kind.choices)
    game = serializers.CharField(source="game.slug")
    status = serializers.ChoiceField(choices=SimulationJob.Status.choices)
    decks = JobDeckSerializer(many=True)
    pairings = serializers.SerializerMethodField(help_text="Pairings the job plays.")
    meta_shares = serializers.ListField(
        child=serializers.FloatField(), help_text="As given (empty: equal shares)."
    )
    seed = serializers.IntegerField()
    games_total = serializers.IntegerField()
    games_done = serializers.IntegerField(help_text="Games of the chunks stored so far.")
    games_played = serializers.SerializerMethodField(
        help_text="Games played so far, game by game: games_done and the games of the chunks "
        "being played."
    )
    progress = serializers.SerializerMethodField(
        help_text="games_played / games_total, from 0 to 1."
    )
    chunk_size = serializers.IntegerField()
    chunk_count = serializers.IntegerField()
    chunks_done = serializers.IntegerField()
    worker = serializers.BooleanField(help_text="Played by Celery workers (else in-process).")
    error = serializers.CharField(help_text="Why a failed job failed.")
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True)
    finished_at = serializers.DateTimeField(allow_null=True)

    def get_pairings(self, job: SimulationJob) -> int:
        return simulation_job_pairing_count(job)

    def get_games_played(self, job: SimulationJob) -> int:
        # one read per job shown, for both fields (a finished job's needs none)
        played: dict[int, int] = self.__dict__.setdefault("_played", {})
        if job.pk not in played:
            played[job.pk] = simulation_job_games_played(job)
        return played[job.pk]

    def get_progress(self, job: SimulationJob) -> float:
        played = self.get_games_played(job)
        return played / job.games_total if job.games_total else 0.0


class SideResultSerializer(RateSerializer):
    deck = serializers.IntegerField(help_text="The deck's index in the job's decks.")
    label = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    agent = serializers.CharField()


class PairingResultSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    draws = serializers.IntegerField()
    sides = SideResultSerializer(many=True, help_text="In their seats of the pairing's game 0.")
    by_seat = SeatResultSerializer(many=True)


class MatrixCellSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    games = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(help_text="Wilson 95% interval, high end.")


class FieldRateSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    label = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    share = serializers.FloatField(help_text="Its meta share, normalised (the shares sum to 1).")
    games = serializers.IntegerField()
    win_rate = serializers.FloatField(
        allow_null=True, help_text="Its row's rates weighted by the other decks' shares."
    )
    ci_low = serializers.FloatField(allow_null=True)
    ci_high = serializers.FloatField(allow_null=True)


class MetagameSerializer(serializers.Serializer):
    labels = serializers.ListField(child=serializers.CharField())
    shares = serializers.ListField(child=serializers.FloatField())
    cells = serializers.ListField(
        child=serializers.ListField(child=MatrixCellSerializer(allow_null=True)),
        help_text="cells[i][j]: deck i against deck j (null on the diagonal and without games). "
        "cells[i][j].win_rate + cells[j][i].win_rate = 1 - draws / games.",
    )
    field = FieldRateSerializer(many=True)


class DoctorBaseSerializer(serializers.Serializer):
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(help_text="Wilson 95% interval, high end.")


class _DoctorSwapFields(serializers.Serializer):
    swap = serializers.IntegerField(help_text="The swap's index (POST it to apply_swap).")
    out = serializers.CharField(help_text="The card one copy of which is taken out.")
    zone = serializers.CharField(help_text="The zone of the deck the swap is made in.")
    source = serializers.CharField(  # type: ignore[assignment]  # stubs: declared fields leave the class
        allow_null=True,
        help_text="null: the card put in comes from outside the deck; else the zone of the deck "
        "it comes from, and the card taken out goes there (an exchange between zones).",
    )
    games = serializers.IntegerField(help_text="Games it played (each paired with the deck's).")
    rounds = serializers.IntegerField(help_text="Racing rounds it played.")
    wins = serializers.IntegerField()
    base_wins = serializers.IntegerField(help_text="The unchanged deck's wins in the same games.")
    delta = serializers.FloatField(help_text="Change in win rate (mean paired difference).")
    ci_low = serializers.FloatField(help_text="95% interval, corrected for every swap tried.")
    ci_high = serializers.FloatField()
    significant = serializers.BooleanField(help_text="The whole interval is above 0.")


# "in" is a Python keyword: the field is declared by name
DoctorSwapSerializer = type(
    "DoctorSwapSerializer",
    (_DoctorSwapFields,),
    {"in": serializers.CharField(help_text="The card put in instead."), "__module__": __name__},
)


class DoctorScreenSerializer(serializers.Serializer):
    pairs = serializers.IntegerField(help_text="Swaps of a card for one of its type looked at.")
    screened = serializers.IntegerField(help_text="Of those, validated.")
    illegal = serializers.IntegerField()
    no_effect = serializers.IntegerField(help_text="Legal, but the engine plays the same.")
    kept = serializers.IntegerField(help_text="Raced.")


class DoctorReportSerializer(serializers.Serializer):
    tried = serializers.IntegerField(help_text="Swaps raced (the Bonferroni correction's count).")
    alpha = serializers.FloatField()
    correction = serializers.CharField()
    base = DoctorBaseSerializer()
    best = DoctorSwapSerializer(many=True, help_text="The last round's swaps, best first.")
    raced = DoctorSwapSerializer(many=True, help_text="Every swap raced, by index.")
    screen = DoctorScreenSerializer()


class CardRateSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games (of this deck) counted.")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(allow_null=True, help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(allow_null=True, help_text="Wilson 95% interval, high end.")


class RateRowSerializer(serializers.Serializer):
    deck = serializers.IntegerField(help_text="The opponent's, partner's or team's deck index.")
    label = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    share = serializers.FloatField(help_text="Its weight in the overall rate (shares sum to 1).")
    games = serializers.IntegerField()
    wins = serializers.IntegerField()
    losses = serializers.IntegerField()
    draws = serializers.IntegerField()
    win_rate = serializers.FloatField(allow_null=True)
    ci_low = serializers.FloatField(allow_null=True, help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(allow_null=True, help_text="Wilson 95% interval, high end.")


class RateTableSerializer(serializers.Serializer):
    hero = serializers.CharField(
        allow_null=True, help_text="A gauntlet's deck (null for a co-operative field)."
    )
    cooperative = serializers.BooleanField(
        help_text="True: a win is the team's against the game (rows are partners or teams)."
    )
    rows = RateRowSerializer(many=True)
    games = serializers.IntegerField()
    win_rate = serializers.FloatField(
        allow_null=True, help_text="The rows' win rates weighted by their shares."
    )
    ci_low = serializers.FloatField(allow_null=True)
    ci_high = serializers.FloatField(allow_null=True)


class CardFiguresSerializer(serializers.Serializer):
    deck = serializers.IntegerField(help_text="The deck's index in the job's decks.")
    label = serializers.CharField()  # type: ignore[assignment]  # stubs: declared fields leave the class
    card = serializers.CharField()
    drawn = CardRateSerializer(help_text="Games its player drew it (or played it).")
    played = CardRateSerializer(help_text="Games its player played it.")
    unseen = CardRateSerializer(help_text="Games it stayed in the deck, never seen.")
    improvement_when_drawn = serializers.FloatField(
        allow_null=True, help_text="Win rate drawn minus win rate not seen."
    )


class SimulationReportSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games counted (all of them once done).")
    pairings = PairingResultSerializer(many=True)
    metagame = MetagameSerializer(
        required=False, allow_null=True, help_text="Metagame jobs of a competitive game."
    )
    team_field = RateTableSerializer(
        required=False,
        allow_null=True,
        help_text="Metagame jobs of a co-operative game: each deck's team win rate.",
    )
    gauntlet = RateTableSerializer(
        required=False,
        allow_null=True,
        help_text="Gauntlet jobs: the first deck against (or with) each other deck.",
    )
    doctor = DoctorReportSerializer(
        required=False, allow_null=True, help_text="Doctor jobs: the swaps raced so far."
    )
    matchup = MatchupReportSerializer(
        required=False,
        help_text="Matchup jobs: by deck (with how often each moved first and won then), by "
        "seat, whoever moved first, the draws; a co-operative table's team result.",
    )
    cards = CardFiguresSerializer(
        many=True,
        required=False,
        help_text="Matchup, gauntlet and metagame jobs: per deck and card, its win rate when drawn, played "
        "and not seen (17lands' figures). Every game's engine reports the cards drawn and played, "
        "each in its own terms (Regality vs Religion's tiles, Reign Absolute's units: see "
        "docs/doctor.md); empty before any game is played.",
    )


class SimulationResultsSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    status = serializers.ChoiceField(choices=SimulationJob.Status.choices)
    complete = serializers.BooleanField(
        help_text="True once done; else the figures count the chunks stored so far."
    )
    report = SimulationReportSerializer()


class SharesQuerySerializer(serializers.Serializer):
    shares = serializers.RegexField(
        r"^\s*[0-9]+(\.[0-9]+)?(\s*,\s*[0-9]+(\.[0-9]+)?)*\s*$",
        required=False,
        max_length=400,
        help_text="A metagame's meta shares to weigh the field by instead of the job's own: one "
        "number per deck, comma-separated, in the order of the job's decks (e.g. 2,1,1).",
        error_messages={"invalid": "Give comma-separated numbers of 0 or more, one per deck."},
    )

    def validate_shares(self, value: str) -> list[float]:
        return [float(part) for part in value.split(",")]


class DoctorApplySerializer(serializers.Serializer):
    swap = serializers.IntegerField(
        min_value=0, max_value=MAX_INT32, help_text="The swap's index in the results."
    )


class DoctorAppliedSerializer(serializers.Serializer):
    deck = serializers.IntegerField()
    version = serializers.IntegerField(help_text="The deck's new version, with the swap made.")


class MatrixExportSerializer(SharesQuerySerializer):
    kind = serializers.ChoiceField(choices=["json", "csv"], default="json")
