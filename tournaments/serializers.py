"""The tournament API's bodies."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import serializers

from .models import DealRule, Scoring, Tournament
from .standings import entrants


class PlaceSerializer(serializers.Serializer):
    rank = serializers.IntegerField(help_text="0: no counted play yet")
    username = serializers.CharField()
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField()
    moves = serializers.IntegerField(allow_null=True, help_text="fewest moves of a win")


class TournamentSerializer(serializers.ModelSerializer):
    status = serializers.SerializerMethodField()
    entrants = serializers.SerializerMethodField()
    joined = serializers.SerializerMethodField()

    class Meta:
        model = Tournament
        fields = [
            "id",
            "name",
            "preset",
            "options",
            "deal_rule",
            "starts_at",
            "ends_at",
            "join_until",
            "max_players",
            "attempts",
            "scoring",
            "group",
            "status",
            "entrants",
            "joined",
        ]

    def get_status(self, tournament: Tournament) -> str:
        """upcoming, running, closed (awaiting its freeze) or final."""
        now = timezone.now()
        if tournament.frozen_at:
            return "final"
        if now < tournament.starts_at:
            return "upcoming"
        return "running" if now < tournament.ends_at else "closed"

    def get_entrants(self, tournament: Tournament) -> int:
        return entrants(tournament)

    def get_joined(self, tournament: Tournament) -> bool:
        user = self.context.get("user")
        return bool(user) and tournament.entries.filter(player_id=user.pk).exists()


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "standings"]

    def get_standings(self, tournament: Tournament) -> list[dict[str, Any]]:
        places = self.context.get("places", [])
        return PlaceSerializer([p.as_dict() for p in places], many=True).data


class TournamentListSerializer(serializers.Serializer):
    results = TournamentSerializer(many=True)


class TournamentCreateSerializer(serializers.Serializer):
    group = serializers.IntegerField(help_text="a group the caller owns; its members may join")
    name = serializers.CharField(max_length=80)
    preset = serializers.CharField(max_length=40)
    options = serializers.ListField(
        child=serializers.CharField(max_length=40), max_length=8, required=False, default=list
    )
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    join_until = serializers.DateTimeField(required=False, help_text="default: ends_at")
    max_players = serializers.IntegerField(min_value=2, max_value=1000, default=100)
    attempts = serializers.IntegerField(min_value=1, max_value=50, default=1)
    scoring = serializers.ChoiceField(choices=Scoring.choices, default=Scoring.BEST)
    deal_rule = serializers.ChoiceField(choices=DealRule.choices, default=DealRule.DAILY)
