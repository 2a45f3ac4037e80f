"""Haven's rules engine: pure Python, no Django, shared by the API, the solver and workers.

The public surface is re-exported here; see each module for the why:

* :mod:`.cards` — cards as integers 0–51 and their names (``"TH"``);
* :mod:`.presets` — the six presets of RULES.md as :class:`Rules` data;
* :mod:`.state` — the immutable :class:`State`, the opening deal, JSON and keys;
* :mod:`.moves` — :class:`Move` in JSON and text form;
* :mod:`.game` — legal moves, applying a move, status, replay;
* :mod:`.deals` — decks from card lists, seeds and PySolFC game numbers;
* :mod:`.dealkeys` — a deck's canonical keys, the same for every disguise of one game;
* :mod:`.view` — :func:`visible`, the only view of a state a player gets.
"""

from .cards import NAMES, RANK, RED, SUIT, SUITS, card, card_name, parse_card
from .dealkeys import deal_keys
from .deals import (
    MAX_PYSOL_DEAL,
    MAX_SEED,
    deck_from_pysol,
    deck_from_seed,
    format_deck,
    parse_deck,
)
from .errors import DeckError, EngineError, IllegalMove, MoveFormatError, RulesError
from .game import (
    LOST,
    PLAYING,
    WON,
    apply_move,
    coerce_move,
    is_legal,
    legal_moves,
    replay,
    reveals_hidden,
    status,
)
from .moves import Move
from .presets import PRESETS, Rules, get_rules
from .state import (
    EMPTY,
    State,
    foundation_cards,
    new_game,
    state_from_json,
    state_hash,
    state_key,
    state_to_json,
)
from .view import visible

__all__ = [
    "EMPTY",
    "LOST",
    "MAX_PYSOL_DEAL",
    "MAX_SEED",
    "NAMES",
    "PLAYING",
    "PRESETS",
    "RANK",
    "RED",
    "SUIT",
    "SUITS",
    "WON",
    "DeckError",
    "EngineError",
    "IllegalMove",
    "Move",
    "MoveFormatError",
    "Rules",
    "RulesError",
    "State",
    "apply_move",
    "card",
    "card_name",
    "coerce_move",
    "deal_keys",
    "deck_from_pysol",
    "deck_from_seed",
    "foundation_cards",
    "format_deck",
    "get_rules",
    "is_legal",
    "legal_moves",
    "new_game",
    "parse_card",
    "parse_deck",
    "replay",
    "reveals_hidden",
    "state_from_json",
    "state_hash",
    "state_key",
    "state_to_json",
    "status",
    "visible",
]
