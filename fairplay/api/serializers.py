"""Shapes of the replays endpoint (for the OpenAPI schema; the selector builds the body)."""

from __future__ import annotations

from rest_framework import serializers


class ReplayRowSerializer(serializers.Serializer):
    seq = serializers.IntegerField()
    move = serializers.JSONField(help_text="the move as it was sent (RULES.md)")
    text = serializers.CharField()
    seconds = serializers.FloatField(help_text="server-measured seconds since the play's start")


class ReplaySerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    username = serializers.CharField()
    won = serializers.BooleanField()
    foundation_cards = serializers.IntegerField()
    moves = serializers.IntegerField()
    seconds = serializers.FloatField()
    undos = serializers.IntegerField()
    log = ReplayRowSerializer(many=True)


class DailyReplaysSerializer(serializers.Serializer):
    date = serializers.DateField()
    preset = serializers.CharField()
    board = serializers.CharField(help_text="rules key: preset[+option…]")
    deck = serializers.ListField(child=serializers.CharField(), allow_null=True)
    par = serializers.IntegerField(allow_null=True)
    replays = ReplaySerializer(many=True)
