import pytest

from games.engine import deck_from_seed


@pytest.fixture
def deck_for():
    """``deck_for(n)``: the seeded deck ``n`` (a tuple of card integers)."""
    return deck_from_seed
