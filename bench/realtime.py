"""Live streams on loopback: connections one server holds, memory per idle stream, and the
delay from a finish to its board update reaching watchers (docs/bench/realtime.md).

Starts its own redis-server and uvicorn (``--workers``, default 1; config.asgi, on the
database of DATABASE_URL; migrated), then:

1. opens ``--clients`` streams from ``--client-processes`` spawned processes (asyncio
   sockets; bench/realtime_clients.py): ``--watchers`` of them on one day's board stream,
   the rest idle on the player stream (most connections of a live service are idle); a
   stream counts once its first event (the snapshot) is read; the server's resident memory
   before and after gives the memory per idle connection;
2. publishes ``--rate`` board updates a second for ``--seconds`` through
   ``realtime.publishing.publish`` (the path a recorded score takes: XADD to the channel),
   each stamped with its send time; every watcher timestamps each update it reads. An
   update's delay at a watcher is the time until the watcher read a state at least as new
   (with coalescing, ``--coalesce``, a burst arrives as its latest update: the earlier ones
   of it count until then, so coalescing cannot hide a wait). The CPU each side used
   meanwhile (server, clients, publisher, Redis) is printed in cores.

``--via django`` serves every request through Django's handler (the streams' old path),
``--plain-uvicorn`` uses asyncio's loop and h11 (uvicorn without uvloop and httptools),
``--server-root`` serves another checkout (an older commit's) for a same-run baseline.
Bounded: connection ramp, run and drain each have a deadline; everything it started is
stopped at the end. The last line reads
``realtime: C clients, p99 P ms from finish to update at R finishes/s``.
"""

from __future__ import annotations

import argparse
import asyncio
import multiprocessing
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

from bench.procstat import children, cpu_seconds, free_port, loadavg, percentile  # noqa: E402
from bench.realtime_clients import client_process, delays_of, raise_fd_limit  # noqa: E402

#: The server's ASGI application: the streams served directly (past Django's middleware
#: threads), or the old path, every request through Django's handler and stack.
APPS = {"direct": "config.asgi:application", "django": "config.asgi:django_application"}


def rss_kib(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except FileNotFoundError:
        pass
    return 0


def server_pids(server: subprocess.Popen) -> list[int]:
    """uvicorn and its workers (``--workers``: a supervisor and its children)."""
    return [server.pid, *children(server.pid)]


def cpu_of(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) for pid in pids)


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


def start_server(args: argparse.Namespace, port: int) -> subprocess.Popen:
    env = {
        **os.environ,
        "REALTIME_KEEPALIVE_SECONDS": "15",
        "REALTIME_COALESCE_SECONDS": str(args.coalesce),
        "LOG_LEVEL": "WARNING",
    }
    command = [str(Path(sys.executable).parent / "uvicorn"), APPS[args.via]]
    command += ["--host", "127.0.0.1", "--port", str(port), "--no-access-log"]
    command += ["--backlog", "4096", "--timeout-graceful-shutdown", "1"]
    if args.plain_uvicorn:  # as without uvloop and httptools installed
        command += ["--loop", "asyncio", "--http", "h11"]
    if args.workers > 1:
        command += ["--workers", str(args.workers)]
    return subprocess.Popen(
        command,
        cwd=args.server_root or ROOT,
        env=env,
        stdout=open(args.server_log, "ab") if args.server_log else subprocess.DEVNULL,  # noqa: SIM115
        stderr=subprocess.STDOUT,
        preexec_fn=lambda: raise_fd_limit(args.clients + 1000),
    )


async def _answering(port: int) -> None:
    for _ in range(300):
        try:
            _, writer = await asyncio.open_connection("127.0.0.1", port)
            writer.close()
            return
        except OSError:
            await asyncio.sleep(0.1)


async def _publish(args: argparse.Namespace, channel: str) -> list[float]:
    """``--rate`` board updates a second for ``--seconds``, each stamped with its send time."""
    from realtime.publishing import publish

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
    stamps: list[float] = []
    begin = time.monotonic()
    while time.monotonic() - begin < args.seconds:
        due = begin + len(stamps) / args.rate
        if due > time.monotonic():
            await asyncio.sleep(due - time.monotonic())
        stamps.append(time.time())
        changed = {"username": f"p{len(stamps) % 10}", "rank": 11}
        data = {"top": top, "changed": changed, "t": stamps[-1]}
        await loop.run_in_executor(None, publish, channel, "board", data)
    return stamps


async def main_async(args: argparse.Namespace, token: str, redis_server: subprocess.Popen) -> str:
    from games.daily import utc_today
    from realtime import channels

    port = free_port()
    server = start_server(args, port)
    loop = asyncio.get_running_loop()
    spawn = multiprocessing.get_context("spawn")
    processes: list[tuple[Any, Any]] = []
    try:
        await _answering(port)
        await asyncio.sleep(2.0 if args.workers > 1 else 1.0)
        base_rss = sum(rss_kib(pid) for pid in server_pids(server))
        day = utc_today().isoformat()
        board = f"/api/v1/leaderboards/easthaven/daily/{day}/stream"
        specs = [
            (board, True) if n < args.watchers else ("/api/v1/players/me/stream", False)
            for n in range(args.clients)
        ]
        count = max(1, args.client_processes)
        step = max(1, args.ramp // count)
        started = time.monotonic()
        for share in range(count):
            mine, theirs = spawn.Pipe()
            process = spawn.Process(
                target=client_process,
                args=(port, token, specs[share::count], step, args.ramp_seconds, theirs),
            )
            process.start()
            processes.append((process, mine))
        answers = [await loop.run_in_executor(None, pipe.recv) for _, pipe in processes]
        held, ready = sum(a[1] for a in answers), sum(a[2] for a in answers)
        ramp = time.monotonic() - started
        await asyncio.sleep(2.0)
        idle_rss = sum(rss_kib(pid) for pid in server_pids(server))
        per_conn = (idle_rss - base_rss) / max(1, held)
        plain = ", plain uvicorn" if args.plain_uvicorn else ""
        print(
            f"connected {held}/{args.clients} streams ({ready} with their snapshot) in "
            f"{ramp:.1f} s from {count} client processes; server ({args.via}, "
            f"{args.workers} worker(s){plain}) RSS {base_rss / 1024:.0f} → "
            f"{idle_rss / 1024:.0f} MiB: "
            f"{per_conn:.1f} KiB per idle stream; load {loadavg()}",
            flush=True,
        )
        sides = {
            "server": server_pids(server),
            "clients": [process.pid for process, _ in processes],
            "publisher": [os.getpid()],
            "redis": [redis_server.pid],
        }
        before = {side: cpu_of(pids) for side, pids in sides.items()}
        begin = time.monotonic()
        stamps = await _publish(args, channels.board("easthaven", utc_today()))
        await asyncio.sleep(args.drain)
        wall = time.monotonic() - begin
        used = {side: (cpu_of(pids) - before[side]) / wall for side, pids in sides.items()}
        for _, pipe in processes:
            pipe.send("stop")
        watchers = []
        for _, pipe in processes:
            watchers.extend((await loop.run_in_executor(None, pipe.recv))[1])
        return report(args, stamps, watchers, held, used)
    finally:
        for process, _ in processes:
            process.join(30)
            if process.is_alive():
                process.kill()
        server.terminate()
        redis_server.terminate()
        for each in (server, redis_server):
            try:
                each.wait(10)
            except subprocess.TimeoutExpired:
                each.kill()


def report(
    args: argparse.Namespace,
    stamps: list[float],
    watchers: list[tuple[bool, list[tuple[float, float]], str]],
    held: int,
    used: dict[str, float],
) -> str:
    lost = [ended for _, _, ended in watchers if ended.endswith("closed")]
    if lost:
        print(f"{len(lost)} watchers' streams ended early, e.g. after {lost[0]!r}")
    delays = [d for _, seen, _ in watchers for d in delays_of(stamps, seen)]
    frames = sum(len(seen) for _, seen, _ in watchers)
    expected = len(stamps) * sum(1 for ready, _, _ in watchers if ready)
    p50 = percentile(delays, 0.50) * 1000 if delays else float("nan")
    p99 = percentile(delays, 0.99) * 1000 if delays else float("nan")
    rate = len(stamps) / args.seconds
    print(
        f"published {len(stamps)} board updates in {args.seconds:.0f} s ({rate:.0f}/s) to "
        f"{args.watchers} watchers (coalescing {args.coalesce * 1000:.0f} ms): "
        f"{len(delays)}/{expected} delivered in {frames} frames; delay p50 "
        f"{p50:.1f} ms, p99 {p99:.1f} ms, max {max(delays, default=0) * 1000:.1f} ms; "
        f"load {loadavg()}",
        flush=True,
    )
    print(
        "CPU while publishing (cores of 2): "
        + ", ".join(f"{side} {cores:.2f}" for side, cores in used.items()),
        flush=True,
    )
    return (
        f"realtime: {held} clients, p99 {p99:.0f} ms from finish to update "
        f"at {rate:.0f} finishes/s"
    )


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
    parser.add_argument(
        "--client-processes", type=int, default=2, help="processes the clients are split over"
    )
    parser.add_argument("--workers", type=int, default=1, help="uvicorn worker processes")
    parser.add_argument(
        "--plain-uvicorn",
        action="store_true",
        help="asyncio's loop and h11 (uvicorn's choice without uvloop and httptools)",
    )
    parser.add_argument(
        "--server-root",
        help="serve from this checkout (e.g. an older commit's, for a same-run baseline)",
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
