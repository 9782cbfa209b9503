"""A made-up game for the registry's tests: every command echoes what it was given."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckkit.cli.exits import DeckkitTyper
from deckkit.errors import DeckFileError

app = DeckkitTyper(name="fake-game")


@app.command("validate")
def validate(
    files: Annotated[list[Path], typer.Argument()],
    budget: Annotated[int, typer.Option("--budget")] = 7,
) -> None:
    for f in files:
        if "broken" in f.name:
            raise DeckFileError("cannot read this", path=f, line=3)
        typer.echo(f"fake validate {f.name} budget={budget}")


@app.command("simulate")
def simulate(file: Path, vs: Annotated[Path | None, typer.Option("--vs")] = None) -> None:
    typer.echo(f"fake simulate {file.name} vs={vs.name if vs else None}")


cards_app = DeckkitTyper(name="cards")


@cards_app.command("list")
def list_cards() -> None:
    typer.echo("fake cards")


app.add_typer(cards_app, name="cards")
