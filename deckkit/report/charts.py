"""The report's charts: Vega-Lite specifications written as plain JSON-ready dicts, rendered to
SVG by vl-convert (no browser, no JavaScript, no network; the same numbers give the same bytes),
so the page embeds them inline and stays one self-contained file.

The specifications are built by hand rather than with altair: they are a few small dicts, and
importing altair costs a fresh ``deckkit report`` process about 0.4 s. The data travel inline
(``{"values": [...]}``), so card names reach the renderer as JSON strings, which it draws as
escaped SVG text."""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

WIDTH = 520
HEIGHT = 190
OUTCOME_COLOURS = {"win": "#2e7d32", "loss": "#c62828", "stall": "#9e9e9e"}
# The Vega-Lite version the specifications are written against (vl-convert compiles them with
# the newest it bundles; the field documents the spec and is never fetched).
SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"

Spec = dict[str, Any]  # one Vega-Lite specification, JSON-ready


_drawn_here = False  # whether vl-convert has started in this process (its first call is slow)


def drawn_here() -> bool:
    """Whether this process has drawn a chart, so that drawing more here is fast."""
    return _drawn_here


def to_svg(spec: Spec, name: str) -> str:
    """The chart as an inline SVG element (see :func:`inline`)."""
    import vl_convert

    global _drawn_here
    svg: str = vl_convert.vegalite_to_svg(spec)
    _drawn_here = True
    return inline(svg, name)


def inline(svg: str, name: str) -> str:
    """An SVG from vl-convert made ready for the page: ids inside are prefixed with ``name`` so
    that several SVGs on one page do not share clip paths, and it is labelled for screen
    readers (its fixed width and height let CSS scale it down on a phone)."""
    svg = re.sub(r'id="([^"]+)"', rf'id="{name}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{name}-\1"', svg)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{name} chart" ', 1)


def _values(rows: Sequence[Sequence[Any]], names: Sequence[str]) -> dict[str, Any]:
    """Inline data: one record per row."""
    return {"values": [dict(zip(names, row, strict=True)) for row in rows]}


def _chart(body: Spec, *, width: int, height: int, title: str) -> Spec:
    return {"$schema": SCHEMA, **body, "width": width, "height": height, "title": title}


def _field(name: str, kind: str, **more: Any) -> Spec:
    """An encoding channel: ``kind`` is "quantitative" or "nominal"."""
    return {"field": name, "type": kind, **more}


def outcome_chart(outcomes: dict[str, dict[str, Any]]) -> Spec:
    """Win, loss and stall rates as bars with their 95% intervals as error bars."""
    data = _values(
        [
            (name, o["rate"] or 0.0, (o["ci"] or [0, 0])[0], (o["ci"] or [0, 0])[1])
            for name, o in outcomes.items()
        ],
        ["outcome", "rate", "low", "high"],
    )
    order = list(OUTCOME_COLOURS)
    bars = {
        "mark": {"type": "bar"},
        "encoding": {
            "color": _field(
                "outcome",
                "nominal",
                legend=None,
                scale={"domain": order, "range": list(OUTCOME_COLOURS.values())},
            ),
            "x": _field(
                "rate",
                "quantitative",
                axis={"format": "%"},
                scale={"domain": [0, 1]},
                title="share of games",
            ),
            "y": _field("outcome", "nominal", sort=order, title=None),
        },
    }
    errors = {
        "mark": {"type": "errorbar", "color": "black", "ticks": True},
        "encoding": {
            "x": _field("low", "quantitative", title="share of games"),
            "x2": {"field": "high"},
            "y": _field("outcome", "nominal", sort=order),
        },
    }
    return _chart(
        {"data": data, "layer": [bars, errors]},
        width=WIDTH,
        height=110,
        title="Outcomes, 95% intervals",
    )


def histogram_chart(pairs: Sequence[Sequence[int]], label: str, title: str) -> Spec:
    """Games per value of a per-game count (already counted: the page never carries the rows)."""
    body = {
        "data": _values(pairs, ["value", "games"]),
        "mark": {"type": "bar", "color": "#3f6fb5"},
        "encoding": {
            "x": _field(
                "value",
                "quantitative",
                bin={"step": 1} if len(pairs) < 60 else {"maxbins": 60},
                title=label,
            ),
            "y": _field("games", "quantitative", aggregate="sum", title="games"),
        },
    }
    return _chart(body, width=WIDTH, height=HEIGHT, title=title)


def survival_chart(points: Sequence[Sequence[float]]) -> Spec:
    """Share of all games won (and lost) by turn t."""
    long = [(t, "won by turn t", w) for t, w, _ in points] + [
        (t, "lost by turn t", lo) for t, _, lo in points
    ]
    body = {
        "data": _values(long, ["turn", "series", "share"]),
        "mark": {"type": "line", "interpolate": "step-after"},
        "encoding": {
            "color": _field(
                "series",
                "nominal",
                legend={"orient": "bottom"},
                scale={
                    "domain": ["won by turn t", "lost by turn t"],
                    "range": ["#2e7d32", "#c62828"],
                },
                title=None,
            ),
            "x": _field("turn", "quantitative", title="turn"),
            "y": _field("share", "quantitative", axis={"format": "%"}, title="share of all games"),
        },
    }
    return _chart(body, width=WIDTH, height=HEIGHT, title="Games decided by turn t")


def interval_chart(
    entries: Sequence[tuple[str, float, float, float]], title: str, axis_title: str
) -> Spec:
    """One point with its 95% interval per row (label, estimate, low, high), with a zero line:
    for win-rate differences (compare, card impact)."""
    data = _values(entries, ["label", "estimate", "low", "high"])
    y = _field("label", "nominal", sort=[e[0] for e in entries], title=None)
    zero = {
        "data": {"values": [{"zero": 0.0}]},
        "mark": {"type": "rule", "color": "#777"},
        "encoding": {"x": _field("zero", "quantitative")},
    }
    errors = {
        "data": data,
        "mark": {"type": "errorbar", "ticks": True},
        "encoding": {
            "x": _field("low", "quantitative", title=axis_title),
            "x2": {"field": "high"},
            "y": y,
        },
    }
    points = {
        "data": data,
        "mark": {"type": "point", "color": "#3f6fb5", "filled": True, "size": 50},
        "encoding": {
            "x": _field("estimate", "quantitative", axis={"format": "+%"}, title=axis_title),
            "y": y,
        },
    }
    return _chart(
        {"layer": [zero, errors, points]},
        width=WIDTH - 120,
        height=max(60, 18 * len(entries)),
        title=title,
    )


def impact_chart(cards: Sequence[dict[str, Any]]) -> Spec:
    """Each card's win-rate change when taken out, with its 95% interval."""
    entries = [
        (c["card"], c["difference"], c["ci"][0], c["ci"][1])
        for c in cards
        if c.get("difference") is not None and c.get("ci")
    ]
    return interval_chart(entries, "Win rate change without the card", "change in win rate")


def report_specs(doc: dict[str, Any]) -> dict[str, Spec]:
    """Every chart of a report document, by name, as its Vega-Lite specification."""
    out: dict[str, Spec] = {}
    if not doc.get("simulated") or not doc.get("games"):
        return out
    out["outcomes"] = outcome_chart(doc["outcomes"])
    dist = doc.get("distributions")
    if dist:
        out["turns"] = histogram_chart(dist["turns"], "turns to finish", "Turns to finish")
        out["items_retrieved"] = histogram_chart(
            dist["items_retrieved"], "items retrieved", "Items retrieved"
        )
        out["items_lost"] = histogram_chart(dist["items_lost"], "items lost", "Items lost")
        out["survival"] = survival_chart(doc["survival"])
    impact = doc.get("impact")
    if impact and impact.get("cards"):
        out["impact"] = impact_chart(impact["cards"])
    return out


def draw(specs: Mapping[str, Spec]) -> dict[str, str]:
    """Each specification, by name, as inline SVG, drawn in this process."""
    return {name: to_svg(spec, name) for name, spec in specs.items()}


def report_charts(doc: dict[str, Any]) -> dict[str, str]:
    """Every chart of a report document, by name, as inline SVG."""
    return draw(report_specs(doc))
