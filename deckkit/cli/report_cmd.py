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
from deckkit.animayhem.construction.readings import apply_rules
from deckkit.cli import options as opt
from deckkit.cli import sensitivity_cmd
from deckkit.cli import simulate_cmd as sim
from deckkit.cli.console import echo
from deckkit.cli.solitaire import SolitaireGame, explain_illegal
from deckkit.errors import EXIT_ILLEGAL, UsageError
from deckkit.report import model, write
from deckkit.report.chart_process import ChartProcess

if TYPE_CHECKING:  # polars is imported where frames are read or built
    import polars as pl

    from deckkit.animayhem.construction.deck import Deck
    from deckkit.animayhem.construction.editions import Edition


def default_page(deck_path: str | Path, policy: str, edition: str) -> Path:
    """``reports/<deck>[-<policy>][-<edition>].report.html``: the policy and edition are named
    when they are not the defaults, so that a run with another player or other rules never
    replaces the page of the usual one (``reports/`` is created when missing)."""
    from deckkit.animayhem.construction.editions import DEFAULT_EDITION
    from deckkit.cli.deckinput import is_stdin

    tags = [policy] if policy != opt.Policy.HEURISTIC.value else []
    if edition != DEFAULT_EDITION:
        tags.append(edition)
    write.REPORTS_DIR.mkdir(exist_ok=True)
    return write.default_path("stdin" if is_stdin(deck_path) else deck_path, "-".join(tags))


def _say_replaced(target: Path, out: Path | None) -> None:
    """deckkit replaces its own default page of the same deck, policy and edition: it says so."""
    if out is None and target.exists():
        echo(f"replacing {target}, the earlier report of this deck, policy and edition", err=True)


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
        pl.col("index"),
        pl.col("outcome").cast(pl.Categorical),
        pl.col("end_reason").cast(pl.Categorical),
        pl.col("turns"),
        pl.col("items_retrieved").cast(pl.Int32),
        pl.col("items_lost").cast(pl.Int32),
        *active,
    ).collect()


@dataclass(frozen=True)
class ImpactRequest:
    """Card impact to compute for the report (see `deckkit impact`)."""

    games: int  # most paired games per card
    cards: list[str]  # named cards (all measured), or none: every card, within the budget
    target_error: float | None
    budget: int | None = None  # games of the changed decks for all cards; None: no limit


def _impact(
    game: SolitaireGame,
    args: sim.SimulateArgs,
    request: ImpactRequest,
    hooks: sim.EngineHooks,
    observed: list[dict[str, Any]],
) -> dict[str, Any]:
    from deckkit.analysis.impact import impact_document
    from deckkit.cli import impact_cmd
    from deckkit.report.impact_order import by_clearest_signal

    cards = impact_cmd.cards_to_measure(game.deck, request.cards)
    budget = None if request.cards else request.budget
    if budget is not None:
        cards = by_clearest_signal(cards, observed)
    impacts, _ = impact_cmd.measure(
        game,
        replace(args, games=request.games),
        cards,
        replacement=None,
        remove=False,
        target_error=request.target_error,
        hooks=hooks,
        budget=budget,
    )
    doc = impact_document(impacts, request.games, request.target_error)
    measured = {i.card.id for i in impacts}
    doc["budget"] = budget
    doc["not_measured"] = sorted({c.name for c in cards if c.id not in measured}, key=str.casefold)
    return doc


def report_from_deck(
    args: sim.SimulateArgs,
    out: Path | None,
    results: Path | None,
    hooks: sim.EngineHooks,
    impact: ImpactRequest | None = None,
    *,
    announce_on_stderr: bool = False,
    sensitivity_games: int | None = None,
) -> int:
    sim.check_args(args, hooks)
    if results is not None:
        check_destination(results, force=args.force)
    game = sim.resolve_game(args, hooks, "report")
    target = out or default_page(args.deck, args.policy, game.edition.name)
    write.check_output(target, force=args.force or out is None)
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
            deck_stats=_deck_stats(game.deck, game.edition, args.seed),
        )
        code = EXIT_ILLEGAL
        echo("not simulated: the deck is not legal (pass --allow-illegal)", err=True)
    else:
        # The rows go to disk beside the output as the games finish: memory stays flat.
        with RowSpool(results or target) as spool:
            run = sim.play_run(args, game, hooks, rows=spool)
            if results is not None:
                sim.write_rows(run, spool, results, force=args.force)
            rows = rows_for_report(spool.frame())
            inp = model.ReportInput(
                metadata=run.metadata,
                legality=game.report,
                not_simulated=sim.not_simulated_cards(game.deck),
                summary=run.summary,
                rows=rows,
                impact=(
                    _impact(game, args, impact, hooks, model.observational(rows, run.summary))
                    if impact is not None
                    else None
                ),
                typical_traces=_traces(rows, game, args) if hooks is sim.ENGINE else None,
                deck_stats=_deck_stats(game.deck, game.edition, args.seed),
                sensitivity=(
                    sensitivity_cmd.measure(game, replace(args, games=sensitivity_games), hooks)
                    if sensitivity_games is not None
                    else None
                ),
            )
        code = stopping.exit_code() if run.result.interrupted else 0
        if run.result.interrupted and (target.exists() or target.is_symlink()):
            # A partial run never replaces a page (as simulate never replaces --out).
            echo(f"interrupted: {target} left as it was; no page for the partial run", err=True)
            return code
    _say_replaced(target, out)
    sidecar = produce(model.build(inp), target, force=args.force or out is None)
    _announce(target, sidecar, results, err=announce_on_stderr)
    return code


def _deck_stats(deck: Deck, edition: Edition, seed: int) -> dict[str, Any]:
    from deckkit.analysis.deckstats import deck_stats

    return deck_stats(deck, edition, seed=seed)


def _traces(
    rows: pl.DataFrame | None, game: SolitaireGame, args: sim.SimulateArgs
) -> dict[str, str] | None:
    from deckkit.report.traces import typical_traces

    if rows is None:
        return None
    return typical_traces(
        rows,
        game.deck,
        game.edition,
        layout=game.layout,
        turn_cap=args.turn_cap,
        policy=args.policy,
        seed=args.seed,
    )


def report_from_results(source: Path, out: Path | None, *, force: bool) -> int:
    # The chart renderer starts first, in its own process, so its start-up overlaps the rest.
    with ChartProcess() as drawer:
        run = open_results(source)
        meta = run.metadata
        target = out or default_page(meta.deck_path, meta.policy, meta.edition)
        write.check_output(target, force=force or out is None)
        _warn_if_cards_changed(meta)
        inp = _input_of_saved_run(run)
        _say_replaced(target, out)
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
    rows = rows_for_report(run.rows)
    summary = summarize(tally_of_frame(run.rows), card_catalog(deck))
    from deckkit.report.traces import typical_traces

    edition = apply_rules(load_edition(meta.edition), meta.rules)
    return model.ReportInput(
        metadata=meta,
        legality=legality,
        not_simulated=sim.not_simulated_cards(deck),
        summary=summary,
        rows=rows,
        typical_traces=typical_traces(
            rows,
            deck,
            edition,
            layout=meta.layout,
            turn_cap=meta.turn_cap,
            policy=meta.policy,
            seed=meta.seed,
        ),
        deck_stats=_deck_stats(deck, edition, meta.seed),
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
            show_default="reports/<deck>[-<policy>][-<edition>].report.html, naming the policy "
            "and edition when they are not the defaults",
            help="The page, FILE.html (its JSON sidecar FILE.json beside it).",
        ),
        results: Path | None = typer.Option(
            None, "--results", help="Also save the per-game rows, FILE.parquet, for --from."
        ),
        games: sim.GamesOption = opt.DEFAULT_GAMES,
        seed: sim.SeedOption = 0,
        workers: sim.WorkersOption = 1,
        scheduler: opt.SchedulerOpt = None,
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
        rule: sim.RuleOption = None,
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
                rules=tuple(rule or ()),
            )
            request = (
                ImpactRequest(
                    impact_games,
                    impact_cards,
                    impact_target_error,
                    games if impact_budget is None else impact_budget,
                )
                if impact
                else None
            )
            code = report_from_deck(
                args,
                output,
                results,
                sim.ENGINE,
                request,
                sensitivity_games=sensitivity_games if sensitivity else None,
            )
        if code:
            raise typer.Exit(code)
