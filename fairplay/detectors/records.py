"""What the detectors read and what they say: a finished play's record, the account's past
plays, a finding, the thresholds. The detector modules import these from here, and the
package re-exports them.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any


@dataclass(frozen=True)
class PastPlay:
    """One earlier finished ranked play of the same account, for the across-days detector."""

    preset: str
    won: bool
    moves: int
    par: int | None
    undos: int
    first_attempt: bool
    median_move_seconds: float | None


@dataclass(frozen=True)
class PlayRecord:
    """What the detectors may know of one finished ranked play.

    ``moves`` are the rows of the play's log in order, as stored (``Move.move`` JSON: undo
    and resign rows included); ``move_seconds[i]`` is the server-measured time from the
    previous row (the play's start for the first) to row ``i``. ``linked_reveals`` are the
    cards that other accounts sharing this play's address or device key had seen face up
    on the same deal before this play started; ``history`` is the account's earlier
    finished ranked plays, newest first.
    """

    preset: str
    options: Mapping[str, Any]
    deck: tuple[str, ...]
    moves: tuple[Mapping[str, Any], ...]
    move_seconds: tuple[float, ...]
    outcome: str
    par: int | None
    account_age_days: float
    linked_reveals: frozenset[str] = frozenset()
    history: tuple[PastPlay, ...] = ()
    par_line: tuple[Mapping[str, Any], ...] = ()
    """The deal's par solution (``Deal.solution``, API move dicts), when it has one: the
    clairvoyance detector checks whether the play walked it."""


@dataclass(frozen=True)
class Finding:
    """One detector's verdict on one play: ``score`` in [0, 1], ``flagged`` when it crosses
    the detector's threshold, and a ``reason`` in words for the review queue."""

    detector: str
    score: float
    flagged: bool
    reason: str
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Thresholds:
    """The score above which each detector flags (settings ``FAIRPLAY_THRESHOLDS``)."""

    clairvoyance: float = 0.5
    linked_accounts: float = 0.5
    inhuman_speed: float = 0.5
    too_good: float = 0.5
