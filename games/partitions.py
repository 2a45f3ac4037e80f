"""The move log's monthly partitions on PostgreSQL (ARCHITECTURE.md, "Growing the move log").

``games_move`` is ``PARTITION BY RANGE (play_id)``: play ids are UUIDv7 (``games.ids``), so
one partition per UTC month, ``games_move_yYYYYmMM``, bounded by the smallest UUIDv7 of the
month and of the next, holds the whole log of every play started in that month. Rows of
plays with older (UUIDv4) ids live in the default partition ``games_move_legacy``.

* ``ensure_partitions`` creates the partitions of this month and ``ahead`` more (idempotent).
  A default partition may hold a few legacy rows whose random ids fall in a new month's
  range: they move into the new partition in the same transaction, before it is attached.
* ``archive_partitions`` detaches the months older than the retention, writes each to a
  gzip CSV file (a stand-in for object storage), then drops it; never a month in which a
  ranked play is still open. ``DETACH … CONCURRENTLY`` needs a table without a default
  partition, so while ``games_move_legacy`` exists the detach is the plain one (a short
  exclusive lock of the parent; nothing is scanned).
* ``restore_month`` loads such a file back (creates the month's partition, then ``COPY``).

On SQLite ``games_move`` is a plain table and every function here does nothing.
"""

from __future__ import annotations

import datetime as dt
import gzip
import os
import re
import uuid
from dataclasses import dataclass
from pathlib import Path

from django.db import connection, transaction

from .ids import month_floor

PARENT = "games_move"
LEGACY = "games_move_legacy"
COLUMNS = "id, play_id, seq, move, text, reveals_hidden, state_hash, created_at"
_NAME = re.compile(r"^games_move_y(\d{4})m(\d{2})$")


@dataclass(frozen=True, order=True)
class Month:
    year: int
    month: int

    @classmethod
    def of(cls, day: dt.date) -> Month:
        return cls(day.year, day.month)

    @classmethod
    def from_name(cls, name: str) -> Month | None:
        match = _NAME.match(name)
        return cls(int(match[1]), int(match[2])) if match else None

    def plus(self, months: int) -> Month:
        index = self.year * 12 + self.month - 1 + months
        return Month(index // 12, index % 12 + 1)

    @property
    def name(self) -> str:
        return f"games_move_y{self.year:04d}m{self.month:02d}"

    @property
    def bounds(self) -> tuple[uuid.UUID, uuid.UUID]:
        following = self.plus(1)
        return month_floor(self.year, self.month), month_floor(following.year, following.month)


def is_partitioned() -> bool:
    if connection.vendor != "postgresql":
        return False
    with connection.cursor() as cursor:
        cursor.execute("SELECT relkind FROM pg_class WHERE oid = to_regclass(%s)", [PARENT])
        row = cursor.fetchone()
    return row is not None and row[0] == "p"


def attached() -> dict[str, bool]:
    """The attached partitions: name → is it the default one."""
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT c.relname, pg_get_expr(c.relpartbound, c.oid) = 'DEFAULT' "
            "FROM pg_inherits i JOIN pg_class c ON c.oid = i.inhrelid "
            "WHERE i.inhparent = %s::regclass",
            [PARENT],
        )
        return dict(cursor.fetchall())


def _exists(name: str) -> bool:
    with connection.cursor() as cursor:
        cursor.execute("SELECT to_regclass(%s) IS NOT NULL", [name])
        return bool(cursor.fetchone()[0])


def create_month(month: Month) -> bool:
    """Create and attach ``month``'s partition unless it exists; True if it was created."""
    partitions = attached()
    if month.name in partitions:
        return False
    low, high = month.bounds
    default = next((name for name, is_default in partitions.items() if is_default), None)
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(
            f"CREATE TABLE IF NOT EXISTS {month.name} "
            f"(LIKE {PARENT} INCLUDING DEFAULTS INCLUDING CONSTRAINTS)"
        )
        if default is not None:
            # Legacy UUIDv4 ids are spread over every month's range: move the few that fall
            # in this one, or attaching would find them in the default partition and fail.
            in_range = "play_id >= %s AND play_id < %s"
            cursor.execute(
                f"INSERT INTO {month.name} ({COLUMNS}) SELECT {COLUMNS} FROM {default} "
                f"WHERE {in_range}",
                [low, high],
            )
            cursor.execute(f"DELETE FROM {default} WHERE {in_range}", [low, high])
        cursor.execute(
            f"ALTER TABLE {PARENT} ATTACH PARTITION {month.name} "
            f"FOR VALUES FROM ('{low}') TO ('{high}')"
        )
    return True


def ensure_partitions(ahead: int, today: dt.date | None = None) -> list[str]:
    """This month's partition and ``ahead`` more: the names of those created now."""
    if not is_partitioned():
        return []
    this = Month.of(today or dt.datetime.now(dt.UTC).date())
    return [this.plus(n).name for n in range(ahead + 1) if create_month(this.plus(n))]


def open_ranked_play(month: Month) -> bool:
    low, high = month.bounds
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT EXISTS (SELECT 1 FROM games_play WHERE id >= %s AND id < %s "
            "AND ranked AND status = 'playing')",
            [low, high],
        )
        return bool(cursor.fetchone()[0])


def _detach(name: str, has_default: bool) -> None:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT inhdetachpending FROM pg_inherits WHERE inhrelid = to_regclass(%s)", [name]
        )
        row = cursor.fetchone()
        if row is None:
            return  # already detached (an earlier run stopped before the export)
        if row[0]:  # an interrupted DETACH … CONCURRENTLY
            cursor.execute(f"ALTER TABLE {PARENT} DETACH PARTITION {name} FINALIZE")
        elif has_default or connection.in_atomic_block:
            cursor.execute(f"ALTER TABLE {PARENT} DETACH PARTITION {name}")
        else:
            cursor.execute(f"ALTER TABLE {PARENT} DETACH PARTITION {name} CONCURRENTLY")


def export(name: str, directory: Path) -> Path:
    """Write table ``name`` to ``directory/name.csv.gz`` (atomically: a temporary file, fsync,
    rename), with a header line; return the path."""
    directory.mkdir(parents=True, exist_ok=True)
    final = directory / f"{name}.csv.gz"
    partial = directory / f".{name}.csv.gz.partial"
    copy = f"COPY (SELECT {COLUMNS} FROM {name} ORDER BY play_id, seq) TO STDOUT WITH CSV HEADER"
    with open(partial, "wb") as raw, gzip.GzipFile(fileobj=raw, mode="wb") as out:
        with connection.cursor() as cursor, cursor.cursor.copy(copy) as data:
            for chunk in data:
                out.write(bytes(chunk))
    with open(partial, "rb") as raw:
        os.fsync(raw.fileno())
    partial.replace(final)
    return final


def archive_partitions(
    retention_months: int, directory: Path, today: dt.date | None = None
) -> list[Path]:
    """Detach, export and drop the month partitions older than ``retention_months`` (this
    month counts as 0); skip a month with a ranked play still open. The files written."""
    if not is_partitioned():
        return []
    oldest_kept = Month.of(today or dt.datetime.now(dt.UTC).date()).plus(-retention_months)
    partitions = attached()
    has_default = any(partitions.values())
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT relname FROM pg_class WHERE relname ~ '^games_move_y[0-9]{4}m[0-9]{2}$' "
            "AND relkind = 'r'"
        )
        names = sorted(row[0] for row in cursor.fetchall())
    written = []
    for name in names:
        month = Month.from_name(name)
        if month is None or month >= oldest_kept or open_ranked_play(month):
            continue
        _detach(name, has_default)
        written.append(export(name, directory))
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TABLE {name}")
    return written


def restore_month(path: Path) -> int:
    """Load an archived month back into the move log; the number of rows."""
    month = Month.from_name(Path(path).name.split(".")[0])
    if month is None:
        raise ValueError(f"{path}: not a move-log month archive (games_move_yYYYYmMM.csv.gz)")
    if _exists(month.name) and month.name not in attached():
        raise ValueError(f"{month.name} exists detached: archive or drop it first")
    create_month(month)
    copy = f"COPY {PARENT} ({COLUMNS}) FROM STDIN WITH CSV HEADER"
    with transaction.atomic(), connection.cursor() as cursor:
        with gzip.open(path, "rb") as source, cursor.cursor.copy(copy) as data:
            while block := source.read(1 << 16):
                data.write(block)
        return cursor.cursor.rowcount
