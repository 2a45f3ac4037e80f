"""The exact shortening pass: cycles cut, shortcuts taken, the result still wins."""

from games.engine import (
    EMPTY,
    Move,
    State,
    apply_move,
    deck_from_seed,
    get_rules,
    new_game,
    parse_card,
    replay,
    status,
)
from games.solver import solve
from games.solver.splice import splice


def _seahaven_win():
    rules = get_rules("seahaven")
    deck = deck_from_seed(1)
    result = solve(rules, deck, time_budget=20, shorten=False)
    assert result.verdict == "winnable"
    return rules, deck, [Move.from_dict(m) for m in result.moves]


def test_cycles_are_cut_and_the_result_still_wins():
    rules, deck, moves = _seahaven_win()
    start = new_game(rules, deck)
    # Wander: a free cell card goes to an empty cell and back, twice, before the real win.
    detour = [Move("move", "c1", "c0", 1), Move("move", "c0", "c1", 1)] * 2
    padded = detour + moves
    assert status(replay(rules, deck, padded)[0]) == "won"
    shorter = splice(start, padded)
    assert len(shorter) <= len(moves)
    state, bad, error = replay(rules, deck, shorter)
    assert (bad, error) == (None, None)
    assert status(state) == "won"


def test_a_shortcut_replaces_a_detour():
    rules = get_rules("seahaven")
    king = parse_card("KS")
    # Every card home but the King of spades, alone in t0.
    start = State(rules, ((king,),) + ((),) * 9, (0,) * 10, (12, 13, 13, 13), (EMPTY,) * 4)
    detour = [Move("move", "t0", "c0", 1), Move("move", "c0", "c1", 1), Move("move", "c1", "f", 1)]
    assert status(_play(start, detour)) == "won"
    assert splice(start, detour, passes=1) == [Move("move", "t0", "f", 1)]


def _play(state, moves):
    for move in moves:
        state = apply_move(state, move)
    return state


def test_splice_never_lengthens_an_already_tight_win():
    rules, deck, moves = _seahaven_win()
    once = splice(new_game(rules, deck), moves)
    twice = splice(new_game(rules, deck), once)
    assert len(twice) <= len(once) <= len(moves)
