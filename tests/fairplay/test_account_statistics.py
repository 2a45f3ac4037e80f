"""The account's pooled statistics on simulated players (no database): calibrated under
their null (honest accounts' reveal tests, random-sleep bots' rhythm test: mean about 0,
spread about 1), an honest account is never flagged over many days, and a clairvoyant one
is, though none of its plays is on its own."""

from __future__ import annotations

import math
import random
import statistics

from bench import fairplay as bench
from bench.fairplay_players import Chooser, Clock, play
from fairplay.detectors import (
    AccountCuts,
    PlaySample,
    judge_account,
    per_day,
    run_detectors,
    sample_of,
)
from games.engine import get_rules

HONEST = (Chooser(0.4, 0.03, 0.7), Chooser(1.2, 0.10, 0.4), Chooser(0.8, 0.05, 0.5))
HUMAN = (Clock("human", 1.6, 0.5, 0.6, 0.55), Clock("human", 1.0, 0.45, 0.5, 0.65))
EVERYONE = lambda card: True  # noqa: E731


def account(
    preset: str, first: int, days: int, chooser: Chooser, clock: Clock, knows=None
) -> list[PlaySample]:
    """One simulated account: ``days`` ranked plays of ``preset``, one deal a day."""
    rules = get_rules(preset)
    samples = []
    for day in range(days):
        n = first + day
        cards = bench.deck("test-account-statistics", preset, n)
        rng = random.Random(f"{preset}:{n}:{chooser}")
        result = play(rules, cards, chooser, clock, rng, knows or (lambda c: False))
        found = run_detectors(bench.record(preset, cards, result, None))
        assert not any(f.flagged for f in found if knows is not None and f.detector != "too_good")
        samples.append(sample_of(f"{n}", f"day {day}", found))
    return samples


def _pooled(samples: list[PlaySample], part: str) -> float:
    total = sum(getattr(s, f"{part}_total") for s in samples)
    variance = sum(getattr(s, f"{part}_variance") for s in samples)
    return total / math.sqrt(variance) if variance else 0.0


def _honest_accounts() -> list[list[PlaySample]]:
    accounts = []
    for i in range(24):
        preset = ("westcliff", "easthaven")[i % 2]
        chooser, clock = HONEST[i % 3], HUMAN[i % 2]
        accounts.append(account(preset, 8 * i, 8, chooser, clock))
    return accounts


def test_the_pooled_reveal_tests_are_standard_normal_for_honest_accounts() -> None:
    accounts = _honest_accounts()
    for part in ("reveal", "choice"):
        z = [_pooled(samples, part) for samples in accounts]
        assert abs(statistics.fmean(z)) < 0.5, (part, z)
        assert 0.6 < statistics.pstdev(z) < 1.4, (part, z)
    # Not flagged on any day: the account is judged after every play.
    for samples in accounts:
        for day in range(1, len(samples) + 1):
            assert not judge_account(samples[:day], AccountCuts()).flagged, per_day(samples)


def test_the_pooled_rhythm_test_is_standard_normal_for_random_sleeps() -> None:
    sleeps = Clock("sleep", low=0.8, high=6.0)
    z = []
    for i in range(24):
        samples = account("westcliff", 400 + 4 * i, 4, Chooser(0.2, 0.0, 0.0), sleeps)
        assert not any(s.rhythm_weight == 0 for s in samples)
        z.append(judge_account(samples, AccountCuts(indifference_moves=0)).indifference_z)
    assert abs(statistics.fmean(z)) < 0.5, z
    assert 0.6 < statistics.pstdev(z) < 1.4, z


def test_a_clairvoyant_account_is_flagged_across_days_not_on_one() -> None:
    seer = Chooser(0.4, 0.03, 0.7, weight=3.5)
    samples = account("westcliff", 900, 10, seer, HUMAN[0], EVERYONE)
    verdict = judge_account(samples, AccountCuts())
    assert verdict.flagged and "clairvoyance" in verdict.signals, verdict.reason
    assert not judge_account(samples[:1], AccountCuts()).flagged
    days = per_day(samples)
    assert [d["day"] for d in days] == [f"day {i}" for i in range(10)]
