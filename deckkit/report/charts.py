"""The report's charts: Vega-Lite specifications written as plain JSON-ready dicts, rendered to
SVG by vl-convert (no browser, no JavaScript, no network; the same numbers give the same bytes),
so the page embeds them inline and stays one self-contained file.

The specifications are built by hand rather than with altair: they are a few small dicts, and
importing altair costs a fresh ``deckkit report`` process about 0.4 s. The data travel inline
(``{"values": [...]}``), so card names reach the renderer as JSON strings, which it draws as
escaped SVG text."""

from __future__ import annotations

import html
import re
from collections.abc import Mapping, Sequence
from typing import Any

from deckkit.textsafe import xml_safe

# Every chart is drawn at the width of its column on a desktop page (two charts side by side in
# a 60rem page), so it is shown at its own size there; on a 375 px phone it is scaled down to
# about 350 px, and its smallest text (13 px drawn) still shows at 11 px or more.
WIDTH = 400  # the whole chart, axis labels and padding included (autosize "fit")
HEIGHT = 210
FONT = 13  # axis labels, axis titles and legends
TITLE_FONT = 15
OUTCOME_COLOURS = {
    "win": "#2e7d32",
    "loss": "#c62828",
    "stall": "#9e9e9e",
    "undecided": "#f9a825",
}
# A two-sided game's outcomes, from the first side's view (deckkit.core.game.Game.outcomes).
MATCH_COLOURS = {"win": OUTCOME_COLOURS["win"], "loss": OUTCOME_COLOURS["loss"],
                 "draw": OUTCOME_COLOURS["stall"]}  # fmt: skip
# The Vega-Lite version the specifications are written against (vl-convert compiles them with
# the newest it bundles; the field documents the spec and is never fetched).
SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json"
CONFIG: dict[str, Any] = {
    "background": None,  # the page's own background shows through (dark mode)
    "font": "system-ui, sans-serif",
    "axis": {"labelFontSize": FONT, "titleFontSize": FONT},
    "legend": {"labelFontSize": FONT, "titleFontSize": FONT},
    "title": {"fontSize": TITLE_FONT, "anchor": "start"},
}

Spec = dict[str, Any]  # one Vega-Lite specification, JSON-ready


_drawn_here = False  # whether vl-convert has started in this process (its first call is slow)


def drawn_here() -> bool:
    """Whether this process has drawn a chart, so that drawing more here is fast."""
    return _drawn_here


def safe_spec(spec: Any) -> Any:
    """The specification with every string (titles, card and check names in the data) made
    safe for the renderer (:func:`deckkit.textsafe.xml_safe`): vl-convert aborts the process
    on a character SVG cannot hold, such as an ESC or a NUL in a balance check's name."""
    if isinstance(spec, str):
        return xml_safe(spec)
    if isinstance(spec, dict):
        return {xml_safe(str(k)): safe_spec(v) for k, v in spec.items()}
    if isinstance(spec, list | tuple):
        return [safe_spec(v) for v in spec]
    return spec


def to_svg(spec: Spec, name: str) -> str:
    """The chart as an inline SVG element (see :func:`inline`)."""
    import vl_convert

    global _drawn_here
    spec = safe_spec(spec)
    svg: str = vl_convert.vegalite_to_svg(spec)
    _drawn_here = True
    return inline(svg, name, spec)


def inline(svg: str, name: str, spec: Spec | None = None) -> str:
    """An SVG from vl-convert made ready for the page: ids inside are prefixed with ``name`` so
    that several SVGs on one page do not share clip paths, and it is labelled for screen
    readers by a <title> and a <desc> (the spec's title and description) that the SVG element
    names with aria-labelledby / aria-describedby. Its fixed width and height let CSS scale it
    down on a phone."""
    svg = re.sub(r'id="([^"]+)"', rf'id="{name}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{name}-\1"', svg)
    title = html.escape(str((spec or {}).get("title") or f"{name} chart"))
    desc = html.escape(str((spec or {}).get("description") or ""))
    labels = f'<svg role="img" aria-labelledby="{name}-title" aria-describedby="{name}-desc" '
    head, rest = svg.split(">", 1)
    head = head.replace("<svg ", labels, 1)
    return (
        f'{head}><title id="{name}-title">{title}</title><desc id="{name}-desc">{desc}</desc>{rest}'
    )


def _values(rows: Sequence[Sequence[Any]], names: Sequence[str]) -> dict[str, Any]:
    """Inline data: one record per row."""
    return {"values": [dict(zip(names, row, strict=True)) for row in rows]}


def _chart(body: Spec, *, height: int, title: str, description: str, width: int = WIDTH) -> Spec:
    return {
        "$schema": SCHEMA,
        **body,
        "width": width,
        "height": height,
        "autosize": {"type": "fit", "contains": "padding"},
        "title": title,
        "description": description,
        "config": CONFIG,
    }


def chart_spec(
    body: Spec, *, height: int, title: str, description: str, width: int = WIDTH
) -> Spec:
    """A chart in the report's style (fonts, sizes, transparent background) for any page."""
    return _chart(body, height=height, title=title, description=description, width=width)


def _field(name: str, kind: str, **more: Any) -> Spec:
    """An encoding channel: ``kind`` is "quantitative" or "nominal"."""
    return {"field": name, "type": kind, **more}


def _pct(x: float | None) -> str:
    return "unknown" if x is None else f"{100 * x:.1f}%"


def outcome_chart(outcomes: dict[str, dict[str, Any]]) -> Spec:
    """Win, loss, stall and undecided rates as bars with their 95% intervals as error bars (a
    two-sided game's win, loss and draw in its colours)."""
    data = _values(
        [
            (name, o["rate"] or 0.0, (o["ci"] or [0, 0])[0], (o["ci"] or [0, 0])[1])
            for name, o in outcomes.items()
        ],
        ["outcome", "rate", "low", "high"],
    )
    colours = MATCH_COLOURS if "draw" in outcomes else OUTCOME_COLOURS
    order = list(colours)
    bars = {
        "mark": {"type": "bar"},
        "encoding": {
            "color": _field(
                "outcome",
                "nominal",
                legend=None,
                scale={"domain": order, "range": list(colours.values())},
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
    kinds = (
        "won, lost and drawn" if colours is MATCH_COLOURS else "won, lost, stalled and undecided"
    )
    said = "; ".join(
        f"{name} {_pct(o['rate'])}"
        + (f" (95% interval {_pct(o['ci'][0])} to {_pct(o['ci'][1])})" if o.get("ci") else "")
        for name, o in outcomes.items()
    )
    return _chart(
        {"data": data, "layer": [bars, errors]},
        height=120,
        title="Outcomes, 95% intervals",
        description=f"Bar chart of the share of games {kinds}: {said}.",
    )


def _value_axis(label: str) -> Spec:
    """An axis of whole numbers: integer ticks, never "5.0"."""
    return {"format": "d", "tickMinStep": 1, "title": label}


def _summary_of_counts(pairs: Sequence[Sequence[int]]) -> str:
    shown = ", ".join(f"{v}: {n}" for v, n in pairs[:20])
    more = f", and {len(pairs) - 20} more values" if len(pairs) > 20 else ""
    return f"games per value: {shown}{more}"


def histogram_chart(pairs: Sequence[Sequence[int]], label: str, title: str) -> Spec:
    """Games per value of a per-game count (already counted: the page never carries the rows):
    one bar per whole value, the largest included, each spanning value ± 0.5 (Vega-Lite's own
    binning puts the maximum into the last bin with its neighbour)."""
    body = {
        "data": _values(
            [(v, v - 0.5, v + 0.5, n) for v, n in pairs], ["value", "from", "to", "games"]
        ),
        "mark": {"type": "bar", "color": "#3f6fb5", "stroke": "#3f6fb5", "strokeWidth": 0.5},
        "encoding": {
            "x": _field(
                "from", "quantitative", bin="binned", axis=_value_axis(label), scale={"nice": False}
            ),
            "x2": {"field": "to"},
            "y": _field("games", "quantitative", title="games"),
        },
    }
    return _chart(
        body,
        height=HEIGHT,
        title=title,
        description=f"Histogram of {label}, one bar per value; {_summary_of_counts(pairs)}.",
    )


def turns_by_outcome_chart(
    rows: Sequence[Sequence[Any]], colours: Mapping[str, str] = OUTCOME_COLOURS
) -> Spec:
    """Games per number of turns, stacked by outcome: how long wins and losses take. ``colours``
    gives each outcome its colour, in the legend's order (a two-sided game's win, loss, draw)."""
    order = list(colours)
    body = {
        "data": _values(
            [(t, t - 0.5, t + 0.5, outcome, n) for t, outcome, n in rows],
            ["turns", "from", "to", "outcome", "games"],
        ),
        "mark": {"type": "bar"},
        "encoding": {
            "x": _field(
                "from",
                "quantitative",
                bin="binned",
                axis=_value_axis("turns to finish"),
                scale={"nice": False},
            ),
            "x2": {"field": "to"},
            "y": _field("games", "quantitative", title="games", stack="zero"),
            "color": _field(
                "outcome",
                "nominal",
                legend={"orient": "top", "title": None},
                scale={"domain": order, "range": list(colours.values())},
            ),
            "order": {"field": "outcome", "sort": "descending"},
        },
    }
    parts = []
    for outcome in order:
        games = [(t, n) for t, o, n in rows if o == outcome]
        total = sum(n for _, n in games)
        if total:
            mean = sum(t * n for t, n in games) / total
            parts.append(f"{outcome}: {total} games, mean {mean:.1f} turns")
    return _chart(
        body,
        height=HEIGHT,
        title="Turns to finish, by outcome",
        description="Stacked histogram of turns per game, one bar per turn count, coloured by "
        f"outcome; {'; '.join(parts)}.",
    )


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
                legend={"orient": "top", "title": None},
                scale={
                    "domain": ["won by turn t", "lost by turn t"],
                    "range": ["#2e7d32", "#c62828"],
                },
            ),
            "x": _field("turn", "quantitative", axis=_value_axis("turn")),
            "y": _field("share", "quantitative", axis={"format": "%"}, title="share of all games"),
        },
    }
    last = points[-1] if points else None
    said = (
        f"by turn {int(last[0])}, {_pct(last[1])} of games were won and {_pct(last[2])} lost"
        if last
        else "no games"
    )
    return _chart(
        body,
        height=HEIGHT,
        title="Games decided by turn t",
        description=f"Step lines of the share of all games won and lost by each turn; {said}.",
    )


def convergence_chart(points: Sequence[Sequence[float]]) -> Spec:
    """The win-rate estimate and its 95% interval as the games accumulate: whether more games
    would still move it."""
    data = _values(points, ["games", "rate", "low", "high"])
    x = _field("games", "quantitative", axis={"format": "~s", "title": "games played"})
    band = {
        "mark": {"type": "area", "opacity": 0.25, "color": "#3f6fb5"},
        "encoding": {
            "x": x,
            "y": _field("low", "quantitative", axis={"format": "%"}, title="win rate"),
            "y2": {"field": "high"},
        },
    }
    line = {
        "mark": {"type": "line", "color": "#3f6fb5"},
        "encoding": {"x": x, "y": _field("rate", "quantitative")},
    }
    last = points[-1] if points else None
    said = (
        f"after {int(last[0])} games the estimate is {_pct(last[1])}, 95% interval "
        f"{_pct(last[2])} to {_pct(last[3])}"
        if last
        else "no games"
    )
    return _chart(
        {"data": data, "layer": [band, line]},
        height=HEIGHT,
        title="Win rate as games accumulate",
        description=f"Line of the win-rate estimate with its 95% interval as a band; {said}.",
    )


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
    said = "; ".join(
        f"{label} {100 * est:+.1f} points ({100 * lo:+.1f} to {100 * hi:+.1f})"
        for label, est, lo, hi in entries[:20]
    )
    return _chart(
        {"layer": [zero, errors, points]},
        height=max(60, 22 * len(entries)),
        title=title,
        description=f"Points with 95% interval bars, one row each: {said}.",
    )


def sweep_chart(
    points: Sequence[tuple[float, float, float, float]], title: str, axis_title: str
) -> Spec:
    """The win rate at each value of a swept number (value, rate, low, high): points joined by
    a line, each with its 95% interval bar."""
    data = _values(points, ["value", "rate", "low", "high"])
    x = _field(
        "value",
        "quantitative",
        title=axis_title,
        axis={"tickMinStep": 1},
        scale={"zero": False, "nice": False, "padding": 12},
    )
    line = {
        "data": data,
        "mark": {"type": "line", "color": "#3f6fb5", "point": {"filled": True, "size": 50}},
        "encoding": {
            "x": x,
            "y": _field("rate", "quantitative", axis={"format": "%"}, title="win rate"),
        },
    }
    errors = {
        "data": data,
        "mark": {"type": "errorbar", "ticks": True, "color": "#3f6fb5"},
        "encoding": {
            "x": x,
            "y": _field("low", "quantitative", title="win rate"),
            "y2": {"field": "high"},
        },
    }
    said = "; ".join(
        f"{value:g}: {100 * rate:.1f}% ({100 * lo:.1f}% to {100 * hi:.1f}%)"
        for value, rate, lo, hi in points[:20]
    )
    return _chart(
        {"layer": [errors, line]},
        height=HEIGHT,
        title=title,
        description=f"Win rate with 95% interval bars at each {axis_title}: {said}.",
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
        if dist.get("turns_by_outcome"):
            out["turns"] = turns_by_outcome_chart(dist["turns_by_outcome"])
        else:
            out["turns"] = histogram_chart(dist["turns"], "turns to finish", "Turns to finish")
        out["items_retrieved"] = histogram_chart(
            dist["items_retrieved"], "items retrieved", "Items retrieved"
        )
        out["items_lost"] = histogram_chart(dist["items_lost"], "items lost", "Items lost")
        out["survival"] = survival_chart(doc["survival"])
    if doc.get("convergence"):
        out["convergence"] = convergence_chart(doc["convergence"])
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


def llr_chart(name: str, course: Sequence[dict[str, Any]]) -> Spec:
    """A balance check's sequential test: the LLR after each game (one line per edge of a band,
    one for a drift) against its Wald bounds, crossing the upper to pass, the lower to fail."""
    lines = [(line["line"], g, llr) for line in course for g, llr in line["points"]]
    bounds = [
        (line["line"], which, value)
        for line in course
        for which, value in zip(("fail below", "pass above"), line["bounds"], strict=True)
    ]
    x = _field("games", "quantitative", axis={"format": "~s", "title": "games"})
    path = {
        "data": _values(lines, ["line", "games", "llr"]),
        "mark": {"type": "line"},
        "encoding": {
            "x": x,
            "y": _field("llr", "quantitative", title="log-likelihood ratio"),
            "color": _field("line", "nominal", legend={"orient": "top", "title": None}),
        },
    }
    rules = {
        "data": _values(bounds, ["line", "bound", "value"]),
        "mark": {"type": "rule", "strokeDash": [4, 3]},
        "encoding": {
            "y": _field("value", "quantitative"),
            "color": _field("line", "nominal", legend=None),
        },
    }
    parts = []
    for line in course:
        last = line["points"][-1] if line["points"] else None
        low, high = line["bounds"]
        where = f"LLR {last[1]:.2f} after {last[0]} games" if last else "no games"
        parts.append(f"{line['line']}: {where}, bounds {low:.2f} and {high:.2f}")
    return _chart(
        {"layer": [path, rules]},
        height=HEIGHT,
        title=f"{name}: the test's course",
        description="Line of the log-likelihood ratio after each game against the dashed "
        f"bounds (above the upper one passes, below the lower one fails); {'; '.join(parts)}.",
    )
