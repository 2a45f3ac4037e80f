"""Tournaments sit on top of games, leaderboard and fair play: they read scores and hear
the leaderboard's signals (a seeded tournament: the games app's ``play_finished`` and fair
play's decisions); nothing below imports them."""

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
        self._seeded()

    def _seeded(self) -> None:
        """The seeded tournaments' own deals: prepared once saved; refused for practice
        while live, their plays closed at the end (games' event-deal registry); their plays
        and fair play's decisions heard."""
        from django.db.models.signals import post_save

        from fairplay.models import ReviewDecision
        from games import events
        from games.models import Play
        from games.signals import play_finished

        from .models import Tournament
        from .receivers import on_decision, on_play_finished, on_tournament_saved
        from .seeding import EVENT_DEALS

        events.register(EVENT_DEALS)
        post_save.connect(on_tournament_saved, sender=Tournament, dispatch_uid="tournaments.deal")
        play_finished.connect(on_play_finished, sender=Play, dispatch_uid="tournaments.play")
        post_save.connect(on_decision, sender=ReviewDecision, dispatch_uid="tournaments.fairplay")
