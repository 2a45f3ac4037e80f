"""Request shapes and response documents of the games API.

Requests are checked for shape only; what a preset, option, deck or move *means* is the
engine's to judge (via the services). Responses that show a play are built from
``services.visible_state`` and never from the stored state, so no hidden card can leak.
The response serializers declare every field so the OpenAPI schema shows real shapes.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from config.web.fields import (
    StrictBooleanField,
    StrictCharField,
    StrictDateField,
    StrictIntegerField,
    is_card_token,
)
from config.web.openapi import MOVE_REF
from config.web.problems import Problem
from games.winnability.serializers import WinnabilitySerializer

from .. import daily, services
from ..models import Deal, Move, Play, PlayStatus, Verdict
from ..moving import MAX_BATCH

#: The verdicts a client sees: a deal not solved yet is shown as ``unknown``.
PUBLIC_VERDICTS = [
    (Verdict.WINNABLE.value, Verdict.WINNABLE.label),
    (Verdict.UNWINNABLE.value, Verdict.UNWINNABLE.label),
    (Verdict.UNKNOWN.value, Verdict.UNKNOWN.label),
]


@extend_schema_field(MOVE_REF)
class MoveField(serializers.JSONField):
    """A move in the API's form (``config.web.openapi.MOVE_COMPONENTS``: one union on
    ``type`` for requests, ``legal_moves``, solutions and logs); the engine parses it."""


@extend_schema_field(
    {
        "type": "string",
        "pattern": r"^(today|[0-9]{4}-[0-9]{2}-[0-9]{2})$",
        "example": "today",
    }
)
class DayField(StrictDateField):
    """A UTC date (exactly ``YYYY-MM-DD``, within the service's days), or ``today``."""

    def to_internal_value(self, value: Any) -> dt.date:
        if value == "today":
            return daily.utc_today()
        return super().to_internal_value(value)


# --- Presets and daily deals -----------------------------------------------------------------


class PresetSerializer(serializers.Serializer):
    name = serializers.CharField()
    title = serializers.CharField(help_text="in the response language")
    description = serializers.CharField(help_text="in the response language")
    rules = serializers.ListField(
        child=serializers.CharField(),
        help_text="a full rules summary, paragraphs of plain text in the response language",
    )
    options = serializers.DictField(
        child=serializers.BooleanField(), help_text="every option of the preset, with its default"
    )
    winnability = WinnabilitySerializer(
        allow_null=True, help_text="solver results over seeds, default options (null: none yet)"
    )


class PresetListSerializer(serializers.Serializer):
    presets = PresetSerializer(many=True)


class DailyDealSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    verdict = serializers.ChoiceField(choices=PUBLIC_VERDICTS)
    par = serializers.IntegerField(allow_null=True, help_text="length of the shortest solution")
    deck = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="only once the day is published"
    )
    solution = serializers.ListField(
        child=MoveField(), required=False, help_text="only once the day is published"
    )

    def to_representation(self, deal: Deal) -> dict[str, Any]:
        data: dict[str, Any] = {"id": str(deal.id), "verdict": deal.verdict or "unknown"}
        data["par"] = deal.par
        if self.context.get("day_over"):
            data["deck"] = list(deal.deck)
            data["solution"] = list(deal.solution)
        return data


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    deals = serializers.DictField(child=DailyDealSerializer(), help_text="keyed by preset")


# --- Plays -----------------------------------------------------------------------------------


class StartPlaySerializer(serializers.Serializer):
    """Exactly one of ``daily`` (ranked, today's UTC date), ``seed``, ``deck`` or
    ``pysol_deal`` (practice)."""

    SOURCES = ("daily", "seed", "deck", "pysol_deal")

    preset = StrictCharField(max_length=40, trim_whitespace=False)  # exact, like a card
    options = serializers.DictField(
        child=StrictBooleanField(), required=False, help_text='e.g. {"partial_runs": true}'
    )
    daily = DayField(
        required=False, help_text="today's UTC date, or `today`: a ranked play of its deal"
    )
    seed = StrictIntegerField(required=False, help_text="0 … 2**63 − 1")
    deck = serializers.ListField(
        child=StrictCharField(max_length=8, trim_whitespace=False),
        required=False,
        max_length=200,
        help_text="52 distinct cards, deck[0] dealt first, e.g. ['AS', 'TH', …]",
    )
    pysol_deal = StrictIntegerField(
        required=False, help_text="PySolFC game number: the same cards as that game"
    )

    def validate_deck(self, deck: list[str]) -> list[str]:
        # A card is an exact token; the engine's parser is more forgiving ("10h", " KC").
        if not all(is_card_token(card) for card in deck):
            raise Problem(
                400,
                "invalid_deck",
                "a deck is a list of 52 distinct cards, rank then suit, such as 'AS' or 'TH'",
            )
        return deck

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        given = [name for name in self.SOURCES if name in attrs]
        if len(given) != 1:
            raise serializers.ValidationError(
                {"non_field_errors": ["give exactly one of daily, seed, deck or pysol_deal"]}
            )
        return attrs


class ScoreSerializer(serializers.Serializer):
    foundation_cards = serializers.IntegerField()
    moves = serializers.IntegerField(help_text="every applied move; each undo counts one more")
    undos = serializers.IntegerField()
    seconds = serializers.FloatField(allow_null=True, help_text="server-measured, once finished")


class ColumnSerializer(serializers.Serializer):
    down = serializers.IntegerField(help_text="face-down cards under the face-up ones")
    up = serializers.ListField(child=serializers.CharField(), help_text="bottom first")


class PlaySummarySerializer(serializers.Serializer):
    """A play's metadata and score, without its cards."""

    id = serializers.UUIDField()
    preset = serializers.CharField()
    options = serializers.DictField(child=serializers.BooleanField())
    ranked = serializers.BooleanField()
    daily = serializers.DateField(allow_null=True, help_text="the UTC day of a ranked play")
    status = serializers.ChoiceField(choices=PlayStatus.choices)
    seq = serializers.IntegerField(help_text="number of moves applied so far")
    score = ScoreSerializer()
    started_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)

    def to_representation(self, play: Play) -> dict[str, Any]:
        return {
            "id": str(play.id),
            "preset": play.preset,
            "options": dict(play.options),
            "ranked": play.ranked,
            "daily": play.daily_date.isoformat() if play.daily_date else None,
            "status": play.status,
            "seq": play.seq,
            "score": {
                "foundation_cards": play.foundation_cards,
                "moves": play.moves_count,
                "undos": play.undos,
                "seconds": play.seconds,
            },
            "started_at": serializers.DateTimeField().to_representation(play.started_at),
            "finished_at": (
                serializers.DateTimeField().to_representation(play.finished_at)
                if play.finished_at
                else None
            ),
        }


class PlaySerializer(PlaySummarySerializer):
    """A play with its visible state (``engine.visible``) and, while playing, its legal moves."""

    tableau = ColumnSerializer(many=True)
    foundations = serializers.DictField(
        child=serializers.CharField(allow_null=True), help_text="top card per suit S, H, D, C"
    )
    cells = serializers.ListField(
        child=serializers.CharField(allow_null=True), required=False, help_text="seahaven only"
    )
    stock = serializers.IntegerField(help_text="cards left in the stock, never which")
    waste = serializers.ListField(
        child=serializers.CharField(), required=False, help_text="westcliff only, top last"
    )
    legal_moves = serializers.ListField(child=MoveField(), help_text="empty once the play is over")

    def to_representation(self, play: Play) -> dict[str, Any]:
        data = super().to_representation(play)
        data.update(services.visible_state(play))
        return data


class PlayMoveSerializer(serializers.Serializer):
    """The body of ``POST /plays/{id}/moves``: one ``move``, or ``moves``, a batch of 1–500
    (a client back online), applied in order in one transaction, all or nothing. Exactly one
    of the two. Each move is checked by the engine."""

    seq = StrictIntegerField(
        min_value=0,
        max_value=2**31 - 1,
        help_text="must equal the play's current seq (that of the first move)",
    )
    move = MoveField(required=False)
    moves = serializers.ListField(
        child=MoveField(),
        required=False,
        min_length=1,
        max_length=MAX_BATCH,
        help_text="instead of move: a batch, in order",
    )


class MoveBatchShapeSerializer(serializers.Serializer):
    """What the view checks of a batch before the engine parses each move (400 either way)."""

    seq = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
    moves = serializers.ListField(
        child=serializers.JSONField(allow_null=True), min_length=1, max_length=MAX_BATCH
    )


class MoveRequestShapeSerializer(serializers.Serializer):
    """What the view actually checks before the engine parses the move (400 either way)."""

    seq = StrictIntegerField(min_value=0, max_value=2**31 - 1, required=False)
    move = serializers.JSONField(allow_null=True)


class LoggedMoveSerializer(serializers.Serializer):
    seq = serializers.IntegerField(help_text="position in the log, from 0")
    move = MoveField()
    text = serializers.CharField(help_text="compact form, e.g. t3-t5x2, deal, undo")
    created_at = serializers.DateTimeField()

    def to_representation(self, row: Move) -> dict[str, Any]:
        return {
            "seq": row.seq,
            "move": row.move,
            "text": row.text,
            "created_at": serializers.DateTimeField().to_representation(row.created_at),
        }


class MoveLogSerializer(serializers.Serializer):
    play = serializers.UUIDField()
    moves = LoggedMoveSerializer(many=True)


class HealthSerializer(serializers.Serializer):
    status = serializers.ChoiceField(["ok", "degraded", "unavailable"])
    database = serializers.ChoiceField(["ok", "unavailable"])
    cache = serializers.ChoiceField(["ok", "unavailable"])
    throttles = serializers.CharField(
        required=False, help_text="`per-process` while Redis is unavailable"
    )
    leaderboards = serializers.CharField(
        required=False, help_text="`postgres` while Redis is unavailable"
    )
