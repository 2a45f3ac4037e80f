"""The daily deals: one per preset and UTC day, the same for everyone, solved before the day.

One package, one concern per module:

=================  ==========================================================================
``candidates``     candidate ``n`` of a (day, preset): its seed, from ``DAILY_SECRET``
``search``         the candidates tried in order (screening, full solves, the par) and the
                   solver seam ``_solve``
``locking``        the (day, preset) lock: a PostgreSQL advisory lock, exactly-once solving
``selectors``      the stored daily deals of a day (the one query for them), and how
                   many days ahead are ready (``days_ahead_ready``)
``service``        prepare a (day, preset); a day's deals for the API, on demand for today
``tasks``          the Celery tasks (beat: today and ``DAILY_DAYS_AHEAD`` days ahead)
``clock``          the UTC day
``window``         the ranked window of a day: its deadline, and when the day is public
``live``           the live dailies (not yet public): is a deck one of them, in any disguise;
                   other apps' live event deals join them through ``games.events``
=================  ==========================================================================

The candidates, the search and the lock also serve another series of deals, a tournament's
own (``secret_seed``, ``search_candidates``, ``named_lock``: docs/tournaments.md).

Settings (declared in ``config/settings.py``): ``DAILY_SECRET``, ``DAILY_DAYS_AHEAD``,
``DAILY_MAX_ATTEMPTS`` (50), ``DAILY_SCREEN_NODES`` (50 000), ``DAILY_PAR_SECONDS`` (0.5),
``DAILY_ON_DEMAND_SECONDS`` (0: ``SOLVER_BUDGET_SECONDS``), ``DAILY_LOCK_WAIT_SECONDS`` (5)
and ``DAILY_LOCK_RETRY_SECONDS`` (30).

What other code uses is imported here; the tasks are not (``CELERY_IMPORTS`` registers them).
"""

from __future__ import annotations

from .candidates import candidate_deck, candidate_seed, secret_seed
from .clock import utc_today
from .live import is_live_daily, live_daily_keys, live_deal_kind
from .locking import DealLocked, day_lock, lock_key, named_lock
from .search import SolverFailed, search_candidates
from .selectors import days_ahead_ready, missing_presets, stored_deal, stored_deals
from .service import daily_deal, daily_deals, get_or_prepare_day, prepare, prepare_deal
from .window import first_unpublished_day, is_published, ranked_deadline

__all__ = [
    "DealLocked",
    "SolverFailed",
    "candidate_deck",
    "candidate_seed",
    "daily_deal",
    "daily_deals",
    "day_lock",
    "days_ahead_ready",
    "first_unpublished_day",
    "get_or_prepare_day",
    "is_live_daily",
    "is_published",
    "live_daily_keys",
    "live_deal_kind",
    "lock_key",
    "missing_presets",
    "named_lock",
    "prepare",
    "prepare_deal",
    "ranked_deadline",
    "search_candidates",
    "secret_seed",
    "stored_deal",
    "stored_deals",
    "utc_today",
]
