"""The report's charts: plain Vega-Lite specifications (no altair) that vl-convert draws with
their titles, axes and error bars; names from files drawn as escaped text; the same numbers
give the same bytes; ids kept apart between the charts of one page."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest

from deckkit.report import charts

OUTCOMES: dict[str, dict[str, Any]] = {
    "win": {"rate": 0.6, "ci": [0.55, 0.65]},
    "loss": {"rate": 0.3, "ci": [0.26, 0.35]},
    "stall": {"rate": 0.1, "ci": [0.07, 0.13]},
}
EVIL = "<script>alert(1)</script> & \"Kuno\" 'x'"


def texts(svg: str) -> list[str]:
    return re.findall(r"<text[^>]*>([^<]*)</text>", svg)


def test_specs_are_plain_json() -> None:
    doc = {
        "simulated": True,
        "games": 3,
        "outcomes": OUTCOMES,
        "distributions": {
            "turns": [[4, 1], [6, 2]],
            "items_retrieved": [[0, 3]],
            "items_lost": [[1, 2], [2, 1]],
        },
        "survival": [[4, 1 / 3, 0.0], [6, 2 / 3, 1 / 3]],
        "impact": {"cards": [{"card": "Goten", "difference": 0.02, "ci": [-0.01, 0.05]}]},
    }
    specs = charts.report_specs(doc)
    assert list(specs) == [
        "outcomes", "turns", "items_retrieved", "items_lost", "survival", "impact",
    ]  # fmt: skip
    for spec in specs.values():
        assert json.loads(json.dumps(spec, allow_nan=False)) == spec
    assert charts.report_specs({"simulated": False, "games": 0}) == {}


def test_outcome_chart_has_bars_error_bars_and_axes() -> None:
    spec = charts.outcome_chart(OUTCOMES)
    bars, errors = spec["layer"]
    assert bars["mark"]["type"] == "bar" and bars["encoding"]["x"]["field"] == "rate"
    assert errors["mark"]["type"] == "errorbar"
    assert (errors["encoding"]["x"]["field"], errors["encoding"]["x2"]["field"]) == ("low", "high")
    assert spec["data"]["values"][0] == {"outcome": "win", "rate": 0.6, "low": 0.55, "high": 0.65}
    shown = texts(charts.to_svg(spec, "outcomes"))
    for text in ("Outcomes, 95% intervals", "share of games", "win", "loss", "stall", "100%"):
        assert text in shown


def test_histogram_bins_by_one_until_sixty_values() -> None:
    few = charts.histogram_chart([[v, 1] for v in range(59)], "turns to finish", "Turns")
    many = charts.histogram_chart([[v, 1] for v in range(60)], "turns to finish", "Turns")
    assert few["encoding"]["x"]["bin"] == {"step": 1}
    assert many["encoding"]["x"]["bin"] == {"maxbins": 60}
    shown = texts(charts.to_svg(few, "turns"))
    assert "Turns" in shown and "turns to finish" in shown and "games" in shown


def test_names_from_files_are_drawn_as_escaped_text() -> None:
    spec = charts.impact_chart(
        [
            {"card": EVIL, "difference": -0.03, "ci": [-0.08, 0.02]},
            {"card": "Goten", "difference": 0.01, "ci": [-0.02, 0.04]},
            {"card": "unmeasured", "difference": None, "ci": None},
        ]
    )
    assert spec["layer"][2]["encoding"]["y"]["sort"] == [EVIL, "Goten"]
    svg = charts.to_svg(spec, "impact")
    assert "<script" not in svg
    assert "&lt;script&gt;alert(1)&lt;/script&gt; &amp;" in svg
    assert "Win rate change without the card" in texts(svg)
    assert "change in win rate" in texts(svg)


@pytest.mark.parametrize("name", ["outcomes", "outcomes-1"])
def test_same_numbers_same_bytes_and_ids_prefixed(name: str) -> None:
    first = charts.to_svg(charts.outcome_chart(OUTCOMES), name)
    assert first == charts.to_svg(charts.outcome_chart(OUTCOMES), name)
    assert first.startswith(f'<svg role="img" aria-label="{name} chart" ')
    clipped = charts.outcome_chart(OUTCOMES)
    clipped["layer"][0]["mark"]["clip"] = True  # a clip path: an id the SVG refers to
    svg = charts.to_svg(clipped, name)
    ids = re.findall(r'id="([^"]+)"', svg)
    refs = re.findall(r"url\(#([^)]+)\)", svg)
    assert ids and refs and set(refs) <= set(ids)
    assert all(i.startswith(f"{name}-") for i in ids + refs)
