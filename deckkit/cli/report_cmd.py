"""`deckkit report`: one self-contained HTML page (and a JSON sidecar) for a deck's run.

``deckkit report DECK`` plays the games as `deckkit simulate` does (same options, same numbers
for the same seed); ``deckkit report --from RUN.parquet`` draws a run saved by
``deckkit simulate --out`` (or ``report --results``) without playing a game. An illegal deck
gets a report that opens with its violations, and exit code 1 unless ``--allow-illegal``.
"""

from __future__ import annotations

import sys
from pathlib import Path

import typer

from deckkit.analysis.output import check_destination
from deckkit.api.card_impact import check_target_error
from deckkit.api.display import ReportResult
from deckkit.api.pages import ImpactRequest, report_of, write_report_from_saved
from deckkit.api.solitaire import check_options, prepare
from deckkit.cli import options as opt
from deckkit.cli.console import echo
from deckkit.cli.runsetup import run_options
from deckkit.cli.steps import games_bar
from deckkit.errors import UsageError


def _note(message: str) -> None:
    echo(message, err=True)


def _announce(done: ReportResult) -> None:
    echo(f"report: {done.page}")
    echo(f"numbers: {done.sidecar}")
    if done.results is not None:
        echo(f"per-game rows: {done.results}")


def register(app: typer.Typer) -> None:
    """Add `report` to the top-level command."""

    @app.command("report")
    def report_command(
        ctx: typer.Context,
        deck: Path | None = typer.Argument(
            None, metavar="[DECK]", help="The deck file to play (or use --from)."
        ),
        source: Path | None = typer.Option(
            None,
            "--from",
            help="Draw the report from a saved run (FILE.parquet from simulate --out) "
            "instead of playing games.",
        ),
        output: Path | None = typer.Option(
            None,
            "--out",
            "-o",
            "--output",
            metavar="FILE",
            show_default="reports/<deck>[-<policy>][-<edition>].report.html, naming the policy "
            "and edition when they are not the defaults",
            help="The page, FILE.html (its JSON sidecar FILE.json beside it).",
        ),
        results: Path | None = typer.Option(
            None, "--results", help="Also save the per-game rows, FILE.parquet, for --from."
        ),
        games: opt.GamesOpt = opt.DEFAULT_GAMES,
        seed: opt.SeedOpt = 0,
        workers: opt.WorkersOpt = 1,
        scheduler: opt.SchedulerOpt = None,
        policy: opt.PolicyOpt = opt.Policy.HEURISTIC,
        edition: opt.EditionOpt = None,
        players: opt.PlayersOpt = None,
        variant: opt.VariantOpt = None,
        layout: opt.LayoutOpt = None,
        turn_cap: opt.TurnCapOpt = opt.TURN_CAP,
        force: bool = typer.Option(
            False, "--force", help="Let -o and --results replace existing files."
        ),
        quiet: opt.QuietOpt = False,
        allow_illegal: opt.AllowIllegalOpt = False,
        rule: opt.RuleOpt = None,
        impact: bool = typer.Option(
            True,
            "--impact/--no-impact",
            help="Measure what each card is worth (see `deckkit impact`), the cards whose "
            "value the run shows most clearly first, within --impact-budget.",
        ),
        impact_games: int = typer.Option(
            500, "--impact-games", min=1, help="Most paired games per card."
        ),
        impact_cards: list[str] = typer.Option(
            [],
            "--impact-card",
            metavar="NAME",
            help="Measure this card (repeat); named cards are all measured, whatever the budget.",
        ),
        impact_target_error: float | None = typer.Option(
            0.03,
            "--impact-target-error",
            help="Stop a card once its 95% interval's half-width is at most this.",
        ),
        impact_budget: int | None = typer.Option(
            None,
            "--impact-budget",
            min=0,
            metavar="GAMES",
            show_default="as many as --games",
            help="Games of the changed decks for all cards together.",
        ),
        sensitivity: bool = typer.Option(
            False,
            "--sensitivity",
            help="Also measure how far each alternative rule reading moves the win rate "
            "(see `deckkit sensitivity`).",
        ),
        sensitivity_games: int = typer.Option(
            1_000, "--sensitivity-games", min=1, help="Paired games per reading for --sensitivity."
        ),
    ) -> None:
        """Write an HTML report of DECK: legality, win rate with 95% intervals, distributions,
        what beats it, per-card tables, and the cards not fully simulated."""
        if (deck is None) == (source is None):
            raise UsageError(
                "give either a DECK to play or --from RESULTS.parquet",
                hint="deckkit report decks/demo-solo.deck  or  deckkit report --from run.parquet",
            )
        if impact:  # the values `deckkit impact` refuses, refused here too
            if impact_games < 1:
                raise UsageError(f"--impact-games must be at least 1, not {impact_games}")
            check_target_error(impact_target_error, "--impact-target-error")
        if source is not None:
            done = write_report_from_saved(source, output, force=force, notify=_note)
            _announce(done)
            return
        assert deck is not None
        options = run_options(ctx)
        check_options(options)
        if results is not None:
            check_destination(results, force=force)
        game = prepare(deck, options, command="report")
        done = report_of(
            game,
            options,
            output,
            results=results,
            impact=ImpactRequest(
                impact_games,
                impact_cards,
                impact_target_error,
                games if impact_budget is None else impact_budget,
            )
            if impact
            else None,
            sensitivity_games=sensitivity_games if sensitivity else None,
            allow_illegal=allow_illegal,
            force=force,
            notify=_note,
            progress=lambda total: games_bar(total, not quiet and sys.stderr.isatty()),
        )
        if done.sidecar is not None:
            _announce(done)
        if done.exit_code:
            raise typer.Exit(done.exit_code)
