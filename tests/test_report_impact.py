"""Card impact is in every report by default, within a budget of games that fits (as many as
the run's own unless told), the cards whose value the run shows most clearly measured first;
named cards are all measured; --no-impact leaves it out."""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
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


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
def test_impact_by_default_within_the_budget(tmp_path: Path) -> None:
    doc = report(tmp_path, "-n", "700", "-s", "2", "--impact-games", "100")
    impact = doc["impact"]
    assert impact["budget"] == 700  # as many games as the run's own
    # 100 games for each of the first card's 5 stand-ins; 200 left is below 100 a stand-in
    (card,) = impact["cards"]
    assert card["games"] == 100 and [s["games"] for s in card["stand_ins"]] == [100] * 5
    assert impact["cards_measured"] == 1 and impact["cards_in_deck"] == 50
    # the card measured is the one whose correlational signal is the largest
    supported = [o for o in doc["observational"] if o["supported"]]
    clearest = max(supported, key=lambda o: abs(o["difference"]))
    assert card["id"] == clearest["id"]
    assert clearest["card"] not in impact["not_measured"] and len(impact["not_measured"]) > 10
    html = (tmp_path / "r.html").read_text()
    assert 'id="impact"' in html and "Not measured within the budget" in html


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_headline_names_the_cards_that_matter_by_impact(tmp_path: Path) -> None:
    doc = report(
        tmp_path, "-n", "100", "-s", "2", "--impact-budget", "1500", "--impact-games", "300"
    )
    cards = doc["headline"]["cards"]
    assert cards["source"] == "impact" and (cards["measured"], cards["in_deck"]) == (1, 50)
    assert cards["replacement_level"] == "median of stand-ins" and cards["stand_ins"] == 5
    for c in cards["cards"]:  # only supported values: interval and every stand-in agree
        assert c["ci"][0] > 0 or c["ci"][1] < 0
        assert c["spread"][0] > 0 or c["spread"][1] < 0
    html = (tmp_path / "r.html").read_text()
    assert "the median of up to 5 legal stand-ins of its kind" in html
    assert "1</span> of <span" in html or "1 of 50 cards measured" in html


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
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


def test_headline_leaves_out_a_value_the_stand_ins_do_not_support() -> None:
    # As on the 6e37da8 page: Furinkan High's interval excluded zero against one stand-in
    # (Alien Jungle, -12.8 pp), while another stand-in (Jusenkyo) gave +0.0 pp.
    from deckkit.report.model import _cards_that_matter

    impact = {
        "replacement_level": "median of stand-ins",
        "stand_ins_per_card": 5,
        "cards_in_deck": 49,
        "cards": [
            {"card": "Furinkan High", "difference": -0.128, "ci": [-0.16, -0.09],
             "spread": [-0.128, 0.0], "supported": False},
            {"card": "Goten", "difference": -0.15, "ci": [-0.2, -0.1],
             "spread": [-0.2, -0.13], "supported": True},
        ],
    }  # fmt: skip
    cards = _cards_that_matter(impact, [])
    assert [c["card"] for c in cards["cards"]] == ["Goten"]
    assert (cards["measured"], cards["in_deck"]) == (2, 49)
