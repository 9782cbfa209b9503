"""`deckkit stats`: what a deck is before any game is played, at once: its composition by type
and kind, the skills its characters bring against those its locations ask for, the exact chance
of having drawn a card or a kind of card by turn N under the edition's draw rules, and sample
opening hands (see :mod:`deckkit.animayhem.deckstats`)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from deckkit.animayhem.deckstats import DEFAULT_TURNS
from deckkit.api.composition import stats as deck_stats
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.jsonout import emit
from deckkit.cli.options import parse_turns


def _print_text(doc: dict[str, Any]) -> None:
    out = stdout_console(min_width=100)
    echo(f"{doc['deck']}: {doc['edition']} rules")
    echo("")
    table = Table(title="Composition", title_justify="left", show_edge=False, box=None)
    table.add_column("cards")
    table.add_column("count", justify="right")
    for row in doc["composition"]:
        if row["level"] and not row["count"]:
            continue
        table.add_row(("  " * row["level"]) + row["label"], str(row["count"]))
    out.print(table)
    sk = doc["skills"]
    echo("")
    echo(f"skills the characters bring: {', '.join(sk['brought']) or 'none'}")
    echo(f"skills the locations ask for: {', '.join(sk['asked']) or 'none'}")
    if sk["missing"]:
        echo(f"asked for, brought by no character: {', '.join(sk['missing'])}")
    if sk["locations_not_covered"]:
        echo(f"locations the party cannot scavenge: {', '.join(sk['locations_not_covered'])}")
    echo("")
    chances = Table(
        title="Chance to have drawn at least one", title_justify="left", show_edge=False, box=None
    )
    chances.add_column("card or kind")
    chances.add_column("copies", justify="right")
    for t in doc["turns"]:
        chances.add_column("hand" if t == 0 else f"turn {t}", justify="right")
    for row in doc["draw_chances"]:
        cells = [f"{100 * c:.1f}%" for c in row["chances"]]
        chances.add_row(row["label"], str(row["copies"]), *cells)
    out.print(chances)
    echo(doc["note"])
    if doc["sample_hands"]:
        echo("")
        echo("sample opening hands (games 0, 1, ... of `deckkit play --seed S`):")
        for i, hand in enumerate(doc["sample_hands"]):
            echo(f"  {i}: {', '.join(hand)}")


def register(app: typer.Typer) -> None:
    """Add `stats` to the top-level command."""

    @app.command("stats")
    def stats_command(
        deck_path: Annotated[
            Path, typer.Argument(metavar="DECK", help="The deck file; '-' reads it from stdin.")
        ],
        edition: opt.EditionOpt = None,
        turns: Annotated[
            str,
            typer.Option(
                "--turns",
                metavar="N,N,...",
                help="The turns to give chances for; 0 is the opening hand.",
            ),
        ] = ",".join(str(t) for t in DEFAULT_TURNS),
        draws_per_turn: Annotated[
            int,
            typer.Option(
                "--draws-per-turn",
                min=1,
                max=7,
                help="Cards a Reload phase draws in a turn (more when more cards were played).",
            ),
        ] = 1,
        hands: Annotated[
            int, typer.Option("--hands", min=0, max=20, help="Sample opening hands to show.")
        ] = 3,
        seed: opt.SeedOpt = 0,
        fmt: opt.FormatOpt = opt.Format.TEXT,
    ) -> None:
        """Show DECK's composition, the chance of drawing each card or kind by turn N (exact,
        under the edition's draw rules) and sample opening hands, without playing a game."""
        shown_turns = parse_turns(turns)
        doc = deck_stats(
            deck_path,
            edition=edition,
            turns=shown_turns,
            draws_per_turn=draws_per_turn,
            hands=hands,
            seed=seed,
        )
        if fmt is opt.Format.JSON:
            emit(doc)
        else:
            _print_text(doc)
