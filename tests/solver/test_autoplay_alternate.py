"""Safe auto-play with alternate colours (``Search.safe``): a card goes home at once while
the cards that fit on it (the other colour's ``rank - 1``) are home or *next* on their
foundations, and, if one is next, its own colour's other ``rank - 2`` is home or next too:
a win that puts such a card on it can send that card home instead.  Twos are the first
case: only aces fit on them, and an ace is next once it is out.  Checked on the rule's
boundaries, on hand-made openings, and against the plain search (``pruning=False``, no
auto-play) on small random positions where the rule applies: twos over the red aces, and
cards whose fitting cards are next where the older rule (all of them home) kept them out."""

from __future__ import annotations

import random

import pytest

from games.engine import State, get_rules, parse_card
from games.solver.core import OTHER_COLOUR, RANK, SUIT, Search

from .helpers import build, same_verdict

PRESETS = ["easthaven-open", "easthaven", "westcliff-classic"]


def card(name: str) -> int:
    return parse_card(name)


def spread(rules, rng, found: tuple) -> State:
    """The cards not on the foundations ``found`` over the columns, random face-down
    counts, part of them in the stock."""
    cards = [s * 13 + k for s in range(4) for k in range(found[s], 13)]
    rng.shuffle(cards)
    stock = rng.choice((0, 3, 7))
    rest = cards[stock:]
    n = rules.columns
    cols = tuple(tuple(rest[i::n]) for i in range(n))
    down = tuple(rng.randint(0, max(0, len(c) - 2)) for c in cols)
    return State(rules, cols, down, found, (), tuple(cards[:stock]), ())


def opening(state: State) -> tuple[list, tuple]:
    """The moves that settle ``state``'s start (auto-play) and the settled position."""
    path: list = []
    return path, Search(state).opening(path)


def fits_home(c: int, found) -> bool:
    """The older rule: next on its foundation, and every card that fits on it home."""
    a, b = OTHER_COLOUR[SUIT[c]]
    return found[SUIT[c]] == RANK[c] and min(found[a], found[b]) >= RANK[c]


# ---------------------------------------------------------------- twos


def test_a_two_is_safe_once_its_ace_is_home():
    search = Search(build("easthaven-open", ["KS"], (1, 0, 0, 13)))
    found = (1, 0, 0, 13)  # AS home; AH and AD out, clubs done
    assert search.safe(card("2S"), found)
    assert not search.safe(card("2H"), found)  # its ace is out: not next on its foundation
    assert not search.safe(card("3S"), (2, 0, 1, 13))  # the 2H may be needed on it
    assert search.safe(card("3S"), (2, 2, 2, 13))


def test_the_opening_plays_the_two_over_a_buried_ace():
    # The 2S lies on the AH it could hold; it goes home at once, and then the AH; then
    # the 3S, since the 2H that fits on it is next.
    path, start = opening(build("easthaven-open", ["KH AH 2S", "QS JH", "4S 3S"], (1, 0, 13, 13)))
    assert path == [(0, 30, 1), (0, 30, 1), (2, 30, 1)]
    assert start[2] == (3, 1, 13, 13)
    assert tuple(start[0][0]) == (card("KH"),)


@pytest.mark.parametrize("preset", PRESETS)
def test_twos_keep_the_verdicts_of_the_plain_search(preset):
    # Spades, hearts and diamonds in play, the AS home (so the 2S is safe while both red
    # aces are out), clubs done.
    rules = get_rules(preset, {})
    rng = random.Random(f"twos{preset}")
    decided = 0
    for _ in range(40):
        if same_verdict(spread(rules, rng, (1, 0, 0, 13)), 6_000) is not None:
            decided += 1
    assert decided >= 10


# ---------------------------------------------------------------- cards that fit are next


def test_the_cards_that_fit_may_be_next_instead_of_home():
    search = Search(build("easthaven-open", ["KS"], (4, 3, 3, 2)))
    # 5S: the 4H and 4D that fit on it are next, and so is the 3C that fits on them.
    assert search.safe(card("5S"), (4, 3, 3, 2))
    assert search.safe(card("5S"), (4, 3, 4, 3))  # one home, one next, 3C home
    # The 3C is out and not next (2C out too): it could be needed on a red four.
    assert not search.safe(card("5S"), (4, 3, 3, 1))
    # The 3H is out: the 4H is not next, and may be needed on the 5S.
    assert not search.safe(card("5S"), (4, 2, 3, 13))
    assert not search.safe(card("5S"), (3, 3, 3, 13))  # the 5S itself is not next
    # Same-suit builds: next is enough, as before.
    suit = Search(build("easthaven-suit", ["KS"], (4, 0, 0, 0)))
    assert suit.safe(card("5S"), (4, 0, 0, 0))


def test_the_opening_plays_the_card_and_then_the_ones_that_were_next():
    # The 5S waits on the 4H (next) and the 3C (next); all three go home.
    path, start = opening(build("easthaven-open", ["KH 5S", "QS 4H", "JD 3C"], (4, 3, 13, 2)))
    assert start[2] == (5, 4, 13, 3)
    assert len(path) == 3


def next_foundations(rng) -> tuple:
    """Foundations where the rule applies to some card the older rule keeps out: a suit
    at ``r``, the other colour at ``r - 1``, the twin at ``r - 2`` or ``r - 1``."""
    r = rng.randint(5, 9)
    found = [r, r - 1, r - 1, r - rng.choice((1, 2))]
    turn = rng.randrange(4)  # which suit plays the part of spades
    if turn % 2:
        found = [found[1], found[0], found[3], found[2]]
    if turn >= 2:
        found = found[::-1]
    return tuple(found)


def newly_safe(search: Search, found) -> bool:
    return any(search.safe(c, found) and not fits_home(c, found) for c in range(52))


@pytest.mark.parametrize("preset", PRESETS)
def test_next_cards_keep_the_verdicts_of_the_plain_search(preset):
    rules = get_rules(preset, {})
    rng = random.Random(f"next{preset}")
    decided = applied = 0
    for _ in range(40):
        state = spread(rules, rng, next_foundations(rng))
        if newly_safe(Search(state), state.found):
            applied += 1
        if same_verdict(state, 6_000) is not None:
            decided += 1
    assert applied >= 30
    assert decided >= 10
