"""The IdempotencyKey model moves to the web layer's app (``config.web``, label ``web``).

State only: the table ``games_idempotencykey`` and its rows stay where they are, and
``web`` 0001 takes the model over under the same table name.
"""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0005_nameskeleton"),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[migrations.DeleteModel(name="IdempotencyKey")],
            database_operations=[],
        ),
    ]
