from django.apps import AppConfig
from django.db.models.signals import post_save


class GamesConfig(AppConfig):
    """Deals, plays, moves and idempotency keys; the engine in ``games.engine`` is Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from django.conf import settings
        from django.db.models.signals import post_delete

        from .auth import forget_user

        # The move path caches whether a user is active (games.auth); a change drops it.
        user_model = settings.AUTH_USER_MODEL
        post_save.connect(forget_user, sender=user_model, dispatch_uid="games.auth.saved")
        post_delete.connect(forget_user, sender=user_model, dispatch_uid="games.auth.deleted")
        from django.contrib.auth import get_user_model

        from .accounts import keep_name_key

        post_save.connect(keep_name_key, sender=get_user_model(), dispatch_uid="name-key")

        from .api import web_layer

        # The shared web layer imports no app: the engine's refusals and the presets'
        # schema parts are the games app's to register.
        web_layer.register()

        from .instrumentation import connect as connect_metrics

        # Metrics from the app's signals (games.instrumentation; no-ops unless enabled).
        connect_metrics()
