"""``/api/v1/presets``' winnability field and ``POST /api/v1/plays/{id}/hint``."""

from __future__ import annotations

import json

import pytest
from django.core.cache import cache
from django.utils import timezone

from games import engine
from games.models import Play
from games.winnability import answers, hints
from games.winnability.configs import solver_version
from games.winnability.models import DealResult, HintAnswer
from tests.api.helpers import assert_problem, card_strings, hidden_cards, move, start

pytestmark = pytest.mark.django_db


def hint(client, play):
    return client.post(f"/api/v1/plays/{play['id']}/hint")


def _result(preset, seed, verdict, budget=10.0, options=""):
    DealResult.objects.create(
        preset=preset, options=options, seed=seed, budget=budget,
        solver_version=solver_version(), verdict=verdict, solved_at=timezone.now(),
    )  # fmt: skip


def test_presets_carry_each_presets_winnable_share(anon):
    for seed in range(1, 9):
        _result("seahaven", seed, "winnable" if seed <= 6 else "unwinnable")
    _result("seahaven", 9, "unknown")
    _result("seahaven", 9, "winnable", budget=60.0)  # decided at the next budget
    _result("seahaven", 10, "unknown")
    _result("seahaven", 1, "unwinnable", options="classic_supermove")  # other options
    _result("westcliff", 1, "winnable")
    DealResult.objects.filter(preset="westcliff").update(solver_version="old")
    presets = {p["name"]: p for p in anon.get("/api/v1/presets").json()["presets"]}
    seahaven = presets["seahaven"]["winnability"]
    assert seahaven["deals"] == 9 and seahaven["unknown"] == 1
    assert seahaven["winnable_share"] == pytest.approx(7 / 9, abs=1e-4)
    lo, hi = seahaven["winnable_ci95"]
    assert lo < 7 / 9 < hi
    assert seahaven["solver_version"] == solver_version()
    assert presets["westcliff"]["winnability"] is None  # only an old version's results
    assert presets["easthaven"]["winnability"] is None


def test_a_hint_is_a_legal_move_of_a_win_and_names_no_card(client):
    play = start(client, preset="easthaven", seed=55).json()
    secret = hidden_cards(play["id"])
    response = hint(client, play)
    assert response.status_code == 200, response.content
    body = response.json()
    assert body["result"] == "move" and body["seq"] == play["seq"] and not body["cached"]
    assert body["move"] in play["legal_moves"]
    assert card_strings(response.content) == set()
    assert not secret & set(json.dumps(body).replace('"', " ").split())
    assert set(body) == {"result", "move", "seq", "cached"}


def follow_hints(client, play, most: int):
    """Play every hinted move (each must be a move) until the play ends: its last state."""
    for _ in range(most):
        body = hint(client, play).json()
        assert body["result"] == "move", body
        play = move(client, play, body["move"]).json()
        if play["status"] != "playing":
            break
    return play


def test_following_the_hints_wins_the_deal(client):
    play = start(client, preset="seahaven", seed=4).json()
    assert follow_hints(client, play, 300)["status"] == "won"


def test_hints_are_cached_per_position_in_the_cache_and_the_database(client, monkeypatch):
    play = start(client, preset="seahaven", seed=6).json()
    first = hint(client, play).json()
    assert HintAnswer.objects.count() > 1  # every position of the winning line
    calls = []
    monkeypatch.setattr(hints, "solve_position", lambda *a: calls.append(a))
    assert hint(client, play).json() == {**first, "cached": True}
    cache.clear()  # the database answers, and fills the cache again
    assert hint(client, play).json() == {**first, "cached": True}
    # the next position lies on the same line: answered without solving
    play = move(client, play, first["move"]).json()
    assert hint(client, play).json()["cached"] is True
    assert calls == []


def test_a_lost_position_says_no_win_from_here(client):
    play = start(client, preset="easthaven", seed=3).json()
    assert play["status"] == "playing"
    body = hint(client, play).json()
    assert body == {"result": "no_win_from_here", "move": None, "seq": 0, "cached": False}


@pytest.fixture
def python_hints_only(monkeypatch):
    """No native prover for hints: the tests below need positions left undecided."""
    monkeypatch.setattr(answers, "PROVER_SHARE", 0)


@pytest.mark.native
def test_a_native_proof_answers_no_win_without_the_python_search(client, settings, monkeypatch):
    # Easthaven seed 9: a proof of 97,313 positions, 0.1-0.3 s for the prover (its half
    # of the budget: 4 s), several seconds for the Python search, which must not run.
    settings.HINT_BUDGET_SECONDS = 8.0

    def python_search(*args, **kwargs):
        raise AssertionError("the Python search ran after a native proof")

    monkeypatch.setattr(answers, "solve_state", python_search)
    play = start(client, preset="easthaven", seed=9).json()
    assert hint(client, play).json()["result"] == "no_win_from_here"


@pytest.mark.native
def test_following_the_provers_hints_wins_a_westcliff_deal(client, settings, monkeypatch):
    """The prover's best-first search wins westcliff-classic 93 in about 0.2-1 s (the
    Python search took PyPy 3.7 s); its line, shortened, is the hint, and following it
    wins without the Python search ever running."""
    settings.HINT_BUDGET_SECONDS = 8.0

    def python_search(*args, **kwargs):
        raise AssertionError("the Python search ran after the prover's win")

    monkeypatch.setattr(answers, "solve_state", python_search)
    play = start(client, preset="westcliff-classic", seed=93).json()
    first = hint(client, play).json()
    assert first["result"] == "move" and first["move"] in play["legal_moves"]
    assert HintAnswer.objects.count() > 50  # the line's positions, answered at once
    assert follow_hints(client, play, 400)["status"] == "won"


def test_a_broken_prover_leaves_hints_to_the_python_search(client, settings, monkeypatch, tmp_path):
    """An operator's broken prover (here one that answers nonsense) is logged and the
    Python search answers: the hint still comes, never a 500."""
    broken = tmp_path / "haven-prover"
    broken.write_text("#!/bin/sh\necho nonsense\n")
    broken.chmod(0o755)
    monkeypatch.setenv("SOLVER_NATIVE", str(broken))
    settings.HINT_BUDGET_SECONDS = 4.0
    play = start(client, preset="westcliff", seed=1).json()
    response = hint(client, play)
    assert response.status_code == 200, response.content
    assert response.json()["result"] == "move"


def test_undecided_within_the_budget_is_unknown_and_not_stored(client, settings, python_hints_only):
    settings.HINT_BUDGET_SECONDS = 0.05
    play = start(client, preset="easthaven", seed=30).json()
    body = hint(client, play).json()
    assert body["result"] == "unknown" and body["move"] is None
    assert HintAnswer.objects.count() == 0
    assert hint(client, play).json()["cached"] is True  # for a few minutes, in the cache


def test_ranked_plays_get_no_hint(client, today_deals):
    play = start(client, preset="seahaven", daily=str(timezone.now().date())).json()
    assert Play.objects.get(pk=play["id"]).ranked
    assert_problem(hint(client, play), 403, "hints_not_allowed")


def test_finished_foreign_and_missing_plays(client, other_client):
    play = start(client, preset="seahaven", seed=1).json()
    assert_problem(hint(other_client, play), 404, "not_found")
    assert_problem(hint(client, {"id": "00000000-0000-4000-8000-000000000000"}), 404)
    move(client, play, {"type": "resign"})
    assert_problem(hint(client, play), 409, "play_finished")


def test_anonymous_callers_are_refused(anon, client):
    play = start(client, preset="seahaven", seed=1).json()
    assert anon.post(f"/api/v1/plays/{play['id']}/hint").status_code == 401


def test_hints_are_rate_limited(client, settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "hints": "2/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    play = start(client, preset="seahaven", seed=1).json()
    assert hint(client, play).status_code == 200
    assert hint(client, play).status_code == 200
    assert_problem(hint(client, play), 429, "throttled")


def test_the_hint_is_in_the_schema(anon):
    schema = json.loads(
        anon.get("/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json").content
    )
    post = schema["paths"]["/api/v1/plays/{play_id}/hint"]["post"]
    assert {"200", "403", "404", "409", "429"} <= set(post["responses"])
    preset = schema["components"]["schemas"]["Preset"]["properties"]
    assert "winnability" in preset
    assert engine.PRESETS  # the schema lists every preset's shape, not its values


def test_an_unknown_goes_to_a_worker_whose_answer_the_next_request_finds(
    client, settings, monkeypatch, python_hints_only
):
    from games.winnability import tasks

    settings.HINT_BUDGET_SECONDS = 0.02
    settings.HINT_BACKGROUND_SECONDS = 5.0
    sent = []
    monkeypatch.setattr(tasks.solve_hint, "delay", lambda *args: sent.append(args))
    monkeypatch.setitem(tasks.solve_hint.app.conf, "task_always_eager", False)
    play = start(client, preset="easthaven", seed=8).json()
    body = hint(client, play).json()
    assert body["result"] == "unknown" and body["retry_after"] == 5.0
    second = hint(client, play).json()
    assert second["cached"] is True and "retry_after" not in second
    assert len(sent) == 1  # queued once per position
    preset, options, state = sent[0]
    assert (preset, options) == ("easthaven", {"partial_runs": False})
    assert tasks.solve_hint(preset, options, state) == "no_win_from_here"  # the worker's run
    body = hint(client, play).json()
    assert body == {"result": "no_win_from_here", "move": None, "seq": 0, "cached": True}


def test_without_a_broker_nothing_is_queued(client, settings, python_hints_only):
    settings.HINT_BUDGET_SECONDS = 0.02
    play = start(client, preset="easthaven", seed=8).json()
    body = hint(client, play).json()
    assert body["result"] == "unknown" and "retry_after" not in body
