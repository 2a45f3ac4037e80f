"""The replica router's decisions (config.replicas), without a replica: the real standby's
tests are in test_replicas.py."""

from __future__ import annotations

from config import replicas


def test_reads_go_to_the_replica_only_inside_a_replica_safe_block(monkeypatch) -> None:
    router = replicas.ReplicaRouter()
    assert router.db_for_read(object) == "default"
    token = replicas._reading.set(True)
    try:
        assert router.db_for_read(object) == "replica"
        assert router.db_for_write(object) == "default"  # a write never goes there
        with replicas.on_primary():
            assert router.db_for_read(object) == "default"
        assert router.db_for_read(object) == "replica"
    finally:
        replicas._reading.reset(token)
    assert router.allow_migrate("default", "games") is True
    assert router.allow_migrate("replica", "games") is False


def test_without_a_replica_the_view_reads_the_primary(settings) -> None:
    assert "replica" not in settings.DATABASES
    assert replicas.available() is False
    seen = []

    @replicas.replica_reads
    def view(value: int) -> int:
        seen.append(replicas.ReplicaRouter().db_for_read(object))
        return value * 2

    assert view(21) == 42
    assert seen == ["default"]


def test_a_read_that_fails_on_the_replica_is_done_again_on_the_primary(monkeypatch) -> None:
    from django.db import OperationalError

    monkeypatch.setattr(replicas, "available", lambda: True)
    marked = []
    monkeypatch.setattr(replicas, "mark_down", lambda: marked.append(True))
    tries = []

    @replicas.replica_reads
    def view() -> str:
        alias = replicas.ReplicaRouter().db_for_read(object)
        tries.append(alias)
        if alias == "replica":
            raise OperationalError("the standby went away")
        return "answered"

    assert view() == "answered"
    assert tries == ["replica", "default"]
    assert marked == [True]
