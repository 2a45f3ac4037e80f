"""Reading boards from PostgreSQL and Redis: the documented order on hand-made results,
identical pages on both paths, ``around`` at the edges, groups, frozen days and a flushed
Redis. Recording scores and totals: test_scores.py."""

from __future__ import annotations

import datetime as dt
import random
import uuid
from dataclasses import dataclass

import pytest
from django.utils import timezone

from games.daily import utc_today
from leaderboard import boards, freezing, groups, store
from leaderboard.models import FrozenDay, Score
from leaderboard.refs import BoardRef
from tests.factories import make_user

from .helpers import DAY, at, record, via_redis

BOARD = BoardRef.daily("easthaven", DAY)

# The documented order, best first; each entry differs from the one before in the rule
# that decides between them (the last two only by play id).
ORDERED = [
    ("w-fewest-moves", dict(won=True, moves=80, seconds=500.0, finished_at=at(DAY, 20))),
    ("w-less-time", dict(won=True, moves=81, seconds=100.0, finished_at=at(DAY, 20))),
    ("w-more-time", dict(won=True, moves=81, seconds=100.5, finished_at=at(DAY, 9))),
    ("w-earlier-finish", dict(won=True, moves=82, seconds=100.0, finished_at=at(DAY, 9))),
    ("w-later-finish", dict(won=True, moves=82, seconds=100.0, finished_at=at(DAY, 10))),
    (
        "w-tie-id-1",
        dict(won=True, moves=83, seconds=50.0, finished_at=at(DAY, 11), play_id=uuid.UUID(int=1)),
    ),
    (
        "w-tie-id-2",
        dict(won=True, moves=83, seconds=50.0, finished_at=at(DAY, 11), play_id=uuid.UUID(int=2)),
    ),
    ("l-most-cards", dict(cards=51, moves=900, finished_at=at(DAY, 23))),
    ("l-fewer-moves", dict(cards=40, moves=70, finished_at=at(DAY, 23))),
    ("l-earlier", dict(cards=40, moves=71, seconds=999.0, finished_at=at(DAY, 5))),
    ("l-later", dict(cards=40, moves=71, seconds=1.0, finished_at=at(DAY, 6))),
    ("l-tie-id-a", dict(cards=10, moves=5, finished_at=at(DAY, 7), play_id=uuid.UUID(int=0xA))),
    ("l-tie-id-b", dict(cards=10, moves=5, finished_at=at(DAY, 7), play_id=uuid.UUID(int=0xB))),
    ("resigned", dict(cards=0, moves=0, status="resigned", finished_at=at(DAY, 0.1))),
]


def record_all(items, capture):
    shuffled = list(items)
    random.Random(4).shuffle(shuffled)
    with capture(execute=True):
        for name, figures in shuffled:
            record(make_user(name), **figures)


@dataclass
class Walk:
    pages: tuple[list, list]  # every page forward, then every page backward
    sources: set[str]

    @property
    def source(self) -> str:
        return "redis" if self.sources == {"redis"} else "postgres"


def walk(ref, size, **kw) -> Walk:
    """Every page forward, then every page backward, as (rank, username) lists."""
    pages, sources = [], set()
    result = boards.read(ref, "first", size, **kw)
    while True:
        pages.append([(e["rank"], e["username"]) for e in result.entries])
        sources.add(result.source)
        if not result.has_more_after:
            break
        result = boards.read(ref, "after", size, *result.last, **kw)
    back = []
    while result.has_more_before:
        result = boards.read(ref, "before", size, *result.first, **kw)
        back.append([(e["rank"], e["username"]) for e in result.entries])
        sources.add(result.source)
    return Walk((pages, back), sources)


def flat(pages):
    return [name for page in pages for _, name in page]


@pytest.mark.django_db
def test_postgres_order_is_the_documented_order(django_capture_on_commit_callbacks, no_redis):
    record_all(ORDERED, django_capture_on_commit_callbacks)
    result = walk(BOARD, 4)
    pages, back = result.pages
    assert result.sources == {"postgres"}
    assert flat(pages) == [name for name, _ in ORDERED]
    assert [r for page in pages for r, _ in page] == list(range(1, len(ORDERED) + 1))
    assert back == pages[-2::-1]  # previous links give the same pages back


@pytest.mark.django_db
@pytest.mark.postgres
@pytest.mark.redis
def test_redis_and_postgres_give_identical_pages(django_capture_on_commit_callbacks, settings):
    rng = random.Random(11)
    items = list(ORDERED)
    for i in range(40):
        won = rng.random() < 0.4
        items.append(
            (
                f"r{i}",
                dict(
                    won=won,
                    cards=rng.randint(0, 51),
                    moves=rng.choice([60, 61, 62, 100]),
                    seconds=rng.choice([30.0, 31.0]),
                    finished_at=at(DAY, rng.choice([1, 2])),
                ),
            )
        )
    record_all(items, django_capture_on_commit_callbacks)
    url = settings.REDIS_URL
    for size in (1, 3, 7, 100):
        via_pg = _walk_without_redis(settings, size)
        assert via_pg.source == "postgres"
        assert via_redis(lambda size=size: walk(BOARD, size)).pages == via_pg.pages
    order = list(Score.objects.filter(board="easthaven").order_by("sort_key", "play_id"))
    assert flat(walk(BOARD, 100).pages[0]) == [s.player.username for s in order]
    for player_id in [s.player_id for s in order]:
        redis_around = via_redis(lambda p=player_id: boards.read(BOARD, "around", 3, me=p))
        settings.REDIS_URL = ""
        pg_around = boards.read(BOARD, "around", 3, me=player_id)
        settings.REDIS_URL = url
        assert redis_around.entries == pg_around.entries
        assert redis_around.has_more_after == pg_around.has_more_after
        assert redis_around.has_more_before == pg_around.has_more_before


def _around_cases(django_capture_on_commit_callbacks):
    players = []
    with django_capture_on_commit_callbacks(execute=True):
        for i in range(11):
            player = make_user(f"a{i:02d}")
            record(player, won=True, moves=60 + i)
            players.append(player)
    return players


def _walk_without_redis(settings, size):
    url = settings.REDIS_URL
    settings.REDIS_URL = ""
    try:
        return walk(BOARD, size)
    finally:
        settings.REDIS_URL = url


@pytest.mark.django_db
@pytest.mark.parametrize("path", [pytest.param("redis", marks=pytest.mark.redis), "postgres"])
def test_around_me_at_top_middle_and_bottom(django_capture_on_commit_callbacks, settings, path):
    if path == "postgres":
        settings.REDIS_URL = ""
    players = _around_cases(django_capture_on_commit_callbacks)
    for index, expected in [(0, [1, 2, 3]), (5, [4, 5, 6, 7, 8]), (10, [9, 10, 11])]:

        def read(index=index):
            return boards.read(BOARD, "around", 2, me=players[index].pk)

        result = via_redis(read) if path == "redis" else read()
        assert result.source == path
        assert [e["rank"] for e in result.entries] == expected
        assert [e["username"] for e in result.entries] == [f"a{r - 1:02d}" for r in expected]
        assert result.has_more_before == (expected[0] > 1)
        assert result.has_more_after == (expected[-1] < 11)
    stranger = make_user()
    assert boards.read(BOARD, "around", 2, me=stranger.pk).start == -1


@pytest.mark.django_db
def test_group_boards_rank_only_members(django_capture_on_commit_callbacks):
    players = _around_cases(django_capture_on_commit_callbacks)
    group = groups.create_group(players[7], "friends")
    for p in (players[2], players[9]):
        groups.join_group(p, group.code)
    members = groups.member_ids(group)
    result = boards.read(BOARD, "first", 10, players=members)
    assert result.source == "postgres"
    assert [(e["rank"], e["username"]) for e in result.entries] == [
        (1, "a02"),
        (2, "a07"),
        (3, "a09"),
    ]
    around = boards.read(BOARD, "around", 1, me=players[9].pk, players=members)
    assert [(e["rank"], e["username"]) for e in around.entries] == [(2, "a07"), (3, "a09")]


@pytest.mark.django_db
@pytest.mark.redis
def test_redis_flushed_mid_test_loses_no_score(django_capture_on_commit_callbacks):
    def names():
        return [e["username"] for e in boards.read(BOARD, "first", 50).entries]

    with django_capture_on_commit_callbacks(execute=True):
        for i in range(3):
            record(make_user(f"f{i}"), won=True, moves=70 + i)
    via_redis(lambda: boards.read(BOARD, "first", 50))
    store.delete_all()  # Redis emptied (a FLUSHDB of the leaderboard keys)
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user("f3"), won=True, moves=60)  # arrives while the board is gone
        record(make_user("f4"), cards=12)
    store.delete_all()
    first = boards.read(BOARD, "first", 50)
    assert first.source == "postgres"  # answered from PostgreSQL, and rebuilt meanwhile
    assert [e["username"] for e in first.entries] == ["f3", "f0", "f1", "f2", "f4"]
    again = via_redis(lambda: boards.read(BOARD, "first", 50))
    assert [e["username"] for e in again.entries] == names() == ["f3", "f0", "f1", "f2", "f4"]
    for ref in (BoardRef.weekly("easthaven", "2026-W48"), BoardRef.all_time("easthaven")):
        totals = via_redis(lambda ref=ref: boards.read(ref, "first", 50))
        assert [e["username"] for e in totals.entries] == ["f0", "f1", "f2", "f3", "f4"]


@pytest.mark.django_db
def test_redis_down_answers_from_postgres(django_capture_on_commit_callbacks, settings):
    settings.REDIS_URL = "redis://127.0.0.1:1/15"  # nothing listens there
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user("d0"), won=True, moves=70)
        record(make_user("d1"), won=True, moves=65)
    result = boards.read(BOARD, "first", 50)
    assert result.source == "postgres"
    assert [e["username"] for e in result.entries] == ["d1", "d0"]


@pytest.mark.django_db
@pytest.mark.redis
def test_redis_keeps_only_live_boards(django_capture_on_commit_callbacks):
    today = utc_today()
    live = BoardRef.daily("easthaven", today)
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user("live"), won=True, day=today, finished_at=timezone.now())
        record(make_user("past"), won=True)  # DAY, a past day
    via_redis(lambda: boards.read(live, "first", 5))
    ttl = store.client().ttl(live.redis_key)
    assert 24 * 3600 <= ttl <= 2 * 24 * 3600  # until two days after today's midnight
    assert store.client().ttl(BoardRef.all_time("easthaven").redis_key) == -1  # never
    # A past day, once frozen, is read from its stored ranks, not from Redis.
    freezing.ensure_frozen(BOARD, today)
    result = boards.read(BOARD, "first", 5)
    assert result.source == "postgres"
    assert [e["username"] for e in result.entries] == ["past"]
    # Probing boards nobody played creates no key.
    empty = BoardRef.daily("westcliff", dt.date(2001, 1, 1))
    assert boards.read(empty, "first", 5).entries == []
    assert not store.exists(empty.redis_key)


@pytest.mark.django_db
def test_freezing_stores_ranks_and_late_results_refreeze(django_capture_on_commit_callbacks):
    record_all(ORDERED[:5], django_capture_on_commit_callbacks)
    freezing.ensure_frozen(BOARD, DAY + dt.timedelta(days=1))
    assert FrozenDay.objects.get(board="easthaven", date=DAY).entries == 5
    ranks = dict(Score.objects.values_list("player__username", "rank"))
    assert ranks == {name: i + 1 for i, (name, _) in enumerate(ORDERED[:5])}
    # A play started before midnight and ended after it: the day is frozen again.
    with django_capture_on_commit_callbacks(execute=True):
        record(make_user("late"), won=True, moves=1, finished_at=at(DAY, 24.5))
    ranks = dict(Score.objects.values_list("player__username", "rank"))
    assert ranks["late"] == 1
    assert ranks[ORDERED[4][0]] == 6
    pages = walk(BOARD, 2).pages[0]
    assert flat(pages)[0] == "late"
    assert [r for page in pages for r, _ in page] == list(range(1, 7))
