"""The rich consoles every command prints through.

One place decides how results reach the terminal: stdout for results, stderr for the rest, and a
reader that closes the pipe early (``deckkit ... | head``) ends the command quietly with exit 141
(see :func:`deckkit.cli.exits.report_errors`) rather than rich's own exit 1.
"""

from __future__ import annotations

from typing import Any

from rich.console import Console


class DeckkitConsole(Console):
    """A rich console that reports a closed stdout as :class:`BrokenPipeError`."""

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def stdout_console(min_width: int | None = None, **kwargs: Any) -> Console:
    """A console for results. ``min_width`` keeps wide tables readable when piped (rich falls
    back to 80 columns without a terminal)."""
    if min_width is not None:
        kwargs.setdefault("width", max(Console().width, min_width))
    kwargs.setdefault("highlight", False)
    return DeckkitConsole(**kwargs)


def stderr_console(**kwargs: Any) -> Console:
    """A console for progress and notes, never mixed into results."""
    return DeckkitConsole(stderr=True, **kwargs)
