"""The account tables change apps, not places: games 0008 and accounts 0001 move
``AccountName`` and ``NameSkeleton`` in Django's state only, so the rows written before the
move are the accounts app's after it (rehearsed here on the test database)."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.db.migrations.executor import MigrationExecutor

from accounts import names
from accounts.models import AccountName, Device, NameSkeleton

pytestmark = [pytest.mark.postgres, pytest.mark.django_db(transaction=True)]

BEFORE = [("games", "0007_move_log_partitions"), ("accounts", None)]
AFTER = [("games", "0008_accounts_to_accounts_app"), ("accounts", "0001_initial")]


def migrate(targets):
    executor = MigrationExecutor(connection)
    executor.loader.build_graph()
    executor.migrate(targets)


@pytest.fixture(autouse=True)
def latest_schema_afterwards():
    """Going back to games 0007 also unapplies every later migration that depends on games
    (other apps' too); the tests after this one need all of them back."""
    yield
    executor = MigrationExecutor(connection)
    migrate(executor.loader.graph.leaf_nodes())


def test_rows_written_before_the_move_are_the_accounts_apps_after_it():
    user = get_user_model().objects.create_user(username="Before", password="a long passphrase")
    migrate(BEFORE)
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT key FROM games_accountname WHERE user_id = %s", [user.pk])
            assert cursor.fetchone() == ("before",)
            tables = connection.introspection.table_names(cursor)
        assert "accounts_device" not in tables
    finally:
        migrate(AFTER)
    assert AccountName.objects.get(user=user).key == "before"
    assert NameSkeleton.objects.filter(user=user).count() >= 1
    assert names.find_user("BEFORE") == user
    assert not Device.objects.exists()
