"""How the API's results show themselves: printed, a short summary (a title and a small table,
never the whole result: the dataclasses' own repr ran to 53-108 KB); in a notebook, the same
table as HTML (``_repr_html_``); and every result that holds rows gives them as a polars
DataFrame (``to_frame()``), compare and impact included, intervals as ``_low``/``_high``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import polars as pl
import pytest

import deckkit

REPO = Path(__file__).resolve().parent.parent
DEMO = REPO / "decks" / "demo-solo.deck"
MEDIUM = REPO / "decks" / "medium-solo.deck"
SET0 = REPO / "decks" / "demo-solo-set0.deck"  # illegal under guidelines1998
MAX_SUMMARY = 2_000  # characters of a printed result


def shown_briefly(result: Any, *words: str) -> None:
    text = repr(result)
    assert len(text) < MAX_SUMMARY, len(text)
    assert str(result) == text
    assert text.startswith(type(result).__name__ + ": ")
    html = result._repr_html_()
    assert html.startswith("<div>") and "<table>" in html and len(html) < 3 * MAX_SUMMARY
    for word in words:
        assert word in text and word in html, word


@pytest.fixture(scope="module")
def run() -> deckkit.SimulateResult:
    return deckkit.simulate(DEMO, games=300, seed=1, policy="random")


def test_a_run_prints_its_rates_and_gives_its_rows(run: deckkit.SimulateResult) -> None:
    shown_briefly(run, "Solo demo", "300 games", "win", "loss", "95% CI")
    assert f"{100 * run.win.rate:.1f}%" in repr(run)  # type: ignore[operator]
    rows = run.to_frame()
    assert isinstance(rows, pl.DataFrame) and rows.height == 300
    assert rows.equals(run.rows)  # type: ignore[arg-type]


def test_compare_gives_one_row_per_arm_with_the_paired_difference() -> None:
    result = deckkit.compare([DEMO, MEDIUM], games=80, seed=4)
    shown_briefly(result, "Solo demo", "Medium solo", "pts")
    frame = result.to_frame()
    assert frame["label"].to_list() == ["Solo demo", "Medium solo"]
    difference = result.differences[0]
    assert frame["difference"].to_list() == [None, difference["difference"]]
    assert frame["ci_low"][1] == difference["ci"][0] and frame["ci_high"][1] == difference["ci"][1]
    arm = result.as_dict()["arms"][1]
    assert frame["win_rate"][1] == arm["outcomes"]["win"]["rate"]
    assert frame["win_ci_low"][1] == arm["outcomes"]["win"]["ci"][0]
    assert frame["mean_turns"][1] == arm["mean_turns"]


def test_impact_gives_one_row_per_card() -> None:
    result = deckkit.impact(DEMO, games=60, seed=1, card=["Krillin", "Goten"], remove=True)
    shown_briefly(result, "Krillin", "Goten", "pts")
    frame = result.to_frame()
    cards = result.as_dict()["impact"]["cards"]
    assert frame["card"].to_list() == [c["card"] for c in cards]
    assert frame["difference"].to_list() == [c["difference"] for c in cards]
    assert frame["ci_low"].to_list() == [c["ci"][0] for c in cards]


def test_sensitivity_gives_one_row_per_reading() -> None:
    result = deckkit.sensitivity(DEMO, games=30, seed=2, reading=["charm"])
    shown_briefly(result, "charm=every")
    frame = result.to_frame()
    assert frame["setting"].to_list() == [r["setting"] for r in result.readings]
    assert frame["ci_high"].to_list() == [r["ci"][1] for r in result.readings]


def test_validation_play_and_report_print_briefly(tmp_path: Path) -> None:
    illegal = deckkit.validate(SET0, edition="guidelines1998")
    shown_briefly(illegal, "NOT LEGAL", "disasters")
    violations = illegal.to_frame()
    assert violations.columns == ["rule", "message", "fix"]
    assert violations.height == len(illegal.report.violations) > 0
    assert deckkit.validate(DEMO).to_frame().columns == ["rule", "message", "fix"]

    played = deckkit.play_one(DEMO, game=3, seed=9)
    shown_briefly(played, "game 3 of seed 9", played.record.outcome)
    events = played.to_frame()
    assert events.height == len(played.trace.events) and events.columns == ["turn", "phase", "text"]

    report = deckkit.write_report(DEMO, out=tmp_path / "r.html", games=40, seed=1)
    shown_briefly(report, "r.html")


def test_balance_check_gives_one_row_per_check(tmp_path: Path) -> None:
    (tmp_path / "balance.toml").write_text(
        f'seed = 1\nbudget = 200\npolicy = "heuristic"\nplayers = 1\n\n'
        f'[[check]]\nname = "demo"\ndeck = "{DEMO}"\nband = [0.9, 1.0]\n'
    )
    outcome = deckkit.balance_check(tmp_path / "balance.toml")
    shown_briefly(outcome, "demo", outcome.results[0].verdict)
    frame = outcome.to_frame()
    assert frame["name"].to_list() == ["demo"]
    assert frame["estimate"][0] == outcome.results[0].estimate
    assert frame["band_low"][0] == 0.9
