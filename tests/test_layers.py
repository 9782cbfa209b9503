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
          "chance", "policy", "play", "abilities")  # fmt: skip
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
