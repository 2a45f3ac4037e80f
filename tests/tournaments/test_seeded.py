"""A seeded tournament (issue 42): its own deal, prepared by the solver when it is created,
played ranked through ``POST /tournaments/{id}/plays`` by its entrants, counted in its
standing, frozen, following fair play; never practised nor shown while it runs
(docs/tournaments.md, "Seeded tournaments"). On PostgreSQL and Redis, through the API.
"""

from __future__ import annotations

import datetime as dt
import json

import pytest
from django.utils import timezone

from fairplay import services as fairplay
from fairplay.models import Review
from games import engine
from games.models import Deal, Play, Source
from leaderboard import groups, ranking
from tests.factories import client_for, make_user
from tests.hostile.test_practice_daily import SUITS, seahaven_deck_from_view
from tournaments import receivers, seeding, tasks
from tournaments.models import DealRule, Standing, Tournament, TournamentDeal

pytestmark = [pytest.mark.postgres, pytest.mark.redis]


def _group_with(owner, *members):
    group = groups.create_group(owner, "seeded club")
    for member in members:
        groups.join_group(member, group.code)
    return group


def _body(group, **extra):
    now = timezone.now()
    return {
        "group": group.pk,
        "name": "Seeded cup",
        "preset": "seahaven",
        "deal_rule": "seeded",
        "attempts": 2,
        "starts_at": (now - dt.timedelta(hours=1)).isoformat(),
        "ends_at": (now + dt.timedelta(hours=2)).isoformat(),
        **extra,
    }


def _seeded(owner, *members, **extra) -> tuple[Tournament, str]:
    """A running seeded tournament of seahaven (whose deals the solver decides in a
    second), its deal prepared as the creation's commit queued it, members joined."""
    group = _group_with(owner, *members)
    created = client_for(owner).post("/api/v1/tournaments", _body(group, **extra))
    assert created.status_code == 201, created.content
    url = f"/api/v1/tournaments/{created.json()['id']}"
    for member in members:
        assert client_for(member).post(f"{url}/join").status_code == 201
    return Tournament.objects.get(pk=created.json()["id"]), url


@pytest.fixture
def published(monkeypatch):
    """The tournament stream's events, as the receivers publish them."""
    sent: list[tuple[str, str, dict]] = []
    monkeypatch.setattr(receivers, "publish", lambda *event: sent.append(event))
    return sent


def _start(player, url):
    return client_for(player).post(f"{url}/plays")


def _play_out(player, play, moves):
    """Send ``moves`` as one batch (seahaven deals every card face up: nothing is revealed,
    so a ranked batch may run to the end)."""
    body = {"seq": play["seq"], "moves": moves}
    moved = client_for(player).post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    assert moved.status_code == 200, moved.content
    return moved.json()


def _resign(player, play):
    return _play_out(player, play, [{"type": "resign"}])


def test_create_prepare_join_play_standings_freeze(
    db, django_capture_on_commit_callbacks, published
):
    owner, ann, bob = make_user("sowner"), make_user("sann"), make_user("sbob")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann, bob)

    # Prepared once created: the solver's win, replayed by the engine, wins the deal.
    deal = seeding.own_deal(tournament)
    assert deal is not None and deal.source == Source.EVENT and deal.verdict == "winnable"
    candidates = {seeding.candidate_seed(tournament, n) for n in range(len(deal.attempts) + 1)}
    assert deal.seed in candidates and deal.deck == engine.format_deck(
        engine.deck_from_seed(deal.seed)
    )
    rules = engine.get_rules("seahaven")
    state = engine.new_game(rules, engine.parse_deck(deal.deck))
    for move in deal.solution:
        state = engine.apply_move(state, engine.Move.from_dict(move))
    assert engine.status(state) == engine.WON and deal.par == len(deal.solution)
    assert tasks.prepare_seeded_deal(tournament.pk)["created"] is False  # idempotent
    assert Deal.objects.filter(source=Source.EVENT).count() == 1

    shown = client_for(ann).get(url).json()
    assert shown["deal_rule"] == "seeded" and shown["deal_ready"] is True

    with django_capture_on_commit_callbacks(execute=True):
        ann_play = _start(ann, url)
        assert ann_play.status_code == 201, ann_play.content
        assert ann_play["Location"].endswith(ann_play.json()["id"])
        assert ann_play.json()["ranked"] is True and ann_play.json()["daily"] is None
        won = _play_out(ann, ann_play.json(), deal.solution)
        assert won["status"] == "won"
        bob_play = _start(bob, url).json()
        _resign(bob, bob_play)
    assert [event[1] for event in published] == ["standings", "standings"]
    assert [p["username"] for p in published[-1][2]["standings"]] == ["sann", "sbob"]

    live = client_for(owner).get(url).json()
    ranked = [(p["rank"], p["username"], p["wins"], p["plays"]) for p in live["standings"]]
    assert ranked == [(1, "sann", 1, 1), (2, "sbob", 0, 1)]
    assert live["standings"][0]["points"] == ranking.WIN_POINTS
    assert live["standings"][0]["moves"] == len(deal.solution)
    assert not Play.objects.filter(score__isnull=False).exists()  # on no daily board

    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    assert tasks.freeze_closed() == 1
    final = client_for(bob).get(url).json()
    assert final["status"] == "final"
    assert [(p["rank"], p["username"]) for p in final["standings"]] == [(1, "sann"), (2, "sbob")]

    # Fair play confirms a flag on ann's win after the freeze: the final standing follows.
    review = Review.objects.create(play_id=ann_play.json()["id"], player=ann)
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.confirm(review, owner)
    final = client_for(bob).get(url).json()
    assert [(p["rank"], p["username"]) for p in final["standings"]] == [(1, "sbob")]
    assert Standing.objects.filter(tournament=tournament).count() == 1
    with django_capture_on_commit_callbacks(execute=True):
        fairplay.clear(Review.objects.get(pk=review.pk), owner)
    final = client_for(bob).get(url).json()
    assert [p["username"] for p in final["standings"]] == ["sann", "sbob"]


def test_refusals(db, django_capture_on_commit_callbacks):
    owner, ann, stranger = make_user("rowner"), make_user("rann"), make_user("rstranger")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann, attempts=1)
    groups.join_group(stranger, tournament.group.code)

    def code(response, status):
        assert response.status_code == status, response.content
        assert response["Content-Type"].startswith("application/problem+json")
        return response.json()["code"]

    assert code(_start(stranger, url), 403) == "tournament_not_joined"
    assert code(client_for(make_user()).post(f"{url}/plays"), 404) == "tournament_not_found"
    play = _start(ann, url)
    assert play.status_code == 201
    answer = _start(ann, url)
    assert code(answer, 409) == "tournament_attempts_used" and answer.json()["attempts"] == 1

    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() + dt.timedelta(hours=1)
    )
    assert code(_start(ann, url), 409) == "tournament_not_started"
    Tournament.objects.filter(pk=tournament.pk).update(
        starts_at=timezone.now() - dt.timedelta(hours=3), ends_at=timezone.now()
    )
    assert code(_start(ann, url), 409) == "tournament_over"

    daily_one = client_for(owner).post(
        "/api/v1/tournaments", _body(tournament.group, deal_rule="daily")
    )
    assert code(client_for(owner).post(f"{daily_one['Location']}/plays"), 409) == (
        "tournament_not_seeded"
    )


def test_a_deal_not_prepared_yet_is_refused_until_the_beat_prepares_it(db):
    owner, ann = make_user("nowner"), make_user("nann")
    tournament, url = _seeded(owner, ann)  # the commit's hook never ran: no deal yet
    assert not TournamentDeal.objects.filter(tournament=tournament).exists()
    assert client_for(ann).get(url).json()["deal_ready"] is False
    answer = _start(ann, url)
    assert answer.status_code == 409 and answer.json()["code"] == "tournament_deal_not_ready"
    assert tasks.prepare_seeded_deals() == 1  # eager: queued and prepared
    assert tasks.prepare_seeded_deals() == 0
    assert _start(ann, url).status_code == 201


def test_the_live_deal_is_never_practised_nor_shown(db, django_capture_on_commit_callbacks):
    owner, ann = make_user("lowner"), make_user("lann")
    with django_capture_on_commit_callbacks(execute=True):
        tournament, url = _seeded(owner, ann)
    deal = seeding.own_deal(tournament)
    client = client_for(ann)

    # Nothing of the deal leaves through a tournament endpoint while it runs.
    secrets = [json.dumps(deal.deck), json.dumps(deal.solution[:3])[1:-1], str(deal.seed)]
    answers = [
        client.get("/api/v1/tournaments"),
        client.get(url),
        client.post(f"{url}/join"),
        client_for(owner).post("/api/v1/tournaments", _body(tournament.group, name="another")),
    ]
    for answer in answers:
        text = answer.content.decode()
        assert answer.status_code in (200, 201)
        assert all(secret not in text for secret in secrets)
        assert '"par"' not in text and '"deck"' not in text and '"solution"' not in text

    # An entrant's ranked start shows every card (seahaven); sent back as a practice deck,
    # whole or disguised (columns, cells, suits, another preset), a seed: refused.
    ranked = _start(ann, url).json()
    seen = seahaven_deck_from_view(ranked, list(range(10)), [0, 1], SUITS)
    assert seen == deal.deck

    def practice(**body):
        answer = client.post("/api/v1/plays", body, format="json")
        assert answer.status_code == 409, answer.content
        assert answer.json()["code"] == "live_tournament_deal"

    practice(preset="seahaven", deck=seen)
    practice(
        preset="seahaven",
        deck=seahaven_deck_from_view(ranked, [9, 8, 7, 6, 5, 4, 3, 2, 1, 0], [1, 0], "HSCD"),
    )
    practice(
        preset="westcliff",
        deck=seahaven_deck_from_view(ranked, [3, 1, 4, 0, 5, 9, 2, 6, 8, 7], [0, 1], "CDHS"),
    )
    practice(preset="seahaven", seed=deal.seed)
    no_hint = client.post(f"/api/v1/plays/{ranked['id']}/hint")
    assert no_hint.status_code in (403, 409)

    # Once the window has closed the deal may be practised like a past daily.
    Tournament.objects.filter(pk=tournament.pk).update(ends_at=timezone.now())
    assert (
        client.post(
            "/api/v1/plays", {"preset": "seahaven", "deck": seen}, format="json"
        ).status_code
        == 201
    )


def test_the_admin_accepts_the_seeded_rule_and_the_weekly_cup_stays_daily(
    db, settings, django_capture_on_commit_callbacks
):
    from tournaments.admin import TournamentForm

    now = timezone.now()
    form = TournamentForm(
        data={
            "name": "Operators' seeded",
            "preset": "seahaven",
            "options": "{}",
            "deal_rule": DealRule.SEEDED,
            "starts_at": now + dt.timedelta(hours=1),
            "ends_at": now + dt.timedelta(days=1),
            "join_until": now + dt.timedelta(hours=20),
            "max_players": 100,
            "attempts": 3,
            "scoring": "best",
        }
    )
    assert form.is_valid(), form.errors
    with django_capture_on_commit_callbacks(execute=True):
        made = form.save()
    assert made.deal_rule == DealRule.SEEDED
    assert seeding.own_deal(made) is not None  # prepared before its window opens
    edit = {**form.data, "preset": "easthaven"}
    refused = TournamentForm(data=edit, instance=Tournament.objects.get(pk=made.pk))
    assert not refused.is_valid()
    assert "Its deal is prepared: preset can no longer change." in refused.errors["__all__"]
    renamed = TournamentForm(
        data={**form.data, "name": "Renamed"}, instance=Tournament.objects.get(pk=made.pk)
    )
    assert renamed.is_valid(), renamed.errors
    renamed.save()
    assert Tournament.objects.get(pk=made.pk).preset == "seahaven"
    settings.TOURNAMENTS_WEEKLY_PRESETS = ["easthaven"]
    tasks.create_weekly_cups()
    assert Tournament.objects.get(recurrence__startswith="weekly-cup:").deal_rule == "daily"
