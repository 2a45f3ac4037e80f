"""What the current request (or Celery task) is, for every log line written while it runs.

Context variables, so each gunicorn thread (and each eagerly-run task inside a request) sees
its own. The middleware binds a request's fields and clears them when it ends; the Celery
signals bind the id of the request that queued the task.
"""

from __future__ import annotations

import re
import uuid
from contextvars import ContextVar, Token
from typing import Any

#: The fields a log line carries; None when unknown (outside a request, an anonymous user).
FIELDS = ("request_id", "user_id", "play_id", "route", "task_id", "task_name")

_vars: dict[str, ContextVar[Any]] = {name: ContextVar(name, default=None) for name in FIELDS}

#: A client's X-Request-ID is kept when it looks like an id (a proxy's or a client's), and
#: replaced otherwise: it is written into every log line, so nothing else may pass.
REQUEST_ID_PATTERN = re.compile(r"[A-Za-z0-9._-]{1,128}")
HEADER = "X-Request-ID"
#: The Celery message header that carries the request id into a task.
TASK_HEADER = "haven_request_id"


def well_formed(value: str | None) -> bool:
    return bool(value) and REQUEST_ID_PATTERN.fullmatch(value or "") is not None


def new_request_id() -> str:
    return uuid.uuid4().hex


def bind(**fields: Any) -> dict[str, Token[Any]]:
    """Set some fields; returns the tokens that :func:`unbind` takes to restore them."""
    return {name: _vars[name].set(value) for name, value in fields.items()}


def unbind(tokens: dict[str, Token[Any]]) -> None:
    for name, token in tokens.items():
        _vars[name].reset(token)


def get(name: str) -> Any:
    return _vars[name].get()


def current() -> dict[str, Any]:
    """All fields, None included."""
    return {name: var.get() for name, var in _vars.items()}
