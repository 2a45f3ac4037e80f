"""Fixtures for the web client's tests in a real Chromium (Playwright for Python).

The client is served by pytest-django's ``live_server`` (a free port chosen at run time):
WhiteNoise serves ``/`` and ``/app/…``, the API answers beside it, as under ``make run``.
Playwright drives Debian's ``/usr/bin/chromium`` (``CHROMIUM`` overrides the path); it never
downloads a browser. Without Chromium or Playwright the tests are skipped, except under
``CI=true``, where that is a failure.

Each test gets its own browser (a second or so to start) and a time limit
(``BROWSER_TEST_SECONDS``, SIGALRM), and saves screenshots of its key steps to
``tests/browser/screenshots/`` (git-ignored).
"""

from __future__ import annotations

import os
import re
import shutil
import signal
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from django.db import DEFAULT_DB_ALIAS, connections

from games import engine
from games.daily import utc_today
from games.models import Deal, Source
from tests.factories import no_daily_preparation

from .support import (
    CHROMIUM,
    CHROMIUM_ARGS,
    DAILY_PRESET,
    DAILY_SEED,
    HIGH_RATES,
    PAST_DAY_WINS,
    TEST_SECONDS,
    Browser,
    solved,
)


def _skip_or_fail(reason: str) -> None:
    if os.environ.get("CI") == "true":
        pytest.fail(f"{reason}, but CI=true requires it")
    pytest.skip(reason)


@pytest.fixture(autouse=True)
def _browser_test_setup(settings, monkeypatch):
    """Generous throttles; daily deals come from the fixtures, never from the solver; a
    time limit for the whole test."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    # Yesterday is published at midnight, not ten minutes later: a run just after midnight
    # UTC sees the past day's playback as any other run does.
    settings.RANKED_GRACE_MINUTES = 0
    no_daily_preparation(monkeypatch)
    # The live server answers each request in a thread of its own: with persistent
    # connections (DB_CONN_MAX_AGE) each would keep its PostgreSQL session open after the
    # thread ends, and the test database could not be dropped at the end of the run.
    monkeypatch.setitem(connections.settings[DEFAULT_DB_ALIAS], "CONN_MAX_AGE", 0)
    # Playwright's sync API keeps an event loop in this thread; Django's ORM calls made by
    # the test itself (fixtures, checks) are still plain synchronous calls.
    monkeypatch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")

    def out_of_time(signum: int, frame: Any) -> None:
        raise TimeoutError(f"browser test ran past {TEST_SECONDS} s")

    previous = signal.signal(signal.SIGALRM, out_of_time)
    signal.alarm(TEST_SECONDS)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


@pytest.fixture
def daily_deals(transactional_db) -> dict[str, Deal]:
    """Today's six daily deals and yesterday's. Today's seahaven deal is one the solver wins,
    with its real solution as the par solution; yesterday's seahaven, westcliff and
    easthaven-open deals too (for the past-day playback); the rest are stand-ins."""
    today = utc_today()
    deals = {}
    for day in (today, today - timedelta(days=1)):
        real = PAST_DAY_WINS if day < today else {DAILY_PRESET: DAILY_SEED}
        for n, preset in enumerate(engine.PRESETS):
            if preset in real:
                win = solved(preset, real[preset])
                deck, solution = win.deck, win.moves
            else:
                deck = engine.format_deck(engine.deck_from_seed(1000 + n))
                solution = [{"type": "deal"}]
            deal = Deal.objects.create(
                preset=preset,
                source=Source.DAILY,
                date=day,
                deck=deck,
                verdict="winnable",
                par=len(solution),
                solution=solution,
            )
            if day == today:
                deals[preset] = deal
    return deals


@pytest.fixture(scope="session", autouse=True)
def _no_stray_sessions_at_the_end(django_db_setup, django_db_blocker) -> Iterator[None]:
    """Before the test database is dropped, end any other PostgreSQL session still on it.

    Database work done while Playwright's event loop runs in this thread (fixtures, checks)
    can leave a connection that pytest-django's teardown never sees, and PostgreSQL will
    not drop a database in use (a warning, and a test database left behind)."""
    yield
    with django_db_blocker.unblock():
        connection = connections[DEFAULT_DB_ALIAS]
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute(
                    "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                    " WHERE datname = current_database() AND pid <> pg_backend_pid()"
                )
            connection.close()


@pytest.fixture
def open_browser(transactional_db, live_server, request) -> Iterator[Any]:
    """``open_browser(width=1100, height=860, locale="en-US", **context_options)`` → Browser.

    The database comes first, so the (session-wide) live server, set up after it, is
    stopped before it and never holds a connection when the test database is dropped."""
    if shutil.which(CHROMIUM) is None and not Path(CHROMIUM).exists():
        _skip_or_fail(f"needs Chromium at {CHROMIUM} (apt-get install chromium)")
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        _skip_or_fail("needs Playwright for Python (pip install playwright)")

    manager = sync_playwright()
    playwright = manager.start()
    browser = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    name = re.sub(r"\W+", "-", request.node.name).strip("-")

    def make(width: int = 1100, height: int = 860, locale: str = "en-US", **options) -> Browser:
        # Reduced motion: no card transitions for Playwright to wait out before each click.
        context = browser.new_context(
            viewport={"width": width, "height": height},
            locale=locale,
            reduced_motion="reduce",
            **options,
        )
        context.set_default_timeout(20_000)
        page = context.new_page()
        opened = Browser(
            page,
            context,
            live_server.url + "/play/",
            name=name,
            touch=bool(options.get("has_touch")),
        )
        page.on(
            "console",
            lambda message: opened.errors.append(message.text) if message.type == "error" else None,
        )
        page.on("pageerror", lambda error: opened.errors.append(f"uncaught: {error}"))
        return opened

    try:
        yield make
    finally:
        browser.close()
        manager.__exit__(None, None, None)
