"""Who opens a stream: the API's Bearer token, or a short-lived stream ticket.

Browsers' ``EventSource`` cannot set an ``Authorization`` header, so a signed-in client
asks ``POST /api/v1/streams/tickets`` (with its Bearer token) for a ticket and opens the
stream with ``?ticket=``. A ticket names the player and expires after
``REALTIME_TICKET_SECONDS``; it opens streams only (the API refuses it). Django's signing
(the service's ``SECRET_KEY``, its own salt) makes it: no table, any host checks it.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.core import signing
from django.http import HttpRequest
from rest_framework.exceptions import AuthenticationFailed
from rest_framework_simplejwt.exceptions import InvalidToken

from accounts.authentication import StrictJWTAuthentication

SALT = "realtime.stream-ticket"


def issue(user: Any) -> str:
    return signing.dumps({"u": user.pk}, salt=SALT, compress=False)


def _ticket_user(ticket: str) -> Any:
    try:
        data = signing.loads(ticket, salt=SALT, max_age=settings.REALTIME_TICKET_SECONDS)
    except signing.BadSignature:  # expired tickets too (SignatureExpired is one)
        return None
    user_id = data.get("u") if isinstance(data, dict) else None
    if isinstance(user_id, bool) or not isinstance(user_id, int):
        return None
    return get_user_model().objects.filter(pk=user_id, is_active=True).first()


def user_of(request: HttpRequest) -> tuple[Any, str]:
    """The signed-in player and "", or None and the refusal's code as the API would say it
    (synchronous: run it off the event loop)."""
    ticket = request.GET.get("ticket")
    if ticket:
        user = _ticket_user(ticket[:512])
        return (user, "") if user is not None else (None, "token_not_valid")
    try:
        found = StrictJWTAuthentication().authenticate(request)  # type: ignore[arg-type]
    except InvalidToken:
        return None, "token_not_valid"
    except AuthenticationFailed:
        return None, "authentication_failed"
    return (found[0], "") if found else (None, "not_authenticated")
