"""The fair-play detectors: pure Python over the engine, no Django.

A finished ranked play becomes a :class:`PlayRecord` (built by the fairplay app from its
evidence, or by ``bench/fairplay.py`` from a simulated player); :func:`run_detectors` gives
one :class:`Finding` per detector, each with a score, whether it crosses its threshold and a
reason a reviewer can read. Keeping them free of Django lets the benchmark measure exactly
the code the service runs.
"""

from __future__ import annotations

from .account import AccountCuts, AccountVerdict, PlaySample, judge_account, per_day, sample_of
from .findings import findings
from .records import Finding, PastPlay, PlayRecord, Thresholds


def run_detectors(record: PlayRecord, thresholds: Thresholds | None = None) -> list[Finding]:
    """Every detector's finding on ``record``, in a fixed order: clairvoyance, linked
    accounts, inhuman speed or rhythm, too good to be true."""
    return findings(record, thresholds or Thresholds())


__all__ = [
    "AccountCuts",
    "AccountVerdict",
    "Finding",
    "PastPlay",
    "PlayRecord",
    "PlaySample",
    "Thresholds",
    "judge_account",
    "per_day",
    "run_detectors",
    "sample_of",
]
