"""The admin's user forms, keyed like registration (``accounts.names``).

Django's own forms check a new name case-insensitively only, so an operator adding
``ａｌｉｃｅ`` next to ``alice`` would hit the unique name key as a 500; here it is a form
error, and a new name is stored in its NFKC form as the API stores it. Look-alikes
(``accounts.lookalikes``) are form errors too.
"""

from __future__ import annotations

from django import forms
from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.forms import AdminUserCreationForm, UserChangeForm

from . import lookalikes, names
from .models import AccountName


def _keyed(form: forms.ModelForm, name: str | None) -> str | None:
    if not name:
        return name  # Django's own check already refused it
    name = names.display_form(name)
    taken = AccountName.objects.filter(key=names.name_key(name))
    if form.instance.pk is not None:
        taken = taken.exclude(user_id=form.instance.pk)
    if taken.exists():
        raise forms.ValidationError("A user with a name of the same spelling already exists.")
    if lookalikes.mixes_scripts(name):
        raise forms.ValidationError("The name mixes scripts, so it could pass for another.")
    if names.look_alike(name, other_than=form.instance.pk) is not None:
        raise forms.ValidationError("A user with a name that looks the same already exists.")
    return name


class KeyedUserCreationForm(AdminUserCreationForm):
    def clean_username(self) -> str | None:
        return _keyed(self, super().clean_username())


class KeyedUserChangeForm(UserChangeForm):
    def clean_username(self) -> str | None:
        return _keyed(self, self.cleaned_data.get("username"))


class AccountAdmin(UserAdmin):
    add_form = KeyedUserCreationForm
    form = KeyedUserChangeForm


def register() -> None:
    """Replace the user model's admin (once, when the admin imports this module)."""
    users = get_user_model()
    if admin.site.is_registered(users):
        admin.site.unregister(users)
    admin.site.register(users, AccountAdmin)


register()  # admin.autodiscover imports this module once
