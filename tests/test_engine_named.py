"""deckkit says which engine plays: `deckkit --version` and every JSON document's ``engine``
key (deckkit/schema.py): "compiled" for Ani-Mayhem's mypyc build, "pure" for the Python
modules, and always "pure" for Animus and Anima Tactics, which have no compiled build."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit import __version__
from deckkit.animayhem.engine import COMPILED
from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "decks" / "demo-solo.deck"
THIS_PROCESS = "compiled" if COMPILED else "pure"


def _json(*args: object) -> dict[str, Any]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc


def test_version_names_the_engine_of_this_process() -> None:
    result = CliRunner().invoke(app, ["--version"])
    named = "compiled" if COMPILED else "pure-Python"
    assert result.exit_code == 0
    assert result.stdout == f"deckkit {__version__} ({named} engine)\n"


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_the_pure_switch_is_named_by_version_and_json() -> None:
    env = {**os.environ, "DECKKIT_PURE": "1"}

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, "-m", "deckkit", *args], capture_output=True,
                              text=True, env=env, cwd=ROOT, check=False)  # fmt: skip
        assert done.returncode == 0, done.stderr
        return done.stdout

    assert run("--version") == f"deckkit {__version__} (pure-Python engine)\n"
    assert json.loads(run("validate", str(DEMO), "-f", "json"))["engine"] == "pure"


def test_every_game_s_json_names_its_engine(tmp_path: Path) -> None:
    assert _json("validate", DEMO, "-f", "json")["engine"] == THIS_PROCESS
    assert _json("cards", "show", "Genom Tower", "-f", "json")["engine"] == THIS_PROCESS
    run = _json("simulate", DEMO, "-n", "3", "-q", "-f", "json")
    assert run["engine"] == THIS_PROCESS and run["games"] == 3
    # The other games play pure Python whatever Ani-Mayhem's build is.
    team = ROOT / "decks" / "animus-vanguard.team"
    assert _json("validate", team, "-f", "json")["engine"] == "pure"
    party = ROOT / "decks" / "at-empire-light.party"
    assert _json("validate", party, "-f", "json")["engine"] == "pure"
    # A report's sidecar document too.
    page = tmp_path / "demo.html"
    result = CliRunner().invoke(app, ["report", str(DEMO), "-n", "3", "-q", "-o", str(page)])
    assert result.exit_code == 0, result.output
    sidecar = json.loads(next(tmp_path.glob("*.json")).read_text(encoding="utf-8"))
    assert sidecar["engine"] == THIS_PROCESS
