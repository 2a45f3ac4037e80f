"""What the benchmarks read off this machine and their samples, in one place: a process's
CPU time and children from ``/proc``, the load average, a free port, a percentile.

The scripts in ``bench/`` run as ``python bench/<name>.py``, so this directory is on
``sys.path`` and they import it as ``procstat``.
"""

from __future__ import annotations

import os
import socket

CLK_TCK = os.sysconf("SC_CLK_TCK")


def cpu_seconds(pid: int) -> float:
    """utime + stime of a process, 0 if it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            # The command name (in parentheses) may hold spaces: split after it.
            fields = handle.read().rsplit(")", 1)[1].split()
    except (FileNotFoundError, ProcessLookupError):
        return 0.0
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def children(pid: int) -> list[int]:
    """The direct children of a process, none if it is gone."""
    try:
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            return [int(p) for p in handle.read().split()]
    except FileNotFoundError:
        return []


def loadavg() -> str:
    """The 1, 5 and 15 minute load averages, as ``/proc/loadavg`` prints them."""
    with open("/proc/loadavg") as handle:
        return " ".join(handle.read().split()[:3])


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on now."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


def percentile(values: list[float], q: float) -> float:
    """The sample at quantile ``q`` (0-1) of ``values``, nearest rank; NaN if empty."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, round(q * (len(ordered) - 1))))]
