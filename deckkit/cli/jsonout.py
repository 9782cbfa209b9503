"""Every ``--format json`` document, results and errors alike, in one envelope.

Tools that read deckkit's JSON check ``schema_version`` (bumped when a key changes meaning or
goes away; new keys may appear within a version) and see which ``deckkit`` made it.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import typer

from deckkit import __version__

SCHEMA_VERSION = 1


def document(body: Mapping[str, object]) -> dict[str, object]:
    """``body`` under the envelope's two keys."""
    return {"schema_version": SCHEMA_VERSION, "deckkit": __version__, **body}


def emit(body: Mapping[str, object]) -> None:
    """Print one JSON document on stdout."""
    typer.echo(json.dumps(document(body), ensure_ascii=False, indent=2))


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asked for JSON, read before (or without) the parser, so that even
    the parser's errors come as JSON to a tool that asked for it."""
    for i, arg in enumerate(args):
        if arg in ("--format", "-f") and i + 1 < len(args) and args[i + 1].lower() == "json":
            return True
        if arg.lower() in ("--format=json", "-fjson"):
            return True
    return False
