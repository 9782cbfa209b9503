"""The Animus report page: the run's JSON document laid out in the project's page design (the
report's shared templates and environment, stylesheet, sortable tables and ``data-json``
numbers, as Ani-Mayhem's and Anima Tactics's pages), written with its JSON sidecar, each whole
or not at all (deckkit.report.write)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from markupsafe import Markup

from deckkit.report.render import _asset, environment, fmt, lookup

TEMPLATE = "animus.html.j2"


def render(doc: Mapping[str, Any]) -> str:
    """The self-contained page (autoescaped: names from files show as text, isolated when they
    carry bidirectional controls)."""

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
            number=number,
            lookup=lambda path: lookup(doc, path),
            css=Markup(_asset("report.css")),
            script=Markup(_asset("sort.js")),
        )
    )
