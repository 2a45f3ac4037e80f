"""The bar against import circles: the import-linter contract ``make lint`` runs
(``tools.import_cycles``), checked on small graphs, and the native prover's modules."""

from __future__ import annotations

import re
from pathlib import Path

import grimp

from tools.import_cycles import ModuleCyclesContract, module_cycles

NATIVE_SRC = Path(__file__).resolve().parents[2] / "native" / "src"


def graph_of(imports: list[tuple[str, str]]) -> grimp.ImportGraph:
    graph = grimp.ImportGraph()
    for importer, imported in imports:
        graph.add_import(
            importer=importer, imported=imported, line_number=1, line_contents="import"
        )
    return graph


def contract(packages: list[str]) -> ModuleCyclesContract:
    return ModuleCyclesContract(
        name="no circles", session_options={}, contract_options={"packages": packages}
    )


def test_a_chain_of_imports_is_no_circle():
    graph = graph_of([("app.a", "app.b"), ("app.b", "app.c"), ("app.a", "app.c")])
    assert module_cycles(graph, {"app.a", "app.b", "app.c"}) == []


def test_two_and_three_module_circles_are_found_apart():
    graph = graph_of(
        [
            ("app.a", "app.b"),
            ("app.b", "app.a"),
            ("app.c", "app.d"),
            ("app.d", "app.e"),
            ("app.e", "app.c"),
            ("app.e", "app.f"),  # leaves the circle: not part of it
        ]
    )
    modules = {f"app.{name}" for name in "abcdef"}
    assert module_cycles(graph, modules) == [["app.a", "app.b"], ["app.c", "app.d", "app.e"]]


def test_the_contract_breaks_on_a_circle_and_names_its_imports():
    graph = graph_of([("app", "app.a"), ("app.a", "app.b"), ("app.b", "app.a")])
    check = contract(["app"]).check(graph, verbose=False)
    assert not check.kept
    [(cycle, imports)] = check.metadata["cycles"]
    assert cycle == ["app.a", "app.b"]
    assert {(i["importer"], i["imported"]) for i in imports} == {
        ("app.a", "app.b"),
        ("app.b", "app.a"),
    }


def test_the_contract_keeps_an_acyclic_package_and_ignores_circles_outside_it():
    graph = graph_of([("app.a", "app.b"), ("other.x", "other.y"), ("other.y", "other.x")])
    graph.add_module("app")
    assert contract(["app"]).check(graph, verbose=False).kept


def native_imports() -> dict[str, set[str]]:
    """The prover's top-level modules (``src/x.rs``, ``src/x/``) and the others each names
    through ``crate::`` (the crate root, ``main.rs``, names them without it)."""
    modules = {path.stem for path in NATIVE_SRC.glob("*.rs")} | {
        path.name for path in NATIVE_SRC.iterdir() if path.is_dir()
    }
    uses: dict[str, set[str]] = {module: set() for module in modules}
    for path in NATIVE_SRC.rglob("*.rs"):
        relative = path.relative_to(NATIVE_SRC)
        module = relative.parts[0].removesuffix(".rs")
        named = set(re.findall(r"\bcrate::([a-z_][a-z0-9_]*)", path.read_text()))
        uses[module] |= {name if name in modules else "main" for name in named} - {module}
    return uses


def test_the_native_provers_modules_form_no_circle():
    uses = native_imports()
    assert {"search", "walk", "limits"} <= set(uses)  # the parse found the modules
    graph = graph_of([(a, b) for a, targets in uses.items() for b in targets])
    for module in uses:
        graph.add_module(module)
    assert module_cycles(graph, set(uses)) == []
