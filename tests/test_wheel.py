"""The built wheel carries everything `deckkit validate` needs: the card database and the
edition files ship inside the package, so an install outside the checkout works. `pip install .`
in a fresh venv compiles the engine (hatch_build.py) and plays it; without a C compiler the
wheel is pure Python and says so."""

from __future__ import annotations

import importlib.machinery
import json
import os
import shlex
import shutil
import subprocess
import sys
import sysconfig
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def _run(
    cmd: list[str], cwd: Path, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(cmd, cwd=cwd, env=env, capture_output=True, text=True, check=False)


def _build_wheel(out: Path, env: dict[str, str], isolated: bool = True) -> Path:
    """Build with `python -m build`, falling back to `pip wheel`."""
    build_flags = [] if isolated else ["--no-isolation"]
    pip_flags = [] if isolated else ["--no-build-isolation"]
    attempts = [
        [sys.executable, "-m", "build", "--wheel", *build_flags, "--outdir", str(out), str(ROOT)],
        [sys.executable, "-m", "pip", "wheel", "--no-deps", *pip_flags, "-w", str(out), str(ROOT)],
    ]
    errors = []
    for cmd in attempts:
        proc = _run(cmd, cwd=out, env=env)
        wheels = sorted(out.glob("deckkit-*.whl"))
        if proc.returncode == 0 and wheels:
            return wheels[-1]
        errors.append(proc.stderr[-2000:])
    pytest.fail("could not build a wheel:\n" + "\n---\n".join(errors))


@dataclass(frozen=True)
class InstalledWheel:
    """A wheel built from this checkout and installed into a fresh venv outside it."""

    wheel: Path
    bin_dir: Path
    site: Path
    env: dict[str, str]


def _install_wheel(wheel: Path, tmp_path: Path) -> InstalledWheel:
    """Install `wheel` (without its dependencies) into a fresh venv."""
    venv = tmp_path / "venv"
    proc = _run([sys.executable, "-m", "venv", "--without-pip", str(venv)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    py = bin_dir / "python"
    site = Path(
        _run([str(py), "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
             cwd=tmp_path).stdout.strip()
    )  # fmt: skip
    # Dependencies (typer, rich, ...) come from the project's environment, appended after the
    # new venv's own site-packages, whose deckkit (from the wheel) therefore wins.
    (site / "zz_project_deps.pth").write_text(sysconfig.get_paths()["purelib"] + "\n")
    proc = _run(
        [sys.executable, "-m", "pip", "install", "--no-deps", "--no-index", "--target", str(site),
         "--no-compile", str(wheel)],
        cwd=tmp_path,
    )  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    # pip --target installs no entry point in the venv: the console script, as pip writes it.
    script = bin_dir / "deckkit"
    script.write_text(
        f"#!{py}\nimport sys\nfrom deckkit.cli.main import run\n"
        "if __name__ == '__main__':\n    sys.exit(run())\n"
    )
    script.chmod(0o755)
    env = _clean_env()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return InstalledWheel(wheel, bin_dir, site, env)


def _clean_env() -> dict[str, str]:
    drop = ("PYTHONPATH", "VIRTUAL_ENV", "DECKKIT_PURE", "DECKKIT_STALE_NOTED")
    return {k: v for k, v in os.environ.items() if k not in drop}


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> InstalledWheel:
    """Packaging (pyproject: card_db force-included, editions/*.toml as package data): build a
    pure wheel (DECKKIT_PURE=1: no compile, quick) in this environment and install it into a
    fresh venv, once for the tests of this module."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(tmp_path, {**_clean_env(), "DECKKIT_PURE": "1"}, isolated=False)
    return _install_wheel(wheel, tmp_path)


@pytest.fixture(scope="module")
def pip_installed(tmp_path_factory: pytest.TempPathFactory) -> InstalledWheel:
    """`pip install .` of this checkout into a fresh venv, as a user installs deckkit: an
    isolated build that compiles the engine, and the dependencies from the package index."""
    tmp_path = tmp_path_factory.mktemp("pip")
    venv = tmp_path / "venv"
    proc = _run([sys.executable, "-m", "venv", str(venv)], cwd=tmp_path)
    assert proc.returncode == 0, proc.stderr
    bin_dir = venv / ("Scripts" if os.name == "nt" else "bin")
    env = _clean_env()
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    proc = _run([str(bin_dir / "python"), "-m", "pip", "install", "--quiet", str(ROOT)],
                cwd=tmp_path, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stdout[-2000:] + proc.stderr[-4000:]
    site = _run([str(bin_dir / "python"), "-c", "import sysconfig; print(sysconfig.get_paths()"
                 "['platlib'])"], cwd=tmp_path, env=env).stdout.strip()  # fmt: skip
    return InstalledWheel(tmp_path, bin_dir, Path(site), env)


ENGINE_PROBE = """
import importlib, importlib.machinery, json, pathlib
import deckkit.animayhem.engine as engine
names = json.loads((pathlib.Path(engine.__file__).parent / "_compiled" / "build.json").read_text())
modules = [m.split(".")[0].replace("/", ".").removesuffix(".__init__")
           for m in names.get("modules", [])]
files = [importlib.import_module("deckkit.animayhem.engine." + m).__file__ for m in modules]
print(json.dumps({"compiled": engine.COMPILED, "engine": names["engine"], "files": files}))
"""


def _engine_build(installed: InstalledWheel, **env: str) -> dict[str, object]:
    proc = _run([str(installed.bin_dir / "python"), "-c", ENGINE_PROBE],
                cwd=installed.site, env={**installed.env, **env})  # fmt: skip
    assert proc.returncode == 0, proc.stderr
    build: dict[str, object] = json.loads(proc.stdout)
    build["stderr"] = proc.stderr
    return build


def _summary(installed: InstalledWheel, cwd: Path, **env: str) -> tuple[dict[str, object], str]:
    """A seeded run of the demo deck on two worker processes, as JSON, and its stderr."""
    deck = str(ROOT / "decks" / "demo-solo.deck")
    args = ["deckkit", "simulate", deck, "--games", "300", "--seed", "5", "--workers", "2",
            "--quiet", "--format", "json"]  # fmt: skip
    proc = _run(args, cwd=cwd, env={**installed.env, **env})
    assert proc.returncode == 0, proc.stdout + proc.stderr
    doc: dict[str, object] = json.loads(proc.stdout)
    return doc, proc.stderr


@pytest.mark.slow
def test_pip_install_plays_the_compiled_engine(
    pip_installed: InstalledWheel, tmp_path: Path
) -> None:
    """Where a C compiler exists, `pip install .` installs the mypyc-compiled engine: every
    module of the wheel's list is an extension module, deckkit says nothing about its build, and
    the games equal the pure-Python engine's (DECKKIT_PURE=1, the reference) for a seed."""
    build = _engine_build(pip_installed)
    assert build["compiled"] is True and build["engine"] == "compiled", build
    files = build["files"]
    assert isinstance(files, list) and len(files) >= 13, files
    suffixes = tuple(importlib.machinery.EXTENSION_SUFFIXES)
    for file in files:
        assert file.endswith(suffixes) and Path(file).is_relative_to(pip_installed.site), file
    assert build["stderr"] == ""
    pure = _engine_build(pip_installed, DECKKIT_PURE="1")
    assert pure["compiled"] is False and pure["stderr"] == ""

    compiled_games, err = _summary(pip_installed, tmp_path)
    assert "deckkit:" not in err, err
    pure_games, err = _summary(pip_installed, tmp_path, DECKKIT_PURE="1")
    assert "deckkit:" not in err, err
    # Each document names the engine that played it (deckkit/schema.py), and so does --version.
    assert (compiled_games.pop("engine"), pure_games.pop("engine")) == ("compiled", "pure")
    assert compiled_games == pure_games
    version = _run(["deckkit", "--version"], cwd=tmp_path, env=pip_installed.env)
    assert version.stdout.endswith("(compiled engine)\n"), version.stdout + version.stderr


@pytest.mark.slow
def test_a_wheel_built_without_a_compiler_is_pure_and_says_so(
    pip_installed: InstalledWheel, tmp_path: Path
) -> None:
    """When the C compiler fails (CC=false), the wheel is built anyway, pure Python (any
    platform), and the installed deckkit says so in one line, once per run (not under
    DECKKIT_PURE=1), playing the same games as the compiled engine."""
    env = {**_clean_env(), "CC": "false"}
    wheel = _build_wheel(tmp_path, env)
    assert wheel.name.endswith("-py3-none-any.whl"), wheel.name
    installed = _install_wheel(wheel, tmp_path)
    build = _engine_build(installed)
    assert build["compiled"] is False and build["engine"] == "pure"
    stderr = str(build["stderr"])
    assert stderr.count("\n") == 1 and "compiled engine was not built" in stderr, stderr

    games, err = _summary(installed, tmp_path)  # two worker processes, one notice
    assert err.count("deckkit: the compiled engine was not built") == 1, err
    compiled_games = _summary(pip_installed, tmp_path)[0]
    assert (games.pop("engine"), compiled_games.pop("engine")) == ("pure", "compiled")
    assert games == compiled_games
    _, err = _summary(installed, tmp_path, DECKKIT_PURE="1")
    assert "deckkit:" not in err, err


@pytest.mark.slow  # builds and installs a wheel: end to end (make test-slow, run by CI)
def test_wheel_installs_and_validates_outside_checkout(
    installed: InstalledWheel, tmp_path: Path
) -> None:
    """The wheel carries the card database, the editions and the samples: from a temp cwd the
    installed deckkit validates a sample deck, writes the samples and plays a short run."""
    names = zipfile.ZipFile(installed.wheel).namelist()
    editions = ("set0", "general1996", "guidelines1998", "fifth2018", "variants")
    needed = ["deckkit/card_db/animayhem/cards.csv"]
    needed += [f"deckkit/animayhem/construction/editions/{n}.toml" for n in editions]
    needed += ["deckkit/samples/decks/demo-solo.deck", "deckkit/samples/reports/balance.toml"]
    for name in needed:
        assert name in names, name
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "no LICENSE"
    assert "deckkit/py.typed" in names, "no py.typed: type checkers would ignore the API's types"
    metadata = next(n for n in names if n.endswith(".dist-info/METADATA"))
    headers = zipfile.ZipFile(installed.wheel).read(metadata).decode()
    assert "Classifier: Typing :: Typed" in headers
    assert "Provides-Extra: dask" in headers and "Provides-Extra: dev" not in headers
    # Built with DECKKIT_PURE=1: pure on purpose, for any platform, and quiet about it.
    assert installed.wheel.name.endswith("-py3-none-any.whl"), installed.wheel.name
    manifest = zipfile.ZipFile(installed.wheel).read(
        "deckkit/animayhem/engine/_compiled/build.json"
    )
    assert json.loads(manifest) == {"engine": "pure", "expected": False,
                                    "reason": "DECKKIT_PURE was set"}  # fmt: skip
    assert not any(n.endswith((".so", ".pyd")) for n in names)

    work = tmp_path / "elsewhere"
    work.mkdir()
    deck = work / "demo.deck"
    shutil.copy(ROOT / "decks" / "demo-solo.deck", deck)
    py = str(installed.bin_dir / "python")
    env = installed.env
    where = _run([py, "-c", "import deckkit; print(deckkit.__file__)"], cwd=work, env=env)
    assert Path(where.stdout.strip()).is_relative_to(installed.site), where.stdout + where.stderr

    proc = _run([py, "-m", "deckkit", "validate", "demo.deck", "--format", "json"],
                cwd=work, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["legal"] is True and report["required"]["disasters"] == 24
    for edition in ("set0", "fifth2018"):
        proc = _run([py, "-m", "deckkit", "validate", "demo.deck", "--edition", edition],
                    cwd=work, env=env)  # fmt: skip
        assert proc.returncode == 1, proc.stdout + proc.stderr
    proc = _run(["deckkit", "samples"], cwd=work, env=env)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert (work / "decks" / "medium-solo.deck").is_file()
    assert (work / "reports" / "balance.toml").is_file()
    proc = _run(["deckkit", "simulate", "decks/medium-solo.deck", "--games", "50", "--seed", "1",
                 "--format", "json", "--quiet"], cwd=work, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert json.loads(proc.stdout)["games"] == 50
    assert "deckkit:" not in proc.stderr, proc.stderr  # a wheel built pure on purpose: no notice


@pytest.mark.slow
def test_the_readme_tour_runs_from_the_wheel(pip_installed: InstalledWheel, tmp_path: Path) -> None:
    """Every line of the tour, verbatim and with its full game counts, with `pip install .`'s
    `deckkit` first on PATH, in an empty directory: `deckkit samples` brings the decks; each
    line must exit 0. (Slow: `.ci/run` runs it after `make test`.)"""
    work = tmp_path / "tour"
    work.mkdir()
    for args in tour_commands():
        proc = _run(args, cwd=work, env=pip_installed.env)
        assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, args
    assert (work / "out" / "games.parquet").is_file() and (work / "out" / "cmp.html").is_file()
    assert (work / "out" / "balance.html").is_file()  # the balance checks' summary page


def tour_commands() -> list[list[str]]:
    """The command lines of the README's tour, as written there."""
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    block = text.split("## A tour of the CLI", 1)[1].split("```", 2)[1]
    lines = [line.split("  #")[0].strip() for line in block.splitlines()]
    return [shlex.split(line) for line in lines if line.startswith("deckkit ")]


def test_the_tour_names_only_files_that_exist() -> None:
    commands = tour_commands()
    assert commands[0] == ["deckkit", "samples"]
    for args in commands:
        for arg in args:
            if arg.startswith("decks/") or arg.startswith("reports/"):
                assert (ROOT / arg).is_file(), arg
