"""Fair play on ranked boards: evidence, detectors, flags and their review (docs/fair-play.md).

It sits above ``games`` and ``leaderboard`` (neither imports it): it hears about plays
through ``games.signals`` and hides or restores scores through ``leaderboard.moderation``.
"""

from django.apps import AppConfig


class FairPlayConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "fairplay"
    verbose_name = "Fair play"

    def ready(self) -> None:
        from games.models import Play
        from games.signals import play_finished, play_started, ranked_start_requested

        from . import receivers

        ranked_start_requested.connect(
            receivers.refuse_banned, sender=Play, dispatch_uid="fairplay.refuse_banned"
        )
        play_started.connect(receivers.on_play_started, sender=Play, dispatch_uid="fairplay.start")
        play_finished.connect(
            receivers.on_play_finished, sender=Play, dispatch_uid="fairplay.analyse"
        )
