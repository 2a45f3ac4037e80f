"""The notification outbox (docs/operations/notifications.md).

It listens to ``games.signals.deal_prepared`` and ``leaderboard.signals.score_written``;
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
        from leaderboard.signals import score_written

        from . import outbox, receivers

        deal_prepared.connect(
            receivers.on_deal_prepared, sender=Deal, dispatch_uid="notifications.daily_ready"
        )
        score_written.connect(
            receivers.on_score_written, sender=Score, dispatch_uid="notifications.friend_beat"
        )
        # A deleted account's undelivered events go with it (sent rows age out).
        register_part("notifications", delete=outbox.forget_player)
