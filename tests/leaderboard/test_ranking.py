"""The ranking keys and the points rule, on hand-made results (no database)."""

from __future__ import annotations

import datetime as dt

import pytest
from hypothesis import given
from hypothesis import strategies as st

from leaderboard import ranking
from leaderboard.profiles import streaks
from leaderboard.ranking import DailyResult

DAY = dt.date(2026, 11, 29)


def res(won=False, cards=0, moves=100, seconds=300.0, hours=12.0, day=DAY):
    finished = dt.datetime.combine(day, dt.time.min, tzinfo=dt.UTC) + dt.timedelta(hours=hours)
    return DailyResult(won, 52 if won else cards, moves, seconds, finished, day)


def key(**kw):
    return ranking.daily_key(res(**kw))


# Each pair: (better, worse), differing in exactly the field the rule looks at next.
TIE_CASES = {
    "won beats not won, even with far more moves and time": (
        dict(won=True, moves=5000, seconds=9000.0, hours=23),
        dict(won=False, cards=51, moves=60, seconds=10.0, hours=1),
    ),
    "winners: fewer moves": (
        dict(won=True, moves=90, seconds=900.0, hours=20),
        dict(won=True, moves=91, seconds=100.0, hours=1),
    ),
    "winners: same moves, less time": (
        dict(won=True, moves=90, seconds=100.0, hours=20),
        dict(won=True, moves=90, seconds=100.01, hours=1),
    ),
    "winners: same moves and time, earlier finish": (
        dict(won=True, moves=90, seconds=100.0, hours=1),
        dict(won=True, moves=90, seconds=100.0, hours=1.001),
    ),
    "rest: more foundation cards": (
        dict(cards=30, moves=500, hours=20),
        dict(cards=29, moves=10, hours=1),
    ),
    "rest: same cards, fewer moves (time does not count)": (
        dict(cards=30, moves=99, seconds=5000.0, hours=20),
        dict(cards=30, moves=100, seconds=10.0, hours=1),
    ),
    "rest: same cards and moves, earlier finish (to the millisecond)": (
        dict(cards=30, moves=99, seconds=5000.0, hours=1),
        dict(cards=30, moves=99, seconds=10.0, hours=1 + 0.002 / 3600),
    ),
    "rest: a resignation with no card is last": (
        dict(cards=1, moves=400, hours=23),
        dict(cards=0, moves=0, hours=0),
    ),
}


@pytest.mark.parametrize("case", TIE_CASES, ids=list(TIE_CASES))
def test_each_rule_orders_the_pair(case):
    better, worse = TIE_CASES[case]
    assert key(**better) < key(**worse)


def test_equal_results_have_equal_keys():
    assert key(won=True, moves=90, seconds=100.0) == key(won=True, moves=90, seconds=100.0)


def test_keys_stay_below_2_to_the_53():
    extremes = [
        key(won=False, cards=0, moves=10**9, seconds=1e9, hours=24 * 400),
        key(won=True, moves=10**9, seconds=1e9, hours=24 * 400),
        key(won=True, moves=0, seconds=0.0, hours=0),
    ]
    assert all(0 <= k < 2**53 for k in extremes)
    assert float(max(extremes)) == max(extremes)  # exact as a Redis (double) score


def test_saturated_fields_fall_through_to_the_next_rule():
    # 20 000 and 30 000 moves both saturate: time decides.
    assert key(won=True, moves=20_000, seconds=10.0) < key(won=True, moves=30_000, seconds=11.0)


def test_a_finish_before_the_boards_midnight_counts_as_midnight():
    assert key(won=True, moves=90, seconds=1.0, hours=-1) == key(
        won=True, moves=90, seconds=1.0, hours=0
    )


results = st.builds(
    lambda won, cards, moves, centis, ms: res(
        won=won, cards=cards, moves=moves, seconds=centis / 100, hours=ms / 3_600_000
    ),
    st.booleans(),
    st.integers(0, 51),
    st.integers(0, 3000),
    st.integers(0, 360_000),
    st.integers(0, 48 * 3_600_000),
)


def reference_order(r: DailyResult) -> tuple:
    """The documented order (with its documented saturation), independent of the bit layout."""
    offset = (
        r.finished_at - dt.datetime.combine(r.day, dt.time.min, tzinfo=dt.UTC)
    ).total_seconds()
    if r.won:
        return (0, r.moves, round(r.seconds * 100), min(int(offset), 65535))
    return (1, -r.foundation_cards, r.moves, int(offset * 1000))


@given(results, results)
def test_key_order_is_the_documented_order(a, b):
    ra, rb = reference_order(a), reference_order(b)
    ka, kb = ranking.daily_key(a), ranking.daily_key(b)
    if ra < rb:
        assert ka < kb
    elif ra > rb:
        assert ka > kb


@given(results, results)
def test_points_never_rank_a_worse_result_above_a_better_one(a, b):
    if ranking.daily_key(a) < ranking.daily_key(b):
        assert ranking.points(a.won, a.foundation_cards) >= ranking.points(
            b.won, b.foundation_cards
        )


def test_points_rule():
    assert ranking.points(True, 52) == 100
    assert ranking.points(False, 51) == 51
    assert ranking.points(False, 0) == 0


@given(
    st.integers(0, 5000),
    st.integers(0, 500_000),
    st.integers(0, 5000),
    st.integers(0, 5000),
    st.integers(0, 500_000),
    st.integers(0, 5000),
)
def test_aggregate_key_orders_wins_then_points_then_plays(w1, p1, n1, w2, p2, n2):
    k1, k2 = ranking.aggregate_key(w1, p1, n1), ranking.aggregate_key(w2, p2, n2)
    assert 0 <= k1 < 2**53
    expected = (-w1, -p1, -n1) < (-w2, -p2, -n2)
    if (w1, p1, n1) != (w2, p2, n2):
        assert (k1 < k2) == expected
    else:
        assert k1 == k2


def test_iso_weeks():
    assert ranking.iso_week(dt.date(2026, 11, 29)) == "2026-W48"
    assert ranking.iso_week(dt.date(2027, 1, 1)) == "2026-W53"
    assert ranking.parse_iso_week("2026-W48") == (dt.date(2026, 11, 23), dt.date(2026, 11, 29))
    for bad in ["2026-48", "2026-W99", "2026-W00", "26-W48", "2026-Wxx", "2026-W4", ""]:
        with pytest.raises(ValueError):
            ranking.parse_iso_week(bad)


def d(n: int) -> dt.date:
    return DAY + dt.timedelta(days=n)


@pytest.mark.parametrize(
    ("won", "today", "expected"),
    [
        ([], d(0), (0, 0)),
        ([d(0)], d(0), (1, 1)),
        ([d(-1)], d(0), (1, 1)),  # yesterday's win keeps the streak alive today
        ([d(-2)], d(0), (0, 1)),  # a day without a win breaks it
        ([d(-3), d(-2), d(-1)], d(0), (3, 3)),
        ([d(-3), d(-2), d(-1), d(0)], d(0), (4, 4)),
        ([d(-9), d(-8), d(-7), d(-6), d(-1), d(0)], d(0), (2, 4)),
        ([d(0), d(0), d(-1)], d(0), (2, 2)),  # two presets won the same day count once
        ([d(1)], d(0), (0, 1)),  # nothing after today counts as current
    ],
)
def test_streaks(won, today, expected):
    assert streaks(won, today) == expected
