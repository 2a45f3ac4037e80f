"""Too good to be true: par, first time, without hesitating, day after day.

Par is the solver's shortest win with every card known. A person who sees only the board
reaches it now and then by luck or skill; doing so on a first attempt with no undo and
without ever stopping to think, on several days, is how a player who solves the known deck
(a linked throwaway's, or a leaked one) looks. One perfect day never flags: the detector
counts perfect plays among this one and the account's last ``WINDOW`` ranked plays, and
needs ``MIN_PERFECT`` of them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from .records import PastPlay

WINDOW = 10
MIN_PERFECT = 3
#: "No hesitation": a median think time at or below this many seconds.
HESITATION_SECONDS = 4.0


@dataclass(frozen=True)
class TooGood:
    perfect: int
    considered: int
    score: float
    reason: str


def is_perfect(play: PastPlay) -> bool:
    return (
        play.won
        and play.par is not None
        and play.moves <= play.par
        and play.undos == 0
        and play.first_attempt
        and play.median_move_seconds is not None
        and play.median_move_seconds <= HESITATION_SECONDS
    )


def too_good(current: PastPlay, history: Sequence[PastPlay]) -> TooGood:
    plays = [current, *history[:WINDOW]]
    perfect = sum(is_perfect(play) for play in plays)
    if not is_perfect(current):
        score = 0.0
        what = "this play is not a first-attempt par without undo or hesitation"
    else:
        score = min(1.0, perfect / (2 * MIN_PERFECT))  # 0.5 at MIN_PERFECT
        what = f"par without undo or hesitation in {perfect} of the last {len(plays)} plays"
    if current.par is None:
        what = "no par known for this deal"
    return TooGood(perfect, len(plays), score, what)
