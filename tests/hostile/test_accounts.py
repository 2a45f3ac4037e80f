"""Hostile clients against accounts (docs/api/accounts.md): forged and reused device
secrets, racing first sign-ins and links, deletion during a move, sign-out replays, guest
floods, stolen refresh tokens. Real transactions on PostgreSQL, boards in Redis."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient

from accounts.models import AccountName, Device
from games.models import Play
from leaderboard.models import Score
from tests.accounts.fixtures import _accounts_settings, detector_records, today_deals
from tests.accounts.helpers import (
    PASSWORD,
    guest,
    link,
    new_device,
    new_guest,
    refresh,
    signed_in,
)
from tests.fairplay.helpers import assert_redis_equals_postgres, live_refs

from .tally import check

__all__ = ["_accounts_settings", "detector_records", "today_deals"]

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("detector_records"),
]


def at_once(*calls: Callable[[], Any]) -> list[Any]:
    """Run the calls in threads released together; their results, in order."""
    barrier = threading.Barrier(len(calls))
    results: list[Any] = [None] * len(calls)

    def run(index: int, call: Callable[[], Any]) -> None:
        try:
            barrier.wait(timeout=10)
            results[index] = call()
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=pair) for pair in enumerate(calls)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return results


def test_forged_secrets_for_a_known_device_are_refused():
    device = new_device()
    check("accounts", guest(APIClient(), device), {201})
    for _ in range(5):
        forged = {**device, "device_secret": new_device()["device_secret"]}
        check("accounts", guest(APIClient(), forged), {401}, "device_secret_mismatch")
    # One character off is as wrong as any other secret.
    last = device["device_secret"][-2]
    near = (
        device["device_secret"][:-2] + ("A" if last != "A" else "B") + device["device_secret"][-1]
    )
    check("accounts", guest(APIClient(), {**device, "device_secret": near}), {401})
    assert Device.objects.count() == 1


def test_a_reused_secret_is_no_identity():
    """A secret sent with another device id makes another guest, never the first one."""
    first = new_device()
    mine = check("accounts", guest(APIClient(), first), {201}).json()
    copied = {**new_device(), "device_secret": first["device_secret"]}
    theirs = check("accounts", guest(APIClient(), copied), {201}).json()
    assert theirs["username"] != mine["username"]
    assert get_user_model().objects.count() == 2


def test_a_device_signing_in_twice_at_once_gets_one_account():
    device = new_device()
    answers = at_once(lambda: guest(APIClient(), device), lambda: guest(APIClient(), device))
    assert sorted(answer.status_code for answer in answers) == [200, 201]
    assert len({answer.json()["username"] for answer in answers}) == 1
    assert Device.objects.count() == 1 and get_user_model().objects.count() == 1


def test_two_links_of_one_guest_at_once_give_one_account():
    """The loser is refused: 409 ``already_linked`` when it got past authentication before
    the winner's commit, else 401 (the link changed the password its token is stamped with:
    a guest's tokens end with its link)."""
    client, tokens, _ = new_guest()
    second = signed_in(tokens)
    answers = at_once(lambda: link(client, "RaceOne"), lambda: link(second, "RaceTwo"))
    statuses = sorted(answer.status_code for answer in answers)
    assert statuses in ([200, 409], [200, 401]), [answer.content for answer in answers]
    loser = next(answer for answer in answers if answer.status_code != 200)
    check("accounts", loser, {401, 409})
    if loser.status_code == 409:
        assert loser.json()["code"] == "already_linked"
    winner = next(answer for answer in answers if answer.status_code == 200).json()["username"]
    assert list(get_user_model().objects.values_list("username", flat=True)) == [winner]
    assert AccountName.objects.get().key == winner.lower()
    # Once linked, a link with a fresh token of the account is the plain 409.
    again = link(signed_in(refresh_pair(winner)), "RaceThree")
    check("accounts", again, {409}, "already_linked")


def refresh_pair(username: str) -> dict[str, Any]:
    answer = APIClient().post(
        "/api/v1/auth/token", {"username": username, "password": PASSWORD}, format="json"
    )
    assert answer.status_code == 200, answer.content
    return answer.json()


def test_two_guests_linking_one_name_at_once_get_one_200():
    first, _, _ = new_guest()
    second, _, _ = new_guest()
    answers = at_once(lambda: link(first, "Wanted"), lambda: link(second, "WANTED"))
    assert sorted(answer.status_code for answer in answers) == [200, 409]
    assert AccountName.objects.filter(key="wanted").count() == 1


def test_deleting_during_moves_answers_no_500_and_leaves_the_boards_true(today_deals):
    stays, _, _ = new_guest()
    leaves, _, device = new_guest()
    plays = []
    for client in (stays, leaves):
        started = client.post(
            "/api/v1/plays", {"preset": "easthaven", "daily": "today"}, format="json"
        )
        assert started.status_code == 201, started.content
        plays.append(started.json())
    # The stayer's play ends first (a score on every board) before the race.
    done = stays.post(
        f"/api/v1/plays/{plays[0]['id']}/moves",
        {"seq": plays[0]["seq"], "move": {"type": "resign"}},
        format="json",
    )
    assert done.status_code == 200, done.content
    mine = plays[1]
    statuses: list[int] = []

    def keep_moving() -> None:
        seq = mine["seq"]
        for _ in range(30):
            response = leaves.post(
                f"/api/v1/plays/{mine['id']}/moves",
                {"seq": seq, "move": {"type": "deal"}},
                format="json",
            )
            statuses.append(response.status_code)
            if response.status_code != 200:
                return
            seq = response.json()["seq"]

    def delete() -> int:
        body = {"device_secret": device["device_secret"]}
        return leaves.delete("/api/v1/players/me", body, format="json").status_code

    _, deleted = at_once(keep_moving, delete)
    assert deleted == 204
    assert 500 not in statuses and set(statuses) <= {200, 401, 404, 409, 422}, statuses
    assert not Play.objects.filter(pk=mine["id"]).exists()
    assert list(Score.objects.values_list("play_id", flat=True)) == [Play.objects.get().pk]
    assert_redis_equals_postgres(live_refs())


def test_a_replayed_logout_is_401_and_the_token_stays_dead():
    _, tokens, _ = new_guest()
    body = {"refresh": tokens["refresh"]}
    check("accounts", APIClient().post("/api/v1/auth/logout", body, format="json"), {204})
    for _ in range(3):
        replay = APIClient().post("/api/v1/auth/logout", body, format="json")
        check("accounts", replay, {401}, "token_not_valid")
    check("accounts", refresh(tokens["refresh"]), {401})


def test_a_guest_flood_is_throttled_per_address(settings):
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "auth": "5/min"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    flood = [guest(APIClient(), new_device(), REMOTE_ADDR="203.0.113.9") for _ in range(8)]
    assert [answer.status_code for answer in flood] == [201] * 5 + [429] * 3
    assert int(flood[-1]["Retry-After"]) > 0
    check("accounts", guest(APIClient(), new_device(), REMOTE_ADDR="203.0.113.10"), {201})
    assert Device.objects.count() == 6


def test_a_stolen_refresh_token_is_refused_after_logout_and_after_a_password_change():
    client, _, _ = new_guest()
    linked = check("accounts", link(client, "Victim"), {200}).json()
    stolen = (
        APIClient()
        .post("/api/v1/auth/token", {"username": "Victim", "password": PASSWORD}, format="json")
        .json()
    )
    check("accounts", refresh(stolen["refresh"]), {200})  # the thief's copy works, so far
    # The owner signs out of the device the token was stolen from: that token dies.
    logout = APIClient().post("/api/v1/auth/logout", {"refresh": stolen["refresh"]}, format="json")
    check("accounts", logout, {204})
    check("accounts", refresh(stolen["refresh"]), {401})
    # A second copy, stolen before the password change: dead with every other one.
    stolen_again = (
        APIClient()
        .post("/api/v1/auth/token", {"username": "Victim", "password": PASSWORD}, format="json")
        .json()
    )
    practice = {"preset": "easthaven", "seed": 7}
    play = signed_in(stolen_again).post("/api/v1/plays", practice, format="json").json()
    changed = signed_in(linked).post(
        "/api/v1/auth/password",
        {"old_password": PASSWORD, "new_password": "a new long phrase"},
        format="json",
    )
    check("accounts", changed, {200})
    check("accounts", refresh(stolen_again["refresh"]), {401})
    check("accounts", refresh(linked["refresh"]), {401})
    # The stolen access token dies too, on the move path as everywhere else.
    thief = signed_in(stolen_again)
    check("accounts", thief.get("/api/v1/players/me"), {401})
    move = {"seq": 0, "move": {"type": "deal"}}
    check("accounts", thief.post(f"/api/v1/plays/{play['id']}/moves", move, format="json"), {401})
    owner = signed_in(changed.json())
    check("accounts", owner.post(f"/api/v1/plays/{play['id']}/moves", move, format="json"), {200})
