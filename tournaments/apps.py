"""Tournaments sit on top of games, leaderboard and fair play: they read scores and hear
the leaderboard's signals; nothing below imports them."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from leaderboard.models import Score
        from leaderboard.signals import score_recorded, scores_moderated

        from .receivers import on_score_recorded, on_scores_moderated

        score_recorded.connect(on_score_recorded, sender=Score, dispatch_uid="tournaments.score")
        scores_moderated.connect(
            on_scores_moderated, sender=Score, dispatch_uid="tournaments.moderated"
        )
