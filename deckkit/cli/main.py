"""The `deckkit` command: the only place that parses arguments, prints and picks exit codes.

Each command lives in its own module and registers itself on ``app``; errors raised as
:class:`deckkit.errors.DeckkitError` become a message on stderr and the error's exit code.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import Any

import typer

from deckkit import __version__, games, stopping
from deckkit.animayhem.construction.carddb import CARD_DB_ENV
from deckkit.cli.exits import DeckkitTyper, help_when_bare, silence_stdout
from deckkit.cli.helpfmt import HelpGroup
from deckkit.errors import EXIT_BROKEN_PIPE, DeckkitError


class GameDispatchGroup(HelpGroup):
    """Hands `validate`, `simulate`, `report` and `cards` to another game's commands when a
    file's header (or `--game`) names one; Ani-Mayhem's commands otherwise (see deckkit.games)."""

    def resolve_command(  # type: ignore[override]
        self, ctx: typer.Context, args: list[str]
    ) -> Any:
        name, command, rest = super().resolve_command(ctx, args)
        if name is not None:
            other, rest = games.command_for(name, rest)
            if other is not None:
                command = other
        return name, command, rest


app = DeckkitTyper(
    name="deckkit",
    cls=GameDispatchGroup,
    help="Deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem.",
    invoke_without_command=True,
    pretty_exceptions_enable=False,
    # Plain help, laid out as the README writes commands: rich's help shows internal type names
    # ("<bool>", "<int range>") and wraps choices mid-word.
    rich_markup_mode=None,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deckkit {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version, is_eager=True
    ),
    card_db: Path | None = typer.Option(
        None,
        "--card-db",
        envvar=CARD_DB_ENV,
        metavar="DIR",
        show_default="the shipped database",
        help="A card database directory (cards.csv and effects/) for every command: a "
        "designer's working copy or a homebrew set, checked when it loads.",
    ),
) -> None:
    """Deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem."""
    if card_db is not None:
        # Every command (and every worker process, which inherits the environment) loads
        # the card database through construction.carddb.load_card_db, which reads this.
        os.environ[CARD_DB_ENV] = str(card_db.resolve())
    help_when_bare(ctx)


def _register() -> None:
    # Imported here so that each command module can import `app` from this one.
    from deckkit.cli import (
        balance_cmd,
        cards_cmd,
        compare_cmd,
        impact_cmd,
        play_cmd,
        report_cmd,
        samples_cmd,
        sensitivity_cmd,
        simulate_cmd,
        stats_cmd,
        validate_cmd,
    )

    for module in (
        validate_cmd,
        stats_cmd,
        simulate_cmd,
        play_cmd,
        cards_cmd,
        report_cmd,
        compare_cmd,
        impact_cmd,
        sensitivity_cmd,
        balance_cmd,
        samples_cmd,
    ):
        module.register(app)


_register()


def _tolerate_any_encoding() -> None:
    """A terminal or pipe that cannot show a character (``PYTHONIOENCODING=ascii``) gets an
    escape for it instead of a traceback; numbers and names stay readable."""
    for stream in (sys.stdout, sys.stderr):
        reconfigure = getattr(stream, "reconfigure", None)
        if reconfigure is not None:
            reconfigure(errors="backslashreplace")


def run() -> None:
    """Console-script entry point: map deckkit errors to their exit codes."""
    _tolerate_any_encoding()
    try:
        app()
    except DeckkitError as err:
        typer.echo(f"error: {err.render()}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt as err:
        stopping.note_stop(err)
        typer.echo("interrupted", err=True)
        sys.exit(stopping.exit_code())
    except BrokenPipeError:
        silence_stdout()
        sys.exit(EXIT_BROKEN_PIPE)
