"""A channel's whole-state events are coalesced by its reader (docs/live.md, "Coalescing"):
the first goes out at once, a burst after it as one event, the latest, carrying the ones it
replaced; no update is lost (the last state always arrives) and other events keep their
order. Against the test Redis, the reader's own loop (no server)."""

from __future__ import annotations

import asyncio
import datetime as dt

import pytest

from config.redis_guard import client
from realtime import channels, hub
from realtime.publishing import publish

pytestmark = pytest.mark.redis

WINDOW = 0.3


async def _drain(queue: asyncio.Queue[hub.Event], seconds: float) -> list[hub.Event]:
    got: list[hub.Event] = []
    end = asyncio.get_running_loop().time() + seconds
    while (left := end - asyncio.get_running_loop().time()) > 0:
        try:
            got.append(await asyncio.wait_for(queue.get(), left))
        except TimeoutError:
            break
    return got


async def _burst(channel: str, finish_channel: bool) -> list[hub.Event]:
    queue = await hub.subscribe(channel)
    try:
        loop = asyncio.get_running_loop()
        await loop.run_in_executor(None, publish, channel, "board", {"n": 0, "changed": None})
        first = await asyncio.wait_for(queue.get(), 2)
        assert first.payload["n"] == 0 and first.skipped == ()  # at once, alone
        for n in range(1, 6):
            await loop.run_in_executor(None, publish, channel, "board", {"n": n})
        if finish_channel:
            await loop.run_in_executor(None, publish, channel, "finish", {"f": 1})
            await loop.run_in_executor(None, publish, channel, "board", {"n": 6})
        return [first, *await _drain(queue, WINDOW * 4)]
    finally:
        hub.unsubscribe(channel, queue)


def test_a_burst_arrives_as_its_last_state_with_what_it_replaced(settings):
    settings.REALTIME_COALESCE_SECONDS = WINDOW
    channel = channels.board("easthaven", dt.date(2026, 12, 6))
    client().delete(channel)
    got = asyncio.run(_burst(channel, finish_channel=False))
    assert [e.payload["n"] for e in got] == [0, 5]  # the burst: one event, the latest
    assert [e.payload["n"] for e in got[1].skipped] == [1, 2, 3, 4]
    ids = [entry_id.decode() for entry_id, _ in client().xrange(channel)]
    assert got[1].id == ids[-1]  # a resume from it misses nothing


def test_other_events_are_never_held_and_keep_their_order(settings):
    settings.REALTIME_COALESCE_SECONDS = WINDOW
    channel = channels.board("easthaven", dt.date(2026, 12, 7))
    client().delete(channel)
    got = asyncio.run(_burst(channel, finish_channel=True))
    assert [(e.event, e.payload.get("n")) for e in got] == [
        ("board", 0), ("board", 5), ("finish", None), ("board", 6)
    ]


def test_no_coalescing_sends_every_event(settings):
    settings.REALTIME_COALESCE_SECONDS = 0
    channel = channels.board("easthaven", dt.date(2026, 12, 8))
    client().delete(channel)
    got = asyncio.run(_burst(channel, finish_channel=False))
    assert [e.payload["n"] for e in got] == [0, 1, 2, 3, 4, 5]
