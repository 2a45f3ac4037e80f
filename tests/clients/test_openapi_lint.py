"""The served schema passes Redocly's recommended rules with no error (issue 46).

``@redocly/cli`` is pinned in ``clients/lint/package-lock.json`` and installed with npm's
cache in the ignored ``clients/ts/.npm-cache`` (as the TypeScript client test does).
Warnings are printed, not failed: the one left is ``info-license`` (the project states
no license to declare).
"""

from __future__ import annotations

import shutil

import pytest
from rest_framework.test import APIClient

from .conftest import ROOT, need, run

pytestmark = [pytest.mark.clients, pytest.mark.django_db]

LINT = ROOT / "clients" / "lint"


def test_the_schema_has_no_redocly_error(tmp_path):
    need("node", "npm")
    schema = tmp_path / "schema.json"
    schema.write_bytes(APIClient().get("/api/v1/schema/?format=json").content)
    work = tmp_path / "lint"
    work.mkdir()
    for name in ("package.json", "package-lock.json", "redocly.yaml"):
        shutil.copy(LINT / name, work / name)
    cache = ROOT / "clients" / "ts" / ".npm-cache"
    run(
        ["npm", "ci", "--no-audit", "--no-fund", "--prefer-offline", "--cache", str(cache)],
        work,
    )
    output = run(["npm", "run", "lint"], work, env={"HAVEN_SCHEMA": str(schema)})
    assert "Your API description is valid" in output
    print(output[-2000:])
