"""An import-linter contract: no import circle among the modules of the given packages.

import-linter's own ``acyclic_siblings`` contract squashes each package into one node, so
it also refuses circles between packages whose modules form none (as
``games.auth`` → ``games.api.authentication`` did while ``games.api.views.plays`` →
``games.auth``, before both moved to ``accounts``). The bar
here is the module: two modules that import each other, directly or through others, at
module level, inside a function or under ``TYPE_CHECKING`` (grimp sees them all), cannot
be read or changed apart.  A package's ``__init__`` counts as a module like any other.

Registered in ``pyproject.toml`` (``contract_types``) and run by ``make lint``::

    [[tool.importlinter.contracts]]
    type = "module_cycles"
    packages = ["games", "leaderboard", "config"]
"""

from __future__ import annotations

from collections.abc import Iterable, Set
from typing import Any

from grimp import ImportGraph
from importlinter.application import output
from importlinter.domain import fields
from importlinter.domain.contract import Contract, ContractCheck


def module_cycles(graph: ImportGraph, modules: Set[str]) -> list[list[str]]:
    """The circles among ``modules``: each strongly connected component of their import
    graph with more than one module, sorted (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def targets(module: str) -> list[str]:
        return sorted(m for m in graph.find_modules_directly_imported_by(module) if m in modules)

    for root in sorted(modules):
        if root in index:
            continue
        work: list[tuple[str, Iterable[str]]] = []
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        work.append((root, iter(targets(root))))
        while work:
            module, pending = work[-1]
            for target in pending:
                if target not in index:
                    index[target] = low[target] = len(index)
                    stack.append(target)
                    on_stack.add(target)
                    work.append((target, iter(targets(target))))
                    break
                if target in on_stack:
                    low[module] = min(low[module], index[target])
            else:
                work.pop()
                if work:
                    parent = work[-1][0]
                    low[parent] = min(low[parent], low[module])
                if low[module] == index[module]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == module:
                            break
                    if len(component) > 1:
                        found.append(sorted(component))
    return sorted(found)


def cycle_imports(graph: ImportGraph, cycle: list[str]) -> list[dict[str, Any]]:
    """Every import between two modules of ``cycle``, with its line."""
    members = set(cycle)
    return [
        detail
        for importer in cycle
        for imported in sorted(graph.find_modules_directly_imported_by(importer) & members)
        for detail in graph.get_import_details(importer=importer, imported=imported)
    ]


class ModuleCyclesContract(Contract):
    """No module of ``packages`` imports itself back through other modules of them."""

    type_name = "module_cycles"

    packages = fields.ListField(subfield=fields.StringField())

    def check(self, graph: ImportGraph, verbose: bool) -> ContractCheck:
        modules: set[str] = set()
        for package in self.packages:  # type: ignore[attr-defined]
            if package not in graph.modules:
                raise ValueError(f"Module '{package}' does not exist.")
            modules |= {package, *graph.find_descendants(package)}
        cycles = module_cycles(graph, modules)
        return ContractCheck(
            kept=not cycles,
            metadata={"cycles": [(cycle, cycle_imports(graph, cycle)) for cycle in cycles]},
        )

    def render_broken_contract(self, check: ContractCheck) -> None:
        for cycle, imports in check.metadata["cycles"]:
            output.print_error(f"Import circle among {', '.join(cycle)}:", bold=True)
            for detail in imports:
                output.print(
                    f"  {detail['importer']} -> {detail['imported']} "
                    f"(l.{detail['line_number']}: {detail['line_contents']})"
                )
            output.new_line()
