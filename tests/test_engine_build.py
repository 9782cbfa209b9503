"""How an installed deckkit picks its engine build: the wheel's _compiled/build.json (written
by hatch_build.py) and tools/build_fast.py's one list of compiled modules."""

from __future__ import annotations

import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tarfile
import warnings
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
PROBE = "import deckkit.animayhem.engine as e, deckkit.animayhem.engine.combat as c; " \
        "print(e.COMPILED, c.__file__)"  # fmt: skip


def _build_fast() -> ModuleType:
    spec = importlib.util.spec_from_file_location("build_fast", ROOT / "tools" / "build_fast.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _installed_copy(tmp_path: Path, manifest: dict[str, object]) -> Path:
    """A copy of the deckkit package laid out as a wheel installs it, with this manifest."""
    site = tmp_path / "site"
    shutil.copytree(ROOT / "deckkit", site / "deckkit",
                    ignore=shutil.ignore_patterns("__pycache__"))  # fmt: skip
    shutil.copytree(ROOT / "card_db", site / "deckkit" / "card_db")
    compiled = site / "deckkit" / "animayhem" / "engine" / "_compiled"
    compiled.mkdir()
    (compiled / "build.json").write_text(json.dumps(manifest), encoding="utf-8")
    return site


def _run(site: Path, args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    base = {k: v for k, v in os.environ.items() if k not in ("DECKKIT_PURE", "DECKKIT_STALE_NOTED")}
    return subprocess.run(
        [sys.executable, *args],
        capture_output=True,
        text=True,
        check=False,
        cwd=site.parent,
        env={**base, "PYTHONPATH": str(site), **env},
    )


FAILED = {"engine": "pure", "expected": True, "reason": "error: command 'cc' failed"}


@pytest.mark.slow  # an installed copy run in fresh interpreters: end to end (make test-slow)
def test_a_wheel_built_without_its_compiled_engine_says_so_once(tmp_path: Path) -> None:
    """A wheel whose compile failed plays the pure engine and says so in one line on stderr,
    once per run however many worker processes the run starts."""
    site = _installed_copy(tmp_path, FAILED)
    proc = _run(site, ["-c", PROBE])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("False") and proc.stdout.strip().endswith("combat.py")
    assert proc.stderr.count("\n") == 1 and proc.stderr.startswith("deckkit: the compiled engine")
    assert "command 'cc' failed" in proc.stderr and "pure-Python engine" in proc.stderr

    deck = str(ROOT / "decks" / "demo-solo.deck")
    args = ["-m", "deckkit", "simulate", deck, "--games", "40", "--seed", "3", "--workers", "2",
            "--quiet", "--format", "json"]  # fmt: skip
    proc = _run(site, args)
    assert proc.returncode == 0, proc.stderr
    assert proc.stderr.count("deckkit: the compiled engine") == 1, proc.stderr
    assert json.loads(proc.stdout)["games"] == 40


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_no_notice_when_pure_is_asked_for(tmp_path: Path) -> None:
    """DECKKIT_PURE=1 at run time, or a wheel built pure on purpose: no notice."""
    site = _installed_copy(tmp_path, FAILED)
    proc = _run(site, ["-c", PROBE], DECKKIT_PURE="1")
    assert proc.stdout.startswith("False") and proc.stderr == ""
    chosen = {"engine": "pure", "expected": False, "reason": "DECKKIT_PURE was set"}
    site = _installed_copy(tmp_path / "chosen", chosen)
    proc = _run(site, ["-c", PROBE])
    assert proc.stdout.startswith("False") and proc.stderr == ""


def test_an_incomplete_compiled_install_falls_back(tmp_path: Path) -> None:
    """A manifest naming compiled modules that are not there: pure engine and a notice, never
    an ImportError halfway through the engine."""
    manifest = {"engine": "compiled", "library": "deckkit_engine__mypyc",
                "modules": ["combat.cpython-311-x86_64-linux-gnu.so"]}  # fmt: skip
    site = _installed_copy(tmp_path, manifest)
    proc = _run(site, ["-c", PROBE])
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.startswith("False")
    assert "compiled engine is incomplete (missing combat" in proc.stderr


def test_compiled_list_resolves_modules_and_packages(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """tools/build_fast.py's COMPILED and CORE_COMPILED, shared by `make fast` and the wheel: a
    name is a module or a package (all its modules); a name that is neither fails the build.
    The seeded chance every game draws from (deckkit/core/chance.py) is compiled with the
    engine: each die roll and shuffle of a game calls it."""
    build_fast = _build_fast()
    sources = build_fast.compiled_sources(ROOT)
    assert len(sources) >= len(build_fast.COMPILED) + len(build_fast.CORE_COMPILED)
    assert all((ROOT / s).is_file() and (s.parts[:3] == ("deckkit", "animayhem", "engine")
                                         or s.parts[:2] == ("deckkit", "core"))
               for s in sources)  # fmt: skip
    assert Path("deckkit/core/chance.py") in sources
    monkeypatch.setattr(build_fast, "CORE_COMPILED", ())

    engine = tmp_path / "deckkit" / "animayhem" / "engine"
    (engine / "rooms").mkdir(parents=True)
    for name in ("state.py", "rooms/__init__.py", "rooms/targets.py"):
        (engine / name).write_text("")
    monkeypatch.setattr(build_fast, "COMPILED", ("state", "rooms"))
    assert [s.as_posix() for s in build_fast.compiled_sources(tmp_path)] == [
        "deckkit/animayhem/engine/state.py",
        "deckkit/animayhem/engine/rooms/__init__.py",
        "deckkit/animayhem/engine/rooms/targets.py",
    ]
    monkeypatch.setattr(build_fast, "COMPILED", ("state", "nowhere"))
    with pytest.raises(build_fast.BuildError, match="'nowhere'"):
        build_fast.compiled_sources(tmp_path)


def test_build_jobs_follow_the_cores_unless_set(monkeypatch: pytest.MonkeyPatch) -> None:
    build_fast = _build_fast()
    monkeypatch.delenv("DECKKIT_BUILD_JOBS", raising=False)
    assert build_fast.build_jobs() == len(os.sched_getaffinity(0))
    monkeypatch.setenv("DECKKIT_BUILD_JOBS", "1")
    assert build_fast.build_jobs() == 1
    monkeypatch.setenv("DECKKIT_BUILD_JOBS", "many")  # not a number: the cores again
    assert build_fast.build_jobs() == len(os.sched_getaffinity(0))


def test_parallel_compile_builds_every_file_and_fails_on_any(tmp_path: Path) -> None:
    """The compiled engine's C files compile several at a time (tools/build_fast.py): every
    object is built, more than one compiler runs at once, and one file that does not compile
    fails the whole build."""
    import threading
    import time

    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.errors import CompileError
    from setuptools._distutils.sysconfig import customize_compiler

    build_fast = _build_fast()
    sources = []
    for i in range(5):
        source = tmp_path / f"m{i}.c"
        source.write_text(f"int f{i}(void) {{ return {i}; }}\n")
        sources.append(str(source))
    compiler = new_compiler()
    customize_compiler(compiler)
    compile_one = compiler._compile
    lock = threading.Condition()
    running = [0, 0]  # now, most at once

    def counted(obj: str, *args: object) -> None:
        with lock:
            running[0] += 1
            running[1] = max(running)
            lock.notify_all()
            # Hold this compile until three have run at once (the pool's other threads start
            # theirs meanwhile), or for at most 5 seconds: a pool that runs fewer at once
            # waits the whole time and fails below.
            deadline = time.monotonic() + 5.0
            while running[1] < 3 and time.monotonic() < deadline:
                lock.wait(deadline - time.monotonic())
        compile_one(obj, *args)
        with lock:
            running[0] -= 1

    compiler._compile = counted
    build_fast.parallel_compile(compiler, 3)
    objects = compiler.compile(sources, output_dir=str(tmp_path / "obj"))
    assert sorted(Path(o).stem for o in objects) == [f"m{i}" for i in range(5)]
    assert all(Path(o).stat().st_size > 0 for o in objects)
    assert running[1] == 3
    (tmp_path / "m3.c").write_text("int f3(void) { return }\n")
    with pytest.raises(CompileError):
        compiler.compile(sources, output_dir=str(tmp_path / "obj2"))


def test_the_wheel_places_each_compiled_module_in_its_package_overlay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """hatch_build.py puts the engine's compiled modules in the engine's _compiled/, the core's
    (the seeded chance) in deckkit/core/_compiled/, the group's library at the top, and writes
    a manifest for each package (deckkit/core/builds.py reads them at import)."""
    spec = importlib.util.spec_from_file_location("hatch_build_probe", ROOT / "hatch_build.py")
    assert spec is not None and spec.loader is not None
    hook = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(hook)
    build_fast = _build_fast()
    so = ".cpython-311-x86_64-linux-gnu.so"
    built = [Path(f"{build_fast.LIBRARY}{so}"), Path(f"deckkit/animayhem/engine/state{so}"),
             Path(f"deckkit/animayhem/engine/interpreter/turns{so}"),
             Path(f"deckkit/core/chance{so}")]  # fmt: skip

    def compile_engine(root: Path, lib: Path, tmp: Path, cache: Path) -> Any:
        for rel in built:
            (lib / rel).parent.mkdir(parents=True, exist_ok=True)
            (lib / rel).write_bytes(b"")
        return build_fast.Built(built, "profile-guided")

    monkeypatch.setattr(build_fast, "compile_engine", compile_engine)
    monkeypatch.setattr(hook, "load_build_fast", lambda root: build_fast)
    monkeypatch.delenv("DECKKIT_PURE", raising=False)
    manifest, files, core = hook.engine_build(ROOT, tmp_path)
    lib = tmp_path / "lib"
    assert files == {
        str(lib / built[0]): built[0].as_posix(),
        str(lib / built[1]): f"deckkit/animayhem/engine/_compiled/state{so}",
        str(lib / built[2]): f"deckkit/animayhem/engine/_compiled/interpreter/turns{so}",
        str(lib / built[3]): f"deckkit/core/_compiled/chance{so}",
    }
    assert manifest == {"engine": "compiled", "library": build_fast.LIBRARY,
                        "modules": [f"state{so}", f"interpreter/turns{so}"]}  # fmt: skip
    assert core == {"engine": "compiled", "library": build_fast.LIBRARY,
                    "modules": [f"chance{so}"]}  # fmt: skip
    monkeypatch.setenv("DECKKIT_PURE", "1")
    assert hook.engine_build(ROOT, tmp_path)[1:] == ({}, None)


def test_the_committed_profile_is_of_the_library_s_files_and_says_when_it_is_stale() -> None:
    """tools/engine-profile.tar.xz, which every GCC build is guided by: a .gcda file for each of
    the library's C files, named relative to mypyc's C directory (any checkout or wheel build
    finds them), and a manifest naming what it was made from. A profile older than the sources
    is a warning, not a failure: the build still uses it (gcc skips the functions that
    changed), and a branch that changes the engine need not carry a new binary profile."""
    build_fast = _build_fast()
    manifest = json.loads((ROOT / build_fast.PROFILE_MANIFEST).read_text(encoding="utf-8"))
    assert {"gcc", "mypyc", "python", "sources", "files", "training"} <= set(manifest)
    with tarfile.open(ROOT / build_fast.PROFILE) as archive:
        names = archive.getnames()
    assert len(names) == manifest["files"] and all(n.endswith(".gcda") for n in names)
    assert not any(n.startswith("/") or ".." in n or "/" in n for n in names), names
    assert f"__native_{build_fast.GROUP}.gcda" in names
    assert sum(n.startswith("__native_deckkit___") for n in names) == len(
        build_fast.compiled_sources(ROOT)
    )
    if manifest["sources"] != build_fast.sources_hash(ROOT):
        warnings.warn(
            "tools/engine-profile.tar.xz was made from other engine sources than these: builds "
            "still use it, but `make profile` (and committing its two files) brings it up to "
            "date",
            stacklevel=1,
        )


def test_the_profile_guides_a_gcc_build_unless_it_cannot(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """plan_profile: guided by a profile of this GCC; still guided, and saying so, by a stale
    one; not guided without GCC, without a profile, with another GCC's or with --no-profile."""
    build_fast = _build_fast()
    monkeypatch.setattr(build_fast, "sources_hash", lambda root: "s1")
    monkeypatch.setattr(build_fast, "toolchain", lambda: {"mypyc": "2.4", "python": "3.11"})
    monkeypatch.delenv("DECKKIT_PROFILE_WARNINGS", raising=False)
    (tmp_path / "tools").mkdir()
    manifest = {"gcc": "12.2.0", "mypyc": "2.4", "python": "3.11", "sources": "s1"}

    def plan(gcc: str | None = "12.2.0", wanted: bool = True, **changed: str) -> Any:
        doc = {**manifest, **changed}
        (tmp_path / build_fast.PROFILE_MANIFEST).write_text(json.dumps(doc), encoding="utf-8")
        return build_fast.plan_profile(tmp_path, gcc, wanted)

    assert "no tools/engine-profile.tar.xz" in plan().status
    (tmp_path / build_fast.PROFILE).write_bytes(b"")
    guided = plan()
    assert guided.guided and guided.status == "profile-guided"
    assert guided.data == tmp_path / build_fast.PROFILE
    assert "-fprofile-use" in guided.compile and "-Wno-coverage-mismatch" in guided.compile
    stale = plan(sources="s0", mypyc="2.3")
    assert stale.guided and stale.status.startswith("profile-guided from a stale profile")
    assert "sources, mypyc changed" in stale.status and "make profile" in stale.status
    for off, why in ((plan(gcc=None), "needs GCC"), (plan(gcc="13.1.0"), "GCC 12.2.0's"),
                     (plan(wanted=False), "--no-profile")):  # fmt: skip
        assert not off.guided and off.compile == off.link == []
        assert off.status.startswith("not profile-guided") and why in off.status
    monkeypatch.setenv("DECKKIT_PROFILE_WARNINGS", "1")
    assert "-Wno-error" in plan().compile and "-Wno-coverage-mismatch" not in plan().compile


def test_objects_are_named_relative_to_the_c_directory(tmp_path: Path) -> None:
    """With GCC the library's C files compile from mypyc's C directory by relative names, into
    objects of those names: gcc names a profile's counts after the object and keys them by the
    source's name, so the committed profile matches in any checkout. Per-file flags (COLD's
    -O1) reach the files they name and no other."""
    from setuptools._distutils.ccompiler import new_compiler
    from setuptools._distutils.sysconfig import customize_compiler

    build_fast = _build_fast()
    cdir = tmp_path / "c"
    (cdir / "sub").mkdir(parents=True)
    (cdir / "sub" / "m.c").write_text("const char *where(void) { return __FILE__; }\n")
    # per-file flags reach the file they name, and only it (cold_files' -O1)
    marked = '#ifdef DK_MARK\nconst char *mark(void) { return "marked-" __FILE__; }\n#endif\n'
    (cdir / "sub" / "a.c").write_text(marked)
    (cdir / "sub" / "b.c").write_text(marked)
    compiler = new_compiler()
    customize_compiler(compiler)
    build_fast.parallel_compile(compiler, 2, cdir, {"sub/a.c": ["-DDK_MARK"]})
    sources = [str(cdir / "sub" / n) for n in ("m.c", "a.c", "b.c")]
    obj, a, b = compiler.compile(sources, output_dir=str(tmp_path / "obj"))
    assert Path(obj) == tmp_path / "obj" / "sub" / "m.o"
    code = Path(obj).read_bytes()
    assert b"sub/m.c" in code and str(cdir / "sub" / "m.c").encode() not in code
    assert b"marked-sub/a.c" in Path(a).read_bytes()
    assert b"marked-" not in Path(b).read_bytes()


def test_the_default_build_is_the_fast_one_and_quick_is_quicker() -> None:
    """The default library flags: mypyc's -O3 file by file, without -flto (its serial link was
    most of the build), no debug information, calls bound inside the library; COLD's modules at
    -O1. --quick compiles everything at -Og (about two fifths of the build's CPU time, about
    0.6x the games: the README's "The compiled engine's build")."""
    build_fast = _build_fast()
    compile_flags, link_flags = build_fast.gcc_flags()
    assert not any(f.startswith("-flto") for f in [*compile_flags, *link_flags])
    assert "-g0" in compile_flags and "-fno-semantic-interposition" in compile_flags
    assert "-Wl,-Bsymbolic-functions" in link_flags
    quick_compile, quick_link = build_fast.gcc_flags(quick=True)
    assert "-Og" in quick_compile and not any(f.startswith("-flto") for f in quick_link)
    cold = build_fast.cold_files()
    assert cold["__native_deckkit___animayhem___engine___interpreter___piles.c"] == ["-O1"]
    assert len(cold) == len(build_fast.COLD) and set(build_fast.COLD) <= set(build_fast.COMPILED)
    # the search player's modules are hot in its own games
    assert not {"search", "rollout", "determinize"} & set(build_fast.COLD)
    assert build_fast.cold_files(quick=True) == {}
    assert build_fast.main(["--pgo"]) == 2  # replaced by the committed profile (--profile)
