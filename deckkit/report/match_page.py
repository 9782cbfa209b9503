"""The page of a saved run of a two-sided game (a party or team against another, from
:func:`deckkit.analysis.saved_matches.match_document`): it leads with its answer (the first
side's win rate with its interval, who wins how often), then how the games end (by code, with
the game's words), their length, and each side's counters. Laid out with the report's shared
templates, stylesheet and sortable tables; its charts are Vega-Lite specifications drawn by the
report's chart path (:mod:`deckkit.report.charts`, through
:class:`deckkit.report.chart_process.ChartProcess`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from deckkit.report import charts
from deckkit.report.render import _asset, environment, fmt, lookup

TEMPLATE = "match.html.j2"
LABEL_LIMIT = 150  # px of a bar's name in the outcome chart (of charts.WIDTH)


def outcome_labels(doc: Mapping[str, Any]) -> dict[str, str]:
    """Each outcome (from the first side's view) as the page says it."""
    first, second = (s["name"] for s in doc["sides"])
    said = {"win": f"{first} wins", "loss": f"{second} wins", "draw": "draw"}
    return {o: said.get(o, o) for o in doc["outcomes"]}


def outcome_chart(doc: Mapping[str, Any]) -> charts.Spec:
    """Who wins how often: a bar per outcome, named by the side that wins it, with its 95%
    interval; the bars take the outcome's colour of the turns chart's legend."""
    labels = outcome_labels(doc)
    colours = charts.MATCH_COLOURS
    rows = []
    for name, o in doc["outcomes"].items():
        low, high = o["ci"] or (0.0, 0.0)
        rows.append({"outcome": name, "label": labels[name], "rate": o["rate"] or 0.0,
                     "low": low, "high": high})  # fmt: skip
    order = [labels[o] for o in doc["outcomes"]]
    # a long name is cut with an ellipsis inside the chart, never past its edge
    y = {"field": "label", "type": "nominal", "sort": order, "title": None,
         "axis": {"labelLimit": LABEL_LIMIT}}  # fmt: skip
    bars = {
        "mark": {"type": "bar"},
        "encoding": {
            "color": {
                "field": "outcome",
                "type": "nominal",
                "legend": None,
                "scale": {"domain": list(colours), "range": list(colours.values())},
            },
            "x": {
                "field": "rate",
                "type": "quantitative",
                "axis": {"format": "%"},
                "scale": {"domain": [0, 1]},
                "title": "share of games",
            },
            "y": y,
        },
    }
    errors = {
        "mark": {"type": "errorbar", "color": "black", "ticks": True},
        "encoding": {
            "x": {"field": "low", "type": "quantitative", "title": "share of games"},
            "x2": {"field": "high"},
            "y": y,
        },
    }
    said = "; ".join(
        f"{r['label']} {100 * r['rate']:.1f}% (95% interval {100 * r['low']:.1f}% to "
        f"{100 * r['high']:.1f}%)"
        for r in rows
    )
    return charts.chart_spec(
        # room on the left for the names as the browser's font draws them (wider than the
        # renderer measures them)
        {
            "data": {"values": rows},
            "layer": [bars, errors],
            "padding": {"left": 24, "top": 5, "right": 5, "bottom": 5},
        },
        height=40 * len(rows),
        title="Who wins, 95% intervals",
        description=f"Bar chart of the share of games each side won and drawn: {said}.",
    )


def specs(doc: Mapping[str, Any]) -> dict[str, charts.Spec]:
    """The page's charts, by name, as Vega-Lite specifications."""
    if not doc.get("games"):
        return {}
    return {
        "outcomes": outcome_chart(doc),
        "turns": charts.turns_by_outcome_chart(doc["turns_by_outcome"], charts.MATCH_COLOURS),
    }


def render(doc: Mapping[str, Any], svgs: Mapping[str, str]) -> str:
    """The self-contained page (autoescaped: names from files show as text, isolated when they
    carry bidirectional controls); every number carries its path in the JSON sidecar."""

    def number(path: str, kind: str) -> Markup:
        value = lookup(doc, path)
        return Markup('<span class="n" data-json="{}" data-fmt="{}">{}</span>').format(
            path, kind, fmt(value, kind)
        )

    return (
        environment()
        .get_template(TEMPLATE)
        .render(
            doc=doc,
            labels=outcome_labels(doc),
            charts={k: Markup(v) for k, v in svgs.items()},
            number=number,
            lookup=lambda path: lookup(doc, path),
            css=Markup(_asset("report.css")),
            script=Markup(_asset("sort.js")),
        )
    )
