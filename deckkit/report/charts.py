"""The report's charts: Vega-Lite specifications built with altair, rendered to SVG by
vl-convert (no browser, no JavaScript, no network; the same numbers give the same bytes), so
the page embeds them inline and stays one self-contained file."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any, cast

import altair as alt
import polars as pl

WIDTH = 520
HEIGHT = 190
Chart = alt.TopLevelMixin  # what altair's builders return (typed loosely by altair)
OUTCOME_COLOURS = {"win": "#2e7d32", "loss": "#c62828", "stall": "#9e9e9e"}


def to_svg(chart: Chart, name: str) -> str:
    """The chart as an inline SVG element. Ids inside are prefixed with ``name`` so that several
    SVGs on one page do not share clip paths; the fixed width and height become a viewBox so
    the chart scales down on a phone."""
    import vl_convert

    svg: str = vl_convert.vegalite_to_svg(chart.to_dict())
    svg = re.sub(r'id="([^"]+)"', rf'id="{name}-\1"', svg)
    svg = re.sub(r"url\(#([^)]+)\)", rf"url(#{name}-\1)", svg)
    svg = re.sub(r'href="#([^"]+)"', rf'href="#{name}-\1"', svg)
    return svg.replace("<svg ", f'<svg role="img" aria-label="{name} chart" ', 1)


def _frame(rows: Sequence[Sequence[Any]], names: Sequence[str]) -> pl.DataFrame:
    return pl.DataFrame([list(r) for r in rows], schema=list(names), orient="row")


def outcome_chart(outcomes: dict[str, dict[str, Any]]) -> Chart:
    """Win, loss and stall rates as bars with their 95% intervals as error bars."""
    data = _frame(
        [
            (name, o["rate"] or 0.0, (o["ci"] or [0, 0])[0], (o["ci"] or [0, 0])[1])
            for name, o in outcomes.items()
        ],
        ["outcome", "rate", "low", "high"],
    )
    base = alt.Chart(data)
    colour = alt.Color(
        "outcome:N",
        scale=alt.Scale(domain=list(OUTCOME_COLOURS), range=list(OUTCOME_COLOURS.values())),
        legend=None,
    )
    bars = base.mark_bar().encode(
        y=alt.Y("outcome:N", sort=list(OUTCOME_COLOURS), title=None),
        x=alt.X(
            "rate:Q",
            title="share of games",
            axis=alt.Axis(format="%"),
            scale=alt.Scale(domain=[0, 1]),
        ),
        color=colour,
    )
    errors = base.mark_errorbar(ticks=True, color="black").encode(
        y=alt.Y("outcome:N", sort=list(OUTCOME_COLOURS)),
        x=alt.X("low:Q", title="share of games"),
        x2="high:Q",
    )
    chart = (bars + errors).properties(width=WIDTH, height=110, title="Outcomes, 95% intervals")
    return cast(Chart, chart)


def histogram_chart(pairs: Sequence[Sequence[int]], label: str, title: str) -> Chart:
    """Games per value of a per-game count (already counted: the page never carries the rows)."""
    data = _frame(pairs, ["value", "games"])
    chart = (
        alt.Chart(data)
        .mark_bar(color="#3f6fb5")
        .encode(
            x=alt.X(
                "value:Q",
                title=label,
                bin=alt.Bin(step=1) if data.height < 60 else alt.Bin(maxbins=60),
            ),
            y=alt.Y("sum(games):Q", title="games"),
        )
        .properties(width=WIDTH, height=HEIGHT, title=title)
    )
    return cast(Chart, chart)


def survival_chart(points: Sequence[Sequence[float]]) -> Chart:
    """Share of all games won (and lost) by turn t."""
    long = [(t, "won by turn t", w) for t, w, _ in points] + [
        (t, "lost by turn t", lo) for t, _, lo in points
    ]
    data = _frame(long, ["turn", "series", "share"])
    chart = (
        alt.Chart(data)
        .mark_line(interpolate="step-after")
        .encode(
            x=alt.X("turn:Q", title="turn"),
            y=alt.Y("share:Q", title="share of all games", axis=alt.Axis(format="%")),
            color=alt.Color(
                "series:N",
                scale=alt.Scale(
                    domain=["won by turn t", "lost by turn t"], range=["#2e7d32", "#c62828"]
                ),
                title=None,
                legend=alt.Legend(orient="bottom"),
            ),
        )
        .properties(width=WIDTH, height=HEIGHT, title="Games decided by turn t")
    )
    return cast(Chart, chart)


def interval_chart(
    entries: Sequence[tuple[str, float, float, float]], title: str, axis_title: str
) -> Chart:
    """One point with its 95% interval per row (label, estimate, low, high), with a zero line:
    for win-rate differences (compare, card impact)."""
    data = _frame(entries, ["label", "estimate", "low", "high"])
    order = [e[0] for e in entries]
    base = alt.Chart(data)
    y = alt.Y("label:N", sort=order, title=None)
    points = base.mark_point(filled=True, color="#3f6fb5", size=50).encode(
        y=y, x=alt.X("estimate:Q", title=axis_title, axis=alt.Axis(format="+%"))
    )
    errors = base.mark_errorbar(ticks=True).encode(
        y=y, x=alt.X("low:Q", title=axis_title), x2="high:Q"
    )
    zero = alt.Chart(pl.DataFrame({"zero": [0.0]})).mark_rule(color="#777").encode(x="zero:Q")
    height = max(60, 18 * len(entries))
    chart = (zero + errors + points).properties(width=WIDTH - 120, height=height, title=title)
    return cast(Chart, chart)


def report_charts(doc: dict[str, Any]) -> dict[str, str]:
    """Every chart of a report document, by name, as inline SVG."""
    out: dict[str, str] = {}
    if not doc.get("simulated") or not doc.get("games"):
        return out
    out["outcomes"] = to_svg(outcome_chart(doc["outcomes"]), "outcomes")
    dist = doc.get("distributions")
    if dist:
        out["turns"] = to_svg(
            histogram_chart(dist["turns"], "turns to finish", "Turns to finish"), "turns"
        )
        out["items_retrieved"] = to_svg(
            histogram_chart(dist["items_retrieved"], "items retrieved", "Items retrieved"),
            "items_retrieved",
        )
        out["items_lost"] = to_svg(
            histogram_chart(dist["items_lost"], "items lost", "Items lost"), "items_lost"
        )
        out["survival"] = to_svg(survival_chart(doc["survival"]), "survival")
    impact = doc.get("impact")
    if impact and impact.get("cards"):
        out["impact"] = to_svg(impact_chart(impact["cards"]), "impact")
    return out


def impact_chart(cards: Sequence[dict[str, Any]]) -> Chart:
    """Each card's win-rate change when taken out, with its 95% interval."""
    entries = [
        (c["card"], c["difference"], c["ci"][0], c["ci"][1])
        for c in cards
        if c.get("difference") is not None and c.get("ci")
    ]
    return interval_chart(entries, "Win rate change without the card", "change in win rate")
