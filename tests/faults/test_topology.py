"""docker-compose's topology, scaled: two web servers and two Celery workers on one
PostgreSQL and one Redis, started with the compose file's own commands.

Fifty players finish today's six dailies at once, spreading their requests over both web
servers; midway one web server and one Celery worker are killed (SIGKILL, the whole
process group). The workers run the leaderboard's ``catch_up`` task every second (beat runs
it every minute). Afterwards every finished ranked play is scored exactly once, the Redis
boards equal PostgreSQL's, no answer was a 5xx and no acknowledged move is missing.
"""

from __future__ import annotations

import threading
import time

import pytest
import yaml
from celery import Celery

from games import engine
from games.daily import utc_today

from .players import (
    Player,
    Tally,
    catch_up_until_boards_equal,
    lost_writes,
    scoring_problems,
)
from .servers import ROOT, Gunicorn, Server, database_url, server_env, wait_until

pytestmark = [pytest.mark.faults, pytest.mark.topology, pytest.mark.postgres, pytest.mark.redis]

PLAYERS = 50


def compose_commands() -> dict[str, list[str]]:
    services_ = yaml.safe_load((ROOT / "docker-compose.yml").read_text())["services"]
    return {name: services_[name]["command"] for name in ("web", "worker")}


def test_two_web_servers_and_two_workers_lose_nothing(
    transactional_db, own_redis, today_deals, make_users
):
    commands = compose_commands()
    users = make_users(PLAYERS, prefix="topo")
    env = server_env(own_redis.url, database_url("haven-faults-web"))
    worker_env = {**env, "DATABASE_URL": database_url("haven-faults-worker")}
    workers = [Server(commands["worker"], worker_env, f"worker{i}") for i in range(2)]
    webs: list[Gunicorn] = []
    celery = Celery(broker=own_redis.url, backend=own_redis.url)
    try:
        webs = [Gunicorn(env, commands["web"]) for _ in range(2)]
        wait_until(lambda: len(celery.control.ping(timeout=1.0)) >= 1, 60, step=0.5, what="workers")
        tally = Tally(f"topology: {PLAYERS} players, a web server and a Celery worker killed")
        players = [Player([w.base for w in webs], user, tally) for user in users]
        today = utc_today().isoformat()
        errors: list[str] = []
        finished_count = [0]

        def life(player: Player) -> None:
            try:
                for preset in engine.PRESETS:
                    play = player.some_moves(player.start(preset=preset, daily=today), 1)
                    player.resign(play)
                    finished_count[0] += 1
            except Exception as error:
                errors.append(f"{player.user.username}: {error!r}")

        threads = [threading.Thread(target=life, args=(p,), daemon=True) for p in players]
        for thread in threads:
            thread.start()
        half = PLAYERS * len(engine.PRESETS) // 3
        killed = False
        deadline = time.monotonic() + 150
        while any(t.is_alive() for t in threads) and time.monotonic() < deadline:
            celery.send_task("leaderboard.tasks.catch_up")
            if not killed and finished_count[0] >= half:
                webs[0].kill()
                workers[0].kill()
                killed = True
            time.sleep(1.0)
        for thread in threads:
            thread.join(5)
        assert not any(t.is_alive() for t in threads), "players still playing after 150 s"
        assert killed
        assert not errors, errors[:5]

        # The surviving worker catches up: the every-minute beat task, sent until the boards
        # agree (a board whose rebuild died with the killed web server waits for its lock).
        catch_up_until_boards_equal(
            own_redis.client(),
            lambda: celery.send_task("leaderboard.tasks.catch_up").get(timeout=60),
        )
        lost = lost_writes(players)
        tally.writes_lost = len(lost)
        finished = [play_id for p in players for play_id in p.finished_ranked]
        scoring = scoring_problems(finished)
        tally.report(ranked_finished=len(finished))
        assert len(finished) == PLAYERS * len(engine.PRESETS)
        assert not lost, lost[:5]
        assert not scoring, scoring[:5]
        tally.assert_clean()
    finally:
        for server in [*webs, *workers]:
            server.stop()
        celery.close()
