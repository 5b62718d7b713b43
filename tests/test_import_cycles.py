"""No import cycle among tricktable's modules at import time.

A module's imports at its top level (including under ``try:`` and ordinary ``if``) are edges of
the graph; imports inside functions or classes' methods and under ``if TYPE_CHECKING:`` are not,
since they run later or never. ``from pkg import name`` is an edge to ``pkg.name`` when that is a
module, else to ``pkg``. Parent packages run on the way are not edges: a package's ``__init__``
that gathers its own modules would otherwise make every child a cycle.
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent / "src"
PACKAGE = "tricktable"


def _modules() -> dict[str, tuple[Path, bool]]:
    """Each tricktable module's dotted name, its file and whether it is a package."""
    found: dict[str, tuple[Path, bool]] = {}
    for path in sorted((ROOT / PACKAGE).rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        package = parts[-1] == "__init__"
        if package:
            parts.pop()
        found[".".join(parts)] = (path, package)
    return found


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _every_import(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement, inside functions too (but not under ``if TYPE_CHECKING:``)."""
    out: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.If) and _is_type_checking(node.test):
            out += _every_import(node.orelse)
        elif isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        else:
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    out += _every_import([n for n in inner if isinstance(n, ast.stmt)])
                    out += [
                        i
                        for h in inner
                        if isinstance(h, ast.ExceptHandler)
                        for i in _every_import(h.body)
                    ]
    return out


def _top_imports(body: list[ast.stmt]) -> list[ast.Import | ast.ImportFrom]:
    """The import statements run when the module is imported."""
    out: list[ast.Import | ast.ImportFrom] = []
    for node in body:
        if isinstance(node, ast.Import | ast.ImportFrom):
            out.append(node)
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                out += _top_imports(node.body)
            out += _top_imports(node.orelse)
        elif isinstance(node, ast.Try):
            for block in (node.body, node.orelse, node.finalbody):
                out += _top_imports(block)
            for handler in node.handlers:
                out += _top_imports(handler.body)
        elif isinstance(node, ast.With):
            out += _top_imports(node.body)
    return out


def import_graph(deep: bool = False) -> dict[str, set[str]]:
    """Module -> the tricktable modules it imports at import time (``deep``: at any time,
    inside functions too)."""
    read = _every_import if deep else _top_imports
    modules = _modules()
    graph: dict[str, set[str]] = {name: set() for name in modules}
    for name, (path, package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        here = name if package else name.rpartition(".")[0]
        for node in read(tree.body):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                base = node.module or ""
                if node.level:
                    anchor = here.split(".")
                    anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join(anchor + ([base] if base else []))
                targets = []
                for alias in node.names:
                    sub = f"{base}.{alias.name}"
                    targets.append(sub if sub in modules else base)
            for target in targets:
                if target in modules and target != name:
                    graph[name].add(target)
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle of ``graph`` as a list of modules (first repeated at the end), or None."""
    state: dict[str, int] = {}
    stack: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        stack.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return [*stack[stack.index(nxt) :], nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        stack.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            found = visit(node)
            if found:
                return found
    return None


def all_cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected groups of more than one module (each holds a cycle)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on: set[str] = set()
    stack: list[str] = []
    groups: list[list[str]] = []
    counter = [0]

    def strong(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = []
            while True:
                w = stack.pop()
                on.discard(w)
                group.append(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            strong(v)
    return groups


def test_the_checker_finds_a_cycle() -> None:
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_the_checker_skips_type_checking_and_function_imports() -> None:
    tree = ast.parse(
        "import os\n"
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    import tricktable.match\n"
        "def f():\n    import tricktable.table\n"
        "try:\n    import tricktable.cards\nexcept ImportError:\n    pass\n"
    )
    names = [
        alias.name
        for node in _top_imports(tree.body)
        if isinstance(node, ast.Import)
        for alias in node.names
    ]
    assert names == ["os", "tricktable.cards"]


#: cycles known and owned elsewhere, each with the change that breaks it; the test fails when
#: one is broken (take it off) or another appears
KNOWN: dict[frozenset[str], str] = {}


def test_no_import_cycle() -> None:
    graph = import_graph()
    for group in KNOWN:  # a known cycle is left out of the graph: cut its edges inside
        for module in group:
            graph[module] -= group
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle) + f"\nall: {all_cycles(graph)}"


def test_the_known_cycles_are_still_there() -> None:
    groups = {frozenset(group) for group in all_cycles(import_graph())}
    assert set(KNOWN) <= groups, f"broken, take off KNOWN: {set(KNOWN) - groups}"


#: modules that import nothing that imports them back, even from inside a function: the cycles
#: issue 20 named (bots <-> characters, characters' talk -> match -> table -> talk) are broken
#: by where the code lives (bots.registry, chat.rules, Table.is_person), not by lazy imports
UNTANGLED = ("tricktable.bots", "tricktable.characters", "tricktable.chat")


def test_the_players_and_chat_are_untangled_even_inside_functions() -> None:
    graph = import_graph(deep=True)
    for group in all_cycles(graph):
        tangled = [m for m in group if m.startswith(UNTANGLED)]
        assert not tangled, f"{tangled} in an import cycle: {group}"


def test_the_deep_checker_sees_imports_inside_functions() -> None:
    tree = ast.parse("def f():\n    if x:\n        from tricktable.search import rules\n")
    assert [node.module for node in _every_import(tree.body) if isinstance(node, ast.ImportFrom)]
    assert _top_imports(tree.body) == []


def test_the_engine_imports_no_search_even_inside_functions() -> None:
    # The search is built on the engine: the engine reaches it only through the hook the
    # search registers (engine.game.set_rebuilder), never by an import, lazy or not.
    graph = import_graph(deep=True)
    engine = [m for m in graph if m.split(".")[:2] == ["tricktable", "engine"]]
    assert "tricktable.engine.game" in engine
    found = {
        m: sorted(t for t in graph[m] if t.split(".")[:2] == ["tricktable", "search"])
        for m in engine
    }
    assert not {m: t for m, t in found.items() if t}, f"the engine imports the search: {found}"


#: what the seat model (issue 26) may not reach, even from inside a function: it is plain data
#: that every door reads, so no renderer and no door is below it
SEAT_MAY_NOT = ("rich", "textual", "tricktable.ui", "tricktable.tui", "tricktable.web")


def test_the_seat_model_imports_no_renderer_and_no_door() -> None:
    found: dict[str, list[str]] = {}
    for module, (path, _) in _modules().items():
        if module.split(".")[:2] != ["tricktable", "seat"]:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        names = [
            alias.name if isinstance(node, ast.Import) else node.module or ""
            for node in _every_import(tree.body)
            for alias in (node.names if isinstance(node, ast.Import) else [node.names[0]])
        ]
        bad = [n for n in names if any(n == p or n.startswith(p + ".") for p in SEAT_MAY_NOT)]
        if bad:
            found[module] = bad
    assert "tricktable.seat.games.base" in _modules()  # the presenters are the seat's
    assert not found, f"the seat model imports a renderer or a door: {found}"
