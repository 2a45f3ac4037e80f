"""Pruning soundness: the solver with every optional pruning rule off must give the same
verdict as with pruning on, on small endgames of every preset and option set.

Positions (seeded, so the run is repeatable): late positions of a found win, a few random
moves off them, or with their cards shuffled; the middle game's cards dealt tight over
every column (and cell); and small random deals of two or three suits.  Many are lost.
The plain search (``pruning=False``: no auto-play, exact keys, every move) is exhaustive
on them within the node budget; pairs where either side runs out are skipped.
"""

from __future__ import annotations

import random

import pytest

from games.engine import (
    EMPTY,
    Move,
    State,
    apply_move,
    deck_from_seed,
    get_rules,
    legal_moves,
    new_game,
)
from games.solver import to_api
from games.solver.core import Search

from .helpers import RULE_SETS, rule_id, same_verdict
from .test_solve import WINNABLE

DEALS = {(p, tuple(sorted(o))): d for p, o, d in WINNABLE}


def endgames(rules, deck, moves, count, rng):
    """Positions near the end of the win ``moves``: either a few random moves off it, or
    the same layout with the remaining cards shuffled among their places (often lost)."""
    state = new_game(rules, deck)
    path = [state]
    for raw in moves:
        state = apply_move(state, Move.from_dict(raw))
        path.append(state)
    late = [s for s in path if 10 <= 52 - sum(s.found) <= 20]
    middle = [s for s in path if 24 <= 52 - sum(s.found) - len(s.stock) <= 30]
    for n in range(count):
        state = rng.choice(late)
        if n % 2:
            yield dealt_out(rng.choice(middle or late), rng)
            continue
        if n % 4 == 2:
            yield shuffled(state, rng)
            continue
        for _ in range(rng.randint(1, 12)):
            options = legal_moves(state)
            if not options:
                break
            # Avoid foundation moves: the walk should make the position harder.
            away = [m for m in options if m.dst != "f"] or options
            state = apply_move(state, rng.choice(away))
        yield state


def dealt_out(state: State, rng) -> State:
    """The tableau (and cell) cards of ``state`` shuffled, every cell filled and the rest
    dealt over every column (no spaces, no free cell: a tight position, often lost), some
    face down where the preset has face-down cards."""
    cards = [c for col in state.cols for c in col] + [c for c in state.cells if c != EMPTY]
    rng.shuffle(cards)
    cells = tuple(cards[: len(state.cells)])
    cards = cards[len(state.cells) :]
    n = len(state.cols)
    cols = tuple(tuple(cards[i::n]) for i in range(n))
    faces = state.rules.face_down_rows
    down = tuple(rng.randint(0, max(0, len(c) - 1)) if faces else 0 for c in cols)
    return State(state.rules, cols, down, state.found, cells, state.stock, state.waste)


def mini_deal(rules, rng, suits: int = 2, cells: int = 3) -> State:
    """A random position of ``suits`` suits (the others on their foundations), every column
    used, ``cells`` cells filled: small, tight, often lost."""
    cards = [s * 13 + r for s in range(suits) for r in range(13)]
    rng.shuffle(cards)
    cell_cards: tuple[int, ...] = ()
    if rules.cells:
        cell_cards = tuple(cards[:cells]) + (EMPTY,) * (rules.cells - cells)
        cards = cards[cells:]
    n = rules.columns
    cols = tuple(tuple(cards[i::n]) for i in range(n))
    down = tuple(rng.randint(0, max(0, len(c) - 1)) if rules.face_down_rows else 0 for c in cols)
    found = tuple(0 if s < suits else 13 for s in range(4))
    return State(rules, cols, down, found, cell_cards, (), ())


def shuffled(state: State, rng) -> State:
    """``state`` with its non-foundation cards permuted among their places."""
    cards = [c for col in state.cols for c in col]
    cards += [c for c in state.cells if c != EMPTY] + list(state.stock) + list(state.waste)
    rng.shuffle(cards)
    it = iter(cards)
    cols = tuple(tuple(next(it) for _ in col) for col in state.cols)
    cells = tuple(next(it) if c != EMPTY else EMPTY for c in state.cells)
    stock = tuple(next(it) for _ in state.stock)
    waste = tuple(next(it) for _ in state.waste)
    return State(state.rules, cols, state.down, state.found, cells, stock, waste)


def reference_win(rules, deck) -> list[dict]:
    """A win of the deal, found by the depth-first search (pruning on): its endgames do
    not move when the best-first heuristics are tuned."""
    search = Search(new_game(rules, deck))
    path = search.first_solution(50_000, float("inf"))
    assert path, "the test deal must be won within 50k positions"
    return to_api(path)


@pytest.mark.parametrize("item", RULE_SETS, ids=rule_id)
def test_pruning_off_gives_the_same_verdicts(item):
    preset, options = item
    rules = get_rules(preset, options)
    deal = DEALS[(preset, tuple(sorted(options)))]
    deck = list(deal) if isinstance(deal, list) else deck_from_seed(deal)
    rng = random.Random(f"{preset}{options}")
    positions = list(endgames(rules, deck, reference_win(rules, deck), 12, rng))
    if rules.cells:
        positions += [mini_deal(rules, rng, suits=3, cells=4) for _ in range(6)]
    else:
        positions += [mini_deal(rules, rng, suits=2) for _ in range(6)]
    verdicts = []
    for state in positions:
        verdict = same_verdict(state, 5_000)
        if verdict is None:
            continue
        verdicts.append(verdict)
    assert len(verdicts) >= 6, verdicts
    VERDICTS[rule_id(item)] = verdicts


VERDICTS: dict[str, list[str]] = {}


def test_endgames_include_lost_positions():
    """The comparison above is only worth something if some endgames are lost."""
    if len(VERDICTS) < len(RULE_SETS):
        pytest.skip("run with the whole module")
    lost = sum(v.count("unwinnable") for v in VERDICTS.values())
    assert lost >= 20, VERDICTS


if __name__ == "__main__":  # pragma: no cover - a look at the verdict mix
    for item in RULE_SETS:
        test_pruning_off_gives_the_same_verdicts(item)
        found = VERDICTS[rule_id(item)]
        print(rule_id(item), {v: found.count(v) for v in set(found)})
