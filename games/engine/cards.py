"""Cards as small integers.

A card is ``suit * 13 + rank`` with ``rank`` 0 (Ace) … 12 (King) and ``suit`` the index
in ``SUITS`` (spades, hearts, diamonds, clubs).  Integers keep states small and hashing
cheap, which matters to the solver; the text form (``"TH"``) exists only at the edges.
"""

from __future__ import annotations

from collections.abc import Iterable

RANKS = "A23456789TJQK"
SUITS = "SHDC"
NUM_CARDS = 52

RANK = tuple(c % 13 for c in range(NUM_CARDS))
SUIT = tuple(c // 13 for c in range(NUM_CARDS))
#: True for hearts and diamonds.
RED = tuple(SUIT[c] in (1, 2) for c in range(NUM_CARDS))
NAMES = tuple(RANKS[RANK[c]] + SUITS[SUIT[c]] for c in range(NUM_CARDS))

_BY_NAME = {name: c for c, name in enumerate(NAMES)}
_BY_NAME.update({"10" + s: _BY_NAME["T" + s] for s in SUITS})


def card(suit: int, rank: int) -> int:
    """The card of ``suit`` (index in ``SUITS``) and ``rank`` (0 = Ace)."""
    return suit * 13 + rank


def parse_card(text: str) -> int:
    """``"TH"``, ``"10h"`` or ``"ah"`` → card; raise ``ValueError`` for anything else."""
    if not isinstance(text, str):
        raise ValueError(f"a card is a string such as 'TH', not {type(text).__name__}")
    try:
        return _BY_NAME[text.strip().upper()]
    except KeyError:
        raise ValueError(f"{text!r} is not a card (rank A23456789TJQK, suit SHDC)") from None


def card_name(c: int) -> str:
    return NAMES[c]


def card_names(cards: Iterable[int]) -> list[str]:
    return [NAMES[c] for c in cards]
