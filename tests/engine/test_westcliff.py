"""Westcliff's waste (RULES.md "Westcliff deal") and its other differences from Easthaven."""

from __future__ import annotations

import pytest

from games.engine import visible

from .helpers import col, legal, ok, position, refused

WESTCLIFFS = ["westcliff", "westcliff-classic"]


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_deal_turns_the_next_stock_card_onto_the_waste(preset):
    s = position(preset, ["2C 3D | 9S"], stock="AS 5D 9C")
    t = ok(s, "deal")
    assert t.waste == s.stock[:1] and t.stock == s.stock[1:]
    assert t.cols == s.cols  # the tableau is untouched
    t = ok(t, "deal")
    assert visible(t)["waste"] == ["AS", "5D"] and visible(t)["stock"] == 1
    t = ok(t, "deal")
    refused(t, "deal", "stock_empty")  # no redeal
    assert "deal" not in legal(t)


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_only_the_waste_top_card_plays(preset):
    s = position(preset, ["| 8D", "| 5S"], waste="AS 4H 7C")
    ok(s, "w-t0")  # 7C on 8D
    refused(s, "w-t1", "not_descending")
    refused(s, "w-f", "foundation_order")  # the AS lies under two cards
    refused(s, "w-t0x2", "single_card_only")
    t = ok(s, "w-t0")
    ok(t, "w-t1")  # now the 4H is on top: onto the 5S
    u = position(preset, ["| 8D"], waste="7C AS")
    v = ok(u, "w-f")
    assert v.waste == u.waste[:1] and v.found == (1, 0, 0, 0)
    ok(u, "w-t5")  # any card fills a space


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_waste_is_never_a_target_and_the_stock_never_a_pile_to_move(preset):
    s = position(preset, ["| 8D", "| 7C"], stock="AS 2S", waste="9C")
    refused(s, "t1-w", "not_a_target")
    refused(s, "t1-s", "not_a_target")
    refused(s, "s-t0", "not_a_source")
    refused(s, "w-w", "same_pile")


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_empty_waste_has_nothing_to_play(preset):
    s = position(preset, ["| 8D"], stock="AS")
    refused(s, "w-f", "empty_pile")
    refused(s, "w-t0", "empty_pile")


def test_westcliff_has_ten_columns_and_the_classic_seven():
    s = position("westcliff", ["| 8D", "", "", "", "", "", "", "", "", "| 9C"])
    ok(s, "t0-t9")
    c = position("westcliff-classic", ["| 8D"])
    refused(c, "t0-t7", "no_such_pile")
    refused(c, "t0-t9", "no_such_pile")
    ok(c, "t0-t6")


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_deal_any_time_even_with_a_king_ready_for_a_space(preset):
    s = position(preset, ["2C | KS"], stock="AH")
    ok(s, "deal")


@pytest.mark.parametrize("preset", WESTCLIFFS)
def test_top_or_all_and_face_down_flip(preset):
    s = position(preset, ["2C 3D | 9S 8H 7C", "| TD", "| 9C"], waste="JC")
    t = ok(s, "t0-t1x3")
    assert col(t, 0) == ["2C", "3D"] and t.down[0] == 1
    refused(s, "t0-t2x2", "partial_run")
