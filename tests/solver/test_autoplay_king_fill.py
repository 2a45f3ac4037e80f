"""Guarded auto-play in ``easthaven`` proper (``Search.fill_neutral``): while the King-fill
rule can still refuse a deal, a safe card goes home early only where that can never make
the rule refuse a deal a win makes.  Each condition is checked on a hand-made column; then
the verdicts with pruning on are compared with the plain search on small random positions
with stock left and Kings among the table cards.  (Positions where an unguarded auto-play
would change a verdict are rare: none among 600 such random ones, so the conditions
themselves rest on the hand-made cases and the proof in :mod:`games.solver.autoplay`.)"""

from __future__ import annotations

import random

import pytest

from games.engine import State, get_rules
from games.solver.core import Search

from .helpers import build, same_verdict

# Every suit home to 5 (suits S H D C): every 6 is safe.  A King is in the stock, so the
# King-fill rule may still refuse a deal and auto-play is guarded.
FOUND = (5, 5, 5, 5)


def neutral(col: str, down: int = 0, stock: str = "KH", found=FOUND, others=()) -> bool:
    """``fill_neutral`` of the top card of ``col`` (column t0; then ``others``, the rest
    empty)."""
    state = build("easthaven", [col, *others], found, stock=stock, down=[down])
    search = Search(state)
    assert not search.auto_allowed(search.start)
    column = search.start[0][0]
    assert column[-1] in search.safe_cards(search.start[2])
    return search.fill_neutral(column, down, 0, search.start[0])


def test_a_safe_card_on_its_parent_goes_home():
    assert neutral("9D 8S 7H 6S")
    assert neutral("9D 8S 7H 6S", down=2)


def test_a_card_alone_in_its_column_waits():
    # Its leaving would make a space, and a space lets the rule refuse a deal.
    assert not neutral("6S")


def test_a_queen_or_king_waits():
    # A Queen may hide a King from the rule by lying on it; a King may fill a space.
    assert not neutral("KC QH", found=(12, 11, 11, 12))
    assert not neutral("6C KS", found=(12, 12, 12, 5))


# Three deals: the stock card at index k goes onto column k % 7.
ROWS = "7C 7D 8C 8D 8H 9C 9H 9S TC TD TH TS JC JD"


def test_a_card_whose_twin_may_join_a_king_run_waits():
    # The twin (6C for 6S) could be dealt onto the parent 6S might first move to, and
    # make a King-headed run there that 6S would have broken, before a later deal: when
    # a King lies on a card in the twin's column (t1 here), or is dealt there first.
    assert not neutral("9D 8S 7H 6S", stock="7C 6C " + ROWS[6:], others=["QD KS"])
    assert not neutral("9D 8S 7H 6S", stock="KH " + ROWS[:17] + " 6C " + ROWS[18:])


def test_a_twin_whose_column_holds_no_king_run_does_not_hold_a_card_back():
    # 6C goes onto t1, and no King lies on a card there or is dealt there first (a King
    # at the bottom of a column lies on nothing, and a King moves only into spaces).
    assert neutral("9D 8S 7H 6S", stock="7C 6C " + ROWS[6:], others=["KS QD"])
    assert neutral("9D 8S 7H 6S", stock="7C 6C " + ROWS[6:] + " KH")


def test_a_twin_in_the_last_deal_does_not_hold_a_card_back():
    # The run the twin could make exists only after the last deal, and then the rule
    # refuses no deal any more.
    assert neutral("9D 8S 7H 6S", stock="KH 7C 7D 8C 8D 8H 9C 6C")
    assert neutral("9D 8S 7H 6S", stock="KH 6C")  # one deal left: it is the last


def test_a_card_uncovering_a_king_that_may_leave_waits():
    assert not neutral("9D KS 6S", down=1)  # KS would lie on 9D, free to move
    assert not neutral("9D KS 6S", down=2)  # KS would turn face up on 9D
    assert not neutral("8D KC QH 6S", down=1)  # KC QH: all face-up cards, a run
    assert neutral("8D KC QH 6S")  # 8D KC QH is no run: only QH may leave
    assert neutral("9D 6S", down=1)  # 9D turns: no King


def test_a_card_on_a_king_headed_run_goes_home():
    # The run KC QH JS ... 6S may leave already; without 6S it still may.
    assert neutral("8D KC QH JS TH 9S 8H 7C 6D", down=1, found=(5, 5, 5, 5))


def _random_position(rng: random.Random, options: dict, stock_size: int = 7) -> State:
    """Two suits in play (one black, one red) from a random height up, the others home;
    seven columns with few face-down cards, a short stock, Kings among the table cards."""
    rules = get_rules("easthaven", options)
    suits = rng.choice([(0, 1), (0, 2), (3, 1), (3, 2)])
    heights = {s: rng.randint(0, 4) for s in suits}
    deck = [s * 13 + r for s in suits for r in range(heights[s], 13)]
    rng.shuffle(deck)
    stock = tuple(deck[:stock_size])
    table = deck[stock_size:]
    cols = tuple(tuple(table[i::7]) for i in range(7))
    down = tuple(rng.randint(0, 1) if len(c) > 1 else 0 for c in cols)
    found = tuple(heights.get(s, 13) for s in range(4))
    return State(rules, cols, down, found, (), stock, ())


@pytest.mark.parametrize("options", [{}, {"partial_runs": True}], ids=["", "partial_runs"])
def test_guarded_auto_play_keeps_the_verdicts(options):
    rng = random.Random(f"king-fill{options}")
    verdicts = []
    fired = 0
    for _ in range(60):
        state = _random_position(rng, options)
        verdict = same_verdict(state, 20_000)
        if verdict is None:
            continue
        verdicts.append(verdict)
        search = Search(state)
        start = search.start
        if not search.auto_allowed(start) and search.autoplay(start, []) != start:
            fired += 1
    assert len(verdicts) >= 40, verdicts
    assert verdicts.count("winnable") >= 10 and verdicts.count("unwinnable") >= 10, verdicts
    assert fired >= 10, "no position exercised the guarded auto-play at its start"


def _twins_in_the_last_deal(rng: random.Random, options: dict, early: bool = False) -> State:
    """Like :func:`_random_position` with the same-colour suits (all four in play from
    a random height up, the suits of one colour higher): two deals left, the last one's
    cards (``early``: the first one's) the twins of safe cards, so guarded auto-play
    plays cards it once held back."""
    rules = get_rules("easthaven", options)
    black = rng.randint(6, 9)
    red = black - rng.randint(1, 2)
    heights = {0: black, 3: black, 1: red, 2: red}
    deck = [s * 13 + r for s in range(4) for r in range(heights[s], 13)]
    rng.shuffle(deck)
    # Cards whose twins may be safe: the next card of each black suit.
    last = [c for c in deck if c % 13 == black][:3]
    rest = [c for c in deck if c not in last]
    if early:
        stock = tuple(last + rest[: 10 - len(last)])
        table = rest[10 - len(last) :]
    else:
        stock = tuple(rest[:7] + last)
        table = rest[7:]
    cols = tuple(tuple(table[i::7]) for i in range(7))
    down = tuple(rng.randint(0, 1) if len(c) > 1 else 0 for c in cols)
    found = tuple(heights[s] for s in range(4))
    return State(rules, cols, down, found, (), stock, ())


@pytest.mark.parametrize("early", [False, True], ids=["last-deal", "first-deal"])
@pytest.mark.parametrize("options", [{}, {"partial_runs": True}], ids=["", "partial_runs"])
def test_twins_in_the_stock_keep_the_verdicts(options, early):
    rng = random.Random(f"twins{options}{early}")
    decided = fired = 0
    for _ in range(60):
        state = _twins_in_the_last_deal(rng, options, early)
        if same_verdict(state, 20_000) is not None:
            decided += 1
        search = Search(state)
        start = search.start
        stock = search._early_stock_mask[0]
        for col, d in zip(start[0], start[1]):
            c = col[-1] if col else None
            twin = None if c is None else (3 - c // 13) * 13 + c % 13
            if (
                c in search.safe_cards(start[2])
                and twin in search.stock
                and (early or not stock >> twin & 1)
                and search.fill_neutral(col, d, 0, start[0])
            ):
                fired += 1
    assert decided >= 30
    assert fired >= 5
