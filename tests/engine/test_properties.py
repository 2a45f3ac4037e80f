"""Properties over random deals and random play (hypothesis)."""

from __future__ import annotations

import json
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    NAMES,
    PRESETS,
    IllegalMove,
    Move,
    apply_move,
    deck_from_seed,
    get_rules,
    legal_moves,
    new_game,
    replay,
    state_from_json,
    state_to_json,
    status,
    visible,
)

VARIANTS = [(name, {}) for name in PRESETS] + [
    (name, {opt: True}) for name, rules in PRESETS.items() for opt in rules.option_names
]
ALL_PILES = [f"t{i}" for i in range(10)] + [f"c{i}" for i in range(4)] + ["f", "w", "s"]

PROPS = settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def foundation_cards(state) -> list[int]:
    return [suit * 13 + r for suit, n in enumerate(state.found) for r in range(n)]


def hidden_cards(state) -> set[str]:
    hidden = {NAMES[c] for c in state.stock}
    for col, down in zip(state.cols, state.down, strict=True):
        hidden |= {NAMES[c] for c in col[:down]}
    return hidden


def strings_in(data) -> set[str]:
    if isinstance(data, str):
        return {data}
    if isinstance(data, dict):
        return (
            set().union(*(strings_in(k) | strings_in(v) for k, v in data.items()))
            if data
            else set()
        )
    if isinstance(data, list | tuple):
        return set().union(*(strings_in(v) for v in data)) if data else set()
    return set()


def pick(rnd: random.Random, moves: list[Move]) -> Move:
    """Random play that still gets somewhere: foundation moves and non-deals are preferred."""
    to_found = [m for m in moves if m.dst == "f"]
    if to_found and rnd.random() < 0.6:
        return rnd.choice(to_found)
    others = [m for m in moves if m.type != "deal"]
    if others and rnd.random() < 0.8:
        return rnd.choice(others)
    return rnd.choice(moves)


def playout(rules, deck, rnd, max_moves=80):
    """Yield (state, legal moves, chosen move) along a random game."""
    state = new_game(rules, deck)
    for _ in range(max_moves):
        moves = legal_moves(state)
        if not moves:
            yield state, moves, None
            return
        move = pick(rnd, moves)
        yield state, moves, move
        state = apply_move(state, move)
    yield state, legal_moves(state), None


def random_move(rnd: random.Random) -> Move:
    """A random well-formed move, built as the API builds it: from a JSON dict."""
    if rnd.random() < 0.05:
        return Move.from_dict({"type": "deal"})
    count = rnd.choice([1, 1, 1, 2, 3, 4, rnd.randint(1, 13)])
    data = {"type": "move", "from": rnd.choice(ALL_PILES), "to": rnd.choice(ALL_PILES)}
    if count != 1 or rnd.random() < 0.5:
        data["count"] = count
    return Move.from_dict(data)


variants = st.sampled_from(VARIANTS)
seeds = st.integers(0, 2**40)


@PROPS
@given(variant=variants, deck_seed=seeds, play_seed=seeds)
def test_random_play_invariants(variant, deck_seed, play_seed):
    preset, options = variant
    rules = get_rules(preset, options)
    rnd = random.Random(play_seed)
    deck = deck_from_seed(deck_seed)
    for state, moves, _move in playout(rules, deck, rnd):
        # 52 distinct cards, always
        cards = state.all_cards() + foundation_cards(state)
        assert sorted(cards) == list(range(52))
        # face-down cards only lie under face-up ones
        for col, down in zip(state.cols, state.down, strict=True):
            assert 0 <= down < len(col) or down == 0 == len(col)
        # every legal move listed exactly once, each in the canonical form, each applies
        assert len(set(moves)) == len(moves)
        for m in moves:
            d = m.to_dict()
            assert Move.from_dict(d) == m and ("count" in d) == (m.type == "move")
            apply_move(state, m)
        # random moves that are not listed are refused
        for _ in range(15):
            m = random_move(rnd)
            if m in moves:
                apply_move(state, m)
            else:
                try:
                    apply_move(state, m)
                except IllegalMove:
                    pass
                else:
                    raise AssertionError(f"{m} applies but is not listed")
        # the player's view never shows a face-down or stock card
        view = visible(state)
        assert not strings_in(view) & hidden_cards(state)
        assert view["stock"] == len(state.stock)
        assert [t["down"] for t in view["tableau"]] == list(state.down)
        assert view["legal_moves"] == [m.to_dict() for m in moves]
        # JSON round trip
        assert state_from_json(rules, json.loads(json.dumps(state_to_json(state)))) == state
        # status agrees with the moves
        if sum(state.found) == 52:
            assert status(state) == "won" and moves == []
        elif not moves:
            assert status(state) == "lost" and not state.stock
        else:
            assert status(state) == "playing"


@settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=variants, deck_seed=seeds, play_seed=seeds)
def test_every_legal_move_is_listed(variant, deck_seed, play_seed):
    """Brute force: every (from, to, count) that applies is in legal_moves, and vice versa."""
    preset, options = variant
    rules = get_rules(preset, options)
    rnd = random.Random(play_seed)
    for step, (state, moves, _) in enumerate(playout(rules, deck_from_seed(deck_seed), rnd)):
        if step % 9:
            continue
        longest = max([len(c) for c in state.cols] + [1])
        applies = set()
        for src in ALL_PILES:
            for dst in ALL_PILES:
                for count in range(1, longest + 2):
                    m = Move("move", src, dst, count)
                    try:
                        apply_move(state, m)
                    except IllegalMove:
                        continue
                    applies.add(m)
        try:
            apply_move(state, Move.parse("deal"))
            applies.add(Move.parse("deal"))
        except IllegalMove:
            pass
        assert applies == set(moves)


@PROPS
@given(variant=variants, deck_seed=seeds, play_seed=seeds)
def test_replay_reproduces_the_game(variant, deck_seed, play_seed):
    preset, options = variant
    rules = get_rules(preset, options)
    deck = deck_from_seed(deck_seed)
    played = []
    final = None
    for state, _moves, move in playout(rules, deck, random.Random(play_seed), max_moves=120):
        final = state
        if move is not None:
            played.append(move)
    for form in (played, [str(m) for m in played], [m.to_dict() for m in played]):
        state, index, error = replay(rules, deck, form)
        assert (index, error) == (None, None)
        assert state == final


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**63 - 1))
def test_seeded_decks_are_decks_and_stable(seed):
    deck = deck_from_seed(seed)
    assert sorted(deck) == list(range(52))
    assert deck_from_seed(seed) == deck


@settings(max_examples=100, deadline=None)
@given(
    src=st.sampled_from(ALL_PILES),
    dst=st.sampled_from(ALL_PILES),
    count=st.integers(1, 52),
)
def test_move_forms_round_trip(src, dst, count):
    m = Move("move", src, dst, count)
    assert Move.parse(str(m)) == m
    assert Move.from_dict(json.loads(json.dumps(m.to_dict()))) == m


@PROPS
@given(variant=variants, deck_seed=seeds, play_seed=seeds, shuffle_seed=seeds)
def test_state_key_ignores_only_what_changes_no_move(variant, deck_seed, play_seed, shuffle_seed):
    """Where columns are interchangeable (Westcliff, Seahaven) a permutation of the columns and
    cells keeps the key and the number of legal moves; elsewhere the key tells them apart."""
    from games.engine import State, state_key

    preset, options = variant
    rules = get_rules(preset, options)
    rnd = random.Random(play_seed)
    *_, (state, _moves, _) = playout(rules, deck_from_seed(deck_seed), rnd, max_moves=40)
    order = list(range(len(state.cols)))
    random.Random(shuffle_seed).shuffle(order)
    cells = list(state.cells)
    random.Random(shuffle_seed).shuffle(cells)
    permuted = State(
        rules,
        tuple(state.cols[i] for i in order),
        tuple(state.down[i] for i in order),
        state.found,
        tuple(cells),
        state.stock,
        state.waste,
    )
    if rules.columns_interchangeable:
        assert state_key(permuted) == state_key(state)
        assert len(legal_moves(permuted)) == len(legal_moves(state))
    elif permuted.cols != state.cols:
        assert state_key(permuted) != state_key(state)
