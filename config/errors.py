"""Domain errors: what a service raises when it refuses, with no notion of HTTP.

A service (starting a play, applying a move, a hint, a group, an account) says *what* went
wrong with a stable ``code`` from the error catalogue (``config.web.catalogue``), an English
``detail`` for the developer reading it, and any ``extra`` members a client needs (``seq``
of a stale move, ``index`` and ``rule`` of a refused move in a batch). It never says how
the refusal travels: the web layer (``config.web.problems.exception_handler``) looks the code up
in the catalogue for its HTTP status and title, so one condition has one status wherever it
is raised. A Celery task or a management command that meets one sees a plain exception.

Engine refusals (``games.engine.EngineError``) are the game library's own domain errors;
the games app registers their mapping with the same handler (``games.api.web_layer``).

At the ground, under every app: ``games``, ``leaderboard`` and ``fairplay`` import it, it
imports nothing of theirs, nor Django or DRF (import contracts say so), so any caller, a
Celery task or a management command included, may raise and catch these freely.
"""

from __future__ import annotations

from typing import Any


class DomainError(Exception):
    """A refusal by the domain: ``code`` (a catalogue row), ``detail``, ``extra`` members."""

    def __init__(self, code: str, detail: str, **extra: Any) -> None:
        super().__init__(code, detail)
        self.code = code
        self.detail = detail
        self.extra = extra

    def __str__(self) -> str:
        return f"{self.code}: {self.detail}"

    def __repr__(self) -> str:
        extra = "".join(f", {key}={value!r}" for key, value in self.extra.items())
        return f"{type(self).__name__}({self.code!r}, {self.detail!r}{extra})"

    def __reduce__(self) -> Any:
        # Keyword members survive pickling (a Celery result, a multiprocessing worker):
        # the default reduce would rebuild from ``args`` alone and lose ``extra``.
        return (_rebuild, (type(self), self.code, self.detail, self.extra))


class ClosingRefusal(DomainError):
    """A refusal that also closed something which must stay closed: a move on a ranked play
    past its deadline is refused *and* expires the play. The web layer keeps the service's
    writes (``config.web.idempotency``) instead of rolling them back with the request."""


def _rebuild(cls: type[DomainError], code: str, detail: str, extra: dict[str, Any]) -> DomainError:
    return cls(code, detail, **extra)
