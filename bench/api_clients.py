"""The load clients of ``bench/api.py``: a minimal HTTP/1.1 client on asyncio (no
library in the measured path), the clients that play practice plays move by move, in
scripted batches, or call the bare endpoint, and the loop that drives them, saturated or
paced.
"""

from __future__ import annotations

import asyncio
import json
import random
import time
from dataclasses import dataclass, field

# --- a minimal HTTP/1.1 client ------------------------------------------------------------------


class HTTP:
    """One connection at a time to 127.0.0.1:port; reconnects when the server closes
    (gunicorn's sync workers close after every response)."""

    def __init__(self, port: int, token: str) -> None:
        self.port = port
        self.token = token
        self.reader: asyncio.StreamReader | None = None
        self.writer: asyncio.StreamWriter | None = None

    async def close(self) -> None:
        if self.writer is not None:
            self.writer.close()
            try:
                await self.writer.wait_closed()
            except OSError:
                pass
        self.reader = self.writer = None

    async def request(self, method: str, path: str, body: object | None) -> tuple[int, bytes]:
        payload = b"" if body is None else json.dumps(body).encode()
        head = (
            f"{method} {path} HTTP/1.1\r\nHost: 127.0.0.1:{self.port}\r\n"
            f"Authorization: Bearer {self.token}\r\n"
            f"Content-Type: application/json\r\nContent-Length: {len(payload)}\r\n\r\n"
        ).encode()
        reused = self.writer is not None
        if self.writer is None:
            self.reader, self.writer = await asyncio.open_connection("127.0.0.1", self.port)
        assert self.reader is not None and self.writer is not None
        self.writer.write(head + payload)
        status_line = await self.reader.readline()
        if not status_line:
            await self.close()
            if reused:  # a kept-alive connection the server closed while idle: once more
                return await self.request(method, path, body)
            raise ConnectionError("server closed the connection")
        status = int(status_line.split()[1])
        length = 0
        close = False
        while True:
            line = await self.reader.readline()
            if line in (b"\r\n", b"\n", b""):
                break
            name, _, value = line.decode("latin-1").partition(":")
            name = name.strip().lower()
            if name == "content-length":
                length = int(value)
            elif name == "connection" and value.strip().lower() == "close":
                close = True
        data = await self.reader.readexactly(length) if length else b""
        if close:
            await self.close()
        return status, data


# --- clients ------------------------------------------------------------------------------------

_scripts: dict[tuple[str, int, int], list[dict]] = {}


def script_for(preset: str, seed: int, max_moves: int) -> list[dict]:
    """The moves a batch client sends for the play of ``seed``: the engine (which knows the
    deck of a seed, as the server does) picks a foundation move when there is one, else a
    random legal move, until the play ends or ``max_moves``, then resigns. Computed once per
    seed and kept, so the client's own CPU stays out of the measured window after warm-up."""
    key = (preset, seed, max_moves)
    if key not in _scripts:
        from games import engine

        rng = random.Random(seed)
        state = engine.new_game(engine.get_rules(preset, {}), engine.deck_from_seed(seed))
        moves: list[dict] = []
        while len(moves) < max_moves and engine.status(state) == engine.PLAYING:
            legal = engine.legal_moves(state)
            home = [m for m in legal if m.dst == "f"]
            move = rng.choice(home or legal)
            moves.append(move.to_dict())
            state = engine.apply_move(state, move)
        if engine.status(state) == engine.PLAYING:
            moves.append({"type": "resign"})
        _scripts[key] = moves
    return _scripts[key]


@dataclass
class Sample:
    start: float
    end: float
    ok: bool
    moves: int = 1


@dataclass
class Client:
    http: HTTP
    preset: str
    max_moves: int
    rng: random.Random
    play: dict | None = None
    plays_started: int = 0
    samples: list[Sample] = field(default_factory=list)
    error_examples: list[str] = field(default_factory=list)
    batch_size: int = 50
    seeds: list[int] = field(default_factory=list)
    script: list[dict] = field(default_factory=list)
    script_pos: int = 0

    async def start_play(self, seed: int | None = None) -> None:
        """Start a practice play of ``seed`` (a random one by default)."""
        if seed is None:
            seed = self.rng.randrange(1, 2**31)
        status, data = await self.http.request(
            "POST", "/api/v1/plays", {"preset": self.preset, "seed": seed}
        )
        if status != 201:
            raise RuntimeError(f"starting a play: {status} {data[:300]!r}")
        self.play = json.loads(data)
        self.plays_started += 1

    def next_move(self) -> dict:
        play = self.play
        assert play is not None
        legal = play["legal_moves"]
        if not legal or play["seq"] >= self.max_moves:
            return {"type": "resign"}
        home = [m for m in legal if m.get("to") == "f"]
        return self.rng.choice(home or legal)

    async def timed_post(self, path: str, body: dict) -> tuple[int, bytes, float, float]:
        """POST ``body``; (status, data, start, end). A dropped connection is status 0 and
        is reopened on the next request."""
        start = time.perf_counter()
        try:
            status, data = await self.http.request("POST", path, body)
        except (OSError, ConnectionError, asyncio.IncompleteReadError) as error:
            status, data = 0, repr(error).encode()
            await self.http.close()
        return status, data, start, time.perf_counter()

    async def move_once(self) -> None:
        if self.play is None or self.play["status"] != "playing":
            await self.start_play()
        play = self.play
        body = {"seq": play["seq"], "move": self.next_move()}
        status, data, start, end = await self.timed_post(f"/api/v1/plays/{play['id']}/moves", body)
        ok = status == 200
        self.samples.append(Sample(start, end, ok))
        if ok:
            self.play = json.loads(data)
        else:
            if len(self.error_examples) < 3:
                self.error_examples.append(f"{status} {data[:200]!r}")
            # Resynchronise with the server's view of the play.
            status, data = await self.http.request("GET", f"/api/v1/plays/{play['id']}", None)
            self.play = json.loads(data) if status == 200 else None

    async def batch_once(self) -> None:
        """Send the next ``batch_size`` moves of the client's scripted play (see
        ``script_for``) in one request; a finished script starts a new play."""
        if self.play is None or self.script_pos >= len(self.script):
            seed = self.rng.choice(self.seeds)
            await self.start_play(seed)
            # Plays long enough for whole batches: a play's last batch is shorter, and its
            # start (not counted) costs server CPU inside the window.
            self.script = script_for(self.preset, seed, max(self.max_moves, 10 * self.batch_size))
            self.script_pos = 0
        moves = self.script[self.script_pos : self.script_pos + self.batch_size]
        body = {"seq": self.script_pos, "moves": moves}
        path = f"/api/v1/plays/{self.play['id']}/moves"
        status, data, start, end = await self.timed_post(path, body)
        ok = status == 200
        self.samples.append(Sample(start, end, ok, len(moves)))
        if ok:
            self.script_pos += len(moves)
        else:
            if len(self.error_examples) < 3:
                self.error_examples.append(f"{status} {data[:200]!r}")
            self.play = None  # start over with a new play

    async def noop_once(self) -> None:
        status, data, start, end = await self.timed_post("/bench/noop", {})
        ok = status == 200 and data == b"{}"
        self.samples.append(Sample(start, end, ok))
        if not ok and len(self.error_examples) < 3:
            self.error_examples.append(f"{status} {data[:200]!r}")


async def drive(
    clients: list[Client], endpoint: str, duration: float, interval: float | None
) -> None:
    """Every client sends requests for ``duration`` seconds: back to back, or one every
    ``interval`` seconds (staggered) when paced."""
    deadline = time.perf_counter() + duration

    async def run(client: Client, offset: float) -> None:
        once = {"move": client.move_once, "batch": client.batch_once, "bare": client.noop_once}[
            endpoint
        ]
        next_at = time.perf_counter() + offset
        while time.perf_counter() < deadline:
            if interval is not None:
                delay = next_at - time.perf_counter()
                if delay > 0:
                    await asyncio.sleep(delay)
                next_at += interval
            await once()

    await asyncio.gather(
        *(
            run(client, (interval or 0) * index / len(clients))
            for index, client in enumerate(clients)
        )
    )
