"""engine.deal_keys: one game under any disguise has the same keys; other games do not."""

from __future__ import annotations

import itertools

from games import engine

DECK = engine.deck_from_seed(2026)


def relabel(deck, order):
    return tuple(order[c // 13] * 13 + c % 13 for c in deck)


def test_every_suit_relabelling_keeps_the_keys():
    keys = engine.deal_keys(DECK)
    for order in itertools.permutations(range(4)):
        assert engine.deal_keys(relabel(DECK, order)) == keys


def test_seahaven_columns_and_cells_in_any_order_keep_the_seahaven_key():
    columns = [DECK[c:50:10] for c in range(10)]
    order = [4, 9, 0, 2, 7, 1, 8, 3, 6, 5]
    moved = tuple(columns[order[c]][r] for r in range(5) for c in range(10))
    moved += (DECK[51], DECK[50])
    shared = engine.deal_keys(DECK) & engine.deal_keys(moved)
    assert {key.split(":")[0] for key in shared} == {"seahaven"}


def test_easthaven_units_move_only_within_their_group():
    units = [DECK[c::7] for c in range(7)]

    def deck_of(order):
        return tuple(units[order[i % 7]][i // 7] for i in range(52))

    within = deck_of([1, 2, 0, 3, 4, 6, 5])
    assert "easthaven" in {
        k.split(":")[0] for k in engine.deal_keys(DECK) & engine.deal_keys(within)
    }
    # Swapping t2 and t3 would need a short unit where a long one was: another deck, no key
    # in common (its Easthaven game differs: t3 would get the last row's third card).
    across = list(DECK)
    for i in range(0, 49, 7):
        across[i + 2], across[i + 3] = across[i + 3], across[i + 2]
    assert not engine.deal_keys(DECK) & engine.deal_keys(tuple(across))


def test_a_different_order_within_a_column_is_another_game():
    swapped = list(DECK)
    swapped[0], swapped[10] = swapped[10], swapped[0]  # t0's two bottom cards (Seahaven)
    assert not engine.deal_keys(DECK) & engine.deal_keys(tuple(swapped))


def test_distinct_seeds_have_distinct_keys():
    seen: set[str] = set()
    for seed in range(200):
        keys = engine.deal_keys(engine.deck_from_seed(seed))
        assert len(keys) == 4 and not keys & seen
        seen |= keys
