"""`deckkit validate DECK`: is this deck legal under an edition, a variant and a player count?

Header values in the deck file are defaults that the flags override. Exit codes follow
:mod:`deckkit.errors`: 0 legal, 1 illegal, 2 unreadable deck or bad usage, 3 broken shipped data.
JSON output is a stable contract for CI, errors included (an object with an ``error`` field).
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from deckkit.api.legality import DeckVerdict
from deckkit.api.legality import validate as validate_deck
from deckkit.cli import options as opt
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.jsonout import emit
from deckkit.errors import EXIT_ILLEGAL, EXIT_OK, DeckkitError

OutputFormat = opt.Format


_ROWS: tuple[tuple[str, str, str | None], ...] = (
    # (label, counts key, required key)
    ("characters", "characters", None),
    ("locations", "locations", "locations"),
    ("items", "items", "items"),
    ("havens", "havens", None),
    ("power cards", "power", None),
    ("combat cards", "combat", None),
    ("disasters", "disasters", "disasters"),
    ("  combat disasters", "combat_disasters", "combat_disasters"),
    ("  major disasters", "major_disasters", "major_disasters"),
)
_AT_LEAST = {"combat_disasters", "major_disasters"}


def _print_text(name: str, report: DeckVerdict) -> None:
    out = stdout_console(min_width=72, soft_wrap=True)
    verdict = "[bold green]LEGAL[/]" if report.legal else "[bold red]ILLEGAL[/]"
    players = f"{report.players} player" + ("" if report.players == 1 else "s")
    out.print(
        f"{verdict}: {escape(name)} under {report.edition} ({report.variant}, {players})"
        + ("" if report.legal else f": {len(report.violations)} problem(s)")
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    table.add_column("cards")
    table.add_column("in deck", justify="right")
    table.add_column("required", justify="right")
    table.add_column("")
    for label, key, req_key in _ROWS:
        have = report.counts.get(key, 0)
        need = report.required.get(req_key) if req_key else None
        if need is None:
            table.add_row(label, str(have), "", "")
            continue
        ok = have >= need if req_key in _AT_LEAST else have == need
        shown = f"≥ {need}" if req_key in _AT_LEAST else str(need)
        table.add_row(label, str(have), shown, "[green]ok[/]" if ok else "[red]✗[/]")
    out.print(table)
    if report.formula:
        out.print(f"disasters: {escape(report.formula)}")
    for v in report.violations:
        out.print(f"[red]✗[/] [bold]{v.rule}[/]: {escape(v.message)}")
        out.print(f"    fix: {escape(v.fix)}")
    for note in report.notes:
        out.print(f"note: {escape(note)}")


def validate(
    decks: Annotated[
        list[Path],
        typer.Argument(metavar="DECK...", help="Deck files to check; '-' reads one from stdin."),
    ],
    players: opt.PlayersOpt = None,
    edition: opt.EditionOpt = None,
    variant: opt.VariantOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print nothing; only the exit code tells.")
    ] = False,
) -> None:
    """Check decks' construction: counts against the edition's formulas, copy limits, quotas.

    Exit code 0 when every deck is legal, 1 when one is illegal, 2 when one cannot be read.
    """
    results: list[dict[str, object]] = []
    worst = EXIT_OK
    for deck in decks:
        try:
            checked = validate_deck(deck, players=players, edition=edition, variant=variant)
        except DeckkitError as err:
            worst = max(worst, err.exit_code)
            results.append({"file": _shown_path(deck), **err.as_dict()})
            if output is opt.Format.TEXT and not quiet:
                echo(f"error: {err.render()}", err=True)
            continue
        worst = max(worst, EXIT_OK if checked.legal else EXIT_ILLEGAL)
        results.append({"file": _shown_path(deck), **checked.as_dict()})
        if output is opt.Format.TEXT and not quiet:
            _print_text(checked.deck, checked.report)
    if output is opt.Format.JSON and not quiet:
        emit(results[0] if len(results) == 1 else {"decks": results})
    raise typer.Exit(worst)


def _shown_path(path: Path) -> str:
    return "<stdin>" if str(path) == "-" else str(path)


def register(app: typer.Typer) -> None:
    """Add ``validate`` to the ``deckkit`` command."""
    app.command("validate")(validate)
