from django.apps import AppConfig
from django.db.models.signals import post_save


class GamesConfig(AppConfig):
    """Deals, plays, moves and idempotency keys; the engine in ``games.engine`` is Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model

        from .accounts import keep_name_key

        post_save.connect(keep_name_key, sender=get_user_model(), dispatch_uid="name-key")
