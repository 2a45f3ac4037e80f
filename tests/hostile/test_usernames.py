"""One account per name: look-alike spellings of a taken name are 409, whoever races.

Names are compared by their key, NFKC then casefold (``accounts.names``); the database
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

from accounts import names as accounts
from accounts.models import AccountName, NameSkeleton

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


class LiveModels:
    """The live app registry as the games migrations saw it: their AccountName and
    NameSkeleton are the accounts app's now (same tables, accounts 0001)."""

    def get_model(self, app_label: str, model_name: str):
        if model_name in ("AccountName", "NameSkeleton"):
            app_label = "accounts"
        return django_apps.get_model(app_label, model_name)


def test_the_migration_keys_existing_users_and_parks_old_duplicates():
    """Accounts created before the key existed: the oldest keeps it, later look-alikes are
    parked under ``<key>#<id>`` and still sign in by their exact name."""
    migration = importlib.import_module("games.migrations.0003_accountname")
    users = get_user_model()
    users.objects.bulk_create(  # bulk_create sends no post_save: no keys yet
        [users(username=name) for name in ("alice", "ALICE", "ａｌｉｃｅ", "bob")]
    )
    AccountName.objects.all().delete()
    migration.add_keys(LiveModels(), None)
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


def signed_in_admin(existing: str):
    """A superuser's admin client, beside one existing account named ``existing``."""
    from django.test import Client

    get_user_model().objects.create_superuser("root", "root@example.com", "admin-pass-123")
    get_user_model().objects.create_user(username=existing, password=PASSWORD)
    admin = Client()
    admin.login(username="root", password="admin-pass-123")
    return admin


def test_the_admin_refuses_a_lookalike_with_a_form_error():
    admin = signed_in_admin("strasse")
    form = {"username": "STRAßE", "password1": PASSWORD, "password2": PASSWORD}
    response = admin.post("/admin/auth/user/add/", form)
    check("names", response, {200})  # the form again, with its error
    assert "same spelling" in response.content.decode()
    assert get_user_model().objects.count() == 2
    form["username"] = "Ｂｏｂ"
    check("names", admin.post("/admin/auth/user/add/", form), {302})
    assert get_user_model().objects.filter(username="Bob").exists()


# --- Look-alikes from other scripts (UTS #39, accounts.lookalikes) -------------------------------

# (registered first, look-alike registered second): the second looks like the first in some
# case, each letter from one script, so only the confusable skeleton tells them apart.
SKELETON_TWINS = [
    ("cop", "сор"),  # Cyrillic с о р
    ("paypa", "раура"),  # Cyrillic р а у р а
    ("opa", "ορα"),  # Greek ο ρ α
    ("рор", "ρορ"),  # Cyrillic first, Greek second
    ("KATE", "КАТЕ"),  # Cyrillic capitals
    ("kate", "КАТЕ"),  # ... look like a case of kate too
    ("ABBA", "ΑΒΒΑ"),  # Greek capitals
    ("Ian", "lan"),  # capital i, small L: one script, UTS #39 confusable all the same
    ("bob1", "bobl"),
]

# One name, several scripts, one letter passing for another: always 400.
MIXED_SCRIPTS = [
    ("Ada", "Adа"),  # the last letter Cyrillic
    ("paypal", "раураl"),  # Cyrillic but for the Latin l
    ("alice", "аlice"),  # a Cyrillic first letter
    ("omega", "omegα"),  # a Greek alpha
    ("Zoë", "Ζoë"),  # a Greek capital zeta
]

# Real names in one script (or a mix UTS #39 allows): accepted, next to each other.
LEGITIMATE = ["Алиса", "太郎", "Zoë", "Ζωή", "山田たろう", "Taroたろう", "김민준", "Ада", "Ada"]


@pytest.mark.postgres
@pytest.mark.parametrize(("first", "second"), SKELETON_TWINS)
def test_a_name_that_looks_like_another_in_another_script_is_409(anon, first, second):
    check("names", register(anon, first), {201})
    response = check("names", register(anon, second), {409}, "username_taken")
    assert response.json()["reason"] == "looks_like"
    assert "looks like" in response.json()["detail"]
    assert get_user_model().objects.count() == 1


@pytest.mark.postgres
@pytest.mark.parametrize(("first", "second"), MIXED_SCRIPTS)
def test_a_name_that_mixes_scripts_is_409(anon, first, second):
    check("names", register(anon, first), {201})
    response = check("names", register(anon, second), {409}, "username_taken")
    assert response.json()["reason"] == "mixed_scripts"
    assert "mixes scripts" in response.json()["detail"]
    # Refused for itself, not for the name it imitates: alone it is refused as well.
    get_user_model().objects.all().delete()
    again = check("names", register(APIClient(), second), {409}, "username_taken")
    assert again.json()["reason"] == "mixed_scripts"
    assert not get_user_model().objects.exists()


def test_a_mixed_name_is_refused_in_every_language(anon):
    response = check(
        "names",
        anon.post(
            "/api/v1/auth/register",
            {"username": "Adа", "password": PASSWORD},
            format="json",
            HTTP_ACCEPT_LANGUAGE="de",
        ),
        {409},
        "username_taken",
    )
    assert response.json()["detail"].startswith("Dieser Benutzername ist vergeben oder könnte")
    assert response.json()["reason"] == "mixed_scripts"
    assert response.json()["scripts"] == "cyrillic, latin"


@pytest.mark.postgres
def test_names_in_one_script_are_accepted_whatever_the_script(anon):
    for name in LEGITIMATE[:-1]:
        body = check("names", register(APIClient(), name), {201}).json()
        assert body["username"] == name
    # Ada (Latin) after Ада (Cyrillic): the Cyrillic д keeps them apart.
    check("names", register(anon, LEGITIMATE[-1]), {201})
    assert get_user_model().objects.count() == len(LEGITIMATE)


def test_existing_look_alikes_keep_their_names_and_block_new_ones():
    """Accounts registered before this check: the migration leaves both, the older one
    holds the skeleton, and a third look-alike is refused; renaming moves the skeletons."""
    migration = importlib.import_module("games.migrations.0005_nameskeleton")
    users = get_user_model()
    users.objects.bulk_create([users(username=name) for name in ("Ada", "Adа", "сор")])
    older, younger, cyrillic = users.objects.order_by("pk")
    AccountName.objects.all().delete()
    importlib.import_module("games.migrations.0003_accountname").add_keys(LiveModels(), None)
    NameSkeleton.objects.all().delete()
    migration.add_skeletons(LiveModels(), None)
    assert set(NameSkeleton.objects.filter(user=older).values_list("skeleton", flat=True)) == {
        "Ada",
        "ada",
        "ADA",
    }
    assert not NameSkeleton.objects.filter(user=younger).exists()
    assert users.objects.count() == 3
    check("names", register(APIClient(), "ADA"), {409}, "username_taken")  # same key
    check("names", register(APIClient(), "АDА"), {409}, "username_taken")  # mixed
    check("names", register(APIClient(), "cop"), {409}, "username_taken")
    younger.save()  # a save of an old duplicate, name unchanged, writes nothing new
    assert not NameSkeleton.objects.filter(user=younger).exists()
    cyrillic.username = "Cyril"
    cyrillic.save()
    check("names", register(APIClient(), "cop"), {201})  # сор's skeleton left with its name
    response = check("names", register(APIClient(), "Cyri1"), {409}, "username_taken")
    assert response.json()["reason"] == "looks_like"


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_racing_registrations_of_script_lookalikes_get_one_201():
    """Eight threads, one name in Latin, Cyrillic, mixed and in capitals: one account."""
    spellings = ["copa", "сора", "СОРА", "COPA", "сорa", "Copa", "ⅽора", "соpа"]
    barrier = threading.Barrier(len(spellings))
    responses = []

    def attempt(name: str) -> None:
        try:
            client = APIClient()
            barrier.wait(timeout=10)
            responses.append(register(client, name))
        finally:
            connection.close()

    threads = [threading.Thread(target=attempt, args=(name,)) for name in spellings]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=30)
    codes = sorted((r.status_code, r.json().get("code")) for r in responses if r.status_code != 201)
    for response in responses:
        check("names", response, {201, 409}, None)
    assert [r.status_code for r in responses].count(201) == 1, codes
    assert codes == [(409, "username_taken")] * (len(spellings) - 1)
    reasons = sorted(r.json().get("reason", "") for r in responses if r.status_code == 409)
    assert reasons.count("mixed_scripts") == 3  # сорa, ⅽора, соpа, whoever wins
    created = get_user_model().objects.filter(name_skeletons__skeleton="copa").distinct()
    lost("names", 1 - created.count())
    assert created.count() == 1
    assert get_user_model().objects.count() == 1


def test_the_admin_refuses_a_script_lookalike_with_a_form_error():
    admin = signed_in_admin("cop")
    form = {"username": "сор", "password1": PASSWORD, "password2": PASSWORD}
    response = admin.post("/admin/auth/user/add/", form)
    check("names", response, {200})
    assert "looks the same" in response.content.decode()
    form["username"] = "Adа"
    assert "mixes scripts" in admin.post("/admin/auth/user/add/", form).content.decode()
    assert get_user_model().objects.count() == 2
