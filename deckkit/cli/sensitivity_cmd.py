"""`deckkit sensitivity`: how far each alternative reading of the rules moves a deck's win rate.

The deck plays the same games under the readings in effect (defaults, the deck's ``rule:`` lines
and ``--rule``) and under each alternative value of each rule option, one at a time; every row
is a paired difference with its 95% interval (:mod:`deckkit.analysis.sensitivity`). The same
table is a section of `deckkit report DECK --sensitivity`.
"""

from __future__ import annotations

from typing import Any

import typer

from deckkit.animayhem.construction.readings import BY_NAME
from deckkit.api.readings import DEFAULT_GAMES, sensitivity_of
from deckkit.api.solitaire import prepare
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import refuse_illegal, run_options
from deckkit.cli.sensitivity_text import print_readings

__all__ = ["DEFAULT_GAMES", "print_text", "register"]


def print_text(doc: dict[str, Any]) -> None:
    echo(
        f"{doc['deck']}: win rate under each alternative rule reading, {doc['edition']} rules, "
        f"{doc['policy']} player, seed {doc['seed']}, {doc['games']:,} paired games each"
    )
    print_readings(doc, 'docs/interpretations.md, "Rule options"')


def register(app: typer.Typer) -> None:
    """Add `sensitivity` to the top-level command."""

    @app.command("sensitivity")
    def sensitivity_command(
        ctx: typer.Context,
        deck: opt.DeckArg,
        games: opt.GamesOpt = DEFAULT_GAMES,
        seed: opt.SeedOpt = 0,
        workers: opt.WorkersOpt = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        rule: opt.RuleOpt = None,
        reading: list[str] | None = typer.Option(
            None,
            "--reading",
            metavar="NAME",
            help="Vary only this rule option (repeatable); default: every option whose choice "
            "the edition leaves open.",
        ),
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: opt.AllowIllegalOpt = False,
    ) -> None:
        """How far each alternative reading of the rules (each rule option's other values,
        one at a time) moves DECK's win rate: paired games, 95% intervals."""
        opt.check_readings(reading, BY_NAME, "docs/interpretations.md")
        options = run_options(ctx)
        game = prepare(deck, options, command="sensitivity")
        refuse_illegal(
            game.report,
            allow=allow_illegal,
            refusal="refusing to measure; pass --allow-illegal to measure anyway",
        )
        doc = sensitivity_of(game, options, only=reading or None)
        if fmt is opt.Format.JSON:
            emit(doc)
        else:
            print_text(doc)
