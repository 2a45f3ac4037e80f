"""Canonical keys of a deck: one game, however it is disguised, has the same keys.

The service refuses a practice play of a daily deal whose ranked window is still open
(docs/fair-play-rules.md). A cheater may disguise the deck: send it under another preset or
options, relabel the suits, or reorder what the rules never look at. So a deck is compared
by keys that are the same for every such disguise:

* **Suits relabelled**: every one of the 24 permutations of the suits. For the same-suit
  presets all 24 keep the game; for the alternate-colour ones only the 8 that keep the
  colours do, but refusing the other 16 as well costs nothing (a random deck meets a given
  one's class with odds below 10⁻⁵⁹).
* **Piles the rules never tell apart**, per dealing geometry of the presets (a deck is
  keyed under every geometry, whatever preset it is sent with):

  - columns interchangeable (Westcliff, Seahaven; ``Rules.columns_interchangeable``): the
    columns in any order, the two starting cell cards of Seahaven in either order, the
    stock as dealt (its order is the game);
  - Easthaven (the stock dealt in rows): a stock card always lands on the column of its
    deck position modulo the column count, so a column and the stock cards it will get are
    one unit; the units may be reordered as long as the three that get the last, short row
    stay those three (``t0``–``t2``).

  Within a column the order always matters (face-down cards are turned top first; a
  Seahaven column's order is its play).

A key is ``geometry:digest`` of the smallest encoding over the 24 relabellings, where each
encoding is the geometry's layout with its interchangeable piles sorted.
"""

from __future__ import annotations

import hashlib
import itertools
from collections.abc import Sequence

from .presets import PRESETS, STOCK_ROWS, Rules


def _relabellings() -> tuple[bytes, ...]:
    """The 24 suit permutations as ``bytes.translate`` tables over card numbers."""
    tables = []
    for order in itertools.permutations(range(4)):
        table = bytearray(range(256))
        for card in range(52):
            table[card] = order[card // 13] * 13 + card % 13
        tables.append(bytes(table))
    return tuple(tables)


_RELABELLINGS = _relabellings()
_END = b"\xff"  # ends a pile in an encoding (no card is 255)


def _geometry(rules: Rules) -> tuple[int, int, int, bool, bool]:
    dealt_to_cells = 2 if rules.cells else 0
    return (
        rules.columns,
        rules.rows,
        dealt_to_cells,
        rules.stock == STOCK_ROWS,
        rules.columns_interchangeable,
    )


#: The presets' distinct dealing geometries, by name (the first preset that has it).
GEOMETRIES: dict[str, tuple[int, int, int, bool, bool]] = {}
for _rules in PRESETS.values():
    if _geometry(_rules) not in GEOMETRIES.values():
        GEOMETRIES[_rules.name] = _geometry(_rules)


def _layout(deck: bytes, geometry: tuple[int, int, int, bool, bool]) -> bytes:
    """``deck`` under ``geometry`` with the piles its rules cannot tell apart sorted."""
    columns, rows, cells, stock_in_rows, interchangeable = geometry
    if stock_in_rows:
        # Column c and every stock card dealt onto it: deck[c], deck[c + N], ...
        units = sorted(deck[c::columns] for c in range(columns))
        return _END.join(units)
    dealt = columns * rows
    piles = [deck[c:dealt:columns] for c in range(columns)]
    if interchangeable:
        piles.sort()
    start = bytes(sorted(deck[dealt : dealt + cells]))
    return _END.join([*piles, start, deck[dealt + cells :]])


def deal_keys(deck: Sequence[int]) -> frozenset[str]:
    """The keys of ``deck`` (52 card numbers): equal for any two disguises of one game."""
    raw = bytes(deck)
    keys = set()
    for name, geometry in GEOMETRIES.items():
        smallest = min(_layout(raw.translate(table), geometry) for table in _RELABELLINGS)
        keys.add(f"{name}:{hashlib.sha256(smallest).hexdigest()[:32]}")
    return frozenset(keys)
