"""PostgreSQL clusters of a test's own: a primary and a streaming standby on loopback.

``initdb`` and ``pg_ctl`` from /usr/lib/postgresql/*/bin, data directories under a fresh
temporary directory, their own ports; the machine's own cluster is never touched. As root
(a container), the servers run as the ``postgres`` user, which PostgreSQL requires.
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg


def pg_bin(name: str) -> str:
    found = sorted(glob.glob(f"/usr/lib/postgresql/*/bin/{name}"))
    if found:
        return found[-1]
    located = shutil.which(name)
    if located is None:
        raise FileNotFoundError(f"{name}: no PostgreSQL server binaries")
    return located


def port_near(preferred: int) -> int:
    """``preferred`` if it is free, else any free port."""
    for candidate in (preferred, 0):
        with socket.socket() as sock:
            try:
                sock.bind(("127.0.0.1", candidate))
            except OSError:
                continue
            return sock.getsockname()[1]
    raise OSError("no free port")


class Cluster:
    def __init__(self, root: Path, name: str, port: int) -> None:
        self.root, self.data, self.port = root, root / name, port
        self.log = root / f"{name}.log"

    @property
    def url(self) -> str:
        return f"postgres://postgres@127.0.0.1:{self.port}"

    def run(self, *command: str, timeout: float = 60) -> None:
        prefix = ["runuser", "-u", "postgres", "--"] if os.geteuid() == 0 else []
        subprocess.run([*prefix, *command], check=True, timeout=timeout, capture_output=True)

    def init(self) -> None:
        self.run(pg_bin("initdb"), "-D", str(self.data), "-U", "postgres", "--auth=trust", "-N")
        settings = (
            f"port = {self.port}\nlisten_addresses = '127.0.0.1'\n"
            f"unix_socket_directories = '{self.root}'\nfsync = off\n"
            "synchronous_commit = off\nfull_page_writes = off\nshared_buffers = 32MB\n"
            "max_connections = 40\nwal_level = replica\nmax_wal_senders = 4\n"
        )
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(settings)

    def clone_from(self, primary: Cluster) -> None:
        """A streaming standby of ``primary``: ``pg_basebackup -R`` writes standby.signal
        and primary_conninfo; the port is this cluster's own."""
        self.run(
            pg_bin("pg_basebackup"),
            "-h",
            "127.0.0.1",
            "-p",
            str(primary.port),
            "-U",
            "postgres",
            "-D",
            str(self.data),
            "-X",
            "stream",
            "-R",
            "-c",
            "fast",
        )
        with open(self.data / "postgresql.conf", "a") as conf:
            conf.write(f"port = {self.port}\nhot_standby = on\n")

    def start(self) -> None:
        self.run(pg_bin("pg_ctl"), "-D", str(self.data), "-l", str(self.log), "-w", "start")

    def stop(self, mode: str = "fast") -> None:
        if (self.data / "postmaster.pid").exists():
            self.run(pg_bin("pg_ctl"), "-D", str(self.data), "-m", mode, "-w", "stop")

    def connect(self, database: str = "postgres") -> psycopg.Connection:
        return psycopg.connect(f"{self.url}/{database}", autocommit=True, connect_timeout=5)


def new_root() -> Path:
    root = Path(tempfile.mkdtemp(prefix="haven-pg-"))
    if os.geteuid() == 0:
        entry = pwd.getpwnam("postgres")
        os.chown(root, entry.pw_uid, entry.pw_gid)
    root.chmod(0o755)
    return root


def wait_replayed(primary: Cluster, standby: Cluster, database: str, timeout: float = 20) -> None:
    """Until the standby has replayed everything the primary has written so far."""
    with primary.connect(database) as pg:
        # A record of our own marks "everything so far" (the insert position alone may be a
        # fresh segment's header, which no record ever ends past on an idle primary); the
        # switch flushes and ships it at once (these clusters commit asynchronously).
        target = pg.execute(
            "SELECT pg_logical_emit_message(false, 'haven-tests', 'replayed?')"
        ).fetchone()[0]
        pg.execute("SELECT pg_switch_wal()")
    deadline = time.monotonic() + timeout
    with standby.connect(database) as pg:
        while time.monotonic() < deadline:
            done = pg.execute("SELECT pg_last_wal_replay_lsn() >= %s::pg_lsn", [target]).fetchone()[
                0
            ]
            if done:
                return
            time.sleep(0.05)
    log = standby.log.read_text(errors="replace")[-2000:] if standby.log.exists() else ""
    raise TimeoutError(f"the standby did not catch up to {target}; its log ends:\n{log}")
