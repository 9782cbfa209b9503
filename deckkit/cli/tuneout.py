"""What `deckkit tune` and `deckkit build` print: the search's outcome as text, and the games
played as a progress bar on a terminal (shared by the two commands, which import no command
module of each other)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from deckkit.cli.console import echo, percent

SHOWN = 15  # ranked swaps printed


def _rate(r: dict[str, Any]) -> str:
    lo, hi = r["ci"]
    return f"{percent(r['rate'])} (95% CI {percent(lo)} to {percent(hi)}, {r['games']:,} games)"


def _diff(d: dict[str, Any] | None) -> str:
    if d is None or d["ci"] is None:
        return "-"
    lo, hi = d["ci"]
    return (
        f"{percent(d['difference'], True)} (95% CI {percent(lo, True)} to "
        f"{percent(hi, True)}, {d['games']:,} paired games)"
    )


def print_text(doc: dict[str, Any], out: Path | None) -> None:
    say = echo
    say(
        f"{doc['deck']}: {doc['candidates']:,} legal single swaps, "
        f"{doc['selection_games']:,} selection games (budget {doc['budget']:,})"
    )
    if doc["interrupted"]:
        say("interrupted: the best deck so far, rates from the selection games (not confirmed)")
    say("")
    say(f"ranked single swaps of the deck (paired against it on the selection games; top {SHOWN})")
    for s in doc["swaps"][:SHOWN]:
        say(f"  out {s['out']}, in {s['in']}: {_diff(s)}")
    say("")
    if doc["path"]:
        say("search path (each swap kept on the deck after the previous ones)")
        for i, p in enumerate(doc["path"], start=1):
            say(f"  {i}. out {p['out']}, in {p['in']}: {_diff(p['selection'])}")
    else:
        say("no swap raised the win rate on the selection games: the deck is kept")
    say("")
    where = "confirmation games, fresh" if doc["rates_from"] == "confirmation" else "selection"
    say(f"start: {_rate(doc['start'])}  [{where}]")
    say(f"best:  {_rate(doc['best'])}  [{where}]")
    if doc["gain"] is not None:
        say(f"gain:  {_diff(doc['gain'])}")
    if out is not None:
        say(f"best deck written to {out}")
    say("")
    say(f"method: {doc['method']}")


class Bar:
    """Games played on a terminal's stderr (the budget is a bound: the bar may stop short),
    and the search's notes on a log; nothing with ``-q``."""

    def __init__(self, total: int, *, quiet: bool, name: str = "tune") -> None:
        self.name = name
        self.total = total
        self.quiet = quiet
        self.done = 0
        self._progress: Any = None
        self._task: Any = None

    def __enter__(self) -> Bar:
        if not self.quiet and sys.stderr.isatty():
            from rich.progress import (
                BarColumn,
                MofNCompleteColumn,
                Progress,
                TextColumn,
                TimeElapsedColumn,
            )

            from deckkit.cli.console import stderr_console

            self._progress = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=stderr_console(force_terminal=True),
                transient=True,
            )
            self._progress.__enter__()
            self._task = self._progress.add_task(self.name, total=self.total)
        return self

    def __exit__(self, *exc: object) -> None:
        if self._progress is not None:
            self._progress.__exit__(None, None, None)

    def advance(self, games: int) -> None:
        self.done += games
        if self._progress is not None:
            self._progress.update(self._task, completed=min(self.done, self.total))

    def note(self, text: str) -> None:
        if self.quiet:
            return
        if self._progress is not None:
            self._progress.update(self._task, description=f"{self.name}: {text[:40]}")
        else:
            echo(f"{self.name}: {text}", err=True)
