"""Live streams on loopback: connections one server holds, memory per idle stream, and the
delay from a finish to its board update reaching watchers (docs/bench/realtime.md).

Starts its own redis-server and one uvicorn worker (config.asgi, on the database of
DATABASE_URL; migrated), then:

1. opens ``--clients`` streams in this process (asyncio sockets): ``--watchers`` of them on
   one day's board stream, the rest idle on the player stream (most connections of a live
   service are idle); the server's resident memory before and after gives the memory per
   idle connection;
2. publishes ``--rate`` board updates a second for ``--seconds`` through
   ``realtime.publishing.publish`` (the path a recorded score takes: XADD to the channel),
   each stamped with its send time; every watcher timestamps each update it reads. An
   update's delay at a watcher is the time until the watcher read a state at least as new
   (with coalescing, ``--coalesce``, a burst arrives as its latest update: the earlier ones
   of it count until then, so coalescing cannot hide a wait).

Bounded: connection ramp, run and drain each have a deadline; everything it started is
stopped at the end. The last line reads
``realtime: C clients, p99 P ms from finish to update at R finishes/s``.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import json
import os
import resource
import shutil
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.procstat import free_port, loadavg, percentile  # noqa: E402

#: The server's ASGI application: the streams served directly (past Django's middleware
#: threads), or the old path, every request through Django's handler and stack.
APPS = {"direct": "config.asgi:application", "django": "config.asgi:django_application"}


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


def raise_fd_limit(wanted: int) -> int:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    target = hard if hard != resource.RLIM_INFINITY else max(wanted, soft)
    resource.setrlimit(resource.RLIMIT_NOFILE, (target, hard))
    return target


class Client:
    def __init__(self, path: str, token: str, watcher: bool) -> None:
        self.path, self.token, self.watcher = path, token, watcher
        self.seen: list[tuple[float, float]] = []  # (send stamp, read at) of each update
        self.open = False
        self.ended = ""  # what the server said last before it closed the stream early

    async def run(self, port: int, ready: asyncio.Event, stop: asyncio.Event) -> None:
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
        ready.set()
        try:
            while not stop.is_set():
                line = await reader.readline()
                if not line:
                    self.ended = f"{self.ended} then closed".strip()
                    break
                if line.startswith(b"event:"):
                    self.ended = line.decode(errors="replace").strip()
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


def prepare_django(redis_url: str, prefix: str):
    os.environ["REDIS_URL"] = redis_url
    os.environ["REALTIME_REDIS_PREFIX"] = prefix
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from rest_framework_simplejwt.tokens import RefreshToken

    call_command("migrate", verbosity=0)
    user, _ = get_user_model().objects.get_or_create(username="bench-realtime")
    return str(RefreshToken.for_user(user).access_token)


async def main_async(args: argparse.Namespace, token: str, redis_server: subprocess.Popen) -> str:
    from games.daily import utc_today
    from realtime import channels
    from realtime.publishing import publish

    port = free_port()

    env = {
        **os.environ,
        "REALTIME_KEEPALIVE_SECONDS": "15",
        "REALTIME_COALESCE_SECONDS": str(args.coalesce),
        "LOG_LEVEL": "WARNING",
    }
    server = subprocess.Popen(
        [
            str(Path(sys.executable).parent / "uvicorn"),
            APPS[args.via],
            "--host",
            "127.0.0.1",
            "--port",
            str(port),
            "--no-access-log",
            "--backlog",
            "4096",
            "--timeout-graceful-shutdown",
            "1",
        ],
        cwd=ROOT,
        env=env,
        stdout=open(args.server_log, "ab") if args.server_log else subprocess.DEVNULL,  # noqa: SIM115
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: raise_fd_limit(args.clients + 1000),
    )
    stop = asyncio.Event()
    tasks: list[asyncio.Task[None]] = []
    try:
        for _ in range(200):
            try:
                _, w = await asyncio.open_connection("127.0.0.1", port)
                w.close()
                break
            except OSError:
                await asyncio.sleep(0.1)
        await asyncio.sleep(1.0)
        base_rss = rss_kib(server.pid)
        day = utc_today().isoformat()
        board = f"/api/v1/leaderboards/easthaven/daily/{day}/stream"
        clients = [
            Client(
                board if n < args.watchers else "/api/v1/players/me/stream",
                token,
                n < args.watchers,
            )
            for n in range(args.clients)
        ]
        started = time.monotonic()
        for batch in range(0, len(clients), args.ramp):
            for client in clients[batch : batch + args.ramp]:
                tasks.append(asyncio.create_task(client.run(port, asyncio.Event(), stop)))
            await asyncio.sleep(0.05)
            if time.monotonic() - started > args.ramp_seconds:
                break
        deadline = time.monotonic() + args.ramp_seconds
        while time.monotonic() < deadline and sum(c.open for c in clients) < len(tasks):
            await asyncio.sleep(0.25)
        held = sum(c.open for c in clients)
        ramp = time.monotonic() - started
        await asyncio.sleep(2.0)
        idle_rss = rss_kib(server.pid)
        per_conn = (idle_rss - base_rss) / max(1, held)
        print(
            f"connected {held}/{args.clients} streams in {ramp:.1f} s; server RSS "
            f"{base_rss / 1024:.0f} → {idle_rss / 1024:.0f} MiB: {per_conn:.1f} KiB per "
            f"idle stream; load {loadavg()}",
            flush=True,
        )

        channel = channels.board("easthaven", utc_today())
        top = [
            {
                "rank": r,
                "username": f"p{r}",
                "won": True,
                "foundation_cards": 52,
                "moves": 90 + r,
                "seconds": 100.0 + r,
                "undos": 0,
                "finished_at": "2026-12-06T00:00:00Z",
            }
            for r in range(1, 11)
        ]
        loop = asyncio.get_running_loop()
        sent = 0
        stamps: list[float] = []
        begin = time.monotonic()
        while time.monotonic() - begin < args.seconds:
            due = begin + sent / args.rate
            if due > time.monotonic():
                await asyncio.sleep(due - time.monotonic())
            stamps.append(time.time())
            data = {
                "top": top,
                "changed": {"username": f"p{sent % 10}", "rank": 11},
                "t": stamps[-1],
            }
            await loop.run_in_executor(None, publish, channel, "board", data)
            sent += 1
        await asyncio.sleep(args.drain)
        lost = [c.ended for c in clients if c.watcher and c.ended.endswith("closed")]
        if lost:
            print(f"{len(lost)} watchers' streams ended early, e.g. after {lost[0]!r}")
        delays = [d for c in clients if c.watcher for d in delays_of(stamps, c.seen)]
        frames = sum(len(c.seen) for c in clients)
        expected = sent * sum(1 for c in clients if c.watcher and c.open)
        p50 = percentile(delays, 0.50) * 1000 if delays else float("nan")
        p99 = percentile(delays, 0.99) * 1000 if delays else float("nan")
        rate = sent / args.seconds
        print(
            f"published {sent} board updates in {args.seconds:.0f} s ({rate:.0f}/s) to "
            f"{args.watchers} watchers (coalescing {args.coalesce * 1000:.0f} ms): "
            f"{len(delays)}/{expected} delivered in {frames} frames; delay p50 "
            f"{p50:.1f} ms, p99 {p99:.1f} ms, max {max(delays, default=0) * 1000:.1f} ms; "
            f"load {loadavg()}",
            flush=True,
        )
        return (
            f"realtime: {held} clients, p99 {p99:.0f} ms from finish to update "
            f"at {rate:.0f} finishes/s"
        )
    finally:
        stop.set()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        server.terminate()
        redis_server.terminate()
        for process in (server, redis_server):
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true", help="500 clients, 10 s (< 5 min)")
    parser.add_argument("--clients", type=int, default=5000)
    parser.add_argument("--watchers", type=int, default=200)
    parser.add_argument("--rate", type=float, default=100.0, help="finishes per second")
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--ramp", type=int, default=100, help="connections opened per step")
    parser.add_argument("--ramp-seconds", type=float, default=120.0)
    parser.add_argument("--drain", type=float, default=3.0)
    parser.add_argument(
        "--coalesce",
        type=float,
        default=0.1,
        help="the server's REALTIME_COALESCE_SECONDS (0: every update, the old path)",
    )
    parser.add_argument(
        "--via",
        choices=sorted(APPS),
        default="direct",
        help="direct: streams past Django's middleware (config.direct_asgi); django: the old path",
    )
    parser.add_argument("--server-log", help="append the server's output to this file")
    args = parser.parse_args()
    if args.quick:
        args.clients, args.watchers, args.seconds = 500, 50, 10.0
    if shutil.which("redis-server") is None:
        sys.exit("needs redis-server on PATH")
    limit = raise_fd_limit(args.clients + 1000)
    if limit < args.clients + 200:
        print(f"file descriptors: the limit is {limit}; holding at most {limit - 200} streams")
        args.clients = limit - 200
    redis_port = free_port()
    redis_server = subprocess.Popen(
        [
            "redis-server",
            "--port",
            str(redis_port),
            "--save",
            "",
            "--appendonly",
            "no",
            "--maxclients",
            "20000",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.5)
    try:
        token = prepare_django(f"redis://127.0.0.1:{redis_port}/0", f"bench-rt-{os.getpid()}:")
    except BaseException:
        redis_server.terminate()
        raise
    print(asyncio.run(main_async(args, token, redis_server)))


if __name__ == "__main__":
    main()
