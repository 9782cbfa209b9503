"""The `deckkit` command: the only place that parses arguments, prints and picks exit codes.

Each command lives in its own module and registers itself on a Typer app; errors raised as
:class:`deckkit.errors.DeckkitError` become a message on stderr and the error's exit code.
A command's module is imported when the command line names it (``deckkit --help`` imports them
all to list them), so a short command does not pay for the imports of the others (the engine,
the report's and the balance checks' libraries).
"""

from __future__ import annotations

import importlib
import os
import sys
from pathlib import Path
from typing import Any

import typer
from typer import _click
from typer.main import get_group

from deckkit import __version__, games, stopping
from deckkit.cli.exits import DeckkitTyper, help_when_bare, silence_stdout
from deckkit.cli.helpfmt import HelpGroup, tidy_all
from deckkit.errors import EXIT_BROKEN_PIPE, DeckkitError

# Ani-Mayhem's commands in the order `deckkit --help` lists them, each with the module (in
# deckkit.cli) whose ``register(app)`` adds it.
COMMANDS: dict[str, str] = {
    "validate": "validate_cmd",
    "stats": "stats_cmd",
    "simulate": "simulate_cmd",
    "play": "play_cmd",
    "report": "report_cmd",
    "compare": "compare_cmd",
    "impact": "impact_cmd",
    "tune": "tune_cmd",
    "build": "build_cmd",
    "sensitivity": "sensitivity_cmd",
    "samples": "samples_cmd",
    "cards": "cards_cmd",
    "balance": "balance_cmd",
}
CARD_DB_ENV = "DECKKIT_CARD_DB"  # construction.carddb's, without importing the card database


class GameDispatchGroup(HelpGroup):
    """Hands `validate`, `simulate`, `report` and `cards` to another game's commands when a
    file's header (or `--game`) names one; Ani-Mayhem's commands otherwise (see deckkit.games).
    Ani-Mayhem's commands are built when first asked for (see :data:`COMMANDS`)."""

    def list_commands(self, ctx: _click.Context) -> list[str]:
        return [*COMMANDS, *(name for name in self.commands if name not in COMMANDS)]

    def get_command(self, ctx: _click.Context, cmd_name: str) -> _click.Command | None:
        return self.command_named(cmd_name)

    def command_named(self, name: str) -> _click.Command | None:
        """The command of this name, its module imported and registered on first use."""
        if name not in self.commands and name in COMMANDS:
            self.commands.update(load_commands(COMMANDS[name]))
        return self.commands.get(name)

    def resolve_command(  # type: ignore[override]
        self, ctx: typer.Context, args: list[str]
    ) -> Any:
        if args and args[0] not in COMMANDS and not args[0].startswith("-"):
            # Not a command's name: every command loaded, so that typer's "Did you mean ...?"
            # picks from them all.
            for known in COMMANDS:
                self.command_named(known)
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
        from deckkit.schema import engine

        # Which engine plays: the compiled one is the same games, several times faster.
        build = "compiled" if engine() == "compiled" else "pure-Python"
        typer.echo(f"deckkit {__version__} ({build} engine)")
        raise typer.Exit()


@app.callback()
def main(
    ctx: typer.Context,
    version: bool = typer.Option(
        False,
        "--version",
        help="Print the version and which engine plays (compiled or pure Python), and exit.",
        callback=_version,
        is_eager=True,
    ),
    card_db: Path | None = typer.Option(
        None,
        "--card-db",
        envvar=CARD_DB_ENV,
        metavar="DIR",
        show_default="the shipped database",
        help="A card database directory for every command of every game: a designer's "
        "working copy or a homebrew set, checked when it loads. Ani-Mayhem reads cards.csv and "
        "effects/ (or animayhem/), Anima Tactics animatactics/cards.csv, Animus "
        "animus/cards.csv or animus/sample-cards.csv (for teams without their own cards: line).",
    ),
) -> None:
    """Deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem."""
    if card_db is not None:
        # Every command (and every worker process, which inherits the environment) loads
        # the card database through construction.carddb.load_card_db, which reads this.
        try:
            where = card_db.resolve()
        except (OSError, RuntimeError):  # a symbolic-link loop: the loader reports the path
            where = card_db.absolute()
        os.environ[CARD_DB_ENV] = str(where)
    help_when_bare(ctx)


def load_commands(module_name: str) -> dict[str, _click.Command]:
    """The click commands the module ``deckkit.cli.MODULE`` registers, built as they would be
    on ``app`` itself (the same Typer settings), their help made plain."""
    module = importlib.import_module(f"deckkit.cli.{module_name}")
    holder = DeckkitTyper(rich_markup_mode=None, pretty_exceptions_enable=False)
    module.register(holder)
    commands = dict(get_group(holder).commands)
    for command in commands.values():
        tidy_all(command)
    return commands


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
