"""The stream clients of ``bench/realtime.py``, in processes of their own.

Five thousand client sockets in the benchmark's own process competed with the publisher
for its one core (and with the server for the machine's two): the clients now run in
``--client-processes`` spawned processes, each opening its share of the streams, saying
how many are ready (headers and the first event read), reading until told to stop and
sending back what its watchers read: (send stamp, read time) of each board update, on
the one clock of the machine.
"""

from __future__ import annotations

import asyncio
import bisect
import json
import resource
import time
from multiprocessing.connection import Connection
from typing import Any


def raise_fd_limit(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(wanted, soft)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


class Client:
    def __init__(self, path: str, token: str, watcher: bool) -> None:
        self.path, self.token, self.watcher = path, token, watcher
        self.seen: list[tuple[float, float]] = []  # (send stamp, read at) of each update
        self.open = False  # the answer's headers read
        self.ready = False  # its first event (the snapshot) read too
        self.ended = ""  # what the server said last before it closed the stream early

    async def run(self, port: int) -> None:
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        writer.write(
            f"GET {self.path} HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            f"Authorization: Bearer {self.token}\r\nAccept: text/event-stream\r\n\r\n".encode()
        )
        await writer.drain()
        status = await reader.readline()
        if b" 200 " not in status:
            raise RuntimeError(status.decode(errors="replace"))
        while (await reader.readline()) not in (b"\r\n", b""):
            pass  # headers
        self.open = True
        try:
            while True:
                line = await reader.readline()
                if not line:
                    self.ended = f"{self.ended} then closed".strip()
                    break
                if line.startswith(b"event:"):
                    self.ended = line.decode(errors="replace").strip()
                    self.ready = True
                if self.watcher and line.startswith(b"data:") and b'"t":' in line:
                    sent = _stamp(line)
                    if sent is not None:
                        self.seen.append((sent, time.time()))
        finally:
            writer.close()


def _stamp(line: bytes) -> float | None:
    # Chunked framing may put a chunk size before it; the data line holds JSON after "data:".
    text = line.decode(errors="replace").split("data:", 1)[1].strip()
    try:
        return float(json.loads(text)["t"])
    except (ValueError, KeyError, TypeError):
        return None


def delays_of(stamps: list[float], seen: list[tuple[float, float]]) -> list[float]:
    """Each sent update's delay at one watcher: until it read that state or a newer one
    (updates it never got a state for are left out, and counted as not delivered)."""
    reads = sorted(seen)
    earliest = [read for _, read in reads]  # earliest[i]: the first read of reads[i:]
    for i in range(len(earliest) - 2, -1, -1):
        earliest[i] = min(earliest[i], earliest[i + 1])
    delays = []
    for stamp in stamps:
        at = bisect.bisect_left(reads, (stamp, 0.0))
        if at < len(reads):
            delays.append(earliest[at] - stamp)
    return delays


def client_process(
    port: int,
    token: str,
    specs: list[tuple[str, bool]],
    step: int,
    ramp_seconds: float,
    pipe: Connection,
) -> None:
    """A spawned process's share: ``specs`` are (path, is a watcher) of its streams, opened
    ``step`` per 50 ms. Sends ("ready", open, ready), waits for a word, then sends
    ("done", [(ready, seen, ended) of each watcher], its CPU seconds)."""
    raise_fd_limit(len(specs) + 500)
    asyncio.run(_share(port, token, specs, step, ramp_seconds, pipe))


async def _share(
    port: int,
    token: str,
    specs: list[tuple[str, bool]],
    step: int,
    ramp_seconds: float,
    pipe: Connection,
) -> None:
    loop = asyncio.get_running_loop()
    clients = [Client(path, token, watcher) for path, watcher in specs]
    tasks: list[asyncio.Task[None]] = []
    started = time.monotonic()
    for batch in range(0, len(clients), step):
        tasks.extend(asyncio.create_task(c.run(port)) for c in clients[batch : batch + step])
        await asyncio.sleep(0.05)
    while time.monotonic() - started < ramp_seconds and not all(c.ready for c in clients):
        if all(task.done() for task in tasks):
            break
        await asyncio.sleep(0.1)
    pipe.send(("ready", sum(c.open for c in clients), sum(c.ready for c in clients)))
    await loop.run_in_executor(None, pipe.recv)
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    watchers: list[Any] = [(c.ready, c.seen, c.ended) for c in clients if c.watcher]
    pipe.send(("done", watchers, time.process_time()))
