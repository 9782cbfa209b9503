"""The layers stay visible: construction < engine < analysis < presentation (CLI)."""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "deckkit"

# A module in the key's folder may not import from these.
FORBIDDEN = {
    "animayhem": ("deckkit.analysis", "deckkit.cli", "deckkit.report", "deckkit.balance"),
    "animayhem/construction": ("deckkit.animayhem.engine",),
    "analysis": ("deckkit.cli", "deckkit.report"),
    "animatactics": ("deckkit.cli", "deckkit.report", "deckkit.balance"),
    "animatactics/construction": ("deckkit.animatactics.engine", "deckkit.animatactics.analysis"),
    "animatactics/engine": ("deckkit.animatactics.analysis",),
}
# The engine is a pure core: no printing, no files, no clock (I/O lives in the CLI).
ENGINE = [p for p in (PACKAGE / "animayhem" / "engine").glob("*.py") if p.stem != "__init__"]
# Construction modules the engine leans on while it plays: they too stay free of I/O.
PURE_CONSTRUCTION = [
    PACKAGE / "animayhem" / "construction" / f"{name}.py"
    for name in ("cards", "requirements", "vocabulary", "legality")
]
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
        for path in (PACKAGE / folder).rglob("*.py"):
            bad = [m for m in _imports(path) if m.startswith(banned)]
            assert not bad, f"{path.name} imports {bad}"


def test_engine_does_no_io() -> None:
    """The engine neither prints, reads files, nor looks at the clock."""
    assert len(ENGINE) >= 15
    for path in [*ENGINE, *PURE_CONSTRUCTION]:
        name = path.stem
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
            out.add(module.split(".")[-1])
    return out


def test_engine_import_graph_is_acyclic() -> None:
    """The effect interpreter sits below the rules that call it (they reach back only through
    game.hooks), and no engine module imports another that imports it back."""
    graph = {
        p.stem: _runtime_imports(p)
        for p in (PACKAGE / "animayhem").rglob("*.py")
        if p.stem != "__init__"
    }
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


# Engine modules that change a game: they play phases, fights, moves and card effects.
MUTATORS = {"abilities", "combat", "endgame", "hooks", "interpreter", "movement", "phases",
            "play", "scavenge", "setup"}  # fmt: skip


def test_policy_reads_the_game_through_queries_only() -> None:
    """Issue point: the automatic players read the game through read-only queries and never
    import a module that changes it; the queries themselves import only the card model and the
    game state, so nothing a player calls can play a rule."""
    engine = PACKAGE / "animayhem" / "engine"
    for name in ("policy", "queries"):
        used = {m.split(".")[-1] for m in _imports(engine / f"{name}.py") if "animayhem" in m}
        assert not used & MUTATORS, f"{name}.py imports {sorted(used & MUTATORS)}"
    queries = {m for m in _imports(engine / "queries.py") if m.startswith("deckkit.")}
    allowed = ("deckkit.animayhem.construction.", "deckkit.animayhem.engine.state")
    assert all(m.startswith(allowed) for m in queries), sorted(queries)
    assert all((engine / f"{m}.py").exists() for m in MUTATORS)


def test_search_player_plans_on_copies_through_a_narrow_interface() -> None:
    """The search player imports no module that plays rules: it reads the game through the
    queries, its heuristic parent and the card data, copies it through determinize (which
    imports only the state, chance and records) and plays copies forward only through the
    simulator it is handed (players.py wires in rollout.play_out)."""
    engine = PACKAGE / "animayhem" / "engine"
    used = {m.split(".")[-1] for m in _imports(engine / "search.py") if "animayhem" in m}
    assert not used & (MUTATORS | {"rollout", "players"}), sorted(used)
    allowed = {"cards", "chance", "determinize", "policy", "queries", "state", "editions"}
    assert used <= allowed, used
    low = {m for m in _imports(engine / "determinize.py") if m.startswith("deckkit.")}
    assert all(
        m.startswith(("deckkit.animayhem.construction.", "deckkit.animayhem.engine.state"))
        or m in ("deckkit.animayhem.engine.chance", "deckkit.animayhem.engine.record")
        for m in low
    ), sorted(low)
