"""The built wheel carries everything `deckkit validate` needs: the card database and the
edition files ship inside the package, so an install outside the checkout works."""

from __future__ import annotations

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


def _build_wheel(out: Path) -> Path:
    """Build with `python -m build` (isolated), falling back to `pip wheel`."""
    attempts = [
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "-w", str(out), str(ROOT)],
    ]
    errors = []
    for cmd in attempts:
        proc = _run(cmd, cwd=out)
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


@pytest.fixture(scope="module")
def installed(tmp_path_factory: pytest.TempPathFactory) -> InstalledWheel:
    """Packaging (pyproject: card_db force-included, editions/*.toml as package data): build the
    wheel and install it into a fresh venv, once for the tests of this module."""
    tmp_path = tmp_path_factory.mktemp("wheel")
    wheel = _build_wheel(tmp_path)
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
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    env["PATH"] = f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"
    return InstalledWheel(wheel, bin_dir, site, env)


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


@pytest.mark.slow
def test_the_readme_tour_runs_from_the_wheel(installed: InstalledWheel, tmp_path: Path) -> None:
    """Every line of the tour, verbatim and with its full game counts, with the wheel's
    `deckkit` first on PATH, in an empty directory: `deckkit samples` brings the decks; each
    line must exit 0. (Slow: `.ci/run` runs it after `make test`.)"""
    work = tmp_path / "tour"
    work.mkdir()
    for args in tour_commands():
        proc = _run(args, cwd=work, env=installed.env)
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
