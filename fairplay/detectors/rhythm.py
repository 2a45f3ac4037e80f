"""Inhuman speed or rhythm: move times people do not produce.

Three signals, each a score; the detector reports the strongest:

* **speed**: the median think time below ``SPEED_FLOOR`` seconds (server-measured, so the
  network is included: people dragging cards do not sustain that), or most moves faster
  than ``BURST_FLOOR``;
* **regularity**: a coefficient of variation of the think times below ``CV_FLOOR`` (a
  fixed delay, or a narrow random one);
* **indifference to the position**: people think longer where there is more to choose
  from and after a new card turns up, and play forced moves quickly (Hick's law); a bot
  that sleeps at random between moves does not. The Spearman correlation between the
  think time and the position's demand (the number of legal moves, more after a reveal)
  is near 0 for such a bot, so ``z = r·√(n−1)`` below ``INDIFFERENCE_Z`` flags it, once
  the play has at least ``MIN_MOVES`` moves.

Speed needs ``MIN_FAST`` moves, regularity ``MIN_TIMED``.
"""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence
from dataclasses import dataclass

from .clairvoyance import normal_cdf
from .replay import Step

SPEED_FLOOR = 0.6
BURST_FLOOR = 0.2
CV_FLOOR = 0.25
INDIFFERENCE_Z = 0.5
MIN_MOVES = 40
#: Speed is judged from this many moves, regularity from ``MIN_TIMED`` (a dozen times say
#: little of their spread; such short plays are lost ones that no board ranks).
MIN_FAST = 5
MIN_TIMED = 12


@dataclass(frozen=True)
class Rhythm:
    moves: int
    median: float
    burst_share: float
    cv: float
    demand_r: float
    demand_z: float
    score: float
    reason: str


def demand(step: Step) -> float:
    """How much a position asks of a player: more legal moves, and a newly turned card."""
    return math.log(max(step.options, 1)) + (1.0 if step.after_reveal else 0.0)


def rhythm(steps: Sequence[Step]) -> Rhythm:
    times = [step.seconds for step in steps]
    if len(times) < MIN_FAST:
        return Rhythm(len(times), 0.0, 0.0, 0.0, 0.0, 0.0, 0.0, "too few moves to judge")
    median = statistics.median(times)
    burst = sum(t < BURST_FLOOR for t in times) / len(times)
    mean = statistics.fmean(times)
    cv = statistics.pstdev(times) / mean if mean > 0 else 0.0
    r = spearman([demand(step) for step in steps], times)
    z = r * math.sqrt(len(times) - 1)
    signals = [
        (_below(median, SPEED_FLOOR, 0.15), f"median think time {median:.2f} s"),
        (_below(-burst, -0.5, 0.1), f"{burst:.0%} of moves under {BURST_FLOOR} s"),
    ]
    if len(times) >= MIN_TIMED:
        signals.append(
            (_below(cv, CV_FLOOR, 0.05), f"think times too regular (variation {cv:.2f})")
        )
    if len(times) >= MIN_MOVES:
        signals.append(
            (
                _below(z, INDIFFERENCE_Z, 0.5),
                f"think times ignore the position (correlation with its demand {r:.2f}, "
                f"z = {z:.1f}; people: clearly positive)",
            )
        )
    score, what = max(signals)
    reason = (
        f"{what} over {len(times)} moves"
        if score >= 0.5
        else f"human-like over {len(times)} moves: median {median:.2f} s, variation "
        f"{cv:.2f}, correlation with the position's demand {r:.2f}"
    )
    return Rhythm(len(times), median, burst, cv, r, z, score, reason)


def _below(value: float, floor: float, scale: float) -> float:
    """0.5 exactly at ``floor``, towards 1 below it, towards 0 above it."""
    return normal_cdf((floor - value) / scale)


def spearman(xs: Sequence[float], ys: Sequence[float]) -> float:
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = statistics.fmean(rx), statistics.fmean(ry)
    cov = sum((a - mx) * (b - my) for a, b in zip(rx, ry))
    vx = sum((a - mx) ** 2 for a in rx)
    vy = sum((b - my) ** 2 for b in ry)
    return cov / math.sqrt(vx * vy) if vx > 0 and vy > 0 else 0.0


def _ranks(values: Sequence[float]) -> list[float]:
    order = sorted(range(len(values)), key=values.__getitem__)
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2.0
        i = j + 1
    return ranks
