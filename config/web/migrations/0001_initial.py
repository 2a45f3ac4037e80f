"""The web layer's table of idempotent answers, taken over from the games app.

State only: the table was created by ``games`` 0001 as ``games_idempotencykey`` and keeps
that name and its rows (``db_table``); ``games`` 0004 dropped the model from the games
app's state first, so the two never both own it.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models


class Migration(migrations.Migration):
    initial = True

    dependencies = [
        ("games", "0006_idempotencykey_to_web"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.CreateModel(
                    name="IdempotencyKey",
                    fields=[
                        (
                            "id",
                            models.BigAutoField(
                                auto_created=True,
                                primary_key=True,
                                serialize=False,
                                verbose_name="ID",
                            ),
                        ),
                        ("key", models.CharField(max_length=255)),
                        ("fingerprint", models.CharField(max_length=64)),
                        ("response_status", models.PositiveSmallIntegerField()),
                        ("response_body", models.TextField()),
                        ("created_at", models.DateTimeField(auto_now_add=True, db_index=True)),
                        (
                            "player",
                            models.ForeignKey(
                                on_delete=django.db.models.deletion.CASCADE,
                                related_name="idempotency_keys",
                                to=settings.AUTH_USER_MODEL,
                            ),
                        ),
                    ],
                    options={
                        "db_table": "games_idempotencykey",
                        "constraints": [
                            models.UniqueConstraint(
                                fields=("player", "key"), name="unique_idempotency_key"
                            )
                        ],
                    },
                ),
            ],
            database_operations=[],
        ),
    ]
