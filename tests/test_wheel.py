"""The built wheel carries everything `deckkit validate` needs: the card database and the
edition files ship inside the package, so an install outside the checkout works."""

from __future__ import annotations

import json
import os
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
    needed += [f"deckkit/animayhem/editions/{n}.toml" for n in editions]
    for name in needed:
        assert name in names, name

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
    assert time.monotonic() - started < 300
