"""The streams' Redis connections, and which Redis failures are worth a second try.

Two clients per event loop:

* the readers' (:func:`reader_client`): each busy channel's reader holds one connection
  blocked in ``XREAD``, so this pool grows with the channels, not the clients;
* the commands' (:func:`command_client`): the short reads every stream makes as it opens
  (its channel's newest id, the history after a ``Last-Event-ID``) share a **bounded** pool
  of ``REALTIME_REDIS_COMMAND_CONNECTIONS``; a client connecting in a storm of thousands
  waits its turn for a connection instead of opening one of its own (an unbounded pool
  opened thousands at once and Redis refused the rest: "Too many connections").

:func:`retrying` runs one of those reads again after a *passing* failure (a timeout, a
connection Redis closed or refused to accept while at its limit) a few times within about
a second. A Redis that is down refuses the connection outright: that is raised at once, so
a stream still falls back to polling without waiting (docs/live.md, "Degradation").
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

import redis
import redis.asyncio as aioredis
from django.conf import settings

log = logging.getLogger(__name__)

T = TypeVar("T")

#: A reader's ``XREAD`` blocks this long; its socket waits longer than that.
BLOCK_MS = 5000
#: Pauses before the second, third and fourth try of a read that failed in passing.
RETRY_PAUSES = (0.05, 0.2, 0.6)
#: What a Redis call raises when it fails (redis-py's errors; a socket's own).
FAILURES = (redis.RedisError, OSError)

_readers: dict[int, aioredis.Redis] = {}
_commands: dict[int, aioredis.Redis] = {}


def _connect_timeout() -> float:
    return float(settings.REALTIME_REDIS_CONNECT_TIMEOUT or 0.5)


def reader_client() -> aioredis.Redis:
    """This event loop's client for blocking reads (one connection per reader)."""
    loop = id(asyncio.get_running_loop())
    found = _readers.get(loop)
    if found is None:
        found = _readers[loop] = aioredis.Redis.from_url(
            settings.REDIS_URL,
            protocol=2,
            socket_connect_timeout=_connect_timeout(),
            socket_timeout=BLOCK_MS / 1000 + 5,
            decode_responses=True,
        )
    return found


def command_client() -> aioredis.Redis:
    """This event loop's client for short reads: a bounded pool a caller waits on."""
    loop = id(asyncio.get_running_loop())
    found = _commands.get(loop)
    if found is None:
        pool = aioredis.BlockingConnectionPool.from_url(
            settings.REDIS_URL,
            max_connections=settings.REALTIME_REDIS_COMMAND_CONNECTIONS,
            timeout=_connect_timeout() + 3,  # waiting for a free connection
            protocol=2,
            socket_connect_timeout=_connect_timeout(),
            socket_timeout=_connect_timeout() + 3,
            decode_responses=True,
        )
        found = _commands[loop] = aioredis.Redis(connection_pool=pool)
    return found


def redis_is_down(error: BaseException) -> bool:
    """Did Redis refuse the connection itself (nothing listens): no try will do better."""
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, ConnectionRefusedError):
            return True
        seen = seen.__cause__ or seen.__context__
    return "Connection refused" in str(error)


async def retrying(read: Callable[[], Awaitable[T]], what: str) -> T:
    """``read()``, tried again after a passing failure (raised at once if Redis is down,
    and after the last pause if it keeps failing)."""
    for pause in (*RETRY_PAUSES, None):
        try:
            return await read()
        except FAILURES as error:
            if pause is None or redis_is_down(error):
                raise
            log.info("realtime: %s failed in passing (%s); again in %.2f s", what, error, pause)
            await asyncio.sleep(pause)
    raise AssertionError("unreachable: the last try returns or raises")
