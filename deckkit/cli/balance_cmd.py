"""`deckkit balance`: balance checks for CI, decided by sequential tests.

``baseline`` records, for every check of a balance file, the deck's win rate and a snapshot of
the deck and its cards; ``check`` plays each check until its sequential test decides (or the
budget runs out) and exits 0 when all pass, 1 when any fails, 3 when any is inconclusive and
none fails, 2 for bad input. Exit 3 here means "inconclusive" only: a broken card database,
which other commands report with 3, is bad input to a balance run (it names the database it
reads with ``--card-db`` or ``DECKKIT_CARD_DB``) and exits 2.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

import typer
from rich.table import Table

from deckkit.analysis.engine import LAYOUTS, EngineGames, check_policy, game_options
from deckkit.analysis.runner import GameFactory, capped_workers, run_games
from deckkit.analysis.summary import proportion
from deckkit.animayhem.construction.carddb import CARD_DB_ENV, CardDB, card_db_csv, load_card_db
from deckkit.animayhem.construction.deck import parse_deck
from deckkit.balance.baseline import baseline_record, read_baseline, write_baseline
from deckkit.balance.config import DEFAULT_FILE, BalanceFile, Check, load_balance_file
from deckkit.balance.junit import write_junit
from deckkit.balance.snapshot import changed_cards, take_snapshot, write_replay_db
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.exits import DeckkitTyper, help_when_bare
from deckkit.cli.jsonout import emit
from deckkit.cli.solitaire import SolitaireGame, explain_illegal, resolve
from deckkit.errors import CardDataError, DeckFileError, DeckkitError, UsageError
from deckkit.untrusted import read_text

if TYPE_CHECKING:  # numpy, which the sequential tests need, is imported when checks run
    from deckkit.balance.checks import CheckResult

EXIT_PASS = 0
EXIT_FAIL = 1
EXIT_INCONCLUSIVE = 3

balance_app = DeckkitTyper(
    name="balance",
    help="Balance checks for CI: win-rate bands and drift from a baseline, decided by "
    "sequential tests.",
    invoke_without_command=True,
)


@balance_app.callback()
def balance_main(ctx: typer.Context) -> None:
    """Balance checks for CI: win-rate bands and drift from a baseline, decided by sequential
    tests."""
    help_when_bare(ctx)


class OutputFormat(StrEnum):
    TEXT = "text"
    JSON = "json"


@contextmanager
def _bad_data_is_bad_input() -> Iterator[None]:
    """A card database that does not load exits 2 here, keeping 3 for "inconclusive"."""
    try:
        yield
    except CardDataError as err:
        raise UsageError(err.message, path=err.path, line=err.line, hint=err.hint) from None


def _for_check(check: Check, err: DeckkitError) -> DeckkitError:
    """The same error, its message prefixed with the check it concerns (kept whole, so an error
    listing several problems still lists them)."""
    err.message = f"check {check.name!r}: {err.message}"
    return err


@dataclass(frozen=True)
class Prepared:
    check: Check
    game: SolitaireGame
    factory: GameFactory
    deck_text: str


def _prepare(check: Check, db: CardDB) -> Prepared:
    """Resolve a check's deck, edition and policy, refusing an illegal deck (bad input)."""
    try:
        check_policy(check.policy)
        game = resolve(
            check.deck,
            edition=check.edition,
            variant=None,
            layout=None,
            players=check.players,
            layouts=LAYOUTS,
            command="balance",
            db=db,
            rules=check.rule_args,
        )
        deck_text = read_text(check.deck, what="deck file", error=DeckFileError)
    except DeckkitError as err:
        raise _for_check(check, err) from err
    if not game.report.legal:
        explain_illegal(game.report)
        raise UsageError(
            f"check {check.name!r}: the deck is not legal, so it cannot be balance-checked",
            path=check.deck,
            hint="fix the deck (see `deckkit validate`) or remove the check",
        )
    options = game_options(game.layout, check.turn_cap)
    factory = EngineGames(game.deck, game.edition, options, check.policy)
    return Prepared(check, game, factory, deck_text)


def _select(balance: BalanceFile, names: Sequence[str]) -> list[Check]:
    if not names:
        return list(balance.checks)
    known = {c.name: c for c in balance.checks}
    unknown = [n for n in names if n not in known]
    if unknown:
        raise UsageError(
            f"no check named {', '.join(map(repr, unknown))}",
            path=balance.path,
            hint=f"checks: {', '.join(map(repr, known))}",
        )
    return [known[n] for n in names]


def _workers(workers: int) -> int:
    if workers < 0:
        raise UsageError(f"--workers must be at least 1 (or 0 for all cores), not {workers}")
    return capped_workers(workers)


def _say(message: str, quiet: bool) -> None:
    if not quiet:
        echo(message, err=True)


# --- baseline ----------------------------------------------------------------------------------


def baseline(
    file: Path,
    *,
    workers: int = 1,
    card_db: Path | None = None,
    force: bool = False,
    only: Sequence[str] = (),
    quiet: bool = False,
) -> int:
    """Record a baseline for each selected check; returns the exit code."""
    workers = _workers(workers)
    with _bad_data_is_bad_input():
        balance = load_balance_file(file)
        checks = _select(balance, only)
        existing = [balance.baseline_path(c) for c in checks if balance.baseline_path(c).exists()]
        if existing and not force:
            raise UsageError(
                "refusing to replace existing baseline(s): " + ", ".join(str(p) for p in existing),
                hint="pass --force to re-baseline them, or --check NAME for only some",
            )
        db, csv_path = load_card_db(card_db), card_db_csv(card_db)
        prepared = [_prepare(c, db) for c in checks]
        for item in prepared:
            check = item.check
            _say(f"baseline {check.name!r}: {check.baseline_games:,} games", quiet)
            result = run_games(
                item.factory, games=check.baseline_games, seed=check.seed, workers=workers
            )
            if result.interrupted:
                raise KeyboardInterrupt
            record = baseline_record(
                check,
                wins=result.tally.wins,
                games=result.tally.games,
                edition=item.game.edition.name,
                variant=item.game.variant,
                layout=item.game.layout,
                rules=item.game.rules,
                snapshot=take_snapshot(
                    item.game.deck, item.deck_text, check.deck_as_written, csv_path
                ),
            )
            path = balance.baseline_path(check)
            write_baseline(path, record)
            rate = proportion(result.tally.wins, result.tally.games)
            ci = f" (95% CI {rate.ci[0]:.1%}-{rate.ci[1]:.1%})" if rate.ci else ""
            echo(
                f"{check.name}: win rate {rate.rate or 0:.1%}{ci} over {rate.n:,} games, "
                f"seed {check.seed} -> {path}"
            )
    return 0


# --- check -------------------------------------------------------------------------------------


def _replay_factory(item: Prepared, record: dict[str, Any], csv_path: Path) -> GameFactory:
    """The baseline's deck with the baseline's cards, on today's engine and options."""
    snapshot = record["snapshot"]
    with tempfile.TemporaryDirectory(prefix="deckkit-baseline-") as tmp:
        try:
            replay_csv = write_replay_db(snapshot, csv_path, Path(tmp) / "animayhem")
            old_db = load_card_db(replay_csv)
            old_deck = parse_deck(str(snapshot["deck_file"]["text"]), old_db, item.check.deck)
        except DeckkitError as err:
            raise UsageError(
                f"check {item.check.name!r}: the baseline's cards no longer load: {err.message}",
                path=err.path,
                line=err.line,
                hint="the card format changed since the baseline; re-baseline with "
                "`deckkit balance baseline --force`",
            ) from None
    options = game_options(item.game.layout, item.check.turn_cap)
    return EngineGames(old_deck, item.game.edition, options, item.check.policy)


REPORT_GAMES = 2000  # games behind each --report page


def check(
    file: Path,
    *,
    workers: int = 1,
    card_db: Path | None = None,
    junit: Path | None = None,
    fmt: OutputFormat = OutputFormat.TEXT,
    only: Sequence[str] = (),
    quiet: bool = False,
    report_dir: Path | None = None,
    report_games: int = REPORT_GAMES,
) -> int:
    """Run the selected checks; returns the exit code."""
    if report_dir is not None and not report_dir.is_dir():
        raise UsageError("the directory for --report does not exist", path=report_dir)
    workers = _workers(workers)
    if junit is not None and not (junit.parent if str(junit.parent) else Path(".")).is_dir():
        raise UsageError("the directory for --junit does not exist", path=junit)
    with _bad_data_is_bad_input():
        balance = load_balance_file(file)
        checks = _select(balance, only)
        db, csv_path = load_card_db(card_db), card_db_csv(card_db)
        plan: list[tuple[Prepared, dict[str, Any] | None, GameFactory | None]] = []
        for c in checks:  # everything is validated before the first game
            item = _prepare(c, db)
            path = balance.baseline_path(c)
            record = read_baseline(path, c)
            if record is None and c.max_drop is not None:
                raise UsageError(
                    f"check {c.name!r}: a drift check needs a baseline, and there is none",
                    path=path,
                    hint=f"record one with `deckkit balance baseline {file} --check '{c.name}'`",
                )
            old = None
            if record is not None and c.max_drop is not None:
                old = _replay_factory(item, record, csv_path)
            plan.append((item, record, old))
        from deckkit.balance.checks import run_band, run_drift

        results: list[CheckResult] = []
        for item, record, old in plan:
            c = item.check
            changed: tuple[str, ...] = ()
            if record is not None:
                changed = tuple(changed_cards(record["snapshot"], csv_path))
                if record["snapshot"]["deck_file"]["sha256"] != _sha(item.deck_text):
                    changed = ("the deck file", *changed)
                if changed:
                    echo(
                        f"warning: check {c.name!r}: changed since the baseline: "
                        f"{', '.join(changed)}",
                        err=True,
                    )
            _say(f"checking {c.name!r} ({c.kind}, budget {c.budget:,})", quiet)
            if old is None:
                result = run_band(c, item.factory, workers)
            else:
                result = run_drift(c, old, item.factory, workers)
            results.append(_with_changed(result, changed))
    code = exit_code(results)
    if junit is not None:
        write_junit(junit, results, f"deckkit balance {file}")
    if fmt is OutputFormat.JSON:
        doc = {
            "file": str(file),
            "exit_code": code,
            "counts": {v: sum(r.verdict == v for r in results) for v in _verdicts()},
            "checks": [r.as_dict() for r in results],
        }
        emit(doc)
    else:
        _print_table(results)
    if report_dir is not None:
        pages = write_reports(
            [r.check for r in results], report_dir, report_games, workers, card_db
        )
        from deckkit.report.balance_page import write_summary

        summary = write_summary(results, report_dir, source=str(file), exit_code=code, pages=pages)
        _say(f"summary: {summary}", quiet)
    return code


def write_reports(
    checks: Sequence[Check], directory: Path, games: int, workers: int, card_db: Path | None
) -> dict[str, str]:
    """Each checked deck's HTML report (``deckkit report``), played with the check's settings,
    as ``DIR/<check>.report.html``; one per deck and policy, however many checks share them."""
    from deckkit.cli import report_cmd
    from deckkit.cli import simulate_cmd as sim

    if card_db is not None:  # the report reads the same database as the checks
        os.environ[CARD_DB_ENV] = str(card_db.resolve())
    done: dict[tuple[Path, str, str | None, tuple[tuple[str, str], ...]], str] = {}
    pages: dict[str, str] = {}  # check slug -> its deck's page, relative to the directory
    for c in checks:
        key = (c.deck, c.policy, c.edition, c.rules)
        if key in done:
            pages[c.slug] = done[key]
            continue
        done[key] = pages[c.slug] = f"{c.slug}.report.html"
        args = sim.SimulateArgs(
            deck=c.deck,
            games=games,
            seed=c.seed,
            workers=workers,
            policy=c.policy,
            edition=c.edition,
            players=c.players,
            turn_cap=c.turn_cap,
            force=True,
            quiet=True,
            allow_illegal=True,
            rules=c.rule_args,
        )
        page = directory / f"{c.slug}.report.html"
        report_cmd.report_from_deck(args, page, None, sim.ENGINE, announce_on_stderr=True)
    return pages


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def _with_changed(result: CheckResult, changed: tuple[str, ...]) -> CheckResult:
    return replace(result, changed_cards=changed)


def _verdicts() -> tuple[str, ...]:
    from deckkit.balance.checks import VERDICTS

    return tuple(VERDICTS)


def exit_code(results: Sequence[CheckResult]) -> int:
    """0 all pass, 1 any fails, 3 any inconclusive and none fails."""
    if any(r.verdict == "fail" for r in results):
        return EXIT_FAIL
    if any(r.verdict == "inconclusive" for r in results):
        return EXIT_INCONCLUSIVE
    return EXIT_PASS


def _estimate(result: CheckResult) -> str:
    if result.estimate is None:
        return "-"
    if result.check.kind == "band":
        text = f"{result.estimate:.1%}"
        return text + (f" ({result.ci[0]:.1%}-{result.ci[1]:.1%})" if result.ci else "")
    text = f"{100 * result.estimate:+.1f} pts"
    return text + (
        f" ({100 * result.ci[0]:+.1f} to {100 * result.ci[1]:+.1f})" if result.ci else ""
    )


def _print_table(results: Sequence[CheckResult]) -> None:
    console = stdout_console(min_width=120, markup=False)  # names from files are not markup
    table = Table(show_edge=False, title_justify="left")
    for name, justify in (
        ("check", "left"),
        ("expects", "left"),
        ("verdict", "left"),
        ("games", "right"),
        ("estimate (95% CI)", "right"),
        ("LLR [bounds]", "right"),
    ):
        table.add_column(name, justify=justify)  # type: ignore[arg-type]
    for r in results:
        c = r.check
        expects = (
            f"band {c.band[0]:.0%}-{c.band[1]:.0%} ±{c.margin:.0%}"
            if c.band is not None
            else f"drop < {100 * (c.max_drop or 0):.3g} pts"
        )
        games = f"{r.games:,}" + (" pairs" if c.kind == "drift" else "")
        table.add_row(
            c.name,
            expects,
            r.verdict.upper(),
            games,
            _estimate(r),
            f"{r.llr:+.2f} [{r.bounds[0]:.2f}, {r.bounds[1]:.2f}]",
        )
    console.print(table)
    counts = {v: sum(r.verdict == v for r in results) for v in ("pass", "fail", "inconclusive")}
    console.print(
        f"{counts['pass']} passed, {counts['fail']} failed, {counts['inconclusive']} inconclusive",
        markup=False,
    )
    for r in results:
        if r.verdict != "pass":
            console.print(f"{r.check.name}: {r.reason}", markup=False)


# --- registration ------------------------------------------------------------------------------

_FILE = typer.Argument(DEFAULT_FILE, metavar="[FILE]", help="The balance file (TOML).")
_WORKERS = typer.Option(
    1, "--workers", "-w", help="Worker processes; 0 = all cores. Never changes results."
)
_CARD_DB = typer.Option(
    None,
    "--card-db",
    envvar=CARD_DB_ENV,
    metavar="DIR",
    help="Card database directory (holding cards.csv and effects/) [default: the shipped one].",
)
_ONLY = typer.Option(None, "--check", help="Only the check of this name (repeatable).")
_QUIET = typer.Option(False, "--quiet", "-q", help="No progress lines on stderr.")


@balance_app.command("baseline")
def baseline_command(
    file: Path = _FILE,
    workers: int = _WORKERS,
    scheduler: opt.SchedulerOpt = None,
    card_db: Path | None = _CARD_DB,
    force: bool = typer.Option(False, "--force", help="Replace existing baselines."),
    only: list[str] | None = _ONLY,
    quiet: bool = _QUIET,
) -> None:
    """Record each check's win rate and a snapshot of its deck and cards under baselines/."""
    code = baseline(
        file, workers=workers, card_db=card_db, force=force, only=only or (), quiet=quiet
    )
    if code:
        raise typer.Exit(code)


@balance_app.command("check")
def check_command(
    file: Path = _FILE,
    workers: int = _WORKERS,
    scheduler: opt.SchedulerOpt = None,
    card_db: Path | None = _CARD_DB,
    junit: Path | None = typer.Option(
        None,
        "--junit",
        metavar="FILE",
        help="Write JUnit XML (fail = failure, inconclusive = skipped).",
    ),
    fmt: OutputFormat = typer.Option(
        OutputFormat.TEXT, "--format", "-f", case_sensitive=False, help="text or json."
    ),
    only: list[str] | None = _ONLY,
    quiet: bool = _QUIET,
    report: Path | None = typer.Option(
        None,
        "--report",
        metavar="DIR",
        help="Also write each checked deck's HTML report into DIR "
        f"({REPORT_GAMES:,} games with the check's settings).",
    ),
) -> None:
    """Play each check until its sequential test decides.

    Exit 0 when all pass, 1 when any fails, 3 when any is inconclusive and none fails, 2 for bad
    input.
    """
    code = check(
        file,
        workers=workers,
        card_db=card_db,
        junit=junit,
        fmt=fmt,
        only=only or (),
        quiet=quiet,
        report_dir=report,
    )
    if code:
        raise typer.Exit(code)


def register(app: typer.Typer) -> None:
    """Add `balance` (with `baseline` and `check`) to the top-level command."""
    app.add_typer(balance_app, name="balance")
