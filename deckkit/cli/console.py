"""The rich consoles every command prints through.

One place decides how results reach the terminal: stdout for results, stderr for the rest, and a
reader that closes the pipe early (``deckkit ... | head``) ends the command quietly with exit 141
(see :func:`deckkit.cli.exits.report_errors`) rather than rich's own exit 1.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import typer
from rich.console import Console
from rich.text import Text

from deckkit.textsafe import shown

if TYPE_CHECKING:
    from deckkit.animayhem.construction.legality import LegalityReport


class DeckkitConsole(Console):
    """A rich console that escapes control characters in every string it renders (table cells
    included) and reports a closed stdout as :class:`BrokenPipeError`."""

    def render_str(self, text: str, **kwargs: Any) -> Text:
        return super().render_str(shown(text), **kwargs)

    def on_broken_pipe(self) -> None:
        raise BrokenPipeError


def echo(message: str = "", *, err: bool = False) -> None:
    """A plain line of text output, its control characters escaped (not for JSON, which
    escapes its own)."""
    typer.echo(shown(message), err=err)


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


def percent(x: float | None, signed: bool = False) -> str:
    """A rate as text: ``35.0%``, or a difference in percentage points, ``-12.9 pts``, as
    `balance` writes its drift (one unit for every command)."""
    if x is None:
        return "-"
    return f"{100 * x:+.1f} pts" if signed else f"{100 * x:.1f}%"


def explain_illegal(report: LegalityReport) -> None:
    """The validator's explanation on stderr: each violation with its arithmetic and fix."""
    from deckkit.api.solitaire import illegal_explanation

    for line in illegal_explanation(report):
        echo(line, err=True)
