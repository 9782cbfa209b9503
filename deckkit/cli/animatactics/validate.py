"""`deckkit validate PARTY...` for Anima Tactics: the party rules, explained."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer
from rich.markup import escape
from rich.table import Table

from deckkit.cli import options as opt
from deckkit.cli.animatactics.common import CheckedParty, EditionOpt, LevelsOpt, check, shown_path
from deckkit.cli.console import echo, stdout_console
from deckkit.cli.jsonout import emit
from deckkit.errors import EXIT_ILLEGAL, EXIT_OK, DeckkitError


def print_text(c: CheckedParty) -> None:
    out = stdout_console(min_width=72, soft_wrap=True)
    r = c.report
    verdict = {
        "legal": "[bold green]LEGAL[/]",
        "legal_if": "[bold yellow]LEGAL IF[/]",
        "illegal": "[bold red]ILLEGAL[/]",
    }[r.verdict]
    out.print(
        f"{verdict}"
        + (f" {escape(r.condition)}" if r.condition else "")
        + f": {escape(c.party.name)} (Anima Tactics) under {c.edition.name}, "
        f"{c.levels}-level game" + ("" if r.legal else f": {len(r.violations)} problem(s)")
    )
    table = Table(show_header=True, header_style="bold", box=None, pad_edge=False)
    for col, justify in (("", "left"), ("in party", "right"), ("allowed", "right")):
        table.add_column(col, justify=justify)  # type: ignore[arg-type]
    table.add_row("characters", str(r.counts["characters"]), "")
    table.add_row("levels", str(r.counts["levels_spent"]), f"≤ {r.budget['levels']}")
    table.add_row(
        "advantage cards", str(r.counts["advantage_cards"]), f"≤ {r.budget['advantage_cards']}"
    )
    if r.budget["advantage_points"] is not None:
        table.add_row(
            "advantage points",
            str(r.counts["advantage_points_spent"]),
            f"≤ {r.budget['advantage_points']}",
        )
    out.print(table)
    for v in r.violations:
        out.print(f"[red]✗[/] [bold]{escape(v.rule)}[/]: {escape(v.message)}")
        out.print(f"    fix: {escape(v.fix)}")
        out.print(f"    rule: {escape(v.source)}")
    for note in r.notes:
        out.print(f"note: {escape(note)}")


def validate(
    parties: Annotated[
        list[Path],
        typer.Argument(metavar="PARTY...", help="Party files to check; '-' reads one from stdin."),
    ],
    levels: LevelsOpt = None,
    edition: EditionOpt = None,
    output: opt.FormatOpt = opt.Format.TEXT,
    quiet: Annotated[
        bool, typer.Option("--quiet", "-q", help="Print nothing; only the exit code tells.")
    ] = False,
) -> None:
    """Check Anima Tactics parties: level budget, unique characters, Light and Darkness,
    advantage cards (and the advantage-point budget under --edition later).

    Exit code 0 when every party is legal, 1 when one is illegal, 2 when one cannot be read,
    3 when the card database is broken.
    """
    results: list[dict[str, object]] = []
    worst = EXIT_OK
    for path in parties:
        try:
            checked = check(path, levels, edition)
        except DeckkitError as err:
            worst = max(worst, err.exit_code)
            results.append({"file": shown_path(path), **err.as_dict()})
            if output is opt.Format.TEXT and not quiet:
                echo(f"error: {err.render()}", err=True)
            continue
        worst = max(worst, EXIT_OK if checked.report.legal else EXIT_ILLEGAL)
        results.append(
            {
                "file": shown_path(path),
                "game": "anima-tactics",
                "party": checked.party.name,
                **checked.report.as_dict(),
            }
        )
        if output is opt.Format.TEXT and not quiet:
            print_text(checked)
    if output is opt.Format.JSON and not quiet:
        emit(results[0] if len(results) == 1 else {"parties": results}, game="anima-tactics")
    raise typer.Exit(worst)
