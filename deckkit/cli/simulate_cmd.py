"""`deckkit simulate`: estimate how often a solitaire deck wins, with honest error bars.

The command checks its arguments and the deck's legality before playing anything (a refused
deck or a bad ``--out`` costs no simulation time), then runs the games through
:func:`deckkit.analysis.runner.run_games` and reports Wilson 95% intervals. Results go to stdout,
the progress bar and explanations to stderr. Exit codes (see :mod:`deckkit.errors`): 0 done,
1 illegal deck refused, 2 bad input, 130 interrupted (after reporting the games that finished).

The engine is reached through :data:`ENGINE`, a small set of hooks, so tests can run the whole
command against a fake engine.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table

from deckkit import stopping
from deckkit.analysis.output import check_destination
from deckkit.analysis.rowspool import RowSpool
from deckkit.analysis.summary import CI_METHOD_LABEL, CardSummary, Rate
from deckkit.animayhem.cardruns import STATS_BY_TYPE
from deckkit.animayhem.construction.cards import CardType
from deckkit.api.engine import ENGINE, EngineHooks
from deckkit.api.gap_text import run_sentence
from deckkit.api.options import RunOptions
from deckkit.api.simulation import SimulateResult, not_simulated_cards, play, write_rows
from deckkit.api.solitaire import check_options, prepare_with
from deckkit.cli import options as opt
from deckkit.cli.console import echo, explain_illegal, stdout_console
from deckkit.cli.jsonout import emit
from deckkit.cli.runsetup import run_options
from deckkit.cli.steps import games_bar
from deckkit.errors import EXIT_ILLEGAL, UsageError

OutputFormat = opt.Format
__all__ = ["ENGINE", "EngineHooks", "SimulateArgs", "simulate"]


@dataclass(frozen=True)
class SimulateArgs:
    """The command line, as given (``None`` = not given: fall back to the deck header)."""

    deck: Path
    options: RunOptions
    out: Path | None = None
    force: bool = False
    fmt: OutputFormat = OutputFormat.TEXT
    quiet: bool = False
    allow_illegal: bool = False
    verbose: bool = False


def _stderr_is_tty() -> bool:
    """Whether a person is watching stderr (a bar in a log file or a pipe is noise)."""
    return sys.stderr.isatty()


def _err(message: str) -> None:
    """A plain line on stderr (not wrapped: people grep these)."""
    echo(message, err=True)


def _play(
    args: SimulateArgs, game: Any, hooks: EngineHooks, rows: RowSpool | None
) -> SimulateResult:
    show_bar = not args.quiet and _stderr_is_tty()
    with games_bar(args.options.games, show_bar) as progress:
        return play(
            game, args.options, hooks=hooks, keep_rows=False, rows=rows, progress=progress,
            notify=_err,
        )  # fmt: skip


def simulate(args: SimulateArgs, hooks: EngineHooks | None = None) -> int:
    """Run the command; returns the exit code (errors are raised as DeckkitError)."""
    hooks = hooks or ENGINE
    options = args.options
    check_options(options, hooks)
    if args.out is not None:
        check_destination(args.out, force=args.force)
    game = prepare_with(hooks, args.deck, options, command="simulate")
    if not game.report.legal:
        explain_illegal(game.report)
        if not args.allow_illegal:
            if args.fmt is OutputFormat.JSON:
                emit({"error": "illegal deck", "legality": game.report.as_dict()})
            _err("refusing to simulate; pass --allow-illegal to simulate anyway")
            return EXIT_ILLEGAL
        _err("simulating anyway (--allow-illegal)")

    if args.out is None:
        run = _play(args, game, hooks, None)
    else:
        with RowSpool(args.out) as rows:
            run = _play(args, game, hooks, rows)
            if not write_rows(run, rows, args.out, force=args.force):
                _err(
                    f"interrupted: {args.out} left as it was; the finished games' rows were "
                    "not written"
                )
    result = run.result
    if args.fmt is OutputFormat.JSON:
        emit(run.as_dict())
    else:
        _print_text(run, args.out)
        if args.verbose:
            for card in not_simulated_cards(game.deck):
                echo(f"  {card['id']}  {card['name']} ({card['coverage']}): {card['note']}")
    if not args.quiet:  # timing varies from run to run: never on stdout
        speed = result.games_per_second
        rate = f", {speed:,.0f} games/s" if speed is not None else ""
        _err(f"elapsed {result.seconds:.2f} s{rate}, {result.workers} worker(s)")
    if result.interrupted:
        _err(
            f"interrupted: reported the {result.tally.games:,} of {options.games:,} games "
            "that finished"
        )
        return stopping.exit_code()
    return 0


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.1f}%"


def _num(x: float | None, digits: int = 2) -> str:
    return "-" if x is None else f"{x:.{digits}f}"


_STAT_LABELS: dict[str, str] = {
    "met": "met",
    "defeated": "defeated",
    "items_carried_off": "items taken",
    "bonked": "chars bonked",
    "killed": "chars killed",
    "combats": "combats",
    "was_bonked": "times bonked",
    "was_killed": "killed",
    "items_retrieved": "items retrieved",
    "scavenge_attempts": "scavenges",
    "scavenge_successes": "successes",
}
_TYPE_TITLES: dict[CardType, str] = {
    CardType.CHARACTER: "Characters",
    CardType.LOCATION: "Locations",
    CardType.DISASTER: "Disasters",
}


def _card_table(title: str, cards: list[CardSummary], games: int) -> Table:
    stat_names: list[str] = []
    for c in cards:
        for s in c.totals:
            if s not in stat_names:
                stat_names.append(s)
    table = Table(title=f"{title} (per game)", title_justify="left", show_edge=False)
    table.add_column("card", no_wrap=True)
    for s in stat_names:
        table.add_column(_STAT_LABELS.get(s, s), justify="right")
    first = stat_names[0] if stat_names else None
    if first is not None:
        table.add_column(f"games with {_STAT_LABELS.get(first, first)}", justify="right")
    for c in cards:
        row = [c.key] + [_num(c.per_game.get(s)) for s in stat_names]
        if first is not None:
            row.append(_pct(c.games_with.get(first, 0) / games if games else None))
        table.add_row(*row)
    return table


def _print_text(run: SimulateResult, out: Path | None) -> None:
    summary, result, not_simulated = run.summary, run.result, run.not_simulated
    meta = run.as_dict()
    console = stdout_console(min_width=120)
    say = console.print
    say(
        f"{meta['deck']}: {meta['edition']} rules, {meta['variant']} variant, "
        f"{meta['layout']} layout, turn cap {meta['turn_cap']}",
        markup=False,
    )
    if meta.get("rules"):
        say("rules: " + ", ".join(f"{k}={v}" for k, v in meta["rules"].items()), markup=False)
    note = " (INTERRUPTED)" if result.interrupted else ""
    say(
        f"policy {meta['policy']}, seed {meta['seed']}, "
        f"{summary.games:,} of {result.games_requested:,} games{note}",
        markup=False,
    )
    if not meta["legal"]:
        say("warning: the deck is not legal; simulated with --allow-illegal", markup=False)
    say("")
    outcomes = Table(show_edge=False, title_justify="left")
    outcomes.add_column("outcome")
    outcomes.add_column("games", justify="right")
    outcomes.add_column("rate", justify="right")
    outcomes.add_column("95% CI", justify="right")
    for label, rate in (
        ("win", summary.wins),
        ("loss", summary.losses),
        ("stall", summary.stalls),
        ("undecided", summary.undecided),
    ):
        outcomes.add_row(label, f"{rate.count:,}", _pct(rate.rate), _ci(rate))
    say(outcomes)
    say(f"intervals: {CI_METHOD_LABEL}", markup=False)
    t = summary.turns
    turns = f"turns: mean {_num(t.mean, 1)}"
    if t.ci is not None:
        turns += f" (95% CI {t.ci[0]:.1f}-{t.ci[1]:.1f})"
    if t.std is not None:
        turns += f", sd {t.std:.1f}"
    if t.min is not None:
        turns += f", min {t.min}, max {t.max}"
    say(turns, markup=False)
    say(
        f"items per game: in play {_num(summary.mean_items_in_play)}, retrieved "
        f"{_num(summary.mean_items_retrieved)}, lost {_num(summary.mean_items_lost)}",
        markup=False,
    )
    if summary.end_reasons:
        reasons = ", ".join(f"{k} {v:,}" for k, v in summary.end_reasons.items())
        say(f"game ends: {reasons}", markup=False)
    for card_type in (CardType.CHARACTER, CardType.LOCATION, CardType.DISASTER):
        cards = [c for c in summary.cards if c.type == card_type.value]
        if cards:
            say("")
            say(_card_table(_TYPE_TITLES[card_type], cards, summary.games))
    others = [c for c in summary.cards if c.type not in {t.value for t in STATS_BY_TYPE}]
    if others:
        say("")
        say(_card_table("Other counters", others, summary.games))
    say("")
    if not_simulated:
        say(
            "not fully simulated (card text played approximately or not at all; see "
            f"`deckkit cards coverage --cards`): {', '.join(not_simulated)}",
            markup=False,
        )
    else:
        say("not fully simulated: none; every card's text is played in full", markup=False)
    gap = meta.get("player_gap")
    if gap is not None:
        say(run_sentence(gap), markup=False)
    if out is not None:
        say(f"per-game rows: {out}", markup=False)


def _ci(rate: Rate) -> str:
    if rate.ci is None:
        return "-"
    return f"{_pct(rate.ci[0])} - {_pct(rate.ci[1])}"


def register(app: typer.Typer) -> None:
    """Add `simulate` to the top-level command."""

    @app.command("simulate")
    def simulate_command(
        ctx: typer.Context,
        deck: opt.DeckArg,
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
        out: opt.OutOpt = None,
        force: opt.ForceOpt = False,
        fmt: opt.FormatOpt = opt.Format.TEXT,
        quiet: opt.QuietOpt = False,
        allow_illegal: opt.AllowIllegalOpt = False,
        rule: opt.RuleOpt = None,
        verbose: Annotated[
            bool,
            typer.Option(
                "--verbose", "-v", help="Also say how each card not played in full differs."
            ),
        ] = False,
        rollouts: Annotated[
            int | None,
            typer.Option(
                "--rollouts",
                min=1,
                show_default="8",
                help="The search player's sampled games per candidate of a choice.",
            ),
        ] = None,
    ) -> None:
        """Play many solitaire games of DECK and report win, loss and stall rates with 95%
        confidence intervals, and per-card statistics."""
        if rollouts is not None and policy != opt.Policy.SEARCH:
            raise UsageError("--rollouts is the search player's budget: add --policy search")
        if rollouts is not None:
            from deckkit.animayhem.engine.players import MAX_ROLLOUTS

            if rollouts > MAX_ROLLOUTS:
                raise UsageError(
                    f"--rollouts {rollouts} is more than a search player weighs "
                    f"({MAX_ROLLOUTS:,} at most)",
                    hint="each rollout is a whole game played out; 8 is the default",
                )
        code = simulate(
            SimulateArgs(
                deck=deck,
                options=run_options(
                    ctx, policy=f"search:{rollouts}" if rollouts is not None else policy
                ),
                out=out,
                force=force,
                fmt=fmt,
                quiet=quiet,
                allow_illegal=allow_illegal,
                verbose=verbose,
            )
        )
        if code:
            raise typer.Exit(code)
