"""Time-ordered play ids: UUIDv7 (RFC 9562, section 5.7), which Python 3.11 lacks.

The first 48 bits are the Unix time in milliseconds, so a play's id says which month's
move-log partition holds its log (``games.partitions``) and ``games_play``'s primary key
index gets append-mostly inserts. Within one millisecond the ids still increase: the 12
bits after the version (``rand_a``) and the top of ``rand_b`` carry a counter seeded at
random each millisecond (RFC 9562's "method 1", a fixed-length dedicated counter), so
two plays started in the same millisecond by one process sort in start order.
"""

from __future__ import annotations

import datetime as dt
import os
import threading
import time
import uuid

_VERSION = 0x7
_VARIANT = 0b10
_COUNTER_BITS = 42  # rand_a (12 bits) and the top 30 bits of rand_b: the counter
_TAIL_BITS = 32  # the rest of rand_b: fresh randomness on every id
_lock = threading.Lock()
_last_ms = -1
_counter = 0


def _fields(ms: int, counter: int, tail: int) -> uuid.UUID:
    rand_a = counter >> 30
    rand_b = ((counter & ((1 << 30) - 1)) << _TAIL_BITS) | tail
    value = (ms & ((1 << 48) - 1)) << 80
    value |= _VERSION << 76
    value |= rand_a << 64
    value |= _VARIANT << 62
    value |= rand_b
    return uuid.UUID(int=value)


def uuid7(at_ms: int | None = None) -> uuid.UUID:
    """A new UUIDv7, greater than every earlier one this process made from the clock.

    A clock that steps back keeps the last millisecond and counts on, so the order holds.
    ``at_ms`` (milliseconds since the epoch) makes an id of that instant instead, outside
    the sequence (random counter): for tests and for backfilling old rows.
    """
    global _last_ms, _counter
    tail = int.from_bytes(os.urandom(4), "big")
    if at_ms is not None:
        return _fields(at_ms, _seed(), tail)
    ms = time.time_ns() // 1_000_000
    with _lock:
        if ms > _last_ms:
            _last_ms, _counter = ms, _seed()
        else:
            _counter += 1
            if _counter >> _COUNTER_BITS:  # the counter ran out: borrow the next ms
                _last_ms, _counter = _last_ms + 1, 0
        return _fields(_last_ms, _counter, tail)


def _seed() -> int:
    # Random, with its top bit clear: room for 2**41 more ids in the millisecond.
    return int.from_bytes(os.urandom(6), "big") >> (48 - _COUNTER_BITS + 1)


def month_floor(year: int, month: int) -> uuid.UUID:
    """The smallest UUIDv7 of a UTC month: the lower bound of its move-log partition."""
    start = dt.datetime(year, month, 1, tzinfo=dt.UTC)
    ms = int(start.timestamp() * 1000)
    return uuid.UUID(int=((ms << 80) | (_VERSION << 76) | (_VARIANT << 62)))


def uuid7_time(value: uuid.UUID) -> dt.datetime:
    """When a UUIDv7 was made (its 48-bit millisecond timestamp), in UTC."""
    return dt.datetime.fromtimestamp((value.int >> 80) / 1000, tz=dt.UTC)
