"""The Animus package keeps Ani-Mayhem's layers: construction < engine < Monte Carlo and report;
the engine is a pure core; the automatic players read the battle only through queries."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckkit" / "animus"
FORBIDDEN = {
    "": ("deckkit.cli", "deckkit.balance", "deckkit.report", "deckkit.analysis", "deckkit.api"),
    "construction": ("deckkit.animus.engine", "deckkit.animus.montecarlo", "deckkit.analysis"),
    "engine": (
        "deckkit.animus.montecarlo",
        "deckkit.animus.summary",
        "deckkit.report",
        "deckkit.analysis",
    ),
}
MUTATORS = {"abilities", "combat", "endgame", "phases", "play", "positions"}
BANNED_MODULES = {"time", "datetime", "pathlib", "os", "sys", "typer", "rich", "polars"}


def _imports(path: Path) -> list[str]:
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
            if node.module == "deckkit.animus.engine":
                names += [f"deckkit.animus.engine.{a.name}" for a in node.names]
    return names


def test_lower_layers_do_not_import_higher_ones() -> None:
    for folder, banned in FORBIDDEN.items():
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = [m for m in _imports(path) if m.startswith(banned)]
            assert not bad, f"{path.name} imports {bad}"


def test_engine_does_no_io() -> None:
    """The engine neither prints, reads files, nor looks at the clock."""
    engine = [p for p in (PACKAGE / "engine").glob("*.py") if p.stem != "__init__"]
    assert len(engine) >= 10
    for path in engine:
        tree = ast.parse(path.read_text())
        calls = {
            n.func.id
            for n in ast.walk(tree)
            if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)
        }
        assert not calls & {"print", "open", "input"}, path.name
        assert not {m.split(".")[0] for m in _imports(path)} & BANNED_MODULES, path.name


def test_players_read_the_battle_through_queries_only() -> None:
    """policy.py and queries.py import no module that changes a battle."""
    for name in ("policy", "queries"):
        used = {
            m.split(".")[-1]
            for m in _imports(PACKAGE / "engine" / f"{name}.py")
            if m.startswith("deckkit.animus.engine")
        }
        assert not used & MUTATORS, f"{name}.py imports {sorted(used & MUTATORS)}"
