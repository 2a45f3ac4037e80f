"""Admin for the solver's results: read-only (they are the solver's, or a CSV's, never
edited by hand).  Hint answers are not listed: their keys are functions of hidden cards."""

from __future__ import annotations

from django.contrib import admin
from django.http import HttpRequest

from .models import DealResult


@admin.register(DealResult)
class DealResultAdmin(admin.ModelAdmin):
    list_display = ("preset", "options", "seed", "budget", "verdict", "seconds", "solver_version")
    list_filter = ("preset", "options", "budget", "verdict", "solver_version")
    search_fields = ("seed",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False
