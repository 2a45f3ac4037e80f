"""The move log's monthly partitions (games.partitions) on the test database, which the
migrations partitioned: months created ahead, archived to a file and restored, never a
month with an open ranked play; the move path's SQL writes through the parent."""

from __future__ import annotations

import csv
import datetime as dt
import gzip
import io

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction

from games import partitions
from games.ids import month_floor, uuid7
from games.models import Move, Play, PlayStatus
from games.partitions import Month
from tests.factories import make_user, store_daily

pytestmark = [pytest.mark.postgres, pytest.mark.django_db]


def in_month(year: int, month: int, day: int = 10):
    ms = int(dt.datetime(year, month, day, tzinfo=dt.UTC).timestamp() * 1000)
    return uuid7(ms)


def where(play_id) -> str:
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT DISTINCT tableoid::regclass::text FROM games_move WHERE play_id = %s",
            [play_id],
        )
        return ",".join(row[0] for row in cursor.fetchall())


def a_play(user, deal, play_id, *, ranked=False, status=PlayStatus.WON, moves=3) -> Play:
    play = Play.objects.create(
        id=play_id,
        player=user,
        deal=deal,
        preset=deal.preset,
        ranked=ranked,
        daily_date=deal.date if ranked else None,
        state={},
        status=status,
        seq=moves,
    )
    for seq in range(1, moves + 1):
        Move.objects.create(play=play, seq=seq, move={"type": "deal"}, text=f"m{seq}")
    return play


def test_the_table_is_partitioned_with_a_legacy_default() -> None:
    assert partitions.is_partitioned()
    attached = partitions.attached()
    assert attached[partitions.LEGACY] is True
    assert Month.of(dt.date.today()).name in attached


def test_partitions_ahead_are_created_once(tmp_path) -> None:
    far = dt.date(2031, 5, 17)
    created = partitions.ensure_partitions(2, today=far)
    assert created == ["games_move_y2031m05", "games_move_y2031m06", "games_move_y2031m07"]
    assert partitions.ensure_partitions(2, today=far) == []
    out = io.StringIO()
    call_command("movelog_partitions", "--ahead", "0", "--archive-dir", str(tmp_path), stdout=out)
    assert "games_move_y2031m07" in out.getvalue()


def test_a_play_lands_in_its_start_months_partition_and_keeps_its_key() -> None:
    user, deal = make_user("mover"), store_daily(dt.date(2026, 12, 6))["westcliff"]
    partitions.ensure_partitions(0, today=dt.date(2031, 3, 1))
    play = a_play(user, deal, in_month(2031, 3, 31))
    assert where(play.id) == "games_move_y2031m03"
    old = a_play(user, deal, "4f0e8c1a-1111-4222-8333-444455556666")
    assert where(old.id) == partitions.LEGACY
    with pytest.raises(IntegrityError), transaction.atomic():
        Move.objects.create(play=play, seq=2, move={"type": "deal"}, text="again")


def test_a_legacy_row_in_a_new_months_range_moves_into_it() -> None:
    user, deal = make_user("legacy"), store_daily(dt.date(2026, 12, 6))["westcliff"]
    low, _ = Month(2032, 2).bounds
    # A UUIDv4 whose random first bits happen to fall in February 2032.
    stray = f"{str(low)[:12]}1-4abc-9abc-def012345678"
    play = a_play(user, deal, stray)
    assert where(play.id) == partitions.LEGACY
    assert partitions.ensure_partitions(0, today=dt.date(2032, 2, 1)) == ["games_move_y2032m02"]
    assert where(play.id) == "games_move_y2032m02"
    assert Move.objects.filter(play=play).count() == 3


def test_archive_exports_drops_and_restores_a_month(tmp_path) -> None:
    user, deal = make_user("archivist"), store_daily(dt.date(2026, 12, 6))["westcliff"]
    for month in (Month(2025, 1), Month(2025, 2)):
        partitions.create_month(month)
    done = a_play(user, deal, in_month(2025, 1), moves=4)
    a_play(user, make_user("other") and deal, in_month(2025, 1, 20), moves=2)
    open_ranked = a_play(
        make_user("late"), deal, in_month(2025, 2), ranked=True, status=PlayStatus.PLAYING
    )
    with connection.cursor() as cursor:  # the test's transaction holds deferred FK checks
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    written = partitions.archive_partitions(6, tmp_path, today=dt.date(2025, 12, 1))
    assert [path.name for path in written] == ["games_move_y2025m01.csv.gz"]
    assert "games_move_y2025m01" not in partitions.attached()
    assert where(open_ranked.id) == "games_move_y2025m02"  # kept: a ranked play is open
    assert not Move.objects.filter(play=done).exists()
    with gzip.open(written[0], "rt") as lines:
        rows = list(csv.DictReader(lines))
    assert len(rows) == 6 and {r["play_id"] for r in rows} >= {str(done.id)}
    # Run again: nothing more to do (idempotent).
    assert partitions.archive_partitions(6, tmp_path, today=dt.date(2025, 12, 1)) == []
    out = io.StringIO()
    call_command("movelog_partitions", "--restore", str(written[0]), stdout=out)
    assert "restored 6 move row(s)" in out.getvalue()
    assert list(Move.objects.filter(play=done).values_list("seq", flat=True)) == [1, 2, 3, 4]
    assert where(done.id) == "games_move_y2025m01"


def test_month_floors_are_the_partition_bounds() -> None:
    assert Month(2026, 12).bounds == (month_floor(2026, 12), month_floor(2027, 1))
    assert Month(2026, 12).plus(1) == Month(2027, 1)
    assert Month(2027, 1).plus(-1) == Month(2026, 12)


def test_the_beat_task_creates_ahead_and_archives(tmp_path, settings) -> None:
    from games.maintenance import movelog_partitions

    settings.MOVELOG_PARTITIONS_AHEAD = 1
    settings.MOVELOG_RETENTION_MONTHS = 13
    settings.MOVELOG_ARCHIVE_DIR = str(tmp_path)
    old = Month.of(dt.date.today()).plus(-20)
    partitions.create_month(old)
    with connection.cursor() as cursor:
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
    result = movelog_partitions.apply().get()
    assert result["created"] == []  # the migration made this month and the next
    assert result["archived"] == [str(tmp_path / f"{old.name}.csv.gz")]
    assert old.name not in partitions.attached()
    assert movelog_partitions.apply().get() == {"created": [], "archived": []}
