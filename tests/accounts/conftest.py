"""The accounts tests' fixtures (tests/accounts/fixtures.py, shared with tests/hostile)."""

from tests.client_fixtures import client, player

from .fixtures import _accounts_settings, detector_records, today_deals

__all__ = ["client", "player", "_accounts_settings", "detector_records", "today_deals"]
