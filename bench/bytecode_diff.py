"""Which functions of the engine and of the solver's searches compile to other instructions
in another checkout?  A refactoring that moves code without changing it shows none in the
hot loops, which no timing on a shared machine can show as clearly.

    .venv/bin/python bench/bytecode_diff.py /tmp/old-checkout .

Compared by instruction (name and argument; constant indices, nested code objects and
their qualified names aside): every function of ``games.engine``'s modules, every method
of the solver's ``Search`` (wherever in its class stack it now lives; ``_dead_rows``
became ``deadrows.dead_rows``), and the functions of ``bestfirst`` and ``dives``.
"""

from __future__ import annotations

import dis
import sys
import types
from typing import Any

ENGINE = ("cards", "deals", "game", "moves", "presets", "state", "view")


def load(root: str) -> tuple[dict[str, Any], dict[str, types.CodeType], list[Any]]:
    for name in [m for m in sys.modules if m == "games" or m.startswith("games.")]:
        del sys.modules[name]
    sys.path.insert(0, root)
    try:
        import importlib

        engine = {m: importlib.import_module(f"games.engine.{m}") for m in ENGINE}
        from games.solver import bestfirst, dives
        from games.solver.core import Search

        methods: dict[str, types.CodeType] = {}
        for cls in reversed(Search.__mro__):
            methods.update(codes(cls))
        if "games.solver.deadrows" in sys.modules:
            methods["_dead_rows"] = sys.modules["games.solver.deadrows"].dead_rows.__code__
        return engine, methods, [bestfirst, dives]
    finally:
        sys.path.pop(0)


def codes(obj: Any) -> dict[str, types.CodeType]:
    out = {}
    for name, value in vars(obj).items():
        func = getattr(value, "__func__", value)
        if isinstance(func, types.FunctionType) and isinstance(func.__code__, types.CodeType):
            out[name] = func.__code__
    return out


def instructions(code: types.CodeType) -> list[tuple[str, Any]]:
    return [(i.opname, _argument(i.argval)) for i in dis.get_instructions(code)]


def _argument(value: Any) -> Any:
    if isinstance(value, types.CodeType):
        return "<code>"
    if isinstance(value, str) and ".<locals>." in value:
        return "<qualname>"  # PyPy loads a nested function's qualified name: the class moved
    return value


def main() -> None:
    old_root, new_root = sys.argv[1:3]
    old, new = load(old_root), load(new_root)
    pairs = []
    for name, module in old[0].items():
        for func, code in codes(module).items():
            pairs.append((f"engine.{name}.{func}", code, codes(new[0][name]).get(func)))
    for func, code in old[1].items():
        pairs.append((f"Search.{func}", code, new[1].get(func)))
    for module_old, module_new in zip(old[2], new[2]):
        for func, code in codes(module_old).items():
            pairs.append((f"{module_old.__name__}.{func}", code, codes(module_new).get(func)))
    differ = [name for name, a, b in pairs if b is None or instructions(a) != instructions(b)]
    print(f"{len(pairs)} functions compared, {len(differ)} differ: {', '.join(differ) or '-'}")


if __name__ == "__main__":
    main()
