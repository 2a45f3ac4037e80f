"""POST and GET /plays/{id}/moves: moves, deals, undo, resign, sequence, endings."""

from __future__ import annotations

import pytest

from games import engine, services
from games.daily import utc_today
from games.models import Move, Play
from games.signals import play_finished

from .helpers import assert_problem, move, start, win_seahaven

pytestmark = pytest.mark.django_db


@pytest.fixture
def play(client):
    return start(client, preset="easthaven", seed=42).json()


def first_non_deal(play):
    return next(m for m in play["legal_moves"] if m["type"] == "move")


def test_a_legal_move_applies(client, play):
    mv = first_non_deal(play)
    response = move(client, play, mv)
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["seq"] == 1
    assert after["score"]["moves"] == 1
    stored = Play.objects.get(pk=play["id"])
    rules = services.rules_of(stored)
    expected = engine.apply_move(
        engine.new_game(rules, engine.deck_from_seed(42)), engine.Move.from_dict(mv)
    )
    assert {key: after[key] for key in ("tableau", "foundations", "stock")} == {
        key: engine.visible(expected)[key] for key in ("tableau", "foundations", "stock")
    }
    assert client.get(f"/api/v1/plays/{play['id']}").json() == after


def test_count_defaults_to_one(client, play):
    mv = dict(first_non_deal(play))
    assert mv.pop("count") == 1
    assert move(client, play, mv).status_code == 200


def test_move_log_lists_every_row_in_order(client, play):
    mv = first_non_deal(play)
    after = move(client, play, mv).json()
    after = move(client, after, {"type": "deal"}).json()
    move(client, after, {"type": "undo"})
    response = client.get(f"/api/v1/plays/{play['id']}/moves")
    assert response.status_code == 200
    log = response.json()
    assert log["play"] == play["id"]
    assert [row["seq"] for row in log["moves"]] == [0, 1, 2]
    assert [row["move"] for row in log["moves"]] == [mv, {"type": "deal"}, {"type": "undo"}]
    assert log["moves"][0]["text"] == str(engine.Move.from_dict(mv))
    assert all(row["created_at"] for row in log["moves"])
    assert "state_hash" not in log["moves"][0]


def test_stale_sequence_is_409_and_changes_nothing(client, play):
    mv = first_non_deal(play)
    for seq in (1, 5, 10**6):
        problem = assert_problem(move(client, play, mv, seq=seq), 409, "stale_sequence")
        assert problem["seq"] == 0
    assert Play.objects.get(pk=play["id"]).seq == 0
    assert Move.objects.count() == 0


def test_illegal_move_is_422_with_the_rule(client, play):
    # A card onto a column whose top card it does not fit.
    tops = {f"t{i}": col["up"][-1] for i, col in enumerate(play["tableau"])}
    legal = {(m.get("from"), m.get("to")) for m in play["legal_moves"]}
    src, dst = next((a, b) for a in tops for b in tops if a != b and (a, b) not in legal)
    response = move(client, play, {"type": "move", "from": src, "to": dst})
    problem = assert_problem(response, 422, "illegal_move")
    assert problem["rule"]
    assert problem["rule"] in problem["detail"]
    assert Play.objects.get(pk=play["id"]).seq == 0
    assert Move.objects.count() == 0


@pytest.mark.parametrize(
    ("preset", "mv"),
    [
        ("seahaven", {"type": "move", "from": "w", "to": "t0"}),
        ("seahaven", {"type": "deal"}),
        ("easthaven", {"type": "move", "from": "t0", "to": "c0"}),
        ("easthaven", {"type": "move", "from": "t9", "to": "f"}),
        ("easthaven", {"type": "move", "from": "f", "to": "t0"}),
        ("westcliff-classic", {"type": "move", "from": "t8", "to": "t0"}),
        ("easthaven", {"type": "move", "from": "t0", "to": "t0"}),
        ("easthaven", {"type": "move", "from": "t0", "to": "t1", "count": 52}),
    ],
)
def test_moves_on_absent_piles_are_illegal_not_malformed(client, preset, mv):
    play = start(client, preset=preset, seed=3).json()
    assert_problem(move(client, play, mv), 422, "illegal_move")


@pytest.mark.parametrize(
    "body",
    [
        {"seq": 0, "move": {"type": "fly"}},
        {"seq": 0, "move": {"type": "move", "from": "t0"}},
        {"seq": 0, "move": {"type": "move", "from": "x1", "to": "t0"}},
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "t1", "count": 0}},
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "t1", "count": "2"}},
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "t1", "count": True}},
        {"seq": 0, "move": {"type": "deal", "extra": 1}},
        {"seq": 0, "move": "t0-t1"},
        {"seq": 0, "move": None},
    ],
)
def test_a_body_that_is_not_a_move_is_400(client, play, body):
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    assert_problem(response, 400, "invalid_move")


@pytest.mark.parametrize(
    "body",
    [
        {"move": {"type": "deal"}},
        {"seq": "zero", "move": {"type": "deal"}},
        {"seq": -1, "move": {"type": "deal"}},
        {"seq": 0},
        [],
    ],
)
def test_a_badly_shaped_body_is_400(client, play, body):
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    assert_problem(response, 400, "validation_error")


def test_malformed_json_is_400(client, play):
    response = client.post(
        f"/api/v1/plays/{play['id']}/moves", b'{"seq": 0, "move":', content_type="application/json"
    )
    assert_problem(response, 400, "malformed_json")


# --- undo ----------------------------------------------------------------------------------


def test_undo_restores_the_previous_state_and_counts(client, play):
    after = move(client, play, first_non_deal(play)).json()
    undone = move(client, after, {"type": "undo"}).json()
    assert undone["seq"] == 2
    assert undone["score"]["moves"] == 2
    assert undone["score"]["undos"] == 1
    for key in ("tableau", "foundations", "stock", "legal_moves"):
        assert undone[key] == play[key]


def test_practice_undo_can_take_back_a_deal(client, play):
    dealt = move(client, play, {"type": "deal"}).json()
    assert dealt["stock"] == play["stock"] - 7
    undone = move(client, dealt, {"type": "undo"}).json()
    assert undone["tableau"] == play["tableau"]
    assert undone["stock"] == play["stock"]


def test_repeated_undo_walks_back_and_then_has_nothing_to_undo(client, play):
    one = move(client, play, {"type": "deal"}).json()
    two = move(client, one, first_non_deal(one)).json()
    back1 = move(client, two, {"type": "undo"}).json()
    assert back1["tableau"] == one["tableau"]
    back2 = move(client, back1, {"type": "undo"}).json()
    assert back2["tableau"] == play["tableau"]
    assert_problem(move(client, back2, {"type": "undo"}), 422, "nothing_to_undo")
    assert Play.objects.get(pk=play["id"]).seq == 4


def test_undo_on_a_fresh_play_is_nothing_to_undo(client, play):
    assert_problem(move(client, play, {"type": "undo"}), 422, "nothing_to_undo")


def test_ranked_play_cannot_undo_a_deal(client, today_deals):
    play = start(client, preset="easthaven", daily=utc_today().isoformat()).json()
    dealt = move(client, play, {"type": "deal"})
    assert dealt.status_code == 200, dealt.content
    assert_problem(move(client, dealt.json(), {"type": "undo"}), 422, "undo_forbidden")


def test_ranked_play_can_undo_a_move_that_reveals_nothing(client, today_deals):
    play = start(client, preset="seahaven", daily=utc_today().isoformat()).json()
    mv = next(m for m in play["legal_moves"] if m["type"] == "move")
    after = move(client, play, mv).json()
    undone = move(client, after, {"type": "undo"})
    assert undone.status_code == 200
    assert undone.json()["tableau"] == play["tableau"]


def test_ranked_play_cannot_undo_a_move_that_turned_a_card(client, player, today_deals):
    """Find, by replaying candidate moves in the engine, one that turns a face-down card."""
    body = start(client, preset="easthaven-open", daily=utc_today().isoformat()).json()
    stored = Play.objects.get(pk=body["id"])
    rules = services.rules_of(stored)
    state = engine.state_from_json(rules, stored.state)
    # Move a whole column's face-up cards: the card below turns face up.
    for _ in range(40):
        revealing = [
            m
            for m in engine.legal_moves(state)
            if engine.reveals_hidden(state, m) and m.type == "move"
        ]
        if revealing:
            mv = revealing[0]
            break
        mv = engine.legal_moves(state)[0]
        response = move(client, body, mv.to_dict())
        assert response.status_code == 200
        body = response.json()
        state = engine.apply_move(state, mv)
    else:
        pytest.skip("no revealing move found in this deal")
    after = move(client, body, mv.to_dict())
    assert after.status_code == 200
    assert_problem(move(client, after.json(), {"type": "undo"}), 422, "undo_forbidden")


# --- endings -------------------------------------------------------------------------------


def test_resign_finishes_the_play(client, play, django_capture_on_commit_callbacks):
    received = []

    def receiver(sender, play, **kwargs):
        received.append((sender, str(play.pk), play.status))

    play_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = move(client, play, {"type": "resign"})
    finally:
        play_finished.disconnect(receiver)
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "resigned"
    assert body["finished_at"]
    assert body["score"]["seconds"] is not None
    assert body["legal_moves"] == []
    assert received == [(Play, play["id"], "resigned")]


def test_moves_on_a_finished_play_are_409(client, play):
    done = move(client, play, {"type": "resign"}).json()
    assert_problem(move(client, done, {"type": "deal"}), 409, "play_finished")
    assert_problem(move(client, done, {"type": "undo"}), 409, "play_finished")
    assert_problem(move(client, done, {"type": "resign"}), 409, "play_finished")


def test_winning_ends_the_play_with_a_score(
    client, seahaven_win_deck, django_capture_on_commit_callbacks
):
    play = start(client, preset="seahaven", deck=seahaven_win_deck).json()
    received = []

    def receiver(sender, play, **kwargs):
        received.append(play.status)

    play_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            responses = list(win_seahaven(client, play))
    finally:
        play_finished.disconnect(receiver)
    final = responses[-1].json()
    assert final["status"] == "won"
    assert final["seq"] == 52
    assert final["finished_at"]
    assert final["score"]["foundation_cards"] == 52
    assert final["score"]["moves"] == 52
    assert final["score"]["undos"] == 0
    assert final["score"]["seconds"] >= 0
    assert final["legal_moves"] == []
    assert all(r.json()["status"] == "playing" for r in responses[:-1])
    assert received == ["won"]
    assert_problem(move(client, final, {"type": "undo"}), 409, "play_finished")


def test_play_finished_waits_for_the_commit(client, play, django_capture_on_commit_callbacks):
    received = []

    def receiver(sender, play, **kwargs):
        received.append(play.status)

    play_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=False) as callbacks:
            move(client, play, {"type": "resign"})
        assert received == []
        for callback in callbacks:
            callback()
        assert received == ["resigned"]
    finally:
        play_finished.disconnect(receiver)
