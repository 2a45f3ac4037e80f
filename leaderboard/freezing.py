"""Freezing a day: a past day's ranks stored in ``Score.rank`` and a ``FrozenDay`` row.

By ``leaderboard.tasks.freeze_yesterday`` after UTC midnight, by ``rebuild_leaderboards
--freeze``, and lazily on the first read of a past day (:func:`ensure_frozen`). A frozen day
is read from PostgreSQL by rank (:mod:`leaderboard.boards`: an index range scan, no
counting); a play that ends after its day was frozen re-freezes it
(:func:`leaderboard.scores.record_play`).
"""

from __future__ import annotations

import datetime as dt

from django.db import connection, transaction

from .models import FrozenDay, Score
from .refs import BoardRef


def freeze(ref: BoardRef) -> int:
    """Store the ranks of a daily board in ``Score.rank`` (idempotent); return the count."""
    assert ref.is_daily
    table = Score._meta.db_table
    with transaction.atomic(), connection.cursor() as cursor:
        # A hidden score (leaderboard.moderation) has no rank: it is on no public board.
        cursor.execute(
            f"UPDATE {table} SET rank = NULL WHERE board = %s AND date = %s AND hidden",
            [ref.board, ref.day],
        )
        cursor.execute(
            f"""
            UPDATE {table} SET rank = ranked.rn
            FROM (
                SELECT play_id, ROW_NUMBER() OVER (ORDER BY sort_key, play_id) AS rn
                FROM {table} WHERE board = %s AND date = %s AND NOT hidden
            ) AS ranked
            WHERE {table}.play_id = ranked.play_id
            """,
            [ref.board, ref.day],
        )
        count = cursor.rowcount
        FrozenDay.objects.update_or_create(
            board=ref.board, date=ref.day, defaults={"entries": max(count, 0)}
        )
    return count


def ensure_frozen(ref: BoardRef, today: dt.date) -> None:
    """Freeze a past day's board on its first read (a day is over at UTC midnight)."""
    if ref.is_daily and ref.day < today:
        if not FrozenDay.objects.filter(board=ref.board, date=ref.day).exists():
            freeze(ref)


def freeze_day(day: dt.date) -> int:
    """Freeze every board of ``day``; return how many boards."""
    boards = Score.objects.filter(date=day).values_list("board", flat=True).distinct()
    for board in boards:
        freeze(BoardRef.daily(board, day))
    return len(boards)
