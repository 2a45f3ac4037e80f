from django.apps import AppConfig


class WebConfig(AppConfig):
    """The shared web layer, a Django app for the one table it owns: the stored answers of
    idempotent requests (:class:`.models.IdempotencyKey`). It sits under every app and
    imports none; the apps register with it what it maps (``games.api.web_layer``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "config.web"
    label = "web"
    verbose_name = "Web layer"
