"""Redis killed, hung (SIGSTOP) or flushed while players play through gunicorn.

Each test has a Redis of its own. Players start their three dailies, finish one, then the
fault strikes and they finish the other two and play practice games through it; Redis
comes back. Nothing may answer 5xx, every acknowledged move must be in a contiguous log,
every finished ranked play is scored once, and once Redis is back its boards equal
PostgreSQL's (the outbox replay when the breaker closes). While Redis is hung no request
may wait on it for long (short timeouts, circuit breaker).
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

import pytest

from games import engine
from games.daily import utc_today

from .players import Player, Tally, lost_writes, scoring_problems, wait_boards_equal
from .servers import RedisServer, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis]

PLAYERS = 6
# A request pays at most one short Redis timeout, and only one per worker and cool-down
# (the breaker); before, every move waited 5 s on a hung Redis. The median move stays far
# below that even on a loaded machine, where a single move may stall for other reasons.
MEDIAN_MOVE_SECONDS_WHILE_HUNG = 1.0


def play_through_fault(
    name: str,
    web,
    redis_server: RedisServer,
    users,
    fault: Callable[[], None],
    recover: Callable[[], None],
    redis_down: bool = True,
) -> tuple[Tally, list[Player]]:
    tally = Tally(name)
    players = [Player([web.base], user, tally) for user in users]
    today = utc_today().isoformat()
    fault_on, stop = threading.Event(), threading.Event()
    errors: list[str] = []

    def life(player: Player, index: int) -> None:
        try:
            dailies = {p: player.start(preset=p, daily=today) for p in engine.PRESETS}
            presets = list(dailies)
            player.resign(player.some_moves(dailies[presets[0]], 2))
            assert fault_on.wait(20)
            for preset in presets[1:]:
                play = player.some_moves(dailies[preset], 3)
                player.read(play)
                player.resign(play)
                player.call("GET", f"/api/v1/leaderboards/{preset}/daily/today", expected=(200,))
            # Far from the daily deals' seeds (today_deals: 4000 + n): a live daily deal is
            # never a practice deal (docs/fair-play-rules.md).
            seed = 100_000 + index * 1000
            while not stop.is_set():
                seed += 1
                play = player.some_moves(player.start(preset="westcliff", seed=seed), 3)
                player.read(play)
                player.resign(play)
        except Exception as error:  # reported below; a thread must not die silently
            errors.append(f"{player.user.username}: {error!r}")

    threads = [
        threading.Thread(target=life, args=(p, i), daemon=True) for i, p in enumerate(players)
    ]
    for thread in threads:
        thread.start()
    time.sleep(1.0)
    fault()
    tally.fault_window = (time.monotonic(), float("inf"))
    fault_on.set()
    time.sleep(1.5)
    health = web.health()
    assert health.status_code == 200, health.text
    if redis_down:
        assert health.json()["status"] == "degraded", health.json()
        assert health.json()["cache"] == "unavailable"
    sign_up_and_log_in(players[0], f"late{abs(hash(name)) % 10_000}")
    time.sleep(0.5)
    tally.fault_window = (tally.fault_window[0], time.monotonic())
    recover()
    time.sleep(1.5)
    stop.set()
    for thread in threads:
        thread.join(60)
    assert not errors, errors
    # A request after the cool-down closes its worker's breaker, which replays the outbox
    # (one worker is enough: the outbox is in PostgreSQL); health reports the cache ok then.
    wait_until(lambda: web.health().json()["cache"] == "ok", 15, step=0.2, what="cache ok")
    return tally, players


def sign_up_and_log_in(player: Player, username: str) -> None:
    """Register and log in (per-address auth throttle) while the fault lasts."""
    credentials = {"username": username, "password": "a long passphrase 42"}
    player.call("POST", "/api/v1/auth/register", credentials, expected=(201,))
    player.call("POST", "/api/v1/auth/token", credentials, expected=(200,))


def check_and_report(tally: Tally, players: list[Player], redis_server: RedisServer) -> None:
    lost = lost_writes(players)
    tally.writes_lost = len(lost)
    finished = [play_id for p in players for play_id in p.finished_ranked]
    assert len(finished) == PLAYERS * len(engine.PRESETS)
    scoring = scoring_problems(finished)
    wait_boards_equal(redis_server.client())
    tally.report(ranked_finished=len(finished))
    assert not lost, lost[:5]
    assert not scoring, scoring[:5]
    tally.assert_clean()


def test_redis_killed_and_restarted_empty(web, own_redis, today_deals, make_users):
    tally, players = play_through_fault(
        "Redis killed (SIGKILL), restarted empty",
        web,
        own_redis,
        make_users(PLAYERS),
        fault=own_redis.kill,
        recover=own_redis.start,
    )
    check_and_report(tally, players, own_redis)


def test_redis_hung_then_resumed(web, own_redis, today_deals, make_users):
    tally, players = play_through_fault(
        "Redis hung (SIGSTOP), resumed",
        web,
        own_redis,
        make_users(PLAYERS),
        fault=own_redis.hang,
        recover=own_redis.resume,
    )
    check_and_report(tally, players, own_redis)
    low, high = tally.fault_window
    during = [took for start, took in tally.move_seconds if low <= start <= high]
    assert len(during) >= 5, during
    median = tally.median_move_seconds(between=tally.fault_window)
    assert median < MEDIAN_MOVE_SECONDS_WHILE_HUNG, sorted(during)


def test_redis_flushed_mid_play(web, own_redis, today_deals, make_users):
    tally, players = play_through_fault(
        "Redis flushed (FLUSHALL)",
        web,
        own_redis,
        make_users(PLAYERS),
        fault=own_redis.flush,
        recover=lambda: None,
        redis_down=False,
    )
    check_and_report(tally, players, own_redis)
