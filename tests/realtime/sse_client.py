"""A small Server-Sent Events reader for the tests (and the benchmark's shape of one)."""

from __future__ import annotations

import json
import time
from dataclasses import dataclass
from typing import Any

import httpx


@dataclass
class Event:
    event: str
    data: str
    id: str = ""
    retry: int | None = None

    def json(self) -> Any:
        return json.loads(self.data)


def parse(lines: list[str]) -> Event | None:
    fields: dict[str, list[str]] = {}
    for line in lines:
        if line.startswith(":"):
            continue
        name, _, value = line.partition(":")
        fields.setdefault(name, []).append(value[1:] if value.startswith(" ") else value)
    if "event" not in fields and "data" not in fields:
        return None
    retry = fields.get("retry")
    return Event(
        event=(fields.get("event") or ["message"])[-1],
        data="\n".join(fields.get("data", [])),
        id=(fields.get("id") or [""])[-1],
        retry=int(retry[-1]) if retry else None,
    )


class Stream:
    """An open stream; :meth:`take` reads events until a count or a time is reached."""

    def __init__(self, url: str, headers: dict[str, str] | None = None, timeout: float = 10):
        self.client = httpx.Client(timeout=httpx.Timeout(timeout, read=timeout))
        self.context = self.client.stream("GET", url, headers=headers or {})
        self.response = self.context.__enter__()
        self.lines = self.response.iter_lines()
        self.ended = False

    def take(self, count: int, within: float = 10.0, until: str | None = None) -> list[Event]:
        events: list[Event] = []
        pending: list[str] = []
        deadline = time.monotonic() + within
        while len(events) < count and time.monotonic() < deadline:
            try:
                line = next(self.lines)
            except (StopIteration, httpx.ReadTimeout, httpx.RemoteProtocolError):
                self.ended = True
                break
            if line:
                pending.append(line)
                continue
            event = parse(pending)
            pending = []
            if event is not None:
                events.append(event)
                if until and event.event == until:
                    break
        return events

    def close(self) -> None:
        try:
            self.context.__exit__(None, None, None)
        finally:
            self.client.close()
