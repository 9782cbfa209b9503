"""The `deckkit` command: the only place that parses arguments, prints and picks exit codes.

Each command lives in its own module and registers itself on ``app``; errors raised as
:class:`deckkit.errors.DeckkitError` become a message on stderr and the error's exit code.
"""

from __future__ import annotations

import sys

import typer

from deckkit import __version__
from deckkit.cli.exits import DeckkitTyper
from deckkit.errors import EXIT_INTERRUPTED, DeckkitError

app = DeckkitTyper(
    name="deckkit",
    help="Deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        typer.echo(f"deckkit {__version__}")
        raise typer.Exit()


@app.callback()
def main(
    version: bool = typer.Option(
        False, "--version", help="Print the version and exit.", callback=_version, is_eager=True
    ),
) -> None:
    """Deck legality checks and Monte Carlo win-rate estimates for Ani-Mayhem."""


def _register() -> None:
    # Imported here so that each command module can import `app` from this one.
    from deckkit.cli import balance_cmd, cards_cmd, play_cmd, simulate_cmd, validate_cmd

    for module in (validate_cmd, simulate_cmd, play_cmd, cards_cmd, balance_cmd):
        module.register(app)


_register()


def run() -> None:
    """Console-script entry point: map deckkit errors to their exit codes."""
    try:
        app()
    except DeckkitError as err:
        typer.echo(f"error: {err.render()}", err=True)
        sys.exit(err.exit_code)
    except KeyboardInterrupt:
        typer.echo("interrupted", err=True)
        sys.exit(EXIT_INTERRUPTED)
