from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Accounts: one account per name, guests and their devices, sign-in and sign-out,
    deletion and export (each app contributes its part through ``accounts.registry``)."""

    default_auto_field = "django.db.models.BigAutoField"
    name = "accounts"
    verbose_name = "Accounts"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save

        from . import parts
        from .auth import forget_user
        from .names import keep_name_key

        # The move path caches whether a user is active (accounts.auth); a change drops it.
        users = get_user_model()
        post_save.connect(forget_user, sender=users, dispatch_uid="accounts.auth.saved")
        post_delete.connect(forget_user, sender=users, dispatch_uid="accounts.auth.deleted")
        post_save.connect(keep_name_key, sender=users, dispatch_uid="name-key")
        parts.register()  # the profile and device, first in an export
