"""The one place where deckkit's errors become a message on stderr and an exit code.

Commands registered on a :class:`DeckkitTyper` raise :class:`deckkit.errors.DeckkitError` (or
let Ctrl-C through) and never pick exit codes for errors themselves; the wrapper does, the same
way for the console script and for tests that invoke the app directly. The wrapper also makes
SIGTERM and SIGHUP stop a command the way Ctrl-C does (:mod:`deckkit.stopping`), and treats a
reader that closes stdout early (``deckkit ... | head``) as Unix tools do: quietly, exit 141.
A standard output that is not open at all (``>&-``) is refused before the command starts
(exit 5), rather than the command's results going nowhere with exit 0.
"""

from __future__ import annotations

import functools
import os
import sys
from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import typer
from typer import _click
from typer.core import TyperGroup

from deckkit import stopping
from deckkit.cli.jsonout import emit, wants_json
from deckkit.errors import EXIT_BROKEN_PIPE, EXIT_CANNOT_WRITE, DeckkitError
from deckkit.textsafe import clipped_words, shown

F = TypeVar("F", bound=Callable[..., Any])


def report_errors(func: F) -> F:
    """Wrap a command: DeckkitError -> "error: ..." on stderr and its exit code."""

    @functools.wraps(func)
    def command(*args: Any, **kwargs: Any) -> Any:
        if sys.stdout is None:  # `deckkit ... >&-`: nowhere to say anything, so do nothing
            typer.echo("error: cannot write the output: standard output is closed", err=True)
            raise typer.Exit(EXIT_CANNOT_WRITE)
        try:
            with stopping.stop_on_signals():
                result = func(*args, **kwargs)
                # What is still buffered is written now, while a closed pipe or a full disk
                # can still become an exit code (at interpreter exit it would be lost).
                sys.stdout.flush()
                return result
        except DeckkitError as err:
            if any(kwargs.get(name) == "json" for name in ("fmt", "output")):
                emit(err.as_dict())
            typer.echo(f"error: {err.render()}", err=True)
            raise typer.Exit(err.exit_code) from None
        except KeyboardInterrupt as err:
            stopping.note_stop(err)
            typer.echo("interrupted", err=True)
            raise typer.Exit(stopping.exit_code()) from None
        except BrokenPipeError:
            silence_stdout()
            raise typer.Exit(EXIT_BROKEN_PIPE) from None
        except OSError as err:  # output that cannot be written: a full disk, /dev/full, EIO
            silence_stdout()
            typer.echo(f"error: cannot write the output: {err.strerror or err}", err=True)
            raise typer.Exit(EXIT_CANNOT_WRITE) from None

    return command  # type: ignore[return-value]


def silence_stdout() -> None:
    """The reader of stdout is gone: send what is still buffered nowhere, so that flushing at
    exit does not fail a second time."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a test's captured stdout)
        pass


class DeckkitGroup(TyperGroup):
    """The top-level command: the argument parser's errors read like deckkit's own
    ("error: ...", a hint, exit 2), whichever layer found the mistake."""

    def main(  # type: ignore[override]
        self,
        args: Sequence[str] | None = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **kwargs: Any,
    ) -> Any:
        if not standalone_mode:
            return super().main(args, prog_name, complete_var, False, **kwargs)
        try:
            code = super().main(args, prog_name, complete_var, False, **kwargs)
        except _click.exceptions.UsageError as err:
            command = err.ctx.command_path if err.ctx is not None else "deckkit"
            hint = f"see `{command} --help`"
            if wants_json(sys.argv[1:] if args is None else list(args)):
                emit({"error": err.format_message(), "file": None, "line": None, "hint": hint})
            typer.echo(f"error: {shown(clipped_words(err.format_message()))}", err=True)
            typer.echo(f"  hint: {hint}", err=True)
            sys.exit(err.exit_code)
        except _click.exceptions.ClickException as err:
            typer.echo(f"error: {shown(clipped_words(err.format_message()))}", err=True)
            sys.exit(err.exit_code)
        except DeckkitError as err:  # found while choosing the command (deckkit.games)
            if wants_json(sys.argv[1:] if args is None else list(args)):
                emit(err.as_dict())
            typer.echo(f"error: {err.render()}", err=True)
            sys.exit(err.exit_code)
        except typer.Abort:
            typer.echo("interrupted", err=True)
            sys.exit(stopping.exit_code())
        sys.exit(code if isinstance(code, int) else 0)


class DeckkitTyper(typer.Typer):
    """A Typer app whose commands report deckkit errors with their exit codes."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        register = super().command(*args, **kwargs)

        def decorator(func: F) -> F:
            register(report_errors(func))
            return func

        return decorator


def help_when_bare(ctx: typer.Context) -> None:
    """``deckkit`` or ``deckkit cards`` with no command: the help, and exit 0."""
    if ctx.invoked_subcommand is None and not ctx.resilient_parsing:
        typer.echo(ctx.get_help())
        raise typer.Exit(0)
