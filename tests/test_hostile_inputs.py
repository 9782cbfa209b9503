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

import pytest

from deckkit.balance.checks import batches
from tests.test_untrusted_files import deckkit_here

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


def balance_toml(tmp_path: Path, body: str, name: str = "demo", band: str = "[0.80, 1.0]") -> Path:
    path = tmp_path / "balance.toml"
    path.write_text(
        f'[[check]]\nname = "{name}"\ndeck = "{DECK}"\nband = {band}\n{body}\n',
        encoding="utf-8",
    )
    return path


# --- balance schedules ---


def test_the_batch_schedule_is_made_as_it_is_used() -> None:
    schedule = batches(10**20)
    assert not isinstance(schedule, list)
    first = list(itertools.islice(schedule, 4))
    assert first == [(0, 100), (100, 300), (300, 700), (700, 1500)]


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
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


# --- JUnit ---


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_junit_stays_well_formed_whatever_a_check_is_called(tmp_path: Path) -> None:
    file = balance_toml(tmp_path, "budget = 3", name="bell\\u0007 esc\\u001b[31m nul\\u0000")
    junit = tmp_path / "junit.xml"
    done = deckkit("balance", "check", file, "-q", "--junit", junit)
    no_traceback(done)
    assert done.returncode == 3, done.stderr  # 3 games decide nothing
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None
    assert case.get("name") == "bell\\x07 esc\\x1b[31m nul\\x00"


# --- command-line values ---


@pytest.mark.parametrize(
    ("option", "words"),
    [
        (["--impact-games", "0"], "must be at least 1"),  # the option parser's own range
        (["--impact-target-error", "nan"], "--impact-target-error must be between 0 and 1"),
        (["--impact-target-error", "1.5"], "--impact-target-error must be between 0 and 1"),
    ],
)
def test_report_refuses_the_impact_values_impact_refuses(
    tmp_path: Path, option: list[str], words: str
) -> None:
    page = tmp_path / "r.html"
    # The console script for the parser's own range, this process for deckkit's checks.
    run = deckkit if option[0] == "--impact-games" else deckkit_here
    done = run("report", DECK, "-n", "10", "--impact", *option, "-o", page)
    no_traceback(done)
    assert done.returncode == 2, done.stderr
    assert words in done.stderr
    assert list(tmp_path.iterdir()) == []


def test_choices_are_case_insensitive_everywhere(tmp_path: Path) -> None:
    """In this process: the same command-line code as the console script, no start-up."""
    done = deckkit_here("compare", DECK, "--policy-b", "RANDOM", "-n", "10", "-f", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["arms"][1]["policy"] == "random"
    file = balance_toml(tmp_path, 'budget = 3\npolicy = "Random"', band="[0.0, 0.5]")
    done = deckkit_here("balance", "check", file, "-q", "-f", "json")
    no_traceback(done)
    assert done.returncode == 3, done.stderr
    assert json.loads(done.stdout)["checks"][0]["policy"] == "random"


def test_an_empty_edition_b_is_refused() -> None:
    done = deckkit_here("compare", DECK, "--edition-b", "", "-n", "10")
    assert done.returncode == 2
    assert "--edition-b" in done.stderr
    no_traceback(done)


# --- unplayable decks ---


@pytest.mark.parametrize("command", ["simulate", "play", "report", "compare", "impact"])
def test_a_deck_without_locations_is_refused_before_any_game(tmp_path: Path, command: str) -> None:
    deck = tmp_path / "no-locations.deck"
    deck.write_text("name: no field\n[characters]\nKrillin\n[havens]\nThe Tendo Dojo\n")
    extra = {
        "simulate": ["-n", "10"],
        "play": [],
        "report": ["-n", "10", "-o", str(tmp_path / "r.html")],
        "compare": ["--policy-b", "random", "-n", "10"],
        "impact": ["-n", "10"],
    }[command]
    # simulate through the console script; the others in this process (the same refusal).
    done = (deckkit if command == "simulate" else deckkit_here)(
        command, deck, "--allow-illegal", *extra
    )
    no_traceback(done)
    assert done.returncode == 2, done.stderr
    assert f"error: {deck}: the deck has no locations" in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["no-locations.deck"]
