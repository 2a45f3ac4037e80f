"""Factories shared by the test packages: players, their API clients, daily deals.

Imported as ``tests.factories`` (``tests`` is a package, so every test module has one name:
``tests.api.helpers``, ``tests.leaderboard.helpers``, ...).  Package-specific helpers stay in
each package's ``helpers.py``.
"""

from __future__ import annotations

import datetime as dt
import itertools
from collections.abc import Iterator
from contextlib import contextmanager

from django.contrib.auth import get_user_model
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import RefreshToken

from games import engine
from games.models import Deal, Source

#: Throttle rates no test reaches (the throttles are their own tests' subject).
HIGH_RATES = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
PASSWORD = "correct-horse-42"

_usernames = itertools.count()


def make_user(username: str | None = None):
    """A player with ``PASSWORD``; named ``player<n>`` (unique in the process) unless named."""
    name = username or f"player{next(_usernames)}"
    return get_user_model().objects.create_user(username=name, password=PASSWORD)


def client_for(user) -> APIClient:
    """An API client signed in as ``user`` with a bearer token."""
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {RefreshToken.for_user(user).access_token}")
    return client


def store_daily(day: dt.date, seed_base: int = 1000) -> dict[str, Deal]:
    """One daily deal per preset for ``day``, with a made-up verdict, par and solution."""
    deals = {}
    for n, preset in enumerate(engine.PRESETS):
        deck = engine.format_deck(engine.deck_from_seed(seed_base + n))
        deals[preset] = Deal.objects.create(
            preset=preset,
            source=Source.DAILY,
            date=day,
            deck=deck,
            verdict="winnable",
            par=80 + n,
            solution=[{"type": "deal"}],
        )
    return deals


@contextmanager
def own_boards(settings, monkeypatch, prefix: str) -> Iterator[None]:
    """Boards of a test package's own (Redis keys under ``prefix``, rebuilt inline and
    emptied around the test), no account-age rule, throttles no test reaches, and no solver:
    what the leaderboard, fair-play and accounts tests each need around every test."""
    from leaderboard import store

    settings.LEADERBOARD_REDIS_PREFIX = prefix
    settings.LEADERBOARD_REBUILD_INLINE = True
    settings.FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = 0
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    no_daily_preparation(monkeypatch)
    if store.configured():
        store.delete_all()
    yield
    if store.configured():
        try:
            store.delete_all()
        except store.StoreUnavailable:
            pass


def no_daily_preparation(monkeypatch) -> None:
    """Keep the solver out: today's missing daily deals are not prepared on demand (the
    tests store their own)."""
    monkeypatch.setattr("games.daily.service._prepare_day", lambda day: None)


def seahaven_win_deck() -> list[str]:
    """A Seahaven deck that is won by foundation moves alone: after k moves, card k of the
    suit-major order (AS … KS, AH … KH, …) is the top of column k mod 10 (then cells c1
    and c2): see :func:`foundation_source`."""
    order = [rank + suit for suit in "SHDC" for rank in "A23456789TJQK"]
    deck = [""] * 52
    for row in range(5):
        for col in range(10):
            deck[row * 10 + col] = order[col + (4 - row) * 10]
    deck[50], deck[51] = order[50], order[51]
    return deck


def foundation_source(k: int) -> str:
    """Where move k of :func:`seahaven_win_deck`'s win takes its card from."""
    return f"t{k % 10}" if k < 50 else ("c1" if k == 50 else "c2")
