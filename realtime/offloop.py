"""Running the ORM from a stream's coroutine without pinning a thread or a connection.

A stream lives for hours. Django's default for ``sync_to_async`` (thread-sensitive) runs
every call of a request in that request's own thread, and the thread's PostgreSQL
connection would stay open as long as the stream: thousands of streams, thousands of
connections. So the streams' database work runs in the shared executor (a bounded pool)
and closes its connection when done: a stream holds no connection between its reads.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import sync_to_async
from django.db import connections

P = ParamSpec("P")
T = TypeVar("T")


def off_loop(function: Callable[P, T]) -> Callable[P, Awaitable[T]]:
    def run(*args: Any, **kwargs: Any) -> T:
        try:
            return function(*args, **kwargs)
        finally:
            connections.close_all()

    return sync_to_async(run, thread_sensitive=False)  # type: ignore[return-value]
