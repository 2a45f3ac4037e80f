"""The dead-end relaxation (``Search.dead``) and the canonical order of the columns no row
deal reaches any more: both must never call a winnable position lost.

Dead ends: every position the relaxation calls dead, from tight and loose random
positions and from endgames of a found win (some with stock left), must be lost for the
plain search (``pruning=False``: no auto-play, exact keys, every move).  Hand-made
positions check each of the relaxation's four ways out, and that it is really used.
"""

from __future__ import annotations

import random

import pytest

from games.engine import State, deck_from_seed, get_rules, new_game
from games.solver import solve, solve_state
from games.solver.core import DEAL, Search

from .helpers import RULE_SETS, build, rule_id, same_verdict
from .test_soundness import DEALS, endgames, mini_deal

NO_CELLS = [item for item in RULE_SETS if not get_rules(*item).cells]


def _dead(state) -> bool:
    search = Search(state)
    return search.dead(search.start)


def loose_deal(rules, rng, suits: int) -> State:
    """``suits`` suits over all but one to three columns (left empty), random face-down
    counts: spaces make the relaxation's King and space clauses matter."""
    cards = [s * 13 + r for s in range(suits) for r in range(13)]
    rng.shuffle(cards)
    n = rules.columns
    k = rng.randint(1, 3)
    cols = [tuple(cards[i :: n - k]) for i in range(n - k)] + [()] * k
    rng.shuffle(cols)
    down = tuple(rng.randint(0, max(0, len(c) - 1)) if rules.face_down_rows else 0 for c in cols)
    found = tuple(0 if s < suits else 13 for s in range(4))
    return State(rules, tuple(cols), down, found, (), (), ())


def stock_deal(rules, rng, suits: int, stock: int) -> State:
    """``suits`` suits, ``stock`` of their cards in the stock (with Westcliff, half of them
    in the waste), the rest over the columns (random face-down counts): the relaxation
    then deals the stock row by row, or takes the waste top first."""
    cards = [s * 13 + r for s in range(suits) for r in range(13)]
    rng.shuffle(cards)
    n = rules.columns
    rest = cards[stock:]
    cols = tuple(tuple(rest[i::n]) for i in range(n))
    down = tuple(rng.randint(0, max(0, len(c) - 1)) if rules.face_down_rows else 0 for c in cols)
    found = tuple(0 if s < suits else 13 for s in range(4))
    if rules.stock == "waste":
        # Westcliff: part of it already dealt to the waste.
        half = stock // 2
        return State(rules, cols, down, found, (), tuple(cards[half:stock]), tuple(cards[:half]))
    return State(rules, cols, down, found, (), tuple(cards[:stock]), ())


@pytest.mark.parametrize("item", NO_CELLS, ids=rule_id)
def test_dead_positions_are_lost(item):
    preset, options = item
    rules = get_rules(preset, options)
    rng = random.Random(f"dead{preset}{options}")
    deal = DEALS[(preset, tuple(sorted(options)))]
    deck = list(deal) if isinstance(deal, list) else deck_from_seed(deal)
    win = solve(rules, deck, time_budget=None, node_budget=50_000, shorten=False)
    positions = list(endgames(rules, deck, win.moves, 60, rng))
    positions += [mini_deal(rules, rng, suits=2 + n % 2) for n in range(40)]
    positions += [loose_deal(rules, rng, suits=2 + n % 2) for n in range(120)]
    positions += [stock_deal(rules, rng, 2, rng.choice((3, 7, 10, 14))) for n in range(150)]
    dead = lost = 0
    for state in positions:
        if not _dead(state):
            continue
        dead += 1
        plain = solve_state(
            state, time_budget=None, node_budget=4_000, shorten=False, pruning=False
        )
        assert plain.verdict != "winnable", state
        lost += plain.verdict == "unwinnable"
    assert lost >= 3, (dead, lost)


def test_no_dead_check_without_pruning_or_with_cells():
    state = build("easthaven", ["AS 2S", "KS QS JS TS 9S 8S 7S 6S 5S 4S 3S"], (0, 13, 13, 13))
    assert Search(state).dead_check
    assert not Search(state, pruning=False).dead_check
    sea = new_game(get_rules("seahaven"), deck_from_seed(1))
    assert not Search(sea).dead_check


def test_each_way_out_of_the_relaxation():
    spades = "KS QS JS TS 9S 8S 7S 6S 5S 4S"
    # 2S lies under 3S in its own column, the AS under both, the red 3s and 4s are home:
    # with King-only spaces nothing ever moves.
    assert _dead(build("easthaven", ["AS 3S 2S", spades], (0, 13, 13, 13)))
    # (a) the Ace is on top: everything goes home in order.
    assert not _dead(build("easthaven", ["AS", spades + " 3S 2S"], (0, 13, 13, 13)))
    # (b) 3S over the Ace may go onto the 4H, a top card; without the hearts it may not.
    hearts = "KH QH JH TH 9H 8H 7H 6H 5H 4H"
    assert not _dead(build("easthaven", ["AS 3S", spades + " 2S", hearts], (0, 3, 13, 13)))
    assert _dead(build("easthaven", ["AS 3S", spades + " 2S"], (0, 13, 13, 13)))
    # (c) open spaces: 3S and 2S go to spaces.
    assert not _dead(build("easthaven-open", ["AS 2S 3S", spades], (0, 13, 13, 13)))
    # (d) 5S 4H, the column's face-up cards, move together onto the 6H and free the AH
    # (4H alone could go nowhere); not when the face-up cards are no run (6S 5S 4H)
    # and only the top card may move.
    ok = [
        "AH 5S 4H",
        "KH QH JH TH 9H 8H 7H 6H",
        "KS QS JS TS 9S 8S 7S 6S",
        "5H 3H 2H",
        "4S 3S 2S AS",
    ]
    state = build("easthaven", ok, (0, 0, 13, 13), down=(1,))
    assert not _dead(state)
    assert solve_state(state, None, 20_000, pruning=False).verdict == "winnable"
    broken = ["AH 6S 5S 4H", "KH QH JH TH 9H 8H 7H 6H", "KS QS JS TS 9S 8S 7S"]
    broken += ["5H 3H 2H", "4S 3S 2S AS"]
    state = build("easthaven", broken, (0, 0, 13, 13), down=(1,))
    assert _dead(state)
    assert solve_state(state, None, 20_000, pruning=False).verdict == "unwinnable"


def test_westcliff_stock_cards_must_leave_the_waste():
    """A Westcliff stock card is no accessible card for free: it must leave the waste's
    top by (a)-(c) like a waste card.  Here the 5H, the only card the 4S over the AH
    fits on, can go nowhere (the 6S is buried, no space): dead, and lost indeed; with the
    6S on top the 5H leaves onto it and the position is not dead."""
    cols = ["AH 4S", "AS KH", "2S KS", "3S 6H 2H", "5S 4H", "3H 9H 8S"]
    rest = "7S 9S TS 7H 8H TH JH QH QS JS"
    found = (0, 0, 13, 13)
    stuck = build("westcliff-classic", cols + ["6S " + rest], found, stock="5H")
    assert _dead(stuck)
    plain = solve_state(stuck, time_budget=None, node_budget=20_000, pruning=False)
    assert plain.verdict == "unwinnable"
    free = build("westcliff-classic", cols + [rest + " 6S"], found, stock="5H")
    assert not _dead(free)
    assert same_verdict(free, 20_000) is not None


def test_dead_cuts_a_real_easthaven_proof():
    """Seed 5 of ``easthaven``: lost, and the relaxation shortens the proof a lot."""
    rules = get_rules("easthaven")
    result = solve(rules, deck_from_seed(5), time_budget=None, node_budget=50_000, shorten=False)
    assert result.verdict == "unwinnable"
    assert result.nodes < 20_000


# ---------------------------------------------------------------- columns no deal reaches


def _played_to(rules, deck, dealt: int) -> tuple:
    """A position of ``deck`` with ``dealt`` stock cards dealt (deals only)."""
    search = Search(new_game(rules, deck))
    st = search.start
    while st[4] < dealt:
        st = search.apply(st, (DEAL, DEAL, 0))
    return search, st


def _permuted(st, perm) -> tuple:
    cols, down = st[0], st[1]
    return (
        tuple(cols[p] for p in perm),
        tuple(down[p] for p in perm),
        *st[2:],
    )


def test_columns_no_deal_reaches_are_sorted_in_keys():
    rules = get_rules("easthaven")
    deck = deck_from_seed(3)
    search, st = _played_to(rules, deck, 31)
    assert search.key(_permuted(st, (6, 5, 4, 3, 2, 1, 0))) == search.key(st)
    search, st = _played_to(rules, deck, 28)
    assert search.fixed[28] == 3
    assert search.key(_permuted(st, (0, 1, 2, 6, 5, 4, 3))) == search.key(st)
    assert search.key(_permuted(st, (1, 0, 2, 3, 4, 5, 6))) != search.key(st)
    search, st = _played_to(rules, deck, 21)
    assert search.key(_permuted(st, (0, 1, 2, 3, 4, 6, 5))) != search.key(st)
    plain = Search(new_game(rules, deck), pruning=False)
    st31 = _played_to(rules, deck, 31)[1]
    assert plain.key(_permuted(st31, (6, 5, 4, 3, 2, 1, 0))) != plain.key(st31)


def test_only_the_first_space_no_deal_reaches_is_a_target():
    # Stock empty: t1, t3 and t6 are spaces, interchangeable: only t1 is a target, and
    # the columns KS QH and KH QS do not move as a whole into it (a permutation).
    cols = ["KS QH", "", "AS 2S 3S", "", "KH QS", "JD TC"]
    state = build("easthaven-open", cols, (0, 13, 0, 13), down=(0, 0, 0))
    search = Search(state)
    search.dead_check = False  # the generator alone
    spaces = [m[1:] for m in search.moves(search.start) if m[2] in (1, 3, 6) and m[1] != DEAL]
    assert {dst for _, dst, _ in spaces} == {1}
    assert (0, 1, 2) not in spaces and (4, 1, 2) not in spaces
    assert (0, 1, 1) in spaces  # QH alone is a real move
    plain = Search(state, pruning=False)
    exact = [m[1:] for m in plain.moves(plain.start) if m[2] in (1, 3, 6) and m[1] != DEAL]
    assert (0, 3, 2) in exact and (4, 1, 2) in exact
