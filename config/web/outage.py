"""PostgreSQL unreachable: a documented ``503 database_unavailable``, never a 500.

Any ``OperationalError`` or ``InterfaceError`` from the database (refused or lost
connection, a backend terminated by an operator, a failed commit) means the request could
not be served *now*: the answer is a problem document with ``Retry-After``
(``DB_RETRY_AFTER`` seconds, default 5). The request's transaction rolled back (unless the
connection died during its very commit), so the client retries with the same
``Idempotency-Key``: it gets the first answer if the write did commit after all.
Both DRF's exception handler and Django's ``handler500`` (errors raised outside DRF) ask
:func:`database_problem`.
"""

from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.db import InterfaceError, OperationalError

from .documents import problem_body

log = logging.getLogger("haven.database")

CODE = "database_unavailable"


def is_database_outage(exc: BaseException | None) -> bool:
    return isinstance(exc, OperationalError | InterfaceError)


def retry_after() -> int:
    return int(getattr(settings, "DB_RETRY_AFTER", 5))


def database_problem(exc: BaseException) -> tuple[dict[str, Any], int, dict[str, str]]:
    """Body, status and headers of the 503 answer to a database failure."""
    log.warning("database unavailable: %s: %s", type(exc).__name__, exc)
    body = problem_body(
        503,
        CODE,
        "the database is unreachable right now; please retry (with the same Idempotency-Key)",
    )
    return body, 503, {"Retry-After": str(retry_after())}
