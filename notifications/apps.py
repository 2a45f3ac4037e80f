"""The notification outbox (docs/operations/notifications.md).

It listens to ``games.signals.deal_prepared`` and ``leaderboard.signals.score_recorded``;
neither app imports it. The evening streak warning and today's announcement come from beat.
"""

from django.apps import AppConfig


class NotificationsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "notifications"
    verbose_name = "Notifications"

    def ready(self) -> None:
        from accounts.registry import register_part
        from games.models import Deal
        from games.signals import deal_prepared
        from leaderboard.models import Score
        from leaderboard.signals import score_recorded

        from . import outbox, receivers

        deal_prepared.connect(
            receivers.on_deal_prepared, sender=Deal, dispatch_uid="notifications.daily_ready"
        )
        score_recorded.connect(
            receivers.on_score_recorded, sender=Score, dispatch_uid="notifications.friend_beat"
        )
        # A deleted account's undelivered events go with it (sent rows age out).
        register_part("notifications", delete=outbox.forget_player)
