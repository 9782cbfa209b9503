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
    doc["convergence"] = [[1, 1.0, 0.2, 1.0], [3, 2 / 3, 0.2, 0.94]]
    doc["distributions"]["turns_by_outcome"] = [[4, "win", 1], [6, "win", 1], [6, "loss", 1]]
    specs = charts.report_specs(doc)
    assert specs["turns"]["title"] == "Turns to finish, by outcome" and "convergence" in specs
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


def bars(svg: str) -> list[tuple[float, float, float, float]]:
    """(x, y, width, height) of every bar of an SVG drawn by vl-convert."""
    group = re.search(r'<g class="mark-rect role-mark[^"]*"[^>]*>(.*?)</g>', svg, re.S)
    assert group is not None
    out = []
    for d in re.findall(r'<path[^>]* d="M([^"]+)"', group.group(1)):
        x, y, w, h = (float(v) for v in re.findall(r"-?[\d.]+", d)[:4])
        out.append((x, y, w, h))
    return out


def test_integer_histogram_has_one_bar_per_value_including_the_maximum() -> None:
    """medium's "items lost" once showed 5 and 6 as one bar of 591 games (572 + 19): the last
    bin of Vega-Lite's binning takes in the maximum."""
    pairs = [[0, 800], [1, 300], [2, 150], [3, 90], [4, 40], [5, 572], [6, 19]]
    spec = charts.histogram_chart(pairs, "items lost", "Items lost")
    svg = charts.to_svg(spec, "items_lost")
    drawn = sorted(bars(svg))
    assert len(drawn) == len(pairs)
    # the bars stand side by side, one unit each, and the two last differ in height (572 vs 19)
    widths = {round(w, 3) for _, _, w, _ in drawn}
    assert len(widths) == 1
    heights = [h for _, _, _, h in drawn]
    assert heights[5] > 20 * heights[6] > 0
    # whole-number ticks, never "5.0"
    shown = texts(svg)
    assert "6" in shown and not any(t.endswith(".0") for t in shown)


def test_histogram_of_many_values_keeps_one_bar_each() -> None:
    pairs = [[v, 1 + v % 3] for v in range(1, 121)]
    spec = charts.histogram_chart(pairs, "turns to finish", "Turns")
    assert len(bars(charts.to_svg(spec, "turns"))) == 120
    shown = texts(charts.to_svg(spec, "turns"))
    assert "Turns" in shown and "turns to finish" in shown and "games" in shown


def test_turns_by_outcome_stacks_wins_and_losses_per_turn() -> None:
    rows = [[5, "win", 3], [5, "loss", 1], [7, "loss", 2], [9, "stall", 1]]
    spec = charts.turns_by_outcome_chart(rows)
    assert len(bars(charts.to_svg(spec, "turns"))) == 4
    assert "win: 3 games, mean 5.0 turns" in spec["description"]


def test_charts_are_labelled_for_screen_readers() -> None:
    svg = charts.to_svg(charts.outcome_chart(OUTCOMES), "outcomes")
    head = svg.split(">", 1)[0]
    assert 'role="img"' in head and 'aria-labelledby="outcomes-title"' in head
    assert '<title id="outcomes-title">Outcomes, 95% intervals</title>' in svg
    assert "win 60.0% (95% interval 55.0% to 65.0%)" in svg


def test_chart_text_is_drawn_at_13_px_or_more_and_fits_its_column() -> None:
    spec = charts.convergence_chart([[1, 1.0, 0.2, 1.0], [10, 0.6, 0.31, 0.83]])
    svg = charts.to_svg(spec, "convergence")
    sizes = [float(s) for s in re.findall(r'font-size="([\d.]+)px"', svg)]
    assert sizes and min(sizes) >= charts.FONT
    assert f'width="{charts.WIDTH}"' in svg.split(">", 1)[0]


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
    assert first.startswith(f'<svg role="img" aria-labelledby="{name}-title" ')
    clipped = charts.outcome_chart(OUTCOMES)
    clipped["layer"][0]["mark"]["clip"] = True  # a clip path: an id the SVG refers to
    svg = charts.to_svg(clipped, name)
    ids = re.findall(r'id="([^"]+)"', svg)
    refs = re.findall(r"url\(#([^)]+)\)", svg)
    assert ids and refs and set(refs) <= set(ids)
    assert all(i.startswith(f"{name}-") for i in ids + refs)
