"""The engine and the independent reference (reference.py) agree on every position reached in
random games of every preset and option set, and on random well-formed positions: the same
legal moves (as sets), the same view, the same result of every move, the same refusals."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import (
    Move,
    apply_move,
    deck_from_seed,
    format_deck,
    get_rules,
    new_game,
    state_to_json,
    status,
)

from .bridge import VARIANTS, check_position, random_position, to_reference
from .reference import Game, canonical


def biased_choice(rnd: random.Random, moves: list[dict]) -> dict:
    """Random play that gets somewhere: prefer foundations, then anything but a deal."""
    found = [m for m in moves if m.get("to") == "f"]
    if found and rnd.random() < 0.6:
        return rnd.choice(found)
    others = [m for m in moves if m["type"] != "deal"]
    if others and rnd.random() < 0.85:
        return rnd.choice(others)
    return rnd.choice(moves)


def play_and_compare(preset: str, options: dict, deck_seed: int, play_seed: int, max_moves: int):
    rules = get_rules(preset, options)
    deck = deck_from_seed(deck_seed)
    state = new_game(rules, deck)
    ref = Game.deal_from_deck(preset, format_deck(deck), options)
    assert ref.snapshot() == state_to_json(state), "the deal differs"
    rnd = random.Random(play_seed)
    for _ in range(max_moves):
        moves = check_position(state, rnd, candidates=8)
        assert status(state) == to_reference(state).status()
        if not moves:
            break
        move = biased_choice(rnd, moves)
        state = apply_move(state, Move.from_dict(move))
        ref = ref.apply(move)
        assert ref.snapshot() == state_to_json(state), f"after {canonical(move)}"


@pytest.mark.parametrize(
    ("preset", "options"),
    VARIANTS,
    ids=[name + "".join("+" + o for o in opts) for name, opts in VARIANTS],
)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_random_games_agree(preset, options, seed):
    play_and_compare(preset, options, deck_seed=seed * 7919, play_seed=seed, max_moves=70)


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    variant=st.sampled_from(VARIANTS),
    deck_seed=st.integers(0, 2**40),
    play_seed=st.integers(0, 2**40),
)
def test_random_games_agree_hypothesis(variant, deck_seed, play_seed):
    preset, options = variant
    play_and_compare(preset, options, deck_seed, play_seed, max_moves=60)


@pytest.mark.parametrize(
    ("preset", "options"),
    VARIANTS,
    ids=[name + "".join("+" + o for o in opts) for name, opts in VARIANTS],
)
def test_random_positions_agree(preset, options):
    rnd = random.Random(hash((preset, tuple(options))) & 0xFFFF)
    for _ in range(40):
        state = random_position(rnd, preset, options)
        check_position(state, rnd, candidates=25, apply_all=True)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(variant=st.sampled_from(VARIANTS), seed=st.integers(0, 2**40))
def test_random_positions_agree_hypothesis(variant, seed):
    preset, options = variant
    rnd = random.Random(seed)
    state = random_position(rnd, preset, options)
    check_position(state, rnd, candidates=25, apply_all=True)


def test_reference_deals_like_rules_md():
    """The reference's own deal of a sorted deck, checked by hand against RULES.md."""
    deck = [r + s for s in "SHDC" for r in "A23456789TJQK"]
    g = Game.deal_from_deck("seahaven", deck)
    assert g.cells == [None, "QC", "KC", None]
    assert [c for c, _ in g.cols[0]] == ["AS", "JS", "8H", "5D", "2C"]
    e = Game.deal_from_deck("easthaven", deck)
    assert [c for c, up in e.cols[0]] == ["AS", "8S", "2H"] and e.stock[0] == "9H"
    assert [up for _, up in e.cols[0]] == [False, False, True]
