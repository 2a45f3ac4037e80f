"""The tournament API's bodies."""

from __future__ import annotations

from typing import Any

from django.core.validators import RegexValidator
from django.utils import timezone
from rest_framework import serializers

from config.web.fields import StrictCharField, no_control_characters
from games import engine
from games.api.serializers import PUBLIC_VERDICTS, MoveField

from .models import DealRule, Scoring, Tournament, TournamentDeal
from .standings import entrants

#: An option's name (as the presets spell them); the schema says so (TournamentsConfig).
OPTION_PATTERN = r"^[a-z0-9_]+$"
OPTION_NAME = RegexValidator(OPTION_PATTERN, "an option is a lowercase name")


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
    deal_ready = serializers.SerializerMethodField()

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
            "deal_ready",
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

    def get_deal_ready(self, tournament: Tournament) -> bool:
        """seeded: its own deal is prepared (``POST …/plays`` starts a play of it); daily:
        always (the day's daily deal is the deal)."""
        if tournament.deal_rule != DealRule.SEEDED:
            return True
        return TournamentDeal.objects.filter(tournament=tournament).exists()


class TournamentDetailSerializer(TournamentSerializer):
    standings = serializers.SerializerMethodField()

    class Meta(TournamentSerializer.Meta):
        fields = [*TournamentSerializer.Meta.fields, "standings"]

    def get_standings(self, tournament: Tournament) -> list[dict[str, Any]]:
        places = self.context.get("places", [])
        return PlaceSerializer([p.as_dict() for p in places], many=True).data


class TournamentDealSerializer(serializers.Serializer):
    """A seeded tournament's deal once it has ended, as a past daily's deal is shown."""

    tournament = serializers.IntegerField()
    id = serializers.UUIDField(help_text="the deal's id (a ranked play's ``deal``)")
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    verdict = serializers.ChoiceField(choices=PUBLIC_VERDICTS)
    par = serializers.IntegerField(allow_null=True, help_text="length of the shortest solution")
    deck = serializers.ListField(child=serializers.CharField(), help_text="dealt first to last")
    solution = serializers.ListField(child=MoveField(), help_text="a par solution")
    published_at = serializers.DateTimeField(help_text="the tournament's end")


class TournamentListSerializer(serializers.Serializer):
    results = TournamentSerializer(many=True)


class TournamentCreateSerializer(serializers.Serializer):
    group = serializers.IntegerField(help_text="a group the caller owns; its members may join")
    name = StrictCharField(max_length=80, trim_whitespace=True, validators=[no_control_characters])
    preset = serializers.ChoiceField(choices=sorted(engine.PRESETS))
    options = serializers.ListField(
        child=StrictCharField(max_length=40, validators=[OPTION_NAME]),
        max_length=8,
        required=False,
        default=list,
        help_text="the preset's options to switch on (unknown ones: invalid_tournament)",
    )
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField()
    join_until = serializers.DateTimeField(required=False, help_text="default: ends_at")
    max_players = serializers.IntegerField(min_value=2, max_value=1000, default=100)
    attempts = serializers.IntegerField(min_value=1, max_value=50, default=1)
    scoring = serializers.ChoiceField(choices=Scoring.choices, default=Scoring.BEST)
    deal_rule = serializers.ChoiceField(choices=DealRule.choices, default=DealRule.DAILY)
