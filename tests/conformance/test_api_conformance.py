"""Random games played move by move through the HTTP API agree with the reference.

Every response's visible state and legal moves (as a set) are compared with
``reference.Game``; random illegal moves must be ``422 illegal_move`` naming a rule the
reference also finds broken, and change nothing.
"""

from __future__ import annotations

import random
import re

import pytest

from games.engine import deck_from_seed, format_deck

from .bridge import REASON_CODES, VARIANTS, random_candidate
from .reference import Game, canonical

pytestmark = pytest.mark.django_db

HIGH_RATES = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
VIEW_KEYS = ("tableau", "foundations", "cells", "stock", "waste")
CARD = re.compile(r"\b(?:10|[A2-9TJQK])[SHDC]\b")


@pytest.fixture
def api(settings, client):
    """A Django test client registered and authorised as a fresh player."""
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": HIGH_RATES}
    response = client.post(
        "/api/v1/auth/register",
        {"username": "conformance", "password": "a-long-horse-battery-42"},
        content_type="application/json",
    )
    assert response.status_code == 201, response.content
    client.defaults["HTTP_AUTHORIZATION"] = f"Bearer {response.json()['access']}"
    return client


def hidden(ref: Game) -> set[str]:
    """The cards the player may not see: face-down and stock cards."""
    return {c for col in ref.cols for c, up in col if not up} | set(ref.stock)


def assert_no_hidden(content: bytes, ref: Game) -> None:
    shown = set(CARD.findall(content.decode()))
    assert not shown & hidden(ref), f"the response shows {sorted(shown & hidden(ref))}"


def compare(body: dict, ref: Game) -> None:
    view = ref.visible()
    for key in VIEW_KEYS:
        assert body.get(key) == view.get(key), (
            f"{key}: API {body.get(key)}, reference {view.get(key)}"
        )
    expected = ref.status()
    assert body["status"] == expected
    listed = [canonical(m) for m in body["legal_moves"]]
    assert len(listed) == len(set(listed)), "a legal move is listed twice"
    if expected == "playing":
        assert set(listed) == {canonical(m) for m in ref.legal_moves()}
        assert all("count" in m for m in body["legal_moves"] if m["type"] == "move")
    else:
        assert listed == []


def choose(rnd: random.Random, moves: list[dict]) -> dict:
    found = [m for m in moves if m.get("to") == "f"]
    if found and rnd.random() < 0.6:
        return rnd.choice(found)
    others = [m for m in moves if m["type"] != "deal"]
    if others and rnd.random() < 0.85:
        return rnd.choice(others)
    return rnd.choice(moves)


@pytest.mark.parametrize(
    ("preset", "options"),
    VARIANTS,
    ids=[name + "".join("+" + o for o in opts) for name, opts in VARIANTS],
)
def test_api_plays_agree_with_the_reference(api, preset, options):
    rnd = random.Random(preset + str(options))
    deck = format_deck(deck_from_seed(rnd.randrange(2**32)))
    body = {"preset": preset, "deck": deck}
    if options:
        body["options"] = options
    response = api.post("/api/v1/plays", body, content_type="application/json")
    assert response.status_code == 201, response.content
    play = response.json()
    ref = Game.deal_from_deck(preset, deck, options)
    assert play["preset"] == preset and play["seq"] == 0
    compare(play, ref)
    assert_no_hidden(response.content, ref)
    url = f"/api/v1/plays/{play['id']}/moves"
    refused = 0
    for _ in range(30):
        if play["status"] != "playing":
            break
        # a few random moves the reference refuses: 422 with a matching rule, nothing changes
        for _ in range(rnd.choice([1, 2])):
            move = random_candidate(rnd, ref)
            reasons = ref.refusals(move)
            if not reasons:
                continue
            answer = api.post(
                url, {"seq": play["seq"], "move": move}, content_type="application/json"
            )
            assert answer.status_code == 422, (move, answer.content)
            assert_no_hidden(answer.content, ref)
            problem = answer.json()
            assert problem["code"] == "illegal_move"
            allowed = set().union(*(REASON_CODES[r] for r in reasons))
            assert problem.get("rule") in allowed, (move, problem, reasons)
            refused += 1
        move = choose(rnd, ref.legal_moves())
        answer = api.post(url, {"seq": play["seq"], "move": move}, content_type="application/json")
        assert answer.status_code == 200, (move, answer.content)
        after = answer.json()
        assert after["seq"] == play["seq"] + 1
        ref = ref.apply(move)
        compare(after, ref)
        assert_no_hidden(answer.content, ref)
        play = after
    assert refused > 0
    # the stored state read back agrees too
    final = api.get(f"/api/v1/plays/{play['id']}")
    assert final.status_code == 200
    compare(final.json(), ref)
