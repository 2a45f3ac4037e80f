"""Drop the foreign keys' single-column indexes that composite ones already cover, and give
``games_play`` room on its pages for the update every move makes.

* ``games_move(play_id)``: ``unique_move_seq_per_play (play_id, seq)`` leads with it;
* ``games_play(player_id)``: ``play_player_started_idx (player_id, started_at)``;
* ``games_play(deal_id)``: ``play_deal_status_idx (deal_id, status)``.

The indexes are dropped by name (``DROP INDEX IF EXISTS``) rather than by ``AlterField``'s
own SQL, which on PostgreSQL also drops and re-adds the foreign key constraints and so
re-validates every row of the move log.

``fillfactor = 70`` (PostgreSQL only): a move rewrites its play row; with free room on the
page the new version stays there and no index entry is written (a HOT update). It applies
to pages written from now on; ``VACUUM FULL games_play`` rewrites the old ones.
"""

import django.db.models.deletion
from django.conf import settings
from django.db import migrations, models

REDUNDANT = [
    ("games_move", "games_move_play_id_5acc3663"),
    ("games_play", "games_play_deal_id_af6cd24d"),
    ("games_play", "games_play_player_id_c955dbca"),
]
PLAY_FILLFACTOR = 70


def drop_indexes(apps, schema_editor):
    for _table, name in REDUNDANT:
        schema_editor.execute(f'DROP INDEX IF EXISTS "{name}"')


def restore_indexes(apps, schema_editor):
    for table, name in REDUNDANT:
        column = name.removeprefix(f"{table}_").rsplit("_", 1)[0]
        schema_editor.execute(f'CREATE INDEX IF NOT EXISTS "{name}" ON "{table}" ("{column}")')


def set_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(f"ALTER TABLE games_play SET (fillfactor = {PLAY_FILLFACTOR})")


def reset_fillfactor(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute("ALTER TABLE games_play RESET (fillfactor)")


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0001_initial"),
        migrations.swappable_dependency(settings.AUTH_USER_MODEL),
    ]

    operations = [
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="move",
                    name="play",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="moves",
                        to="games.play",
                    ),
                ),
                migrations.AlterField(
                    model_name="play",
                    name="deal",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.PROTECT,
                        related_name="plays",
                        to="games.deal",
                    ),
                ),
                migrations.AlterField(
                    model_name="play",
                    name="player",
                    field=models.ForeignKey(
                        db_index=False,
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="plays",
                        to=settings.AUTH_USER_MODEL,
                    ),
                ),
            ],
            database_operations=[migrations.RunPython(drop_indexes, restore_indexes)],
        ),
        migrations.RunPython(set_fillfactor, reset_fillfactor),
    ]
