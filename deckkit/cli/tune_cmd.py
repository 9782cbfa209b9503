"""`deckkit tune`: the swaps that raise a deck's win rate most, raced on common random numbers
and confirmed on fresh games (see :mod:`deckkit.analysis.tuning`).

Exit codes: 0 done, 1 an illegal deck refused, 2 bad input, 130 interrupted (after reporting
the best deck so far, unconfirmed; ``--out`` then holds that deck, marked so)."""

from __future__ import annotations

from pathlib import Path

import typer

from deckkit import stopping
from deckkit.analysis import tuning as tn
from deckkit.api.solitaire import prepare
from deckkit.cli import options as opt
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import refuse_illegal, run_options, write_deck
from deckkit.cli.tuneout import Bar, print_text

Format = opt.Format


def register(app: typer.Typer) -> None:
    """Add `tune` to the top-level command."""

    @app.command("tune")
    def tune_command(
        ctx: typer.Context,
        deck: opt.DeckArg,
        budget: int = typer.Option(
            tn.DEFAULT_BUDGET,
            "--budget",
            min=1,
            max=tn.MAX_BUDGET,
            help="Selection games, all candidate decks together (the confirmation comes on top).",
        ),
        confirm: int = typer.Option(
            tn.DEFAULT_CONFIRM,
            "--confirm",
            min=0,
            help="Fresh games of the start and the best deck each, to confirm the gain.",
        ),
        pool: Path | None = typer.Option(
            None,
            "--pool",
            help="A collection: any deck file, the cards owned with counts (default: the card "
            "database).",
            metavar="FILE",
        ),
        approximate: bool = typer.Option(
            False,
            "--approximate",
            help="Let the database pool offer cards the engine plays only approximately.",
        ),
        disasters: bool = typer.Option(
            False,
            "--disasters",
            help="Swap disasters too (in a solitaire game they are the opposition: a weaker one "
            "makes the test easier, not the deck better).",
        ),
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
        """The swaps that raise DECK's win rate most (one card out, one card of the pool in the
        same pile, the deck legal after), raced on common random numbers within --budget
        games, then the start and best decks confirmed on fresh games."""
        from deckkit.analysis.output import check_writable
        from deckkit.api.tuning import tune_game

        if out is not None:
            check_writable(out, force=force, what="--out")
        options = run_options(ctx, games=1)
        game = prepare(deck, options, command="tune")
        refuse_illegal(game.report, allow=False, refusal="refusing to tune an illegal deck")
        with Bar(budget + 2 * confirm, quiet=quiet) as bar:
            result = tune_game(
                game,
                options,
                budget=budget,
                confirm=confirm,
                pool=pool,
                approximate=approximate,
                disasters=disasters,
                on_games=bar.advance,
                note=bar.note,
            )
        doc = result.as_dict()
        if out is not None:
            write_deck(out, result.best_text(), force=force)
        if fmt is Format.JSON:
            emit(doc)
        else:
            print_text(doc, out)
        if doc["interrupted"]:
            raise typer.Exit(stopping.exit_code())
