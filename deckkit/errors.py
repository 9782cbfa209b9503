"""Error types a user can cause, each with the exit code the CLI maps it to.

Exit codes (shared by every command): 0 done / legal, 1 illegal deck, 2 unreadable input or bad
usage, 3 a broken card database or edition file, 4 a worker process died, 5 the output could not
be written (a full disk), 6 ``--scheduler`` given but Dask not installed, 7 the Dask scheduler
cannot be reached (or has no workers), 8 a saved run too large for a report to draw
(:data:`MAX_REPORT_ROW_BYTES`), 9 a command that does not serve the file's game (the README's
command x game table), 141 stdout closed by its reader, and ``128 + signal``
when stopped: 130 Ctrl-C, 143 SIGTERM, 129 SIGHUP.
"""

from __future__ import annotations

from pathlib import Path

from deckkit.textsafe import clipped, clipped_words, shown, shown_inline

EXIT_OK = 0
EXIT_ILLEGAL = 1
EXIT_BAD_INPUT = 2
EXIT_BAD_DATA = 3
EXIT_WORKER_DIED = 4
EXIT_CANNOT_WRITE = 5
EXIT_NO_DASK = 6
EXIT_NO_SCHEDULER = 7
EXIT_TOO_LARGE = 8
EXIT_NOT_SERVED = 9
# What `report --from` may hold of a saved run's rows in memory: the few narrow columns a page's
# distributions read, ~32 bytes a game plus a byte per card counter it shows. A run beyond it is
# refused (exit 8) before anything is read; the process peaks at about four times this figure.
MAX_REPORT_ROW_BYTES = 256 << 20
EXIT_INTERRUPTED = 130
EXIT_BROKEN_PIPE = 141


class DeckkitError(Exception):
    """Base of every error deckkit reports to a user rather than crashing on."""

    exit_code = EXIT_BAD_INPUT

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None = None,
        line: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.message = message
        self.path = Path(path) if path is not None else None
        self.line = line
        self.hint = hint
        super().__init__(self.render())

    def render(self) -> str:
        """The message for a terminal: text taken from files is shown escaped."""
        where = ""
        if self.path is not None:
            where = shown_inline(clipped(str(self.path), 240))
            if self.line is not None:
                where += f", line {self.line}"
            where += ": "
        elif self.line is not None:
            where = f"line {self.line}: "
        text = f"{where}{shown(clipped_words(self.message))}"
        if self.hint:
            text += f"\n  hint: {shown(clipped_words(self.hint))}"
        return text

    def as_dict(self) -> dict[str, object]:
        return {
            "error": self.message,
            "file": str(self.path) if self.path is not None else None,
            "line": self.line,
            "hint": self.hint,
        }


class UsageError(DeckkitError):
    """A command-line value that makes no sense (unknown edition, --players 0...)."""


class DeckFileError(DeckkitError):
    """A deck file that cannot be read: names the file, the line and what to do."""


class DeckProblems(DeckFileError):
    """Several problems in one deck file, all reported at once (one line each)."""

    def __init__(self, problems: list[DeckFileError], *, path: Path | str | None) -> None:
        self.problems = tuple(problems)
        super().__init__(f"{len(problems)} problems in this deck", path=path)

    def render(self) -> str:
        lines = [super().render()]
        for problem in self.problems:
            where = f"line {problem.line}: " if problem.line is not None else ""
            text = f"  {where}{shown(clipped_words(problem.message))}"
            if problem.hint:
                text += f" (hint: {shown(clipped_words(problem.hint))})"
            lines.append(text)
        return "\n".join(lines)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "problems": [p.as_dict() for p in self.problems]}


class TooLarge(DeckkitError):
    """A saved run whose rows a report cannot hold in :data:`MAX_REPORT_ROW_BYTES`."""

    exit_code = EXIT_TOO_LARGE


class NotServed(DeckkitError):
    """A command asked of a game it does not serve (deckkit.games.SERVES says why: the command
    has no meaning there, or is not written for that game yet): one line naming the game."""

    exit_code = EXIT_NOT_SERVED


class CannotWrite(DeckkitError):
    """An output that could not be written (a full disk, a file size limit, an I/O error);
    whatever the destination held before is left as it was."""

    exit_code = EXIT_CANNOT_WRITE


class CardDataError(DeckkitError):
    """A malformed row in the card database or an edition file: names file, line and field."""

    exit_code = EXIT_BAD_DATA
