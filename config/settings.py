"""Haven's settings, all from the environment with defaults that run on a bare machine.

Nothing set means: SQLite in the project folder, a local-memory cache and Celery tasks run
in-process (``CELERY_TASK_ALWAYS_EAGER``), so ``make run`` needs neither PostgreSQL nor Redis.

* ``DATABASE_URL`` — e.g. ``postgres://user:pass@host:5432/haven`` (psycopg 3); without it
  SQLite in ``SQLITE_PATH`` (default ``db.sqlite3`` here), WAL, ``SQLITE_BUSY_SECONDS``
  (docs/embedded-mode.md).
* ``REDIS_URL`` — e.g. ``redis://host:6379/0``: the Django cache, the throttles and Celery's
  broker and result backend. Under pytest the database number is rewritten to 15 so a test
  run never touches the data of a running service.
* ``SECRET_KEY``, ``DAILY_SECRET`` (HMAC key for the daily deals; both required in
  production, see config/secret_settings.py), ``HAVEN_LOCAL``, ``HAVEN_SECRETS_FILE``, ``DEBUG``,
  ``ALLOWED_HOSTS`` (comma-separated), ``SOLVER_BUDGET_SECONDS``, ``SOLVER_NODE_BUDGET``,
  ``SOLVER_WORKERS``, ``SOLVER_PYTHON``, ``HINT_BUDGET_SECONDS``,
  ``HINT_BACKGROUND_SECONDS``, ``THROTTLE_HINTS``, ``THROTTLE_HINTS_ADDRESS``,
  ``WINNABILITY_SOLVER_VERSION``,
  ``THROTTLE_PLAYS``, ``THROTTLE_MOVES``, ``THROTTLE_AUTH``
  (DRF rates such as ``120/min``), ``ACCESS_TOKEN_MINUTES``, ``REFRESH_TOKEN_DAYS``,
  ``CORS_ALLOWED_ORIGINS`` (comma-separated browser origins), ``CORS_ALLOW_LOCALHOST``
  (any port of localhost; default on without ``DATABASE_URL`` or with ``DEBUG``),
  ``GZIP_RESPONSES``.
* Faults (README, "Faults and the server edge"): ``REDIS_CONNECT_TIMEOUT``,
  ``REDIS_SOCKET_TIMEOUT``, ``REDIS_BREAKER_COOLDOWN``, ``TRUSTED_PROXY_COUNT``,
  ``DB_CONNECT_TIMEOUT``, ``DB_RETRY_AFTER``.
* Operations (docs/operations/observability.md, production.md): ``METRICS_ENABLED``,
  ``METRICS_TOKEN``, ``METRICS_ADDRESS``, ``CELERY_METRICS_PORT`` (``METRICS_PORT`` is
  gunicorn.conf.py's), ``LOG_FORMAT``, ``LOG_REQUESTS``, ``LOG_LEVEL``, ``HTTPS_ONLY``,
  ``HSTS_SECONDS``, ``HSTS_INCLUDE_SUBDOMAINS``, ``HSTS_PRELOAD``,
  ``TRUST_X_FORWARDED_PROTO``, ``CSP_CONNECT_SRC``.
* The daily deals (``games.daily``): ``DAILY_DAYS_AHEAD``, ``DAILY_MAX_ATTEMPTS``,
  ``DAILY_SCREEN_NODES``, ``DAILY_PAR_SECONDS``, ``DAILY_ON_DEMAND_SECONDS``,
  ``DAILY_LOCK_WAIT_SECONDS``, ``DAILY_LOCK_RETRY_SECONDS``.
* Scaling (docs/operations/scaling.md): ``DATABASE_REPLICA_URL``, ``REPLICA_CONNECT_TIMEOUT``,
  ``REPLICA_HEALTH_SECONDS``, ``MOVELOG_PARTITIONS_AHEAD``, ``MOVELOG_RETENTION_MONTHS``,
  ``MOVELOG_ARCHIVE_DIR``.
* Fair play (``fairplay``, docs/fair-play.md): ``FAIRPLAY_KEY_SECRET``,
  ``FAIRPLAY_RETENTION_DAYS``, ``FAIRPLAY_MIN_ACCOUNT_AGE_HOURS``, ``FAIRPLAY_THRESHOLDS``,
  ``FAIRPLAY_ACCOUNT``, ``FAIRPLAY_REPLAYS_TOP``, ``FAIRPLAY_ANALYSE``.
* Accounts (``accounts``, docs/api/accounts.md): ``GUEST_IDLE_DAYS``.
"""

from __future__ import annotations

import json
import os
import sys
import warnings
from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import dj_database_url
from celery.schedules import crontab
from django.core.exceptions import ImproperlyConfigured

from config.observability import logs as observability_logs
from config.secret_settings import load as load_secrets

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool = False) -> bool:
    """Read a boolean the way people write them in .env files (1/true/yes/on)."""
    value = os.environ.get(name)
    if value is None or value.strip() == "":
        return default
    return value.strip().lower() in {"1", "true", "yes", "on"}


def env_int(name: str, default: int) -> int:
    value = os.environ.get(name, "").strip()
    return int(value) if value else default


def env_int_between(name: str, default: int, low: int, high: int) -> int:
    """An integer setting with a fixed range: a value outside it stops the start with the
    name and the range, rather than being clamped to something the operator did not ask for."""
    value = env_int(name, default)
    if not low <= value <= high:
        raise ImproperlyConfigured(f"{name} must be between {low} and {high}, not {value}.")
    return value


def env_float(name: str, default: float) -> float:
    value = os.environ.get(name, "").strip()
    return float(value) if value else default


def redis_url_with_db(url: str, db: int) -> str:
    """Return ``url`` pointing at Redis database ``db`` (the path part of a redis URL)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", parts.query, parts.fragment))


# Under pytest the cache and broker use their own Redis database (see tests/conftest.py).
TESTING = "pytest" in sys.modules or env_bool("HAVEN_TESTING")
REDIS_TEST_DB = 15

DEBUG = env_bool("DEBUG", False)
# The secrets (config.secret_settings, docs/secrets-and-names.md): the environment wins;
# local mode (``make run`` exports HAVEN_LOCAL=1; DEBUG) keeps random ones in a 0600 file;
# pytest makes random ones per session; production (anything else) must set both. A value
# that is or was in the repository stops the start in every mode.
LOCAL_MODE = env_bool("HAVEN_LOCAL") or DEBUG
_SECRETS = load_secrets(
    os.environ,
    mode="testing" if TESTING else "local" if LOCAL_MODE else "production",
    local_file=Path(os.environ.get("HAVEN_SECRETS_FILE") or BASE_DIR / "local-secrets.json"),
)
SECRET_KEY = _SECRETS["SECRET_KEY"]
DAILY_SECRET = _SECRETS["DAILY_SECRET"]
ALLOWED_HOSTS = [
    host.strip()
    for host in os.environ.get("ALLOWED_HOSTS", "localhost,127.0.0.1,[::1],testserver").split(",")
    if host.strip()
]
CSRF_TRUSTED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CSRF_TRUSTED_ORIGINS", "").split(",")
    if origin.strip()
]

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "rest_framework_simplejwt",
    # Refresh tokens are recorded when issued, so sign-out and a password change can
    # revoke them (accounts.sessions).
    "rest_framework_simplejwt.token_blacklist",
    "drf_spectacular",
    "config.web",  # the web layer's own table (idempotent answers), under every app
    # Accounts sit below every app that keeps a player's data; those register their part of
    # a deletion or an export with accounts.registry (accounts imports none of them).
    "accounts",
    "games",
    "leaderboard",
    "games.winnability",
    # Fair play sits above games and leaderboard: it listens to their signals and hides
    # scores through leaderboard.moderation; neither imports it.
    "fairplay",
    # The notification outbox sits above games and leaderboard: it hears their signals.
    "notifications",
    # Live streams (SSE) and tournaments sit on top: they hear the leaderboard's signals;
    # nothing below imports them.
    "realtime",
    "tournaments",
]

MIDDLEWARE = [
    "config.web.throttling.RateLimitHeadersMiddleware",
    "config.web.middleware.BodySizeLimitMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
]

ROOT_URLCONF = "config.urls"
WSGI_APPLICATION = "config.wsgi.application"
ASGI_APPLICATION = "config.asgi.application"
# The API's paths have no trailing slash (API.md); redirecting a POST would lose its body.
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database -------------------------------------------------------------------------------
DATABASES = {
    "default": dj_database_url.config(
        # Without DATABASE_URL: SQLite in SQLITE_PATH (default db.sqlite3 in the project).
        default=f"sqlite:///{os.environ.get('SQLITE_PATH') or BASE_DIR / 'db.sqlite3'}",
        conn_max_age=env_int("DB_CONN_MAX_AGE", 60),
        conn_health_checks=True,
    )
}
USING_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
# The embedded mode: no DATABASE_URL, so SQLite in the project folder, which is what
# ``make run`` on a fresh clone is. A development default: no deployment runs on it.
EMBEDDED = not os.environ.get("DATABASE_URL", "").strip()
if not USING_POSTGRES:
    # SQLite keeps a connection per thread; persistent connections buy nothing there.
    DATABASES["default"]["CONN_MAX_AGE"] = 0
    # The embedded default holds a small club at once (docs/embedded-mode.md): WAL lets
    # readers run beside the one writer; a writer waits up to SQLITE_BUSY_SECONDS for the
    # lock instead of failing with "database is locked"; and every transaction begins
    # IMMEDIATE (takes the write lock at BEGIN), so two transactions that both read and
    # then write never deadlock on the upgrade, which SQLite answers with SQLITE_BUSY
    # at once, without waiting.
    DATABASES["default"].setdefault("OPTIONS", {}).update(
        {
            "init_command": "PRAGMA journal_mode=WAL;",
            "timeout": env_float("SQLITE_BUSY_SECONDS", 20.0),
            "transaction_mode": "IMMEDIATE",
        }
    )
else:
    # An unreachable server fails a request in seconds (a 503, config.web.outage), not minutes.
    DATABASES["default"].setdefault("OPTIONS", {}).setdefault(
        # Longer under pytest: a loaded CI machine must not turn a slow connect into a 503.
        "connect_timeout",
        env_int("DB_CONNECT_TIMEOUT", 10 if TESTING else 3),
    )
DB_RETRY_AFTER = env_int("DB_RETRY_AFTER", 5)
# A streaming read replica (config.replicas, docs/operations/scaling.md): only the reads
# marked replica-safe go there; unset, everything reads the primary. Its connect timeout is
# short: a dead replica costs one bounded try per REPLICA_HEALTH_SECONDS, then the primary.
REPLICA_URL = os.environ.get("DATABASE_REPLICA_URL", "").strip()
REPLICA_HEALTH_SECONDS = env_float("REPLICA_HEALTH_SECONDS", 5.0)
if REPLICA_URL and USING_POSTGRES:
    DATABASES["replica"] = dj_database_url.parse(
        REPLICA_URL, conn_max_age=env_int("DB_CONN_MAX_AGE", 60), conn_health_checks=True
    )
    DATABASES["replica"].setdefault("OPTIONS", {})["connect_timeout"] = env_int(
        "REPLICA_CONNECT_TIMEOUT", 1
    )
    DATABASES["replica"]["TEST"] = {"MIRROR": "default"}
    DATABASE_ROUTERS = ["config.replicas.ReplicaRouter"]
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache and Celery -----------------------------------------------------------------------
REDIS_URL = os.environ.get("REDIS_URL", "").strip()
if REDIS_URL and TESTING:
    REDIS_URL = redis_url_with_db(REDIS_URL, REDIS_TEST_DB)

# Redis only accelerates (README, "Faults"): short timeouts, no retries, and a circuit
# breaker (config.redis_guard) in front of the cache, the throttles and the leaderboards.
# In-process tests on a shared, loaded machine get more slack than production; the fault
# tests (tests/faults) run real servers with the production values.
REDIS_CONNECT_TIMEOUT = env_float("REDIS_CONNECT_TIMEOUT", 0.5 if TESTING else 0.1)
REDIS_SOCKET_TIMEOUT = env_float("REDIS_SOCKET_TIMEOUT", 0.5 if TESTING else 0.1)
REDIS_BREAKER_COOLDOWN = env_float("REDIS_BREAKER_COOLDOWN", 2.0)
# Proxies in front of the web servers that append the client to X-Forwarded-For; 0 trusts
# no header (per-address throttles count REMOTE_ADDR).
TRUSTED_PROXY_COUNT = env_int("TRUSTED_PROXY_COUNT", 0)

if REDIS_URL:
    from config.redis_guard import connection_options

    CACHES = {
        "default": {
            "BACKEND": "config.cache.GuardedRedisCache",
            "LOCATION": REDIS_URL,
            # A test session keeps to keys of its own, so two sessions sharing the test
            # database (developers on one machine) never clear each other's throttles.
            "KEY_PREFIX": f"haven-test-{os.getpid()}" if TESTING else "haven",
            "OPTIONS": connection_options(REDIS_CONNECT_TIMEOUT, REDIS_SOCKET_TIMEOUT),
        }
    }
else:
    CACHES = {
        "default": {
            "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
            "LOCATION": "haven",
        }
    }
# Per-process throttle counters while Redis is down (config.web.throttling).
CACHES["local"] = {
    "BACKEND": "django.core.cache.backends.locmem.LocMemCache",
    "LOCATION": "haven-local",
    "OPTIONS": {"MAX_ENTRIES": 100_000},
}

CELERY_BROKER_URL = REDIS_URL or "memory://"
CELERY_RESULT_BACKEND = REDIS_URL or "cache+memory://"
# Without Redis (and always under pytest) tasks run in-process, so no worker is needed.
CELERY_TASK_ALWAYS_EAGER = not REDIS_URL or TESTING
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TIMEZONE = "UTC"
CELERY_TASK_ACKS_LATE = True
CELERY_WORKER_PREFETCH_MULTIPLIER = 1
CELERY_IMPORTS = [
    "accounts.tasks",
    "games.maintenance",
    "games.daily.tasks",
    "games.expiry",
    "fairplay.tasks",
    "notifications.sending",
    "notifications.tasks",
    "tournaments.tasks",
]
CELERY_BEAT_SCHEDULE = {
    "prepare-upcoming-days": {
        "task": "games.tasks.prepare_upcoming_days",
        "schedule": crontab(minute=5),  # every hour, at :05
    },
    # The move log's monthly partitions: create ahead, archive past the retention.
    "movelog-partitions": {
        "task": "games.maintenance.movelog_partitions",
        "schedule": crontab(minute=45, hour=3),  # daily
    },
    "purge-idempotency-keys": {
        "task": "games.maintenance.purge_idempotency_keys",
        "schedule": crontab(minute=35),  # every hour, at :35
    },
    # Freeze yesterday's boards (ranks stored in PostgreSQL) soon after UTC midnight;
    # hourly so a missed run is caught up, and freezing a frozen day is a no-op.
    "freeze-yesterdays-boards": {
        "task": "leaderboard.tasks.freeze_yesterday",
        "schedule": crontab(minute=10),
    },
    # Ranked plays still open after their day's deadline (games.expiry): closed unfinished.
    "expire-ranked-plays": {
        "task": "games.expiry.expire_ranked_plays",
        "schedule": 60.0,
    },
    # Scores a Redis outage or a killed process kept off the boards (leaderboard.catchup).
    "leaderboard-catch-up": {
        "task": "leaderboard.tasks.catch_up",
        "schedule": 60.0,
    },
    # Ranked plays whose fair-play analysis never completed (fairplay.tasks).
    "fairplay-analyse-missed": {
        "task": "fairplay.tasks.analyse_missed",
        "schedule": crontab(minute=20),
    },
    # Guests unseen for GUEST_IDLE_DAYS that never played (accounts.tasks).
    "accounts-delete-abandoned-guests": {
        "task": "accounts.tasks.delete_abandoned_guests",
        "schedule": crontab(minute=40, hour=3),
    },
    # The token blacklist's rows of refresh tokens past their expiry (accounts.tasks).
    "accounts-flush-expired-tokens": {
        "task": "accounts.tasks.flush_expired_tokens",
        "schedule": crontab(minute=45, hour=3),
    },
    # Fair play's address and device keys older than FAIRPLAY_RETENTION_DAYS (fairplay.tasks).
    "fairplay-purge-keys": {
        "task": "fairplay.tasks.purge_client_keys",
        "schedule": crontab(minute=50, hour=3),
    },
    # The notification outbox (docs/operations/notifications.md): due retries and lost
    # messages, today's dailies once their day begins, and the evening streak warning.
    "notifications-sweep": {
        "task": "notifications.sweep_outbox",
        "schedule": env_float("NOTIFY_SWEEP_SECONDS", 15.0),
    },
    "notifications-announce-today": {
        "task": "notifications.announce_today",
        "schedule": crontab(minute="*/10"),
    },
    "notifications-warn-streaks": {
        "task": "notifications.warn_streaks",
        "schedule": crontab(minute=0, hour=env_int_between("NOTIFY_STREAK_HOUR", 20, 0, 23)),
    },
    # Tournaments whose window closed: their final standing (tournaments.services.freeze).
    "tournaments-freeze": {
        "task": "tournaments.tasks.freeze_closed",
        "schedule": 60.0,
    },
    # Seeded tournaments not over whose own deal is missing (tournaments.seeding).
    "tournaments-seeded-deals": {
        "task": "tournaments.tasks.prepare_seeded_deals",
        "schedule": crontab(minute="*/10"),
    },
    # This week's cups (TOURNAMENTS_WEEKLY_PRESETS), made once per ISO week.
    "tournaments-weekly-cups": {
        "task": "tournaments.tasks.create_weekly_cups",
        "schedule": crontab(minute=1),
    },
}

# --- Game service knobs ---------------------------------------------------------------------
SOLVER_BUDGET_SECONDS = env_float("SOLVER_BUDGET_SECONDS", 10.0)
SOLVER_NODE_BUDGET = env_int("SOLVER_NODE_BUDGET", 2_000_000)
# Processes per daily candidate: 2 races a depth-first search in a forked child beside the
# main search (games.solver.race), for workers with a core to spare; 1 or 2.
SOLVER_WORKERS = env_int_between("SOLVER_WORKERS", 1, 1, 2)
# An interpreter (e.g. pypy3) to run the solver in, as worker processes fed by the web and
# Celery processes (games.solver.external); empty: the solver runs in-process on CPython.
SOLVER_PYTHON = os.environ.get("SOLVER_PYTHON", "")
# Winnability and hints (games.winnability): the hint solver's budget per position.
HINT_BUDGET_SECONDS = env_float("HINT_BUDGET_SECONDS", 1.2)
HINT_BACKGROUND_SECONDS = env_float("HINT_BACKGROUND_SECONDS", 10.0)
# Label of stored winnability results; empty: games.winnability.configs.SOLVER_VERSION.
WINNABILITY_SOLVER_VERSION = os.environ.get("WINNABILITY_SOLVER_VERSION", "")

IDEMPOTENCY_KEY_TTL_HOURS = env_int("IDEMPOTENCY_KEY_TTL_HOURS", 24)
# Base of the problem details' ``type`` URIs (RFC 9457); the code is appended.
PROBLEM_TYPE_BASE = os.environ.get("PROBLEM_TYPE_BASE", "https://haven.example/problems/")

# Request bodies are small JSON documents; anything larger is refused with a 413 problem.
DATA_UPLOAD_MAX_MEMORY_SIZE = env_int("DATA_UPLOAD_MAX_MEMORY_SIZE", 64 * 1024)

# --- The daily deals (games.daily; its modules explain each knob) ---------------------------
# How many days ahead the hourly beat task prepares.
DAILY_DAYS_AHEAD = env_int("DAILY_DAYS_AHEAD", 7)

# The move log's monthly partitions (games.partitions, docs/operations/scaling.md): months
# created ahead, months kept before the archive (this month counts as 0), and where the
# archive's gzip CSV files go (a stand-in for object storage).
MOVELOG_PARTITIONS_AHEAD = env_int("MOVELOG_PARTITIONS_AHEAD", 3)
MOVELOG_RETENTION_MONTHS = env_int("MOVELOG_RETENTION_MONTHS", 13)
MOVELOG_ARCHIVE_DIR = os.environ.get("MOVELOG_ARCHIVE_DIR", "").strip() or str(
    BASE_DIR / "var" / "movelog-archive"
)
# Minutes a ranked play may still move after its UTC day ends (games.daily.window); the
# day's decks, solutions and replays are public only after that.
RANKED_GRACE_MINUTES = env_int_between("RANKED_GRACE_MINUTES", 10, 0, 120)
# The search's cap, in candidates' worth of screening, and a candidate's screening positions.
DAILY_MAX_ATTEMPTS = env_int("DAILY_MAX_ATTEMPTS", 50)
DAILY_SCREEN_NODES = env_int("DAILY_SCREEN_NODES", 50_000)
# Seconds of shortening for a daily deal's par.
DAILY_PAR_SECONDS = env_float("DAILY_PAR_SECONDS", 0.5)
# Seconds a request may spend preparing today's missing deals; 0: SOLVER_BUDGET_SECONDS.
DAILY_ON_DEMAND_SECONDS = env_float("DAILY_ON_DEMAND_SECONDS", 0.0)
# A task's wait for another worker's (day, preset) lock, then its first retry delay (doubled
# on each retry).
DAILY_LOCK_WAIT_SECONDS = env_float("DAILY_LOCK_WAIT_SECONDS", 5.0)
DAILY_LOCK_RETRY_SECONDS = env_float("DAILY_LOCK_RETRY_SECONDS", 30.0)

# --- Fair play (fairplay/, docs/fair-play.md) ------------------------------------------------
# HMAC key of the address and device keys (config.web.clientkeys): raw addresses never reach
# the database. Changing it unlinks every stored key from new ones.
FAIRPLAY_KEY_SECRET = os.environ.get("FAIRPLAY_KEY_SECRET") or f"fairplay:{SECRET_KEY}"
# Days the address and device keys are kept (the daily purge blanks older ones); linked
# accounts are looked for only within this window.
FAIRPLAY_RETENTION_DAYS = env_int_between("FAIRPLAY_RETENTION_DAYS", 30, 1, 3650)
# A ranked play of an account younger than this (hours, at the play's start) is flagged
# and kept off other players' boards. 0 (the default) turns the rule off; production
# should use 24 or more (docs/fair-play.md).
FAIRPLAY_MIN_ACCOUNT_AGE_HOURS = env_float("FAIRPLAY_MIN_ACCOUNT_AGE_HOURS", 0.0)
# Score above which each detector flags (fairplay.detectors.Thresholds' fields); the
# environment gives JSON such as {"inhuman_speed": 0.7}.
FAIRPLAY_THRESHOLDS = json.loads(os.environ.get("FAIRPLAY_THRESHOLDS") or "{}")
# The account's judgement across its days (fairplay.detectors.AccountCuts' fields: window,
# clairvoyance_z, choice_z, linked_z, indifference_z, indifference_moves, perfect, par_share,
# par_walks; docs/fair-play-detectors.md); the environment gives JSON such as {"window": 20}.
FAIRPLAY_ACCOUNT = json.loads(os.environ.get("FAIRPLAY_ACCOUNT") or "{}")
# Plays per preset served by GET /api/v1/daily/{date}/replays.
FAIRPLAY_REPLAYS_TOP = env_int_between("FAIRPLAY_REPLAYS_TOP", 10, 1, 100)
# Whether a finished ranked play is analysed by the detectors (fairplay.receivers). On in
# every deployment; the test suite turns it off outside tests/fairplay, whose clients play
# at machine speed and would be flagged as bots (tests/conftest.py).
FAIRPLAY_ANALYSE = env_bool("FAIRPLAY_ANALYSE", True)

# --- The leaderboards (leaderboard/README.md) ------------------------------------------------
# The Redis key prefix of the boards, the epoch marker and the rebuild locks.
LEADERBOARD_REDIS_PREFIX = os.environ.get("LEADERBOARD_REDIS_PREFIX", "lb:")
# A rebuild's lock lives this long unless renewed (it is, batch by batch): a process killed
# mid-rebuild holds its board back for at most this long.
LEADERBOARD_REBUILD_LOCK_SECONDS = env_int("LEADERBOARD_REBUILD_LOCK_SECONDS", 30)
# Rebuild missing boards in the request's thread instead of a background one (tests).
LEADERBOARD_REBUILD_INLINE = env_bool("LEADERBOARD_REBUILD_INLINE", False)
LEADERBOARD_GROUP_MAX_MEMBERS = env_int("LEADERBOARD_GROUP_MAX_MEMBERS", 500)
# Without a broker there is no beat: each web worker sweeps for finished ranked plays
# without a score every this many seconds (leaderboard.sweeper; 0: never, as with a beat),
# and this long after a score write failed.
LEADERBOARD_SWEEP_SECONDS = env_float(
    "LEADERBOARD_SWEEP_SECONDS", 0.0 if REDIS_URL or TESTING else 15.0
)
LEADERBOARD_SWEEP_RETRY_SECONDS = env_float("LEADERBOARD_SWEEP_RETRY_SECONDS", 2.0)

# --- Notifications (notifications/, docs/operations/notifications.md) -----------------------
# Where the events go (JSON, POST); empty: notifications are off and no event is written.
NOTIFY_WEBHOOK_URL = os.environ.get("NOTIFY_WEBHOOK_URL", "").strip()
# The HMAC-SHA256 key of the X-Haven-Signature header; required (32+ characters) with a URL.
NOTIFY_WEBHOOK_SECRET = os.environ.get("NOTIFY_WEBHOOK_SECRET", "")
if NOTIFY_WEBHOOK_URL and len(NOTIFY_WEBHOOK_SECRET) < 32:
    raise ImproperlyConfigured(
        "NOTIFY_WEBHOOK_URL needs NOTIFY_WEBHOOK_SECRET of at least 32 characters"
    )
NOTIFY_TIMEOUT_SECONDS = env_float("NOTIFY_TIMEOUT_SECONDS", 5.0)
# Retries: base · 2^(n-1) seconds after the n-th failure, capped; given up at the max age.
NOTIFY_RETRY_BASE_SECONDS = env_float("NOTIFY_RETRY_BASE_SECONDS", 10.0)
NOTIFY_RETRY_MAX_SECONDS = env_float("NOTIFY_RETRY_MAX_SECONDS", 3600.0)
NOTIFY_MAX_AGE_HOURS = env_float("NOTIFY_MAX_AGE_HOURS", 24.0)
# Sent and dead rows are deleted after this many days.
NOTIFY_RETENTION_DAYS = env_int_between("NOTIFY_RETENTION_DAYS", 7, 1, 365)

# --- Live streams (docs/live.md) --------------------------------------------------------------
# The Redis Streams of the live channels live under this prefix (under the boards' own, so
# a deployment, or a test process, that moves one moves both).
REALTIME_REDIS_PREFIX = os.environ.get("REALTIME_REDIS_PREFIX", f"{LEADERBOARD_REDIS_PREFIX}rt:")
# Events kept per channel for a client that resumes with Last-Event-ID (XADD MAXLEN ~).
REALTIME_HISTORY = env_int_between("REALTIME_HISTORY", 1000, 10, 100_000)
# Entries of a board stream's top.
REALTIME_TOP = env_int_between("REALTIME_TOP", 10, 1, 100)
# A comment line this often keeps proxies from closing an idle stream.
REALTIME_KEEPALIVE_SECONDS = env_float("REALTIME_KEEPALIVE_SECONDS", 15.0)
# The streams' own Redis connections may take this long to connect (the API's take
# REDIS_CONNECT_TIMEOUT): a stream server opening hundreds at once on a busy loop missed
# 0.1 s and told every watcher to poll; a refused connection (Redis down) still fails at once.
REALTIME_REDIS_CONNECT_TIMEOUT = env_float("REALTIME_REDIS_CONNECT_TIMEOUT", 2.0)
# The streams' short Redis reads (as a stream opens) share at most this many connections
# per process; a connection storm waits for them instead of opening thousands (which Redis
# refused past its limit). The channels' blocking readers have their own, one each.
REALTIME_REDIS_COMMAND_CONNECTIONS = env_int_between(
    "REALTIME_REDIS_COMMAND_CONNECTIONS", 32, 1, 1000
)
# A channel's whole-state events (a board's top, a tournament's standings) go out at most
# once per this many seconds per server, the latest one carrying what the skipped ones said
# (docs/live.md, "Coalescing"); 0 sends every event (the benchmark's baseline).
REALTIME_COALESCE_SECONDS = max(0.0, min(1.0, env_float("REALTIME_COALESCE_SECONDS", 0.1)))
# Redis unavailable (or a WSGI worker asked): the stream says "poll every this many seconds".
REALTIME_POLL_SECONDS = env_int_between("REALTIME_POLL_SECONDS", 30, 1, 3600)
# Presets with a weekly cup, created by the beat (docs/tournaments.md); empty: none.
TOURNAMENTS_WEEKLY_PRESETS = [
    name.strip()
    for name in os.environ.get("TOURNAMENTS_WEEKLY_PRESETS", "easthaven").split(",")
    if name.strip()
]
# Without a broker there is neither a worker nor a beat: each web process prepares the
# seeded tournaments' deals in a thread of its own, woken by a new tournament and looking
# for missing deals every this many seconds (tournaments.preparer; 0: never, as with a
# broker, whose worker and beat prepare them).
TOURNAMENTS_PREPARE_SECONDS = env_float(
    "TOURNAMENTS_PREPARE_SECONDS", 0.0 if REDIS_URL or TESTING else 600.0
)
# A stream ticket (POST /api/v1/streams/tickets) opens a stream within this many seconds.
REALTIME_TICKET_SECONDS = env_int_between("REALTIME_TICKET_SECONDS", 60, 5, 3600)

# --- Auth -----------------------------------------------------------------------------------
AUTH_PASSWORD_VALIDATORS = [
    {
        "NAME": "django.contrib.auth.password_validation.MinimumLengthValidator",
        "OPTIONS": {"min_length": 8},
    },
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
if TESTING:
    # Hashing with PBKDF2 dominates a test suite that registers hundreds of users.
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]

SIMPLE_JWT = {
    "ACCESS_TOKEN_LIFETIME": timedelta(minutes=env_int("ACCESS_TOKEN_MINUTES", 24 * 60)),
    "REFRESH_TOKEN_LIFETIME": timedelta(days=env_int("REFRESH_TOKEN_DAYS", 30)),
    "AUTH_HEADER_TYPES": ("Bearer",),
    "SIGNING_KEY": SECRET_KEY,
    "UPDATE_LAST_LOGIN": False,
    # Tokens carry a hash of the password hash: a new password refuses the old access
    # tokens (accounts.passwords; on the move path within AUTH_RECHECK_SECONDS).
    "CHECK_REVOKE_TOKEN": True,
}
# A guest (accounts.guests) unseen this many days that never played is deleted.
GUEST_IDLE_DAYS = env_int("GUEST_IDLE_DAYS", 30)

# The move endpoint trusts the JWT's user_id claim and re-reads the account's is_active at
# most this often per user and worker process (accounts.auth): a deactivated or deleted user
# is refused at once by the process that changed it, by every other one within this time.
AUTH_RECHECK_SECONDS = env_float("AUTH_RECHECK_SECONDS", 30.0)
# 0/false: on PostgreSQL a move's commit (without Idempotency-Key) does not wait for its
# WAL flush (synchronous_commit off for that transaction, games.movelog): a few ms less per
# move on a slow disk, but a crash of PostgreSQL can lose the moves of the last ~0.6 s (the
# client then gets 409 stale_sequence and re-reads the play). Default: durable.
MOVES_SYNCHRONOUS_COMMIT = env_bool("MOVES_SYNCHRONOUS_COMMIT", True)

REST_FRAMEWORK = {
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "accounts.authentication.StrictJWTAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticated"],
    "DEFAULT_PARSER_CLASSES": ["config.web.parsers.BoundedJSONParser"],
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "config.web.problems.exception_handler",
    "DEFAULT_THROTTLE_CLASSES": ["config.web.throttling.ScopedThrottle"],
    "DEFAULT_THROTTLE_RATES": {
        "plays": os.environ.get("THROTTLE_PLAYS", "120/min"),
        "moves": os.environ.get("THROTTLE_MOVES", "600/min"),
        "auth": os.environ.get("THROTTLE_AUTH", "30/min"),
        "hints": os.environ.get("THROTTLE_HINTS", "10/min"),
        # Hints per client address too (config.web.throttling): rotating accounts does not
        # lift the limit. Generous, since players behind one NAT or school share an address.
        "hints_address": os.environ.get("THROTTLE_HINTS_ADDRESS", "60/min"),
    },
    "UNAUTHENTICATED_USER": "django.contrib.auth.models.AnonymousUser",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

SPECTACULAR_SETTINGS = {
    "TITLE": "Haven API",
    "DESCRIPTION": (
        "Daily solitaire challenges: Easthaven, Westcliff and Seahaven Towers. "
        "Authenticate with `POST /api/v1/auth/token` (or register) and send "
        "`Authorization: Bearer <access>`. Errors are RFC 9457 problem details."
    ),
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
    "COMPONENT_SPLIT_REQUEST": True,
    "SCHEMA_PATH_PREFIX": r"/api/v1",
    "ENUM_NAME_OVERRIDES": {
        "PlayStatusEnum": "games.models.PlayStatus",
        "VerdictEnum": "games.models.Verdict",
        # The health check's database and cache share one choice set: one enum, not two
        # (drf-spectacular's W001, which `manage.py check --deploy` would report).
        "AvailabilityEnum": ["ok", "unavailable"],
    },
}

# --- I18n, static ---------------------------------------------------------------------------
LANGUAGE_CODE = "en"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
# gunicorn serves the admin's and Swagger's static files through WhiteNoise; the finders let
# it do so before (or without) ``collectstatic``, which the Docker image runs.
WHITENOISE_USE_FINDERS = True
warnings.filterwarnings("ignore", message="No directory at", category=UserWarning)

# LOG_FORMAT=text (default: make run) or json (docker-compose): config.observability.logs.
LOG_FORMAT = os.environ.get("LOG_FORMAT", "text").strip().lower() or "text"
# One line per request (haven.request); on by default with JSON, where it replaces
# gunicorn's access log.
LOG_REQUESTS = env_bool("LOG_REQUESTS", LOG_FORMAT == "json")
LOGGING = observability_logs.logging_config(
    LOG_FORMAT, os.environ.get("LOG_LEVEL", "INFO"), LOG_REQUESTS
)
# A Celery worker keeps Django's logging (JSON lines) instead of its own format.
CELERY_WORKER_HIJACK_ROOT_LOGGER = LOG_FORMAT != "json"

# --- Front ends (issue 22): CORS, languages, compression, local docs -------------------------
INSTALLED_APPS += ["corsheaders", "drf_spectacular_sidecar"]
# CORS answers preflights before anything else (authentication included); a refusal of
# any layer below still carries the CORS headers, so a browser client can read it.
MIDDLEWARE.insert(0, "corsheaders.middleware.CorsMiddleware")
# The language is chosen before the body-size check, so even a 413 speaks it; compression
# wraps everything below it (config.web.middleware.CompressionMiddleware says what it skips).
MIDDLEWARE.remove("config.web.middleware.BodySizeLimitMiddleware")
MIDDLEWARE[MIDDLEWARE.index("django.contrib.sessions.middleware.SessionMiddleware") + 1 : 0] = [
    "config.web.middleware.LanguageMiddleware",
    "config.web.middleware.BodySizeLimitMiddleware",
]
MIDDLEWARE.insert(
    MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
    "config.web.middleware.CompressionMiddleware",
)

# GZip of large answers (config.web.middleware.CompressionMiddleware). Off by default under
# pytest only because schemathesis' in-process WSGI transport asks for gzip and cannot
# decode it; the compression tests switch it on.
GZIP_RESPONSES = env_bool("GZIP_RESPONSES", not TESTING)

CORS_ALLOWED_ORIGINS = [
    origin.strip()
    for origin in os.environ.get("CORS_ALLOWED_ORIGINS", "").split(",")
    if origin.strip()
]
# Local development: any port of localhost / 127.0.0.1 / [::1] (a front end's dev server,
# e.g. http://localhost:5173 against ``make run``). On by default in the embedded mode and
# in local mode (HAVEN_LOCAL, which make exports, or DEBUG); a deployment (DATABASE_URL
# set, neither) allows only CORS_ALLOWED_ORIGINS.
# CORS_ALLOW_LOCALHOST=0 / 1 overrides the default either way.
LOCALHOST_ORIGIN = r"^https?://(localhost|127\.0\.0\.1|\[::1\])(:[0-9]{1,5})?\Z"
CORS_ALLOW_LOCALHOST = env_bool("CORS_ALLOW_LOCALHOST", EMBEDDED or LOCAL_MODE)
CORS_ALLOWED_ORIGIN_REGEXES = [LOCALHOST_ORIGIN] if CORS_ALLOW_LOCALHOST else []
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_HEADERS = [
    "accept",
    "accept-language",
    "authorization",
    "content-type",
    "idempotency-key",
    "if-match",
    "if-none-match",
]
CORS_EXPOSE_HEADERS = [
    "ETag",
    "Location",
    "Retry-After",
    "RateLimit",
    "RateLimit-Policy",
    "Idempotent-Replayed",
    "Content-Language",
    "X-Leaderboard-Source",
]
CORS_PREFLIGHT_MAX_AGE = 86400

LANGUAGES = [("en", "English"), ("de", "Deutsch"), ("ru", "Русский")]
# The error catalogue's translations belong to the shared web layer (config/web/catalogue.py);
# the presets' to the games app. Neither folder is an app's own locale/ (config.web's would be
# config/web/locale), so both are listed here (Django merges them; manage.py
# compile_translations compiles every one).
LOCALE_PATHS = [BASE_DIR / "config" / "locale", BASE_DIR / "games" / "locale"]

SPECTACULAR_SETTINGS.update(
    {
        "SWAGGER_UI_DIST": "SIDECAR",
        "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
        "REDOC_DIST": "SIDECAR",
        "POSTPROCESSING_HOOKS": [
            "drf_spectacular.hooks.postprocess_schema_enums",
            "config.web.openapi.postprocess",
        ],
        "ENUM_NAME_OVERRIDES": {
            **SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"],
            "VerdictEnum": "games.api.serializers.PUBLIC_VERDICTS",
        },
    }
)

# --- Web client (issue 23) --------------------------------------------------------------------
# The reference web client (plain ES modules and CSS, no build step) is served by WhiteNoise
# from webclient/, paths as under it: ``/play/`` is webclient/play/index.html, ``/play/app/…``
# its modules (``/`` stays the API's 404). It talks to the API like any other client (its
# base URL is a <meta> tag, see README).
WHITENOISE_ROOT = BASE_DIR / "webclient"
WHITENOISE_INDEX_FILE = True
# --- Hostile input (README "Hostile input") ----------------------------------------------
# JSON bodies nested deeper than this are refused with 400 invalid_json (config.web.parsers).
JSON_MAX_DEPTH = env_int("JSON_MAX_DEPTH", 32)
# Control characters anywhere in a URL's path or query are refused with a 400 problem.
MIDDLEWARE.insert(1, "config.web.middleware.ControlCharacterURLMiddleware")
# Django's CSRF refusal (the admin's forms) as a problem document, like every other error.
CSRF_FAILURE_VIEW = "config.web.problems.csrf_failure"
# Parameter formats and the 400 every operation can give, in the OpenAPI schema.
SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"] = [
    *SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"],
    # Issue 42: the SSE streams (async views drf-spectacular does not see), then described
    # like every other operation.
    "realtime.schema.describe_streams",
    "config.web.schema.describe_parameters",
    "config.web.schema_limits.declare_limits",
    # Issue 46: rules across fields, then what every operation declares (security,
    # summaries, tags, the one Problem component); schema_contract stays last.
    "games.api.schema_bodies.state_body_rules",
    "config.web.schema_contract.declare_contract",
]

# --- Operations (issue 41; docs/operations/observability.md, production.md) -----------------
# Metrics: nothing is exported unless METRICS_ENABLED; then /metrics answers only with
# Authorization: Bearer <METRICS_TOKEN>, and/or gunicorn's master (METRICS_PORT) and a Celery
# worker (CELERY_METRICS_PORT) serve them on a port of their own, on METRICS_ADDRESS.
METRICS_ENABLED = env_bool("METRICS_ENABLED", False)
METRICS_TOKEN = os.environ.get("METRICS_TOKEN", "").strip()
METRICS_ADDRESS = os.environ.get("METRICS_ADDRESS", "127.0.0.1").strip() or "127.0.0.1"
CELERY_METRICS_PORT = env_int("CELERY_METRICS_PORT", 0)
# Outermost: the request id and the request's metrics and log line cover every layer below;
# then the security headers, which every answer gets (config.web.security).
MIDDLEWARE[0:0] = [
    "config.observability.middleware.RequestObservabilityMiddleware",
    "config.web.security.SecurityHeadersMiddleware",
]
CORS_EXPOSE_HEADERS.append("X-Request-ID")
CORS_ALLOW_HEADERS.append("x-request-id")

# Production behind TLS (docs/operations/production.md). HTTPS_ONLY=1: HTTP is redirected to
# HTTPS (the health check and /metrics excepted, for probes on the plain port), HSTS for
# HSTS_SECONDS (default a year, subdomains and preload unless switched off), cookies only
# over HTTPS. A proxy that terminates TLS must say so: TRUST_X_FORWARDED_PROTO=1 makes Django
# read its X-Forwarded-Proto (only safe when the proxy always sets it).
HTTPS_ONLY = env_bool("HTTPS_ONLY", False)
SECURE_SSL_REDIRECT = HTTPS_ONLY
SECURE_REDIRECT_EXEMPT = [r"^api/v1/health$", r"^metrics$"]
SECURE_HSTS_SECONDS = env_int("HSTS_SECONDS", 31_536_000) if HTTPS_ONLY else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("HSTS_INCLUDE_SUBDOMAINS", True)
SECURE_HSTS_PRELOAD = env_bool("HSTS_PRELOAD", True)
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
if env_bool("TRUST_X_FORWARDED_PROTO", False):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
# Headers every answer gets (config.web.security fills them in where Django's don't reach).
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
SECURE_CROSS_ORIGIN_OPENER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# Origins the web client may call besides its own (an API elsewhere), for its CSP.
CSP_CONNECT_SRC = [
    origin.strip() for origin in os.environ.get("CSP_CONNECT_SRC", "").split(",") if origin.strip()
]
