"""The Anima Tactics report page: the duel matrix as a heat map, the cost study as a scatter with
its fit, a party's odds against every character, and (with ``--vs``) its games against another
party. Same page style and guarantees as the Ani-Mayhem report (:mod:`deckkit.report.render`:
one self-contained file, autoescaped text, the package's CSS); the charts are plain SVG drawn
here, so the page needs no chart process.
"""

from __future__ import annotations

from html import escape
from typing import Any

from markupsafe import Markup

from deckkit.report import render

TEMPLATE = "animatactics.html.j2"
FACTION_COLOURS = {"Light": "#c9a227", "Darkness": "#5b3f8c", "Unaligned": "#5f6368", "": "#999"}


def _colour(value: float) -> str:
    """0 red, 1/2 white, 1 blue (a diverging scale for a duel value)."""
    v = min(max(value, 0.0), 1.0)
    if v < 0.5:
        t = v / 0.5
        r, g, b = 178 + (255 - 178) * t, 24 + (255 - 24) * t, 43 + (255 - 43) * t
    else:
        t = (v - 0.5) / 0.5
        r, g, b = 255 - (255 - 33) * t, 255 - (255 - 102) * t, 255 - (255 - 172) * t
    return f"#{int(r):02x}{int(g):02x}{int(b):02x}"


def heat_map(matrix: dict[str, Any]) -> str:
    """Rows and columns ordered by strength (strongest first); each cell is the row's duel
    value against the column, with a tooltip."""
    chars = matrix["characters"]
    values = matrix["value"]
    order = sorted(range(len(chars)), key=lambda i: -chars[i]["strength"])
    cell, label = 7, 150
    size = cell * len(order)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {label + size + 10} '
        f'{label + size + 10}" role="img" aria-label="duel matrix heat map" '
        'font-family="system-ui, sans-serif" font-size="6">'
    ]
    for r, i in enumerate(order):
        y = label + r * cell
        parts.append(
            f'<text x="{label - 3}" y="{y + cell - 1}" text-anchor="end">'
            f"{escape(chars[i]['name'])}</text>"
        )
        x = label + r * cell
        parts.append(
            f'<text transform="translate({x + cell - 1},{label - 3}) rotate(-90)">'
            f"{escape(chars[i]['name'])}</text>"
        )
        for c, j in enumerate(order):
            v = values[i][j]
            parts.append(
                f'<rect x="{label + c * cell}" y="{y}" width="{cell}" height="{cell}" '
                f'fill="{_colour(v)}"><title>{escape(chars[i]["name"])} vs '
                f"{escape(chars[j]['name'])}: {v:.3f}</title></rect>"
            )
    parts.append("</svg>")
    return "".join(parts)


def scatter(study: dict[str, Any], matrix: dict[str, Any]) -> str:
    """Level cost against duel strength, the least-squares line and its 95% prediction band;
    the characters furthest from the line are named."""
    pts = study["points"]
    faction = {c["name"]: c["faction"] for c in matrix["characters"]}
    w, h, m = 640, 420, 50
    ys = (
        [p["levels"] for p in pts]
        + [p["interval95"][0] for p in pts]
        + [p["interval95"][1] for p in pts]
    )
    y_lo, y_hi = min(0.0, float(min(ys))), float(max(ys)) + 5

    def px(x: float) -> float:
        return m + x * (w - 2 * m)

    def py(y: float) -> float:
        return h - m - (y - y_lo) / (y_hi - y_lo) * (h - 2 * m)

    named = {p["name"] for p in study["over_costed"] + study["under_costed"]}
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {w} {h}" role="img" '
        'aria-label="cost study scatter" font-family="system-ui, sans-serif" font-size="10">',
        f'<line x1="{m}" y1="{h - m}" x2="{w - m}" y2="{h - m}" stroke="#333"/>',
        f'<line x1="{m}" y1="{m}" x2="{m}" y2="{h - m}" stroke="#333"/>',
        f'<text x="{w / 2}" y="{h - 12}" text-anchor="middle">duel strength (mean duel value '
        "against the roster)</text>",
        f'<text transform="translate(14,{h / 2}) rotate(-90)" text-anchor="middle">'
        "level cost</text>",
    ]
    for t in (0, 0.25, 0.5, 0.75, 1):
        parts.append(f'<text x="{px(t)}" y="{h - m + 14}" text-anchor="middle">{t:g}</text>')
    for t in range(0, int(y_hi) + 1, 20):
        parts.append(f'<text x="{m - 6}" y="{py(t) + 3}" text-anchor="end">{t}</text>')
    band = sorted(pts, key=lambda p: p["strength"])
    upper = " ".join(f"{px(p['strength']):.1f},{py(p['interval95'][1]):.1f}" for p in band)
    lower = " ".join(f"{px(p['strength']):.1f},{py(p['interval95'][0]):.1f}" for p in band[::-1])
    parts.append(f'<polygon points="{upper} {lower}" fill="#2166ac" fill-opacity="0.12"/>')
    a, b = study["intercept"], study["slope"]
    x0, x1 = band[0]["strength"], band[-1]["strength"]
    parts.append(
        f'<line x1="{px(x0):.1f}" y1="{py(a + b * x0):.1f}" x2="{px(x1):.1f}" '
        f'y2="{py(a + b * x1):.1f}" stroke="#2166ac" stroke-width="1.5"/>'
    )
    for p in pts:
        x, y = px(p["strength"]), py(p["levels"])
        colour = FACTION_COLOURS.get(faction.get(p["name"], ""), "#999")
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="3.5" fill="{colour}"><title>'
            f"{escape(p['name'])}: {p['levels']} levels, strength {p['strength']:.3f}, "
            f"fit {p['predicted_levels']:.1f}</title></circle>"
        )
        if p["name"] in named:
            parts.append(f'<text x="{x + 5:.1f}" y="{y - 4:.1f}">{escape(p["name"])}</text>')
    parts.append("</svg>")
    return "".join(parts)


def render_page(doc: dict[str, Any]) -> str:
    page = render.environment().get_template(TEMPLATE)

    def number(path: str, kind: str) -> Markup:
        from deckkit.report.model import lookup

        value = lookup(doc, path)
        return Markup('<span class="n" data-json="{}" data-fmt="{}">{}</span>').format(
            path, kind, render.fmt(value, kind)
        )

    return page.render(
        doc=doc,
        heat_map=Markup(heat_map(doc["matrix"])),
        scatter=Markup(scatter(doc["cost_study"], doc["matrix"])),
        number=number,
        colour=_colour,
        css=Markup(render._asset("report.css")),
        script=Markup(render._asset("sort.js")),
    )
