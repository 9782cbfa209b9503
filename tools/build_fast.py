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

With GCC on Linux every build is profile-guided from the committed profile
tools/engine-profile.tar.xz (gcc's .gcda files of an instrumented build that played TRAINING's
games) and its manifest tools/engine-profile.json: `make profile` (this script with --profile)
makes them again. A profile older than the sources is still used (gcc skips the functions whose
code changed) and the build says so; --no-profile builds without it.
"""

from __future__ import annotations

import hashlib
import io
import json
import os
import shutil
import subprocess
import sys
import sysconfig
import tarfile
import time
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

# COMPILED's modules that a heuristic game barely runs (each under 0.6% of the pure engine's
# time in 60 games each of the demo, medium, tricky and hard decks, cProfile): card effects of
# rare kinds, the field's layout, card codes, the game's entry point. A default build compiles
# them at -O1 (gcc's -O3 time on them: 20 of 96 CPU s; at -O1 about a third of that), the rest
# at -O3. Not the search player's modules: they are hot in its games.
COLD = (
    "interpreter/piles",
    "interpreter/under_locations",
    "interpreter/on_characters",
    "interpreter/on_disasters_and_locations",
    "interpreter/on_cards",
    "interpreter/on_abilities",
    "interpreter/vehicles_and_forms",
    "interpreter/common",
    "interpreter/combat_cards",
    "interpreter/events",
    "field",
    "codes",
    "gamecards",
    "havens",
    "hooks",
    "play",
)


# The committed profile of a profile-guided build and its manifest, relative to the project root
# (a checkout's or a wheel's build directory: hatch_build.py builds from the sdist, which has them).
PROFILE = Path("tools") / "engine-profile.tar.xz"
PROFILE_MANIFEST = Path("tools") / "engine-profile.json"


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


def gcc_version() -> str | None:
    """The version of the C compiler a build uses when it is GCC on Linux ("12.2.0"), else None:
    the flags below and the profile are GCC's (a profile is read only by the GCC version that
    wrote it)."""
    if not sys.platform.startswith("linux"):
        return None
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc").split()
    try:
        banner = subprocess.run([cc[0], "--version"], capture_output=True, text=True,
                                timeout=60, check=False).stdout  # fmt: skip
        if "Free Software Foundation" not in banner:  # GCC's; clang's names LLVM
            return None
        return subprocess.run([cc[0], "-dumpfullversion"], capture_output=True, text=True,
                              timeout=60, check=False).stdout.strip() or None  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return None


def gcc_flags(quick: bool = False) -> tuple[list[str], list[str]]:
    """Extra compile and link flags of the engine's shared library with GCC on Linux: the
    compiled functions call one another by their C names (CPyDef_*), all inside one shared
    library, but compiled with -fPIC each call may be bound at load time to a function of that
    name elsewhere (ELF semantic interposition), so GCC neither inlines it nor calls it
    directly: it goes through the procedure linkage table. Nothing outside the library defines
    those names, so the calls are bound inside it (-fno-semantic-interposition,
    -Bsymbolic-functions): 2.6% fewer instructions a demo game, 3.1% a medium one. -g0: no
    debug information (distutils and mypyc ask for it; nothing reads it). The C files are
    optimised one by one (mypyc's -O3, guided by the profile; COLD's at -O1), without
    link-time optimisation: with -flto the link redid the code generation after the compile's
    own front end (79 s of wall time and 145 CPU seconds against 56-63 s and about 110 on an
    idle 2-core machine) for 4% fewer instructions a game (the README's "The compiled engine's
    build").

    `quick` (--quick, a compiled engine to try soon after an edit; make test builds none, it
    plays the pure-Python engine when no fresh full build is there): -Og, about two fifths of
    the default build's CPU time for about 0.6x its games per CPU second; -Og rather than -O1:
    a quarter less gcc time for about 0.9x -O1's games."""
    if quick:
        return ["-fno-semantic-interposition", "-g0", "-Og"], ["-g0", "-Wl,-Bsymbolic-functions"]
    return ["-fno-semantic-interposition", "-g0"], ["-g0", "-Wl,-Bsymbolic-functions"]


def cold_files(quick: bool = False) -> dict[str, list[str]]:
    """Per-file flags of the library's C files: COLD's modules at -O1 (after mypyc's -O3) in a
    default build; none in a quick one, whose -Og is cheaper still."""
    if quick:
        return {}
    return {c_file(ENGINE, name): ["-O1"] for name in COLD}


def c_file(base: Path, name: str) -> str:
    """The C file mypyc's multi-file mode writes for module `name` under `base` (a path relative
    to the project root, e.g. interpreter/piles under deckkit/animayhem/engine)."""
    dotted = ".".join([*base.parts, *Path(name).parts])
    return "__native_" + dotted.replace(".", "___") + ".c"


def sources_hash(root: Path = ROOT) -> str:
    """A hash of the compiled modules' sources (names and contents), kept in the profile's
    manifest: a profile made from other sources is stale."""
    h = hashlib.sha256()
    for rel in compiled_sources(root):
        h.update(rel.as_posix().encode() + b"\0" + (root / rel).read_bytes() + b"\0")
    return h.hexdigest()[:16]


def toolchain() -> dict[str, str]:
    """What the C code of a build depends on besides the sources: mypyc's version (the code it
    writes) and Python's (the headers it includes)."""
    import mypy.version

    return {"mypyc": mypy.version.__version__, "python": "{}.{}".format(*sys.version_info[:2])}


class Profile:
    """The profile flags of a build of the engine's library and what the build's last line says
    of them; `data`, when given, is the profile archive to unpack beside the objects. (Plain
    classes, not dataclasses: hatch_build.py and the tests load this file without importing
    it as a module.)"""

    def __init__(
        self,
        compile: list[str] | None = None,
        link: list[str] | None = None,
        status: str = "not profile-guided",
        data: Path | None = None,
    ) -> None:
        self.compile, self.link = compile or [], link or []
        self.status, self.data = status, data

    @property
    def guided(self) -> bool:
        return self.data is not None


def instrumented() -> Profile:
    """An instrumented build (`make profile`): each run of the library adds its counts to .gcda
    files beside the objects (one process at a time: -fprofile-update=single)."""
    return Profile(["-fprofile-generate", "-fprofile-update=single"], ["-fprofile-generate"],
                   "instrumented (writes the profile's counts)")  # fmt: skip


def plan_profile(root: Path, gcc: str | None, wanted: bool = True) -> Profile:
    """How the build at `root` uses the committed profile: guided when it is GCC's of this
    version, with a note when it is stale (made from other sources, mypyc or Python: gcc then
    uses it for every function whose code is unchanged and skips the others, which
    -Wno-coverage-mismatch keeps from failing the build), not guided otherwise."""
    if not wanted:
        return Profile(status="not profile-guided (--no-profile)")
    if gcc is None:
        return Profile(status="not profile-guided (needs GCC on Linux)")
    archive, manifest_path = root / PROFILE, root / PROFILE_MANIFEST
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return Profile(status=f"not profile-guided (no readable {PROFILE_MANIFEST.as_posix()})")
    if not archive.is_file():
        return Profile(status=f"not profile-guided (no {PROFILE.as_posix()})")
    if manifest.get("gcc") != gcc:  # another GCC's .gcda files are not read
        return Profile(status=f"not profile-guided (the profile is GCC {manifest.get('gcc')}'s, "
                              f"this is GCC {gcc}: make profile)")  # fmt: skip
    # gcc's notes on a profile that does not match (a function whose code changed, or a call
    # to one: "Missing counts for called function", which no -W option names) are warnings,
    # and mypyc's -Werror would make them fail the build: -Wno-error for a guided build.
    if os.environ.get("DECKKIT_PROFILE_WARNINGS"):  # show them
        quiet = ["-Wno-error"]
    else:
        quiet = ["-Wno-missing-profile", "-Wno-coverage-mismatch", "-Wno-error"]
    # -fprofile-partial-training: a function the training games never ran is optimised as in
    # a build without a profile, not for size (the long decks and the search player run code
    # the training runs little).
    flags = ["-fprofile-use", "-fprofile-partial-training", *quiet]
    differ = [k for k, v in {"sources": sources_hash(root), **toolchain()}.items()
              if manifest.get(k) != v]  # fmt: skip
    status = "profile-guided"
    if differ:
        status += (f" from a stale profile ({', '.join(differ)} changed since it was made: "
                   "make profile)")  # fmt: skip
    return Profile(flags, flags, status, archive)


def parallel_compile(
    compiler: Any, jobs: int, cdir: Path | None = None, per_file: dict[str, list[str]] | None = None
) -> None:
    """Make `compiler` (a distutils CCompiler) compile an extension's C files `jobs` at a time.

    distutils compiles one file after another, and `build_ext --parallel` only spreads whole
    extensions over processes; the engine's shared library is one extension of many C files
    (mypyc's multi-file mode: one per module). The steps are distutils' own compile(), with its
    per-object loop run on a thread pool (each thread waits on its compiler process), the
    largest files first so that no long one starts last.

    With `cdir` (mypyc's C directory, GCC only), a file under it is compiled from there by its
    relative name into the object of that relative name under the output directory: gcc names
    a profile's data file after the object's path and keys indirect calls by the source files'
    names, so a profile made in one checkout is found and matches in any other, or in a wheel's
    temporary build directory. `per_file` adds flags after the others to the files under `cdir`
    it names by relative name (cold_files).
    """

    finished: dict[int, float] = {}
    compiler.deckkit_finished = finished

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
        inside = cdir is not None and all(Path(s).is_relative_to(cdir) for s in sources)
        if inside:
            assert cdir is not None
            sources = [Path(s).relative_to(cdir).as_posix() for s in sources]
        macros, objects, extra_postargs, pp_opts, build = compiler._setup_compile(
            output_dir, macros, include_dirs, sources, depends, extra_postargs
        )
        cc_args = compiler._get_cc_args(pp_opts, debug, extra_preargs)
        where = cdir if inside else Path.cwd()
        todo = sorted((o for o in objects if o in build),
                      key=lambda o: -(where / build[o][0]).stat().st_size)  # fmt: skip

        def one(obj: str) -> None:
            src, ext = build[obj]
            if not inside:
                compiler._compile(obj, src, ext, cc_args, extra_postargs, pp_opts)
                return
            from setuptools._distutils.errors import CompileError

            more = (per_file or {}).get(src, [])
            command = [*compiler.compiler_so, *cc_args, src, "-o", obj, *extra_postargs, *more]
            done = subprocess.run(command, cwd=cdir, capture_output=True, text=True, check=False)
            sys.stderr.write(done.stderr)
            if done.returncode != 0:
                raise CompileError(f"{src}: {done.stderr.strip()[-2000:]}")

        with ThreadPoolExecutor(max_workers=jobs) as pool:
            for _ in pool.map(one, todo):  # re-raises the first CompileError
                pass
        finished[len(sources)] = time.monotonic()  # the library's is the largest (build timings)
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


class Built:
    """A finished build: its extension files relative to the build's lib directory, what its
    profile did (Profile.status), and where its time went."""

    def __init__(self, files: list[Path], status: str, timings: str = "") -> None:
        self.files, self.status, self.timings = files, status, timings


def _cpu() -> float:
    """CPU seconds of this process and its finished children (the compilers; 0 on Windows)."""
    t = os.times()
    return t.user + t.system + t.children_user + t.children_system


def compile_engine(
    root: Path,
    build_lib: Path,
    build_temp: Path,
    mypy_cache: Path | None = None,
    profile: Profile | None = None,
    quick: bool = False,
) -> Built:
    """Compile the COMPILED modules of the checkout at `root` into `build_lib`.

    `profile`: the library's profile flags; by default the committed profile's
    (:func:`plan_profile`). A guided build whose C compile fails is built again without them.
    `quick`: :func:`gcc_flags`' quick build (never guided: the profile is of -O3's code).

    mypy's cache goes to `mypy_cache` (default: the checkout's .mypy_cache).
    Returns the built extension files relative to `build_lib` (the shared library LIBRARY at
    its top and one module per source under deckkit/) and the profile's status. Raises
    BuildError when mypyc or the C compiler is missing or fails.
    """
    try:
        from mypyc.build import include_dir, mypycify
        from setuptools import setup
        from setuptools.command.build_ext import build_ext
    except ImportError as err:
        raise BuildError(f"mypyc or setuptools is not installed ({err})") from err
    started, cpu = time.monotonic(), _cpu()
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
    cdir = (build_temp / "c").resolve()
    gcc = gcc_version()
    if quick:
        profile = Profile(status="not profile-guided (--quick)")
    elif profile is None:
        profile = plan_profile(root, gcc)
    here = Path.cwd()
    os.chdir(root)  # mypy names the modules from the relative paths
    try:
        # multi_file: one C file per module (the C compiler's time is most of the build), so
        # the files compile in parallel below.
        extensions = mypycify(
            [*options, *sources], opt_level="3", group_name=GROUP, multi_file=True,
            target_dir=str(cdir),
        )  # fmt: skip
    except SystemExit as err:  # mypyc's type errors exit
        os.chdir(here)
        raise BuildError(str(err) or "mypyc failed") from err
    except Exception as err:
        os.chdir(here)
        raise BuildError(f"{type(err).__name__}: {err}") from err
    codegen = time.monotonic()
    if gcc is not None:
        # mypyc's runtime headers beside its C files, included from there by relative names
        # (see parallel_compile): the same names in any checkout or wheel build.
        # (the runtime's C files that others #include too, e.g. init.c's static_data.c).
        runtime = Path(include_dir())
        for path in (*runtime.rglob("*.h"), *runtime.rglob("*.c")):
            copy = cdir / path.relative_to(runtime)
            if not copy.exists():
                copy.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(path, copy)
        for ext in extensions:
            ext.include_dirs = [_relative_include(d, runtime, cdir) for d in ext.include_dirs]
    per_file = cold_files(quick) if gcc is not None else {}
    unknown = sorted(f for f in per_file if not (cdir / f).is_file())
    if unknown:  # a COLD entry that names no compiled module, or mypyc names its files otherwise
        raise BuildError(f"tools/build_fast.py: COLD's C files {', '.join(unknown)} were not "
                         f"written by mypyc into {cdir}")  # fmt: skip
    jobs = build_jobs()
    base_flags = [(list(ext.extra_compile_args), list(ext.extra_link_args)) for ext in extensions]
    spent: dict[str, float] = {}

    def run(profile: Profile) -> None:
        obj = build_temp / "obj"
        shutil.rmtree(obj, ignore_errors=True)  # no objects or profile counts of another build
        if profile.data is not None:
            obj.mkdir(parents=True)
            with tarfile.open(profile.data) as archive:
                archive.extractall(obj, filter="data")
        compile_flags, link_flags = gcc_flags(quick) if gcc else ([], [])
        # For measuring other flags (the README's "The compiled engine's build"), e.g. -fno-lto.
        extra = os.environ.get("DECKKIT_BUILD_FLAGS", "").split()
        for ext, (cflags, lflags) in zip(extensions, base_flags, strict=True):
            if ext.name == LIBRARY:
                ext.extra_compile_args = [*cflags, *compile_flags, *profile.compile, *extra]
                ext.extra_link_args = [*lflags, *link_flags, *profile.link, *extra]
            else:  # a module's shim: a few lines that import the library's module
                ext.extra_compile_args = [*cflags, *(["-g0"] if gcc else [])]

        class ParallelBuildExt(build_ext):  # type: ignore[misc,valid-type]
            def build_extensions(self) -> None:
                parallel_compile(self.compiler, jobs, cdir if gcc else None, per_file)
                super().build_extensions()

            def build_extension(self, ext: Any) -> None:
                began = time.monotonic()
                super().build_extension(ext)
                if ext.name == LIBRARY:  # its C files, then its link
                    compiled = self.compiler.deckkit_finished.get(len(ext.sources), began)
                    spent["C files"] = compiled - began
                    spent["link"] = time.monotonic() - compiled
                else:
                    spent["shims"] = spent.get("shims", 0.0) + time.monotonic() - began

        # -j: the modules' shims build beside the library (each a small compile and link).
        setup(
            name="deckkit-engine-fast",
            ext_modules=extensions,
            packages=[],
            py_modules=[],
            cmdclass={"build_ext": ParallelBuildExt},
            script_args=["build_ext", "--build-lib", str(build_lib),
                         "--build-temp", str(build_temp / "obj"), "-j", str(jobs), "-q"],
        )  # fmt: skip

    try:
        try:
            run(profile)
        except (SystemExit, Exception) as err:
            if not profile.guided:
                raise
            # The profile is an optimisation: a compiler that cannot use it builds without.
            reason = " ".join(str(err).split())[:200]
            print(f"build_fast: the profile-guided build failed ({reason}); building without "
                  "the profile", file=sys.stderr)  # fmt: skip
            shutil.rmtree(build_lib, ignore_errors=True)
            profile = Profile(status="not profile-guided (the guided compile failed)")
            run(profile)
    except SystemExit as err:  # setuptools' compile errors exit
        raise BuildError(str(err) or "the C compiler failed") from err
    except Exception as err:  # e.g. distutils' CompileError without a working compiler
        raise BuildError(f"{type(err).__name__}: {err}") from err
    finally:
        os.chdir(here)
    built = sorted(p.relative_to(build_lib) for p in build_lib.rglob("*.so"))
    built += sorted(p.relative_to(build_lib) for p in build_lib.rglob("*.pyd"))
    if len(built) != len(sources) + 1:
        raise BuildError(f"expected {len(sources) + 1} extension modules, built {len(built)}")
    timings = (f"mypyc {codegen - started:.0f} s, the library's C files "
               f"{spent.get('C files', 0):.0f} s and link {spent.get('link', 0):.0f} s, the "
               f"modules' shims {spent.get('shims', 0):.0f} s beside them; "
               f"{time.monotonic() - started:.0f} s wall, {_cpu() - cpu:.0f} CPU s")  # fmt: skip
    return Built(built, profile.status, timings)


def _relative_include(directory: str, runtime: Path, cdir: Path) -> str:
    """An include directory of mypyc's runtime or C directory as seen from the C directory."""
    path = Path(directory).resolve()
    for base in (runtime, cdir):
        if path.is_relative_to(base):
            return (Path(".") / path.relative_to(base)).as_posix()
    return directory


# The games a profile is made of (`make profile`), played by the instrumented build: on every
# solitaire sample deck and the long benchmark deck, games 0..N-1 of seed 0 by the heuristic and
# random players (argv[1]: N) and a few by the search player (argv[2]); about 10 CPU seconds.
# The profile guides every build, so it should run what users run: `deckkit simulate` and the
# balance checks play the heuristic, `tune` and `compare` the search player's rollouts too.
TRAINING = r"""
import sys
from pathlib import Path
from deckkit.animayhem.engine import COMPILED
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game
from deckkit.animayhem.engine.players import make_player
assert COMPILED, "the instrumented build was not loaded"
db = load_card_db()
decks = [*sorted(Path("decks").glob("*-solo*.deck")), Path("benchmarks/decks/long-solo.deck")]
for path in decks:
    deck = read_deck(path, db)
    setup = prepare_game(deck, load_edition(deck.edition or DEFAULT_EDITION), GameOptions())
    for player, games in (("heuristic", int(sys.argv[1])), ("random", int(sys.argv[1])),
                          ("search", int(sys.argv[2]))):
        policy = make_player(player)
        for i in range(games):
            play_game(setup, policy, 0, i)
"""
TRAINING_GAMES = 300
TRAINING_SEARCH_GAMES = 2


def build(profile: Profile | None = None, quick: bool = False) -> int:
    """Build into build/fast-new, then swap it in whole for build/fast. mypyc's cache is its
    own (build/fast-tmp/mypy-cache, not the checkout's .mypy_cache): `make test` type-checks
    the project with mypy while the engine builds, and mypyc checks with other options."""
    staging = TARGET.with_name("fast-new")
    shutil.rmtree(staging, ignore_errors=True)
    work = ROOT / "build" / "fast-tmp"
    try:
        done = compile_engine(ROOT, staging, work, work / "mypy-cache", profile=profile,
                              quick=quick)  # fmt: skip
    except BuildError as err:
        print(f"build_fast: {err}; the engine stays pure Python", file=sys.stderr)
        return 1
    # Swap the finished build in whole: a half-built group would fail at import.
    shutil.rmtree(TARGET, ignore_errors=True)
    staging.rename(TARGET)
    print(f"build_fast: {done.timings}")
    print(f"build_fast: compiled {len(done.files) - 1} modules into "
          f"{TARGET.relative_to(ROOT)}, {done.status}")  # fmt: skip
    return 0


def make_profile() -> int:
    """`make profile`: an instrumented build plays the TRAINING games, its counts become
    tools/engine-profile.tar.xz and its manifest, then the engine is built guided by them."""
    gcc = gcc_version()
    if gcc is None:
        print("build_fast: a profile needs GCC on Linux", file=sys.stderr)
        return 1
    done = build(instrumented())
    if done:
        return done
    trained = subprocess.run(
        [sys.executable, "-c", TRAINING, str(TRAINING_GAMES), str(TRAINING_SEARCH_GAMES)],
        cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)}, check=False,
    )  # fmt: skip
    if trained.returncode != 0:
        print("build_fast: the training games failed; the profile is unchanged", file=sys.stderr)
        return 1
    obj = ROOT / "build" / "fast-tmp" / "obj"
    counts = sorted(obj.rglob("*.gcda"))
    # Reproducible: sorted members, no times or owners (the same counts make the same file).
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:xz", preset=9) as archive:
        for path in counts:
            info = tarfile.TarInfo(path.relative_to(obj).as_posix())
            data = path.read_bytes()
            info.size, info.mode = len(data), 0o644
            archive.addfile(info, io.BytesIO(data))
    (ROOT / PROFILE).write_bytes(buffer.getvalue())
    manifest = {"gcc": gcc, **toolchain(), "sources": sources_hash(ROOT), "files": len(counts),
                "training": f"{TRAINING_GAMES} games of the heuristic and random players and "
                f"{TRAINING_SEARCH_GAMES} of the search player on each solitaire sample deck "
                "and benchmarks/decks/long-solo.deck (tools/build_fast.py's TRAINING)"}  # fmt: skip
    (ROOT / PROFILE_MANIFEST).write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    print(f"build_fast: wrote {PROFILE} ({len(counts)} files) and {PROFILE_MANIFEST}")
    return build()


def main(argv: list[str] | None = None) -> int:
    """`make fast`: a build guided by the committed profile when it can be (GCC on Linux);
    --no-profile builds without it; --profile (`make profile`) makes the profile again first;
    --quick builds in about half the time for slower games (gcc_flags)."""
    args = sys.argv[1:] if argv is None else argv
    if args not in ([], ["--no-profile"], ["--profile"], ["--quick"]):
        print("usage: build_fast.py [--no-profile | --profile | --quick]", file=sys.stderr)
        return 2
    if args == ["--profile"]:
        return make_profile()
    if args == ["--quick"]:
        return build(quick=True)
    return build(plan_profile(ROOT, gcc_version(), wanted=args != ["--no-profile"]))


if __name__ == "__main__":
    # Exit as mypy's own command does (mypy.util.hard_exit), without freeing the type checker's
    # graph of the compiled modules: that took 3 s of a 59 s build at interpreter exit.
    status = main()
    sys.stdout.flush()
    sys.stderr.flush()
    os._exit(status)
