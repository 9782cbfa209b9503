"""The two-sided games' runs between default players say how far a stronger player moved the
sample match-up (deckkit.core.seat_gaps, each game's ladder data file, the simulate line)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.analysis.caveats import LADDER_DATA as AT_DATA
from deckkit.animus.ladder import LADDER_DATA as ANIMUS_DATA
from deckkit.api.gap_text import match_sentence
from deckkit.cli.main import app
from deckkit.core.seat_gaps import Ladder, SeatGap, load_seat_gaps, match_gap
from tests.schema_check import Validator

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
validator = Validator(REPO / "docs" / "schemas")
runner = CliRunner()


def test_a_ladder_file_gives_its_search_seats_and_its_notice(tmp_path: Path) -> None:
    path = tmp_path / "ladder.jsonl"
    lines = [
        {"command": "python -m x", "commit": "abc"},
        {"notice": "made up"},
        {"policy": "random", "games": 10, "gap": -0.4, "ci95": [-0.5, -0.3], "team": "A"},
        {"policy": "search", "games": 10, "gap": 0.2, "ci95": [0.1, 0.3], "team": "A"},
        {"policy": "search", "games": 10, "gap": 0.01, "ci95": [-0.01, 0.02], "team": "B"},
        {"policy": "search", "games": 20, "gap": 0.1, "ci95": [0.0, 0.2], "team": "both seatings"},
    ]
    path.write_text("".join(json.dumps(x) + "\n" for x in lines), encoding="utf-8")
    ladder = load_seat_gaps(path)
    assert ladder.notice == "made up"
    assert [s.side for s in ladder.seats] == ["A", "B"]
    gap = match_gap(("heuristic", "heuristic"), ladder, ("a b.team", "c.team"))
    assert gap is not None and gap["near"] is False and gap["sample_made_up"] is True
    assert gap["command"] == "deckkit compare 'a b.team' --vs c.team --policy-b search --games 10"
    assert "its cards made up" in match_sentence(gap) and "own gap" in match_sentence(gap)
    assert match_gap(("heuristic", "search"), ladder, ("a", "b")) is None
    assert match_gap(("random", "random"), ladder, ("a", "b")) is None
    assert match_gap(("heuristic", "heuristic"), Ladder((), None), ("a", "b")) is None
    near = Ladder((SeatGap("A", 10, 0.0, -0.01, 0.02),), None)
    calm = match_gap(("heuristic", "heuristic"), near, ("a", "b"))
    assert calm is not None and calm["near"] and "moves the result little" in match_sentence(calm)


@pytest.mark.parametrize("path", [AT_DATA, ANIMUS_DATA], ids=["anima-tactics", "animus"])
def test_each_sibling_ladder_file_agrees_with_the_readme(path: Path) -> None:
    """The data file and the README's ladder table come from the same ladder: each seat's gap
    and interval are printed there."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    seats = load_seat_gaps(path).seats
    assert len(seats) == 2
    for s in seats:
        lo, hi = (f"{100 * x:+.1f}" for x in (s.gap_low, s.gap_high))
        found = re.findall(
            rf"([+−-][\d.]+)(?: points)? \[{re.escape(lo)}, {re.escape(hi)}\]", readme
        )
        assert found, f"{s.side}: [{lo}, {hi}] is not in the README"
        assert any(abs(float(g.replace("−", "-")) - 100 * s.gap) < 0.051 for g in found), s.side


def test_anima_tactics_simulate_says_it() -> None:
    base = ["simulate", str(DECKS / "at-unaligned.party"), "--vs",
            str(DECKS / "at-samael-darkness.party"), "-n", "40"]  # fmt: skip
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.stderr
    assert "default players: on the sample match-up a search player scored" in text.stdout
    doc = json.loads(runner.invoke(app, [*base, "--format", "json"]).stdout)
    assert validator.errors(doc, "simulate.schema.json") == []
    assert doc["player_gap"]["sample_made_up"] is False and doc["player_gap"]["reference"]
    other = json.loads(runner.invoke(app, [*base, "--format", "json", "--policy", "random"]).stdout)
    assert other["player_gap"] is None
    assert validator.errors(other, "simulate.schema.json") == []


def test_animus_simulate_says_it_and_that_the_sample_is_made_up() -> None:
    base = ["simulate", str(DECKS / "animus-vanguard.team"), "--vs",
            str(DECKS / "animus-counterpoint.team"), "-n", "40"]  # fmt: skip
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.stderr
    said = " ".join(text.stdout.split())
    assert "default players: on the sample match-up, its cards made up, a search player" in said
    doc = json.loads(runner.invoke(app, [*base, "--format", "json"]).stdout)
    assert validator.errors(doc, "simulate.schema.json") == []
    assert doc["player_gap"]["sample_made_up"] is True
    other = json.loads(runner.invoke(app, [*base, "--format", "json", "--policy", "random"]).stdout)
    assert other["player_gap"] is None


def test_the_animus_report_leads_with_it(tmp_path: Path) -> None:
    from report_helpers import mismatches

    page = tmp_path / "match.html"
    out = runner.invoke(
        app,
        ["report", str(DECKS / "animus-vanguard.team"), "--vs",
         str(DECKS / "animus-counterpoint.team"), "-n", "40", "-q", "-o", str(page)],
    )  # fmt: skip
    assert out.exit_code == 0, out.stderr
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    html = page.read_text(encoding="utf-8")
    assert doc["player_gap"]["reference"] and 'id="player-gap"' in html
    assert "(its cards made up)" in html
    assert mismatches(html, doc) == []
