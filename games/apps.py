from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, plays, moves and idempotency keys; the engine in ``games.engine`` is Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"
