"""The Animus report page: the run's JSON document laid out in the project's page style (the
same stylesheet, sortable tables and ``data-json`` numbers as Ani-Mayhem's reports), written
with its JSON sidecar, each whole or not at all (deckkit.report.write)."""

from __future__ import annotations

from collections.abc import Mapping
from functools import cache
from importlib import resources
from pathlib import PurePath
from typing import Any

import jinja2
from markupsafe import Markup

from deckkit.report.model import lookup
from deckkit.report.render import fmt, isolate_bidi


def _asset(name: str) -> str:
    return resources.files("deckkit.report").joinpath("templates", name).read_text("utf-8")


@cache
def _environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.PackageLoader("deckkit.animus", "templates"),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        finalize=isolate_bidi,  # a card name from a user's file cannot reverse the page
    )
    env.filters["fmt"] = fmt
    # a card file by its name: the writer's directories are no business of the page's readers
    env.filters["file_name"] = lambda path: PurePath(path).name
    return env


def render(doc: Mapping[str, Any]) -> str:
    """The self-contained page (autoescaped: names from files show as text)."""

    def number(path: str, kind: str) -> Markup:
        value = lookup(doc, path)
        return Markup('<span class="n" data-json="{}" data-fmt="{}">{}</span>').format(
            path, kind, fmt(value, kind)
        )

    return (
        _environment()
        .get_template("report.html.j2")
        .render(
            doc=doc,
            number=number,
            lookup=lambda path: lookup(doc, path),
            css=Markup(_asset("report.css")),
            script=Markup(_asset("sort.js")),
        )
    )
