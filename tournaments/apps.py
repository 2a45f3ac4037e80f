"""Tournaments sit on top of games, leaderboard and fair play: they read scores and hear
the leaderboard's signals; nothing below imports them."""

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from config.web.schema import PROPERTY_SCHEMAS, register_property_schema
        from leaderboard.models import Score

        from .serializers import OPTION_PATTERN

        # The body's rules as the groups' name and the presets' option names have them.
        name_rule = PROPERTY_SCHEMAS[("GroupCreateRequest", "name")]
        register_property_schema("TournamentCreateRequest", "name", name_rule)
        option = {"type": "string", "maxLength": 40, "pattern": OPTION_PATTERN}
        register_property_schema("TournamentCreateRequest", "options", {"items": option})
        from leaderboard.signals import score_recorded, scores_moderated

        from .receivers import on_score_recorded, on_scores_moderated

        score_recorded.connect(on_score_recorded, sender=Score, dispatch_uid="tournaments.score")
        scores_moderated.connect(
            on_scores_moderated, sender=Score, dispatch_uid="tournaments.moderated"
        )
