"""English, German and Russian: presets with rules, problem titles and details, DRF's and
Django's own messages; ``?lang`` over ``Accept-Language`` over English; codes never change."""

from __future__ import annotations

import pytest
from django.utils import translation

from config.web.catalogue import CATALOGUE, RULES
from games import engine
from games.management.commands.compile_translations import compile_catalogues
from games.preset_texts import PRESET_TEXTS

from .helpers import assert_problem, move, start

pytestmark = pytest.mark.django_db


@pytest.fixture(scope="module", autouse=True)
def _compiled_catalogues():
    """``make test`` compiles them; this keeps a bare ``pytest`` after a .po edit honest."""
    compile_catalogues()


def presets(client, **headers):
    response = client.get("/api/v1/presets", **headers)
    assert response.status_code == 200
    return response, {p["name"]: p for p in response.json()["presets"]}


def test_english_is_the_default_and_matches_the_engine(anon):
    response, by_name = presets(anon)
    assert response["Content-Language"] == "en"
    assert "Accept-Language" in response["Vary"]
    assert set(by_name) == set(engine.PRESETS)
    for name, rules in engine.PRESETS.items():
        assert by_name[name]["title"] == rules.title
        assert by_name[name]["description"] == rules.description
        assert by_name[name]["options"] == dict(rules.options)
        assert len(by_name[name]["rules"]) >= 6
        assert all(isinstance(p, str) and p for p in by_name[name]["rules"])


def test_a_german_client_reads_the_rules_in_german(anon):
    response, by_name = presets(anon, HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9,en;q=0.5")
    assert response["Content-Language"] == "de"
    easthaven = by_name["easthaven"]
    text = " ".join(easthaven["rules"])
    for term in ("Zielstapel", "Vorrat", "Auslage", "Nachlegen", "König"):
        assert term in text
    assert "Sieben Spalten" in easthaven["description"]
    assert "Türme" in " ".join(by_name["seahaven"]["rules"])
    assert "Abwurfstapel" in " ".join(by_name["westcliff"]["rules"])
    assert easthaven["name"] == "easthaven"
    assert easthaven["options"] == {"partial_runs": False}


def test_a_russian_client_reads_the_rules_in_russian(anon):
    response, by_name = presets(anon, HTTP_ACCEPT_LANGUAGE="ru")
    assert response["Content-Language"] == "ru"
    assert by_name["easthaven"]["title"] == "Истхевен"
    text = " ".join(by_name["easthaven"]["rules"])
    for term in ("основания", "колода", "столбец", "Пересдачи нет"):
        assert term in text
    assert "сброс" in " ".join(by_name["westcliff"]["rules"])


def test_lang_overrides_accept_language_and_bad_lang_is_refused(anon):
    response, by_name = presets(anon, HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == "de"
    response = anon.get("/api/v1/presets?lang=ru", HTTP_ACCEPT_LANGUAGE="de")
    assert response["Content-Language"] == "ru"
    # The schema's enum is en, de, ru: anything else is refused, in Accept-Language's tongue.
    response = anon.get("/api/v1/presets?lang=xx", HTTP_ACCEPT_LANGUAGE="de")
    body = assert_problem(response, 400, "unsupported_language")
    assert response["Content-Language"] == "de"
    assert body["title"] == "Nicht unterstützte Sprache"
    for query in ("lang=fr", "lang=", "lang=DE", "lang=de-at", "lang=de&lang=xx"):
        response = anon.get(f"/api/v1/presets?{query}")
        assert_problem(response, 400, "unsupported_language")
        assert response["Content-Language"] == "en"


def test_each_language_has_its_own_etag(anon):
    tags = {anon.get(f"/api/v1/presets?lang={lang}")["ETag"] for lang in ("en", "de", "ru")}
    assert len(tags) == 3


def test_a_german_client_reads_errors_in_german(client, anon):
    body = assert_problem(
        anon.get("/api/v1/leaderboards/klondike/all-time", HTTP_ACCEPT_LANGUAGE="de"),
        400,
        "unknown_preset",
    )
    assert body["title"] == "Unbekannte Spielvariante"
    assert body["detail"] == "Eine Spielvariante dieses Namens gibt es nicht."

    play = start(client, preset="easthaven", seed=1).json()
    response = client.post(
        f"/api/v1/plays/{play['id']}/moves",
        {"seq": 5, "move": {"type": "deal"}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    body = assert_problem(response, 409, "stale_sequence")
    assert body["title"] == "Veraltete Zugnummer"
    assert (
        body["detail"] == "Die Partie steht bei seq 0; schick den Zug mit dieser seq noch einmal."
    )
    assert body["seq"] == 0


def test_a_russian_client_reads_errors_in_russian(client):
    play = start(client, preset="easthaven", seed=1).json()
    response = client.post(
        f"/api/v1/plays/{play['id']}/moves",
        {"seq": 0, "move": {"type": "move", "from": "t0", "to": "f", "count": 2}},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    body = assert_problem(response, 422, "illegal_move")
    assert body["title"] == "Недопустимый ход"
    assert body["detail"].startswith(f"Недопустимый ход ({body['rule']}): ")
    assert body["rule"] in RULES

    response = client.post(
        "/api/v1/plays", {"preset": "easthaven"}, format="json", HTTP_ACCEPT_LANGUAGE="ru"
    )
    body = assert_problem(response, 400)
    assert body["code"] == "validation_error"
    assert body["title"] == "Недопустимые данные запроса"


def test_drf_and_django_messages_are_translated(anon):
    response = anon.post(
        "/api/v1/auth/register",
        {"username": "", "password": "12345"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="de",
    )
    body = assert_problem(response, 400, "validation_error")
    assert body["errors"]["username"] == ["Dieses Feld darf nicht leer sein."]
    response = anon.post(
        "/api/v1/auth/register",
        {"username": "ivan", "password": "12345"},
        format="json",
        HTTP_ACCEPT_LANGUAGE="ru",
    )
    body = assert_problem(response, 400, "validation_error")
    assert any("пароль" in message for message in body["errors"]["password"])
    body = assert_problem(anon.get("/api/v1/plays", HTTP_ACCEPT_LANGUAGE="ru"), 401)
    assert body["code"] == "not_authenticated"
    assert body["title"] == "Требуется вход"


def test_english_details_stay_specific(client):
    play = start(client, preset="easthaven", seed=1).json()
    body = assert_problem(move(client, play, {"type": "deal"}, seq=3), 409, "stale_sequence")
    assert body["detail"] == "the play is at seq 0, the move was sent for seq 3"
    assert body["title"] == "Stale sequence number"


@pytest.mark.parametrize("language", ["de", "ru"])
def test_every_text_is_translated(language):
    with translation.override(language):
        texts = [
            *(entry.title for entry in CATALOGUE.values()),
            *(entry.detail for entry in CATALOGUE.values() if entry.detail is not None),
            *RULES.values(),
            *(
                text
                for title, description, rules in PRESET_TEXTS.values()
                for text in (title, description, *rules)
            ),
        ]
        translated = [str(text) for text in texts]
    with translation.override("en"):
        english = [str(text) for text in texts]
    untranslated = [
        en
        for en, other in zip(english, translated, strict=True)
        if en == other and en not in ("Easthaven", "Westcliff", "Seahaven Towers")
    ]
    assert untranslated == []


def test_refusals_below_drf_speak_the_language_too(client, anon):
    body = {"preset": "easthaven", "seed": 1, "pad": "x" * (70 * 1024)}
    response = client.post("/api/v1/plays", body, format="json", HTTP_ACCEPT_LANGUAGE="ru")
    problem = assert_problem(response, 413, "payload_too_large")
    assert problem["title"] == "Слишком большое тело запроса"
    problem = assert_problem(anon.get("/api/v1/nothing-here?lang=de"), 404, "not_found")
    assert problem["title"] == "Nicht gefunden"
