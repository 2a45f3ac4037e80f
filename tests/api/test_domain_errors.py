"""Services raise domain errors (a catalogue code, a detail, extra members) and know no HTTP;
the one web layer (``config.web.problems``) gives them the catalogue's status and title."""

from __future__ import annotations

import pickle
import re
import uuid
from pathlib import Path

import pytest
from django.test import RequestFactory
from rest_framework.exceptions import APIException

from config.errors import DomainError
from config.web import documents, problems
from config.web.catalogue import CATALOGUE, status_of
from games import engine, services
from games.task_policy import RETRYABLE
from leaderboard import groups

from .helpers import assert_problem

ROOT = Path(__file__).resolve().parents[2]
#: The service modules: they refuse with DomainError, never with an HTTP Problem.
SERVICES = [
    "games/services.py",
    "games/moving.py",
    "accounts/names.py",
    "accounts/guests.py",
    "accounts/linking.py",
    "accounts/sessions.py",
    "accounts/passwords.py",
    "accounts/deletion.py",
    "config/web/idempotency.py",
    "games/winnability/hints.py",
    "leaderboard/groups.py",
    "leaderboard/moderation.py",
    "fairplay/services.py",
]
# DomainError("code", …) and a move's refusal, self._refusal(index, "code", …)
RAISED = re.compile(r"\b(?:DomainError\(|_refusal\(\s*index,)\s*\"([a-z_]+)\"")


def _sources() -> str:
    return "\n".join(
        path.read_text()
        for folder in ("games", "leaderboard", "fairplay", "config")
        for path in (ROOT / folder).rglob("*.py")
        if "migrations" not in path.parts
    )


def test_every_code_raised_as_a_domain_error_is_catalogued():
    codes = RAISED.findall(_sources())
    assert len(codes) >= 20  # the regex still finds the raise sites
    assert sorted({code for code in codes if code not in CATALOGUE}) == []


@pytest.mark.parametrize("module", SERVICES)
def test_services_raise_no_http_problem(module):
    text = (ROOT / module).read_text()
    assert not re.search(r"\bProblem\b", text), module
    assert "rest_framework.exceptions" not in text, module


@pytest.mark.django_db
def test_a_service_refuses_with_a_domain_error(player):
    with pytest.raises(DomainError) as missing:
        services.get_play(uuid.uuid4(), player)
    assert (missing.value.code, missing.value.extra) == ("not_found", {})
    assert not isinstance(missing.value, APIException)
    assert not hasattr(missing.value, "status_code")

    play = services.start_play(player, "westcliff", seed=7)
    with pytest.raises(DomainError) as stale:
        services.apply_move(play.id, player, 3, engine.Move.from_dict({"type": "undo"}))
    assert (stale.value.code, stale.value.extra) == ("stale_sequence", {"seq": 0})

    bad = engine.Move.from_dict({"type": "move", "from": "t0", "to": "t0"})
    with pytest.raises(DomainError) as batch:
        services.apply_moves(play.id, player, 0, [bad])
    assert batch.value.code == "illegal_move"
    assert batch.value.extra == {"index": 0, "rule": "same_pile"}
    assert batch.value.detail.startswith("move 0: illegal move (same_pile)")

    with pytest.raises(DomainError) as group:
        groups.group_for(player, "not a number")
    assert group.value.code == "invalid_group"


@pytest.mark.parametrize("code", ["group_full", "stale_sequence", "illegal_move", "try_again"])
def test_the_handler_gives_a_domain_error_the_catalogue_s_status(code):
    error = DomainError(code, "refused", seq=4, rule="same_pile")
    response = problems.exception_handler(error, {})
    assert response is not None
    assert response.status_code == status_of(code) == CATALOGUE[code].status
    assert response.content_type == problems.PROBLEM_CONTENT_TYPE  # set when rendered
    assert response.data == {
        "type": documents.problem_type(code),
        "title": str(CATALOGUE[code].title),
        "status": status_of(code),
        "detail": "refused",
        "code": code,
        "seq": 4,
        "rule": "same_pile",
    }


def test_an_uncatalogued_domain_error_is_a_bug_not_an_answer():
    error = DomainError("no_such_code", "a typo in a service")
    assert problems.exception_handler(error, {}) is None  # Django's 500 problem answers
    try:
        raise error
    except DomainError:
        response = problems.server_error(RequestFactory().get("/"))
    assert_problem(response, 500, "server_error")


def test_a_domain_error_below_drf_still_answers_its_problem():
    """A refusal that escapes a middleware or a plain Django view reaches ``handler500``."""
    try:
        raise DomainError("group_not_found", "no such group", group=3)
    except DomainError:
        response = problems.server_error(RequestFactory().get("/"))
    body = assert_problem(response, 404, "group_not_found")
    assert body["group"] == 3


def test_a_domain_error_outside_the_web_is_a_plain_exception():
    """Celery: pickled whole (``extra`` too), and never retried (a refusal is no outage)."""
    error = DomainError("stale_sequence", "the play is at seq 2", seq=2)
    copy = pickle.loads(pickle.dumps(error))
    assert (type(copy), copy.code, copy.detail, copy.extra) == (
        DomainError,
        "stale_sequence",
        "the play is at seq 2",
        {"seq": 2},
    )
    assert str(error) == "stale_sequence: the play is at seq 2"
    assert not isinstance(error, RETRYABLE)
