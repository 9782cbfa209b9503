"""The HTML report of a deck's run: one self-contained page and its JSON sidecar.

:func:`write_report` plays the games as :func:`deckkit.api.simulation.simulate` does (same options,
same numbers for the same seed), optionally measures card impact and rule sensitivity, and
writes the page; :func:`write_report_from_saved` draws a run saved with its per-game rows (a
``.parquet`` file from ``deckkit simulate --out``) without playing a game. An illegal deck gets
a page that opens with its violations, and exit code 1 unless ``allow_illegal``.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

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
from deckkit.analysis.runner import ProgressFn
from deckkit.analysis.summary import card_catalog, summarize
from deckkit.api.deckinput import is_stdin
from deckkit.api.display import ReportResult
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.options import RunOptions, options_of
from deckkit.api.simulation import Notify, _silent, not_simulated_cards, play, run_metadata
from deckkit.api.simulation import write_rows as write_run_rows
from deckkit.api.solitaire import SolitaireGame, illegal_explanation, prepare
from deckkit.errors import EXIT_ILLEGAL, MAX_REPORT_ROW_BYTES, TooLarge, UsageError
from deckkit.games import deck_checks, deck_stats, deck_swaps, engine_runs
from deckkit.report import model, write
from deckkit.report.chart_process import ChartProcess

if TYPE_CHECKING:  # polars is imported where frames are read or built
    import polars as pl

DEFAULT_POLICY = "heuristic"
# A context around the playing of a run's games, given their number, yielding a games-played
# callback for the runner (the command's progress bar) or None.
ProgressBar = Callable[[int], AbstractContextManager[ProgressFn | None]]


def default_page(deck_path: str | Path, policy: str, edition: str) -> Path:
    """``reports/<deck>[-<policy>][-<edition>].report.html``: the policy and edition are named
    when they are not the defaults, so that a run with another player or other rules never
    replaces the page of the usual one (``reports/`` is created when missing)."""
    tags = [policy] if policy != DEFAULT_POLICY else []
    if edition != deck_checks().default_edition:
        tags.append(edition)
    write.REPORTS_DIR.mkdir(exist_ok=True)
    return write.default_path("stdin" if is_stdin(deck_path) else deck_path, "-".join(tags))


def produce(
    doc: dict[str, object],
    out: Path,
    *,
    force: bool,
    drawer: ChartProcess | None = None,
    notify: Notify = _silent,
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
        notify("warning: the chart renderer stopped; the page is written without its charts")
    page = render.render(doc, svgs)
    return write.write_report(page, doc, out, force=force)


REPORT_FIXED_BYTES = 32  # index, turns (8 each), outcome, end reason, the item counts (4 each)


def _check_report_size(rows: pl.LazyFrame, games: int, path: Path) -> None:
    """Refuse (exit 8) a saved run whose report columns would not fit MAX_REPORT_ROW_BYTES,
    before any of its rows is read."""
    stats = model.active_counters()
    shown = sum(1 for _, stat in counter_columns(rows).values() if str(stat) in stats)
    need = games * (REPORT_FIXED_BYTES + shown)
    if need > MAX_REPORT_ROW_BYTES:
        most = MAX_REPORT_ROW_BYTES // (REPORT_FIXED_BYTES + shown)
        raise TooLarge(
            f"this run is too large for a report: {games:,} games with {shown:,} card counters "
            f"would need {need / 2**20:,.0f} MB of rows, the limit is "
            f"{MAX_REPORT_ROW_BYTES / 2**20:,.0f} MB (about {most:,} games of it)",
            path=path,
            hint="draw the report of a shorter run (`deckkit simulate DECK --games N --out "
            "FILE.parquet`), or read this one's totals with `deckkit report DECK` at fewer games",
        )


def rows_for_report(rows: pl.LazyFrame) -> pl.DataFrame:
    """The columns of the per-game rows a report's distributions and observational view read,
    each as narrow as it can be (a counter only as "was it non-zero"): a few bytes a game, so a
    run of millions of games is drawn in bounded memory. Read from disk column by column."""
    import polars as pl

    stats = model.active_counters()
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
    ).collect(engine="streaming")


@dataclass(frozen=True)
class ImpactRequest:
    """Card impact to compute for the report (see :func:`deckkit.api.card_impact.impact`)."""

    games: int  # most paired games per card
    cards: Sequence[str] = ()  # named cards (all measured), or none: every card, within budget
    target_error: float | None = 0.03
    budget: int | None = None  # games of the changed decks for all cards; None: no limit

    def __post_init__(self) -> None:
        """Checked when made, as the command line checks --impact-*: a request that cannot be
        served fails before any game is played, not after the report's own games."""
        from deckkit.api.card_impact import check_target_error

        if isinstance(self.games, bool) or not isinstance(self.games, int) or self.games < 1:
            raise UsageError(
                f"impact games must be a whole number of at least 1, not {self.games!r}"
            )
        if isinstance(self.cards, str):
            raise UsageError("impact cards must be a list of card names, not one string")
        check_target_error(self.target_error, "target_error")
        if self.budget is not None and (
            isinstance(self.budget, bool) or not isinstance(self.budget, int) or self.budget < 0
        ):
            raise UsageError(
                f"impact budget must be a whole number of at least 0, not {self.budget!r}"
            )


def _impact(
    game: SolitaireGame,
    options: RunOptions,
    request: ImpactRequest,
    hooks: EngineHooks,
    observed: list[dict[str, Any]],
) -> dict[str, Any]:
    from deckkit.analysis.impact import impact_document
    from deckkit.api.card_impact import cards_to_measure, measure
    from deckkit.report.impact_order import by_clearest_signal

    cards = cards_to_measure(game.deck, request.cards)
    budget = None if request.cards else request.budget
    if budget is not None:
        cards = by_clearest_signal(cards, observed)
    impacts, _ = measure(
        game,
        options.but(games=request.games),
        cards,
        replacement=None,
        remove=False,
        target_error=request.target_error,
        hooks=hooks,
        budget=budget,
    )
    doc = impact_document(
        impacts,
        request.games,
        request.target_error,
        cards_in_deck=len(cards_to_measure(game.deck, ())),
        stand_ins=deck_swaps().stand_ins_per_card,
    )
    measured = {i.card.id for i in impacts}
    doc["budget"] = budget
    doc["not_measured"] = sorted({c.name for c in cards if c.id not in measured}, key=str.casefold)
    return doc


def _deck_stats(deck: Any, edition: Any, seed: int) -> dict[str, Any]:
    """The deck's draw chances and sample hands under the run's edition (the game's own)."""
    return deck_stats().under(deck, edition, seed=seed)


def _traces(
    rows: pl.DataFrame | None, game: SolitaireGame, options: RunOptions
) -> dict[str, str] | None:
    if rows is None:
        return None
    return engine_runs().typical_traces(
        model.typical_games(rows),
        game.deck,
        game.edition,
        layout=game.layout,
        turn_cap=options.turn_cap,
        policy=options.policy,
        seed=options.seed,
    )


def report_of(
    game: SolitaireGame,
    options: RunOptions,
    out: Path | None = None,
    *,
    results: Path | None = None,
    impact: ImpactRequest | None = None,
    sensitivity_games: int | None = None,
    allow_illegal: bool = False,
    force: bool = False,
    hooks: EngineHooks = ENGINE,
    notify: Notify = _silent,
    progress: ProgressBar | None = None,
) -> ReportResult:
    """The report of a prepared deck read from a file (see :func:`write_report`); ``progress``
    wraps the playing of the games (the command's bar)."""
    assert game.source is not None, "a report records its deck file"
    if results is not None:
        check_destination(results, force=force)
    target = out or default_page(game.source, options.policy, game.edition.name)
    write.check_output(target, force=force or out is None)
    legal = game.report.legal
    if not legal:
        for line in illegal_explanation(game.report):
            notify(line)
    if not legal and not allow_illegal:
        inp = model.ReportInput(
            metadata=run_metadata(game, options, interrupted=False),
            legality=game.report,
            not_simulated=not_simulated_cards(game.deck),
            summary=None,
            rows=None,
            deck_stats=_deck_stats(game.deck, game.edition, options.seed),
        )
        code = EXIT_ILLEGAL
        notify("not simulated: the deck is not legal (pass --allow-illegal)")
    else:
        # The rows go to disk beside the output as the games finish: memory stays flat.
        with RowSpool(results or target) as spool:
            with progress(options.games) if progress is not None else nullcontext() as games:
                run = play(
                    game, options, hooks=hooks, keep_rows=False, rows=spool, notify=notify,
                    progress=games,
                )  # fmt: skip
            if results is not None and not write_run_rows(run, spool, results, force=force):
                notify(
                    f"interrupted: {results} left as it was; the finished games' rows were "
                    "not written"
                )
            code = stopping.exit_code() if run.result.interrupted else 0
            if run.result.interrupted and (target.exists() or target.is_symlink()):
                # A partial run never replaces a page (as simulate never replaces --out), so
                # nothing more is measured for one.
                notify(f"interrupted: {target} left as it was; no page for the partial run")
                return ReportResult(target, None, results, code)
            rows = rows_for_report(spool.frame())
            assert run.metadata is not None
            if run.result.interrupted and (impact is not None or sensitivity_games is not None):
                # A stop asks for the page of what was played, now: the card impact and
                # sensitivity games (tens of seconds) are not started for a partial run.
                notify("interrupted: card impact and rule sensitivity not measured")
                impact, sensitivity_games = None, None
            inp = model.ReportInput(
                metadata=run.metadata,
                legality=game.report,
                not_simulated=not_simulated_cards(game.deck),
                summary=run.summary,
                rows=rows,
                impact=(
                    _impact(game, options, impact, hooks, model.observational(rows, run.summary))
                    if impact is not None
                    else None
                ),
                typical_traces=_traces(rows, game, options) if hooks is ENGINE else None,
                deck_stats=_deck_stats(game.deck, game.edition, options.seed),
                sensitivity=(
                    _sensitivity(game, options.but(games=sensitivity_games), hooks)
                    if sensitivity_games is not None
                    else None
                ),
            )
    _say_replaced(target, out, notify)
    doc = model.build(inp)
    sidecar = produce(doc, target, force=force or out is None, notify=notify)
    return ReportResult(target, sidecar, results, code, doc)


def _sensitivity(game: SolitaireGame, options: RunOptions, hooks: EngineHooks) -> dict[str, Any]:
    from deckkit.api.readings import sensitivity_of

    return sensitivity_of(game, options, hooks)


def write_report(
    deck: str | Path,
    options: RunOptions | None = None,
    out: str | Path | None = None,
    *,
    results: str | Path | None = None,
    impact: ImpactRequest | None = None,
    sensitivity_games: int | None = None,
    allow_illegal: bool = False,
    force: bool = False,
    notify: Notify = _silent,
    **changes: Any,
) -> ReportResult:
    """Play ``deck`` (a deck file) and write its HTML report to ``out`` (default
    ``reports/<deck>.report.html``) with a JSON sidecar beside it: legality, win rate with 95%
    intervals, distributions, per-card tables, the typical won and lost games, and, when asked,
    card impact (``impact``) and rule sensitivity (``sensitivity_games`` paired games per
    reading). ``results`` also saves the per-game rows as Parquet for
    :func:`write_report_from_saved`. An illegal deck gets a page that says why, and exit code 1 in
    the result unless ``allow_illegal``. Nothing a user owns is replaced without ``force``."""
    opts = options_of(options, changes)
    game = prepare(deck, opts, command="report")
    return report_of(
        game,
        opts,
        Path(out) if out is not None else None,
        results=Path(results) if results is not None else None,
        impact=impact,
        sensitivity_games=sensitivity_games,
        allow_illegal=allow_illegal,
        force=force,
        notify=notify,
    )


def _say_replaced(target: Path, out: Path | None, notify: Notify) -> None:
    """deckkit replaces its own default page of the same deck, policy and edition: it says so."""
    if out is None and target.exists():
        notify(f"replacing {target}, the earlier report of this deck, policy and edition")


def write_report_from_saved(
    source: str | Path, out: str | Path | None = None, *, force: bool = False,
    notify: Notify = _silent,
) -> ReportResult:  # fmt: skip
    """The report of a run saved with its per-game rows (``deckkit simulate --out RUN.parquet``)
    without playing a game; it warns (through ``notify``) when today's card database is not the
    one the run was played with. A party's or team's saved rows (``simulate --vs --out``) get
    their game's page (:func:`deckkit.api.match_report.write_match_report_from_saved`)."""
    from deckkit.analysis.saved_matches import is_saved_match

    if is_saved_match(Path(source)):
        from deckkit.api.match_report import write_match_report_from_saved

        return write_match_report_from_saved(source, out, force=force, notify=notify)
    target_out = Path(out) if out is not None else None
    # The chart renderer starts first, in its own process, so its start-up overlaps the rest.
    with ChartProcess() as drawer:
        run = open_results(Path(source), before_values=_check_report_size)
        meta = run.metadata
        target = target_out or default_page(meta.deck_path, meta.policy, meta.edition)
        write.check_output(target, force=force or target_out is None)
        _warn_if_cards_changed(meta, notify)
        inp = _input_of_saved_run(run, Path(source))
        _say_replaced(target, target_out, notify)
        doc = model.build(inp)
        sidecar = produce(
            doc, target, force=force or target_out is None, drawer=drawer, notify=notify
        )
    return ReportResult(target, sidecar, None, 0, doc)


def _warn_if_cards_changed(meta: RunMetadata, notify: Notify) -> None:
    """A saved run's numbers are those of the cards it was played with; say so when today's
    card database is another (legality and card names on the page are today's)."""
    if meta.card_db_sha256 is None:
        notify(
            "note: this run does not record its card database; the page checks the deck "
            "against today's cards"
        )
    elif meta.card_db_sha256 != card_db_hash():
        notify(
            "warning: the card database changed since this run was played; its numbers are "
            "those of the old cards, legality and card names those of today's "
            f"(play it again: {meta.command()})"
        )


def _input_of_saved_run(run: SavedRun, source: Path) -> model.ReportInput:
    meta = run.metadata
    deck, legality, edition = deck_checks().saved_deck(
        meta.deck_text,
        Path(meta.deck_path),
        edition=meta.edition,
        variant=meta.variant,
        players=meta.players,
        rules=meta.rules,
        source=source,
    )
    rows = rows_for_report(run.rows)
    summary = summarize(tally_of_frame(run.rows), card_catalog(deck))
    return model.ReportInput(
        metadata=meta,
        legality=legality,
        not_simulated=not_simulated_cards(deck),
        summary=summary,
        rows=rows,
        typical_traces=engine_runs().typical_traces(
            model.typical_games(rows),
            deck,
            edition,
            layout=meta.layout,
            turn_cap=meta.turn_cap,
            policy=meta.policy,
            seed=meta.seed,
        ),
        deck_stats=_deck_stats(deck, edition, meta.seed),
    )
