"""Compile the engine's hot modules with mypyc (optional, several times faster).

Two lists name the modules, COMPILED (the engine's) and CORE_COMPILED (deckkit.core's, which
the engine's games run through: the seeded chance); two builds use them:
- `make fast` (this script run as a program) compiles them into build/fast/ of a checkout;
- the wheel's build hook (hatch_build.py) compiles them into the wheel, so `pip install .`
  installs the compiled engine where a C compiler exists.

The pure-Python modules stay the reference: deckkit uses the compiled ones only when they are
fresh (see deckkit/core/builds.py), and DECKKIT_PURE=1 turns them off. All are one mypyc group
(one shared library), so a compiled engine module calls the compiled chance natively.

Cards, requirements and records stay interpreted: they cross process boundaries by pickling.
Policies are compiled but stay open to subclasses written in Python.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
ENGINE = Path("deckkit") / "animayhem" / "engine"  # relative to the project root
CORE = Path("deckkit") / "core"
TARGET = ROOT / "build" / "fast"
GROUP = "deckkit_engine"  # the shared library is the top-level module f"{GROUP}__mypyc"
LIBRARY = f"{GROUP}__mypyc"

# The engine modules to compile, relative to deckkit/animayhem/engine. A name is the module
# `name.py`, or, when that file does not exist, every module of the package directory `name/`
# (so `interpreter` stays right whether it is one module or a package). Add a new hot module
# here; an entry that names neither fails the build.
COMPILED = (
    "state",
    "abilities",
    "combat",
    "movement",
    "phases",
    "scavenge",
    "setup",
    "endgame",
    "chance",
    "policy",
    "queries",
    "hooks",
    "codes",
    "gamecards",
    "cardrules",
    "havens",
    "field",
    "play",
    # The search player: its rollouts play thousands of copied games a game (policies compiled
    # together, so its forced player is a native subclass of the heuristic).
    "determinize",
    "rollout",
    "search",
    # The effect interpreter's package (its __init__ stays interpreted: it only finds the build).
    "interpreter/common",
    "interpreter/standing",
    "interpreter/targets",
    "interpreter/on_characters",
    "interpreter/on_abilities",
    "interpreter/on_cards",
    "interpreter/on_disasters_and_locations",
    "interpreter/events",
    "interpreter/combat_cards",
    "interpreter/piles",
    "interpreter/under_locations",
    "interpreter/dispatcher",
    "interpreter/vehicles_and_forms",
    "interpreter/turns",
)
# deckkit.core's modules to compile, relative to deckkit/core, named as in COMPILED: the ones
# every game's play calls into (each die roll and shuffle goes through chance).
CORE_COMPILED = ("chance",)


class BuildError(Exception):
    """The compiled engine could not be built (the pure-Python engine stays usable)."""


def build_jobs() -> int:
    """How many C files compile at once: the cores this process may use (DECKKIT_BUILD_JOBS
    overrides it, e.g. 1 on a machine short of memory)."""
    given = os.environ.get("DECKKIT_BUILD_JOBS", "")
    if given.isdigit() and int(given) > 0:
        return int(given)
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not Linux
        return max(1, os.cpu_count() or 1)


def gcc_flags(jobs: int) -> tuple[list[str], list[str]]:
    """Extra compile and link flags where the C compiler is GCC on Linux (none elsewhere): the
    compiled functions call one another by their C names (CPyDef_*), all inside one shared
    library, but compiled with -fPIC each call may be bound at load time to a function of that
    name elsewhere (ELF semantic interposition), so GCC neither inlines it nor calls it
    directly: it goes through the procedure linkage table. Nothing outside the library defines
    those names, so the calls are bound inside it (-fno-semantic-interposition,
    -Bsymbolic-functions) and optimised across the modules' C files at link time (-flto, `jobs`
    at a time): 2.6% fewer instructions a demo game, 3.1% a medium one."""
    if not sys.platform.startswith("linux"):
        return [], []
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        banner = subprocess.run([cc[0], "--version"], capture_output=True, text=True,
                                timeout=60, check=False).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return [], []
    if "Free Software Foundation" not in banner:  # GCC's; clang's names LLVM
        return [], []
    lto = f"-flto={jobs}"
    return (["-fno-semantic-interposition", lto],
            [lto, "-O3", "-Wl,-Bsymbolic-functions"])  # fmt: skip


def parallel_compile(compiler: Any, jobs: int) -> None:
    """Make `compiler` (a distutils CCompiler) compile an extension's C files `jobs` at a time.

    distutils compiles one file after another, and `build_ext --parallel` only spreads whole
    extensions over processes; the engine's shared library is one extension of many C files
    (mypyc's multi-file mode: one per module). The steps are distutils' own compile(), with its
    per-object loop run on a thread pool (each thread waits on its compiler process), the
    largest files first so that no long one starts last.
    """

    def compile_all(
        sources: list[str],
        output_dir: str | None = None,
        macros: Any = None,
        include_dirs: Any = None,
        debug: bool = False,
        extra_preargs: Any = None,
        extra_postargs: Any = None,
        depends: Any = None,
    ) -> list[str]:
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        todo = sorted((o for o in objects if o in build),
                      key=lambda o: -os.path.getsize(build[o][0]))  # fmt: skip

        def one(obj: str) -> None:
            src, ext = build[obj]
            compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for _ in pool.map(one, todo):  # re-raises the first CompileError
                pass
        return list(objects)

    compiler.compile = compile_all


def compiled_sources(root: Path = ROOT) -> list[Path]:
    """The source files COMPILED and CORE_COMPILED name, relative to `root`, in a stable order."""
    found: list[Path] = []
    for base, names in ((ENGINE, COMPILED), (CORE, CORE_COMPILED)):
        for name in names:
            module = root / base / f"{name}.py"
            package = root / base / name
            if module.is_file():
                found.append(module.relative_to(root))
            elif (package / "__init__.py").is_file():
                found.extend(p.relative_to(root) for p in sorted(package.rglob("*.py")))
            else:
                raise BuildError(f"tools/build_fast.py: names {name!r}, which is neither "
                                 f"{base / name}.py nor a package {base / name}/")  # fmt: skip
    return found


def compile_engine(
    root: Path,
    build_lib: Path,
    build_temp: Path,
    mypy_cache: Path | None = None,
    profile: tuple[list[str], list[str]] = ([], []),
) -> list[Path]:
    """Compile the COMPILED modules of the checkout at `root` into `build_lib`.

    `profile`: more compile and link flags (the profile-guided build's: :func:`main`).

    mypy's cache goes to `mypy_cache` (default: the checkout's .mypy_cache).
    Returns the built extension files relative to `build_lib`: the shared library LIBRARY at
    its top and one module per source under deckkit/. Raises BuildError when
    mypyc or the C compiler is missing or fails.
    """
    try:
        from mypyc.build import mypycify
        from setuptools import setup
        from setuptools.command.build_ext import build_ext
    except ImportError as err:
        raise BuildError(f"mypyc or setuptools is not installed ({err})") from err
    sources = [str(p) for p in compiled_sources(root)]
    # The engine's imports reach modules that are not compiled (through deckkit/__init__.py's
    # names for type checkers, the analysis layer and its numpy and polars); a wheel's isolated
    # build has none of those libraries. Their errors are not the compiled modules' business.
    # --no-site-packages: every build reads them as the isolated one does (unknown), which
    # leaves the engine's C code byte for byte the same (the engine uses none of their types)
    # and saves type-checking polars, numpy, typer and rich: two thirds of mypyc's time.
    options = ["--follow-imports=silent", "--no-site-packages"]
    if mypy_cache is not None:
        options += ["--cache-dir", str(mypy_cache)]
    here = Path.cwd()
    os.chdir(root)  # mypy names the modules from the relative paths
    try:
        # multi_file: one C file per module (the C compiler's time is most of the build), so
        # the files compile in parallel below.
        extensions = mypycify(
            [*options, *sources], opt_level="3", group_name=GROUP, multi_file=True,
            target_dir=str(build_temp / "c"),
        )  # fmt: skip
        jobs = build_jobs()
        compile_flags, link_flags = gcc_flags(jobs)
        for ext in extensions:
            ext.extra_compile_args = [*ext.extra_compile_args, *compile_flags, *profile[0]]
            ext.extra_link_args = [*ext.extra_link_args, *link_flags, *profile[1]]

        class ParallelBuildExt(build_ext):  # type: ignore[misc,valid-type]
            def build_extensions(self) -> None:
                parallel_compile(self.compiler, jobs)
                super().build_extensions()

        setup(
            name="deckkit-engine-fast",
            ext_modules=extensions,
            packages=[],
            py_modules=[],
            cmdclass={"build_ext": ParallelBuildExt},
            script_args=["build_ext", "--build-lib", str(build_lib),
                         "--build-temp", str(build_temp / "obj"), "-q"],
        )  # fmt: skip
    except SystemExit as err:  # mypyc's type errors and setuptools' compile errors exit
        raise BuildError(str(err) or "mypyc failed") from err
    except Exception as err:  # e.g. distutils' CompileError without a working compiler
        raise BuildError(f"{type(err).__name__}: {err}") from err
    finally:
        os.chdir(here)
    built = sorted(p.relative_to(build_lib) for p in build_lib.rglob("*.so"))
    built += sorted(p.relative_to(build_lib) for p in build_lib.rglob("*.pyd"))
    if len(built) != len(sources) + 1:
        raise BuildError(f"expected {len(sources) + 1} extension modules, built {len(built)}")
    return built


# The games a profile-guided build (`--pgo`) trains on: the heuristic and random players on the
# demo and medium decks, run by the instrumented build (argv[1]: games a deck and player).
TRAINING = r"""
import sys
from pathlib import Path
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.policy import make_policy
assert COMPILED, "the instrumented build was not loaded"
db = load_card_db()
for name in ("demo-solo", "medium-solo"):
    deck = read_deck(Path("decks") / f"{name}.deck", db)
    setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
    for player in ("heuristic", "random"):
        policy = make_policy(player)
        for i in range(int(sys.argv[1])):
            play_game(setup, policy, 0, i)
"""
TRAINING_GAMES = 300


def build(profile: tuple[list[str], list[str]] = ([], [])) -> int:
    """Build into build/fast-new, then swap it in whole for build/fast."""
    staging = TARGET.with_name("fast-new")
    shutil.rmtree(staging, ignore_errors=True)
    try:
        built = compile_engine(ROOT, staging, ROOT / "build" / "fast-tmp", profile=profile)
    except BuildError as err:
        print(f"build_fast: {err}; the engine stays pure Python", file=sys.stderr)
        return 1
    # Swap the finished build in whole: a half-built group would fail at import.
    shutil.rmtree(TARGET, ignore_errors=True)
    staging.rename(TARGET)
    print(f"build_fast: compiled {len(built) - 1} modules into {TARGET.relative_to(ROOT)}")
    return 0


def main(argv: list[str] | None = None) -> int:
    """`make fast`; with --pgo, a profile-guided build (GCC on Linux): an instrumented build
    plays the TRAINING games, then the engine is built again laid out by what they ran (the
    same code and games; about 1.2x the demo and medium games per CPU second on this project's
    machine, for two builds' time and the training run's)."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--pgo"]):
        print("usage: build_fast.py [--pgo]", file=sys.stderr)
        return 2
    if not args:
        return build()
    if not gcc_flags(1)[0]:
        print("build_fast: --pgo needs GCC on Linux; building without it", file=sys.stderr)
        return build()
    data = ROOT / "build" / "fast-profile"
    shutil.rmtree(data, ignore_errors=True)
    data.mkdir(parents=True)
    where = f"-fprofile-dir={data}"
    done = build((["-fprofile-generate", "-fprofile-update=single", where], ["-fprofile-generate"]))
    if done:
        return done
    trained = subprocess.run([sys.executable, "-c", TRAINING, str(TRAINING_GAMES)], cwd=ROOT,
                             env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False)  # fmt: skip
    if trained.returncode != 0:
        print("build_fast: the training games failed; building without a profile", file=sys.stderr)
        return build()
    # A function the games never ran is optimised as usual (-fprofile-partial-training), not
    # for size; the profile is of these C files (their object paths name its data files).
    use = ["-fprofile-use", where, "-fprofile-partial-training", "-Wno-missing-profile"]
    return build((use, ["-fprofile-use"]))


if __name__ == "__main__":
    raise SystemExit(main())
