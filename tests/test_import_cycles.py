"""No import circle anywhere in deckkit: the modules form layers a reader can follow upward.

The graph is read from the source (ast), not from what Python happened to import: an import
inside a function counts as much as one at the top of a module, since a circle hidden in a
function is still a circle. Only imports under ``if TYPE_CHECKING:`` are left out (they never
run). ``from pkg import name`` is an edge to the submodule ``pkg.name`` when there is one, else
to ``pkg``.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckkit"

Graph = dict[str, set[str]]


def _module_name(path: Path, root: Path) -> str:
    parts = path.relative_to(root).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _imports(tree: ast.Module) -> list[ast.Import | ast.ImportFrom]:
    """Every import statement of a module, at any depth, except under ``if TYPE_CHECKING:``
    (its ``else:`` branch runs, so it counts)."""
    found: list[ast.Import | ast.ImportFrom] = []

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.Import | ast.ImportFrom):
            found.append(node)
        elif isinstance(node, ast.If) and _is_type_checking(node.test):
            for stmt in node.orelse:
                visit(stmt)
            return
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def _resolve(module: str, is_package: bool, node: ast.ImportFrom) -> str:
    """The absolute name of a ``from`` import's module (relative imports included)."""
    if node.level == 0:
        return node.module or ""
    base = module.split(".")
    if not is_package:
        base = base[:-1]
    base = base[: len(base) - (node.level - 1)]
    return ".".join([*base, node.module] if node.module else base)


def _owner(name: str, modules: set[str]) -> str | None:
    """The deckkit module ``name`` is, or the nearest package holding it (``import a.b.c`` of a
    name that is not a module)."""
    while name:
        if name in modules:
            return name
        name = name.rpartition(".")[0]
    return None


def import_graph(package: Path = PACKAGE) -> Graph:
    """Module -> the deckkit modules it imports."""
    paths = {_module_name(p, package.parent): p for p in sorted(package.rglob("*.py"))}
    modules = set(paths)
    graph: Graph = {}
    for name, path in paths.items():
        edges: set[str] = set()
        tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
        for node in _imports(tree):
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            else:
                source = _resolve(name, path.name == "__init__.py", node)
                subs = [f"{source}.{alias.name}" for alias in node.names]
                targets = [s for s in subs if s in modules]
                if len(targets) < len(subs):  # names defined in the module itself
                    targets.append(source)
            for target in targets:
                owner = _owner(target, modules)
                if owner is not None and owner != name:
                    edges.add(owner)
        graph[name] = edges
    return graph


def find_cycles(graph: Graph) -> list[list[str]]:
    """One circle for each group of modules that import each other (strongly connected
    components of more than one module), as a path that starts and ends on the same module."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[set[str]] = []

    def connect(v: str) -> None:  # Tarjan's algorithm
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        for w in sorted(graph.get(v, ())):
            if w not in index:
                connect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            group = set()
            while True:
                w = stack.pop()
                on_stack.discard(w)
                group.add(w)
                if w == v:
                    break
            if len(group) > 1:
                groups.append(group)

    for v in sorted(graph):
        if v not in index:
            connect(v)
    return [_circle(graph, group) for group in groups]


def _circle(graph: Graph, group: set[str]) -> list[str]:
    """A shortest path within ``group`` from its first module back to it."""
    start = min(group)
    paths = {start: [start]}
    frontier = [start]
    while frontier:
        nxt = []
        for v in frontier:
            for w in sorted(graph[v] & group):
                if w == start:
                    return [*paths[v], start]
                if w not in paths:
                    paths[w] = [*paths[v], w]
                    nxt.append(w)
        frontier = nxt
    raise AssertionError(f"no circle through {start}")  # pragma: no cover - a component has one


def test_deckkit_has_no_import_circle() -> None:
    graph = import_graph()
    assert len(graph) > 100 and "deckkit.animayhem.engine.interpreter.dispatcher" in graph
    cycles = find_cycles(graph)
    assert not cycles, "import circles (each module imports the next):\n" + "\n".join(
        "  " + " -> ".join(c) for c in cycles
    )


def test_the_graph_sees_every_kind_of_import(tmp_path: Path) -> None:
    """The reader finds a circle through a function-level import, a relative import and a
    ``from pkg import submodule``, and none through an import under TYPE_CHECKING."""
    pkg = tmp_path / "deckkit"
    (pkg / "sub").mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "sub" / "__init__.py").write_text("")
    (pkg / "a.py").write_text("from deckkit.sub import b\n")
    (pkg / "sub" / "b.py").write_text("def f():\n    from .c import g\n")
    (pkg / "sub" / "c.py").write_text("import deckkit.a\n")
    (pkg / "d.py").write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    import deckkit.e\n"
    )
    (pkg / "e.py").write_text("from deckkit import d\n")
    graph = import_graph(pkg)
    assert graph["deckkit.a"] == {"deckkit.sub.b"}
    assert graph["deckkit.sub.b"] == {"deckkit.sub.c"}
    assert graph["deckkit.d"] == set()
    assert find_cycles(graph) == [["deckkit.a", "deckkit.sub.b", "deckkit.sub.c", "deckkit.a"]]
