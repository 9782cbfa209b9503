"""`deckkit balance`: baselines, checks against an edited copy of the card database, exit codes,
JUnit and JSON output, and results that do not depend on the number of workers.

These play the real engine on a sample deck with small budgets. They assert verdicts, never the
decks' current win rates: the edit below (+3 damage on every disaster of the deck) is drastic
enough to fail a 10-point drift check whatever the engine's card effects become.
"""

from __future__ import annotations

import csv
import json
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
from report_helpers import mismatches
from typer.testing import CliRunner

from deckkit.animayhem.construction.carddb import CARD_DB_ENV, card_db_dir, load_card_db
from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.engine import COMPILED
from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DECK = REPO / "decks" / "medium-solo.deck"


def run(*args: str | Path, env: dict[str, str] | None = None) -> Any:
    return CliRunner().invoke(app, ["balance", *map(str, args)], env=env)


def balance_file(tmp_path: Path, *, budget: int = 2000, name: str = "balance.toml") -> Path:
    path = tmp_path / name
    path.write_text(
        f"seed = 5\nbaseline_games = 60\nbudget = {budget}\n"
        f'[[check]]\nname = "medium drift"\ndeck = "{DECK}"\nmax_drop = 0.10\n',
        encoding="utf-8",
    )
    return path


@pytest.fixture
def db_copy(tmp_path: Path) -> Path:
    """A copy of the shipped card database (cards.csv and effects/)."""
    target = tmp_path / "db"
    shutil.copytree(card_db_dir(), target)
    return target


def harsher_disasters(db: Path) -> list[str]:
    """Give every disaster of the deck +3 damage in the copy; returns their names."""
    ids = {
        e.card.id
        for e in read_deck(DECK, load_card_db()).entries
        if e.card.type is CardType.DISASTER
    }
    path = db / "animayhem" / "cards.csv"
    with path.open(encoding="utf-8", newline="") as fh:
        reader = csv.DictReader(fh)
        header, rows = list(reader.fieldnames or []), list(reader)
    names = []
    for row in rows:
        if row["id"] in ids and row["damage"].strip():
            row["damage"] = str(int(row["damage"]) + 3)
            names.append(row["name"])
    with path.open("w", encoding="utf-8", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=header)
        writer.writeheader()
        writer.writerows(rows)
    assert names
    return names


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_drift_check_passes_unchanged_fails_harsher_and_is_inconclusive_on_a_tiny_budget(
    tmp_path: Path, db_copy: Path
) -> None:
    """Against the old baseline: the unchanged database passes (exit 0); +3 damage on the deck's
    disasters fails (exit 1) with a warning naming them; a budget of 3 pairs decides nothing
    (exit 3)."""
    file = balance_file(tmp_path)
    made = run("baseline", file, "--card-db", db_copy, "-q")
    assert made.exit_code == 0, made.output
    record = json.loads((tmp_path / "baselines" / "medium-drift.json").read_text())
    assert record["games"] == 60 and record["seed"] == 5
    assert record["snapshot"]["deck_file"]["text"] == DECK.read_text(encoding="utf-8")
    assert len(record["win_rate_ci"]) == 2
    assert record["engine"] == ("compiled" if COMPILED else "pure")  # which engine played it

    same = run("check", file, "--card-db", db_copy, "-q")
    assert same.exit_code == 0, same.output
    assert "PASS" in same.stdout and "changed since the baseline" not in same.output

    names = harsher_disasters(db_copy)
    junit = tmp_path / "balance.xml"
    worse = run("check", file, "--card-db", db_copy, "-q", "--junit", junit)
    assert worse.exit_code == 1, worse.output
    assert "FAIL" in worse.stdout
    assert "changed since the baseline" in worse.output
    assert all(name in worse.output for name in names)
    case = ET.parse(junit).getroot().find("testsuite/testcase")
    assert case is not None and case.get("name") == "medium drift"
    assert case.find("failure") is not None

    tiny = balance_file(tmp_path, budget=3, name="tiny.toml")
    junit_tiny = tmp_path / "tiny.xml"
    undecided = run("check", tiny, "--card-db", db_copy, "-q", "-f", "json", "--junit", junit_tiny)
    assert undecided.exit_code == 3, undecided.output
    doc = json.loads(undecided.stdout)
    assert doc["checks"][0]["verdict"] == "inconclusive" and doc["checks"][0]["games"] == 3
    assert doc["exit_code"] == 3
    skipped = ET.parse(junit_tiny).getroot().find("testsuite/testcase/skipped")
    assert skipped is not None and "undecided after the budget" in (skipped.get("message") or "")


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_card_db_comes_from_the_environment_variable(tmp_path: Path, db_copy: Path) -> None:
    """DECKKIT_CARD_DB names the database as --card-db does."""
    file = balance_file(tmp_path)
    assert run("baseline", file, "-q", env={CARD_DB_ENV: str(db_copy)}).exit_code == 0
    harsher_disasters(db_copy)
    assert run("check", file, "-q", env={CARD_DB_ENV: str(db_copy)}).exit_code == 1
    assert run("check", file, "-q", env={CARD_DB_ENV: ""}).exit_code == 0  # the shipped one


def json_of(result: Any) -> dict[str, Any]:
    assert result.exit_code in (0, 1, 3), result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    return doc  # games_played included: batch sizes never depend on --workers


@pytest.mark.slow  # a baseline and two checks, one on a pool of worker processes: end to end
def test_same_seed_same_verdicts_and_game_counts_for_any_workers(
    tmp_path: Path, db_copy: Path
) -> None:
    """One worker or two: the same verdicts, game counts, estimates and LLRs, and the same
    games played past the stopping game (batch sizes never depend on the workers)."""
    file = tmp_path / "balance.toml"
    file.write_text(
        f"seed = 11\nbaseline_games = 40\nbudget = 400\n"
        f'[[check]]\nname = "band"\ndeck = "{DECK}"\nband = [0.5, 0.85]\nmargin = 0.1\n'
        f'[[check]]\nname = "drift"\ndeck = "{DECK}"\nmax_drop = 0.1\n',
        encoding="utf-8",
    )
    assert run("baseline", file, "--card-db", db_copy, "-q").exit_code == 0
    harsher_disasters(db_copy)  # a real difference, so the tests run past the first games
    one = json_of(run("check", file, "--card-db", db_copy, "-q", "-f", "json", "-w", "1"))
    two = json_of(run("check", file, "--card-db", db_copy, "-q", "-f", "json", "-w", "2"))
    assert one == two
    assert {c["verdict"] for c in one["checks"]} <= {"pass", "fail", "inconclusive"}
    assert all(c["games"] > 0 for c in one["checks"])


def test_drift_check_without_a_baseline_is_bad_input(tmp_path: Path) -> None:
    """Exit 2 with the command that records the baseline."""
    result = run("check", balance_file(tmp_path), "-q")
    assert result.exit_code == 2
    assert "needs a baseline" in result.output and "deckkit balance baseline" in result.output


def test_baseline_never_replaces_one_without_force(tmp_path: Path, db_copy: Path) -> None:
    """A second baseline run refuses (exit 2) and leaves the first file as it was."""
    file = balance_file(tmp_path)
    assert run("baseline", file, "--card-db", db_copy, "-q").exit_code == 0
    path = tmp_path / "baselines" / "medium-drift.json"
    before = path.read_bytes()
    again = run("baseline", file, "--card-db", db_copy, "-q")
    assert again.exit_code == 2 and "--force" in again.output
    assert path.read_bytes() == before
    assert run("baseline", file, "--card-db", db_copy, "-q", "--force").exit_code == 0


def test_a_card_db_that_does_not_load_is_bad_input_not_inconclusive(tmp_path: Path) -> None:
    """A missing database directory exits 2 (3 is kept for "inconclusive")."""
    result = run("check", balance_file(tmp_path), "--card-db", tmp_path / "nowhere", "-q")
    assert result.exit_code == 2
    assert "nowhere" in result.output


def test_an_unknown_check_name_is_bad_input(tmp_path: Path) -> None:
    result = run("check", balance_file(tmp_path), "--check", "nope", "-q")
    assert result.exit_code == 2 and "no check named 'nope'" in result.output


def test_a_deck_that_does_not_read_names_the_check(tmp_path: Path) -> None:
    """A deck with an unknown card is bad input (exit 2), reported with the check's name."""
    file = tmp_path / "balance.toml"
    deck = REPO / "tests" / "data" / "unknown-card.deck"
    file.write_text(f'[[check]]\nname = "odd"\ndeck = "{deck}"\nband = [0.2, 0.6]\n')
    result = run("check", file, "-q")
    assert result.exit_code == 2
    assert "check 'odd'" in result.output and "unknown-card.deck" in result.output


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_report_dir_gets_each_checked_decks_page(tmp_path: Path) -> None:
    out = tmp_path / "pages"
    out.mkdir()
    result = run(
        "check", REPO / "reports" / "balance.toml", "--check", "medium-solo band",
        "--check", "medium-solo drift", "-w", "1", "-q", "--report", out,
    )  # fmt: skip
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in out.iterdir()) == [
        "balance.html", "balance.json",
        "medium-solo-band.report.html", "medium-solo-band.report.json",
    ]  # one page per deck and policy, and the summary page  # fmt: skip
    doc = json.loads((out / "medium-solo-band.report.json").read_text())
    assert doc["run"]["games_requested"] == 2000 and doc["schema_version"] == 1
    # the summary: each check's verdict and games, the LLR's course ending where the test
    # stopped, between its bounds until it crossed one; links to the deck's page
    summary = json.loads((out / "balance.json").read_text())
    assert summary["counts"] == {"pass": 2, "fail": 0, "inconclusive": 0}
    band, drift = summary["checks"]
    assert (band["kind"], drift["kind"]) == ("band", "drift")
    for c in (band, drift):
        assert c["report_page"] == "medium-solo-band.report.html"
        lines = c["llr_course"]
        assert lines and all(line["points"][-1][0] == c["games"] for line in lines)
        assert any(line["points"][-1][1] == pytest.approx(c["llr"], abs=1e-3) for line in lines)
        for line in lines:  # every point before the last lies between the bounds
            low, high = line["bounds"]
            assert all(low < llr < high for _, llr in line["points"][:-1]) or c["kind"] == "band"
    assert drift["changed_cards"] == [] and drift["baseline_cards_win_rate"] is not None
    page = (out / "balance.html").read_text()
    assert page.count("<svg") == 2 and "the test's course" in page
    assert 'href="medium-solo-band.report.html"' in page
    assert mismatches(page, summary) == []
    missing = run("check", "--report", tmp_path / "nowhere")
    assert missing.exit_code == 2
