"""A seeded tournament's end: its deal is published (``GET /tournaments/{id}/deal``), its
open plays close as an expired ranked daily's do (the move path and the expiry beat,
through games' event-deal registry), and until then a practice of its deal is refused with
its own code, ``live_tournament_deal`` (docs/tournaments.md). PostgreSQL and Redis."""

from __future__ import annotations

import datetime as dt

import pytest
from django.utils import timezone

from games import events, expiry
from games.models import Play, PlayStatus
from tests.factories import client_for, make_user
from tournaments import seeding
from tournaments.models import Tournament

from .test_seeded import _body, _play_out, _seeded, _start

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _end(tournament, at=None):
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=at or timezone.now())


def _problem(response, status, code):
    assert response.status_code == status, response.content
    assert response["Content-Type"].startswith("application/problem+json")
    assert response.json()["code"] == code
    return response.json()


def test_the_deal_is_published_once_the_tournament_has_ended(
    db, django_capture_on_commit_callbacks
):
    owner, ann = make_user("powner"), make_user("pann")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann)
    deal = seeding.own_deal(tournament)
    client = client_for(ann)

    # Running: refused, and nothing of the deal in the refusal.
    early = client.get(f"{url}/deal")
    body = _problem(early, 409, "tournament_deal_not_published")
    assert dt.datetime.fromisoformat(body["published_at"]) == tournament.ends_at
    text = early.content.decode()
    assert '"deck"' not in text and '"solution"' not in text and deal.deck[0] not in text
    # Upcoming: refused as well.
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + dt.timedelta(hours=1),
        ends_at=timezone.now() + dt.timedelta(hours=2),
    )
    _problem(client.get(f"{url}/deal"), 409, "tournament_deal_not_published")

    # Ended: the deck, verdict, par and par solution, as a past daily's.
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - dt.timedelta(hours=2)
    )
    _end(tournament)
    shown = client.get(f"{url}/deal")
    assert shown.status_code == 200, shown.content
    data = shown.json()
    assert data["tournament"] == tournament.pk and data["id"] == str(deal.id)
    assert data["deck"] == deal.deck and data["solution"] == deal.solution
    assert data["par"] == deal.par == len(deal.solution) and data["verdict"] == "winnable"
    assert data["preset"] == "seahaven" and data["options"] == deal.options
    assert shown["Cache-Control"] == "private, no-cache"
    again = client.get(f"{url}/deal", HTTP_IF_NONE_MATCH=shown["ETag"])
    assert again.status_code == 304
    # Any member may read it, an entrant or not; a stranger to the group may not.
    assert client_for(owner).get(f"{url}/deal").status_code == 200
    _problem(client_for(make_user()).get(f"{url}/deal"), 404, "tournament_not_found")
    _problem(client.get("/api/v1/tournaments/999999/deal"), 404, "tournament_not_found")


def test_daily_and_dealless_tournaments_have_no_deal_to_show(db):
    owner = make_user("downer")
    tournament, url = _seeded(owner)  # the commit's hook never ran: no deal
    _end(tournament)
    _problem(client_for(owner).get(f"{url}/deal"), 404, "not_found")
    daily_one = client_for(owner).post(
        "/api/v1/tournaments", _body(tournament.group, deal_rule="daily")
    )
    _problem(client_for(owner).get(f"{daily_one['Location']}/deal"), 409, "tournament_not_seeded")


def test_an_open_play_is_closed_at_the_end_like_an_expired_ranked_daily(
    db, django_capture_on_commit_callbacks
):
    owner, ann, bob = make_user("eowner"), make_user("eann"), make_user("ebob")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann, bob)
    deal = seeding.own_deal(tournament)
    with django_capture_on_commit_callbacks(execute=True):
        ann_play = _start(ann, url).json()
        bob_play = _start(bob, url).json()
        moved = _play_out(ann, ann_play, deal.solution[:1])
    assert moved["seq"] == 1 and moved["status"] == "playing"
    ended = timezone.now() - dt.timedelta(seconds=1)
    _end(tournament, ended)
    assert events.deadline(deal.id) == ended

    # A move after the end: 409 ranked_play_expired, with the deadline; the play expired.
    client = client_for(ann)
    answer = client.post(
        f"/api/v1/plays/{ann_play['id']}/moves",
        {"seq": 1, "moves": deal.solution[1:]},
        format="json",
    )
    body = _problem(answer, 409, "ranked_play_expired")
    assert dt.datetime.fromisoformat(body["deadline"]) == ended
    assert Play.objects.get(pk=ann_play["id"]).status == PlayStatus.EXPIRED
    again = client.post(
        f"/api/v1/plays/{ann_play['id']}/moves",
        {"seq": 1, "move": {"type": "resign"}},
        format="json",
    )
    _problem(again, 409, "ranked_play_expired")

    # Bob's untouched play: the expiry beat closes it (a running tournament's play stays).
    with django_capture_on_commit_callbacks(execute=True):
        other, other_url = _seeded(owner, bob, name="still running")
    running = _start(bob, other_url).json()
    assert expiry.expire_overdue_plays() == 1
    assert Play.objects.get(pk=bob_play["id"]).status == PlayStatus.EXPIRED
    assert Play.objects.get(pk=running["id"]).status == PlayStatus.PLAYING
    assert expiry.expire_overdue_plays() == 0  # idempotent

    # Neither counts in the standing: expired plays are unfinished.
    places = client_for(owner).get(url).json()["standings"]
    assert all(place["plays"] == 0 for place in places)


def test_a_move_before_the_end_still_plays(db, django_capture_on_commit_callbacks):
    owner, ann = make_user("bowner"), make_user("bann")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann)
    deal = seeding.own_deal(tournament)
    play = _start(ann, url).json()
    _end(tournament, timezone.now() + dt.timedelta(seconds=30))
    assert _play_out(ann, play, deal.solution)["status"] == "won"
    assert expiry.expire_overdue_plays() == 0


def test_a_live_tournament_deal_is_refused_with_its_own_code(
    db, django_capture_on_commit_callbacks
):
    owner, ann = make_user("cowner"), make_user("cann")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann)
    deal = seeding.own_deal(tournament)
    client = client_for(ann)
    refused = client.post("/api/v1/plays", {"preset": "seahaven", "seed": deal.seed}, format="json")
    body = _problem(refused, 409, "live_tournament_deal")
    assert "tournament" in body["title"].lower()

    # A practice play of the deck started once it ended, then the tournament extended (an
    # operator's edit): a hint on it is refused with the tournament's code.
    _end(tournament)
    practice = client.post(
        "/api/v1/plays", {"preset": "seahaven", "deck": deal.deck}, format="json"
    )
    assert practice.status_code == 201, practice.content
    _end(tournament, timezone.now() + dt.timedelta(hours=1))
    hint = client.post(f"/api/v1/plays/{practice.json()['id']}/hint")
    _problem(hint, 409, "live_tournament_deal")
    # In German too, from the catalogue's translation.
    german = client.post(
        "/api/v1/plays",
        {"preset": "seahaven", "seed": deal.seed},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    assert _problem(german, 409, "live_tournament_deal")["title"] == "Laufendes Turnierspiel"
