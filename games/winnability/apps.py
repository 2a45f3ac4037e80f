from django.apps import AppConfig


class WinnabilityConfig(AppConfig):
    """Winnability of every preset (bulk solving through Celery) and hints in practice plays.

    An app of its own (label ``winnability``) so its tables and migrations stand apart from
    ``games``'."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "games.winnability"
    label = "winnability"
    verbose_name = "Winnability"
