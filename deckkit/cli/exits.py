"""The one place where deckkit's errors become a message on stderr and an exit code.

Commands registered on a :class:`DeckkitTyper` raise :class:`deckkit.errors.DeckkitError` (or
let Ctrl-C through) and never pick exit codes for errors themselves; the wrapper does, the same
way for the console script and for tests that invoke the app directly.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any, TypeVar

import typer

from deckkit.errors import EXIT_INTERRUPTED, DeckkitError

F = TypeVar("F", bound=Callable[..., Any])


def report_errors(func: F) -> F:
    """Wrap a command: DeckkitError -> "error: ..." on stderr and its exit code."""

    @functools.wraps(func)
    def command(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except DeckkitError as err:
            typer.echo(f"error: {err.render()}", err=True)
            raise typer.Exit(err.exit_code) from None
        except KeyboardInterrupt:
            typer.echo("interrupted", err=True)
            raise typer.Exit(EXIT_INTERRUPTED) from None

    return command  # type: ignore[return-value]


class DeckkitTyper(typer.Typer):
    """A Typer app whose commands report deckkit errors with their exit codes."""

    def command(self, *args: Any, **kwargs: Any) -> Callable[[F], F]:
        register = super().command(*args, **kwargs)

        def decorator(func: F) -> F:
            register(report_errors(func))
            return func

        return decorator
