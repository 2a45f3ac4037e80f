"""What players read about each preset, in English, German and Russian (gettext).

Titles and descriptions repeat the engine's English ones (``games.engine.presets``; a test
keeps them equal) so they can be marked for translation; the rules summaries are written
from the seed texts' own terms (RULES.md settles where those disagree). A summary is a list
of paragraphs built from shared pieces, so a rule that several presets share reads the same
in each of them and is translated once.
"""

from __future__ import annotations

from django.utils.functional import Promise
from django.utils.translation import gettext_lazy as _

GOAL = _(
    "Goal: move all 52 cards to the four foundations, one per suit, each built up in suit "
    "from the Ace to the King. The top card of a column may always go to a foundation; "
    "foundation cards never come back."
)
CARDS = _(
    "Cards: one standard 52-card deck without jokers. The Ace is low: A, 2, 3, 4, 5, 6, 7, "
    "8, 9, 10, J, Q, K. Hearts ♥ and diamonds ♦ are red, spades ♠ and clubs ♣ are black."
)
SETUP_EASTHAVEN = _(
    "Setup: three rows of seven cards, overlapping: the first two rows face down, the "
    "third face up. That makes seven columns of three cards, 21 in all. The other 31 cards "
    "are the stock."
)
SETUP_WESTCLIFF = _(
    "Setup: three rows of ten cards, overlapping: the first two rows face down, the third "
    "face up. That makes ten columns of three cards, 30 in all. The other 22 cards are the "
    "stock."
)
SETUP_SEAHAVEN = _(
    "Setup: 50 cards face up in ten columns of five, so that every card can be seen. The "
    "last two cards go face up into two of the four cells (towers); the other two cells "
    "start empty. There is no stock."
)
BUILD_ALTERNATE = _(
    "Tableau: a card may go on the top card of another column if it is one rank lower and "
    "the other colour – a red 8 on a black 9, a black 3 on a red 4."
)
BUILD_SUIT = _(
    "Tableau: a card may go on the top card of another column only if it is one rank lower "
    "and of the same suit – the 7♠ on the 8♠ only, never in alternating colours."
)
RUNS_TOP_OR_ALL = _(
    "Moving runs: instead of the top card alone, you may move all the face-up cards of a "
    "column together, if they form a correct run and the highest card of the run fits "
    "where it goes."
)
RUNS_SUPERMOVE = _(
    "Moving runs: a run in one suit moves as a block onto a fitting card or into an empty "
    "column if there are enough free cells to move it card by card: with k free cells, up "
    "to k + 1 cards; every empty column other than the target doubles that number."
)
FACE_DOWN = _(
    "Face-down cards: when a face-down card becomes the top card of its column, it is "
    "turned face up."
)
SPACE_KING = _("Empty column: only a King, or a run headed by a King, may fill it.")
SPACE_ANY = _("Empty column: any card or run may fill it.")
DEAL_ROWS = _(
    "Dealing a new row: deal one card face up onto each of the seven columns, from left to "
    "right. A column that is still empty receives a card too. The new cards cover whatever "
    "lay there, even a nicely built run; while the face-up cards of a column do not form a "
    "run, only its top card may move. After four rows, the last three cards go onto the "
    "first three columns. There is no redeal."
)
DEAL_KING_FIRST = _(
    "Before dealing a new row, first fill every empty column with a King or a King-headed "
    "run if you can: while one could fill it, the deal is refused."
)
DEAL_ANY_TIME = _("You may deal a new row at any time, even while a column is empty.")
STOCK_WASTE = _(
    "Stock: turn the stock one card at a time onto a single waste pile. Its top card may "
    "go to a foundation or onto the tableau as soon as it fits. There is no redeal: you go "
    "through the stock only once."
)
CELLS = _(
    "Cells: any free card (the top card of a column or a card in another cell) may go to "
    "an empty cell; each cell holds one card. A card in a cell may go to a foundation, onto "
    "a fitting column, or into an empty column if it is a King."
)
END_WITH_STOCK = _(
    "You win when all 52 cards lie on the foundations. If the stock is used up and no move "
    "is possible, the game is lost. You may also resign at any time."
)
END_NO_STOCK = _(
    "You win when all 52 cards lie on the foundations. If no move is possible, the game is "
    "lost. You may also resign at any time."
)
OPTION_PARTIAL_RUNS = _(
    "Option partial_runs: you may also move just part of a run, counted from the top card, "
    "as many computer versions play it."
)
OPTION_CLASSIC_SUPERMOVE = _(
    "Option classic_supermove: with k free cells a run of at most k + 1 cards moves, and "
    "empty columns never double it."
)

EASTHAVEN_RULES = [GOAL, CARDS, SETUP_EASTHAVEN, BUILD_ALTERNATE, RUNS_TOP_OR_ALL, FACE_DOWN]

#: preset → (title, description, rules summary paragraphs)
PRESET_TEXTS: dict[str, tuple[Promise, Promise, list[Promise]]] = {
    "easthaven": (
        _("Easthaven"),
        _(
            "Seven columns of three, two face down. Build down in alternate colours; "
            "only a King or King-headed run fills a space, and every space a King can "
            "fill must be filled before dealing a new row from the stock."
        ),
        [
            *EASTHAVEN_RULES,
            SPACE_KING,
            DEAL_ROWS,
            DEAL_KING_FIRST,
            END_WITH_STOCK,
            OPTION_PARTIAL_RUNS,
        ],
    ),
    "easthaven-open": (
        _("Easthaven (open spaces)"),
        _("Easthaven where any card or run may fill a space and you may deal at any time."),
        [
            *EASTHAVEN_RULES,
            SPACE_ANY,
            DEAL_ROWS,
            DEAL_ANY_TIME,
            END_WITH_STOCK,
            OPTION_PARTIAL_RUNS,
        ],
    ),
    "easthaven-suit": (
        _("Easthaven (by suit)"),
        _("Easthaven building down in suit; any card or run fills a space."),
        [
            GOAL,
            CARDS,
            SETUP_EASTHAVEN,
            BUILD_SUIT,
            RUNS_TOP_OR_ALL,
            FACE_DOWN,
            SPACE_ANY,
            DEAL_ROWS,
            DEAL_ANY_TIME,
            END_WITH_STOCK,
            OPTION_PARTIAL_RUNS,
        ],
    ),
    "westcliff": (
        _("Westcliff"),
        _(
            "Ten columns of three, two face down. The stock turns one card at a time "
            "onto a waste pile, no redeal. Build down in alternate colours; any card "
            "or run fills a space."
        ),
        [
            GOAL,
            CARDS,
            SETUP_WESTCLIFF,
            BUILD_ALTERNATE,
            RUNS_TOP_OR_ALL,
            FACE_DOWN,
            SPACE_ANY,
            STOCK_WASTE,
            END_WITH_STOCK,
            OPTION_PARTIAL_RUNS,
        ],
    ),
    "westcliff-classic": (
        _("Westcliff (seven columns)"),
        _("Westcliff with seven columns and a stock of 31."),
        [
            GOAL,
            CARDS,
            SETUP_EASTHAVEN,  # the same layout, seven columns of three
            BUILD_ALTERNATE,
            RUNS_TOP_OR_ALL,
            FACE_DOWN,
            SPACE_ANY,
            STOCK_WASTE,
            END_WITH_STOCK,
            OPTION_PARTIAL_RUNS,
        ],
    ),
    "seahaven": (
        _("Seahaven Towers"),
        _(
            "Ten columns of five, all face up, two cards in the four cells. Build down "
            "in suit; only a King or King-headed run fills a space. Runs move as far as "
            "free cells and spaces allow (supermove)."
        ),
        [
            GOAL,
            CARDS,
            SETUP_SEAHAVEN,
            BUILD_SUIT,
            CELLS,
            SPACE_KING,
            RUNS_SUPERMOVE,
            END_NO_STOCK,
            OPTION_CLASSIC_SUPERMOVE,
        ],
    ),
}


def preset_document(name: str, options: dict[str, bool]) -> dict[str, object]:
    """A preset as ``GET /presets`` shows it, in the active language."""
    title, description, rules = PRESET_TEXTS[name]
    return {
        "name": name,
        "title": str(title),
        "description": str(description),
        "rules": [str(paragraph) for paragraph in rules],
        "options": dict(options),
    }
