"""Every ``--format json`` document, results and errors alike, in :mod:`deckkit.schema`'s
envelope."""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence

import typer

from deckkit.schema import ANI_MAYHEM, document


def emit(body: Mapping[str, object], game: str = ANI_MAYHEM) -> None:
    """Print one JSON document on stdout (`game`: whose engine made it, see schema.engine)."""
    typer.echo(json.dumps(document(body, game), ensure_ascii=False, indent=2))


def wants_json(args: Sequence[str]) -> bool:
    """Whether a command line asked for JSON, read before (or without) the parser, so that even
    the parser's errors come as JSON to a tool that asked for it."""
    for i, arg in enumerate(args):
        if arg in ("--format", "-f") and i + 1 < len(args) and args[i + 1].lower() == "json":
            return True
        if arg.lower() in ("--format=json", "-fjson"):
            return True
    return False
