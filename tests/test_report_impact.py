"""Card impact is in every report by default, within a budget of games that fits (as many as
the run's own unless told), the cards whose value the run shows most clearly measured first;
named cards are all measured; --no-impact leaves it out."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from typer.testing import CliRunner

from deckkit.cli.main import app
from deckkit.report.impact_order import by_clearest_signal

MEDIUM = Path(__file__).resolve().parent.parent / "decks" / "medium-solo.deck"


def report(tmp_path: Path, *args: str) -> dict[str, Any]:
    page = tmp_path / "r.html"
    result = CliRunner().invoke(
        app, ["report", str(MEDIUM), "-o", str(page), "-q", "--force", *args]
    )
    assert result.exit_code == 0, result.stderr
    return dict(json.loads(page.with_suffix(".json").read_text()))


def test_impact_by_default_within_the_budget(tmp_path: Path) -> None:
    doc = report(tmp_path, "-n", "150", "-s", "2", "--impact-games", "100")
    impact = doc["impact"]
    assert impact["budget"] == 150  # as many games as the run's own
    (card,) = impact["cards"]  # 100 games for the first card; 50 left is below a card's minimum
    assert card["games"] == 100
    # the card measured is the one whose correlational signal is the largest
    supported = [o for o in doc["observational"] if o["supported"]]
    clearest = max(supported, key=lambda o: abs(o["difference"]))
    assert card["id"] == clearest["id"]
    assert clearest["card"] not in impact["not_measured"] and len(impact["not_measured"]) > 10
    html = (tmp_path / "r.html").read_text()
    assert 'id="impact"' in html and "Not measured within the budget" in html


def test_headline_names_the_cards_that_matter_by_impact(tmp_path: Path) -> None:
    doc = report(
        tmp_path, "-n", "100", "-s", "2", "--impact-budget", "300", "--impact-games", "300"
    )
    cards = doc["headline"]["cards"]
    assert cards["source"] == "impact" and cards["measured"] == 1
    for c in cards["cards"]:  # only cards whose interval excludes zero
        assert c["ci"][0] > 0 or c["ci"][1] < 0


def test_no_impact_and_a_budget_too_small(tmp_path: Path) -> None:
    assert report(tmp_path, "-n", "40", "--no-impact")["impact"] is None
    small = report(tmp_path, "-n", "40")["impact"]  # 40 games: below one card's minimum
    assert small["cards"] == [] and small["not_measured"]
    named = report(tmp_path, "-n", "40", "--impact-card", "Goten", "--impact-games", "120")
    assert [c["card"] for c in named["impact"]["cards"]] == ["Goten"]
    assert named["impact"]["budget"] is None


def test_order_by_clearest_signal() -> None:
    cards = [SimpleNamespace(id=i) for i in ("a", "b", "c", "d")]
    observed = [
        {"id": "a", "supported": True, "difference": 0.01},
        {"id": "b", "supported": False, "difference": 0.9},
        {"id": "c", "supported": True, "difference": -0.2},
        {"id": "d", "supported": True, "difference": None},
    ]
    assert [c.id for c in by_clearest_signal(cards, observed)] == ["c", "a", "b", "d"]
