"""UUIDv7 play ids (games.ids): layout, order within a millisecond, month floors."""

from __future__ import annotations

import datetime as dt
import time
import uuid

import pytest

from games import ids
from games.ids import month_floor, uuid7, uuid7_time


@pytest.fixture(autouse=True)
def _own_sequence(monkeypatch) -> None:
    """The tests below move the clock years ahead: the process's sequence (last millisecond,
    counter) goes back to what it was afterwards, or every later id would be of 2032."""
    monkeypatch.setattr(ids, "_last_ms", ids._last_ms)
    monkeypatch.setattr(ids, "_counter", ids._counter)


def test_layout_version_variant_and_timestamp() -> None:
    ms = int(dt.datetime(2026, 12, 6, 4, 30, tzinfo=dt.UTC).timestamp() * 1000)
    value = uuid7(ms + 10**6)
    assert value.version == 7
    assert value.variant == uuid.RFC_4122
    assert (value.int >> 80) >= ms + 10**6
    assert uuid7_time(value) >= dt.datetime(2026, 12, 6, 4, 46, tzinfo=dt.UTC)


def test_monotonic_within_one_millisecond(monkeypatch) -> None:
    now_ns = int(dt.datetime(2031, 1, 1, tzinfo=dt.UTC).timestamp() * 10**9)
    monkeypatch.setattr(time, "time_ns", lambda: now_ns)
    ids = [uuid7() for _ in range(5000)]
    assert {i.int >> 80 for i in ids} == {now_ns // 10**6}  # all in one millisecond
    assert ids == sorted(ids)
    assert len(set(ids)) == len(ids)
    assert all(str(i) > str(j) for i, j in zip(ids[1:], ids, strict=False))  # text order too


def test_clock_stepping_back_keeps_the_order(monkeypatch) -> None:
    now_ns = int(dt.datetime(2032, 1, 1, tzinfo=dt.UTC).timestamp() * 10**9)
    monkeypatch.setattr(time, "time_ns", lambda: now_ns)
    first = uuid7()
    monkeypatch.setattr(time, "time_ns", lambda: now_ns - 5 * 10**9)
    assert uuid7() > first


def test_an_id_at_a_given_instant() -> None:
    ms = int(dt.datetime(2025, 2, 10, tzinfo=dt.UTC).timestamp() * 1000)
    assert uuid7(ms).int >> 80 == ms


def test_real_clock_ids_increase() -> None:
    ids = [uuid7() for _ in range(2000)]
    assert ids == sorted(ids)


def test_month_floor_bounds_every_id_of_the_month() -> None:
    floor = month_floor(2026, 12)
    assert floor.version == 7
    assert str(floor).endswith("-7000-8000-000000000000")
    assert uuid7_time(floor) == dt.datetime(2026, 12, 1, tzinfo=dt.UTC)
    first_ms = int(dt.datetime(2026, 12, 1, tzinfo=dt.UTC).timestamp() * 1000)
    last_ms = int(dt.datetime(2027, 1, 1, tzinfo=dt.UTC).timestamp() * 1000) - 1
    assert month_floor(2026, 12) <= uuid.UUID(int=(first_ms << 80) | (7 << 76) | (2 << 62))
    assert uuid.UUID(
        int=(last_ms << 80) | (0xFFF << 64) | (7 << 76) | (2 << 62) | ((1 << 62) - 1)
    ) < month_floor(2027, 1)
