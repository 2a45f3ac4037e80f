"""The deal from a deck order (RULES.md "The deal, from a deck order"), seeded decks and PySol
game numbers."""

from __future__ import annotations

import pytest

from games.engine import (
    EMPTY,
    MAX_SEED,
    PRESETS,
    DeckError,
    deck_from_pysol,
    deck_from_seed,
    format_deck,
    get_rules,
    new_game,
    parse_card,
    parse_deck,
    visible,
)

# -- the layout ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("preset", "columns"),
    [
        ("easthaven", 7),
        ("easthaven-open", 7),
        ("easthaven-suit", 7),
        ("westcliff", 10),
        ("westcliff-classic", 7),
    ],
)
@pytest.mark.parametrize("seed", [0, 1, 99])
def test_easthaven_and_westcliff_layout(preset, columns, seed):
    deck = deck_from_seed(seed)
    s = new_game(get_rules(preset), deck)
    n = columns
    assert len(s.cols) == n
    for c in range(n):
        assert s.cols[c] == (deck[c], deck[n + c], deck[2 * n + c])  # row r, column c: deck[r*N+c]
    assert s.down == (2,) * n  # rows 0 and 1 face down
    assert s.stock == deck[3 * n :] and s.stock[0] == deck[3 * n]  # deck[3N] is next out
    assert len(s.stock) == 52 - 3 * n == get_rules(preset).stock_size
    assert s.waste == () and s.found == (0, 0, 0, 0) and s.cells == ()
    view = visible(s)
    assert [t["up"] for t in view["tableau"]] == [
        [format_deck([deck[2 * n + c]])[0]] for c in range(n)
    ]
    assert view["stock"] == 52 - 3 * n


@pytest.mark.parametrize("seed", [0, 1, 99])
def test_seahaven_layout(seed):
    deck = deck_from_seed(seed)
    s = new_game(get_rules("seahaven"), deck)
    for c in range(10):
        assert s.cols[c] == tuple(deck[r * 10 + c] for r in range(5))  # row 4 on top
    assert s.down == (0,) * 10
    assert s.cells == (EMPTY, deck[50], deck[51], EMPTY)  # deck[50] → c1, deck[51] → c2
    assert s.stock == () and s.waste == ()
    assert visible(s)["cells"][0] is None and visible(s)["cells"][3] is None


def test_layout_from_an_explicit_deck_of_names():
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    deck = parse_deck(names)
    s = new_game(get_rules("easthaven"), deck)
    view = visible(s, with_moves=False)
    # row 2 is deck[14 … 20]: 2H … 8H face up
    assert [t["up"][0] for t in view["tableau"]] == ["2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    assert [t["down"] for t in view["tableau"]] == [2] * 7
    sea = visible(new_game(get_rules("seahaven"), deck), with_moves=False)
    assert sea["cells"] == [None, "QC", "KC", None]
    assert sea["tableau"][0]["up"] == ["AS", "JS", "8H", "5D", "2C"]


def test_parse_deck_accepts_10_and_refuses_bad_decks():
    names = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    with_ten = [n.replace("T", "10") for n in names]
    assert parse_deck(with_ten) == parse_deck(names)
    assert format_deck(parse_deck(with_ten))[9] == "TS"
    for bad in (names[:51], [*names[:51], names[0]], [*names[:51], "ZZ"], "AS 2S", 5):
        with pytest.raises(DeckError):
            parse_deck(bad)
    with pytest.raises(DeckError):
        new_game(get_rules("easthaven"), [0] * 52)
    assert parse_card("10h") == parse_card("TH")


# -- seeded decks ------------------------------------------------------------------------------

#: Pinned: a change here means every stored seed now names another deal.
GOLDEN = {
    0: (["8C", "JD", "9S", "2C", "2H", "QH"], ["KS", "TD"]),
    1: (["7H", "9S", "4H", "8D", "8H", "5C"], ["9D", "7C"]),
    42: (["7S", "3D", "KS", "AC", "2C", "AS"], ["JS", "TS"]),
    20261129: (["2C", "AC", "7H", "5C", "AS", "KH"], ["2D", "KD"]),
    MAX_SEED: (["5S", "JS", "8D", "AD", "TH", "9D"], ["5D", "KC"]),
}


@pytest.mark.parametrize("seed", list(GOLDEN))
def test_seeded_decks_are_pinned(seed):
    deck = format_deck(deck_from_seed(seed))
    assert (deck[:6], deck[-2:]) == GOLDEN[seed]
    assert len(set(deck)) == 52


def _documented_shuffle(seed: int) -> list[int]:
    """The shuffle as deals.py's docstring describes it, written out independently."""
    mask = 2**64 - 1
    state = seed

    def nxt():
        nonlocal state
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        return z ^ (z >> 31)

    deck = list(range(52))
    for i in range(51, 0, -1):
        bound = i + 1
        while True:
            x = nxt()
            if x < (2**64 // bound) * bound:
                break
        j = x % bound
        deck[i], deck[j] = deck[j], deck[i]
    return deck


@pytest.mark.parametrize("seed", [0, 7, 2**32 + 5, MAX_SEED])
def test_seeded_deck_follows_the_documented_algorithm(seed):
    assert list(deck_from_seed(seed)) == _documented_shuffle(seed)


@pytest.mark.parametrize("bad", [-1, MAX_SEED + 1, True, 1.5, "3"])
def test_seed_out_of_range(bad):
    with pytest.raises(DeckError):
        deck_from_seed(bad)


# -- PySol game numbers ------------------------------------------------------------------------


def _pysol_layout(number: int) -> tuple[list[str | None], list[list[str]]]:
    from pysol_cards.cards import CardRenderer
    from pysol_cards.deal_game import Game
    from pysol_cards.random_base import RandomBase

    text = Game("seahaven", number, RandomBase.DEALS_PYSOLFC).calc_layout_string(CardRenderer(True))
    lines = text.strip("\n").split("\n")
    assert lines[0].startswith("Freecells:")
    cells = [None if c == "-" else c for c in lines[0].split()[1:]]
    cells += [None] * (4 - len(cells))
    return cells, [line.split() for line in lines[1:]]


@pytest.mark.parametrize("number", [1977, 1, 24, 31999, 32000, 32001, 123456789])
def test_seahaven_pysol_deal_matches_pysol_cards(number):
    cells, columns = _pysol_layout(number)
    view = visible(new_game(get_rules("seahaven"), deck_from_pysol(number)), with_moves=False)
    assert [t["up"] for t in view["tableau"]] == columns
    assert view["cells"] == cells


def test_seahaven_pysol_deal_1977_pinned():
    view = visible(new_game(get_rules("seahaven"), deck_from_pysol(1977)), with_moves=False)
    assert view["tableau"][0]["up"] == ["QH", "TS", "6D", "TH", "2C"]
    assert view["tableau"][9]["up"] == ["JH", "4S", "7C", "9H", "8H"]
    assert view["cells"] == [None, "5S", "6H", None]


@pytest.mark.parametrize("bad", [0, -3, True, "1977"])
def test_pysol_deal_out_of_range(bad):
    with pytest.raises(DeckError):
        deck_from_pysol(bad)


def test_every_preset_deals_all_52_cards():
    deck = deck_from_seed(5)
    for name in PRESETS:
        s = new_game(get_rules(name), deck)
        assert sorted(s.all_cards()) == list(range(52))
