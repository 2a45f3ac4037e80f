"""Strict JSON types: a number is not a name, a string is not a number, a card is an exact
token. Each refusal is a 400 problem and writes nothing."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model

from games import engine
from games.models import Move, Play
from leaderboard.models import Group

from .tally import check, lost

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"
DECK = engine.format_deck(engine.deck_from_seed(7))


def with_card(index: int, card: str) -> list[str]:
    deck = list(DECK)
    deck[index] = card
    return deck


@pytest.mark.parametrize(
    "body",
    [
        {"username": 123, "password": PASSWORD},
        {"username": 12.5, "password": PASSWORD},
        {"username": True, "password": PASSWORD},
        {"username": None, "password": PASSWORD},
        {"username": {"name": "x"}, "password": PASSWORD},
        {"username": "numbers", "password": 12345678901234},
        {"username": "numbers", "password": [PASSWORD]},
    ],
)
def test_register_refuses_wrong_types(anon, body):
    check("types", anon.post("/api/v1/auth/register", body, format="json"), {400})
    assert not get_user_model().objects.exists()


@pytest.mark.parametrize(
    "body",
    [{"username": 123, "password": PASSWORD}, {"username": "123", "password": 12345678}],
)
def test_sign_in_refuses_wrong_types(anon, body):
    get_user_model().objects.create_user(username="123", password="12345678")
    check("types", anon.post("/api/v1/auth/token", body, format="json"), {400})


@pytest.mark.parametrize(
    ("body", "code"),
    [
        ({"preset": "easthaven", "deck": with_card(0, DECK[0] + " ")}, "invalid_deck"),
        ({"preset": "easthaven", "deck": with_card(0, " " + DECK[0])}, "invalid_deck"),
        ({"preset": "easthaven", "deck": with_card(5, DECK[5].lower())}, "invalid_deck"),
        ({"preset": "easthaven", "deck": with_card(9, DECK[9][0] + " " + DECK[9][1])}, None),
        ({"preset": "easthaven", "deck": with_card(3, DECK[3] + "\x00")}, None),
        ({"preset": "easthaven", "deck": with_card(3, 13)}, None),
        ({"preset": "easthaven", "seed": "12"}, "validation_error"),
        ({"preset": "easthaven", "seed": 12.0}, "validation_error"),
        ({"preset": "easthaven", "seed": True}, "validation_error"),
        ({"preset": "easthaven", "seed": 10**40}, None),
        ({"preset": "easthaven", "pysol_deal": "1977"}, "validation_error"),
        ({"preset": 1, "seed": 1}, "validation_error"),
        ({"preset": "easthaven", "seed": 1, "options": {"partial_runs": "yes"}}, None),
        ({"preset": "easthaven", "seed": 1, "options": {"partial_runs": 1}}, None),
        ({"preset": "easthaven", "seed": 1, "options": {"partial_runs": "true"}}, None),
        ({"preset": "easthaven", "daily": "2026-W49"}, "validation_error"),
        ({"preset": "easthaven", "daily": "2026-W49-4"}, "validation_error"),
        ({"preset": "easthaven", "daily": "２０２６-１２-０３"}, "validation_error"),
        ({"preset": "easthaven", "daily": 20261203}, "validation_error"),
        ({"preset": "easthaven", "daily": "9999-12-31"}, "validation_error"),
    ],
)
def test_start_refuses_wrong_types(client, body, code):
    check("types", client.post("/api/v1/plays", body, format="json"), {400}, code)
    assert not Play.objects.exists()


def test_the_exact_deck_is_accepted(client):
    check("types", client.post("/api/v1/plays", {"preset": "easthaven", "deck": DECK}), {201})


@pytest.mark.parametrize(
    "body",
    [
        {"seq": "0", "move": {"type": "deal"}},
        {"seq": 0.0, "move": {"type": "deal"}},
        {"seq": False, "move": {"type": "deal"}},
        {"seq": [0], "move": {"type": "deal"}},
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "f", "count": "1"}},
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "f", "count": True}},
        {"seq": 0, "move": {"type": "move", "from": "t0 ", "to": "f"}},
        {"seq": 0, "move": {"type": "move", "from": 0, "to": "f"}},
        {"seq": 0, "move": {"type": ["deal"]}},
    ],
)
def test_a_move_with_wrong_types_is_400_and_logs_nothing(client, body):
    play = client.post("/api/v1/plays", {"preset": "westcliff", "seed": 3}, format="json").json()
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    check("types", response, {400})
    assert not Move.objects.exists()


@pytest.mark.parametrize(
    "body",
    [
        {"name": 1},
        {"name": 1.5},
        {"name": True},
        {"name": ["friends"]},
        {"name": "bell\x07"},
        {"name": "   "},
    ],
)
def test_group_names_are_strings(client, body):
    check("types", client.post("/api/v1/groups", body, format="json"), {400})
    assert not Group.objects.exists()


@pytest.mark.parametrize("code", [123456, ["ABC"], None, True])
def test_invite_codes_are_strings(client, code):
    response = client.post("/api/v1/groups/join", {"code": code}, format="json")
    check("types", response, {400})


def test_a_good_group_still_works(client):
    response = check("types", client.post("/api/v1/groups", {"name": "Friday club"}), {201})
    assert response.json()["name"] == "Friday club"
    lost("types", 1 - Group.objects.filter(name="Friday club").count())


@pytest.mark.parametrize(
    "key",
    ["", " ", "a b", "a\x00b", "é", "a" * 256, "key\n", "\x7f"],
    ids=["empty", "space", "inner-space", "nul", "latin1", "too-long", "newline", "del"],
)
def test_a_malformed_idempotency_key_is_400_and_starts_nothing(client, key):
    response = client.post(
        "/api/v1/plays",
        {"preset": "easthaven", "seed": 1},
        format="json",
        HTTP_IDEMPOTENCY_KEY=key,
    )
    check("types", response, {400}, "invalid_idempotency_key")
    assert not Play.objects.exists()
