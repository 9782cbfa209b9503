"""The layers stay visible: game rules and engine < analysis < presentation (CLI)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckkit"

# A module in the key's folder may not import from these.
FORBIDDEN = {
    "animayhem": ("deckkit.analysis", "deckkit.cli"),
    "analysis": ("deckkit.cli",),
}
# The engine is a pure core: no printing, no files, no clock (I/O lives in the CLI).
ENGINE = ("field", "state", "setup", "phases", "movement", "combat", "scavenge", "endgame",
          "chance", "policy", "play", "abilities", "interpreter", "hooks",
          "vocabulary")  # fmt: skip
ENGINE_BANNED_CALLS = {"print", "open", "input"}
ENGINE_BANNED_MODULES = {"time", "datetime", "pathlib", "os", "sys", "typer", "rich", "polars"}


def _imports(path: Path) -> list[str]:
    names = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def test_lower_layers_do_not_import_higher_ones() -> None:
    """Card data and rules, then the engine, then analysis, then the CLI: never upward."""
    for folder, banned in FORBIDDEN.items():
        for path in (PACKAGE / folder).glob("*.py"):
            bad = [m for m in _imports(path) if m.startswith(banned)]
            assert not bad, f"{path.name} imports {bad}"


def test_engine_does_no_io() -> None:
    """The engine neither prints, reads files, nor looks at the clock."""
    for name in ENGINE:
        path = PACKAGE / "animayhem" / f"{name}.py"
        tree = ast.parse(path.read_text())
        calls = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not calls & ENGINE_BANNED_CALLS, f"{name}.py calls {calls & ENGINE_BANNED_CALLS}"
        modules = {m.split(".")[0] for m in _imports(path)}
        assert not modules & ENGINE_BANNED_MODULES, (
            f"{name}.py imports {modules & ENGINE_BANNED_MODULES}"
        )


def _runtime_imports(path: Path) -> set[str]:
    """deckkit.animayhem modules imported when the module runs (not under TYPE_CHECKING)."""
    tree = ast.parse(path.read_text())
    skip: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skip |= {id(n) for n in ast.walk(node)}
    out = set()
    for node in ast.walk(tree):
        if id(node) in skip:
            continue
        module = node.module if isinstance(node, ast.ImportFrom) else None
        if module and module.startswith("deckkit.animayhem."):
            out.add(module.split(".")[2])
    return out


def test_engine_import_graph_is_acyclic() -> None:
    """The effect interpreter sits below the rules that call it (they reach back only through
    game.hooks), and no engine module imports another that imports it back."""
    graph = {p.stem: _runtime_imports(p) for p in (PACKAGE / "animayhem").glob("*.py")}
    for low in ("interpreter", "vocabulary", "abilities", "state"):
        assert not graph[low] & {"combat", "movement", "phases", "scavenge", "policy", "play"}
    seen: dict[str, int] = {}

    def visit(node: str, stack: list[str]) -> None:
        if seen.get(node) == 1:
            raise AssertionError(f"import cycle: {' -> '.join([*stack, node])}")
        if seen.get(node) == 2:
            return
        seen[node] = 1
        for nxt in sorted(graph.get(node, ())):
            visit(nxt, [*stack, node])
        seen[node] = 2

    for node in sorted(graph):
        visit(node, [])
