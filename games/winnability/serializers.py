"""Response shapes of the winnability app (the presets' field and the hint)."""

from __future__ import annotations

from rest_framework import serializers


class WinnabilitySerializer(serializers.Serializer):
    winnable_share = serializers.FloatField(
        allow_null=True, help_text="winnable share of the decided deals (0–1)"
    )
    winnable_ci95 = serializers.ListField(
        child=serializers.FloatField(), help_text="95 % Wilson interval of the share"
    )
    deals = serializers.IntegerField(help_text="decided deals (seeds) the share rests on")
    unknown = serializers.IntegerField(help_text="seeds the solver left undecided")
    solver_version = serializers.CharField()


class HintSerializer(serializers.Serializer):
    result = serializers.ChoiceField(
        choices=["move", "no_win_from_here", "unknown"],
        help_text="move: `move` is the next move of a winning line; no_win_from_here: the "
        "solver proved no win is left; unknown: not decided within the budget",
    )
    move = serializers.DictField(
        allow_null=True, help_text="the move, in the form of `legal_moves` and POST …/moves"
    )
    seq = serializers.IntegerField(help_text="the play's seq the hint is for")
    cached = serializers.BooleanField(help_text="answered from the hint cache")
    retry_after = serializers.FloatField(
        required=False,
        help_text="only with result unknown: a worker is solving the position with a longer "
        "budget; ask again after this many seconds",
    )
