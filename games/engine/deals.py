"""Where decks come from.

A deck is a tuple of the 52 cards, ``deck[0]`` dealt first (RULES.md, "The deal").

* **Explicit**: :func:`parse_deck` takes card names (``"TH"``, ``"10h"``), refusing anything
  that is not 52 distinct cards.
* **Seeded** (:func:`deck_from_seed`): a Fisher–Yates shuffle of the sorted deck
  (``AS … KS, AH … KH, AD … KD, AC … KC``), for ``i`` from 51 down to 1 swapping card ``i``
  with card ``j``, ``j`` uniform in ``0 … i``.  The random numbers are SplitMix64 outputs
  from the seed, and ``j`` is drawn by rejection (outputs at or above the largest multiple
  of ``i + 1`` below 2**64 are skipped), so there is no modulo bias.  The algorithm is
  written out here rather than borrowed from :mod:`random`, whose shuffle Python may change
  between versions: seed ``n`` gives the same deck forever (``SEED_SHUFFLE_VERSION``).
* **PySolFC game numbers** (:func:`deck_from_pysol`): the ``pysol-cards`` package's PySolFC
  deal mode, i.e. PySolFC's own shuffle (the Microsoft-compatible generator up to 32000,
  Mersenne Twister above).  PySolFC deals from that list in the same order as RULES.md lays
  cards out (row by row from ``t0``; for Seahaven Towers the last two cards to ``c1`` and
  ``c2``), so ``pysol_deal=N`` shows the tableau of PySolFC's game N.  The PySolFC games
  are Easthaven (the Easthaven presets: two rows face down, one face up, then rows dealt
  from the talon in the same order), Westcliff (``westcliff``) and Eastcliff
  (``westcliff-classic``, its seven-column form) and Seahaven Towers (``seahaven``; checked
  card for card against ``pysol-cards``' rendering in the tests).  One difference: PySolFC's
  Westcliff and Eastcliff turn the first stock card onto the waste as part of the deal;
  here that card stays the next stock card and the player's first ``deal`` turns it, so the
  waste starts empty as RULES.md says.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from .cards import NUM_CARDS, SUITS, card, card_names, parse_card
from .errors import DeckError

SEED_SHUFFLE_VERSION = 1
MAX_SEED = 2**63 - 1
MAX_PYSOL_DEAL = 2**63 - 1
_MASK = 2**64 - 1


def parse_deck(names: Iterable[str]) -> tuple[int, ...]:
    """Card names → deck; ``DeckError("invalid_deck")`` unless they are 52 distinct cards."""
    if isinstance(names, str) or not isinstance(names, Iterable):
        raise DeckError("invalid_deck", "a deck is a list of 52 card names")
    deck = []
    for position, name in enumerate(names):
        try:
            deck.append(parse_card(name))
        except ValueError as error:
            raise DeckError("invalid_deck", f"card {position}: {error}") from None
    if len(deck) != NUM_CARDS:
        raise DeckError("invalid_deck", f"a deck has 52 cards, not {len(deck)}")
    seen: set[int] = set()
    for c in deck:
        if c in seen:
            raise DeckError("invalid_deck", f"{card_names([c])[0]} appears twice")
        seen.add(c)
    return tuple(deck)


def format_deck(deck: Iterable[int]) -> list[str]:
    return card_names(deck)


def _splitmix64(seed: int) -> Iterator[int]:
    state = seed & _MASK
    while True:
        state = (state + 0x9E3779B97F4A7C15) & _MASK
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        yield z ^ (z >> 31)


def deck_from_seed(seed: int) -> tuple[int, ...]:
    """The deck of ``seed`` (0 … 2**63 − 1) by the version-stable shuffle described above."""
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MAX_SEED:
        raise DeckError("seed_out_of_range", f"a seed is an integer from 0 to {MAX_SEED}")
    numbers = _splitmix64(seed)
    deck = list(range(NUM_CARDS))
    for i in range(NUM_CARDS - 1, 0, -1):
        bound = i + 1
        limit = (2**64 // bound) * bound
        x = next(numbers)
        while x >= limit:
            x = next(numbers)
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return tuple(deck)


def deck_from_pysol(number: int) -> tuple[int, ...]:
    """The deck of PySolFC game ``number`` (1 … 2**63 − 1), in dealing order."""
    if isinstance(number, bool) or not isinstance(number, int) or not 1 <= number <= MAX_PYSOL_DEAL:
        raise DeckError(
            "deal_out_of_range", f"a PySol deal number is an integer from 1 to {MAX_PYSOL_DEAL}"
        )
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    game = Game("seahaven", number, RandomBase.DEALS_PYSOLFC)
    game.deal()  # shuffles and reverses: game.cards is in dealing order
    return tuple(card(SUITS.index(c.suit_s()), c.rank - 1) for c in game.cards)
