"""A gunicorn worker killed (SIGKILL) mid-burst: the master starts another; the client's
connection drops and it retries with the same ``Idempotency-Key``. Nothing is lost or
applied twice: the killed request's transaction either committed (the retry replays its
stored answer) or never happened."""

from __future__ import annotations

import os
import signal
import threading
import time

import pytest

from games import engine
from games.daily import utc_today
from leaderboard import catchup

from .players import (
    Player,
    Tally,
    catch_up_until_boards_equal,
    lost_writes,
    scoring_problems,
)

pytestmark = [pytest.mark.faults, pytest.mark.postgres, pytest.mark.redis]

PLAYERS = 6
KILLS = 3


def test_gunicorn_worker_killed_mid_burst(web, own_redis, today_deals, make_users, settings):
    tally = Tally(f"gunicorn worker killed (SIGKILL) {KILLS} times mid-burst")
    players = [Player([web.base], user, tally) for user in make_users(PLAYERS)]
    today = utc_today().isoformat()
    errors, killed = [], []

    def life(player: Player) -> None:
        try:
            player.dailies_then_practice(today, "westcliff", 4)
        except Exception as error:
            errors.append(f"{player.user.username}: {error!r}")

    threads = [threading.Thread(target=life, args=(p,), daemon=True) for p in players]
    for thread in threads:
        thread.start()
    for _ in range(KILLS):
        time.sleep(0.7)
        workers = web.workers()
        if workers:
            os.kill(workers[0], signal.SIGKILL)
            killed.append(workers[0])
    for thread in threads:
        thread.join(120)
    assert not errors, errors
    assert len(killed) == KILLS

    # The every-minute catch_up beat task: a worker killed between a play's commit and its
    # score leaves the score to it, and one killed mid-rebuild leaves it the board.
    settings.REDIS_URL = own_redis.url
    catch_up_until_boards_equal(own_redis.client(), catchup.catch_up)
    lost = lost_writes(players)
    tally.writes_lost = len(lost)
    finished = [play_id for p in players for play_id in p.finished_ranked]
    scoring = scoring_problems(finished)
    tally.report(workers_killed=len(killed), ranked_finished=len(finished))
    assert not lost, lost[:5]
    assert not scoring, scoring[:5]
    assert len(finished) == PLAYERS * len(engine.PRESETS)
    tally.assert_clean()
