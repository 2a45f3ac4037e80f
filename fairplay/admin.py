"""The review queue in the Django admin: a flagged play's evidence, its replay (each row with
its server-measured time and the cards it revealed) and the detectors' reasons; actions to
confirm, clear or ban. Every action goes through :mod:`fairplay.services`, which logs who
decided (:class:`ReviewDecision`, read-only here) and updates the boards.

Accounts flagged across their days (:mod:`fairplay.account_judgement`) have their own
queue, with the evidence day by day and the same decisions on the account as a whole.

The replay shows the play's own log and what it revealed: cards the player saw. The deck is
not shown (the games admin shows it once the day is public).
"""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest
from django.utils.html import format_html, format_html_join

from games.models import Move

from . import account_judgement, records, services
from .models import (
    AccountEvidence,
    Finding,
    PlayEvidence,
    RankedBan,
    Review,
    ReviewDecision,
)


def _table(headers: tuple[str, ...], rows: list[tuple[object, ...]]) -> str:
    head = format_html_join("", "<th>{}</th>", ((h,) for h in headers))
    body = format_html_join(
        "",
        "<tr>{}</tr>",
        ((format_html_join("", "<td>{}</td>", ((cell,) for cell in row)),) for row in rows),
    )
    return format_html("<table><thead><tr>{}</tr></thead><tbody>{}</tbody></table>", head, body)


@admin.register(Review)
class ReviewAdmin(admin.ModelAdmin):
    list_display = ("play_id", "player", "status", "flagged_at", "flagged_by")
    list_filter = ("status",)
    search_fields = ("player__username", "play__id")
    ordering = ("status", "flagged_at")
    readonly_fields = (
        "play",
        "player",
        "status",
        "flagged_at",
        "decided_at",
        "findings",
        "evidence",
        "replay",
        "decisions",
    )
    actions = ("confirm_selected", "clear_selected", "ban_selected_players")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="flagged by")
    def flagged_by(self, review: Review) -> str:
        rows = Finding.objects.filter(play_id=review.play_id, flagged=True)
        return ", ".join(rows.values_list("detector", flat=True))

    @admin.display(description="detectors")
    def findings(self, review: Review) -> str:
        rows = [
            (f.detector, f"{f.score:.3f}", "yes" if f.flagged else "no", f.reason)
            for f in Finding.objects.filter(play_id=review.play_id)
        ]
        return _table(("detector", "score", "flagged", "reason"), rows)

    @admin.display(description="evidence")
    def evidence(self, review: Review) -> str:
        ev = PlayEvidence.objects.filter(play_id=review.play_id).first()
        if ev is None:
            return "no evidence recorded"
        linked = (
            sorted(records.linked_reveals(review.play, ev))
            if ev.address_key or ev.device_key
            else []
        )
        rows = [
            ("account age at start (days)", f"{ev.account_age_days or 0:.2f}"),
            ("address key", ev.address_key[:16] or "purged or none"),
            ("device key", ev.device_key[:16] or "purged or none"),
            ("cards revealed, in order", " ".join(ev.reveal_order)),
            ("cards linked accounts revealed first", " ".join(linked) or "none"),
            ("analysed at", ev.analysed_at),
        ]
        return _table(("", ""), rows)

    @admin.display(description="replay")
    def replay(self, review: Review) -> str:
        ev = PlayEvidence.objects.filter(play_id=review.play_id).first()
        seconds = ev.move_seconds if ev is not None else []
        rows = [
            (seq, text, f"{seconds[i]:.2f}" if i < len(seconds) else "", "yes" if shown else "")
            for i, (seq, text, shown) in enumerate(
                Move.objects.filter(play_id=review.play_id)
                .order_by("seq")
                .values_list("seq", "text", "reveals_hidden")
            )
        ]
        return _table(("#", "move", "seconds", "revealed a card"), rows)

    @admin.display(description="decisions")
    def decisions(self, review: Review) -> str:
        rows = [
            (d.created_at, d.action, d.decided_by_name, d.note)
            for d in ReviewDecision.objects.filter(player_id=review.player_id)
        ]
        return _table(("at", "action", "by", "note"), rows)

    @admin.action(description="Confirm: keep the selected plays hidden")
    def confirm_selected(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        for review in queryset:
            services.confirm(review, request.user)
        self.message_user(request, f"{queryset.count()} play(s) confirmed", messages.SUCCESS)

    @admin.action(description="Clear: restore the selected plays to every board")
    def clear_selected(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        for review in queryset:
            services.clear(review, request.user)
        self.message_user(request, f"{queryset.count()} play(s) cleared", messages.SUCCESS)

    @admin.action(description="Ban the selected plays' players from ranked play")
    def ban_selected_players(self, request: HttpRequest, queryset: QuerySet[Review]) -> None:
        for review in queryset.select_related("player"):
            services.ban(review.player, request.user, review=review)
        self.message_user(request, "player(s) banned from ranked play", messages.SUCCESS)


@admin.register(RankedBan)
class RankedBanAdmin(admin.ModelAdmin):
    list_display = ("player", "created_at")
    search_fields = ("player__username",)
    readonly_fields = ("player", "created_at")
    actions = ("lift_selected",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # a ban comes from a review, so it is logged with its reason

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False  # lifted through the action, which logs it

    @admin.action(description="Lift the selected bans (scores stay hidden until cleared)")
    def lift_selected(self, request: HttpRequest, queryset: QuerySet[RankedBan]) -> None:
        for ban in queryset.select_related("player"):
            services.unban(ban.player, request.user)
        self.message_user(request, "ban(s) lifted", messages.SUCCESS)


@admin.register(ReviewDecision)
class ReviewDecisionAdmin(admin.ModelAdmin):
    list_display = ("created_at", "action", "player", "play_id", "decided_by_name")
    list_filter = ("action",)
    search_fields = ("player__username", "decided_by_name")
    readonly_fields = (
        "action",
        "play",
        "player",
        "decided_by",
        "decided_by_name",
        "note",
        "created_at",
    )

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(AccountEvidence)
class AccountEvidenceAdmin(admin.ModelAdmin):
    """The accounts whose evidence across days crossed the account's cut: the pooled
    statistics, the evidence day by day, and decisions on the account as a whole."""

    list_display = ("player", "status", "flagged_at", "reason")
    list_filter = ("status",)
    search_fields = ("player__username",)
    ordering = ("status", "flagged_at")
    readonly_fields = (
        "player",
        "status",
        "flagged_at",
        "decided_at",
        "reset_at",
        "reason",
        "pooled",
        "days",
        "decisions",
    )
    exclude = ("samples", "verdict")
    actions = ("confirm_selected", "clear_selected", "ban_selected_players")

    def get_queryset(self, request: HttpRequest) -> QuerySet[AccountEvidence]:
        return super().get_queryset(request).exclude(status="")  # never flagged: no review

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    @admin.display(description="pooled over the window")
    def pooled(self, account: AccountEvidence) -> str:
        rows = [(k, v) for k, v in account.verdict.items() if k != "days"]
        return _table(("statistic", "value"), rows)

    @admin.display(description="evidence day by day")
    def days(self, account: AccountEvidence) -> str:
        columns = ("day", "play", "reveal_z", "choice_z", "linked_z", "rhythm_z", "moves")
        rows = [
            tuple(day.get(c, "") for c in columns) + (day.get("perfect"), day.get("par_share"))
            for day in account.verdict.get("days", [])
        ]
        return _table((*columns, "perfect", "par share"), rows)

    @admin.display(description="decisions")
    def decisions(self, account: AccountEvidence) -> str:
        rows = [
            (d.created_at, d.action, d.decided_by_name, d.play_id or "account", d.note)
            for d in ReviewDecision.objects.filter(player_id=account.player_id)
        ]
        return _table(("at", "action", "by", "play", "note"), rows)

    @admin.action(description="Confirm: keep the selected accounts' flagged plays hidden")
    def confirm_selected(self, request: HttpRequest, queryset: QuerySet[AccountEvidence]) -> None:
        for account in queryset:
            account_judgement.confirm(account, request.user)
        self.message_user(request, f"{queryset.count()} account(s) confirmed", messages.SUCCESS)

    @admin.action(description="Clear: restore the selected accounts' plays, reset their evidence")
    def clear_selected(self, request: HttpRequest, queryset: QuerySet[AccountEvidence]) -> None:
        for account in queryset:
            account_judgement.clear(account, request.user)
        self.message_user(request, f"{queryset.count()} account(s) cleared", messages.SUCCESS)

    @admin.action(description="Ban the selected accounts from ranked play")
    def ban_selected_players(
        self, request: HttpRequest, queryset: QuerySet[AccountEvidence]
    ) -> None:
        for account in queryset.select_related("player"):
            services.ban(account.player, request.user, note="account flagged across days")
            account_judgement.confirm(account, request.user, "banned")
        self.message_user(request, "player(s) banned from ranked play", messages.SUCCESS)
