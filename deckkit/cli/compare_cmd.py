"""`deckkit compare`: two or more decks (or one deck under two policies or editions), each
played on the same seed and game indices, so game ``i`` of every arm draws from the same random
stream; the win-rate differences come from the paired outcomes (McNemar-style, see
:mod:`deckkit.analysis.paired`). Text, JSON, and an HTML page with ``--html``.
"""

from __future__ import annotations

from pathlib import Path

import typer

from deckkit.api.comparison import build_arms, compare_arms
from deckkit.cli import compare_out as out
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import refuse_illegal, run_options
from deckkit.cli.steps import Steps
from deckkit.report import write

Format = opt.Format


def register(app: typer.Typer) -> None:
    """Add `compare` to the top-level command."""

    @app.command("compare")
    def compare_command(
        ctx: typer.Context,
        decks: list[Path] = typer.Argument(..., metavar="DECK_A [DECK_B ...]"),
        policy_b: opt.Policy | None = typer.Option(
            None, "--policy-b", case_sensitive=False, help=out.POLICY_B_HELP
        ),
        edition_b: opt.Edition | None = typer.Option(
            None, "--edition-b", case_sensitive=False, help="Edition of every arm after the first."
        ),
        games: opt.GamesOpt = 2_000,
        seed: opt.SeedOpt = 0,
        workers: opt.WorkersOpt = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        html: out.HtmlOpt = None,
        force: out.HtmlForceOpt = False,
        fmt: opt.FormatOpt = opt.Format.TEXT,
        allow_illegal: opt.AllowIllegalOpt = False,
        rule: opt.RuleOpt = None,
        quiet: opt.QuietOpt = False,
    ) -> None:
        """Compare decks (or a deck under two policies or editions) on the same games: the
        difference in win rate with a 95% interval from the paired outcomes."""
        base = run_options(ctx)
        if html is not None:
            write.check_output(html, force=force)
        arms = build_arms(decks, base, policy_b, edition_b)
        refuse_illegal(
            *(arm.game.report for arm in arms),
            allow=allow_illegal,
            refusal="refusing to compare; pass --allow-illegal to compare anyway",
        )
        with Steps("compare", len(arms), quiet=quiet) as steps:
            doc = compare_arms(arms, base, step=steps.step)
        doc["command"] = out.command_line(
            "compare",
            decks,
            {
                "--policy-b": policy_b,
                "--edition-b": edition_b,
                "--games": games,
                "--seed": seed,
                "--policy": policy,
                "--edition": edition,
                "--variant": variant,
                "--layout": layout,
                "--turn-cap": turn_cap,
            },
            list(rule or ()),
        )
        if fmt is Format.JSON:
            emit(doc)
        else:
            out.print_comparison(doc)
        if html is not None:
            out.write_page(doc, html, force=force)
            if not quiet:
                echo(f"report: {html}", err=fmt is Format.JSON)
