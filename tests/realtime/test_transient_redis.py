"""A stream's Redis reads ride out a passing failure (a dropped connection, a timeout in
a connection storm) and still give up at once on a Redis that refuses connections
(realtime.links; the Redis-kill tests in test_streams.py and tests/faults cover a Redis
that is down end to end)."""

from __future__ import annotations

import asyncio
import time

import pytest
import redis

from realtime import channels, hub, links
from realtime.publishing import publish


def _refused() -> redis.ConnectionError:
    try:
        raise ConnectionRefusedError(111, "Connection refused")
    except ConnectionRefusedError as cause:
        error = redis.ConnectionError("Error 111 connecting to 127.0.0.1:1.")
        error.__cause__ = cause
        return error


def _flaky(failures: list[Exception], value: str = "ok"):
    calls: list[int] = []

    async def read() -> str:
        calls.append(1)
        if len(calls) <= len(failures):
            raise failures[len(calls) - 1]
        return value

    return read, calls


def test_a_passing_failure_is_read_again(monkeypatch):
    monkeypatch.setattr(links, "RETRY_PAUSES", (0.01, 0.01, 0.01))
    dropped = redis.ConnectionError("Connection closed by server.")
    read, calls = _flaky([dropped, redis.TimeoutError()])
    assert asyncio.run(links.retrying(read, "a read")) == "ok"
    assert len(calls) == 3


def test_a_refused_connection_is_raised_at_once(monkeypatch):
    monkeypatch.setattr(links, "RETRY_PAUSES", (5.0, 5.0, 5.0))
    read, calls = _flaky([_refused()])
    started = time.monotonic()
    with pytest.raises(redis.ConnectionError):
        asyncio.run(links.retrying(read, "a read"))
    assert len(calls) == 1 and time.monotonic() - started < 1


def test_a_failure_that_keeps_on_is_raised_after_the_last_pause(monkeypatch):
    monkeypatch.setattr(links, "RETRY_PAUSES", (0.01, 0.01, 0.01))
    read, calls = _flaky([redis.TimeoutError()] * 10)
    with pytest.raises(redis.TimeoutError):
        asyncio.run(links.retrying(read, "a read"))
    assert len(calls) == 4


def test_a_reader_whose_connection_drops_keeps_its_subscribers(own_redis, settings, monkeypatch):
    """On a Redis of its own: every connection but the test's is killed under the reader."""
    settings.REDIS_URL = own_redis.url
    monkeypatch.setattr(links, "_readers", {})
    monkeypatch.setattr(links, "_commands", {})
    channel = channels.player(424242)
    killer = redis.Redis.from_url(own_redis.url)

    async def scenario() -> list[hub.Event]:
        queue = await hub.subscribe(channel)
        try:
            await asyncio.sleep(0.2)  # the reader is blocked in XREAD
            killer.client_kill_filter(_type="normal", skipme=True)
            loop = asyncio.get_running_loop()
            await loop.run_in_executor(None, publish, channel, "score", {"n": 1})
            return [await asyncio.wait_for(queue.get(), 5)]
        finally:
            hub.unsubscribe(channel, queue)

    [event] = asyncio.run(scenario())
    assert event is not hub.LOST and event.event == "score" and event.payload == {"n": 1}
