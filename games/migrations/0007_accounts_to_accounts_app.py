"""The account models (``AccountName``, ``NameSkeleton``) move to the accounts app.

State only: the tables ``games_accountname`` and ``games_nameskeleton`` and their rows stay
where they are, and ``accounts`` 0001 takes the models over under the same table names.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0006_idempotencykey_to_web"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.DeleteModel(name="AccountName"),
                migrations.DeleteModel(name="NameSkeleton"),
            ],
            database_operations=[],
        ),
    ]
