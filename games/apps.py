from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, plays, moves and idempotency keys; the engine in ``games.engine`` is Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete, post_save

        from .auth import forget_user

        # The move path caches whether a user is active (games.auth); a change drops it.
        user_model = settings.AUTH_USER_MODEL
        post_save.connect(forget_user, sender=user_model, dispatch_uid="games.auth.saved")
        post_delete.connect(forget_user, sender=user_model, dispatch_uid="games.auth.deleted")
