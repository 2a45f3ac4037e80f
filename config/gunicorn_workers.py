"""gunicorn workers whose own error answers are problem documents, like the rest of the API.

gunicorn answers a request it cannot parse (a request line over ``limit_request_line``, too
many or too large header fields, a control character in a header, a bad chunk size) itself,
before Django runs, with a small HTML page. These workers keep gunicorn's decision (status,
logging, access log) and replace only the page: ``handle_error`` lets gunicorn write into a
stand-in for the socket, reads the status it chose from the status line, and writes an
``application/problem+json`` answer with the catalogue's code for that status instead.

``gunicorn.conf.py`` selects them: ``sync`` → :class:`SyncWorker`, ``gthread`` →
:class:`ThreadWorker`. gunicorn's own detail (which may quote the offending bytes) stays in
its log; the client gets the catalogue's sentence.
"""

from __future__ import annotations

import json
from typing import Any

from gunicorn import util
from gunicorn.workers import gthread, sync

# gunicorn's statuses for requests it refuses (gunicorn.workers.base.Worker.handle_error).
CODES = {
    400: "bad_request",
    403: "permission_denied",
    414: "request_line_too_long",
    417: "expectation_failed",
    431: "header_fields_too_large",
    500: "server_error",
    501: "not_implemented",
}
REASONS = {
    400: "Bad Request",
    403: "Forbidden",
    414: "URI Too Long",
    417: "Expectation Failed",
    431: "Request Header Fields Too Large",
    500: "Internal Server Error",
    501: "Not Implemented",
}


class _StatusLineCatcher:
    """Stands in for the client socket while gunicorn writes its HTML page (it uses
    ``gettimeout`` and ``sendall``); everything else goes to the real socket."""

    def __init__(self, sock: Any) -> None:
        self._sock = sock
        self.written = b""

    def gettimeout(self) -> float:
        return 0.0  # already non-blocking: gunicorn then writes without toggling it

    def sendall(self, data: bytes) -> None:
        self.written += data

    def __getattr__(self, name: str) -> Any:
        return getattr(self._sock, name)

    def status(self) -> int:
        try:
            return int(self.written.split(b" ", 2)[1])
        except (IndexError, ValueError):
            return 400


def problem(status: int) -> dict[str, Any]:
    """The problem document for one of gunicorn's statuses, in English (no request was
    parsed, so there is no Accept-Language to follow)."""
    code = CODES.get(status, "bad_request" if status < 500 else "server_error")
    try:
        from django.utils import translation

        from config.web.catalogue import CATALOGUE
        from config.web.documents import problem_body

        with translation.override("en"):
            entry = CATALOGUE[code]
            return problem_body(status, code, str(entry.detail or entry.title))
    except Exception:  # Django not loaded (an app that failed to import): still a problem
        reason = REASONS.get(status, "Error")
        return {"type": "about:blank", "title": reason, "status": status, "detail": reason}


def problem_response(status: int) -> bytes:
    body = json.dumps(problem(status)).encode()
    head = (
        f"HTTP/1.1 {status} {REASONS.get(status, 'Error')}\r\n"
        "Connection: close\r\n"
        "Content-Type: application/problem+json\r\n"
        f"Content-Length: {len(body)}\r\n\r\n"
    )
    return head.encode("latin-1") + body


class ProblemErrors:
    """Mixin for a gunicorn worker: its error pages become problem documents."""

    def handle_error(self, req: Any, client: Any, addr: Any, exc: BaseException) -> None:
        catcher = _StatusLineCatcher(client)
        super().handle_error(req, catcher, addr, exc)  # type: ignore[misc]
        try:
            util.write_nonblock(client, problem_response(catcher.status()))
        except Exception:
            self.log.debug("Failed to send error message.")  # type: ignore[attr-defined]


class SyncWorker(ProblemErrors, sync.SyncWorker):
    pass


class ThreadWorker(ProblemErrors, gthread.ThreadWorker):
    pass
