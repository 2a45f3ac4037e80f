"""The text/event-stream format, and the stream of one channel for one client.

A client that sends ``Last-Event-ID`` (or ``?last_event_id=``, for clients that cannot set
headers) gets every event after that id still in the channel's history, then the live
ones, each once: it subscribes first, then reads the history, and skips live events whose
id it already sent. An id older than the history (or unknown) first gets a fresh
``snapshot`` so the client can start over.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

from django.conf import settings

from . import hub, links
from .hub import frame
from .publishing import encode

#: Turns a channel's event into what this client receives (None: skip it).
Personalise = Callable[[hub.Event], Awaitable[hub.Event | None]]
Snapshot = Callable[[], Awaitable[dict[str, Any]]]


def retry_line() -> str:
    return f"retry: {int(settings.REALTIME_POLL_SECONDS * 1000)}\n"


def fallback(poll: str) -> str:
    """Streams are off (Redis unavailable, or a WSGI worker): poll ``poll`` instead."""
    data = {"poll": poll, "every_seconds": settings.REALTIME_POLL_SECONDS}
    return retry_line() + frame("fallback", encode(data))


def _id_key(event_id: str) -> tuple[int, int]:
    ms, _, seq = event_id.partition("-")
    return int(ms), int(seq or 0)


def valid_id(text: str) -> bool:
    ms, dash, seq = text.partition("-")
    return (
        bool(dash)
        and ms.isascii()
        and ms.isdigit()
        and seq.isascii()
        and seq.isdigit()
        and len(text) <= 41
    )


async def stream(
    channel: str,
    last_event_id: str,
    snapshot: Snapshot | None,
    personalise: Personalise | None,
    poll: str,
) -> AsyncIterator[str | bytes]:
    conn = links.command_client()
    try:
        queue = await hub.subscribe(channel)
    except Exception:  # Redis unavailable: say so and end (the client polls)
        yield fallback(poll)
        return
    try:
        sent = last_event_id if valid_id(last_event_id) else ""
        try:
            if sent:
                oldest = await links.retrying(
                    lambda: conn.xrange(channel, count=1), f"the oldest id of {channel}"
                )
                if oldest and _id_key(oldest[0][0]) > _id_key(sent) and snapshot:
                    yield frame("snapshot", encode(await snapshot()))  # history lost
                backlog = await links.retrying(
                    lambda: conn.xrange(channel, min=f"({sent}"), f"the history of {channel}"
                )
            else:
                backlog = []
                sent = await hub.last_id(channel)
                yield retry_line() + frame(
                    "snapshot", encode(await snapshot() if snapshot else {}), sent
                )
        except Exception:
            yield fallback(poll)
            return
        for entry_id, fields in backlog:
            out = await _out(hub.event_of(entry_id, fields), personalise)
            sent = entry_id
            if out is not None:
                yield frame(out.event, out.data, out.id)
        while True:
            event = await queue.get()  # keep-alives come from the hub's one timer
            if event is hub.LOST:
                yield fallback(poll)
                return
            if event is hub.OVERFLOW:
                return  # the client resumes from its last id
            if event.id == "":
                yield ": keep-alive\n\n"
                continue
            if _id_key(event.id) <= _id_key(sent):
                continue  # already sent from the history
            sent = event.id
            out = await _out(event, personalise)
            if out is not None:
                yield out.frame  # rendered once per event (and viewer's variant) for all
    finally:
        hub.unsubscribe(channel, queue)


async def _out(event: hub.Event, personalise: Personalise | None) -> hub.Event | None:
    return event if personalise is None else await personalise(event)
