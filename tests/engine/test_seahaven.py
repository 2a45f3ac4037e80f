"""Seahaven Towers: cells, King-only spaces, same-suit builds and the supermove limits."""

from __future__ import annotations

import pytest

from .helpers import col, legal, ok, position, refused

RANKS = "A23456789TJQK"
#: Cards that take no part in the supermove positions: one per filler column or cell.
FILLERS = ["2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "2D", "3D", "4D", "5D"]


def supermove_position(n, free_cells, empty_cols, options=None, king_target=False):
    """A hearts run of ``n`` cards on ``t0``; its target on ``t1`` (the heart one above the run,
    or an empty column when ``king_target``, the run then headed by the KH); ``empty_cols``
    other empty columns; ``free_cells`` empty cells; every other pile holds a filler card."""
    top = 13 if king_target else n
    run = " ".join(RANKS[r] + "H" for r in range(top - 1, top - n - 1, -1))
    fillers = iter(FILLERS)
    cols = ["AS " + run, "" if king_target else RANKS[n] + "H"]
    for i in range(2, 10):
        cols.append("" if i - 2 < empty_cols else next(fillers))
    cells = [None] * free_cells + [next(fillers) for _ in range(4 - free_cells)]
    return position("seahaven", cols, cells=cells, options=options)


def limit(free_cells, empty_cols, classic):
    return free_cells + 1 if classic else (free_cells + 1) * 2**empty_cols


@pytest.mark.parametrize("classic", [False, True])
@pytest.mark.parametrize("empty_cols", [0, 1, 2])
@pytest.mark.parametrize("free_cells", [0, 1, 2, 3, 4])
def test_supermove_limits(free_cells, empty_cols, classic):
    options = {"classic_supermove": True} if classic else None
    most = limit(free_cells, empty_cols, classic)
    n = min(most, 12)  # a same-suit run below another card has at most 12 cards
    s = supermove_position(n, free_cells, empty_cols, options)
    ok(s, f"t0-t1x{n}" if n > 1 else "t0-t1")
    if most + 1 <= 12:
        s = supermove_position(most + 1, free_cells, empty_cols, options)
        refused(s, f"t0-t1x{most + 1}", "run_too_long")


@pytest.mark.parametrize("classic", [False, True])
@pytest.mark.parametrize("free_cells", [0, 1, 2])
@pytest.mark.parametrize("other_empty", [0, 1, 2])
def test_supermove_into_an_empty_column_does_not_count_the_target(free_cells, other_empty, classic):
    options = {"classic_supermove": True} if classic else None
    most = limit(free_cells, other_empty, classic)
    n = min(most, 13)
    s = supermove_position(n, free_cells, other_empty, options, king_target=True)
    ok(s, f"t0-t1x{n}" if n > 1 else "t0-t1")
    if most + 1 <= 13:
        s = supermove_position(most + 1, free_cells, other_empty, options, king_target=True)
        refused(s, f"t0-t1x{most + 1}", "run_too_long")


def test_supermove_only_same_suit_runs():
    s = position("seahaven", ["AS 9H 8H 7D", "TH", "8D"], cells=[None, None, None, None])
    refused(s, "t0-t1x3", "not_a_run")
    refused(s, "t0-t1x2", "not_a_run")
    ok(s, "t0-t2")  # 7D on 8D


def test_single_cards_to_cells_and_cell_to_cell():
    s = position("seahaven", ["AS 9H 8H", "KS", "TH"], cells=[None, "5S", "6H", None])
    t = ok(s, "t0-c0")
    assert t.cells[0] == s.cols[0][-1] and col(t, 0) == ["AS", "9H"]
    ok(s, "t0-c3")
    refused(s, "t0-c1", "cell_occupied")
    refused(s, "t0-c0x2", "single_card_only")
    ok(s, "c1-c0")  # any free card may go to an empty cell, also from another cell
    refused(s, "c1-c2", "cell_occupied")
    refused(s, "c1-c1", "same_pile")
    refused(s, "c0-t1", "empty_pile")
    refused(s, "c1-t0x2", "single_card_only")
    ok(s, "t0-t2x2")  # 9H 8H onto TH: two free cells allow three


def test_cell_cards_play_to_columns_spaces_and_foundations():
    s = position(
        "seahaven", ["AS 6S", "AH 6H", "2S"], cells=["5S", "KD", "3S", None], found={"S": "2S"}
    )
    ok(s, "c0-t0")
    refused(s, "c0-t1", "wrong_suit")
    refused(s, "c0-t2", "not_descending")
    refused(s, "c0-t3", "space_needs_king")
    ok(s, "c1-t3")
    ok(s, "c2-f")
    refused(s, "c0-f", "foundation_order")


def test_seahaven_spaces_take_kings_and_king_headed_runs_only():
    s = position("seahaven", ["AS KS QS", "2S QH", "3S"], cells=[None] * 4)
    ok(s, "t0-t3x2")
    refused(s, "t0-t3", "space_needs_king")
    refused(s, "t1-t3", "space_needs_king")
    whole = position("seahaven", ["KS QS JS"], cells=[None] * 4)
    t = ok(whole, "t0-t5x3")  # a whole column into an empty column: legal, changes nothing else
    assert col(t, 5) == ["KS", "QS", "JS"] and col(t, 0) == []


def test_seahaven_has_no_waste_no_stock_no_deal():
    s = position("seahaven", ["AS", "KH"], cells=["2S", None, None, None])
    refused(s, "t0-w", "no_such_pile")
    refused(s, "w-t0", "no_such_pile")
    refused(s, "s-t0", "no_such_pile")
    refused(s, "t0-s", "no_such_pile")
    refused(s, "deal", "no_stock")
    assert "deal" not in legal(s)
    ok(s, "t0-f")


def test_seahaven_deals_nothing_even_after_moves():
    s = position("seahaven", ["AS"])
    t = ok(s, "t0-f")
    refused(t, "deal", "no_stock")
