"""Without a broker (``make run``: eager Celery, no beat) a seeded tournament's deal is
prepared off the request, by the web process's preparer thread (``tournaments.preparer``):
the create request answers at once with ``deal_ready`` false, and the deal becomes ready;
a deal missed (a process that died) is prepared once a request waits for it. PostgreSQL
and Redis; committed rows (the thread has a connection of its own)."""

from __future__ import annotations

import threading
import time

import pytest

from games import daily
from tests.factories import client_for, make_user
from tournaments import preparer, seeding
from tournaments.models import Entry, Tournament, TournamentDeal

from .test_seeded import _body, _group_with, _start

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def embedded(settings):
    """The settings of a server without a broker: the preparer thread on."""
    settings.TOURNAMENTS_PREPARE_SECONDS = 600.0
    preparer.stop_in_process()
    yield
    preparer.stop_in_process()


@pytest.fixture
def slow_solver(monkeypatch):
    """The search waits for ``release`` (a stock game's minutes, held as long as a test
    likes); ``calls`` counts the searches."""
    release = threading.Event()
    calls: list[str] = []
    search = daily.search_candidates

    def held(*args, **kwargs):
        calls.append(args[2])
        assert release.wait(60), "the test never released the solver"
        return search(*args, **kwargs)

    monkeypatch.setattr(daily, "search_candidates", held)
    yield release, calls
    release.set()


def _until(condition, seconds=60.0):
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if condition():
            return True
        time.sleep(0.05)
    return False


def test_the_create_request_returns_at_once_and_the_deal_becomes_ready(embedded, slow_solver):
    release, calls = slow_solver
    owner, ann = make_user("mowner"), make_user("mann")
    group = _group_with(owner, ann)

    began = time.monotonic()
    created = client_for(owner).post("/api/v1/tournaments", _body(group))
    took = time.monotonic() - began
    assert created.status_code == 201, created.content
    assert created.json()["deal_ready"] is False
    assert took < 10  # the solver is held: an inline preparation would not answer at all
    tournament = Tournament.objects.get(pk=created.json()["id"])
    url = created["Location"]

    # The thread is in the search; meanwhile the tournament answers, refusing a start.
    assert _until(lambda: calls == [f"tournament {tournament.pk}"])
    assert client_for(ann).post(f"{url}/join").status_code == 201
    answer = _start(ann, url)
    assert answer.status_code == 409 and answer.json()["code"] == "tournament_deal_not_ready"

    release.set()
    assert _until(lambda: TournamentDeal.objects.filter(tournament=tournament).exists())
    assert client_for(ann).get(url).json()["deal_ready"] is True
    assert _start(ann, url).status_code == 201
    assert len(calls) == 1  # the nudge of the refused start found it stored: no second search
    assert seeding.own_deal(tournament).verdict == "winnable"


def test_a_missed_deal_is_prepared_once_a_request_waits_for_it(embedded, slow_solver):
    release, _calls = slow_solver
    release.set()
    owner, ann = make_user("qowner"), make_user("qann")
    group = _group_with(owner, ann)
    # Stored without the save's hook (as if the process died before its thread ran): no
    # beat will come for it.
    fields = _body(group)
    (tournament,) = Tournament.objects.bulk_create(
        [
            Tournament(
                name=fields["name"],
                preset="seahaven",
                board="seahaven",
                deal_rule="seeded",
                starts_at=fields["starts_at"],
                ends_at=fields["ends_at"],
                join_until=fields["ends_at"],
                group=group,
                owner=owner,
            )
        ]
    )
    Entry.objects.create(tournament=tournament, player=ann)
    url = f"/api/v1/tournaments/{tournament.pk}"
    answer = _start(ann, url)
    assert answer.status_code == 409 and answer.json()["code"] == "tournament_deal_not_ready"
    assert _until(lambda: TournamentDeal.objects.filter(tournament=tournament).exists())
    assert _start(ann, url).status_code == 201


def test_with_a_broker_there_is_no_thread(settings):
    settings.TOURNAMENTS_PREPARE_SECONDS = 0.0
    preparer.stop_in_process()
    assert preparer.start_in_process() is None
