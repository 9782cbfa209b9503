"""`deckkit balance`: balance checks for CI, decided by sequential tests.

``baseline`` records, for every check of a balance file, the deck's win rate and a snapshot of
the deck and its cards; ``check`` plays each check until its sequential test decides (or the
budget runs out) and exits 0 when all pass, 1 when any fails, 3 when any is inconclusive and
none fails, 2 for bad input. Exit 3 here means "inconclusive" only: a broken card database,
which other commands report with 3, is bad input to a balance run (it names the database it
reads with ``--card-db`` or ``DECKKIT_CARD_DB``) and exits 2.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

import typer
from rich.table import Table

from deckkit.animayhem.construction.carddb import CARD_DB_ENV
from deckkit.api.balance import (
    EXIT_FAIL,
    EXIT_INCONCLUSIVE,
    EXIT_PASS,
    REPORT_GAMES,
    balance_check,
    baselines,
    write_reports,
    write_summary_page,
)
from deckkit.api.options import RunOptions
from deckkit.balance.config import DEFAULT_FILE
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.exits import DeckkitTyper, help_when_bare
from deckkit.cli.jsonout import emit
from deckkit.errors import UsageError

if TYPE_CHECKING:
    from deckkit.balance.checks import CheckResult

__all__ = ["EXIT_FAIL", "EXIT_INCONCLUSIVE", "EXIT_PASS", "balance_app", "register"]

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


def _notes(quiet: bool) -> Callable[[str], None]:
    """Progress lines on stderr, or nothing with --quiet."""
    return (lambda message: None) if quiet else _warn


def _warn(message: str) -> None:
    echo(message, err=True)


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
    for done in baselines(
        file,
        run=RunOptions(workers=workers),
        card_db=card_db,
        force=force,
        check=only,
        notify=_notes(quiet),
        warn=_warn,
    ):
        rate = done.rate
        ci = f" (95% CI {rate.ci[0]:.1%}-{rate.ci[1]:.1%})" if rate.ci else ""
        echo(
            f"{done.check.name}: win rate {rate.rate or 0:.1%}{ci} over {rate.n:,} games, "
            f"seed {done.check.seed} -> {done.path}"
        )
    return 0


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
    if workers < 0:
        raise UsageError(f"--workers must be at least 1 (or 0 for all cores), not {workers}")
    if junit is not None and not (junit.parent if str(junit.parent) else Path(".")).is_dir():
        raise UsageError("the directory for --junit does not exist", path=junit)
    run = RunOptions(workers=workers)
    outcome = balance_check(
        file, run=run, card_db=card_db, check=only, notify=_notes(quiet), warn=_warn
    )
    results, code = outcome.results, outcome.exit_code
    if junit is not None:
        from deckkit.balance.junit import write_junit

        write_junit(junit, results, f"deckkit balance {file}")
    if fmt is OutputFormat.JSON:
        emit(outcome.as_dict())
    else:
        _print_table(results)
    if report_dir is not None:
        pages = write_reports(
            [r.check for r in results],
            report_dir,
            report_games,
            run=run,
            card_db=card_db,
            notify=_warn,
        )
        summary = write_summary_page(outcome, report_dir, pages)
        if not quiet:
            echo(f"summary: {summary}", err=True)
    return code


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
