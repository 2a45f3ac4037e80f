"""UUIDv7 play ids, and ``games_move`` partitioned by month of play id on PostgreSQL.

The conversion runs while the service serves (``atomic = False``: each step is its own
short transaction); ARCHITECTURE.md, "Growing the move log", and docs/operations/scaling.md:

1. the partitioned table is created beside the old one, with this month's partition, the
   month before and ``MOVELOG_PARTITIONS_AHEAD`` after (empty: no scan, no lock of the old
   table);
2. a ``CHECK`` that keeps the old table outside those months' range is added ``NOT VALID``
   (instant), the few old rows inside it (random UUIDv4 ids) move to their partitions, and
   the check is validated (``SHARE UPDATE EXCLUSIVE``: reads and writes go on meanwhile);
3. one short transaction locks the old table, hands its id sequence over, swaps the names
   and attaches the old table as the ``DEFAULT`` partition ``games_move_legacy``: the
   validated check proves its rows belong there, so nothing is scanned.

On SQLite the table stays plain: the conversion does nothing. Run again on a partitioned
table it only creates missing partitions. The reverse leaves the table partitioned (the
model is the same either way).
"""

import datetime as dt

from django.conf import settings
from django.db import migrations, models, transaction

import games.ids
from games.partitions import LEGACY, Month

NEW = "games_move_partitioned"


def _run(connection, *statements):
    """The statements (text, or text and parameters) in one transaction."""
    with transaction.atomic(using=connection.alias), connection.cursor() as cursor:
        for statement in statements:
            sql, params = statement if isinstance(statement, tuple) else (statement, None)
            cursor.execute(sql, params)


def _one(connection, sql, params=()):
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchone()


def partition_move_log(apps, schema_editor):
    connection = schema_editor.connection
    if connection.vendor != "postgresql":
        return
    kind = _one(connection, "SELECT relkind FROM pg_class WHERE oid = to_regclass('games_move')")
    if kind and kind[0] == "p":
        return  # converted already; the beat task keeps the months coming
    this = Month.of(dt.datetime.now(dt.UTC).date())
    months = [this.plus(n) for n in range(-1, settings.MOVELOG_PARTITIONS_AHEAD + 1)]
    low, high = months[0].bounds[0], months[-1].bounds[1]
    # 1. The partitioned table beside the old one. No primary key on id: a partitioned
    # table's unique keys must contain the partition key; (play_id, seq) is the real key.
    statements = [
        f"CREATE TABLE {NEW} (LIKE games_move INCLUDING DEFAULTS INCLUDING CONSTRAINTS) "
        "PARTITION BY RANGE (play_id)",
        f"ALTER TABLE {NEW} ALTER COLUMN id DROP DEFAULT",
        f"ALTER TABLE {NEW} ADD CONSTRAINT unique_move_seq_per_play_new UNIQUE (play_id, seq)",
        f"ALTER TABLE {NEW} ADD CONSTRAINT games_move_play_id_partitioned_fk FOREIGN KEY "
        "(play_id) REFERENCES games_play (id) DEFERRABLE INITIALLY DEFERRED",
        "CREATE SEQUENCE IF NOT EXISTS games_move_id_partitioned_seq",
    ]
    for month in months:
        a, b = month.bounds
        statements.append(
            f"CREATE TABLE {month.name} PARTITION OF {NEW} FOR VALUES FROM ('{a}') TO ('{b}')"
        )
    _run(connection, *statements)
    # 2. Keep the old table out of the months' range, move what is in it, validate.
    check = "games_move_legacy_outside_months"
    _run(
        connection,
        (
            f"ALTER TABLE games_move ADD CONSTRAINT {check} "
            "CHECK (play_id < %s OR play_id >= %s) NOT VALID",
            [low, high],
        ),
    )
    columns = "id, play_id, seq, move, text, reveals_hidden, state_hash, created_at"
    in_range = "play_id >= %s AND play_id < %s"
    _run(
        connection,
        (
            f"INSERT INTO {NEW} ({columns}) SELECT {columns} FROM games_move WHERE {in_range}",
            [low, high],
        ),
        (f"DELETE FROM games_move WHERE {in_range}", [low, high]),
    )
    _run(connection, f"ALTER TABLE games_move VALIDATE CONSTRAINT {check}")
    # 3. The swap, in one short transaction.
    _run(
        connection,
        "LOCK TABLE games_move IN ACCESS EXCLUSIVE MODE",
        "SELECT setval('games_move_id_partitioned_seq', "
        "GREATEST((SELECT max(id) FROM games_move), (SELECT max(id) FROM "
        f"{NEW}), 0) + 1, false)",
        "ALTER TABLE games_move ALTER COLUMN id DROP IDENTITY IF EXISTS",
        "ALTER TABLE games_move ALTER COLUMN id DROP DEFAULT",
        "DROP SEQUENCE IF EXISTS games_move_id_seq",  # a serial column's, if not an identity
        "ALTER TABLE games_move RENAME CONSTRAINT unique_move_seq_per_play "
        "TO games_move_legacy_play_seq",
        f"ALTER TABLE games_move RENAME TO {LEGACY}",
        f"ALTER INDEX IF EXISTS games_move_pkey RENAME TO {LEGACY}_pkey",
        f"ALTER TABLE {NEW} RENAME TO games_move",
        "ALTER TABLE games_move RENAME CONSTRAINT unique_move_seq_per_play_new "
        "TO unique_move_seq_per_play",
        "ALTER SEQUENCE games_move_id_partitioned_seq RENAME TO games_move_id_seq",
        "ALTER SEQUENCE games_move_id_seq OWNED BY games_move.id",
        "ALTER TABLE games_move ALTER COLUMN id SET DEFAULT nextval('games_move_id_seq')",
        f"ALTER TABLE games_move ATTACH PARTITION {LEGACY} DEFAULT",
    )


class Migration(migrations.Migration):
    atomic = False

    dependencies = [
        ("games", "0006_idempotencykey_to_web"),
    ]

    operations = [
        # The id's default is Python's, not the database's: state only (SQLite would
        # otherwise copy games_play into a new table for nothing).
        migrations.SeparateDatabaseAndState(
            state_operations=[
                migrations.AlterField(
                    model_name="play",
                    name="id",
                    field=models.UUIDField(
                        default=games.ids.uuid7, editable=False, primary_key=True, serialize=False
                    ),
                ),
            ],
        ),
        migrations.RunPython(partition_move_log, migrations.RunPython.noop, elidable=False),
    ]
