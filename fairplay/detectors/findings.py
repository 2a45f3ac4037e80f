"""The four detectors run on one record, each turned into a :class:`Finding`."""

from __future__ import annotations

import statistics
from collections.abc import Mapping

from .choice import choice_test
from .clairvoyance import RevealTest, describe, reveal_test
from .linked import linked_reason, linked_score, linked_test
from .par_line import par_follow
from .records import Finding, PastPlay, PlayRecord, Thresholds
from .replay import Replay, replay_record
from .rhythm import rhythm
from .too_good import is_perfect, too_good


def findings(record: PlayRecord, thresholds: Thresholds) -> list[Finding]:
    played = replay_record(
        record.preset, record.options, record.deck, record.moves, record.move_seconds
    )
    steps = played.steps
    broken = (
        f" (the log stops replaying at row {played.broken_at})"
        if played.broken_at is not None
        else ""
    )
    hidden = any(played.start.down)

    seen = reveal_test(steps)
    chosen = choice_test(steps)  # pooled across days only (the account's judgement)
    follow = par_follow(played.start, steps, record.par_line)
    linked = linked_test(steps, record.linked_reveals)
    if hidden:
        seen_reason = describe(seen, "face-down cards") + "; " + follow.describe()
        seen_score = max(seen.score, follow.score)
    else:  # nothing hidden to know; walking the solver's line is still not human play
        seen_reason = (
            f"{record.preset} deals every card face up: no hidden card to know; "
            + follow.describe()
        )
        seen_score = follow.score
    pace = rhythm(steps)
    mine = this_play(record, played)
    good = too_good(mine, record.history)
    return [
        _finding(
            "clairvoyance",
            seen_score,
            thresholds.clairvoyance,
            seen_reason + broken,
            {
                **_test_details(seen),
                "par_line_share": round(follow.share, 3),
                "choice_z": round(chosen.z, 2),
                "choice_total": chosen.total,
                "choice_variance": chosen.variance,
            },
        ),
        _finding(
            "linked_accounts",
            linked_score(linked, follow, len(record.linked_reveals)),
            thresholds.linked_accounts,
            linked_reason(linked, follow, len(record.linked_reveals)) + broken,
            {**_test_details(linked), "linked_cards": len(record.linked_reveals)},
        ),
        _finding(
            "inhuman_speed",
            pace.score,
            thresholds.inhuman_speed,
            pace.reason + broken,
            {
                "moves": pace.moves,
                "median_seconds": round(pace.median, 3),
                "burst_share": round(pace.burst_share, 3),
                "cv": round(pace.cv, 3),
                "demand_correlation": round(pace.demand_r, 3),
                "demand_r": pace.demand_r,  # unrounded, for the account's pooled test
                "demand_z": round(pace.demand_z, 2),
            },
        ),
        _finding(
            "too_good",
            good.score,
            thresholds.too_good,
            good.reason,
            {
                "perfect_plays": good.perfect,
                "plays_considered": good.considered,
                "perfect": is_perfect(mine),
                "par_line_share": follow.share if follow.positions else None,
            },
        ),
    ]


def this_play(record: PlayRecord, played: Replay) -> PastPlay:
    """The finished play as the across-days detector sees past ones: its moves counted as
    the score counts them (undos included)."""
    times = [step.seconds for step in played.steps]
    return PastPlay(
        preset=record.preset,
        won=record.outcome == "won",
        moves=len(played.steps) + played.undos,
        par=record.par,
        undos=played.undos,
        first_attempt=True,  # one ranked play per player, preset and day (API.md)
        median_move_seconds=statistics.median(times) if times else None,
    )


def _test_details(test: RevealTest) -> dict[str, float]:
    return {
        "events": test.events,
        "z": round(test.z, 2),
        "best_share": round(test.best_share, 3),
        # The z-score's parts, unrounded: the account's judgement pools them across plays.
        "total": test.total,
        "variance": test.variance,
    }


def _finding(
    name: str, score: float, threshold: float, reason: str, details: Mapping[str, object]
) -> Finding:
    score = min(1.0, max(0.0, score))
    return Finding(name, round(score, 4), score >= threshold, reason, details)
