"""Shared bits for the solver tests: every preset with every option set."""

from __future__ import annotations

from games.engine import State, get_rules, parse_card
from games.solver import solve_state

RULE_SETS = [
    ("easthaven", {}),
    ("easthaven", {"partial_runs": True}),
    ("easthaven-open", {}),
    ("easthaven-open", {"partial_runs": True}),
    ("easthaven-suit", {}),
    ("easthaven-suit", {"partial_runs": True}),
    ("westcliff", {}),
    ("westcliff", {"partial_runs": True}),
    ("westcliff-classic", {}),
    ("westcliff-classic", {"partial_runs": True}),
    ("seahaven", {}),
    ("seahaven", {"classic_supermove": True}),
]


def rule_id(item) -> str:
    preset, options = item
    return "+".join([preset, *options])


def all_rules():
    return [get_rules(preset, options) for preset, options in RULE_SETS]


def cards(text: str) -> tuple[int, ...]:
    """``"AS 2H"`` → the engine's card ints."""
    return tuple(parse_card(c) for c in text.split())


def build(preset, cols, found, options=None, cells=(), stock="", waste="", down=None):
    """A hand-made position: columns as card strings (bottom first), the missing ones
    empty; ``down`` face-down counts; cells as card names or ``""``."""
    rules = get_rules(preset, options)
    columns = [cards(c) for c in cols] + [()] * (rules.columns - len(cols))
    downs = tuple(down or ()) + (0,) * (rules.columns - len(down or ()))
    cell_cards = tuple(parse_card(c) if c else -1 for c in cells) if rules.cells else ()
    return State(rules, tuple(columns), downs, tuple(found), cell_cards, cards(stock), cards(waste))


def same_verdict(state: State, node_budget: int) -> str | None:
    """The verdict on ``state`` with pruning on, after checking that the plain search
    (``pruning=False``) gives the same; ``None`` when either runs out of nodes."""
    pruned = solve_state(state, time_budget=None, node_budget=node_budget, shorten=False)
    plain = solve_state(
        state, time_budget=None, node_budget=node_budget, shorten=False, pruning=False
    )
    if "unknown" in (pruned.verdict, plain.verdict):
        return None
    assert pruned.verdict == plain.verdict, state
    return pruned.verdict
