"""Operators create tournaments here (a group owner uses the API); the same checks apply.
A seeded tournament's own deal is queued for preparation once it is saved
(``receivers.on_tournament_saved``)."""

from typing import Any

from django import forms
from django.contrib import admin

from config.errors import DomainError

from . import seeding, services
from .models import Entry, Standing, Tournament

#: What a seeded tournament's prepared deal was made for.
DEAL_FIELDS = ("preset", "options", "deal_rule")


class TournamentForm(forms.ModelForm):
    class Meta:
        model = Tournament
        fields = [
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
            "owner",
            "group",
        ]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if self.errors:
            return data
        try:
            board, join_until, options = services.validate(dict(data))
        except DomainError as error:
            raise forms.ValidationError(error.detail) from error
        if self.instance.pk and seeding.own_deal(self.instance) is not None:
            # Its entrants may already be playing the deal prepared for these rules.
            wanted = {**data, "options": options}
            changed = [f for f in DEAL_FIELDS if wanted.get(f) != getattr(self.instance, f)]
            if changed:
                raise forms.ValidationError(
                    f"Its deal is prepared: {', '.join(changed)} can no longer change."
                )
        self.instance.board = board
        data["join_until"], data["options"] = join_until, options
        return data


class EntryInline(admin.TabularInline):
    model = Entry
    extra = 0
    raw_id_fields = ["player"]


@admin.register(Tournament)
class TournamentAdmin(admin.ModelAdmin):
    form = TournamentForm
    list_display = [
        "name",
        "preset",
        "deal_rule",
        "starts_at",
        "ends_at",
        "max_players",
        "scoring",
        "frozen_at",
    ]
    list_filter = ["preset", "deal_rule", "scoring"]
    raw_id_fields = ["owner", "group"]
    inlines = [EntryInline]


@admin.register(Standing)
class StandingAdmin(admin.ModelAdmin):
    list_display = ["tournament", "rank", "player", "points", "wins", "plays"]
    list_filter = ["tournament"]
    raw_id_fields = ["player"]
