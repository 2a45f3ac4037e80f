"""One account per name: the normalised key of every username, unique (games.accounts).

Existing users get their key here. Should two existing names share a key (registered
before this check existed), the oldest account keeps the key and each later one gets
``<key>#<id>``: ``#`` is never part of a username, so no new name can ever match it, and
those accounts still sign in by their exact name.
"""

import unicodedata

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def name_key(name):
    # A frozen copy of games.accounts.name_key: a migration must not change with the code.
    return unicodedata.normalize("NFKC", unicodedata.normalize("NFKC", name).casefold())


def add_keys(apps, schema_editor):
    users = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    account_names = apps.get_model("games", "AccountName")
    taken = set()
    rows = []
    for pk, name in users.objects.order_by("pk").values_list("pk", "username").iterator():
        key = name_key(name)
        if key in taken:
            key = f"{key}#{pk}"
        taken.add(key)
        rows.append(account_names(user_id=pk, key=key))
    account_names.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0002_drop_redundant_indexes"),
    ]

    operations = [
        migrations.CreateModel(
            name="AccountName",
            fields=[
                (
                    "user",
                    models.OneToOneField(
                        on_delete=django.db.models.deletion.CASCADE,
                        primary_key=True,
                        related_name="account_name",
                        serialize=False,
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
                ("key", models.CharField(max_length=600, unique=True)),
            ],
        ),
        migrations.RunPython(add_keys, migrations.RunPython.noop),
    ]
