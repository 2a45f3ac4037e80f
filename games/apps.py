from django.apps import AppConfig


class GamesConfig(AppConfig):
    """Deals, plays, moves and idempotency keys; the engine in ``games.engine`` is Django-free."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games"
    verbose_name = "Games"

    def ready(self) -> None:
        from . import account_data
        from .api import web_layer

        account_data.register()  # its part of an account's deletion and export

        # The shared web layer imports no app: the engine's refusals and the presets'
        # schema parts are the games app's to register.
        web_layer.register()
