"""The schema states the rules the server enforces (issue 46): for each body below, a JSON
Schema validator reading the served schema and the server give the same verdict."""

from __future__ import annotations

import datetime as dt
import json
import re

import pytest
from jsonschema import Draft7Validator

from config.web.params import DAY_PATTERN, FIRST_DAY, LAST_DAY, WEEK_PATTERN, week_in_range
from games.engine import NAMES
from leaderboard import ranking

from .helpers import start

pytestmark = pytest.mark.django_db

DECK = list(NAMES)


@pytest.fixture
def schema(anon):
    return json.loads(anon.get("/api/v1/schema/?format=json").content)


def valid(schema: dict, component: str, body: object) -> bool:
    root = {"$ref": f"#/components/schemas/{component}", "components": schema["components"]}
    return Draft7Validator(root).is_valid(body)


START_BODIES = [
    ({"preset": "westcliff", "seed": 1}, True),
    ({"preset": "seahaven", "deck": DECK}, True),
    ({"preset": "seahaven", "pysol_deal": 3, "options": {"classic_supermove": True}}, True),
    ({"preset": "easthaven", "seed": 2, "options": {"partial_runs": True}}, True),
    ({"preset": "westcliff", "seed": 1, "unknown_root_key": 1}, True),  # ignored at the root
    ({"preset": "westcliff"}, False),
    ({"preset": "westcliff", "seed": 1, "pysol_deal": 2}, False),
    ({"preset": "westcliff", "seed": 1, "deck": "not a deck"}, False),
    ({"preset": "seahaven", "seed": 1, "options": {"partial_runs": False}}, False),
    ({"preset": "westcliff", "seed": 1, "options": {"classic_supermove": True}}, False),
    ({"preset": "westcliff", "seed": 1, "options": {"other": True}}, False),
    ({"preset": "seahaven", "deck": DECK[:51]}, False),
    ({"preset": "seahaven", "deck": [*DECK[:51], DECK[0]]}, False),
    ({"preset": "Seahaven", "seed": 1}, False),
]


@pytest.mark.parametrize(("body", "accepted"), START_BODIES)
def test_start_bodies_schema_and_server_agree(schema, client, body, accepted):
    assert valid(schema, "StartPlayRequest", body) is accepted
    response = start(client, **body)
    assert (response.status_code == 201) is accepted, response.content


MOVE_BODIES = [
    ({"seq": 0, "move": {"type": "deal"}}, True),
    ({"seq": 0, "moves": [{"type": "deal"}]}, True),
    ({"seq": 0}, False),
    ({"seq": 0, "move": {"type": "deal"}, "moves": [{"type": "deal"}]}, False),
    ({"seq": 0, "move": {"type": "deal", "from": "t1"}}, False),
    ({"seq": 0, "move": {"type": "move", "from": "t1", "to": "t2", "colour": "red"}}, False),
    ({"seq": 0, "moves": []}, False),
]


@pytest.mark.parametrize(("body", "accepted"), MOVE_BODIES)
def test_move_bodies_schema_and_server_agree(schema, client, body, accepted):
    assert valid(schema, "PlayMoveRequest", body) is accepted
    play = start(client, preset="westcliff", seed=5).json()
    response = client.post(f"/api/v1/plays/{play['id']}/moves", body, format="json")
    assert (response.status_code == 200) is accepted, response.content


def test_day_and_week_patterns_are_exactly_the_parsers():
    day, week = re.compile(f"^({DAY_PATTERN})$"), re.compile(f"^({WEEK_PATTERN})$")
    for year in (1999, 2000, 2024, 2026, 2100, 2400, 2999, 3000):
        for month in range(14):
            for number in range(33):
                text = f"{year:04d}-{month:02d}-{number:02d}"
                try:
                    exists = FIRST_DAY <= dt.date.fromisoformat(text) <= LAST_DAY
                except ValueError:
                    exists = False
                assert bool(day.match(text)) is exists, text
        for number in range(55):
            text = f"{year:04d}-W{number:02d}"
            try:
                ranking.parse_iso_week(text)
                exists = week_in_range(text)
            except ValueError:
                exists = False
            assert bool(week.match(text)) is exists, text


def test_patterns_are_valid_ecmascript_unicode_patterns(schema):
    """No identity escape of a non-syntax character (``\\-``), which the ``u`` flag refuses."""
    syntax = set("^$\\.*+?()[]{}|/")
    escapes = set("dDwWsSbBnrtfv0123456789xuc") | syntax

    def patterns(node):
        if isinstance(node, dict):
            if isinstance(node.get("pattern"), str):
                yield node["pattern"]
            for value in node.values():
                yield from patterns(value)
        elif isinstance(node, list):
            for value in node:
                yield from patterns(value)

    found = list(patterns(schema))
    assert len(found) > 10
    for pattern in found:
        for escaped in re.findall(r"\\(.)", pattern.replace("\\\\", "")):
            assert escaped in escapes, (pattern, escaped)


def test_operations_have_summaries_and_declared_tags(schema):
    declared = {tag["name"] for tag in schema["tags"]}
    for operations in schema["paths"].values():
        for operation in operations.values():
            assert operation["summary"], operation["operationId"]
            assert set(operation["tags"]) <= declared, operation["operationId"]
    assert schema["servers"]
