"""What the games app tells the shared web layer: the engine's refusals as problems, and
the presets' parts of the OpenAPI schema.

``config.web`` sits under every app and imports none; the games app registers these with
it from ``GamesConfig.ready()`` (:func:`register`), so any view, the leaderboard's
included, answers an engine error the same way.
"""

from __future__ import annotations

import re

from config.web import schema
from config.web.catalogue import status_of
from config.web.problems import Problem, register_translator

from .. import engine


def engine_problem(error: engine.EngineError) -> Problem:
    """Translate an engine error: not a move → 400, illegal move → 422, bad input → 400."""
    if isinstance(error, engine.IllegalMove):
        return Problem(422, "illegal_move", error.detail, rule=error.code)
    if isinstance(error, engine.MoveFormatError):
        return Problem(400, "invalid_move", error.detail)
    if isinstance(error, engine.DeckError) and error.code == "invalid_deck":
        # The engine's detail may quote the client's cards; an error never carries a deck.
        return Problem(
            400,
            "invalid_deck",
            "a deck is a list of 52 distinct cards, rank then suit, such as 'AS' or 'TH'",
        )
    return Problem(status_of(error.code, default=400), error.code, error.detail)


def register() -> None:
    """Register the engine's refusals and the presets' schema parts with ``config.web``."""
    register_translator(engine.EngineError, engine_problem)
    option = (
        "("
        + "|".join(sorted({o for rules in engine.PRESETS.values() for o in rules.options}))
        + ")"
    )
    # Preset names are lower-case words and hyphens, written as they are: re.escape's ``\-``
    # is no valid escape in an ECMAScript ``u``-flag pattern (what JSON Schema validators use).
    assert all(re.fullmatch(r"[a-z0-9]+(-[a-z0-9]+)*", name) for name in engine.PRESETS)
    preset = "|".join(engine.PRESETS)
    schema.register_parameter_schema(
        "path", "preset", {"type": "string", "enum": list(engine.PRESETS)}
    )
    schema.register_parameter_schema(
        "query", "options", {"type": "string", "pattern": f"^({option}(,{option})*)?$"}
    )
    # ?preset= (the replays of a day) as a pattern, like StartPlayRequest.preset below.
    schema.register_parameter_schema(
        "query", "preset", {"type": "string", "pattern": f"^({preset})$"}
    )
    # The presets as a pattern, not an enum: generated clients turn an enum into a type of
    # their own (the Python client's StartPlayRequestPreset), which broke their callers;
    # a pattern keeps the field a string while saying which strings are accepted.
    schema.register_property_schema("StartPlayRequest", "preset", {"pattern": f"^({preset})$"})
