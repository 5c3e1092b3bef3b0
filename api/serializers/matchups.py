"""Matchup runs over the API (read only): what a run played and its results by deck and by seat."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from rules.models import MatchupRun
from rules.selectors import matchup_run_report


class RateSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    ci_low = serializers.FloatField(help_text="Wilson 95% interval, low end.")
    ci_high = serializers.FloatField(help_text="Wilson 95% interval, high end.")


class DeckResultSerializer(RateSerializer):
    side = serializers.IntegerField(help_text="The deck's seat in the first game (0 for seat 1).")
    label = serializers.CharField()
    deck = serializers.IntegerField(allow_null=True, help_text="The deck's id (null if deleted).")
    agent = serializers.CharField()
    moved_first = serializers.IntegerField(
        allow_null=True, help_text="Games this deck moved first in (null: not recorded)."
    )
    first_wins = serializers.IntegerField(allow_null=True, help_text="Of those, games it won.")


class SeatResultSerializer(RateSerializer):
    seat = serializers.IntegerField(help_text="0 for the first seat, whoever sat there.")


class FirstPlayerSerializer(RateSerializer):
    games = serializers.IntegerField()


class TeamResultSerializer(RateSerializer):
    losses = serializers.IntegerField()


class MatchupReportSerializer(serializers.Serializer):
    games = serializers.IntegerField(help_text="Games played so far.")
    fixed_seats = serializers.BooleanField()
    by_deck = DeckResultSerializer(many=True, required=False)
    by_seat = SeatResultSerializer(many=True, required=False)
    first_player = FirstPlayerSerializer(allow_null=True, required=False)
    draws = serializers.IntegerField(required=False)
    team = TeamResultSerializer(required=False, help_text="Co-operative runs only.")


class MatchupRunSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    game = serializers.CharField(source="game.slug")
    title = serializers.CharField()
    status = serializers.CharField()
    games = serializers.IntegerField(help_text="Games the run plays.")
    played = serializers.IntegerField()
    seed = serializers.IntegerField()
    cooperative = serializers.BooleanField()
    fixed_seats = serializers.BooleanField(
        help_text="True: every deck kept its seat in every game; false: the seats rotated "
        "(game k seats side (s + k) mod N in seat s)."
    )
    agents = serializers.ListField(child=serializers.CharField(), help_text="Per side.")
    created_at = serializers.DateTimeField()
    report = serializers.SerializerMethodField()

    @extend_schema_field(MatchupReportSerializer)
    def get_report(self, run: MatchupRun) -> dict[str, Any]:
        return matchup_run_report(run)
