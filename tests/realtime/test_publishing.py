"""What each channel is told: nothing a viewer may not see (docs/live.md, "What a stream
never says"). In-process: the receivers publish to the test Redis, read back with XRANGE."""

from __future__ import annotations

import json

import pytest

from config.redis_guard import client
from games.daily import utc_today
from leaderboard import groups, moderation
from leaderboard.models import Score
from realtime import channels
from realtime.receivers import on_score_recorded
from tests.factories import client_for, make_user, store_daily

pytestmark = [pytest.mark.postgres, pytest.mark.redis]

SECRETS = ('"deck"', '"cards"', '"tableau"', '"stock"', '"cells"', '"solution"', '"hidden"')


def _events(channel: str) -> list[tuple[str, dict]]:
    return [
        (fields[b"event"].decode(), json.loads(fields[b"data"]))
        for _, fields in client().xrange(channel)
    ]


def _resign_daily(user) -> str:
    api = client_for(user)
    play = api.post("/api/v1/plays", {"preset": "easthaven", "daily": utc_today().isoformat()})
    play = play.json()
    api.post(f"/api/v1/plays/{play['id']}/moves", {"seq": play["seq"], "move": {"type": "resign"}})
    return play["id"]


@pytest.fixture
def world(db, settings):
    # A board Redis lacks is rebuilt before the read that found it missing (no thread).
    settings.LEADERBOARD_REBUILD_INLINE = True
    store_daily(utc_today(), seed_base=4400)
    honest, cheat, friend = make_user("honest"), make_user("cheat"), make_user("friend")
    group = groups.create_group(friend, "g")
    groups.join_group(honest, group.code)
    groups.join_group(cheat, group.code)
    client().delete(*[channels.group(group.pk), channels.player(honest.pk),
                      channels.player(cheat.pk), channels.board("easthaven", utc_today())])
    return honest, cheat, group


def test_a_visible_finish_goes_to_its_board_group_and_owner(
    world, django_capture_on_commit_callbacks
):
    honest, _, group = world
    with django_capture_on_commit_callbacks(execute=True):
        _resign_daily(honest)
    [(kind, board)] = _events(channels.board("easthaven", utc_today()))
    assert kind == "board" and board["changed"] == {"username": "honest", "rank": 1}
    [(kind, finish)] = _events(channels.group(group.pk))
    assert kind == "finish" and finish["username"] == "honest"
    [(kind, own)] = _events(channels.player(honest.pk))
    assert kind == "score"
    for text in map(json.dumps, (board, finish, own)):
        assert not any(secret in text for secret in SECRETS)


def test_a_hidden_score_reaches_its_owner_only(world, django_capture_on_commit_callbacks):
    honest, cheat, group = world
    play_id = _resign_daily(cheat)  # the commit hooks are held back: hide it first
    moderation.hide_play(play_id)
    on_score_recorded(Score, Score.objects.get(play_id=play_id))
    assert _events(channels.board("easthaven", utc_today())) == []
    assert _events(channels.group(group.pk)) == []
    assert [kind for kind, _ in _events(channels.player(cheat.pk))] == ["score"]


def test_a_fair_play_decision_refreshes_the_board_and_tells_nobody(
    world, django_capture_on_commit_callbacks
):
    honest, cheat, group = world
    with django_capture_on_commit_callbacks(execute=True):
        _resign_daily(honest)
        cheat_play = _resign_daily(cheat)
    board = channels.board("easthaven", utc_today())
    assert {row["username"] for row in _events(board)[-1][1]["top"]} == {"honest", "cheat"}
    before = len(_events(channels.player(cheat.pk)))
    with django_capture_on_commit_callbacks(execute=True):
        moderation.hide_play(cheat_play)
    kind, latest = _events(board)[-1]
    assert kind == "board" and latest["changed"] is None
    assert [row["username"] for row in latest["top"]] == ["honest"]
    assert len(_events(channels.player(cheat.pk))) == before  # shadow hiding: no word
