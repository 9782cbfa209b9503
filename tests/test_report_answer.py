"""The report leads with the answer: a headline tied to the sidecar, the estimate's course as
games accumulate, a typical win and loss that `deckkit play` replays, and a per-card view that
hides what too few games cannot support."""

from __future__ import annotations

import json
import shlex
from pathlib import Path
from typing import Any

import polars as pl
import pytest
from report_helpers import mismatches, read_page
from typer.testing import CliRunner

from deckkit.analysis.summary import proportion
from deckkit.cli.main import app
from deckkit.report import model

DECKS = Path(__file__).resolve().parent.parent / "decks"


@pytest.fixture(scope="module")
def medium(tmp_path_factory: pytest.TempPathFactory) -> tuple[str, dict[str, Any]]:
    page = tmp_path_factory.mktemp("answer") / "m.html"
    deck = str(DECKS / "medium-solo.deck")
    result = CliRunner().invoke(
        app, ["report", deck, "-n", "200", "-s", "4", "-o", str(page), "-q"]
    )
    assert result.exit_code == 0, result.stderr
    return page.read_text("utf-8"), json.loads(page.with_suffix(".json").read_text())


def test_headline_comes_first_and_shows_the_sidecar(medium: tuple[str, dict[str, Any]]) -> None:
    html, doc = medium
    page = read_page(html)
    assert page.sections[0] == "headline"
    assert page.sections.index("run") > page.sections.index("outcomes")
    assert mismatches(html, doc) == []
    h = doc["headline"]
    assert h["win"] == doc["outcomes"]["win"] and h["games"] == 200
    shown = {path for path, _, _ in page.numbers}
    assert {"headline.win.rate", "headline.win.ci.0", "headline.mean_turns_to_win"} <= shown
    assert 0 < len(h["threats"]) <= 3
    assert [t["card"] for t in h["threats"]] == [d["card"] for d in doc["what_beats_it"][:3]]


def test_convergence_ends_at_the_run_estimate(medium: tuple[str, dict[str, Any]]) -> None:
    _, doc = medium
    points = doc["convergence"]
    games = [p[0] for p in points]
    assert games == sorted(set(games)) and games[0] == 1 and games[-1] == 200
    assert points[-1][1:] == [doc["outcomes"]["win"]["rate"], *doc["outcomes"]["win"]["ci"]]


def test_typical_games_replay_with_their_command(medium: tuple[str, dict[str, Any]]) -> None:
    _, doc = medium
    assert set(doc["typical_games"]) == {"win", "loss"}
    for outcome, game in doc["typical_games"].items():
        argv = shlex.split(game["command"])
        assert argv[:2] == ["deckkit", "play"]
        result = CliRunner().invoke(app, [*argv[1:], "--format", "json"])
        assert result.exit_code == 0, result.stderr
        played = json.loads(result.stdout)
        assert (played["outcome"], played["turns"]) == (outcome, game["turns"])
        assert game["trace"].splitlines()[-1].startswith(f"Result: {outcome} after")
        assert "Turn 1" in game["trace"]


def test_typical_game_is_the_median_length_one() -> None:
    rows = pl.DataFrame(
        {
            "index": [0, 1, 2, 3, 4, 5],
            "outcome": ["win", "win", "loss", "win", "win", "loss"],
            "turns": [9, 5, 12, 7, 7, 3],
            "end_reason": ["a"] * 6,
        }
    )
    picks = model.typical_games(rows)
    assert picks["win"]["game"] == 3 and picks["win"]["turns"] == 7  # 5 7 7 9: lower median 7
    assert picks["loss"]["game"] == 5  # 3 12: lower median 3


def test_card_view_needs_a_minimum_sample_and_shows_an_interval() -> None:
    a, b = proportion(1, 1), proportion(1400, 1999)
    assert model.difference_interval(a, b) is not None
    rows = pl.DataFrame(
        {
            "index": list(range(100)),
            "outcome": ["win"] * 70 + ["loss"] * 30,
            "turns": [5] * 100,
            "n:x1:combats": [1] + [0] * 99,  # took part once: "100.0% in 1"
            "n:x2:combats": [1, 0] * 50,
        }
    )

    class Card:
        def __init__(self, id_: str) -> None:
            self.id, self.key, self.type = id_, id_, "character"

    class Summary:
        def __init__(self) -> None:
            self.cards = [Card("x1"), Card("x2")]

    rare, common = model.observational(rows, Summary())  # type: ignore[arg-type]
    assert rare["games_active"] == 1 and rare["supported"] is False
    assert rare["difference_ci"] is None
    assert common["supported"] is True
    low, high = common["difference_ci"]
    assert low < common["difference"] < high and low >= -1 and high <= 1
    assert model.MIN_GAMES == 30


def test_unsupported_rows_show_no_difference(medium: tuple[str, dict[str, Any]]) -> None:
    _, doc = medium
    from deckkit.report import charts, render

    doc = json.loads(json.dumps(doc))
    supported = [i for i, o in enumerate(doc["observational"]) if o["supported"]]
    assert len(supported) >= 2
    first, second = supported[:2]
    doc["observational"][first].update(supported=False, difference_ci=None, games_active=1)
    page = render.render(doc, charts.report_charts(doc))
    shown = {path for path, _, _ in read_page(page).numbers}
    assert f"observational.{first}.difference" not in shown
    assert f"observational.{second}.difference" in shown
    assert f"observational.{second}.difference_ci.0" in shown
    assert "too few games" in page
