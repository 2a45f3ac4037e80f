"""Leaderboards, scores, streaks and groups (depends on ``games``; ``games`` never on this)."""

from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "leaderboard"
    verbose_name = "Leaderboards"

    def ready(self) -> None:
        from config.redis_guard import breaker
        from games.models import Play
        from games.signals import play_finished

        from . import account_data, sweeper
        from .catchup import catch_up_in_background, sweep
        from .scores import on_play_finished

        sweeper.use(sweep)
        account_data.register()  # its part of an account's deletion and export

        play_finished.connect(on_play_finished, sender=Play, dispatch_uid="leaderboard.record_play")
        # Redis back after an outage: replay the scores its boards missed.
        breaker.on_recovery(catch_up_in_background)
