"""Admin for deals, plays and moves: read-mostly, and careful with the secrets.

A deal's deck is shown only once it may be public (a daily deal whose UTC day is over, or a
practice deal); a play's full state never appears, only what the player sees. Logs and
states are never edited by hand: a changed state would no longer replay from its log.
"""

from __future__ import annotations

import json

from django.contrib import admin
from django.http import HttpRequest
from django.utils.html import format_html

from . import daily, services
from .models import Deal, Move, Play, Source


def _pretty(value: object) -> str:
    return format_html("<pre>{}</pre>", json.dumps(value, indent=1))


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "source", "preset", "date", "verdict", "par", "created_at")
    list_filter = ("source", "preset", "verdict")
    search_fields = ("id", "seed", "pysol_deal")
    date_hierarchy = "created_at"
    exclude = ("deck", "solution")
    readonly_fields = (
        "id",
        "preset",
        "options",
        "source",
        "seed",
        "pysol_deal",
        "date",
        "verdict",
        "par",
        "deck_if_public",
        "solution_if_public",
        "attempts",
        "solver_nodes",
        "solver_seconds",
        "created_at",
    )

    @admin.display(description="deck")
    def deck_if_public(self, deal: Deal) -> str:
        if deal.source == Source.DAILY and deal.date and deal.date >= daily.utc_today():
            return "hidden until the day is over"
        return " ".join(deal.deck)

    @admin.display(description="solution")
    def solution_if_public(self, deal: Deal) -> str:
        if deal.source == Source.DAILY and deal.date and deal.date >= daily.utc_today():
            return "hidden until the day is over"
        return _pretty(deal.solution)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


class MoveInline(admin.TabularInline):
    model = Move
    fields = ("seq", "text", "reveals_hidden", "created_at")
    readonly_fields = fields
    extra = 0
    can_delete = False
    ordering = ("seq",)

    def has_add_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Play)
class PlayAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "player",
        "preset",
        "ranked",
        "daily_date",
        "status",
        "seq",
        "foundation_cards",
        "moves_count",
        "started_at",
    )
    list_filter = ("status", "ranked", "preset")
    search_fields = ("id", "player__username")
    date_hierarchy = "started_at"
    raw_id_fields = ("player", "deal")
    exclude = ("state",)
    readonly_fields = (
        "id",
        "player",
        "deal",
        "preset",
        "options",
        "ranked",
        "daily_date",
        "seq",
        "started_at",
        "finished_at",
        "foundation_cards",
        "moves_count",
        "undos",
        "seconds",
        "visible",
    )
    inlines = [MoveInline]

    @admin.display(description="what the player sees")
    def visible(self, play: Play) -> str:
        return _pretty(services.visible_state(play))

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False


@admin.register(Move)
class MoveAdmin(admin.ModelAdmin):
    list_display = ("play", "seq", "text", "reveals_hidden", "created_at")
    search_fields = ("play__id",)
    raw_id_fields = ("play",)
    readonly_fields = ("play", "seq", "move", "text", "reveals_hidden", "state_hash", "created_at")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
