"""Inputs a careless or hostile user can hand deckkit: each ends in one clear line and a known
exit code, never a traceback, a hang or memory without bound."""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from pathlib import Path

from deckkit.balance.checks import batches

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "demo-solo.deck"


def deckkit(
    *args: str | Path, timeout: float = 120, **kwargs: object
) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "deckkit", *map(str, args)],
        capture_output=True, text=True, cwd=REPO, timeout=timeout, **kwargs,  # type: ignore[call-overload]
    )  # fmt: skip


def no_traceback(done: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in done.stderr, done.stderr
    assert "Exception ignored" not in done.stderr, done.stderr


def balance_toml(tmp_path: Path, body: str, name: str = "demo") -> Path:
    path = tmp_path / "balance.toml"
    path.write_text(
        f'[[check]]\nname = "{name}"\ndeck = "{DECK}"\nband = [0.80, 1.0]\n{body}\n',
        encoding="utf-8",
    )
    return path


# --- balance schedules ---------------------------------------------------------------------------


def test_the_batch_schedule_is_made_as_it_is_used() -> None:
    schedule = batches(10**20)
    assert not isinstance(schedule, list)
    first = list(itertools.islice(schedule, 4))
    assert first == [(0, 100), (100, 300), (300, 700), (700, 1500)]


def test_a_balance_check_with_an_astronomical_budget_plays_as_any_other(tmp_path: Path) -> None:
    file = balance_toml(tmp_path, f"budget = {10**20}")
    started = time.monotonic()
    done = deckkit("balance", "check", file, "-q", "-f", "json", timeout=60)
    no_traceback(done)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - started < 30
    doc = json.loads(done.stdout)
    assert doc["checks"][0]["verdict"] == "pass"
    assert doc["checks"][0]["budget"] == 10**20


# --- JUnit ---------------------------------------------------------------------------------------


def test_junit_stays_well_formed_whatever_a_check_is_called(tmp_path: Path) -> None:
    file = balance_toml(tmp_path, "budget = 3", name="bell\\u0007 esc\\u001b[31m nul\\u0000")
    junit = tmp_path / "junit.xml"
    done = deckkit("balance", "check", file, "-q", "--junit", junit)
    no_traceback(done)
    assert done.returncode == 3, done.stderr  # 3 games decide nothing
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None
    assert case.get("name") == "bell\\x07 esc\\x1b[31m nul\\x00"
