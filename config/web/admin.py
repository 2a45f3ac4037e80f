from django.contrib import admin
from django.http import HttpRequest

from .models import IdempotencyKey


@admin.register(IdempotencyKey)
class IdempotencyKeyAdmin(admin.ModelAdmin):
    list_display = ("player", "key", "response_status", "created_at")
    search_fields = ("key", "player__username")
    readonly_fields = (
        "player",
        "key",
        "fingerprint",
        "response_status",
        "response_body",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
