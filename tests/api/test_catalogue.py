"""One error catalogue: every code the source raises, the schema lists or the docs name
is a row of ``config.web.catalogue`` with one status, used everywhere."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from config.web.catalogue import CATALOGUE, RULES

ROOT = Path(__file__).resolve().parents[2]
SOURCES = [
    path
    for folder in ("games", "leaderboard", "config", "fairplay")
    for path in (ROOT / folder).rglob("*.py")
    if "migrations" not in path.parts and "solver" not in path.parts
]
# Problem(404, "code", …), problem_response(413, "code", …), problem_body(400, "code", …)
RAISED = re.compile(r"\b(?:Problem|problem_response|problem_body)\(\s*(\d{3}),\s*\"([a-z_]+)\"")
OF = re.compile(r"\bProblem\.of\(\s*\"([a-z_]+)\"")
ENGINE = re.compile(r"\b(?:RulesError|DeckError)\(\s*\"([a-z_]+)\"")
RULE = re.compile(r"\bIllegalMove\(\s*\"([a-z_]+)\"")


def _source() -> str:
    return "\n".join(path.read_text() for path in SOURCES)


def test_every_raised_code_is_catalogued_with_its_status():
    text = _source()
    found = RAISED.findall(text)
    assert len(found) > 20
    wrong = [
        (status, code)
        for status, code in found
        if CATALOGUE.get(code) is None or CATALOGUE[code].status != int(status)
    ]
    assert wrong == []
    assert [code for code in OF.findall(text) if code not in CATALOGUE] == []


def test_every_engine_code_is_catalogued():
    engine = "\n".join(p.read_text() for p in (ROOT / "games" / "engine").rglob("*.py"))
    codes = set(ENGINE.findall(engine))
    assert {"unknown_preset", "unknown_option", "invalid_deck"} <= codes
    assert codes - set(CATALOGUE) == set()
    assert all(CATALOGUE[code].status == 400 for code in codes)
    assert set(RULE.findall(engine)) - set(RULES) == set()


@pytest.mark.django_db
def test_the_schema_lists_only_catalogued_codes_under_their_status(anon):
    schema = json.loads(anon.get("/api/v1/schema/?format=json").content)
    seen = set()
    for operations in schema["paths"].values():
        for operation in operations.values():
            for status, response in operation["responses"].items():
                content = response.get("content", {}).get("application/problem+json")
                if content is None:
                    continue
                assert content["schema"] == {"$ref": "#/components/schemas/Problem"}
                codes = response["x-problem-codes"]
                assert codes, (operation["operationId"], status)
                for code in codes:
                    assert CATALOGUE[code].status == int(status), (code, status)
                seen.update(codes)
    assert len(seen) > 30
    assert schema["components"]["schemas"]["Problem"]["properties"]["code"]["enum"] == list(
        CATALOGUE
    )


def test_the_errors_page_lists_exactly_the_catalogue():
    page = (ROOT / "docs" / "api" / "errors.md").read_text()
    after_start = page.split("<!-- error-catalogue:start -->")[1]
    section = after_start.split("<!-- error-catalogue:end -->")[0]
    rows = re.findall(r"^\| `([a-z_]+)` \| (\d{3}) \|", section, re.MULTILINE)
    assert rows == [(code, str(entry.status)) for code, entry in CATALOGUE.items()]
