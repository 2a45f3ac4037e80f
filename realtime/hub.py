"""One reader per channel per process, fanning events out to that process's clients.

A client's stream does not hold a Redis connection of its own: the first subscriber of a
channel starts a reader (one blocking ``XREAD`` loop on the channel's stream); every
subscriber gets each event through its own bounded queue; the last one to leave stops
it. So a server holds as many Redis connections as it has busy channels, not clients.

Whole-state events (:data:`COALESCED`: a board's top, a tournament's standings) are
coalesced per channel: the first goes out at once, later ones within
``REALTIME_COALESCE_SECONDS`` of it wait and only the latest goes out when the period ends,
carrying the ones it replaced in :attr:`Event.skipped` (a viewer's rank may have moved in
any of them). Each fanned-out event is one object, so its JSON is parsed once per channel
(:attr:`Event.payload`), not once per watcher. Other events (finishes, a player's own)
are never held back, and a held one goes out before them, in order.

Redis failing under a reader ends every subscription of the channel with :data:`LOST`
(their streams then tell the clients to poll), unless the failure passes: a timeout or a
dropped connection is read again from the last id within about a second
(:func:`links.retrying`); a Redis that refuses connections (down) ends them at once. A
client too slow to keep up (its queue full) gets :data:`OVERFLOW` and is disconnected; it
resumes from its last id.
"""

from __future__ import annotations

import asyncio
import json
import logging
from dataclasses import dataclass, field, replace
from functools import cached_property
from typing import Any

from django.conf import settings

from . import links

log = logging.getLogger(__name__)

QUEUE_SIZE = 256
#: Events that each carry a channel's whole state: only the latest matters.
COALESCED = frozenset({"board", "standings"})


@dataclass(frozen=True)
class Event:
    id: str
    event: str
    data: str
    #: Older whole-state events of the channel this one replaced (oldest first).
    skipped: tuple[Event, ...] = field(default=(), compare=False, repr=False)
    #: What the channel's watchers derive from this one object once for all of them
    #: (a viewer's variant of it, keyed by what makes it theirs).
    memo: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)

    @cached_property
    def payload(self) -> Any:
        """The data parsed (once: every watcher of the channel shares this object)."""
        return json.loads(self.data)

    @cached_property
    def frame(self) -> bytes:
        """The event as its text/event-stream frame (once per event object)."""
        return frame(self.event, self.data, self.id).encode()


def frame(event: str, data: str, event_id: str = "") -> str:
    lines = [f"id: {event_id}"] if event_id else []
    lines.append(f"event: {event}")
    lines.extend(f"data: {line}" for line in data.splitlines() or [""])
    return "\n".join(lines) + "\n\n"


LOST = Event("", "lost", "")
OVERFLOW = Event("", "overflow", "")
KEEP_ALIVE = Event("", "keep-alive", "")

def event_of(entry_id: str, fields: dict[str, str]) -> Event:
    return Event(entry_id, fields.get("event", "message"), fields.get("data", "{}"))


@dataclass
class _Reader:
    channel: str
    last: str
    queues: set[asyncio.Queue[Event]] = field(default_factory=set)
    task: asyncio.Task[None] | None = None
    pending: Event | None = None  # the latest whole-state event held back
    flushed_at: float = float("-inf")  # the loop's time of the last one sent
    timer: asyncio.TimerHandle | None = None
    delivered_at: float = 0.0  # the loop's time of the last event or keep-alive sent

    async def run(self) -> None:
        conn = links.reader_client()

        async def read() -> Any:  # from the last id seen: a retry misses nothing
            return await conn.xread({self.channel: self.last}, count=100, block=links.BLOCK_MS)

        try:
            while self.queues:
                found = await links.retrying(read, f"the reader of {self.channel}")
                for _, entries in found or []:
                    for entry_id, fields in entries:
                        self.last = entry_id
                        self._receive(event_of(entry_id, fields))
        except links.FAILURES as error:
            log.warning("realtime: reader of %s lost Redis: %s", self.channel, error)
            self._flush()
            for queue in list(self.queues):
                _put(queue, LOST)
        finally:
            if self.timer is not None:
                self.timer.cancel()
            if _readers.get(self.channel) is self:
                del _readers[self.channel]

    def _receive(self, event: Event) -> None:
        interval = float(settings.REALTIME_COALESCE_SECONDS)
        if event.event not in COALESCED or interval <= 0:
            self._flush()
            self._deliver(event)
            return
        if self.pending is not None:
            event = replace(event, skipped=(*self.pending.skipped, self.pending))
        self.pending = event
        loop = asyncio.get_running_loop()
        wait = self.flushed_at + interval - loop.time()
        if wait <= 0:
            self._flush()
        elif self.timer is None:
            self.timer = loop.call_later(wait, self._flush)

    def _flush(self) -> None:
        """Send the held whole-state event, if any (the timer's end, or before another)."""
        if self.timer is not None:
            self.timer.cancel()
            self.timer = None
        event, self.pending = self.pending, None
        if event is not None:
            self.flushed_at = asyncio.get_running_loop().time()
            self._deliver(event)

    def _deliver(self, event: Event) -> None:
        self.delivered_at = asyncio.get_running_loop().time()
        for queue in list(self.queues):
            if not _put(queue, event):
                self.queues.discard(queue)
                _force(queue, OVERFLOW)


def _put(queue: asyncio.Queue[Event], event: Event) -> bool:
    try:
        queue.put_nowait(event)
    except asyncio.QueueFull:
        return False
    return True


def _force(queue: asyncio.Queue[Event], event: Event) -> None:
    """Make room for a last word (the subscriber is being dropped)."""
    while not _put(queue, event):
        queue.get_nowait()


_readers: dict[str, _Reader] = {}
_keep_alives: dict[int, asyncio.Task[None]] = {}


async def _keep_alive() -> None:
    """Every ``REALTIME_KEEPALIVE_SECONDS``, a keep-alive to the subscribers of each channel
    silent for that long (one timer per process, not one wait per client and event: a
    client hears something at least every two periods)."""
    loop = asyncio.get_running_loop()
    period = float(settings.REALTIME_KEEPALIVE_SECONDS)
    while _readers:
        await asyncio.sleep(period)
        now = loop.time()
        for reader in list(_readers.values()):
            if now - reader.delivered_at >= period:
                reader._deliver(KEEP_ALIVE)


def _keep_alive_running() -> None:
    loop = asyncio.get_running_loop()
    task = _keep_alives.get(id(loop))
    if task is None or task.done():
        _keep_alives[id(loop)] = loop.create_task(_keep_alive())


async def last_id(channel: str) -> str:
    """The id of the channel's newest event ("0-0" for none yet)."""
    newest = await links.retrying(
        lambda: links.command_client().xrevrange(channel, count=1), f"the newest id of {channel}"
    )
    return newest[0][0] if newest else "0-0"


async def subscribe(channel: str) -> asyncio.Queue[Event]:
    """A queue of the channel's events from now on (Redis errors propagate)."""
    queue: asyncio.Queue[Event] = asyncio.Queue(QUEUE_SIZE)
    reader = _readers.get(channel)
    if reader is None or reader.task is None or reader.task.done():
        start = await last_id(channel)
        reader = _readers.get(channel)  # another client may have started one meanwhile
    if reader is None or reader.task is None or reader.task.done():
        reader = _Reader(channel, start)
        reader.queues.add(queue)
        _readers[channel] = reader
        reader.task = asyncio.create_task(reader.run())
        reader.delivered_at = asyncio.get_running_loop().time()
        _keep_alive_running()
    else:
        reader.queues.add(queue)
    return queue


def unsubscribe(channel: str, queue: asyncio.Queue[Event]) -> None:
    reader = _readers.get(channel)
    if reader is not None:
        reader.queues.discard(queue)
        if not reader.queues and reader.task is not None:
            if reader.timer is not None:
                reader.timer.cancel()
            reader.task.cancel()
            del _readers[channel]


def subscribers() -> int:
    return sum(len(reader.queues) for reader in _readers.values())
