"""`deckkit report`: one self-contained HTML page (and a JSON sidecar) for a deck's run.

``deckkit report DECK`` plays the games as `deckkit simulate` does (same options, same numbers
for the same seed); ``deckkit report --from RUN.parquet`` draws a run saved by
``deckkit simulate --out`` (or ``report --results``) without playing a game. An illegal deck
gets a report that opens with its violations, and exit code 1 unless ``--allow-illegal``.
"""

from __future__ import annotations

import contextlib
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer

from deckkit import stopping
from deckkit.analysis.output import check_destination
from deckkit.analysis.results import (
    RunMetadata,
    SavedRun,
    card_db_hash,
    counter_columns,
    open_results,
    tally_of_frame,
)
from deckkit.analysis.rowspool import RowSpool
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import parse_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.construction.legality import check_deck
from deckkit.cli import options as opt
from deckkit.cli import simulate_cmd as sim
from deckkit.cli.console import echo
from deckkit.cli.solitaire import SolitaireGame, explain_illegal
from deckkit.errors import EXIT_ILLEGAL, UsageError
from deckkit.report import model, write
from deckkit.report.chart_process import ChartProcess

if TYPE_CHECKING:  # polars is imported where frames are read or built
    import polars as pl


def produce(
    doc: dict[str, object], out: Path, *, force: bool, drawer: ChartProcess | None = None
) -> Path:
    """Draw the charts, lay out the page, write both files; returns the sidecar path. The
    charts are drawn in a helper process (``drawer``, or one started here) while this one
    loads the page's templates; a renderer that crashes costs the charts, never the page."""
    from deckkit.report import charts, render  # vl-convert and jinja2 load only for a report

    with contextlib.ExitStack() as stack:
        if drawer is None:
            drawer = stack.enter_context(ChartProcess())
        drawer.send(charts.report_specs(doc))
        render.environment().get_template(render.REPORT_TEMPLATE)
        svgs = drawer.receive()
    if drawer.crashed:
        echo(
            "warning: the chart renderer stopped; the page is written without its charts", err=True
        )
    page = render.render(doc, svgs)
    return write.write_report(page, doc, out, force=force)


def rows_for_report(rows: pl.LazyFrame) -> pl.DataFrame:
    """The columns of the per-game rows a report's distributions and observational view read,
    each as narrow as it can be (a counter only as "was it non-zero"): a few bytes a game, so a
    run of millions of games is drawn in bounded memory. Read from disk column by column."""
    import polars as pl

    stats = {str(stat) for stat in model.ACTIVE_LABEL}
    active = [
        (pl.col(name) != 0).cast(pl.UInt8).alias(name)
        for name, (_, stat) in counter_columns(rows).items()
        if str(stat) in stats
    ]
    return rows.select(
        pl.col("outcome").cast(pl.Categorical),
        pl.col("turns"),
        pl.col("items_retrieved").cast(pl.Int32),
        pl.col("items_lost").cast(pl.Int32),
        *active,
    ).collect()


@dataclass(frozen=True)
class ImpactRequest:
    """Card impact to compute for the report (see `deckkit impact`)."""

    games: int
    cards: list[str]
    target_error: float | None


def _impact(
    game: SolitaireGame, args: sim.SimulateArgs, request: ImpactRequest, hooks: sim.EngineHooks
) -> dict[str, Any]:
    from deckkit.analysis.impact import impact_document
    from deckkit.cli import impact_cmd

    cards = impact_cmd.cards_to_measure(game.deck, request.cards)
    impacts, _ = impact_cmd.measure(
        game,
        replace(args, games=request.games),
        cards,
        replacement=None,
        remove=False,
        target_error=request.target_error,
        hooks=hooks,
    )
    return impact_document(impacts, request.games, request.target_error)


def report_from_deck(
    args: sim.SimulateArgs,
    out: Path | None,
    results: Path | None,
    hooks: sim.EngineHooks,
    impact: ImpactRequest | None = None,
    *,
    announce_on_stderr: bool = False,
) -> int:
    sim.check_args(args, hooks)
    target = out or write.default_target(args.deck)
    write.check_output(target, force=args.force or out is None)
    if results is not None:
        check_destination(results, force=args.force)
    game = sim.resolve_game(args, hooks, "report")
    legal = game.report.legal
    if not legal:
        explain_illegal(game.report)
    if not legal and not args.allow_illegal:
        inp = model.ReportInput(
            metadata=sim.run_metadata(args, game, interrupted=False),
            legality=game.report,
            not_simulated=sim.not_simulated_cards(game.deck),
            summary=None,
            rows=None,
        )
        code = EXIT_ILLEGAL
        echo("not simulated: the deck is not legal (pass --allow-illegal)", err=True)
    else:
        # The rows go to disk beside the output as the games finish: memory stays flat.
        with RowSpool(results or target) as spool:
            run = sim.play_run(args, game, hooks, rows=spool)
            if results is not None:
                sim.write_rows(run, spool, results, force=args.force)
            inp = model.ReportInput(
                metadata=run.metadata,
                legality=game.report,
                not_simulated=sim.not_simulated_cards(game.deck),
                summary=run.summary,
                rows=rows_for_report(spool.frame()),
                impact=_impact(game, args, impact, hooks) if impact is not None else None,
            )
        code = stopping.exit_code() if run.result.interrupted else 0
        if run.result.interrupted and (target.exists() or target.is_symlink()):
            # A partial run never replaces a page (as simulate never replaces --out).
            echo(f"interrupted: {target} left as it was; no page for the partial run", err=True)
            return code
    sidecar = produce(model.build(inp), target, force=args.force or out is None)
    _announce(target, sidecar, results, err=announce_on_stderr)
    return code


def report_from_results(source: Path, out: Path | None, *, force: bool) -> int:
    # The chart renderer starts first, in its own process, so its start-up overlaps the rest.
    with ChartProcess() as drawer:
        run = open_results(source)
        target = out or write.default_target(run.metadata.deck_path)
        write.check_output(target, force=force or out is None)
        _warn_if_cards_changed(run.metadata)
        inp = _input_of_saved_run(run)
        sidecar = produce(model.build(inp), target, force=force or out is None, drawer=drawer)
    _announce(target, sidecar, None)
    return 0


def _warn_if_cards_changed(meta: RunMetadata) -> None:
    """A saved run's numbers are those of the cards it was played with; say so when today's
    card database is another (legality and card names on the page are today's)."""
    if meta.card_db_sha256 is None:
        echo(
            "note: this run does not record its card database; the page checks the deck "
            "against today's cards",
            err=True,
        )
    elif meta.card_db_sha256 != card_db_hash():
        echo(
            "warning: the card database changed since this run was played; its numbers are "
            "those of the old cards, legality and card names those of today's "
            f"(play it again: {meta.command()})",
            err=True,
        )


def _input_of_saved_run(run: SavedRun) -> model.ReportInput:
    meta = run.metadata
    deck = parse_deck(meta.deck_text, load_card_db(), Path(meta.deck_path))
    legality = check_deck(deck, load_edition(meta.edition), meta.variant, meta.players)
    summary = summarize(tally_of_frame(run.rows), card_catalog(deck))
    return model.ReportInput(
        metadata=meta,
        legality=legality,
        not_simulated=sim.not_simulated_cards(deck),
        summary=summary,
        rows=rows_for_report(run.rows),
    )


def _announce(page: Path, sidecar: Path, results: Path | None, *, err: bool = False) -> None:
    echo(f"report: {page}", err=err)
    echo(f"numbers: {sidecar}", err=err)
    if results is not None:
        echo(f"per-game rows: {results}", err=err)


def register(app: typer.Typer) -> None:
    """Add `report` to the top-level command."""

    @app.command("report")
    def report_command(
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
            show_default="reports/<deck>.report.html",
            help="The page, FILE.html (its JSON sidecar FILE.json beside it).",
        ),
        results: Path | None = typer.Option(
            None, "--results", help="Also save the per-game rows, FILE.parquet, for --from."
        ),
        games: sim.GamesOption = opt.DEFAULT_GAMES,
        seed: sim.SeedOption = 0,
        workers: sim.WorkersOption = 1,
        policy: sim.PolicyOption = opt.Policy.HEURISTIC,
        edition: sim.EditionOption = None,
        players: sim.PlayersOption = None,
        variant: sim.VariantOption = None,
        layout: sim.LayoutOption = None,
        turn_cap: sim.TurnCapOption = opt.TURN_CAP,
        force: bool = typer.Option(
            False, "--force", help="Let -o and --results replace existing files."
        ),
        quiet: sim.QuietOption = False,
        allow_illegal: sim.AllowIllegalOption = False,
        impact: bool = typer.Option(
            False, "--impact", help="Also measure each card's impact (see `deckkit impact`)."
        ),
        impact_games: int = typer.Option(
            1_000, "--impact-games", help="Most paired games per card for --impact."
        ),
        impact_cards: list[str] = typer.Option(
            [], "--impact-card", help="Measure only this card for --impact (repeat)."
        ),
        impact_target_error: float | None = typer.Option(
            0.02, "--impact-target-error", help="Stop a card once its half-width is this."
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
            from deckkit.cli.impact_cmd import check_target_error

            if impact_games < 1:
                raise UsageError(f"--impact-games must be at least 1, not {impact_games}")
            check_target_error(impact_target_error, "--impact-target-error")
        if source is not None:
            code = report_from_results(source, output, force=force)
        else:
            assert deck is not None
            args = sim.SimulateArgs(
                deck=deck,
                games=games,
                seed=seed,
                workers=workers,
                policy=policy,
                edition=edition,
                players=players,
                variant=variant,
                layout=layout,
                turn_cap=turn_cap,
                force=force,
                quiet=quiet,
                allow_illegal=allow_illegal,
            )
            request = (
                ImpactRequest(impact_games, impact_cards, impact_target_error) if impact else None
            )
            code = report_from_deck(args, output, results, sim.ENGINE, request)
        if code:
            raise typer.Exit(code)
