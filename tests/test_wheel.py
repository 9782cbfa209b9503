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
import time
import zipfile
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


def test_wheel_installs_and_validates_outside_checkout(tmp_path: Path) -> None:
    """Packaging (pyproject: card_db force-included, editions/*.toml as package data): install
    the wheel into a fresh venv, run `deckkit validate` on a sample deck from a temp cwd."""
    started = time.monotonic()
    wheel = _build_wheel(tmp_path)
    names = zipfile.ZipFile(wheel).namelist()
    editions = ("set0", "general1996", "guidelines1998", "fifth2018", "variants")
    needed = ["deckkit/card_db/animayhem/cards.csv"]
    needed += [f"deckkit/animayhem/construction/editions/{n}.toml" for n in editions]
    needed += ["deckkit/samples/decks/demo-solo.deck", "deckkit/samples/reports/balance.toml"]
    for name in needed:
        assert name in names, name
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), "no LICENSE"

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

    work = tmp_path / "elsewhere"
    work.mkdir()
    deck = work / "demo.deck"
    shutil.copy(ROOT / "decks" / "demo-solo.deck", deck)
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "VIRTUAL_ENV")}
    where = _run([str(py), "-c", "import deckkit; print(deckkit.__file__)"], cwd=work, env=env)
    assert Path(where.stdout.strip()).is_relative_to(site), where.stdout + where.stderr

    proc = _run([str(py), "-m", "deckkit", "validate", "demo.deck", "--format", "json"],
                cwd=work, env=env)  # fmt: skip
    assert proc.returncode == 0, proc.stdout + proc.stderr
    report = json.loads(proc.stdout)
    assert report["legal"] is True and report["required"]["disasters"] == 24
    for edition in ("set0", "fifth2018"):
        proc = _run([str(py), "-m", "deckkit", "validate", "demo.deck", "--edition", edition],
                    cwd=work, env=env)  # fmt: skip
        assert proc.returncode == 1, proc.stdout + proc.stderr
    _run_the_readme_tour(bin_dir, tmp_path / "tour", env)
    assert time.monotonic() - started < 600


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


def _run_the_readme_tour(bin_dir: Path, work: Path, env: dict[str, str]) -> None:
    """Every line of the tour, verbatim, with the wheel's `deckkit` first on PATH, in an empty
    directory: `deckkit samples` brings the decks; each line must exit 0."""
    work.mkdir()
    # pip --target installs no entry point in the venv: the console script, as pip writes it.
    script = bin_dir / "deckkit"
    script.write_text(
        f"#!{bin_dir / 'python'}\nimport sys\nfrom deckkit.cli.main import run\n"
        "if __name__ == '__main__':\n    sys.exit(run())\n"
    )
    script.chmod(0o755)
    env = {**env, "PATH": f"{bin_dir}{os.pathsep}{env.get('PATH', '')}"}
    for args in tour_commands():
        proc = _run(args, cwd=work, env=env)
        assert proc.returncode == 0, (args, proc.stdout[-2000:], proc.stderr[-2000:])
        assert "Traceback" not in proc.stderr, args
    assert (work / "out" / "games.parquet").is_file() and (work / "out" / "cmp.html").is_file()
    assert (work / "out" / "balance.html").is_file()  # the balance checks' summary page
