"""One account per name: look-alike spellings of a taken name are 409, whoever races.

Names are compared by their key, NFKC then casefold (``games.accounts``); the database
holds the key under a unique index, so concurrent registrations cannot slip past the
check. Signing in and profiles accept any spelling with the same key.
"""

from __future__ import annotations

import importlib
import threading

import pytest
from django.apps import apps as django_apps
from django.contrib.auth import get_user_model
from django.db import connection
from rest_framework.test import APIClient
from rest_framework_simplejwt.tokens import AccessToken

from games import accounts
from games.models import AccountName

from .tally import check, lost

pytestmark = pytest.mark.django_db

PASSWORD = "a-long-enough-passphrase"

# (registered first, look-alike registered second): every second one is refused.
LOOKALIKES = [
    ("alice", "ALICE"),
    ("alice", "Alice"),
    ("alice", "ａｌｉｃｅ"),  # fullwidth
    ("alice", "ＡＬＩＣＥ"),  # fullwidth capitals
    ("Ａｌｉｃｅ", "alice"),  # fullwidth first
    ("strasse", "STRAßE"),  # ß folds to ss
    ("file", "ﬁle"),  # the fi ligature
    ("kelvin", "\u212aelvin"),  # the Kelvin sign
    ("bob2", "bob²"),  # superscript two
    ("ix", "Ⅸ"),  # roman numeral nine
    ("max_", "ｍａｘ＿"),  # fullwidth low line
    ("anna", "ａnna"),  # one fullwidth letter
    ("ǆemal", "Ǆemal"),  # the dz digraph, title-cased
]


def register(client: APIClient, username: object, password: object = PASSWORD):
    return client.post(
        "/api/v1/auth/register", {"username": username, "password": password}, format="json"
    )


def login(client: APIClient, username: object, password: object = PASSWORD):
    return client.post(
        "/api/v1/auth/token", {"username": username, "password": password}, format="json"
    )


def user_id_of(token: str) -> int:
    return int(AccessToken(token)["user_id"])


@pytest.mark.parametrize(("first", "second"), LOOKALIKES)
def test_a_lookalike_of_a_taken_name_is_409(anon, first, second):
    created = check("names", register(anon, first), {201}).json()
    lost("names", 1 - get_user_model().objects.filter(username=created["username"]).count())
    check("names", register(anon, second), {409}, "username_taken")
    assert AccountName.objects.filter(key=accounts.name_key(first)).count() == 1
    assert get_user_model().objects.count() == 1


@pytest.mark.parametrize(("first", "second"), LOOKALIKES)
def test_any_spelling_signs_in_to_the_one_account(anon, first, second):
    created = check("names", register(anon, first), {201}).json()
    for spelling in (first, second, accounts.display_form(first)):
        answer = check("names", login(anon, spelling), {200}).json()
        assert user_id_of(answer["access"]) == user_id_of(created["access"])
    check("names", login(anon, second, "wrong-password"), {401})


def test_names_are_stored_in_nfkc_form(anon):
    body = check("names", register(anon, "Ａｌｉｃｅ"), {201}).json()
    assert body["username"] == "Alice"
    assert get_user_model().objects.get().username == "Alice"


def test_profiles_are_found_by_any_spelling(anon):
    check("names", register(anon, "Alice"), {201})
    for spelling in ("Alice", "alice", "ＡＬＩＣＥ"):
        response = check("names", anon.get(f"/api/v1/players/{spelling}"), {200})
        assert response.json()["username"] == "Alice"


def test_a_name_that_normalises_past_the_limit_is_400(anon):
    # U+FDFA is one character that NFKC expands to eighteen.
    check("names", register(anon, "\ufdfa" * 10), {400}, "validation_error")


def test_names_made_by_other_paths_are_keyed_too(anon):
    """Users created outside the API (admin, createsuperuser, scripts) get a key as well."""
    get_user_model().objects.create_user(username="Operator", password=PASSWORD)
    check("names", register(anon, "operator"), {409}, "username_taken")
    check("names", login(anon, "OPERATOR"), {200})


def test_the_migration_keys_existing_users_and_parks_old_duplicates():
    """Accounts created before the key existed: the oldest keeps it, later look-alikes are
    parked under ``<key>#<id>`` and still sign in by their exact name."""
    migration = importlib.import_module("games.migrations.0003_accountname")
    users = get_user_model()
    users.objects.bulk_create(  # bulk_create sends no post_save: no keys yet
        [users(username=name) for name in ("alice", "ALICE", "ａｌｉｃｅ", "bob")]
    )
    AccountName.objects.all().delete()
    migration.add_keys(django_apps, None)
    keys = dict(AccountName.objects.values_list("user__username", "key"))
    _, upper, wide, _ = (user.pk for user in users.objects.order_by("pk"))
    assert keys == {
        "alice": "alice",
        "ALICE": f"alice#{upper}",
        "ａｌｉｃｅ": f"alice#{wide}",
        "bob": "bob",
    }
    parked = users.objects.get(pk=wide)
    parked.set_password(PASSWORD)
    parked.save()
    answer = check("names", login(APIClient(), "ａｌｉｃｅ"), {200}).json()
    assert user_id_of(answer["access"]) == wide


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_registrations_of_lookalikes_get_one_201():
    """Eight threads, eight spellings of one name, real transactions: one account."""
    spellings = ["racer", "RACER", "Racer", "ｒａｃｅｒ", "ＲＡＣＥＲ", "rAcEr", "raceR", "ｒacer"]
    barrier = threading.Barrier(len(spellings))
    statuses: list[int] = []
    responses = []

    def attempt(name: str) -> None:
        try:
            client = APIClient()
            barrier.wait(timeout=10)
            response = register(client, name)
            statuses.append(response.status_code)
            responses.append(response)
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(name,)) for name in spellings]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    for response in responses:
        check("names", response, {201, 409})
    assert sorted(statuses) == [201] + [409] * (len(spellings) - 1), statuses
    assert AccountName.objects.filter(key="racer").count() == 1
    users = get_user_model().objects.filter(account_name__key="racer")
    lost("names", 1 - users.count())  # the one 201 must have its account
    assert users.count() == 1


def test_the_admin_refuses_a_lookalike_with_a_form_error():
    from django.test import Client

    get_user_model().objects.create_superuser("root", "root@example.com", "admin-pass-123")
    get_user_model().objects.create_user(username="strasse", password=PASSWORD)
    admin = Client()
    admin.login(username="root", password="admin-pass-123")
    form = {"username": "STRAßE", "password1": PASSWORD, "password2": PASSWORD}
    response = admin.post("/admin/auth/user/add/", form)
    check("names", response, {200})  # the form again, with its error
    assert "same spelling" in response.content.decode()
    assert get_user_model().objects.count() == 2
    form["username"] = "Ｂｏｂ"
    check("names", admin.post("/admin/auth/user/add/", form), {302})
    assert get_user_model().objects.filter(username="Bob").exists()
