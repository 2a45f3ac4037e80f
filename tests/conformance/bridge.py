"""Between the engine and the reference: converting positions, comparing answers, and random
positions and games to compare them on."""

from __future__ import annotations

import random

from games.engine import (
    EMPTY,
    IllegalMove,
    Move,
    State,
    apply_move,
    get_rules,
    legal_moves,
    parse_card,
    state_to_json,
    visible,
)

from .reference import PRESETS as REF_PRESETS
from .reference import RANKS, SUITS, Game, canonical

#: Every preset with every option set.
VARIANTS = [(name, {}) for name in REF_PRESETS] + [
    (name, {opt: True}) for name, p in REF_PRESETS.items() for opt in p["options"]
]
ALL_PILES = [f"t{i}" for i in range(10)] + [f"c{i}" for i in range(4)] + ["f", "w", "s"]

#: The reference's reasons → the engine codes that name the same rule.
REASON_CODES = {
    "no_such_pile": {"no_such_pile"},
    "from_foundation": {"foundation_locked"},
    "stock_pile": {"not_a_source", "not_a_target"},
    "to_waste": {"not_a_target"},
    "same_pile": {"same_pile"},
    "empty_source": {"empty_pile"},
    "bad_count": {"single_card_only", "not_enough_cards"},
    "not_a_run": {"not_a_run", "partial_run", "face_down"},
    "supermove_limit": {"run_too_long"},
    "foundation": {"foundation_order"},
    "build": {"not_descending", "wrong_colour", "wrong_suit"},
    "space": {"space_needs_king"},
    "cell_full": {"cell_occupied"},
    "no_stock": {"no_stock", "stock_empty"},
    "king_fill": {"must_fill_space"},
}


def to_reference(state: State) -> Game:
    rules = state.rules
    return Game.from_snapshot(rules.name, state_to_json(state), rules.options)


def engine_moves(state: State) -> set[tuple]:
    return {canonical(m.to_dict()) for m in legal_moves(state)}


def reference_moves(game: Game) -> set[tuple]:
    return {canonical(m) for m in game.legal_moves()}


def random_candidate(rnd: random.Random, game: Game) -> dict:
    """A move dict, usually naming the preset's piles, sometimes not."""
    if rnd.random() < 0.05:
        return {"type": "deal"}
    ids = game.pile_ids()
    piles = ids if rnd.random() < 0.9 else ALL_PILES
    count = rnd.choice([1, 1, 1, 2, 2, 3, 4, 5, rnd.randint(1, 14)])
    return {"type": "move", "from": rnd.choice(piles), "to": rnd.choice(piles), "count": count}


def check_position(state: State, rnd: random.Random, candidates: int = 12, apply_all=False):
    """Assert that engine and reference agree on ``state``: moves, view, status, refusals,
    and the result of every (or one random) legal move.  Returns the legal moves."""
    ref = to_reference(state)
    assert ref.snapshot() == state_to_json(state)
    ref_moves = ref.legal_moves()
    mine, theirs = {canonical(m) for m in ref_moves}, engine_moves(state)
    assert theirs == mine, (
        f"engine lists {sorted(theirs - mine)} that the reference refuses, "
        f"and misses {sorted(mine - theirs)}\n{state!r}"
    )
    view = visible(state)
    listed = view.pop("legal_moves")
    assert view == ref.visible()
    assert {canonical(m) for m in listed} == mine
    for _ in range(candidates):
        move = random_candidate(rnd, ref)
        reason = ref.refusal(move)
        reasons = ref.refusals(move)
        m = Move.from_dict(move)
        try:
            after = apply_move(state, m)
        except IllegalMove as error:
            assert reason is not None, (
                f"engine refuses {m} ({error.code}), reference allows\n{state!r}"
            )
            allowed = set().union(*(REASON_CODES[r] for r in reasons))
            if ref.won():
                allowed.add("game_over")
            assert error.code in allowed, f"{m}: engine {error.code}, reference {reason}\n{state!r}"
        else:
            assert reason is None, f"engine applies {m}, reference refuses ({reason})\n{state!r}"
            assert state_to_json(after) == ref.apply(move).snapshot()
    if apply_all:
        chosen = ref_moves
    else:
        chosen = [rnd.choice(ref_moves)] if ref_moves else []
    for move in chosen:
        after = apply_move(state, Move.from_dict(move))
        assert state_to_json(after) == ref.apply(move).snapshot(), f"{move} differs\n{state!r}"
    return ref_moves


def random_position(rnd: random.Random, preset: str, options: dict) -> State:
    """Any well-formed position (not necessarily reachable): all 52 cards somewhere, random
    foundations, empty columns, runs on top of columns (often King-headed), cells, stock and
    waste, face-down cards under face-up ones."""
    p = REF_PRESETS[preset]
    rules = get_rules(preset, options)
    found = [rnd.choice([0, 0, 1, 2, 3, rnd.randint(0, 13)]) for _ in SUITS]
    pool = [RANKS[r] + s for s in SUITS for r in range(13) if r >= found[SUITS.index(s)]]
    rnd.shuffle(pool)

    def take() -> str:
        return pool.pop()

    cells = []
    if p["cells"]:
        fill = rnd.choice([0.2, 0.5, 0.9])
        cells = [take() if pool and rnd.random() < fill else None for _ in range(p["cells"])]
    stock = []
    waste = []
    if p["stock"] != "none":
        stock = [
            take() for _ in range(min(len(pool), rnd.choice([0, 0, 1, 3, 7, rnd.randint(0, 25)])))
        ]
    if p["stock"] == "waste":
        waste = [take() for _ in range(min(len(pool), rnd.choice([0, 1, 2, 5])))]

    n = p["columns"]
    empty = {c for c in range(n) if rnd.random() < 0.25}
    cols: list[list[str]] = [[] for _ in range(n)]
    downs = [0] * n
    build = Game(preset, options)
    for c in range(n):
        if c in empty or not pool:
            continue
        base = rnd.randint(0, 4)
        cols[c] = [take() for _ in range(min(base, len(pool)))]
        if pool and rnd.random() < 0.7:
            # a run on top: head preferably a King, then down as the preset builds
            kings = [x for x in pool if x[0] == "K"]
            head = rnd.choice(kings) if kings and rnd.random() < 0.4 else rnd.choice(pool)
            pool.remove(head)
            run = [head]
            for _ in range(rnd.randint(0, 6)):
                fits = [x for x in pool if build.fits_on(x, run[-1])]
                if not fits:
                    break
                nxt = rnd.choice(fits)
                pool.remove(nxt)
                run.append(nxt)
            cols[c] += run
        elif pool:
            cols[c].append(take())
        if p["face_down"] and len(cols[c]) > 1:
            downs[c] = rnd.randint(0, min(len(cols[c]) - 1, 3))
    # whatever is left goes onto random non-empty columns' bottoms (face down if possible)
    while pool:
        filled = [c for c in range(n) if cols[c]] or list(range(n))
        c = rnd.choice(filled)
        cols[c].insert(0, take())
        if p["face_down"] and len(cols[c]) > 1:
            downs[c] += 1
    return State(
        rules,
        tuple(tuple(parse_card(x) for x in col) for col in cols),
        tuple(downs),
        tuple(found),
        tuple(parse_card(x) if x else EMPTY for x in cells),
        tuple(parse_card(x) for x in stock),
        tuple(parse_card(x) for x in waste),
    )
