"""A TypeScript client generated from the served schema plays against a live server.

openapi-typescript generates the types, ``tsc --noEmit --strict`` type-checks
``clients/ts/src/play.ts`` against them (a schema change that breaks the client fails
here), and the compiled player runs with openapi-fetch to finished plays: a practice
play with a move, a refused stale seq, undo and resign, and a Seahaven deal played to a win.
Versions are pinned in ``clients/ts/package-lock.json``; npm's cache stays in the
ignored ``clients/ts/.npm-cache``.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.factories import seahaven_win_deck

from .conftest import ROOT, need, run

pytestmark = pytest.mark.clients

TS = ROOT / "clients" / "ts"


def test_typescript_client_plays_to_finished_plays(haven, schema_file, tmp_path):
    need("node", "npm")
    work = tmp_path / "ts"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "tsconfig.json"):
        shutil.copy(TS / name, work / name)
    shutil.copytree(
        TS / "src", work / "src", ignore=shutil.ignore_patterns("schema.d.ts", "config.ts")
    )
    cache = TS / ".npm-cache"
    run(
        ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--cache", str(cache)],
        work,
    )
    run(["npm", "run", "generate"], work, env={"HAVEN_SCHEMA": str(schema_file)})
    deck = json.dumps(seahaven_win_deck())
    (work / "src" / "config.ts").write_text(
        f"export const BASE_URL = {json.dumps(haven)};\n"
        'export const USERNAME = "ts_player";\n'
        'export const PASSWORD = "a long passphrase";\n'
        f"export const WINNING_DECK: string[] = {deck};\n"
    )
    run(["npx", "--no-install", "tsc", "--noEmit", "--strict", "-p", "."], work)
    run(["npx", "--no-install", "tsc", "-p", "."], work)
    output = run(["node", "dist/play.js"], work)
    assert "won seahaven in 52 moves" in output
