"""The layers stay visible: construction < engine < analysis < API < presentation (CLI).

Below every game (issue 28): deckkit.core (the seeded chance, the card data's location, the
estimates, the worker runner, the game interface) and the support modules every layer uses
(errors, the bounded reader, stop signals, safe text). A game package imports only itself and
those; no game imports another game, nor anything above the games.

The CLI's rule (issue 18): a command module parses options, calls :mod:`deckkit.api` and renders;
it never imports another command module, so no command is built on another's plumbing. The CLI's
support modules (the options, consoles, exit codes, JSON envelope, help layout and progress
bars every command shares; for Anima Tactics its ``common``) may be imported by any command
module and import no command module themselves. Only the entry points that register the
commands (``main``, the Anima Tactics package's ``__init__``) and start the program
(``launch``) import command modules. Nothing below the CLI imports ``deckkit.cli``."""

from __future__ import annotations

import ast
import functools
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
    # Below the CLI: the API, the report pages, the balance checks, Animus.
    "api": ("deckkit.cli",),
    "report": ("deckkit.cli",),
    "balance": ("deckkit.cli",),
    "animus": ("deckkit.cli",),
}
# The CLI support layer: shared by the command modules, importing none of them.
CLI_SUPPORT = {
    "deckkit.cli",
    "deckkit.cli.options",
    "deckkit.cli.runsetup",
    "deckkit.cli.console",
    "deckkit.cli.exits",
    "deckkit.cli.jsonout",
    "deckkit.cli.helpfmt",
    "deckkit.cli.coercion",
    "deckkit.cli.steps",
    "deckkit.cli.tuneout",
    "deckkit.cli.animatactics.common",
    "deckkit.cli.sensitivity_text",
    "deckkit.cli.compare_out",
}
# The entry points: they register the commands (or start the program that does).
CLI_ENTRY = {"deckkit.cli.main", "deckkit.cli.launch", "deckkit.cli.animatactics"}
# The engine is a pure core: no printing, no files, no clock (I/O lives in the CLI).
ENGINE = [p for p in (PACKAGE / "animayhem" / "engine").rglob("*.py") if p.stem != "__init__"]
# Construction modules the engine leans on while it plays: they too stay free of I/O.
PURE_CONSTRUCTION = [
    PACKAGE / "animayhem" / "construction" / f"{name}.py"
    for name in ("cards", "modifiers", "requirements", "vocabulary", "legality")
]
ENGINE_BANNED_CALLS = {"print", "open", "input"}
ENGINE_BANNED_MODULES = {"time", "datetime", "pathlib", "os", "sys", "typer", "rich", "polars"}


@functools.cache
def _import_nodes(path: Path, text: str) -> tuple[ast.Import | ast.ImportFrom, ...]:
    """The import statements of ``text`` (the file at ``path``), anywhere in it: each of
    deckkit's files parsed once for all the tests of this module, not once per test."""
    return tuple(
        n for n in ast.walk(ast.parse(text)) if isinstance(n, (ast.Import, ast.ImportFrom))
    )


def _imports(path: Path) -> list[str]:
    names = []
    for node in _import_nodes(path, path.read_text()):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module:
            names.append(node.module)
    return names


def _module_name(path: Path, package: Path) -> str:
    parts = [package.name, *path.relative_to(package).with_suffix("").parts]
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported_modules(path: Path) -> set[str]:
    """Every module a file imports, anywhere in it (in functions too): ``from deckkit.cli import
    simulate_cmd`` names ``deckkit.cli.simulate_cmd``."""
    out: set[str] = set()
    for node in _import_nodes(path, path.read_text()):
        if isinstance(node, ast.Import):
            out |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out |= {f"{node.module}.{a.name}" for a in node.names}
    return out


def cli_violations(package: Path) -> list[str]:
    """Each import that breaks the CLI's rule (see the module docstring), as "a imports b"."""
    cli = package / "cli"
    modules = {_module_name(p, package): p for p in cli.rglob("*.py")}
    problems = []
    for name, path in sorted(modules.items()):
        if name in CLI_ENTRY:
            continue
        for imported in sorted(_imported_modules(path)):
            if imported in modules and imported not in CLI_SUPPORT and imported != name:
                problems.append(f"{name} imports {imported}")
    for path in sorted(package.rglob("*.py")):
        if cli in path.parents or path.name == "__main__.py":
            continue  # __main__ is the program's entry point: it starts the CLI
        bad = sorted(m for m in _imported_modules(path) if m.startswith("deckkit.cli"))
        problems += [f"{_module_name(path, package)} imports {m}" for m in bad]
    return problems


def test_cli_commands_are_shells_over_the_api() -> None:
    """No command module imports another (or a module of commands); the support modules import
    no command module; nothing below the CLI imports it."""
    assert (PACKAGE / "cli" / "simulate_cmd.py").exists()
    assert all(
        (PACKAGE / Path(*m.split(".")[1:])).with_suffix(".py").exists()
        or (PACKAGE / Path(*m.split(".")[1:]) / "__init__.py").exists()
        for m in CLI_SUPPORT | CLI_ENTRY
    ), "a listed module was renamed: update the lists"
    assert cli_violations(PACKAGE) == []


def test_the_cli_rule_catches_a_command_importing_another(tmp_path: Path) -> None:
    """The checker itself: a command importing another command (lazily, in a function), a
    support module importing a command, and a report module importing the CLI are all found."""
    pkg = tmp_path / "deckkit"
    (pkg / "cli").mkdir(parents=True)
    (pkg / "report").mkdir()
    files = {
        "__init__.py": "",
        "cli/__init__.py": "",
        "cli/main.py": "from deckkit.cli import report_cmd, simulate_cmd\n",
        "cli/console.py": "from deckkit.cli.simulate_cmd import run\n",
        "cli/simulate_cmd.py": "from deckkit.cli import options as opt\n",
        "cli/options.py": "",
        "cli/report_cmd.py": "def f():\n    from deckkit.cli import simulate_cmd\n",
        "report/traces.py": "from deckkit.cli.console import echo\n",
    }
    for name, text in files.items():
        (pkg / name).write_text(text)
    assert cli_violations(pkg) == [
        "deckkit.cli.console imports deckkit.cli.simulate_cmd",
        "deckkit.cli.report_cmd imports deckkit.cli.simulate_cmd",
        "deckkit.report.traces imports deckkit.cli.console",
        "deckkit.report.traces imports deckkit.cli.console.echo",
    ]


# The games, each a package under deckkit/, and what lies below them.
GAME_PACKAGES = ("animayhem", "animatactics", "animus")
CORE = "deckkit.core"
SUPPORT = (
    "deckkit.errors",
    "deckkit.untrusted",
    "deckkit.stopping",
    "deckkit.textsafe",
    "deckkit.version",
)


def _allowed(imported: str, own: str) -> bool:
    """Whether a module of ``own`` (a game's dotted package, or deckkit.core, or a support
    module) may import ``imported``."""
    if not imported.startswith("deckkit.") and imported != "deckkit":
        return True  # the standard library and third-party libraries
    below = (CORE, *SUPPORT)
    if own in SUPPORT or own == CORE:
        return any(imported == m or imported.startswith(m + ".") for m in below)
    return any(imported == m or imported.startswith(m + ".") for m in (own, *below))


def game_violations(package: Path) -> list[str]:
    """Each import, anywhere in a module (in functions and under TYPE_CHECKING too), that
    breaks the games' rule: a game package imports only itself, deckkit.core and the support
    modules; deckkit.core and the support modules import no game and nothing above them."""
    owners = [(package / g, f"deckkit.{g}") for g in GAME_PACKAGES]
    owners.append((package / "core", CORE))
    owners += [(package / f"{m.split('.')[-1]}.py", m) for m in SUPPORT]
    problems = []
    for where, own in owners:
        files = sorted(where.rglob("*.py")) if where.is_dir() else [where]
        for path in files:
            if not path.is_file():
                continue
            for imported in sorted(_imports(path)):
                if not _allowed(imported, own):
                    problems.append(f"{_module_name(path, package)} imports {imported}")
    return problems


def test_no_game_imports_another_game_or_anything_above_it() -> None:
    assert all((PACKAGE / g / "__init__.py").exists() for g in GAME_PACKAGES)
    assert (PACKAGE / "core" / "__init__.py").exists()
    assert all((PACKAGE / f"{m.split('.')[-1]}.py").exists() for m in SUPPORT)
    assert game_violations(PACKAGE) == []


def test_the_games_rule_catches_a_game_importing_another_or_a_higher_layer(
    tmp_path: Path,
) -> None:
    """The checker itself: Animus reaching into Ani-Mayhem's engine (lazily, in a function),
    Anima Tactics importing the analysis layer, the core importing a game, and a support module
    importing the CLI are all found; a game importing itself, the core and a support module is
    not."""
    pkg = tmp_path / "deckkit"
    files = {
        "animayhem/__init__.py": "",
        "animayhem/engine.py": "from deckkit.core.chance import SeededChance\n",
        "animatactics/__init__.py": "from deckkit.analysis.summary import proportion\n",
        "animus/__init__.py": "",
        "animus/montecarlo.py": (
            "from deckkit.animus.engine import play\n"
            "from deckkit.errors import UsageError\n"
            "def f():\n    from deckkit.animayhem.engine.chance import SeededChance\n"
        ),
        "core/__init__.py": "",
        "core/carddir.py": "import deckkit.animus.construction\n",
        "errors.py": "from deckkit.textsafe import clipped\n",
        "untrusted.py": "from deckkit.cli.console import echo\n",
        "stopping.py": "",
        "textsafe.py": "",
    }
    for name, text in files.items():
        (pkg / name).parent.mkdir(parents=True, exist_ok=True)
        (pkg / name).write_text(text)
    assert game_violations(pkg) == [
        "deckkit.animatactics imports deckkit.analysis.summary",
        "deckkit.animus.montecarlo imports deckkit.animayhem.engine.chance",
        "deckkit.core.carddir imports deckkit.animus.construction",
        "deckkit.untrusted imports deckkit.cli.console",
    ]


# Above the games: the tools that should reach a game only through its interface
# (deckkit.core.game and deckkit.games' registry). The modules that still import a game package
# directly, each to be moved onto the interface: none is left, and none may start.
ABOVE_THE_GAMES = ("analysis", "report", "balance", "api")
STILL_GAME_BOUND: set[str] = set()


def game_bound(package: Path) -> set[str]:
    """The modules above the games that import a game package (anywhere in the module)."""
    games = tuple(f"deckkit.{g}" for g in GAME_PACKAGES)
    found = set()
    for folder in ABOVE_THE_GAMES:
        for path in sorted((package / folder).rglob("*.py")):
            if any(m == g or m.startswith(g + ".") for m in _imports(path) for g in games):
                found.add(_module_name(path, package))
    return found


def test_the_tools_above_the_games_reach_no_new_game_directly() -> None:
    """Issue 28: analysis, report, balance and api reach a game through its interface. The
    modules not moved yet are listed; none may join them, and a moved one leaves the list."""
    bound = game_bound(PACKAGE)
    assert not bound - STILL_GAME_BOUND, (
        f"new direct game imports: {sorted(bound - STILL_GAME_BOUND)}"
    )
    assert not STILL_GAME_BOUND - bound, f"no longer game-bound: {sorted(STILL_GAME_BOUND - bound)}"


def test_the_game_bound_check_sees_a_planted_import(tmp_path: Path) -> None:
    pkg = tmp_path / "deckkit"
    for folder in ABOVE_THE_GAMES:
        (pkg / folder).mkdir(parents=True)
        (pkg / folder / "__init__.py").write_text("")
    (pkg / "analysis" / "paired.py").write_text("from deckkit.core.estimates import proportion\n")
    (pkg / "report" / "page.py").write_text(
        "def f():\n    from deckkit.animus.summary import summarize\n"
    )
    (pkg / "balance" / "gate.py").write_text("import deckkit.animayhem.engine.record\n")
    assert game_bound(pkg) == {"deckkit.report.page", "deckkit.balance.gate"}


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


def _engine_name(module: str) -> str:
    """An engine module's name in the engine (the effect interpreter's modules count as
    ``interpreter``); any other module's last name."""
    if module.startswith("deckkit.animayhem.engine."):
        return module.removeprefix("deckkit.animayhem.engine.").split(".")[0]
    return module.split(".")[-1]


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
            out.add(module.removeprefix("deckkit.animayhem."))
    return out


def _dotted(path: Path) -> str:
    return ".".join(path.relative_to(PACKAGE / "animayhem").with_suffix("").parts)


def test_engine_import_graph_is_acyclic() -> None:
    """The effect interpreter sits below the rules that call it (they reach back only through
    game.hooks), and no engine module imports another that imports it back."""
    graph = {
        _dotted(p): _runtime_imports(p)
        for p in (PACKAGE / "animayhem").rglob("*.py")
        if p.stem != "__init__"
    }
    rules = {f"engine.{m}" for m in ("combat", "movement", "phases", "scavenge", "policy", "play")}
    interpreter = [m for m in graph if m.startswith("engine.interpreter.")]
    assert len(interpreter) >= 10
    for low in [*interpreter, "construction.vocabulary", "engine.abilities", "engine.state"]:
        assert not graph[low] & rules, f"{low} imports {sorted(graph[low] & rules)}"
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
    game state (with the card model's compiled forms: engine/codes.py's constants,
    engine/gamecards.py's game-time cards and engine/cardrules.py's requirement and modifier
    checks, which change nothing), so nothing a
    player calls can play a rule."""
    engine = PACKAGE / "animayhem" / "engine"
    for name in ("policy", "queries"):
        used = {_engine_name(m) for m in _imports(engine / f"{name}.py") if "animayhem" in m}
        assert not used & MUTATORS, f"{name}.py imports {sorted(used & MUTATORS)}"
    queries = {m for m in _imports(engine / "queries.py") if m.startswith("deckkit.")}
    allowed = (
        "deckkit.animayhem.construction.",
        "deckkit.animayhem.engine.state",
        "deckkit.animayhem.engine.codes",
        "deckkit.animayhem.engine.cardrules",
        "deckkit.animayhem.engine.gamecards",
    )
    assert all(m.startswith(allowed) for m in queries), sorted(queries)
    assert all((engine / f"{m}.py").exists() or (engine / m).is_dir() for m in MUTATORS)


def test_search_player_plans_on_copies_through_a_narrow_interface() -> None:
    """The search player imports no module that plays rules: it reads the game through the
    queries, its heuristic parent and the card data, copies it through determinize (which
    imports only the state, chance, records and the engine's constant codes) and plays copies
    forward only through the simulator it is handed (players.py wires in rollout.play_out)."""
    engine = PACKAGE / "animayhem" / "engine"
    used = {_engine_name(m) for m in _imports(engine / "search.py") if "animayhem" in m}
    assert not used & (MUTATORS | {"rollout", "players"}), sorted(used)
    allowed = {"cards", "chance", "determinize", "policy", "queries", "state", "editions"}
    assert used <= allowed, used
    low = {m for m in _imports(engine / "determinize.py") if m.startswith("deckkit.")}
    assert all(
        m.startswith(("deckkit.animayhem.construction.", "deckkit.animayhem.engine.state"))
        or m
        in (
            "deckkit.animayhem.engine.chance",
            "deckkit.animayhem.engine.record",
            "deckkit.animayhem.engine.codes",
        )
        for m in low
    ), sorted(low)
