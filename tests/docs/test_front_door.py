"""The README is the front door (issue 43): short, its links lead somewhere, and the test
command it quotes is the one CI runs. The pages themselves are checked by the strict
documentation build (`make docs`), which never reads the README or bench/README.md."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
CI_SCRIPT = ROOT / ".ci" / "run"
LINK = re.compile(r"\]\(([^)\s]+)\)")


def relative_links(page: Path) -> list[str]:
    return [
        target
        for target in LINK.findall(page.read_text())
        if not re.match(r"^[a-z][a-z0-9+.-]*:", target) and not target.startswith("#")
    ]


def test_the_readme_is_short():
    assert len(README.read_text().splitlines()) <= 250


@pytest.mark.parametrize("page", ["README.md", "bench/README.md"])
def test_every_relative_link_leads_to_a_file(page):
    source = ROOT / page
    links = relative_links(source)
    assert links, f"{page} links to no page"
    missing = [t for t in links if not (source.parent / t.split("#")[0]).exists()]
    assert missing == []


def ci_test_command() -> str:
    """The command that ends .ci/run, its shell variables replaced by their values."""
    script = CI_SCRIPT.read_text()
    values = dict(re.findall(r"^([A-Z_]+)=([^\s$\"]+)$", script, re.MULTILINE))
    command = script.rstrip().rsplit("\n\n", 1)[-1]
    command = re.sub(r"\\\n", " ", command).replace('"', "")
    command = re.sub(r"\$\{([A-Z_]+)\}", lambda m: values[m.group(1)], command)
    return " ".join(command.split())


def test_the_readme_quotes_the_test_command_ci_runs():
    command = ci_test_command()
    assert command.endswith("make test"), command
    assert command in README.read_text()


def test_ci_builds_the_docs_before_it_runs_the_tests():
    script = CI_SCRIPT.read_text()
    assert re.search(r"^make docs$", script, re.MULTILINE)
    assert script.index("\nmake docs\n") < script.index("make test")
