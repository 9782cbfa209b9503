"""Lay out a report document as one self-contained HTML page.

Autoescaping is on for every template, so card names and any text read from a deck or a results
file show as text (a card named ``<script>`` cannot run); only the SVG drawn by
:mod:`deckkit.report.charts` and the package's own CSS and script are inserted as markup.
Each number on the page carries ``data-json`` (its path in the JSON sidecar) and ``data-fmt``,
so tests, and readers, can tie what they see to the sidecar.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from functools import cache
from importlib import resources
from typing import Any

import jinja2
from markupsafe import Markup

from deckkit.report.model import lookup

FORMATS: dict[str, Callable[[Any], str]] = {
    "pct": lambda x: "–" if x is None else f"{100 * x:.1f}%",
    "signed_pct": lambda x: "–" if x is None else f"{100 * x:+.1f} pp",
    "int": lambda x: "–" if x is None else f"{int(x):,}",
    "num": lambda x: "–" if x is None else f"{x:.2f}",
    "num1": lambda x: "–" if x is None else f"{x:.1f}",
}


def fmt(value: Any, kind: str) -> str:
    """A number as the page shows it."""
    return FORMATS[kind](value)


def _asset(name: str) -> str:
    return resources.files("deckkit.report").joinpath("templates", name).read_text("utf-8")


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("deckkit.report", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=isolate_bidi,
    )
    env.filters["fmt"] = fmt
    return env


_BIDI_CONTROLS = frozenset(chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                            *range(0x2066, 0x206A)))  # fmt: skip


def isolate_bidi(value: object) -> object:
    """Text from files (a deck's or a card's name) that carries bidirectional controls is
    shown in an isolate (FSI ... PDI): a right-to-left override inside it cannot reverse
    the page around it. Markup the templates build themselves passes unchanged."""
    plain = isinstance(value, str) and not isinstance(value, Markup)
    if plain and not _BIDI_CONTROLS.isdisjoint(value):  # type: ignore[arg-type]
        return f"\u2068{value}\u2069"
    return value


REPORT_TEMPLATE = "report.html.j2"


def render(
    doc: Mapping[str, Any], charts: Mapping[str, str], template: str = REPORT_TEMPLATE
) -> str:
    """The page for a report (or comparison) document and its charts."""

    def number(path: str, kind: str) -> Markup:
        value = lookup(doc, path)
        return Markup('<span class="n" data-json="{}" data-fmt="{}">{}</span>').format(
            path, kind, fmt(value, kind)
        )

    page = environment().get_template(template)
    return page.render(
        doc=doc,
        charts={k: Markup(v) for k, v in charts.items()},
        number=number,
        css=Markup(_asset("report.css")),
        script=Markup(_asset("sort.js")),
    )
