"""Shapes of the leaderboard, player and group endpoints (responses are built as dicts; these
serializers validate request bodies and describe every shape in the OpenAPI schema)."""

from __future__ import annotations

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.web.fields import StrictCharField, no_control_characters

from ..models import Group


class BoardInfoSerializer(serializers.Serializer):
    preset = serializers.CharField()
    options = serializers.ListField(child=serializers.CharField(), help_text="options on")
    key = serializers.CharField(help_text="the board's rules key, e.g. easthaven+partial_runs")
    kind = serializers.ChoiceField(choices=["daily", "weekly", "all-time"])
    period = serializers.CharField(help_text="YYYY-MM-DD, YYYY-Www or 'all'")
    group = serializers.IntegerField(allow_null=True)
    frozen = serializers.BooleanField(help_text="daily: the day is over and its ranks stored")


class DailyEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    won = serializers.BooleanField()
    foundation_cards = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="every applied move; each undo counts one more")
    seconds = serializers.FloatField(help_text="server-measured, start to finish")
    undos = serializers.IntegerField()
    finished_at = serializers.DateTimeField()


class TotalEntrySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    wins = serializers.IntegerField()
    points = serializers.IntegerField(help_text="100 per win, the foundation cards of a loss")
    plays = serializers.IntegerField()


class DailyPageSerializer(serializers.Serializer):
    board = BoardInfoSerializer()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = DailyEntrySerializer(many=True)


class TotalPageSerializer(serializers.Serializer):
    board = BoardInfoSerializer()
    next = serializers.URLField(allow_null=True)
    previous = serializers.URLField(allow_null=True)
    results = TotalEntrySerializer(many=True)


class PresetStatsSerializer(serializers.Serializer):
    preset = serializers.CharField()
    plays = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()


class BestRankSerializer(serializers.Serializer):
    board = serializers.CharField()
    rank = serializers.IntegerField()
    date = serializers.DateField()


class BestResultSerializer(serializers.Serializer):
    board = serializers.CharField()
    date = serializers.DateField()
    won = serializers.BooleanField()
    foundation_cards = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()


class ProfileSerializer(serializers.Serializer):
    username = serializers.CharField()
    plays = serializers.IntegerField(help_text="ranked daily plays that ended")
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    presets = PresetStatsSerializer(many=True)
    current_streak = serializers.IntegerField(
        help_text="consecutive UTC days up to today (or yesterday) with a won daily"
    )
    best_streak = serializers.IntegerField()
    last_win_date = serializers.DateField(allow_null=True)
    best_ranks = BestRankSerializer(many=True, help_text="best rank on each board's past days")
    best_results = BestResultSerializer(many=True)


class GroupCreateSerializer(serializers.Serializer):
    name = StrictCharField(max_length=80, trim_whitespace=True, validators=[no_control_characters])


class GroupJoinSerializer(serializers.Serializer):
    code = StrictCharField(max_length=16, trim_whitespace=True)


class GroupSerializer(serializers.ModelSerializer):
    owner = serializers.CharField(source="owner.username", allow_null=True, default=None)
    members_count = serializers.IntegerField(read_only=True)

    class Meta:
        model = Group
        fields = ["id", "name", "code", "owner", "members_count", "created_at"]


class GroupMemberSerializer(serializers.Serializer):
    username = serializers.CharField()
    joined_at = serializers.DateTimeField()


class GroupDetailSerializer(GroupSerializer):
    members = serializers.SerializerMethodField()

    class Meta(GroupSerializer.Meta):
        fields = [*GroupSerializer.Meta.fields, "members"]

    @extend_schema_field(GroupMemberSerializer(many=True))
    def get_members(self, group: Group) -> list[dict]:
        rows = group.memberships.select_related("player").order_by("joined_at", "id")
        return GroupMemberSerializer(
            [{"username": m.player.username, "joined_at": m.joined_at} for m in rows], many=True
        ).data


class GroupListSerializer(serializers.Serializer):
    results = GroupSerializer(many=True)
