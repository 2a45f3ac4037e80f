"""The daily deal service: prepare a (day, preset) once, and serve a day's deals.

:func:`prepare` is what the workers (``games.daily.tasks``) and ``manage.py prepare_daily``
call: the stored row if there is one, else the search (:mod:`.search`) under the (day,
preset) lock (:mod:`.locking`) and an insert that lets the database decide.

On demand
---------
:func:`get_or_prepare_day` is what the API calls (through :func:`daily_deals` and
:func:`daily_deal`, for today only): stored deals are returned at once; missing ones are
prepared under the same lock, the whole call bounded by ``time_budget`` (default
``DAILY_ON_DEMAND_SECONDS``, else ``SOLVER_BUDGET_SECONDS``) shared among the missing
presets.  When the time runs out the earliest undecided candidate is stored with verdict
``unknown`` rather than making the request hang.  A preset whose lock a worker still holds
when its share of the time is spent is left out of the answer (the worker will store it;
the next request sees it).
"""

from __future__ import annotations

import datetime as dt
import logging
import time
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction

from games import engine
from games.models import Deal
from games.signals import deal_prepared

from .clock import utc_today
from .locking import DealLocked, day_lock
from .search import SolverFailed, search_day
from .selectors import missing_presets, stored_deal, stored_deals

log = logging.getLogger(__name__)


# --- Preparing one (day, preset) -------------------------------------------------------------


def _store(fields: dict[str, Any]) -> tuple[Deal, bool]:
    """Insert the deal; if (date, preset) is already there, the stored row wins."""
    try:
        with transaction.atomic():
            return Deal.objects.create(**fields), True
    except IntegrityError:
        existing = stored_deal(fields["date"], fields["preset"])
        if existing is None:  # some other integrity problem
            raise
        return existing, False


def prepare(
    day: dt.date,
    preset: str,
    *,
    time_budget: float | None = None,
    lock_timeout: float | None = None,
) -> tuple[Deal, bool]:
    """:func:`prepare_deal`, also saying whether this call created the row."""
    engine.get_rules(preset)
    deal = stored_deal(day, preset)
    if deal is not None:
        return deal, False
    start = time.monotonic()
    with day_lock(day, preset, timeout=lock_timeout):
        deal = stored_deal(day, preset)  # whoever held the lock may have stored it
        if deal is not None:
            return deal, False
        deadline = None if time_budget is None else start + time_budget
        fields = search_day(day, preset, deadline)
        deal, created = _store(fields)
    if created:
        seconds = time.monotonic() - start
        log.info(
            "daily %s %s prepared: %s, par %s, %d rejected",
            preset,
            day,
            deal.verdict,
            deal.par,
            len(deal.attempts),
        )
        for receiver, error in deal_prepared.send_robust(sender=Deal, deal=deal, seconds=seconds):
            if isinstance(error, Exception):
                log.error("deal_prepared receiver %r failed: %r", receiver, error)
    return deal, created


def prepare_deal(
    day: dt.date,
    preset: str,
    *,
    time_budget: float | None = None,
    lock_timeout: float | None = None,
) -> Deal:
    """The daily deal of (``day``, ``preset``), solved and stored if missing. Idempotent.

    ``time_budget`` None: the workers' way (each candidate gets the full solver budget, up
    to the cap); a number bounds the whole call and stores ``unknown`` when it runs out.
    ``lock_timeout``: how long to wait for a process preparing the same deal
    (None: as long as it takes), then :class:`DealLocked`.
    """
    return prepare(day, preset, time_budget=time_budget, lock_timeout=lock_timeout)[0]


# --- On demand -------------------------------------------------------------------------------


def on_demand_budget() -> float:
    return float(settings.DAILY_ON_DEMAND_SECONDS or settings.SOLVER_BUDGET_SECONDS)


def get_or_prepare_day(day: dt.date, time_budget: float | None = None) -> list[Deal]:
    """The daily deals of ``day`` in ``PRESETS`` order, missing ones prepared on demand.

    Bounded: the whole call takes about ``time_budget`` seconds at most (default
    :func:`on_demand_budget`), shared among the missing presets; see the module doc.
    """
    stored = {deal.preset: deal for deal in stored_deals(day)}
    missing = [preset for preset in engine.PRESETS if preset not in stored]
    if missing:
        budget = on_demand_budget() if time_budget is None else time_budget
        deadline = time.monotonic() + budget
        for index, preset in enumerate(missing):
            share = max(deadline - time.monotonic(), 0.0) / (len(missing) - index)
            try:
                stored[preset] = prepare_deal(day, preset, time_budget=share, lock_timeout=share)
            except DealLocked:
                log.warning("daily %s %s: still being prepared by a worker", preset, day)
            except SolverFailed:
                log.exception("daily %s %s: not prepared on demand", preset, day)
    return [stored[preset] for preset in engine.PRESETS if preset in stored]


def _prepare_day(day: dt.date) -> None:
    """Make sure ``day``'s deals exist, within the on-demand budget. A seam: the API tests
    replace it to keep the solver out of them."""
    get_or_prepare_day(day)


def daily_deals(day: dt.date) -> list[Deal]:
    """The daily deals of ``day`` (UTC), one per preset, prepared on demand for today only.

    Past days are served from what is stored (the hourly beat task prepares days ahead),
    so nobody can make the server run the solver for an arbitrary old date.
    """
    if day == utc_today() and missing_presets(day):
        _prepare_day(day)
    return list(stored_deals(day).order_by("preset"))


def daily_deal(day: dt.date, preset: str) -> Deal | None:
    """The daily deal of (``day``, ``preset``), prepared on demand if ``day`` is today."""
    deal = stored_deal(day, preset)
    if deal is None and day == utc_today():
        _prepare_day(day)
        deal = stored_deal(day, preset)
    return deal
