"""The six presets of RULES.md as data.

A preset is a :class:`Rules` value: every rule the engine checks reads one of its fields,
so a new variant is a new row here rather than a new branch in the move logic.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from .errors import RulesError

#: Build orders on the tableau.
ALTERNATE = "alternate"
SAME_SUIT = "suit"
#: What an empty column accepts.
SPACE_KING = "king"
SPACE_ANY = "any"
#: How the stock is used.
STOCK_ROWS = "rows"  # deal one card onto every column (Easthaven)
STOCK_WASTE = "waste"  # turn one card onto a single waste pile (Westcliff)
STOCK_NONE = "none"  # Seahaven
#: Which runs may leave a column.
RUNS_TOP_OR_ALL = "top_or_all"
RUNS_SUPERMOVE = "supermove"


@dataclass(frozen=True)
class Rules:
    """Everything the engine needs to know about one preset with one option set."""

    name: str
    title: str
    description: str
    columns: int
    rows: int
    face_down_rows: int
    stock: str
    build: str
    space: str
    runs: str
    cells: int = 0
    #: Easthaven proper: a deal is refused while a King could fill an empty column.
    king_fill_before_deal: bool = False
    #: Columns never receive cards by position (no row deals), so their order is irrelevant.
    columns_interchangeable: bool = False
    option_names: tuple[str, ...] = ()
    partial_runs: bool = False
    classic_supermove: bool = False

    @property
    def options(self) -> dict[str, bool]:
        """Every option this preset takes, with its value."""
        return {name: getattr(self, name) for name in self.option_names}

    @property
    def key(self) -> str:
        """``preset`` or ``preset+option+option``: one leaderboard per key."""
        on = [name for name in self.option_names if getattr(self, name)]
        return "+".join([self.name, *on])

    @property
    def has_waste(self) -> bool:
        return self.stock == STOCK_WASTE

    @property
    def stock_size(self) -> int:
        return 52 - self.columns * self.rows - (2 if self.cells else 0)

    def with_options(self, options: dict[str, Any] | None) -> Rules:
        """This preset with ``options`` applied; unknown options are an error, not ignored."""
        if not options:
            return self
        if not isinstance(options, dict):
            raise RulesError("invalid_option", "options must be an object of flags")
        changes: dict[str, Any] = {}
        for name, value in options.items():
            if name not in self.option_names:
                allowed = ", ".join(self.option_names) or "none"
                raise RulesError(
                    "unknown_option",
                    f"{self.name} has no option {name!r} (options: {allowed})",
                )
            if not isinstance(value, bool):
                raise RulesError("invalid_option", f"option {name!r} must be true or false")
            changes[name] = value
        return replace(self, **changes)


_EASTHAVEN: dict[str, Any] = dict(
    columns=7,
    rows=3,
    face_down_rows=2,
    stock=STOCK_ROWS,
    build=ALTERNATE,
    space=SPACE_KING,
    runs=RUNS_TOP_OR_ALL,
    option_names=("partial_runs",),
)

PRESETS: dict[str, Rules] = {
    rules.name: rules
    for rules in (
        Rules(
            name="easthaven",
            title="Easthaven",
            description=(
                "Seven columns of three, two face down. Build down in alternate colours; "
                "only a King or King-headed run fills a space, and every space a King can "
                "fill must be filled before dealing a new row from the stock."
            ),
            king_fill_before_deal=True,
            **_EASTHAVEN,
        ),
        Rules(
            name="easthaven-open",
            title="Easthaven (open spaces)",
            description=(
                "Easthaven where any card or run may fill a space and you may deal at any time."
            ),
            **{**_EASTHAVEN, "space": SPACE_ANY},
        ),
        Rules(
            name="easthaven-suit",
            title="Easthaven (by suit)",
            description="Easthaven building down in suit; any card or run fills a space.",
            **{**_EASTHAVEN, "space": SPACE_ANY, "build": SAME_SUIT},
        ),
        Rules(
            name="westcliff",
            title="Westcliff",
            description=(
                "Ten columns of three, two face down. The stock turns one card at a time "
                "onto a waste pile, no redeal. Build down in alternate colours; any card "
                "or run fills a space."
            ),
            columns_interchangeable=True,
            **{**_EASTHAVEN, "columns": 10, "stock": STOCK_WASTE, "space": SPACE_ANY},
        ),
        Rules(
            name="westcliff-classic",
            title="Westcliff (seven columns)",
            description="Westcliff with seven columns and a stock of 31.",
            columns_interchangeable=True,
            **{**_EASTHAVEN, "stock": STOCK_WASTE, "space": SPACE_ANY},
        ),
        Rules(
            name="seahaven",
            title="Seahaven Towers",
            description=(
                "Ten columns of five, all face up, two cards in the four cells. Build down "
                "in suit; only a King or King-headed run fills a space. Runs move as far as "
                "free cells and spaces allow (supermove)."
            ),
            columns=10,
            rows=5,
            face_down_rows=0,
            stock=STOCK_NONE,
            build=SAME_SUIT,
            space=SPACE_KING,
            runs=RUNS_SUPERMOVE,
            cells=4,
            columns_interchangeable=True,
            option_names=("classic_supermove",),
        ),
    )
}


def get_rules(preset: str, options: dict[str, Any] | None = None) -> Rules:
    """The rules of ``preset`` with ``options``; ``RulesError`` for unknown names."""
    try:
        rules = PRESETS[preset]
    except (KeyError, TypeError):
        raise RulesError(
            "unknown_preset",
            f"unknown preset {preset!r} (presets: {', '.join(PRESETS)})",
        ) from None
    return rules.with_options(options)
