"""`deckkit samples [DIR]`: the sample decks and the balance checks, written where a user can
run the README's tour on them (an installed deckkit carries them inside the package).

Nothing is overwritten: a file that already exists is kept and named as kept.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from deckkit.api.samples import write_samples
from deckkit.cli.console import echo


def register(app: typer.Typer) -> None:
    """Add `samples` to the top-level command."""

    @app.command("samples")
    def samples(
        target: Annotated[
            Path, typer.Argument(metavar="[DIR]", help="Where decks/, reports/ and out/ go.")
        ] = Path("."),
    ) -> None:
        """Write the sample decks (decks/) and their balance checks (reports/) into DIR, and
        make out/ for the README tour's outputs."""
        written, kept = write_samples(target)
        for path in written:
            echo(f"wrote {path}")
        if kept:
            echo(f"kept {len(kept)} existing file(s) as they were", err=True)
