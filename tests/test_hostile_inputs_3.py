"""Inputs a careless or hostile user can hand deckkit, third pass (issue 31): one-game reports,
byte-order marks, devices and FIFOs in the sibling games' readers, a team's `cards:` line,
saved runs with bad metadata, decks without locations, control characters on the way to the
chart renderer, huge requests. Each ends in a page, or one clear line and a known exit code
(deckkit/errors.py), never a traceback, a hang or memory without bound."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"
TEAM = REPO / "decks" / "animus-vanguard.team"
VS = REPO / "decks" / "animus-counterpoint.team"
runner = CliRunner()


def invoke(*args: str | Path) -> tuple[int, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.output


# --- one-game reports (issue 31, problem 3) ---


def test_a_one_game_report_is_written_with_no_turns_interval(tmp_path: Path) -> None:
    page = tmp_path / "one.html"
    rows = tmp_path / "one.parquet"
    code, out = invoke(
        "report", DECK, "-n", "1", "-o", page, "--results", rows, "-q", "--no-impact",
        "--sensitivity", "--sensitivity-games", "2",
    )  # fmt: skip
    assert code == 0, out
    doc = json.loads(page.with_suffix(".json").read_text())
    assert doc["turns"]["ci"] is None
    assert "no interval from one game" in page.read_text()
    again = tmp_path / "again.html"
    code, out = invoke("report", "--from", rows, "-o", again, "-q", "--no-impact")
    assert code == 0, out
    assert "no interval from one game" in again.read_text()


def test_a_one_battle_animus_report_is_written(tmp_path: Path) -> None:
    page = tmp_path / "one.html"
    code, out = invoke("report", TEAM, "--vs", VS, "-n", "1", "-o", page)
    assert code == 0, out
    assert "no interval from one game" in page.read_text()
