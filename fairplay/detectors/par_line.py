"""The second clairvoyance signal: a play that walks the deal's full-information par line.

The daily deal's par solution (``Deal.solution``) was found with every card known. A
player who sees only the board shares its first obvious positions and then goes their own
way (simulated honest players: at most a quarter of its positions, nine in ten under a
sixth); one who replays it, or a shortened line close to it, passes through most of its
positions. The share is of the par line's positions (columns compared as the solver
compares them: in Westcliff and Seahaven their order does not matter) that the play
reached, flagged from ``SHARE_CUT``. It is blind to a cheat whose own solver finds a
different line: the permutation test and the across-days detector are there for those.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from games.engine import EngineError, Move, State, apply_move, state_key

from .clairvoyance import normal_cdf
from .replay import Step

SHARE_CUT = 0.6
SHARE_SCALE = 0.1


@dataclass(frozen=True)
class ParFollow:
    share: float
    positions: int

    @property
    def score(self) -> float:
        return normal_cdf((self.share - SHARE_CUT) / SHARE_SCALE) if self.positions else 0.0

    def describe(self) -> str:
        if not self.positions:
            return "no par line to compare with"
        return f"reached {self.share:.0%} of the {self.positions} positions of the par line"


def par_follow(
    start: State, steps: Sequence[Step], par_line: Sequence[Mapping[str, Any]]
) -> ParFollow:
    if not par_line:
        return ParFollow(0.0, 0)
    keys = set()
    state = start
    try:
        for row in par_line:
            state = apply_move(state, Move.from_dict(dict(row)))
            keys.add(state_key(state))
    except EngineError:
        return ParFollow(0.0, 0)  # not this deal's line: nothing to compare
    reached = {state_key(step.after) for step in steps}
    return ParFollow(len(keys & reached) / len(keys), len(keys))
