"""No play, move or error response carries a deck or a face-down / stock card."""

from __future__ import annotations

import random

import pytest

from games import engine
from games.daily import utc_today

from .helpers import card_strings, hidden_cards, move, start

pytestmark = pytest.mark.django_db


def play_through(client, play, rng, limit=250):
    """Play random legal moves (with some undos and illegal tries); yield each response
    together with the cards that were hidden right after it."""
    for _ in range(limit):
        if play["status"] != "playing":
            return
        roll = rng.random()
        if roll < 0.08:
            mv = {"type": "undo"}
        elif roll < 0.15:
            mv = {
                "type": "move",
                "from": f"t{rng.randrange(10)}",
                "to": rng.choice(["f", "t0", "c0"]),
            }
        else:
            mv = rng.choice(play["legal_moves"])
        response = move(client, play, mv)
        yield response, hidden_cards(play["id"])
        if response.status_code == 200:
            play = response.json()


def assert_secret(response, hidden):
    leaked = card_strings(response.content) & hidden
    assert not leaked, (response.status_code, sorted(leaked))
    assert b'"deck"' not in response.content
    assert b'"state"' not in response.content


@pytest.mark.parametrize(
    ("preset", "seed"),
    [
        ("easthaven", 1),
        ("easthaven-open", 2),
        ("westcliff", 3),
        ("westcliff-classic", 4),
        ("easthaven-suit", 5),
    ],
)
def test_a_played_game_never_shows_a_hidden_card(client, preset, seed):
    rng = random.Random(seed)
    response = start(client, preset=preset, seed=seed)
    play = response.json()
    assert_secret(response, hidden_cards(play["id"]))
    seen = 0
    for response, hidden in play_through(client, play, rng):
        assert_secret(response, hidden)
        seen += 1
    assert seen >= 10
    hidden = hidden_cards(play["id"])
    for path in (
        f"/api/v1/plays/{play['id']}",
        f"/api/v1/plays/{play['id']}/moves",
        "/api/v1/plays",
    ):
        assert_secret(client.get(path), hidden)


def test_a_practice_game_from_a_client_deck_never_echoes_the_deck(client):
    deck = engine.format_deck(engine.deck_from_seed(777))
    response = start(client, preset="easthaven", deck=deck)
    assert response.status_code == 201
    play = response.json()
    hidden = hidden_cards(play["id"])
    assert len(hidden) == 52 - 7
    assert_secret(response, hidden)
    # the response never contains the deck as a list (nor any long run of it)
    assert ",".join(f'"{c}"' for c in deck[:3]) not in response.content.decode()
    for response, hidden in play_through(client, play, random.Random(1), limit=60):
        assert_secret(response, hidden)


def test_resigning_does_not_reveal_the_rest(client):
    play = start(client, preset="westcliff", seed=8).json()
    hidden = hidden_cards(play["id"])
    response = move(client, play, {"type": "resign"})
    assert response.status_code == 200
    assert_secret(response, hidden)
    assert_secret(client.get(f"/api/v1/plays/{play['id']}"), hidden)


def test_a_ranked_play_never_shows_todays_deck(client, today_deals):
    response = start(client, preset="easthaven", daily=utc_today().isoformat())
    play = response.json()
    assert_secret(response, hidden_cards(play["id"]))
    daily = client.get("/api/v1/daily/today")
    assert b'"deck"' not in daily.content
    assert b'"solution"' not in daily.content
    assert not card_strings(daily.content)


def test_illegal_move_details_name_no_hidden_card(client):
    """Every illegal move from every column to every target: the details stay visible-only."""
    play = start(client, preset="easthaven", seed=31).json()
    hidden = hidden_cards(play["id"])
    targets = [f"t{i}" for i in range(7)] + ["f", "w", "c0", "s"]
    for src in [f"t{i}" for i in range(7)] + ["w", "f", "s"]:
        for dst in targets:
            for count in (1, 2, 3):
                response = move(
                    client, play, {"type": "move", "from": src, "to": dst, "count": count}
                )
                if response.status_code == 200:
                    play = response.json()
                    hidden = hidden_cards(play["id"])
                else:
                    assert_secret(response, hidden)
