"""The Anima Tactics report page: the party's answer first (its odds against the roster, or its
games against another party with ``--vs``), then the duel matrix as a heat map, the cost study
as a scatter with its fit, and the party's odds against every character. Same page design and
guarantees as the Ani-Mayhem report (:mod:`deckkit.report.render`: one self-contained file,
autoescaped text, the package's CSS; the page design of issue 28: text of 11 px or more at any
width, no sideways scroll, a legend for every colour scale, data marks at 3:1 or more against
the page in dark mode, under 400 KB).

The scatter goes through the report's chart path (:mod:`deckkit.report.charts`, Vega-Lite drawn
by vl-convert). The heat map of the whole roster (88 by 88 duels) is drawn here: one SVG path per
colour step and row run, so 7,744 cells weigh about 150 KB where a chart library's one element
per cell would weigh several times the page's budget; its colours come from the page's CSS
(``.d0`` .. ``.d10``, a light and a dark set), and its legend is HTML beside it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from html import escape
from statistics import fmean
from typing import Any

from markupsafe import Markup

from deckkit.report import charts, render
from deckkit.report.charts import Spec

TEMPLATE = "animatactics.html.j2"
# Faction colours of the scatter: each at 3:1 or more against both the light page (white) and
# the dark one (#17181b), so a point shows in either scheme.
FACTION_COLOURS = {
    "Light": "#a07a00",
    "Darkness": "#8062c4",
    "Unaligned": "#7d7d84",
    "": "#4a7fc8",
}
STEPS = 11  # colour steps of a duel value: 0, 0.1, ..., 1 (the middle step is an even duel)
CELL = 12  # px: a heat-map cell, drawn at its own size (the figure scrolls, it never shrinks)
FONT = 11.5  # px: the heat map's names
CHAR_WIDTH = 6.6  # px: the width of a name's character at FONT, a generous average
LABEL_HEIGHT = 17  # px: a scatter label's line (13 px text and a gap)


def step(value: float) -> int:
    """The colour step (0 .. 10) of a duel value: the nearest tenth."""
    return min(max(round(min(max(value, 0.0), 1.0) * (STEPS - 1)), 0), STEPS - 1)


def strength_order(matrix: dict[str, Any]) -> list[int]:
    """The roster's indices, strongest first."""
    chars = matrix["characters"]
    return sorted(range(len(chars)), key=lambda i: -chars[i]["strength"])


def label_width(matrix: dict[str, Any]) -> int:
    """The heat map's margin for the names, left of the rows and above the columns (px)."""
    return int(max((len(c["name"]) for c in matrix["characters"]), default=4) * CHAR_WIDTH) + 8


def heat_map(matrix: dict[str, Any]) -> str:
    """The duel matrix, rows and columns strongest first; a cell is the row's duel value
    against the column. Cells of one colour step next to each other in a row share one path
    (``M x y h w v CELL h -w z``); a cell's exact value shows under the map on hover or tap
    (the page's script reads the figure's ``data-values``)."""
    chars = matrix["characters"]
    values = matrix["value"]
    order = strength_order(matrix)
    n = len(order)
    label = label_width(matrix)
    size = CELL * n
    width = height = label + size + 4
    runs: list[list[str]] = [[] for _ in range(STEPS)]
    for r, i in enumerate(order):
        y = label + r * CELL
        c = 0
        while c < n:
            s = step(values[i][order[c]])
            end = c + 1
            while end < n and step(values[i][order[end]]) == s:
                end += 1
            w = (end - c) * CELL
            runs[s].append(f"M{label + c * CELL} {y}h{w}v{CELL}h-{w}z")
            c = end
    names = [escape(chars[i]["name"]) for i in order]
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
        f'viewBox="0 0 {width} {height}" role="img" aria-labelledby="heat-title" '
        'aria-describedby="heat-desc" font-family="system-ui, sans-serif" '
        f'font-size="{FONT}"><title id="heat-title">Duel matrix heat map</title>'
        f'<desc id="heat-desc">{n} by {n} one-on-one duel values, strongest first; red: the row '
        "loses, grey or white: even, blue: the row wins. The exact values are in the odds table "
        "and the JSON sidecar.</desc>",
        '<g class="mark">',
    ]
    parts += [f'<path class="d{s}" d="{"".join(d)}"/>' for s, d in enumerate(runs) if d]
    parts.append("</g>")
    baseline = CELL - 2.5  # a name's baseline inside its row
    parts += [
        f'<text x="{label - 4}" y="{label + r * CELL + baseline}" text-anchor="end">{name}</text>'
        for r, name in enumerate(names)
    ]
    parts += [
        f'<text transform="translate({label + r * CELL + baseline},{label - 4}) rotate(-90)">'
        f"{name}</text>"
        for r, name in enumerate(names)
    ]
    parts.append("</svg>")
    return "".join(parts)


def heat_values(matrix: dict[str, Any]) -> tuple[str, str]:
    """The figure's data for the hover read-out: the names strongest first (JSON) and the
    values in thousandths, row by row."""
    chars, values = matrix["characters"], matrix["value"]
    order = strength_order(matrix)
    names = json.dumps([chars[i]["name"] for i in order], ensure_ascii=False)
    cells = ",".join(str(round(1000 * values[i][j])) for i in order for j in order)
    return names, cells


def _placed_labels(
    points: Sequence[tuple[str, float, float]], x_span: tuple[float, float],
    y_span: tuple[float, float], plot: tuple[float, float],
) -> list[dict[str, Any]]:  # fmt: skip
    """Labels for the named points, placed so that none overlaps another: each starts beside
    its point and moves up or down a line at a time until it is clear. Positions are worked out
    on the plot's size in pixels (``plot``), then given back in data units."""
    (x0, x1), (y0, y1), (w, h) = x_span, y_span, plot
    placed: list[tuple[float, float, float, float]] = []
    out: list[dict[str, Any]] = []
    for name, x, y in sorted(points, key=lambda p: -p[2]):
        px = (x - x0) / (x1 - x0) * w
        py = h - (y - y0) / (y1 - y0) * h
        wide = len(name) * CHAR_WIDTH * 13 / FONT
        right = px + 6 + wide <= w
        left = px + 6 if right else px - 6 - wide
        for k in range(40):
            shift = (k + 1) // 2 * LABEL_HEIGHT * (1 if k % 2 else -1)
            top = py - LABEL_HEIGHT / 2 + shift
            box = (left, top, left + wide, top + LABEL_HEIGHT)
            clear = all(
                box[2] <= b[0] or box[0] >= b[2] or box[3] <= b[1] or box[1] >= b[3] for b in placed
            )
            if clear and top >= 0 and top + LABEL_HEIGHT <= h:
                break
        placed.append(box)
        centre = top + LABEL_HEIGHT / 2
        out.append({
            "name": name,
            "x": x,
            "y": y0 + (h - centre) / h * (y1 - y0),
            "side": "right" if right else "left",
        })  # fmt: skip
    return out


def cost_chart(study: dict[str, Any], matrix: dict[str, Any]) -> Spec:
    """Level cost against duel strength, the least-squares line and its 95% prediction band,
    points coloured by faction (with its legend); the characters furthest from the line are
    named, their labels kept apart."""
    pts = study["points"]
    faction = {c["name"]: c["faction"] or "no faction" for c in matrix["characters"]}
    ys = [p["levels"] for p in pts] + [v for p in pts for v in p["interval95"]]
    y_lo, y_hi = min(0.0, float(min(ys))), float(max(ys)) + 5
    band = sorted(pts, key=lambda p: p["strength"])
    a, b = study["intercept"], study["slope"]
    named = {p["name"] for p in study["over_costed"] + study["under_costed"]}
    width, height = charts.WIDTH, 320
    plot = (width - 80.0, height - 145.0)  # the plot inside the axes, title and legend (at most)
    labels = _placed_labels(
        [(p["name"], p["strength"], p["levels"]) for p in pts if p["name"] in named],
        (0.0, 1.0), (y_lo, y_hi), plot,
    )  # fmt: skip
    x_axis = {"field": "strength", "type": "quantitative", "scale": {"domain": [0, 1]},
              "title": "duel strength (mean duel value)"}  # fmt: skip
    y_scale = {"domain": [y_lo, y_hi], "nice": False}
    colours = {faction_name or "no faction": colour
               for faction_name, colour in FACTION_COLOURS.items()}  # fmt: skip
    present = sorted({faction[p["name"]] for p in pts if p["name"] in faction})
    layers: list[Spec] = [
        {
            "data": {
                "values": [
                    {
                        "strength": p["strength"],
                        "low": p["interval95"][0],
                        "high": p["interval95"][1],
                    }
                    for p in band
                ]
            },
            "mark": {"type": "area", "color": "#4a7fc8", "opacity": 0.15},
            "encoding": {
                "x": x_axis,
                "y": {
                    "field": "low",
                    "type": "quantitative",
                    "scale": y_scale,
                    "title": "level cost",
                },
                "y2": {"field": "high"},
            },
        },
        {
            "data": {
                "values": [
                    {"strength": s, "levels": a + b * s}
                    for s in (band[0]["strength"], band[-1]["strength"])
                ]
            },
            "mark": {"type": "line", "color": "#4a7fc8", "strokeWidth": 1.5},
            "encoding": {"x": x_axis, "y": {"field": "levels", "type": "quantitative"}},
        },
        {
            "data": {
                "values": [
                    {
                        "name": p["name"],
                        "strength": p["strength"],
                        "levels": p["levels"],
                        "fit": round(p["predicted_levels"], 1),
                        "faction": faction.get(p["name"], "no faction"),
                    }
                    for p in pts
                ]
            },
            "mark": {"type": "point", "filled": True, "size": 40, "opacity": 1},
            "encoding": {
                "x": x_axis,
                "y": {"field": "levels", "type": "quantitative"},
                "color": {
                    "field": "faction",
                    "type": "nominal",
                    "title": "faction",
                    "scale": {
                        "domain": present,
                        "range": [colours.get(f, "#4a7fc8") for f in present],
                    },
                    "legend": {"orient": "bottom", "direction": "horizontal"},
                },
                "tooltip": [{"field": "name"}, {"field": "levels"}, {"field": "fit"}],
            },
        },
    ]
    for side in ("right", "left"):
        rows = [lab for lab in labels if lab["side"] == side]
        if rows:
            layers.append({
                "data": {"values": rows},
                "mark": {"type": "text", "align": "left" if side == "right" else "right",
                         "dx": 6 if side == "right" else -6, "baseline": "middle",
                         "fontSize": charts.FONT},
                "encoding": {"x": {"field": "x", "type": "quantitative"},
                             "y": {"field": "y", "type": "quantitative"},
                             "text": {"field": "name"}},
            })  # fmt: skip
    said = "; ".join(f"{p['name']} {p['levels']} levels, fit {p['predicted_levels']:.1f}"
                     for p in study["over_costed"] + study["under_costed"])  # fmt: skip
    return charts.chart_spec(
        {"layer": layers},
        width=width,
        height=height,
        title="Level cost against duel strength",
        description=f"{len(pts)} characters with the least-squares line and its 95% prediction "
        f"band; furthest from the line: {said}.",
    )


def headline(doc: dict[str, Any]) -> dict[str, Any]:
    """The page's answer: how the party's members fare, one on one, against the roster (their
    mean duel value, and against how many characters it is over one half), and its strongest
    and weakest match-ups."""
    odds = doc["odds"]
    means = [row["party_mean"] for row in odds]
    ranked = sorted(odds, key=lambda row: row["party_mean"])
    return {
        "mean_duel_value": fmean(means) if means else None,
        "favoured_against": sum(m > 0.5 for m in means),
        "roster": len(means),
        "hardest": [{"opponent": r["opponent"], "party_mean": r["party_mean"]} for r in ranked[:3]],
    }


def render_page(doc: dict[str, Any]) -> str:
    """The page; adds the headline's numbers to ``doc`` (so the JSON sidecar written from it
    holds every number the page shows)."""
    doc.setdefault("headline", headline(doc))
    page = render.environment().get_template(TEMPLATE)

    def number(path: str, kind: str) -> Markup:
        from deckkit.report.render import lookup

        value = lookup(doc, path)
        return Markup('<span class="n" data-json="{}" data-fmt="{}">{}</span>').format(
            path, kind, render.fmt(value, kind)
        )

    names, cells = heat_values(doc["matrix"])
    scatter = charts.draw({"cost": cost_chart(doc["cost_study"], doc["matrix"])})["cost"]
    return page.render(
        doc=doc,
        heat_map=Markup(heat_map(doc["matrix"])),
        heat_names=names,
        heat_cells=cells,
        heat_cell=CELL,
        heat_origin=label_width(doc["matrix"]),
        scatter=Markup(scatter),
        number=number,
        step=step,
        steps=STEPS,
        css=Markup(render._asset("report.css")),
        script=Markup(render._asset("sort.js")),
    )
