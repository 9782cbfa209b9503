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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from deckkit import __version__, stopping
from deckkit.analysis import engine as real_engine
from deckkit.analysis.output import check_destination, write_frame
from deckkit.analysis.results import METADATA_KEY, RunMetadata, card_db_hash, deck_hash
from deckkit.analysis.rowspool import RowSpool
from deckkit.analysis.runner import GameFactory, ProgressFn, RunResult, capped_workers, run_games
from deckkit.analysis.summary import (
    CI_METHOD_LABEL,
    STATS_BY_TYPE,
    CardSummary,
    Rate,
    Summary,
    card_catalog,
    summarize,
)
from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.legality import LegalityReport
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stderr_console, stdout_console
from deckkit.cli.deckinput import deck_bytes
from deckkit.cli.jsonout import emit
from deckkit.cli.solitaire import SolitaireGame, explain_illegal, resolve
from deckkit.errors import EXIT_ILLEGAL, CannotWrite, UsageError

OutputFormat = opt.Format


@dataclass(frozen=True)
class EngineHooks:
    """What the command needs from the game engine."""

    policies: Callable[[], tuple[str, ...]]
    layouts: tuple[str, ...]
    factory: Callable[[Deck, Edition, str, int, str], GameFactory]  # deck, edition, layout,
    # turn cap, policy -> a picklable factory for run_games
    not_simulated: Callable[[Deck], list[str]]


def _real_factory(
    deck: Deck, edition: Edition, layout: str, turn_cap: int, policy: str
) -> GameFactory:
    return real_engine.EngineGames(
        deck, edition, real_engine.game_options(layout, turn_cap), policy
    )


ENGINE = EngineHooks(
    policies=real_engine.policies,
    layouts=real_engine.LAYOUTS,
    factory=_real_factory,
    not_simulated=real_engine.not_simulated,
)


@dataclass(frozen=True)
class SimulateArgs:
    """The command line, as given (``None`` = not given: fall back to the deck header)."""

    deck: Path
    games: int = 10_000
    seed: int = 0
    workers: int = 1
    policy: str = "heuristic"
    edition: str | None = None
    players: int | None = None
    variant: str | None = None
    layout: str | None = None
    turn_cap: int = 150
    out: Path | None = None
    force: bool = False
    fmt: OutputFormat = OutputFormat.TEXT
    quiet: bool = False
    allow_illegal: bool = False
    verbose: bool = False
    rules: tuple[str, ...] = ()  # --rule NAME=VALUE, as given


def _check_numbers(args: SimulateArgs) -> None:
    if args.games < 1:
        raise UsageError(f"--games must be at least 1, not {args.games}")
    if args.workers < 0:
        raise UsageError(f"--workers must be at least 1 (or 0 for all cores), not {args.workers}")
    if args.seed < 0:
        raise UsageError(f"--seed must be 0 or more, not {args.seed}")
    if args.turn_cap < 1:
        raise UsageError(f"--turn-cap must be at least 1, not {args.turn_cap}")


def _stderr_is_tty() -> bool:
    """Whether a person is watching stderr (a bar in a log file or a pipe is noise)."""
    return sys.stderr.isatty()


@contextmanager
def _progress(total: int, enabled: bool) -> Iterator[ProgressFn | None]:
    """A progress bar on stderr, or nothing (when stderr is not a terminal, or --quiet)."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("playing games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr_console(force_terminal=True),  # the caller checked it is one
        transient=True,
    )
    with bar:
        task = bar.add_task("games", total=total)
        yield lambda done: bar.update(task, completed=done)


def _err(message: str) -> None:
    """A plain line on stderr (not wrapped: people grep these)."""
    echo(message, err=True)


def check_args(args: SimulateArgs, hooks: EngineHooks) -> None:
    """Numbers in range and a known policy, before anything is read or played."""
    _check_numbers(args)
    name = args.policy.partition(":")[0]  # "search:N": the search player with N rollouts
    if name not in hooks.policies() or (
        name != args.policy and not real_engine.known_policy(args.policy)
    ):
        raise UsageError(
            f"unknown policy {args.policy!r}", hint=f"choose one of: {', '.join(hooks.policies())}"
        )


def resolve_game(args: SimulateArgs, hooks: EngineHooks, command: str) -> SolitaireGame:
    """Read the deck and settle what to play (the legality verdict is in the result; each
    command decides what an illegal deck means)."""
    return resolve(
        args.deck,
        edition=args.edition,
        variant=args.variant,
        layout=args.layout,
        players=args.players,
        layouts=hooks.layouts,
        command=command,
        rules=args.rules,
    )


@dataclass(frozen=True)
class PlayedRun:
    """A finished run with what every command reports around it."""

    game: SolitaireGame
    result: RunResult
    summary: Summary
    not_simulated: list[str]
    metadata: RunMetadata


def run_metadata(args: SimulateArgs, game: SolitaireGame, *, interrupted: bool) -> RunMetadata:
    """How this run was played, for the per-game file and reports."""
    try:
        text = deck_bytes(args.deck).decode("utf-8")
    except (OSError, UnicodeDecodeError) as err:  # read once already: changed meanwhile
        raise UsageError(f"cannot read the deck file again: {err}", path=args.deck) from err
    return RunMetadata(
        deckkit_version=__version__,
        seed=args.seed,
        policy=args.policy,
        edition=game.edition.name,
        variant=game.variant,
        layout=game.layout,
        players=game.players,
        turn_cap=args.turn_cap,
        games_requested=args.games,
        interrupted=interrupted,
        deck_name=game.deck.name,
        deck_path=str(args.deck),
        deck_sha256=deck_hash(text),
        deck_text=text,
        rules=dict(game.rules),
        card_db_sha256=card_db_hash(),
    )


def play_run(
    args: SimulateArgs, game: SolitaireGame, hooks: EngineHooks, *, rows: RowSpool | None = None
) -> PlayedRun:
    """Play the games (with a progress bar on a terminal) and summarize them; each game's row
    goes to ``rows`` (on disk) as its chunk finishes, when given."""
    workers = capped_workers(args.workers)
    if args.workers > workers:
        _err(f"--workers {args.workers} capped to {workers}, the cores available")
    factory = hooks.factory(game.deck, game.edition, game.layout, args.turn_cap, args.policy)
    not_simulated = sorted(set(hooks.not_simulated(game.deck)), key=str.casefold)
    show_bar = not args.quiet and _stderr_is_tty()
    with _progress(args.games, show_bar) as progress:
        result = run_games(
            factory,
            games=args.games,
            seed=args.seed,
            workers=workers,
            row_sink=rows,
            progress=progress,
        )
    summary = summarize(result.tally, card_catalog(game.deck))
    metadata = run_metadata(args, game, interrupted=result.interrupted)
    return PlayedRun(game, result, summary, not_simulated, metadata)


def write_rows(run: PlayedRun, rows: RowSpool, path: Path, *, force: bool) -> None:
    """The per-game rows, streamed from the spool, with the run's metadata when the file is
    Parquet. An interrupted run's rows are partial: they never replace a file the user has."""
    if run.result.interrupted and (path.exists() or path.is_symlink()):
        _err(f"interrupted: {path} left as it was; the finished games' rows were not written")
        return
    try:
        write_frame(
            rows.frame(),
            path,
            force=force,
            metadata={METADATA_KEY: run.metadata.to_json()},
        )
    except CannotWrite as err:  # disk full, a size limit: the file is left as it was
        raise CannotWrite(
            f"cannot write --out: {err.message.removeprefix('cannot write: ')}; "
            "nothing was written",
            path=path,
        ) from None


def simulate(args: SimulateArgs, hooks: EngineHooks | None = None) -> int:
    """Run the command; returns the exit code (errors are raised as DeckkitError)."""
    hooks = hooks or ENGINE
    check_args(args, hooks)
    if args.out is not None:
        check_destination(args.out, force=args.force)
    game = resolve_game(args, hooks, "simulate")
    deck, edition, report = game.deck, game.edition, game.report
    variant, layout, players = game.variant, game.layout, game.players
    if not report.legal:
        explain_illegal(report)
        if not args.allow_illegal:
            if args.fmt is OutputFormat.JSON:
                emit({"error": "illegal deck", "legality": report.as_dict()})
            _err("refusing to simulate; pass --allow-illegal to simulate anyway")
            return EXIT_ILLEGAL
        _err("simulating anyway (--allow-illegal)")

    if args.out is None:
        run = play_run(args, game, hooks)
    else:
        with RowSpool(args.out) as rows:
            run = play_run(args, game, hooks, rows=rows)
            write_rows(run, rows, args.out, force=args.force)
    result, summary, not_simulated = run.result, run.summary, run.not_simulated

    meta = {
        "deck": deck.name,
        "seed": args.seed,
        "policy": args.policy,
        "edition": edition.name,
        "variant": variant,
        "players": players,
        "layout": layout,
        "turn_cap": args.turn_cap,
        "rules": dict(game.rules),
        "legal": report.legal,
    }
    if args.fmt is OutputFormat.JSON:
        doc = to_json(summary, result, meta, not_simulated, report)
        doc["not_simulated"] = not_simulated_cards(deck)
        emit(doc)
    else:
        _print_text(summary, result, meta, not_simulated, args.out)
        if args.verbose:
            for card in not_simulated_cards(deck):
                echo(f"  {card['id']}  {card['name']} ({card['coverage']}): {card['note']}")
    if not args.quiet:  # timing varies from run to run: never on stdout
        speed = result.games_per_second
        rate = f", {speed:,.0f} games/s" if speed is not None else ""
        _err(f"elapsed {result.seconds:.2f} s{rate}, {result.workers} worker(s)")
    if result.interrupted:
        _err(
            f"interrupted: reported the {result.tally.games:,} of {args.games:,} games "
            "that finished"
        )
        return stopping.exit_code()
    return 0


def not_simulated_cards(deck: Deck) -> list[dict[str, str]]:
    """The deck's cards whose text is not played in full, by id, with name, coverage and note."""
    seen: dict[str, dict[str, str]] = {}
    for card in deck.cards():
        if card.coverage.value != "full" and card.id not in seen:
            seen[card.id] = {
                "id": card.id,
                "name": card.name,
                "coverage": card.coverage.value,
                "note": card.coverage_note,
            }
    return sorted(seen.values(), key=lambda c: c["name"].casefold())


def to_json(
    summary: Summary,
    result: RunResult,
    meta: dict[str, Any],
    not_simulated: list[str],
    report: LegalityReport,
) -> dict[str, Any]:
    """The stable JSON document. Everything in it depends only on the deck, the
    options and the seed, never on ``--workers``."""
    stats = summary.as_dict()
    doc: dict[str, Any] = {
        "games": stats.pop("games"),
        "games_requested": result.games_requested,
        **meta,
        **stats,
        "not_simulated": not_simulated,
        "violations": [
            {"rule": v.rule, "message": v.message, "fix": v.fix} for v in report.violations
        ],
        "interrupted": result.interrupted,
    }
    return doc


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


def _print_text(
    summary: Summary,
    result: RunResult,
    meta: dict[str, Any],
    not_simulated: list[str],
    out: Path | None,
) -> None:
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
    if out is not None:
        say(f"per-game rows: {out}", markup=False)


def _ci(rate: Rate) -> str:
    if rate.ci is None:
        return "-"
    return f"{_pct(rate.ci[0])} - {_pct(rate.ci[1])}"


# The options of a run, shared by every command that plays games (report, compare, impact);
# declared once in :mod:`deckkit.cli.options`.
GamesOption = opt.GamesOpt
SeedOption = opt.SeedOpt
WorkersOption = opt.WorkersOpt
PolicyOption = opt.PolicyOpt
EditionOption = opt.EditionOpt
PlayersOption = opt.PlayersOpt
VariantOption = opt.VariantOpt
LayoutOption = opt.LayoutOpt
TurnCapOption = opt.TurnCapOpt
QuietOption = opt.QuietOpt
AllowIllegalOption = opt.AllowIllegalOpt
RuleOption = opt.RuleOpt


def register(app: typer.Typer) -> None:
    """Add `simulate` to the top-level command."""

    @app.command("simulate")
    def simulate_command(
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
        code = simulate(
            SimulateArgs(
                deck=deck,
                games=games,
                seed=seed,
                workers=workers,
                policy=f"search:{rollouts}" if rollouts is not None else policy,
                edition=edition,
                players=players,
                variant=variant,
                layout=layout,
                turn_cap=turn_cap,
                out=out,
                force=force,
                fmt=fmt,
                quiet=quiet,
                allow_illegal=allow_illegal,
                verbose=verbose,
                rules=tuple(rule or ()),
            )
        )
        if code:
            raise typer.Exit(code)
