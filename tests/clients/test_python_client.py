"""A Python client generated from the served schema (openapi-python-client, pinned in the
test extras) plays guest → daily → practice → moves → undo → resign → link → board against a
live server, with no hand edits and no casts: answers are told apart with ``isinstance``
on the generated models, as a typed client's user would."""

from __future__ import annotations

import base64
import importlib
import secrets
import sys
import uuid
from http import HTTPStatus
from pathlib import Path

import pytest

from .conftest import run

pytestmark = pytest.mark.clients

PACKAGE = "haven_generated_client"


@pytest.fixture
def generated(schema_file, tmp_path):
    """Generate the client into a temporary folder and import it."""
    bin_dir = Path(sys.executable).parent
    output = tmp_path / PACKAGE
    run(
        [
            str(bin_dir / "openapi-python-client"),
            "generate",
            "--path",
            str(schema_file),
            "--meta",
            "none",
            "--output-path",
            str(output),
        ],
        tmp_path,
        env={"PATH": f"{bin_dir}:{Path('/usr/bin')}:{Path('/bin')}"},
    )
    sys.path.insert(0, str(tmp_path))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(tmp_path))
        for name in [name for name in sys.modules if name.split(".")[0] == PACKAGE]:
            del sys.modules[name]


def test_python_client_plays_the_whole_flow(haven, generated):
    api = importlib.import_module(f"{PACKAGE}.api")
    models = importlib.import_module(f"{PACKAGE}.models")
    auth_guest = importlib.import_module(f"{PACKAGE}.api.auth.auth_guest")
    auth_link = importlib.import_module(f"{PACKAGE}.api.auth.auth_link")
    daily_retrieve = importlib.import_module(f"{PACKAGE}.api.daily.daily_retrieve")
    plays_create = importlib.import_module(f"{PACKAGE}.api.plays.plays_create")
    plays_moves_create = importlib.import_module(f"{PACKAGE}.api.plays.plays_moves_create")
    plays_retrieve = importlib.import_module(f"{PACKAGE}.api.plays.plays_retrieve")
    leaderboard_daily = importlib.import_module(f"{PACKAGE}.api.leaderboards.leaderboard_daily")
    presets_list = importlib.import_module(f"{PACKAGE}.api.presets.presets_list")
    assert api

    public = generated.Client(base_url=haven)

    # Public reads take the plain client: no token demanded.
    presets = presets_list.sync(client=public, lang=models.PresetsListLang.RU)
    assert isinstance(presets, models.PresetList)
    assert presets.presets[0].rules

    # No form before the first card: a guest of this device (its id and secret made here).
    device = models.GuestRequest(
        device_id=str(uuid.uuid4()),
        device_secret=base64.urlsafe_b64encode(secrets.token_bytes(32)).rstrip(b"=").decode(),
    )
    guest = auth_guest.sync_detailed(client=public, body=device)
    assert guest.status_code == HTTPStatus.CREATED
    assert isinstance(guest.parsed, models.GuestTokenPair)
    assert guest.parsed.guest
    client = generated.AuthenticatedClient(base_url=haven, token=guest.parsed.access)

    daily = daily_retrieve.sync(date="today", client=public)
    assert isinstance(daily, models.Daily)
    deal = daily.deals["easthaven"]
    assert deal.verdict == models.VerdictEnum.WINNABLE

    ranked = plays_create.sync(
        client=client, body=models.DailyStartRequest(preset="easthaven", daily="today")
    )
    assert isinstance(ranked, models.Play)
    assert ranked.ranked

    practice = plays_create.sync_detailed(
        client=client, body=models.SeedStartRequest(preset="westcliff", seed=2026)
    )
    assert practice.status_code == HTTPStatus.CREATED
    play = practice.parsed
    assert isinstance(play, models.Play)
    assert practice.headers["Location"] == f"/api/v1/plays/{play.id}"

    card_moves = [m for m in play.legal_moves if isinstance(m, models.CardMove)]
    first = card_moves[0] if card_moves else play.legal_moves[0]
    moved = plays_moves_create.sync(
        play.id, client=client, body=models.OneMoveRequest(seq=play.seq, move=first)
    )
    assert isinstance(moved, models.Play)
    assert moved.seq == 1

    stale = plays_moves_create.sync(
        play.id,
        client=client,
        body=models.OneMoveRequest(seq=0, move=models.DealMove(type_=models.DealMoveType.DEAL)),
    )
    assert isinstance(stale, models.Problem)  # one Problem model for every error answer
    assert stale.code == models.ProblemCode.STALE_SEQUENCE
    assert stale.seq == 1

    undone = plays_moves_create.sync(
        play.id,
        client=client,
        body=models.OneMoveRequest(
            seq=moved.seq, move=models.UndoMove(type_=models.UndoMoveType.UNDO)
        ),
    )
    assert isinstance(undone, models.Play)
    assert undone.score.undos == 1

    resigned = plays_moves_create.sync(
        play.id,
        client=client,
        body=models.OneMoveRequest(
            seq=undone.seq, move=models.ResignMove(type_=models.ResignMoveType.RESIGN)
        ),
    )
    assert isinstance(resigned, models.Play)
    assert resigned.status == models.PlayStatusEnum.RESIGNED
    assert resigned.legal_moves == []

    fetched = plays_retrieve.sync_detailed(play.id, client=client)
    assert isinstance(fetched.parsed, models.Play)
    unchanged = plays_retrieve.sync_detailed(
        play.id, client=client, if_none_match=fetched.headers["ETag"]
    )
    assert unchanged.status_code == HTTPStatus.NOT_MODIFIED

    # The ranked play ends too, so the day's board has the player on it.
    ended = plays_moves_create.sync(
        ranked.id,
        client=client,
        body=models.OneMoveRequest(
            seq=ranked.seq, move=models.ResignMove(type_=models.ResignMoveType.RESIGN)
        ),
    )
    assert isinstance(ended, models.Play)

    # "Keep my progress": the guest takes a name and keeps its plays and scores.
    linked = auth_link.sync(
        client=client,
        body=models.LinkRequest(username="py_player", password="a long passphrase"),
    )
    assert isinstance(linked, models.GuestTokenPair)
    assert linked.username == "py_player" and not linked.guest
    board = leaderboard_daily.sync("easthaven", "today", client=public)
    assert isinstance(board, models.DailyPage)
    assert [entry.username for entry in board.results] == ["py_player"]

    unknown = leaderboard_daily.sync("klondike", "today", client=public)
    assert isinstance(unknown, models.Problem)
    assert unknown.code == models.ProblemCode.UNKNOWN_PRESET
