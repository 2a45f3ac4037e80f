"""The SQL of the move path: lock a play row, append log rows and update the play at once.

A move is the request a player sends a hundred times a game, so this path uses the
database cursor directly instead of ORM model instances (a Django ORM query costs several
times the CPU of the same SQL through a cursor): one ``SELECT … FOR UPDATE`` of the play,
then on PostgreSQL one statement that inserts the log rows and updates the play
(``WITH log AS (INSERT …) UPDATE games_play …``). SQLite has no data-modifying ``WITH``;
there the same two writes are two statements of the same transaction (SQLite holds a
write lock on the whole database until the commit, so nothing can come between them).

The column lists below are those of ``games.models.Play`` and ``Move``; the tests of the
move endpoint compare what this writes with what the ORM reads back.
"""

from __future__ import annotations

import datetime as dt
import json
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError, connection, transaction
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from . import engine
from .models import Play, PlayStatus

_PLAY_COLUMNS = (
    "deal_id, preset, options, ranked, daily_date, state, seq, status, started_at, "
    "finished_at, foundation_cards, moves_count, undos, seconds"
)


@dataclass
class PlayRow:
    """A play as the move path reads and writes it: the fields of ``Play`` the API shows,
    plus the parsed engine state (so the response does not parse it again)."""

    id: uuid.UUID
    deal_id: Any
    preset: str
    options: dict[str, Any]
    ranked: bool
    daily_date: dt.date | None
    state: dict[str, Any]
    seq: int
    status: str
    started_at: dt.datetime
    finished_at: dt.datetime | None
    foundation_cards: int
    moves_count: int
    undos: int
    seconds: float | None
    engine_state: engine.State | None = field(default=None, repr=False)

    @property
    def pk(self) -> uuid.UUID:
        return self.id

    @property
    def finished(self) -> bool:
        return self.status != PlayStatus.PLAYING


@dataclass(frozen=True)
class LogRow:
    """One row to append to ``games_move``."""

    seq: int
    move: dict[str, Any]
    text: str
    reveals_hidden: bool
    state_hash: str


def _json(value: Any) -> Any:
    # Django reads jsonb as text through its cursors (JSONField decodes it); SQLite stores text.
    return json.loads(value) if isinstance(value, str | bytes) else value


def _aware(value: Any) -> dt.datetime | None:
    if value is None:
        return None
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = value.replace(tzinfo=dt.UTC)
    return value


def _date(value: Any) -> dt.date | None:
    if value is None or isinstance(value, dt.date):
        return value
    return parse_date(value)


def _uuid_param(value: uuid.UUID | str) -> Any:
    """A play id as the backend stores it (PostgreSQL ``uuid``, SQLite 32 hex digits)."""
    return Play._meta.pk.get_db_prep_value(value, connection)


class MoveTransaction:
    """The transaction of one move request: ``lock`` the play, ``append`` the rows; used as
    a context manager, which rolls back if the block raises before ``append``.

    On PostgreSQL outside any ``atomic`` block (the request without an ``Idempotency-Key``)
    it saves two round trips: ``BEGIN`` goes with the ``SELECT … FOR UPDATE`` and
    ``COMMIT`` with the ``WITH … INSERT … UPDATE`` (psycopg's client-side binding sends
    such a string in one simple-protocol message); ``after_commit`` callbacks run once it
    has committed. Elsewhere (SQLite, or inside the idempotency key's ``atomic`` block) it
    is a ``transaction.atomic()`` block with ``transaction.on_commit``.
    """

    def __init__(self) -> None:
        self.own = connection.vendor == "postgresql" and not connection.in_atomic_block
        self.atomic = None if self.own else transaction.atomic()
        self.open = False
        self.callbacks: list[Callable[[], None]] = []

    def __enter__(self) -> MoveTransaction:
        if self.atomic is not None:
            self.atomic.__enter__()
        return self

    def __exit__(self, kind: Any, error: Any, trace: Any) -> bool | None:
        if self.atomic is not None:
            return self.atomic.__exit__(kind, error, trace)
        if self.open:  # the block raised between lock and commit
            self.open = False
            try:
                with connection.cursor() as cursor:
                    cursor.execute("ROLLBACK")
            except Exception:
                connection.close()  # its state is unknown: never hand it to the next request
                raise
            return None
        if kind is None:
            for callback in self.callbacks:
                callback()
        return None

    def after_commit(self, callback: Callable[[], None]) -> None:
        if self.atomic is not None:
            transaction.on_commit(callback)
        else:
            self.callbacks.append(callback)

    def lock(self, play_id: uuid.UUID | str, player_id: int) -> PlayRow | None:
        """The caller's play, locked until the transaction ends; None if there is none."""
        try:
            key = _uuid_param(play_id)
        except Exception:  # not a UUID: the URL pattern normally rules that out
            return None
        lock = " FOR UPDATE" if connection.features.has_select_for_update else ""
        select = f"SELECT {_PLAY_COLUMNS} FROM games_play WHERE id = %s AND player_id = %s{lock}"
        if self.own:
            row = self._begin_and_lock(select, [key, player_id])
        else:
            with connection.cursor() as cursor:
                cursor.execute(select, [key, player_id])
                row = cursor.fetchone()
        if row is None:
            return None
        return PlayRow(
            id=uuid.UUID(str(play_id)),
            deal_id=row[0],
            preset=row[1],
            options=_json(row[2]),
            ranked=bool(row[3]),
            daily_date=_date(row[4]),
            state=_json(row[5]),
            seq=row[6],
            status=row[7],
            started_at=_aware(row[8]),
            finished_at=_aware(row[9]),
            foundation_cards=row[10],
            moves_count=row[11],
            undos=row[12],
            seconds=row[13],
        )

    def _begin_and_lock(self, select: str, params: list[Any]) -> tuple[Any, ...] | None:
        """``BEGIN`` and the lock in one round trip. On a kept connection it also stands in
        for Django's health check (a ``SELECT 1`` round trip of its own): if the connection
        turns out dead, nothing has happened yet, so the lock is tried once more on a new one."""
        unchecked = (
            connection.connection is not None
            and connection.health_check_enabled
            and not connection.health_check_done
        )
        if unchecked:
            connection.health_check_done = True
        prefix = "BEGIN; " if settings.MOVES_SYNCHRONOUS_COMMIT else f"BEGIN; {_ASYNC_COMMIT}; "
        for attempt in (1, 2):
            self.open = True
            try:
                with connection.cursor() as cursor:
                    cursor.execute(prefix + select, params)
                    while cursor.description is None:  # past BEGIN (and SET)
                        cursor.nextset()
                    return cursor.fetchone()
            except (OperationalError, InterfaceError):
                if not unchecked or attempt == 2:
                    raise
                self.open = False
                connection.close()
        return None  # pragma: no cover - the loop returns or raises

    def append(self, play: PlayRow, rows: list[LogRow]) -> None:
        """Insert ``rows`` into the play's log and write the play's new fields: one
        statement on PostgreSQL (which also commits, when the transaction is ours)."""
        ops = connection.ops
        now = ops.adapt_datetimefield_value(timezone.now())
        key = _uuid_param(play.id)
        update_params = [
            play.seq,
            json.dumps(play.state),
            play.foundation_cards,
            play.moves_count,
            play.undos,
            play.status,
            ops.adapt_datetimefield_value(play.finished_at),
            play.seconds,
            key,
        ]
        with connection.cursor() as cursor:
            if connection.vendor == "postgresql":
                # The rows travel as one JSON array: one statement text whatever their
                # number (psycopg parses each distinct text's placeholders), one dumps.
                log = [
                    [row.seq, row.move, row.text, row.reveals_hidden, row.state_hash]
                    for row in rows
                ]
                insert_params = [key, now, json.dumps(log)]
                statement = _PG_WRITE_COMMIT if self.own else _PG_WRITE
                cursor.execute(statement, insert_params + update_params)
                self.open = False
            else:
                values = ", ".join(["(%s, %s, %s, %s, %s, %s, %s)"] * len(rows))
                insert_params = []
                for row in rows:
                    insert_params += [
                        key,
                        row.seq,
                        json.dumps(row.move),
                        row.text,
                        row.reveals_hidden,
                        row.state_hash,
                        now,
                    ]
                cursor.execute(_INSERT + values, insert_params)
                cursor.execute(_UPDATE.format(json="%s"), update_params)

    def expire(self, play: PlayRow, now: dt.datetime) -> None:
        """Close ``play`` as expired, unfinished (and commit, when the transaction is ours)."""
        play.status = PlayStatus.EXPIRED
        play.finished_at = now
        params = [play.status, connection.ops.adapt_datetimefield_value(now), _uuid_param(play.id)]
        commit = self.own and connection.vendor == "postgresql"
        with connection.cursor() as cursor:
            cursor.execute(_EXPIRE + ("; COMMIT" if commit else ""), params)
        self.open = False

    def logged_moves(self, play: PlayRow) -> list[tuple[dict[str, Any], bool]]:
        """The play's log in order: (move in API form, did it reveal a hidden card)."""
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT move, reveals_hidden FROM games_move WHERE play_id = %s ORDER BY seq",
                [_uuid_param(play.id)],
            )
            return [(_json(move), bool(revealed)) for move, revealed in cursor.fetchall()]

    def deal_deck(self, play: PlayRow) -> list[str]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT deck FROM games_deal WHERE id = %s", [play.deal_id])
            return _json(cursor.fetchone()[0])


# MOVES_SYNCHRONOUS_COMMIT=0: the commit of a move does not wait for the WAL flush (see
# the settings); a crash of PostgreSQL may lose the last fraction of a second of moves.
_ASYNC_COMMIT = "SET LOCAL synchronous_commit TO OFF"

_INSERT = (
    "INSERT INTO games_move (play_id, seq, move, text, reveals_hidden, state_hash, created_at)"
    " VALUES "
)
_UPDATE = (
    "UPDATE games_play SET seq = %s, state = {json}, foundation_cards = %s, moves_count = %s, "
    "undos = %s, status = %s, finished_at = %s, seconds = %s WHERE id = %s"
)
_EXPIRE = "UPDATE games_play SET status = %s, finished_at = %s WHERE id = %s"
_PG_WRITE = (
    "WITH log AS (INSERT INTO games_move "
    "(play_id, seq, move, text, reveals_hidden, state_hash, created_at) "
    "SELECT %s, (r->>0)::integer, r->1, r->>2, (r->>3)::boolean, r->>4, %s "
    "FROM jsonb_array_elements(%s::jsonb) AS r) " + _UPDATE.format(json="%s::jsonb")
)
_PG_WRITE_COMMIT = _PG_WRITE + "; COMMIT"
