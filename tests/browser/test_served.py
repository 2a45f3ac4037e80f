"""The web client is served by WhiteNoise at /play/ as plain files (no browser needed)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2] / "webclient" / "play"
IMPORT = re.compile(r"""(?:import|from)\s*\(?\s*["'`]([^"'`]+)["'`]""")


def client_files() -> list[Path]:
    return sorted(p for p in ROOT.rglob("*") if p.is_file())


def test_page_and_modules_are_served(client):
    page = client.get("/play/")
    assert page.status_code == 200
    assert page["Content-Type"].startswith("text/html")
    html = b"".join(page.streaming_content).decode() if page.streaming else page.content.decode()
    assert '<script type="module" src="app/main.js"></script>' in html
    assert client.get("/play").status_code in (301, 302)
    for path in client_files():
        response = client.get("/play/" + path.relative_to(ROOT).as_posix())
        assert response.status_code in (200, 302), path
    script = client.get("/play/app/main.js")
    assert script["Content-Type"].startswith("text/javascript")


@pytest.mark.parametrize("path", [p for p in client_files() if p.suffix == ".js"], ids=str)
def test_modules_import_only_files_of_the_client(path):
    """No CDN, no bare package names: every import is a file shipped here."""
    for target in IMPORT.findall(path.read_text()):
        if "${" in target:  # the language files, loaded by name
            assert target == "./lang/${language}.js"
            continue
        assert target.startswith(("./", "../")), (path, target)
        assert (path.parent / target).resolve().is_file(), (path, target)


def test_client_files_fit_the_first_load_budget():
    """Everything the client could load, uncompressed, is under the 200 KB first-load
    budget (the browser test measures what is actually transferred)."""
    assert sum(p.stat().st_size for p in client_files()) < 200 * 1024


def test_root_is_still_the_api_404(client):
    assert client.get("/").status_code == 404
