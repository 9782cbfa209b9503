"""Progress on stderr (stdout stays the results): one run's games (`simulate`, `report`) and
a command made of several runs (`compare`'s arms, `impact`'s cards): a bar on a terminal, one
line per finished step in a log, nothing with ``--quiet``."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from types import TracebackType

from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TaskID,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)

from deckkit.analysis.runner import ProgressFn
from deckkit.cli.console import echo, stderr_console


class Steps:
    """``with Steps("impact", total, quiet=q) as steps:`` then, per step,
    ``with steps.step(name) as games:`` (``games`` reports games played within the step)."""

    def __init__(self, command: str, total: int, *, quiet: bool) -> None:
        self.command = command
        self.total = total
        self.quiet = quiet
        self.done = 0
        self._bar: Progress | None = None
        self._task: TaskID | None = None

    def __enter__(self) -> Steps:
        if not self.quiet and sys.stderr.isatty():
            self._bar = Progress(
                TextColumn("{task.description}"),
                BarColumn(),
                MofNCompleteColumn(),
                TimeElapsedColumn(),
                console=stderr_console(force_terminal=True),
                transient=True,
            )
            self._bar.__enter__()
            self._task = self._bar.add_task(self.command, total=self.total)
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        if self._bar is not None:
            self._bar.__exit__(kind, error, trace)

    @contextmanager
    def step(self, name: str) -> Iterator[ProgressFn | None]:
        """One step; yields a games-played callback for the runner (or None)."""
        label = f"{self.command} {self.done + 1}/{self.total}: {name}"
        bar, task = self._bar, self._task
        games: ProgressFn | None = None
        if bar is not None and task is not None:
            bar.update(task, description=label)

            def games(done: int) -> None:
                bar.update(task, description=f"{label}, {done:,} games")

        yield games
        self.done += 1
        if bar is not None and task is not None:
            bar.update(task, completed=self.done)
        elif not self.quiet:
            echo(f"{self.command}: {self.done}/{self.total} done: {name}", err=True)


@contextmanager
def games_bar(total: int, enabled: bool) -> Iterator[ProgressFn | None]:
    """A progress bar of one run's games on stderr, or nothing (when ``enabled`` is false: stderr
    is not a terminal, or --quiet)."""
    if not enabled:
        yield None
        return
    bar = Progress(
        TextColumn("playing games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
        console=stderr_console(force_terminal=True),  # the caller checked it is one
        transient=True,
    )
    with bar:
        task = bar.add_task("games", total=total)
        yield lambda done: bar.update(task, completed=done)
