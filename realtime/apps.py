"""The live streams hear the leaderboard's signals; no app imports this one."""

from django.apps import AppConfig


class RealtimeConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "realtime"
    verbose_name = "Live streams"

    def ready(self) -> None:
        from leaderboard.models import Score
        from leaderboard.signals import score_recorded, scores_moderated

        from .receivers import on_score_recorded, on_scores_moderated

        score_recorded.connect(on_score_recorded, sender=Score, dispatch_uid="realtime.score")
        scores_moderated.connect(
            on_scores_moderated, sender=Score, dispatch_uid="realtime.moderated"
        )
