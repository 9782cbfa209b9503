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
from pathlib import PurePath
from typing import Any

import jinja2
from markupsafe import Markup

FORMATS: dict[str, Callable[[Any], str]] = {
    "pct": lambda x: "–" if x is None else f"{100 * x:.1f}%",
    "signed_pct": lambda x: "–" if x is None else f"{100 * x:+.1f} pts",
    "int": lambda x: "–" if x is None else f"{int(x):,}",
    "num": lambda x: "–" if x is None else f"{x:.2f}",
    "num1": lambda x: "–" if x is None else f"{x:.1f}",
}


def lookup(doc: Mapping[str, Any], path: str) -> Any:
    """The value at a dotted path ("outcomes.win.ci.0"), as the page's data-json attributes
    name them."""
    value: Any = doc
    for part in path.split("."):
        value = value[int(part)] if isinstance(value, list) else value[part]
    return value


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
    # a file by its name: the writer's directories are no business of a page's readers
    env.filters["file_name"] = lambda path: PurePath(path).name
    return env


_BIDI_CONTROLS = frozenset(chr(c) for c in (0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F),
                                            *range(0x2066, 0x206A)))  # fmt: skip


_CONTROLS = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\n\t"}


def visible_controls(text: str) -> str:
    """Control characters (ESC, BEL, NUL, C1) shown escaped, as on the terminal: a page is no
    place for them, and a NUL or an ESC makes tools take the page for a binary file."""
    return text.translate(_CONTROLS)


def isolate_bidi(value: object) -> object:
    """Text from files (a deck's, a card's or a check's name) is shown with its control
    characters escaped, and when it carries bidirectional controls, in an isolate (FSI ...
    PDI): a right-to-left override inside it cannot reverse the page around it. Markup the
    templates build themselves passes unchanged."""
    plain = isinstance(value, str) and not isinstance(value, Markup)
    if not plain:
        return value
    text = visible_controls(value)  # type: ignore[arg-type]
    if not _BIDI_CONTROLS.isdisjoint(text):
        return f"\u2068{text}\u2069"
    return text


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
