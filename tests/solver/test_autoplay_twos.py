"""Safe auto-play of twos (alternate colours): a two goes home as soon as its ace is, even
while the aces of the other colour, the only cards that fit on it, are still out (an ace
goes home whenever it is free, so no win needs one on a two).  Checked on the rule itself,
on a hand-made opening, and against the plain search (``pruning=False``, no auto-play) on
small random positions where it applies."""

from __future__ import annotations

import random

import pytest

from games.engine import State, get_rules, parse_card
from games.solver.core import Search

from .helpers import build, same_verdict


def card(name: str) -> int:
    return parse_card(name)


def test_a_two_is_safe_once_its_ace_is_home():
    search = Search(build("easthaven-open", ["KS"], (1, 0, 0, 13)))
    found = (1, 0, 0, 13)  # AS home; AH and AD out, clubs done
    assert search.safe(card("2S"), found)
    assert not search.safe(card("2H"), found)  # its ace is out: not next on its foundation
    assert not search.safe(card("3S"), (2, 0, 1, 13))  # the 2H may be needed on it
    assert search.safe(card("3S"), (2, 2, 2, 13))


def test_the_opening_plays_the_two_over_a_buried_ace():
    # The 2S lies on the AH it could hold; it goes home at once, and then the AH; then
    # the 3S, since the 2H that fits on it is next (see test_autoplay_next).
    state = build("easthaven-open", ["KH AH 2S", "QS JH", "4S 3S"], (1, 0, 13, 13))
    search = Search(state)
    path: list = []
    start = search.opening(path)
    assert path == [(0, 30, 1), (0, 30, 1), (2, 30, 1)]
    assert start[2] == (3, 1, 13, 13)
    assert tuple(start[0][0]) == (card("KH"),)


def three_suits(rules, rng) -> State:
    """Spades, hearts and diamonds over the columns, the AS home (so the 2S is safe while
    both red aces are out), clubs done, random face-down counts, part of it in the stock."""
    cards = [s * 13 + r for s in range(3) for r in range(13) if (s, r) != (0, 0)]
    rng.shuffle(cards)
    stock = rng.choice((0, 3, 7))
    rest = cards[stock:]
    n = rules.columns
    cols = tuple(tuple(rest[i::n]) for i in range(n))
    down = tuple(rng.randint(0, max(0, len(c) - 2)) for c in cols)
    return State(rules, cols, down, (1, 0, 0, 13), (), tuple(cards[:stock]), ())


@pytest.mark.parametrize("preset", ["easthaven-open", "easthaven", "westcliff-classic"])
def test_same_verdicts_as_the_plain_search(preset):
    rules = get_rules(preset, {})
    rng = random.Random(f"twos{preset}")
    decided = 0
    for _ in range(40):
        if same_verdict(three_suits(rules, rng), 6_000) is not None:
            decided += 1
    assert decided >= 10
