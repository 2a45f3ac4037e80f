"""An independent, deliberately naive implementation of /work/shared/RULES.md.

Written from RULES.md (and the seed texts where it is silent) without reading the engine's
move logic, so that the conformance tests compare two readings of the rules rather than one
piece of code with itself.  It shares nothing with ``games.engine``: cards are strings
(``"TH"``), columns are lists of ``[card, face_up]`` pairs, and the legal moves are found by
brute force — every (from, to, count) is tried against the rules, written out one by one.

Slow on purpose; clarity over speed.  Refusals carry a *reason* of this module's own (see
``REASONS``); the tests map them onto the engine's codes where the mapping is one to one.
"""

from __future__ import annotations

import copy

RANKS = "A23456789TJQK"
SUITS = "SHDC"

# ---------------------------------------------------------------------------------------
# Presets, as the table in RULES.md "Presets" states them.
# ---------------------------------------------------------------------------------------

PRESETS = {
    "easthaven": dict(
        columns=7,
        rows=3,
        face_down=2,
        stock="rows",
        build="alternate",
        space="king",
        runs="top_or_all",
        cells=0,
        king_fill=True,
        options=("partial_runs",),
    ),
    "easthaven-open": dict(
        columns=7,
        rows=3,
        face_down=2,
        stock="rows",
        build="alternate",
        space="any",
        runs="top_or_all",
        cells=0,
        king_fill=False,
        options=("partial_runs",),
    ),
    "easthaven-suit": dict(
        columns=7,
        rows=3,
        face_down=2,
        stock="rows",
        build="suit",
        space="any",
        runs="top_or_all",
        cells=0,
        king_fill=False,
        options=("partial_runs",),
    ),
    "westcliff": dict(
        columns=10,
        rows=3,
        face_down=2,
        stock="waste",
        build="alternate",
        space="any",
        runs="top_or_all",
        cells=0,
        king_fill=False,
        options=("partial_runs",),
    ),
    "westcliff-classic": dict(
        columns=7,
        rows=3,
        face_down=2,
        stock="waste",
        build="alternate",
        space="any",
        runs="top_or_all",
        cells=0,
        king_fill=False,
        options=("partial_runs",),
    ),
    "seahaven": dict(
        columns=10,
        rows=5,
        face_down=0,
        stock="none",
        build="suit",
        space="king",
        runs="supermove",
        cells=4,
        king_fill=False,
        options=("classic_supermove",),
    ),
}

#: Every reason this module may give for refusing a move.
REASONS = (
    "no_such_pile",  # the preset lacks the pile (t7 in Easthaven, w in Seahaven, c0 …)
    "from_foundation",  # foundation cards never come back
    "stock_pile",  # cards never move from or to the stock by a "move"
    "to_waste",  # nothing is ever put on the waste by a "move"
    "same_pile",  # from and to are the same pile
    "empty_source",  # nothing to move
    "bad_count",  # count not possible from that source / to that target
    "not_a_run",  # the cards named are not a run that may move together
    "supermove_limit",  # Seahaven: more cards than cells and spaces allow
    "foundation",  # card does not go on its foundation now
    "build",  # head card does not fit the target column's top card
    "space",  # the empty column does not take that card
    "cell_full",  # the target cell holds a card
    "no_stock",  # deal with no stock or an empty one
    "king_fill",  # Easthaven: fill the spaces with Kings first
)


_IDS: dict[str, list[str]] = {}


def _pile_ids(preset: str) -> list[str]:
    if preset not in _IDS:
        p = PRESETS[preset]
        ids = [f"t{i}" for i in range(p["columns"])] + ["f"]
        ids += [f"c{i}" for i in range(p["cells"])]
        if p["stock"] == "waste":
            ids.append("w")
        if p["stock"] != "none":
            ids.append("s")
        _IDS[preset] = ids
    return _IDS[preset]


def rank(card: str) -> int:
    """1 for an Ace … 13 for a King."""
    return RANKS.index(card[0]) + 1


def suit(card: str) -> str:
    return card[1]


def is_red(card: str) -> bool:
    return card[1] in "HD"


def normalise(card: str) -> str:
    """Accept ``10H`` and lower case on input; always answer ``TH``."""
    card = card.strip().upper()
    if card.startswith("10"):
        card = "T" + card[2:]
    assert len(card) == 2 and card[0] in RANKS and card[1] in SUITS, card
    return card


class Game:
    """One position of one preset with one option set."""

    def __init__(self, preset: str, options: dict | None = None) -> None:
        self.preset = preset
        self.p = PRESETS[preset]
        options = dict(options or {})
        for name in options:
            assert name in self.p["options"], f"{preset} has no option {name}"
        self.partial_runs = bool(options.get("partial_runs", False))
        self.classic_supermove = bool(options.get("classic_supermove", False))
        n = self.p["columns"]
        self.cols: list[list[list]] = [[] for _ in range(n)]  # [card, face_up], bottom first
        self.found = {s: 0 for s in SUITS}  # cards on each foundation
        self.cells: list[str | None] = [None] * self.p["cells"]
        self.stock: list[str] = []  # next card out first
        self.waste: list[str] = []  # top card last

    # -- the deal ------------------------------------------------------------------------

    @classmethod
    def deal_from_deck(cls, preset: str, deck: list[str], options: dict | None = None) -> Game:
        """RULES.md "The deal, from a deck order"."""
        deck = [normalise(c) for c in deck]
        assert len(deck) == 52 and len(set(deck)) == 52
        g = cls(preset, options)
        n = g.p["columns"]
        if preset == "seahaven":
            for r in range(5):
                for c in range(10):
                    g.cols[c].append([deck[r * 10 + c], True])
            g.cells = [None, deck[50], deck[51], None]
            return g
        for r in range(3):
            for c in range(n):
                g.cols[c].append([deck[r * n + c], r == 2])
        g.stock = deck[3 * n :]
        return g

    def copy(self) -> Game:
        g = copy.copy(self)
        g.cols = [[[card, up] for card, up in col] for col in self.cols]
        g.found = dict(self.found)
        g.cells = list(self.cells)
        g.stock = list(self.stock)
        g.waste = list(self.waste)
        return g

    # -- piles ---------------------------------------------------------------------------

    def pile_ids(self) -> list[str]:
        """The piles this preset has (the same list for every position of the preset)."""
        return _pile_ids(self.preset)

    def face_up(self, i: int) -> list[str]:
        return [card for card, up in self.cols[i] if up]

    def is_run(self, cards: list[str]) -> bool:
        """Descending by one, built as the preset builds (first card the highest)."""
        for hi, lo in zip(cards, cards[1:]):
            if not self.fits_on(lo, hi):
                return False
        return True

    def fits_on(self, card: str, target: str) -> bool:
        if rank(card) != rank(target) - 1:
            return False
        if self.p["build"] == "alternate":
            return is_red(card) != is_red(target)
        return suit(card) == suit(target)

    def empty_cells(self) -> int:
        return sum(1 for c in self.cells if c is None)

    def empty_columns(self, besides: int | None = None) -> int:
        return sum(1 for i, col in enumerate(self.cols) if not col and i != besides)

    # -- checking one move ---------------------------------------------------------------

    def refusal(self, move: dict) -> str | None:
        """``None`` if ``move`` is legal here, else this module's reason for refusing it."""
        if move["type"] == "deal":
            return self.deal_refusal()
        assert move["type"] == "move"
        src, dst, count = move["from"], move["to"], move.get("count", 1)
        ids = self.pile_ids()
        if src not in ids or dst not in ids:
            return "no_such_pile"
        if src == "f":
            return "from_foundation"
        if src == "s" or dst == "s":
            return "stock_pile"
        if dst == "w":
            return "to_waste"
        if src == dst:
            return "same_pile"

        # What would move: the cards, top part of the source pile, highest first.
        if src[0] == "t":
            i = int(src[1:])
            if not self.cols[i]:
                return "empty_source"
            up = self.face_up(i)
            if count > len(up):
                return "bad_count" if count > len(self.cols[i]) else "not_a_run"
            cards = up[len(up) - count :]
            if not self.is_run(cards):
                return "not_a_run"
            if self.p["runs"] == "top_or_all" and not self.partial_runs:
                if count != 1 and count != len(up):
                    return "not_a_run"
        elif src[0] == "c":
            card = self.cells[int(src[1:])]
            if card is None:
                return "empty_source"
            if count != 1:
                return "bad_count"
            cards = [card]
        else:  # waste: only its top card is played
            if not self.waste:
                return "empty_source"
            if count != 1:
                return "bad_count"
            cards = [self.waste[-1]]

        head = cards[0]
        if dst == "f":
            if count != 1:
                return "bad_count"
            if rank(head) != self.found[suit(head)] + 1:
                return "foundation"
            return None
        if dst[0] == "c":
            if count != 1:
                return "bad_count"
            if self.cells[int(dst[1:])] is not None:
                return "cell_full"
            return None
        # To a column.
        j = int(dst[1:])
        if self.cols[j]:
            if not self.fits_on(head, self.cols[j][-1][0]):
                return "build"
        elif self.p["space"] == "king" and rank(head) != 13:
            return "space"
        if self.p["runs"] == "supermove" and count > 1:
            k = self.empty_cells()
            e = self.empty_columns(besides=j)
            limit = k + 1 if self.classic_supermove else (k + 1) * 2**e
            if count > limit:
                return "supermove_limit"
        return None

    def refusals(self, move: dict) -> set[str]:
        """Every reason that refuses ``move`` outright by the piles it names, plus the first
        reason :meth:`refusal` finds: when a move breaks several rules, which one an
        implementation reports first is its own choice."""
        first = self.refusal(move)
        if first is None:
            return set()
        reasons = {first}
        if move["type"] == "move":
            src, dst = move["from"], move["to"]
            ids = self.pile_ids()
            if src not in ids or dst not in ids:
                reasons.add("no_such_pile")
            if src == "f":
                reasons.add("from_foundation")
            if "s" in (src, dst):
                reasons.add("stock_pile")
            if dst == "w":
                reasons.add("to_waste")
            if src == dst:
                reasons.add("same_pile")
            count = move.get("count", 1)
            single = ("w",) + tuple(f"c{i}" for i in range(self.p["cells"]))
            if count != 1 and (src in single or dst == "f" or dst[0] == "c"):
                reasons.add("bad_count")
            if src in ids and self.pile_size(src) == 0:
                reasons.add("empty_source")
            if dst in ids and dst[0] == "c" and self.cells[int(dst[1:])] is not None:
                reasons.add("cell_full")
        return reasons

    def deal_refusal(self) -> str | None:
        if self.p["stock"] == "none" or not self.stock:
            return "no_stock"
        if self.p["king_fill"] and self.king_could_fill():
            return "king_fill"
        return None

    def king_could_fill(self) -> bool:
        """An empty column exists and a King (or King-headed run that may legally move)
        lying on some other card could fill it."""
        for j, target in enumerate(self.cols):
            if target:
                continue
            for i, col in enumerate(self.cols):
                for count in range(1, len(col)):  # len(col): the King would lie on nothing
                    head = col[len(col) - count][0]
                    if rank(head) != 13:
                        continue
                    move = {"type": "move", "from": f"t{i}", "to": f"t{j}", "count": count}
                    if self.refusal(move) is None:
                        return True
        return False

    # -- all legal moves, by brute force -------------------------------------------------

    def candidate_moves(self) -> list[dict]:
        ids = self.pile_ids()
        moves = []
        for src in ids:
            for dst in ids:
                for count in range(1, 53):
                    moves.append({"type": "move", "from": src, "to": dst, "count": count})
        moves.append({"type": "deal"})
        return moves

    def legal_moves(self) -> list[dict]:
        if self.won():
            return []
        moves = []
        ids = self.pile_ids()
        for src in ids:
            # Counts beyond the source's size are refused by the rules above; don't spend
            # time proving it 52 times per pair.
            size = self.pile_size(src)
            for dst in ids:
                for count in range(1, max(size, 1) + 1):
                    move = {"type": "move", "from": src, "to": dst, "count": count}
                    if self.refusal(move) is None:
                        moves.append(move)
        if self.deal_refusal() is None:
            moves.append({"type": "deal"})
        return moves

    def pile_size(self, pile: str) -> int:
        if pile[0] == "t":
            return len(self.cols[int(pile[1:])])
        if pile[0] == "c":
            return 0 if self.cells[int(pile[1:])] is None else 1
        if pile == "w":
            return len(self.waste)
        if pile == "s":
            return len(self.stock)
        return sum(self.found.values())

    # -- applying a move ----------------------------------------------------------------

    def apply(self, move: dict) -> Game:
        """The position after ``move``; ``ValueError(reason)`` if the rules refuse it."""
        reason = self.refusal(move)
        if reason is not None:
            raise ValueError(reason)
        g = self.copy()
        if move["type"] == "deal":
            if g.p["stock"] == "rows":
                for i in range(g.p["columns"]):
                    if not g.stock:
                        break
                    g.cols[i].append([g.stock.pop(0), True])
            else:
                g.waste.append(g.stock.pop(0))
            return g
        src, dst, count = move["from"], move["to"], move.get("count", 1)
        if src[0] == "t":
            col = g.cols[int(src[1:])]
            cards = [c for c, _ in col[len(col) - count :]]
            del col[len(col) - count :]
            if col and not col[-1][1]:
                col[-1][1] = True  # the face-down card turns face up at once
        elif src[0] == "c":
            cards = [g.cells[int(src[1:])]]
            g.cells[int(src[1:])] = None
        else:
            cards = [g.waste.pop()]
        if dst == "f":
            g.found[suit(cards[0])] += 1
        elif dst[0] == "c":
            g.cells[int(dst[1:])] = cards[0]
        else:
            g.cols[int(dst[1:])].extend([c, True] for c in cards)
        return g

    # -- end of the game and the player's view ------------------------------------------

    def won(self) -> bool:
        return sum(self.found.values()) == 52

    def status(self) -> str:
        if self.won():
            return "won"
        if not self.legal_moves():
            return "lost"
        return "playing"

    def all_cards(self) -> list[str]:
        cards = [c for col in self.cols for c, _ in col]
        cards += [c for c in self.cells if c]
        cards += self.stock + self.waste
        for s in SUITS:
            cards += [RANKS[r] + s for r in range(self.found[s])]
        return cards

    def visible(self) -> dict:
        """API.md "A play": what the player may see (no face-down card, no stock order)."""
        view: dict = {
            "tableau": [
                {"down": sum(1 for _, up in col if not up), "up": [c for c, up in col if up]}
                for col in self.cols
            ],
            "foundations": {
                s: (RANKS[self.found[s] - 1] + s if self.found[s] else None) for s in SUITS
            },
        }
        if self.p["cells"]:
            view["cells"] = list(self.cells)
        view["stock"] = len(self.stock)
        if self.p["stock"] == "waste":
            view["waste"] = list(self.waste)
        return view

    def snapshot(self) -> dict:
        """The full position in plain data, for comparing with another implementation."""
        return {
            "cols": [[c for c, _ in col] for col in self.cols],
            "down": [sum(1 for _, up in col if not up) for col in self.cols],
            "found": [self.found[s] for s in SUITS],
            "cells": list(self.cells),
            "stock": list(self.stock),
            "waste": list(self.waste),
        }

    @classmethod
    def from_snapshot(cls, preset: str, data: dict, options: dict | None = None) -> Game:
        g = cls(preset, options)
        g.cols = [
            [[normalise(c), k >= down] for k, c in enumerate(col)]
            for col, down in zip(data["cols"], data["down"])
        ]
        g.found = dict(zip(SUITS, data["found"]))
        g.cells = [normalise(c) if c else None for c in data.get("cells") or []]
        if not g.cells and g.p["cells"]:
            g.cells = [None] * g.p["cells"]
        g.stock = [normalise(c) for c in data.get("stock", [])]
        g.waste = [normalise(c) for c in data.get("waste", [])]
        return g


def canonical(move: dict) -> tuple:
    """A hashable form of a move, ``count`` made explicit."""
    if move["type"] != "move":
        return (move["type"],)
    return ("move", move["from"], move["to"], move.get("count", 1))
