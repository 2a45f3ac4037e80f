"""Admin views of scores, totals, frozen days and groups (read-mostly: scores come from plays)."""

from django.contrib import admin

from .models import FrozenDay, Group, Membership, Score, Total


@admin.register(Score)
class ScoreAdmin(admin.ModelAdmin):
    list_display = (
        "board",
        "date",
        "player",
        "won",
        "foundation_cards",
        "moves",
        "seconds",
        "rank",
    )
    list_filter = ("board", "won", "date")
    search_fields = ("player__username",)
    raw_id_fields = ("play", "player")
    ordering = ("board", "-date", "sort_key")


@admin.register(Total)
class TotalAdmin(admin.ModelAdmin):
    list_display = ("board", "period", "player", "wins", "points", "plays")
    list_filter = ("board", "period")
    search_fields = ("player__username",)
    raw_id_fields = ("player",)


@admin.register(FrozenDay)
class FrozenDayAdmin(admin.ModelAdmin):
    list_display = ("board", "date", "entries", "frozen_at")
    list_filter = ("board",)


class MembershipInline(admin.TabularInline):
    model = Membership
    raw_id_fields = ("player",)
    extra = 0


@admin.register(Group)
class GroupAdmin(admin.ModelAdmin):
    list_display = ("name", "code", "owner", "created_at")
    search_fields = ("name", "code", "owner__username")
    raw_id_fields = ("owner",)
    inlines = [MembershipInline]
