"""``Idempotency-Key`` for POST: a retried request gets the first answer again.

The key is scoped to the player. The first answer (status and body, errors included, 5xx
excluded) is stored in the same transaction as the work it reports, so either both the
move and its stored answer exist or neither does. A concurrent duplicate hits the unique
``(player, key)`` constraint, rolls its own work back and answers with the stored one.
The same key with a different method, path or body is refused (``idempotency_key_reused``).
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from rest_framework.request import Request
from rest_framework.response import Response

from config.errors import ClosingRefusal, DomainError

from .models import IdempotencyKey
from .problems import PROBLEM_CONTENT_TYPE, problem_for_exception

HEADER = "Idempotency-Key"
_KEY = re.compile(r"[\x21-\x7e]{1,255}")  # visible ASCII, like other HTTP tokens


def fingerprint(request: Request) -> str:
    body = json.dumps(request.data, sort_keys=True, separators=(",", ":"), default=str)
    raw = f"{request.method}\n{request.path}\n{body}".encode()
    return hashlib.sha256(raw).hexdigest()


def _replay(stored: IdempotencyKey, print_: str) -> Response:
    if stored.fingerprint != print_:
        raise DomainError(
            "idempotency_key_reused",
            "this Idempotency-Key was used for a different request",
        )
    status = stored.response_status
    response = Response(
        json.loads(stored.response_body),
        status=status,
        content_type=PROBLEM_CONTENT_TYPE if status >= 400 else None,
    )
    response["Idempotent-Replayed"] = "true"
    return response


def idempotent(request: Request, handler: Callable[[], Response]) -> Response:
    """Run ``handler`` once per (player, Idempotency-Key); without the header, just run it."""
    key = request.headers.get(HEADER)
    if key is None:
        return handler()
    if not _KEY.fullmatch(key):  # fullmatch: "$" would let a trailing newline through
        raise DomainError(
            "invalid_idempotency_key",
            "Idempotency-Key must be 1 to 255 visible ASCII characters",
        )
    print_ = fingerprint(request)
    stored = IdempotencyKey.objects.filter(player_id=request.user.pk, key=key).first()
    if stored is not None:
        return _replay(stored, print_)
    try:
        with transaction.atomic():
            response = _run(handler)
            if response.status_code >= 500:
                return response
            IdempotencyKey.objects.create(
                player_id=request.user.pk,
                key=key,
                fingerprint=print_,
                response_status=response.status_code,
                response_body=json.dumps(response.data, default=str),
            )
    except IntegrityError:
        # A concurrent request with the same key won the race; its answer is the answer.
        stored = IdempotencyKey.objects.filter(player_id=request.user.pk, key=key).first()
        if stored is None:
            raise
        return _replay(stored, print_)
    return response


def _run(handler: Callable[[], Response]) -> Response:
    """The handler's response, with a known error turned into its problem response so that
    it is stored (and rolled back, within its own savepoint) like any answer; a
    ``ClosingRefusal``'s writes are kept (an expired ranked play stays expired)."""
    try:
        with transaction.atomic():
            try:
                return handler()
            except ClosingRefusal as refusal:
                closing = refusal  # leave the savepoint normally: what it closed stays closed
        raise closing
    except Exception as exc:
        result = problem_for_exception(exc)
        if result is None:
            raise
        body, status, headers = result
        if status == 429:
            raise  # throttling is not an answer to the request
        response: Any = Response(
            body, status=status, headers=headers, content_type=PROBLEM_CONTENT_TYPE
        )
        return response
