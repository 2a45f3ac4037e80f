"""POST /plays/{id}/moves with {"seq": n, "moves": [...]}: a batch, all or nothing."""

from __future__ import annotations

import json

import pytest

from config.web.models import IdempotencyKey
from games import engine, services
from games.daily import utc_today
from games.models import Move, Play
from games.moving import MAX_BATCH
from games.signals import play_finished

from .helpers import assert_problem, card_strings, hidden_cards, move, start

pytestmark = pytest.mark.django_db


def send(client, play, moves, seq=None, **extra):
    body = {"seq": play["seq"] if seq is None else seq, "moves": moves}
    return client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json", **extra)


def engine_state(play_id):
    stored = Play.objects.get(pk=play_id)
    return engine.state_from_json(services.rules_of(stored), stored.state)


def plan(play_id, count, *, reveal=True):
    """``count`` legal moves from the play's stored state, found with the engine (tests may
    see the hidden cards; a client may not). ``reveal=False`` avoids revealing moves."""
    state = engine_state(play_id)
    moves = []
    for _ in range(count):
        legal = [
            m for m in engine.legal_moves(state) if reveal or not engine.reveals_hidden(state, m)
        ]
        if not legal:
            break
        home = [m for m in legal if m.dst == "f"]
        mv = (home or legal)[0]
        moves.append(mv.to_dict())
        state = engine.apply_move(state, mv)
    return moves


@pytest.fixture
def play(client):
    return start(client, preset="westcliff", seed=7).json()


def test_a_batch_applies_in_order_like_single_moves(client, other_client, play):
    moves = plan(play["id"], 12)
    assert len(moves) == 12
    batched = send(client, play, moves)
    assert batched.status_code == 200, batched.content
    single = start(other_client, preset="westcliff", seed=7).json()
    for mv in moves:
        single = move(other_client, single, mv).json()
    after = batched.json()
    assert after["seq"] == 12
    for key in ("tableau", "foundations", "stock", "waste", "legal_moves", "score", "status"):
        assert after[key] == single[key], key
    assert client.get(f"/api/v1/plays/{play['id']}").json() == after
    log = client.get(f"/api/v1/plays/{play['id']}/moves").json()["moves"]
    assert [row["seq"] for row in log] == list(range(12))
    assert [row["move"] for row in log] == [engine.Move.from_dict(m).to_dict() for m in moves]
    hashes = list(Move.objects.filter(play_id=play["id"]).values_list("state_hash", flat=True))
    singles = Move.objects.filter(play_id=single["id"]).values_list("state_hash", flat=True)
    assert hashes == list(singles)


def test_an_illegal_move_refuses_the_whole_batch_naming_its_index(client, play):
    moves = plan(play["id"], 3)
    moves.append({"type": "move", "from": "t0", "to": "t0"})
    problem = assert_problem(send(client, play, moves), 422, "illegal_move")
    assert problem["index"] == 3
    assert problem["rule"]
    assert Move.objects.filter(play_id=play["id"]).count() == 0
    assert Play.objects.get(pk=play["id"]).seq == 0
    assert client.get(f"/api/v1/plays/{play['id']}").json() == play


def test_the_refusal_names_no_hidden_card(client, play):
    hidden = hidden_cards(play["id"])
    moves = [{"type": "move", "from": f"t{i}", "to": f"t{(i + 1) % 7}"} for i in range(7)]
    response = send(client, play, moves)
    assert response.status_code == 422, response.content
    assert not card_strings(response.content) & hidden
    assert not {c for c in hidden if c in json.loads(response.content)["detail"]}


def test_a_stale_seq_is_409_and_applies_nothing(client, play):
    first = plan(play["id"], 1)
    after = move(client, play, first[0]).json()
    moves = plan(play["id"], 2)
    problem = assert_problem(send(client, after, moves, seq=0), 409, "stale_sequence")
    assert problem["seq"] == 1
    assert Move.objects.filter(play_id=play["id"]).count() == 1


def test_a_batch_is_idempotent_by_key(client, play):
    moves = plan(play["id"], 5)
    first = send(client, play, moves, HTTP_IDEMPOTENCY_KEY="batch-1")
    again = send(client, play, moves, HTTP_IDEMPOTENCY_KEY="batch-1")
    assert first.status_code == again.status_code == 200
    assert again.json() == first.json()
    assert again["Idempotent-Replayed"] == "true"
    assert Move.objects.filter(play_id=play["id"]).count() == 5
    assert IdempotencyKey.objects.count() == 1
    other = send(client, play, moves[:4], HTTP_IDEMPOTENCY_KEY="batch-1")
    assert_problem(other, 422, "idempotency_key_reused")


@pytest.mark.parametrize(
    "body",
    [
        {"seq": 0, "moves": []},
        {"seq": 0, "moves": [{"type": "deal"}] * (MAX_BATCH + 1)},
        {"seq": 0, "moves": {"type": "deal"}},
        {"seq": -1, "moves": [{"type": "deal"}]},
        {"moves": [{"type": "deal"}]},
        {"seq": 0, "move": {"type": "deal"}, "moves": [{"type": "deal"}]},
    ],
)
def test_malformed_batches_are_400(client, play, body):
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    assert_problem(response, 400, "validation_error")
    assert Move.objects.filter(play_id=play["id"]).count() == 0


def test_a_move_that_is_not_a_move_is_400_naming_its_index(client, play):
    moves = [*plan(play["id"], 2), {"type": "fly"}]
    problem = assert_problem(send(client, play, moves), 400, "invalid_move")
    assert problem["index"] == 2


def test_every_move_of_the_largest_batch_gets_its_row(client, play):
    moves = [{"type": "deal"}, {"type": "undo"}] * (MAX_BATCH // 2)
    response = send(client, play, moves)
    assert response.status_code == 200, response.content
    after = response.json()
    assert after["seq"] == MAX_BATCH
    assert after["score"]["undos"] == MAX_BATCH // 2
    assert after["tableau"] == play["tableau"]
    assert Move.objects.filter(play_id=play["id"]).count() == MAX_BATCH


def test_undo_inside_a_batch_undoes_the_batch_s_own_move(client, play):
    moves = [*plan(play["id"], 2), {"type": "undo"}, {"type": "undo"}]
    after = send(client, play, moves).json()
    assert after["seq"] == 4
    assert after["tableau"] == play["tableau"]
    assert_problem(send(client, after, [{"type": "undo"}]), 422, "nothing_to_undo")


def test_a_win_inside_a_batch_finishes_the_play_once(
    client, seahaven_win_deck, django_capture_on_commit_callbacks
):
    play = start(client, preset="seahaven", deck=seahaven_win_deck).json()
    sources = [f"t{k % 10}" if k < 50 else ("c1" if k == 50 else "c2") for k in range(52)]
    moves = [{"type": "move", "from": src, "to": "f"} for src in sources]
    too_many = send(client, play, [*moves, {"type": "resign"}])
    problem = assert_problem(too_many, 409, "play_finished")
    assert problem["index"] == 52
    received = []

    def receiver(sender, play, **kwargs):
        received.append((sender, play.status, play.seq))

    play_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            response = send(client, play, moves)
    finally:
        play_finished.disconnect(receiver)
    final = response.json()
    assert final["status"] == "won"
    assert final["seq"] == 52
    assert final["score"]["foundation_cards"] == 52
    assert final["legal_moves"] == []
    assert received == [(Play, "won", 52)]


def test_resign_ends_a_batch(client, play):
    moves = [*plan(play["id"], 2), {"type": "resign"}]
    after = send(client, play, moves).json()
    assert after["status"] == "resigned"
    assert after["seq"] == 3


# --- ranked plays: undo and hidden cards hold for each move ---------------------------------


@pytest.fixture
def ranked(client, today_deals):
    return start(client, preset="easthaven", daily=utc_today().isoformat()).json()


def test_ranked_batch_cannot_undo_its_own_deal(client, ranked):
    problem = assert_problem(send(client, ranked, [{"type": "deal"}, {"type": "undo"}]), 422)
    assert problem["index"] == 1
    assert Move.objects.filter(play_id=ranked["id"]).count() == 0


def test_ranked_batch_ends_with_its_first_reveal(client, ranked):
    quiet = plan(ranked["id"], 3, reveal=False)
    problem = assert_problem(
        send(client, ranked, [*quiet, {"type": "deal"}, {"type": "deal"}]),
        422,
        "batch_after_reveal",
    )
    assert problem["index"] == len(quiet) + 1
    assert Move.objects.filter(play_id=ranked["id"]).count() == 0
    response = send(client, ranked, [*quiet, {"type": "deal"}])
    assert response.status_code == 200, response.content
    assert response.json()["seq"] == len(quiet) + 1
    row = Move.objects.get(play_id=ranked["id"], seq=len(quiet))
    assert row.reveals_hidden


def test_ranked_batch_can_undo_a_move_that_reveals_nothing(client, today_deals):
    ranked = start(client, preset="seahaven", daily=utc_today().isoformat()).json()
    quiet = plan(ranked["id"], 2, reveal=False)
    assert len(quiet) == 2
    response = send(client, ranked, [*quiet, {"type": "undo"}, {"type": "undo"}])
    assert response.status_code == 200, response.content
    assert response.json()["tableau"] == ranked["tableau"]


def test_the_schema_documents_batches(anon):
    response = anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    schema = json.loads(response.content)
    post = schema["paths"]["/api/v1/plays/{play_id}/moves"]["post"]
    request = post["requestBody"]["content"]["application/json"]["schema"]["$ref"]
    body = schema["components"]["schemas"][request.rsplit("/", 1)[1]]
    batch = schema["components"]["schemas"]["MoveBatchRequest"]
    assert {"$ref": "#/components/schemas/MoveBatchRequest"} in body["oneOf"]
    moves = batch["properties"]["moves"]
    assert moves["maxItems"] == MAX_BATCH
    assert moves["items"] == {"$ref": "#/components/schemas/Move"}
    assert "index" in schema["components"]["schemas"]["Problem"]["properties"]
    assert "batch_after_reveal" in post["responses"]["422"]["x-problem-codes"]


def test_if_match_applies_a_batch_to_that_version_only(client, play):
    etag = client.get(f"/api/v1/plays/{play['id']}")["ETag"]
    moves = plan(play["id"], 3)
    path = f"/api/v1/plays/{play['id']}/moves"
    applied = client.post(path, {"moves": moves}, format="json", HTTP_IF_MATCH=etag)
    assert applied.status_code == 200, applied.content
    assert applied.json()["seq"] == 3
    again = client.post(path, {"moves": plan(play["id"], 1)}, format="json", HTTP_IF_MATCH=etag)
    assert_problem(again, 412, "precondition_failed")
