"""The account's judgement across its days: the per-play evidence pooled over a window.

One play carries too little evidence for the weak kinds of cheating (a clairvoyant who
plays an ordinary game moves the reveal test's z by 1–2; a bot with random sleeps on a
short play has a dozen think times). But the per-play statistics below are exact or
calibrated under their null hypothesis *whatever the player's policy*, so they add up
across the account's ranked plays, and the pooled statistic keeps its null distribution:

* **reveals** (:mod:`.clairvoyance`): each play's ``total`` is a sum of centred shares
  whose honest variance is ``variance``, a martingale over the reveals; the plays of an
  account continue the same martingale, so ``Σ total / √Σ variance`` is standard-normal
  for an honest account (weighted Stouffer: a play with more real choices weighs more);
  :mod:`.choice` weighs each reveal by the number of reveals open to the player, pooled
  the same way (its weights are what the player saw, so it stays exact);
* **linked reveals** (:mod:`.linked`): the same test restricted to the cards a linked
  account had seen, pooled the same way;
* **think times that ignore the position** (:mod:`.rhythm`): for a bot whose sleeps do not
  depend on the position, each play's correlation ``r`` between think time and the
  position's demand has mean 0 and variance exactly ``1/(n−1)`` (a correlation of fixed
  values with a random order of the others), so ``Σ r·(n−1) / √Σ(n−1)`` is standard-normal
  for such a bot, while a person's grows with every move (a sum of per-move evidence).
  Its calibrated side is the bot's: the honest side is the model of human think times;
* **too good across days**: perfect plays (par, first attempt, no undo, no hesitation) and
  plays that walked most of the par line, counted over the window.

The account is flagged when any pooled statistic crosses its cut (:class:`AccountCuts`);
then the current play and the account's earlier plays in the window are flagged.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import asdict, dataclass, fields
from typing import Any

from .records import Finding


@dataclass(frozen=True)
class PlaySample:
    """What one finished ranked play adds to its account's evidence (JSON-able)."""

    play: str
    day: str
    reveal_total: float = 0.0
    reveal_variance: float = 0.0
    choice_total: float = 0.0
    choice_variance: float = 0.0
    linked_total: float = 0.0
    linked_variance: float = 0.0
    moves: int = 0
    demand_r: float = 0.0
    perfect: bool = False
    par_share: float | None = None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> PlaySample:
        names = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in names})

    @property
    def reveal_z(self) -> float:
        return _z(self.reveal_total, self.reveal_variance)

    @property
    def choice_z(self) -> float:
        return _z(self.choice_total, self.choice_variance)

    @property
    def linked_z(self) -> float:
        return _z(self.linked_total, self.linked_variance)

    @property
    def rhythm_weight(self) -> int:
        """``n − 1`` of the play's think times, once there are enough to correlate."""
        return self.moves - 1 if self.moves >= MIN_TIMES else 0


#: A play's think times count towards the pooled rhythm test from this many moves.
MIN_TIMES = 5


def _z(total: float, variance: float) -> float:
    return total / math.sqrt(variance) if variance > 0 else 0.0


def sample_of(play: str, day: str, found: Sequence[Finding]) -> PlaySample:
    """The account's part of a play's findings (:func:`fairplay.detectors.run_detectors`
    puts the pooled statistics' parts in their details); a finding that lacks them adds
    nothing."""
    by = {f.detector: f.details for f in found}
    seen = by.get("clairvoyance", {})
    linked = by.get("linked_accounts", {})
    pace = by.get("inhuman_speed", {})
    good = by.get("too_good", {})
    share = good.get("par_line_share")
    return PlaySample(
        play=play,
        day=day,
        reveal_total=float(seen.get("total", 0.0)),
        reveal_variance=float(seen.get("variance", 0.0)),
        choice_total=float(seen.get("choice_total", 0.0)),
        choice_variance=float(seen.get("choice_variance", 0.0)),
        linked_total=float(linked.get("total", 0.0)),
        linked_variance=float(linked.get("variance", 0.0)),
        moves=int(pace.get("moves", 0)),
        demand_r=float(pace.get("demand_r", 0.0)),
        perfect=bool(good.get("perfect", False)),
        par_share=None if share is None else float(share),
    )


@dataclass(frozen=True)
class AccountCuts:
    """The account-level policy (setting ``FAIRPLAY_ACCOUNT``; docs/fair-play-detectors.md).

    ``window``: the account's last ranked plays judged together. ``clairvoyance_z``,
    ``choice_z`` (:mod:`.choice`) and ``linked_z``: pooled reveal z-scores at or above
    which the account is flagged (3.5: 0.02 % one-sided per look for an honest account).
    ``indifference_z``: the pooled rhythm z below which it is flagged once its plays hold
    ``indifference_moves`` timed moves (``None``, the default: never). ``perfect``:
    perfect plays in the window; ``par_walks``: plays in the window that reached
    ``par_share`` of the par line.
    """

    window: int = 30
    clairvoyance_z: float = 3.5
    choice_z: float = 3.5
    linked_z: float = 3.5
    indifference_z: float | None = None
    """Off by default: the held-out simulated humans' long Westcliff plays correlate with
    the position as little as a bot's (r 0.03–0.1 over 90–170 moves), so pooling them
    flagged honest accounts (docs/bench/fairplay.md, 2026-12-06). Shown to reviewers."""
    indifference_moves: int = 150
    perfect: int = 3
    par_share: float = 0.4
    par_walks: int = 3


@dataclass(frozen=True)
class AccountVerdict:
    plays: int
    clairvoyance_z: float
    choice_z: float
    linked_z: float
    indifference_z: float
    timed_moves: int
    perfect: int
    par_walks: int
    signals: tuple[str, ...]
    """The pooled statistics that crossed their cut (empty: not flagged)."""
    reason: str

    @property
    def flagged(self) -> bool:
        return bool(self.signals)

    def details(self) -> dict[str, Any]:
        return {
            "plays": self.plays,
            "clairvoyance_z": round(self.clairvoyance_z, 2),
            "choice_z": round(self.choice_z, 2),
            "linked_z": round(self.linked_z, 2),
            "indifference_z": round(self.indifference_z, 2),
            "timed_moves": self.timed_moves,
            "perfect_plays": self.perfect,
            "par_walks": self.par_walks,
            "signals": list(self.signals),
        }


def judge_account(samples: Sequence[PlaySample], cuts: AccountCuts) -> AccountVerdict:
    """Pool the last ``cuts.window`` samples (newest last) and compare with the cuts."""
    window = list(samples)[-cuts.window :] if cuts.window > 0 else []
    seen = _z(sum(s.reveal_total for s in window), sum(s.reveal_variance for s in window))
    chosen = _z(sum(s.choice_total for s in window), sum(s.choice_variance for s in window))
    linked = _z(sum(s.linked_total for s in window), sum(s.linked_variance for s in window))
    weight = sum(s.rhythm_weight for s in window)
    pace = sum(s.demand_r * s.rhythm_weight for s in window) / math.sqrt(weight) if weight else 0.0
    perfect = sum(s.perfect for s in window)
    walks = sum(s.par_share is not None and s.par_share >= cuts.par_share for s in window)
    crossed = [
        ("clairvoyance", seen >= cuts.clairvoyance_z, f"pooled reveal z = {seen:.1f}"),
        (
            "clairvoyance",
            chosen >= cuts.choice_z,
            f"pooled choice-weighted reveal z = {chosen:.1f}",
        ),
        ("linked_accounts", linked >= cuts.linked_z, f"pooled linked-reveal z = {linked:.1f}"),
        (
            "inhuman_speed",
            cuts.indifference_z is not None
            and weight >= cuts.indifference_moves
            and pace < cuts.indifference_z,
            f"think times ignore the position over {weight + len(window)} moves (z = {pace:.1f})",
        ),
        ("too_good", perfect >= cuts.perfect, f"{perfect} perfect plays"),
        ("par_line", walks >= cuts.par_walks, f"{walks} plays walked the par line"),
    ]
    signals = tuple(dict.fromkeys(name for name, hit, _ in crossed if hit))
    if signals:
        reason = f"over its last {len(window)} ranked plays: " + "; ".join(
            what for _, hit, what in crossed if hit
        )
    else:
        reason = (
            f"over its last {len(window)} ranked plays nothing crosses the account's cuts "
            f"(reveal z {seen:.1f}, choice z {chosen:.1f}, linked z {linked:.1f}, "
            f"rhythm z {pace:.1f} over {weight} timed moves, {perfect} perfect, "
            f"{walks} on the par line)"
        )
    return AccountVerdict(
        len(window), seen, chosen, linked, pace, weight, perfect, walks, signals, reason
    )


def per_day(samples: Sequence[PlaySample]) -> list[dict[str, Any]]:
    """Each play's contribution, for the review queue: the evidence day by day."""
    return [
        {
            "day": s.day,
            "play": s.play,
            "reveal_z": round(s.reveal_z, 2),
            "choice_z": round(s.choice_z, 2),
            "linked_z": round(s.linked_z, 2),
            "rhythm_z": round(s.demand_r * math.sqrt(s.rhythm_weight), 2),
            "moves": s.moves,
            "perfect": s.perfect,
            "par_share": None if s.par_share is None else round(s.par_share, 2),
        }
        for s in samples
    ]
