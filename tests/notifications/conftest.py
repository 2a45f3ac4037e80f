"""A local webhook receiver (a thread on a port of its own) and the settings that point the
outbox at it."""

from __future__ import annotations

import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from notifications import signing

PORT = 18350
SECRET = "test-webhook-secret-" + "x" * 24


class Receiver:
    """What the webhook got: every request (header names lower-cased), the events by id
    (deduped, as a relay would) and the number of answers to fail first."""

    def __init__(self) -> None:
        self.requests: list[tuple[dict[str, str], bytes]] = []
        self.events: dict[str, dict] = {}
        self.fail_next = 0
        self.stall_next = 0  # answers to hold back (the event already taken) ...
        self.stall_seconds = 0.0  # ... this long: a sender killed meanwhile never hears
        self.lock = threading.Lock()

    def take(self, headers: dict[str, str], body: bytes) -> int:
        with self.lock:
            self.requests.append((headers, body))
            if self.fail_next:
                self.fail_next -= 1
                return 503
            if not signing.verify(SECRET, body, headers.get(signing.SIGNATURE_HEADER.lower(), "")):
                return 401
            event_id = headers[signing.EVENT_ID_HEADER.lower()]
            self.events.setdefault(event_id, json.loads(body))  # a repeat is acknowledged
            return 204

    def of_type(self, kind: str) -> list[dict]:
        return [event for event in self.events.values() if event["type"] == kind]


@pytest.fixture
def receiver(settings):
    got = Receiver()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 (http.server's name)
            body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
            status = got.take({k.lower(): v for k, v in self.headers.items()}, body)
            with got.lock:
                stall = got.stall_next > 0
                got.stall_next -= stall
            if stall:
                time.sleep(got.stall_seconds)
            try:
                self.send_response(status)
                self.end_headers()
            except OSError:  # the sender is gone
                pass

        def log_message(self, *args) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", PORT), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    settings.NOTIFY_WEBHOOK_URL = f"http://127.0.0.1:{PORT}/hook"
    settings.NOTIFY_WEBHOOK_SECRET = SECRET
    try:
        yield got
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


# Real Celery workers (tests/daily/conftest.py): imported, so their fixtures serve here too.
from tests.daily.conftest import non_eager, wait_for, workers  # noqa: E402, F401
