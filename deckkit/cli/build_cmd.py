"""`deckkit build`: the best legal deck from a collection, every legal start deck tuned with the
collection as its pool (see :mod:`deckkit.api.building`).

Exit codes: 0 done, 2 bad input (no legal start deck among the files), 130 interrupted (after
reporting the best deck so far, unconfirmed)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import typer

from deckkit import stopping
from deckkit.analysis import tuning as tn
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import run_options, write_deck
from deckkit.cli.tuneout import Bar, print_text

Format = opt.Format


def print_build(doc: dict[str, Any], out: Path | None) -> None:
    echo(f"collection: {doc['collection']}")
    for s in doc["starts"]:
        echo(f"  start deck {s['deck']}: {len(s['path'])} swap(s) kept")
    for why in doc["skipped"]:
        echo(f"  not a start deck: {why}")
    if doc["winner"] is None:
        echo("interrupted before any start deck was tuned")
        return
    echo(f"best: from {doc['winner']} (chosen on the selection games)")
    echo("")
    print_text(doc | {"deck": doc["winner"]}, out)


def register(app: typer.Typer) -> None:
    """Add `build` to the top-level command."""

    @app.command("build")
    def build_command(
        ctx: typer.Context,
        pool: list[Path] = typer.Option(
            [],
            "--pool",
            help="A collection: a deck file, the cards owned with counts (repeat to pool "
            "several; each legal one is also a start deck). Default: the card database, "
            "starting from the sample decks.",
            metavar="FILE",
        ),
        budget: int = typer.Option(
            tn.DEFAULT_BUDGET,
            "--budget",
            min=1,
            max=tn.MAX_BUDGET,
            help="Selection games, all start decks and candidates together.",
        ),
        confirm: int = typer.Option(
            tn.DEFAULT_CONFIRM,
            "--confirm",
            min=0,
            help="Fresh games of each start and best deck, to confirm the gain.",
        ),
        approximate: bool = typer.Option(
            False, "--approximate", help="Offer cards the engine plays only approximately."
        ),
        disasters: bool = typer.Option(False, "--disasters", help="Swap disasters too."),
        out: Path | None = typer.Option(
            None, "--out", "-o", help="Write the best deck to FILE.deck.", metavar="FILE"
        ),
        force: opt.ForceOpt = False,
        seed: opt.SeedOpt = 0,
        workers: opt.WorkersOpt = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        fmt: opt.FormatOpt = opt.Format.TEXT,
        rule: opt.RuleOpt = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """The best legal deck from a collection: each legal deck among the --pool files tuned
        with all their cards as its pool (as `deckkit tune`), the winner chosen on the selection
        games and confirmed on fresh ones."""
        from deckkit.analysis.output import check_writable
        from deckkit.api.building import build_game

        if out is not None:
            check_writable(out, force=force, what="--out")
        options = run_options(ctx, games=1)
        with Bar(budget + 4 * confirm, quiet=quiet, name="build") as bar:
            result = build_game(
                pool,
                options,
                budget=budget,
                confirm=confirm,
                approximate=approximate,
                disasters=disasters,
                on_games=bar.advance,
                note=bar.note,
            )
        doc = result.as_dict()
        best = result.best
        if out is not None and best is not None:
            write_deck(out, best.best_text(), force=force)
        if fmt is Format.JSON:
            emit(doc)
        else:
            print_build(doc, out)
        if doc["interrupted"]:
            raise typer.Exit(stopping.exit_code())
