"""Fixtures borrowed from the API tests (players, clients, generous throttles, no daily
solving) and the daily tests (sending tasks to the real broker)."""

from tests.api.conftest import (  # noqa: F401
    _generous_throttles,
    _no_daily_preparation,
    anon,
    client,
    other_client,
    player,
    today_deals,
)
from tests.daily.conftest import non_eager  # noqa: F401
