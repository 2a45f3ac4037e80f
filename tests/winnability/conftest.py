"""The API tests' fixtures (players, clients, generous throttles, no daily solving)."""

from tests.api.conftest import (  # noqa: F401
    _generous_throttles,
    _no_daily_preparation,
    anon,
    client,
    other_client,
    player,
    today_deals,
)
