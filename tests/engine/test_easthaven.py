"""Easthaven's rules (RULES.md "Moves", "The deal"), each with its accepted and refused side."""

from __future__ import annotations

import pytest

from games.engine import apply_move, legal_moves, visible

from .helpers import col, legal, mv, ok, position, refused

EASTHAVENS = ["easthaven", "easthaven-open", "easthaven-suit"]


# -- what may move from a column: top card or all face-up cards -------------------------


def test_top_card_or_all_face_up_cards():
    s = position("easthaven", ["2C 3D | 9S 8H 7C", "| TD", "4S | 8D", "| 9C"])
    ok(s, "t0-t1x3")  # every face-up card, a run, onto a red ten
    ok(s, "t0-t2")  # the top card alone
    refused(s, "t0-t3x2", "partial_run")  # 8H 7C is a run but not all face-up cards
    refused(s, "t0-t1x4", "face_down")
    refused(s, "t0-t1x6", "not_enough_cards")
    assert {str(m) for m in legal_moves(s) if m.src == "t0"} == {"t0-t1x3", "t0-t2"}


@pytest.mark.parametrize(
    "preset", ["easthaven", "easthaven-open", "westcliff", "westcliff-classic"]
)
def test_partial_runs_option(preset):
    cols = ["2C 3D | 9S 8H 7C", "| TD", "4S | 8D", "| 9C"]
    s = position(preset, cols, options={"partial_runs": True})
    ok(s, "t0-t3x2")  # 8H 7C onto 9C: a top part of the face-up cards
    ok(s, "t0-t1x3")
    ok(s, "t0-t2")
    refused(s, "t0-t1x4", "face_down")
    off = position(preset, cols, options={"partial_runs": False})
    refused(off, "t0-t3x2", "partial_run")
    assert off == position(preset, cols)  # the option defaults to off


def test_partial_runs_only_where_the_cards_form_a_run():
    s = position("easthaven", ["| 9S 8H 7H", "| TD", "| 8C"], options={"partial_runs": True})
    refused(s, "t0-t1x3", "not_a_run")
    refused(s, "t0-t2x2", "not_a_run")
    off = position("easthaven", ["| 9S 8H 7H", "| TD"])
    refused(off, "t0-t1x3", "not_a_run")


def test_alternate_colour_build():
    s = position("easthaven", ["| 7C", "| 8D", "| 8S", "| 9H", "| 6C"])
    ok(s, "t0-t1")
    refused(s, "t0-t2", "wrong_colour")
    refused(s, "t0-t3", "not_descending")
    refused(s, "t4-t1", "not_descending")  # 6C on 8D: two ranks lower


def test_same_suit_build():
    s = position("easthaven-suit", ["| 7C", "| 8C", "| 8D", "| 9C"])
    ok(s, "t0-t1")
    refused(s, "t0-t2", "wrong_suit")
    refused(s, "t0-t3", "not_descending")
    run = position("easthaven-suit", ["| 8C 7C", "| 9C", "| 9S 8H"])
    ok(run, "t0-t1x2")
    refused(run, "t2-t1x2", "not_a_run")  # alternating colours are no run in suit


# -- spaces ------------------------------------------------------------------------------


def test_easthaven_spaces_take_kings_only():
    s = position("easthaven", ["2C | 7C", "3D | KS", "4H | KH QS", "| KD 5S"])
    refused(s, "t0-t6", "space_needs_king")
    ok(s, "t1-t6")
    ok(s, "t2-t6x2")  # a King-headed run, all face-up cards
    refused(s, "t3-t6x2", "not_a_run")
    refused(s, "t3-t6", "space_needs_king")


@pytest.mark.parametrize(
    "preset", ["easthaven-open", "easthaven-suit", "westcliff", "westcliff-classic"]
)
def test_other_presets_spaces_take_any_card_or_run(preset):
    run = "| 9S 8H" if preset != "easthaven-suit" else "| 9S 8S"
    s = position(preset, ["2C | 7C", "3D " + run])
    ok(s, "t0-t6")
    ok(s, "t1-t6x2")


def test_whole_column_into_an_empty_column_is_legal():
    s = position("easthaven", ["| KS QH", "", "| 5D"])
    t = ok(s, "t0-t1x2")
    assert col(t, 1) == ["KS", "QH"] and col(t, 0) == []
    o = position("easthaven-open", ["| 5D"])
    t = ok(o, "t0-t3")
    assert col(t, 3) == ["5D"] and t.down == (0,) * 7


# -- face-down cards ---------------------------------------------------------------------


def test_face_down_card_turns_up_as_part_of_the_move():
    s = position("easthaven", ["2C 3D | 9S", "| TH"])
    t = ok(s, "t0-t1")
    assert col(t, 0) == ["2C", "3D"] and t.down[0] == 1
    assert visible(t)["tableau"][0] == {"down": 1, "up": ["3D"]}
    u = apply_move(position("easthaven", ["2C 3D | 9S", "| TH"], found={"D": "2D"}), mv("t0-t1"))
    u = ok(u, "t0-f")  # the 3D to its foundation turns up the 2C
    assert col(u, 0) == ["2C"] and u.down[0] == 0
    assert visible(u)["tableau"][0] == {"down": 0, "up": ["2C"]}


def test_column_emptied_has_no_face_down_count():
    s = position("easthaven", ["| AS"])
    t = ok(s, "t0-f")
    assert t.cols[0] == () and t.down[0] == 0


# -- the deal (a new row) ----------------------------------------------------------------


def test_deal_puts_one_card_face_up_on_each_column_left_to_right():
    s = position(
        "easthaven",
        ["2C 3D | 9S", "4H 5H | 9D", "| KS", "", "| 2S", "| 3S", "| 4S"],
        stock="AH AD AC 6S 6H 6D 6C 7S 7H 7D",
    )
    t = ok(s, "deal")  # the empty t3 does not stop it: the only King lies on nothing
    assert [col(t, i)[-1] for i in range(7)] == ["AH", "AD", "AC", "6S", "6H", "6D", "6C"]
    assert col(t, 3) == ["6S"]  # an empty column receives a card too
    assert t.down == s.down
    assert [len(c) for c in t.cols] == [4, 4, 2, 1, 2, 2, 2]
    assert col(t, 0) == ["2C", "3D", "9S", "AH"]
    assert t.stock == s.stock[7:]


def test_final_deal_of_three_cards_goes_to_t0_t1_t2():
    s = position(
        "easthaven-open", ["| 9S", "| 9D", "| 9H", "| 9C", "", "| 2S", "| 3S"], stock="AH AD AC"
    )
    t = ok(s, "deal")
    assert col(t, 0) == ["9S", "AH"] and col(t, 1) == ["9D", "AD"] and col(t, 2) == ["9H", "AC"]
    assert t.cols[3:] == s.cols[3:]
    assert t.stock == ()
    refused(t, "deal", "stock_empty")
    assert "deal" not in legal(t)


def test_full_stock_deals_four_rows_and_three(deck_for):
    from games.engine import get_rules, new_game

    deck = deck_for(7)
    s = new_game(get_rules("easthaven"), deck)
    for _ in range(5):
        s = apply_move(s, mv("deal"))
    for c in range(7):
        expected = [deck[r * 7 + c] for r in range(3)] + [deck[21 + 7 * d + c] for d in range(4)]
        if c < 3:
            expected.append(deck[49 + c])
        assert list(s.cols[c]) == expected
    assert s.down == (2,) * 7 and s.stock == ()
    refused(s, "deal", "stock_empty")


def test_run_covered_by_a_deal_then_moves_only_its_top_card():
    s = position(
        "easthaven",
        ["3C | 9S 8H", "| TD", "| JC", "| 5S", "| 6S", "| 7S", "| QS"],
        stock="2D TH 4H 5H 6H 7H 8S",
        found={"D": "AD"},
    )
    assert "t0-t1x2" in legal(s)
    t = ok(s, "deal")
    assert col(t, 0) == ["3C", "9S", "8H", "2D"]
    refused(t, "t0-t1x3", "not_a_run")
    refused(t, "t0-t1x2", "not_a_run")
    assert {str(m) for m in legal_moves(t) if m.src == "t0"} == {"t0-f"}
    u = ok(t, "t0-f")  # the 2D leaves: 9S 8H are all the face-up cards again
    ok(u, "t0-t1x2")  # onto the TH the deal put on t1


def test_run_covered_by_a_deal_with_partial_runs_moves_its_correct_top_part():
    cols = ["3C | 9S 8H 7C", "| 2C", "| 2H"]
    s = position("easthaven", cols, stock="6D TD 4D 4C 5C 5H 5D", options={"partial_runs": True})
    t = ok(s, "deal")  # 9S 8H 7C 6D: still a run
    ok(t, "t0-t1x4")
    u = position("easthaven", cols, stock="QS TD 4D 4C 5C 5H 5D", options={"partial_runs": True})
    u = ok(u, "deal")  # the QS breaks the run
    refused(u, "t0-t1x4", "not_a_run")
    refused(u, "t0-t1x2", "not_a_run")


# -- Easthaven's King-fill rule before a deal ------------------------------------------


@pytest.mark.parametrize(
    ("cols", "must_fill"),
    [
        (["2C | KS", "| 5D"], True),  # a King on a face-down card
        (["2C | 5D KS"], True),  # the top card, on a face-up card
        (["2C | KS QH"], True),  # a King-headed run of all face-up cards
        (["| 3C KS QH"], False),  # a King-headed partial run: may not move without the option
        (["KS | QH"], False),  # the King is face down
        (["| KS"], False),  # the King lies on nothing: moving it fills no space
        (["| KS 5D"], False),  # the King is covered
        (["| 9H", "| 8C"], False),  # no King at all
    ],
)
def test_easthaven_refuses_a_deal_while_a_king_could_fill_a_space(cols, must_fill):
    s = position("easthaven", cols, stock="AH AD AC 2H 2D 3H 4H")
    if must_fill:
        refused(s, "deal", "must_fill_space")
    else:
        ok(s, "deal")
    # easthaven-open has no such rule
    ok(position("easthaven-open", cols, stock="AH AD AC 2H 2D 3H 4H"), "deal")
    ok(position("easthaven-suit", cols, stock="AH AD AC 2H 2D 3H 4H"), "deal")


def test_king_fill_counts_partial_runs_when_the_option_is_on():
    cols = ["| 3C KS QH"]
    ok(position("easthaven", cols, stock="AH AD AC 2H 2D 3H 4H"), "deal")
    s = position("easthaven", cols, stock="AH AD AC 2H 2D 3H 4H", options={"partial_runs": True})
    refused(s, "deal", "must_fill_space")
    t = ok(s, "t0-t1x2")
    ok(t, "deal")


def test_king_fill_needs_an_empty_column():
    full = ["| 2C", "| 2D", "| KH", "| 2S", "2H | KS", "| 3C", "| 3D"]
    s = position("easthaven", full, stock="AH AD AC 4S 4D 4C 3H")
    ok(s, "deal")
    s = position("easthaven", full[:6], stock="AH AD AC 4S 4D 4C 3H")
    refused(s, "deal", "must_fill_space")
    t = ok(s, "t4-t6")
    ok(t, "deal")


# -- the stock's absence and exhaustion --------------------------------------------------


@pytest.mark.parametrize("preset", EASTHAVENS)
def test_deal_with_an_empty_stock_is_refused(preset):
    s = position(preset, ["| 9S"])
    refused(s, "deal", "stock_empty")
