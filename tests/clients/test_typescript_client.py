"""TypeScript clients generated from the served schema play against a live server.

openapi-typescript generates the types and hey-api (``@hey-api/openapi-ts``) an SDK;
``tsc --noEmit --strict`` type-checks ``clients/ts/src/play.ts`` and ``sdk_player.ts``
against them (a schema change that breaks a client fails here), and the compiled players
run: with openapi-fetch to finished plays (a practice play with a move, a refused stale
seq, undo and resign, and a Seahaven deal played to a win); with the SDK, the player's own
rank (``around=me``), a hint played into the move endpoint and a ``previous`` cursor
followed, the token given once to the client and sent where the schema's ``security``
asks for it. Versions are pinned in ``clients/ts/package-lock.json``; npm's cache stays
in the ignored ``clients/ts/.npm-cache``.
"""

from __future__ import annotations

import json
import shutil

import pytest

from tests.factories import seahaven_win_deck

from .conftest import ROOT, need, run

pytestmark = pytest.mark.clients

TS = ROOT / "clients" / "ts"


@pytest.fixture
def compiled(haven, schema_file, tmp_path):
    """clients/ts with both generated clients, type-checked and compiled against ``haven``."""
    need("node", "npm")
    work = tmp_path / "ts"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "tsconfig.json"):
        shutil.copy(TS / name, work / name)
    shutil.copytree(
        TS / "src", work / "src", ignore=shutil.ignore_patterns("schema.d.ts", "config.ts", "sdk")
    )
    cache = TS / ".npm-cache"
    run(
        ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--cache", str(cache)],
        work,
    )
    run(["npm", "run", "generate"], work, env={"HAVEN_SCHEMA": str(schema_file)})
    run(["npm", "run", "generate-sdk"], work, env={"HAVEN_SCHEMA": str(schema_file)})
    deck = json.dumps(seahaven_win_deck())
    # The deck typed as the schema says (52 cards): tsc checks every literal, no cast.
    (work / "src" / "config.ts").write_text(
        'import type { DeckStartRequest } from "./sdk/types.gen.js";\n'
        f"export const BASE_URL = {json.dumps(haven)};\n"
        'export const USERNAME = "ts_player";\n'
        'export const PASSWORD = "a long passphrase";\n'
        f'export const WINNING_DECK: DeckStartRequest["deck"] = {deck};\n'
    )
    run(["npx", "--no-install", "tsc", "--noEmit", "--strict", "-p", "."], work)
    run(["npx", "--no-install", "tsc", "-p", "."], work)
    return work


def test_typescript_client_plays_to_finished_plays(compiled):
    output = run(["node", "dist/play.js"], compiled)
    assert "won seahaven in 52 moves" in output


def test_typescript_sdk_shows_my_rank_plays_a_hint_and_pages_back(compiled):
    output = run(["node", "dist/sdk_player.js"], compiled)
    assert "rank 1 around me; played a hint; paged back through 4 plays" in output
