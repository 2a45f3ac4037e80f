"""Where a day's deals come from: candidate ``n`` of a (day, preset), from the secret.

Candidate ``n`` (0, 1, 2 …) of a (day, preset) is the engine's seeded deck of

    digest = HMAC-SHA256(key=DAILY_SECRET, msg="haven-daily:v1:<YYYY-MM-DD>:<preset>:<n>")
    seed = int.from_bytes(digest[:8], "big") >> 1

(``>> 1`` keeps the seed in the engine's 0 … 2**63 − 1).  Without the secret nobody can
predict a future deal; with the same secret the same candidates come out forever
(``deck_from_seed`` is version-stable).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import hmac

from django.conf import settings

from games import engine

CANDIDATE_VERSION = "v1"


def candidate_seed(day: dt.date, preset: str, attempt: int) -> int:
    """The engine seed of candidate ``attempt`` of (``day``, ``preset``): see the module doc."""
    engine.get_rules(preset)  # unknown presets are an error, not a silent candidate
    return secret_seed(f"haven-daily:{CANDIDATE_VERSION}:{day.isoformat()}:{preset}", attempt)


def secret_seed(label: str, attempt: int) -> int:
    """The engine seed of candidate ``attempt`` of a series named ``label``: the HMAC of
    ``"<label>:<attempt>"`` keyed with ``DAILY_SECRET`` (module doc). The dailies' series are
    ``haven-daily:v1:<day>:<preset>``; another series (a tournament's own deals) names
    itself differently, so no two series share a candidate."""
    if isinstance(attempt, bool) or not isinstance(attempt, int) or attempt < 0:
        raise ValueError("attempt is an integer ≥ 0")
    message = f"{label}:{attempt}"
    digest = hmac.new(settings.DAILY_SECRET.encode(), message.encode(), hashlib.sha256).digest()
    return int.from_bytes(digest[:8], "big") >> 1


def candidate_deck(day: dt.date, preset: str, attempt: int) -> tuple[int, ...]:
    """Candidate deck ``attempt`` of (``day``, ``preset``), from the secret (module doc)."""
    return engine.deck_from_seed(candidate_seed(day, preset, attempt))
