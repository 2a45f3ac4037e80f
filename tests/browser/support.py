"""What the browser tests share besides fixtures: settings, the solver's wins, a Browser."""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from games import engine
from games.solver import solve

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
SCREENSHOTS = Path(__file__).resolve().parent / "screenshots"
TEST_SECONDS = int(os.environ.get("BROWSER_TEST_SECONDS", "240"))
HIGH_RATES = {"plays": "100000/min", "moves": "100000/min", "auth": "100000/min"}
PASSWORD = "a long passphrase"

#: Deals the solver wins in well under a second (with room to shorten the solution).
PRACTICE_PRESET, PRACTICE_SEED = "westcliff", 1
DAILY_PRESET, DAILY_SEED = "seahaven", 5
PAST_DAY_WINS = {"seahaven": 5, "westcliff": 1, "easthaven-open": 7}


@dataclass
class Solved:
    preset: str
    deck: list[str]
    moves: list[dict[str, Any]]


_solutions: dict[tuple[str, int], Solved] = {}


def solved(preset: str, seed: int) -> Solved:
    """The deck of ``seed`` and a winning move list from the solver, in-process (cached)."""
    if (preset, seed) not in _solutions:
        rules = engine.get_rules(preset)
        deck = engine.deck_from_seed(seed)
        result = solve(rules, deck, time_budget=60.0, shorten=True, shorten_budget=0.5)
        assert result.verdict == "winnable", (preset, seed, result.verdict)
        _solutions[(preset, seed)] = Solved(preset, engine.format_deck(deck), result.moves)
    return _solutions[(preset, seed)]


@dataclass
class Browser:
    """One Chromium with one page, and what the page said on its console."""

    page: Any
    context: Any
    base: str
    errors: list[str] = field(default_factory=list)
    name: str = "test"
    shots: int = 0
    touch: bool = False

    def shot(self, step: str) -> Path:
        SCREENSHOTS.mkdir(exist_ok=True)
        self.shots += 1
        path = SCREENSHOTS / f"{self.name}-{self.shots:02d}-{step}.png"
        self.page.screenshot(path=str(path), full_page=True)
        return path

    def shot_of(self, selector: str, step: str) -> Path:
        """A screenshot of one element (README pictures: smaller than the whole page)."""
        SCREENSHOTS.mkdir(exist_ok=True)
        path = SCREENSHOTS / f"{self.name}-{step}.png"
        self.page.locator(selector).screenshot(path=str(path))
        return path
