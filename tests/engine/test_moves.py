"""Moves: the JSON and text forms, and the rules every preset shares (piles, foundations,
refusals that name a pile the preset lacks, game over)."""

from __future__ import annotations

import pytest

from games.engine import (
    PRESETS,
    IllegalMove,
    Move,
    MoveFormatError,
    apply_move,
    coerce_move,
    get_rules,
    legal_moves,
    replay,
    reveals_hidden,
    status,
)

from .helpers import ok, position, refused

# -- parsing -----------------------------------------------------------------------------------

TEXTS = {
    "t3-t5x2": {"type": "move", "from": "t3", "to": "t5", "count": 2},
    "t3-f": {"type": "move", "from": "t3", "to": "f", "count": 1},
    "w-t0": {"type": "move", "from": "w", "to": "t0", "count": 1},
    "c1-t4": {"type": "move", "from": "c1", "to": "t4", "count": 1},
    "t2-c0": {"type": "move", "from": "t2", "to": "c0", "count": 1},
    "t9-t0x13": {"type": "move", "from": "t9", "to": "t0", "count": 13},
    "deal": {"type": "deal"},
    "undo": {"type": "undo"},
    "resign": {"type": "resign"},
}


@pytest.mark.parametrize(("text", "data"), TEXTS.items())
def test_text_and_json_forms_round_trip(text, data):
    move = Move.parse(text)
    assert str(move) == text
    assert move.to_dict() == data
    assert Move.from_dict(data) == move
    assert Move.parse(str(Move.from_dict(move.to_dict()))) == move
    assert coerce_move(text) == coerce_move(data) == coerce_move(move) == move


def test_count_defaults_to_one_and_text_is_case_insensitive():
    assert Move.from_dict({"type": "move", "from": "t3", "to": "f"}) == Move.parse("t3-f")
    assert Move.parse(" T3-T5X2 ") == Move("move", "t3", "t5", 2)
    assert Move.parse("t3-t5x1") == Move.parse("t3-t5")


@pytest.mark.parametrize(
    "data",
    [
        None,
        "t3-f",
        [],
        {},
        {"type": "jump"},
        {"type": "move"},
        {"type": "move", "from": "t3"},
        {"type": "move", "from": "t3", "to": "t10"},
        {"type": "move", "from": "x1", "to": "t1"},
        {"type": "move", "from": "c4", "to": "t1"},
        {"type": "move", "from": 3, "to": "t1"},
        {"type": "move", "from": "t3", "to": "t1", "count": 0},
        {"type": "move", "from": "t3", "to": "t1", "count": 53},
        {"type": "move", "from": "t3", "to": "t1", "count": "2"},
        {"type": "move", "from": "t3", "to": "t1", "count": True},
        {"type": "move", "from": "t3", "to": "t1", "count": 1.0},
        {"type": "move", "from": "t3", "to": "t1", "cards": 2},
        {"type": "deal", "from": "s"},
    ],
)
def test_bad_json_shapes_raise_move_format_error(data):
    with pytest.raises(MoveFormatError) as info:
        Move.from_dict(data)
    assert info.value.code == "invalid_move"


@pytest.mark.parametrize(
    "text", ["", "t3", "t3-", "t3-t5x0", "t3-t5x53", "t3_t5", "t10-f", "f-", "deal2", "t3-t5x"]
)
def test_bad_text_raises_move_format_error(text):
    with pytest.raises(MoveFormatError):
        Move.parse(text)


# -- piles every preset shares -------------------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_moves_from_the_foundation_are_refused(preset):
    s = position(preset, ["AS"], found={"H": "5H"})
    refused(s, "f-t0", "foundation_locked")
    refused(s, "f-t1", "foundation_locked")
    refused(s, "f-f", "same_pile")


@pytest.mark.parametrize("preset", ["easthaven", "easthaven-open", "easthaven-suit"])
def test_piles_easthaven_lacks(preset):
    s = position(preset, ["| AS", "| 2S"])
    for move in ("t0-t7", "t7-t0", "t9-f", "t0-c0", "c0-t0", "w-t1", "t0-w"):
        refused(s, move, "no_such_pile")
    refused(s, "t0-s", "not_a_target")
    refused(s, "s-t0", "not_a_source")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_foundation_order(preset):
    s = position(preset, ["AS", "2S", "3H", "2H"], found={"H": "AH"})
    ok(s, "t0-f")
    refused(s, "t1-f", "foundation_order")  # no Ace yet
    refused(s, "t2-f", "foundation_order")  # the 2H first
    ok(s, "t3-f")
    t = ok(ok(s, "t0-f"), "t1-f")
    assert t.found == (2, 1, 0, 0)
    refused(position(preset, ["KS"], found={"S": "JS"}), "t0-f", "foundation_order")
    ok(position(preset, ["KS"], found={"S": "QS"}), "t0-f")


@pytest.mark.parametrize("preset", ["easthaven", "westcliff", "seahaven"])
def test_one_card_at_a_time_to_a_foundation(preset):
    s = position(
        preset, ["3H 2S" if preset != "seahaven" else "3S 2S"], found={"S": "AS", "H": "2H"}
    )
    refused(s, "t0-fx2", "single_card_only")
    ok(s, "t0-f")


@pytest.mark.parametrize("preset", list(PRESETS))
def test_same_pile_and_empty_pile(preset):
    s = position(preset, ["9S"])
    refused(s, "t0-t0", "same_pile")
    refused(s, "t1-t0", "empty_pile")
    refused(s, "t1-f", "empty_pile")


def test_won_game_has_no_moves_and_refuses_every_move():
    s = position("seahaven", [], found={"S": 13, "H": 13, "D": 13, "C": 13})
    assert legal_moves(s) == [] and status(s) == "won"
    with pytest.raises(IllegalMove) as info:
        apply_move(s, Move.parse("t0-t1"))
    assert info.value.code == "game_over"


def test_lost_and_playing():
    stuck = position("easthaven", ["| 9S", "| 9H"], found={"S": 1})
    assert legal_moves(stuck) == [] and status(stuck) == "lost"
    with_stock = position("easthaven", ["| 9S", "| 9H"], stock="2S")
    assert status(with_stock) == "playing"


def test_undo_and_resign_are_not_engine_moves():
    s = position("easthaven", ["| 9S"])
    for text in ("undo", "resign"):
        with pytest.raises(IllegalMove) as info:
            apply_move(s, Move.parse(text))
        assert info.value.code == "not_an_engine_move"


def test_reveals_hidden():
    s = position("easthaven", ["2C | 9S", "| TH", "| 8D", "2D 3D | 5S 4H"], stock="AS")
    assert reveals_hidden(s, Move.parse("t0-t1"))
    assert reveals_hidden(s, Move.parse("deal"))
    assert not reveals_hidden(s, Move.parse("t2-f"))
    assert reveals_hidden(s, Move.parse("t3-t5x2"))
    assert not reveals_hidden(s, Move.parse("t3-t5"))


def test_replay_reports_the_first_bad_move():
    from games.engine import deck_from_seed, new_game

    rules = get_rules("westcliff")
    deck = deck_from_seed(3)
    state, index, error = replay(rules, deck, ["deal", {"type": "deal"}, "t0-w", "deal"])
    assert index == 2 and isinstance(error, IllegalMove)
    assert state == apply_move(
        apply_move(new_game(rules, deck), Move.parse("deal")), Move.parse("deal")
    )
    state, index, error = replay(rules, deck, ["deal", {"type": "bogus"}])
    assert index == 1 and isinstance(error, MoveFormatError)


@pytest.mark.parametrize(
    "move",
    [
        Move("move", "t0", "t1", 0),  # would take the whole column (col[-0:])
        Move("move", "t0", "t1", -1),  # would take all but the bottom card
        Move("move", "t0", "t1", True),
        Move("move", "t0", "t1", 53),
        Move("move", "t", "t1", 1),  # would be read as t0
        Move("move", "t0", "w9", 1),
        Move("move", "x", "t1", 1),
    ],
)
def test_apply_move_refuses_malformed_moves_built_without_the_parser(move):
    """apply_move is public: a Move built directly (not via from_dict/parse) with a count
    outside 1 … 52 or a pile id that is none must not apply."""
    s = position("seahaven", ["KS QS JS 5S", "", "6S"])
    with pytest.raises(MoveFormatError):
        apply_move(s, move)
