"""Per-game rows kept on disk as the games finish, so a run's memory does not grow with its
length.

Chunks of rows arrive from the runner in any order; they are put back in game order (only the
few chunks in flight wait in memory) and written, some tens of thousands of games at a time, as
Arrow IPC parts in a hidden temporary directory beside the run's output (same filesystem: no
other disk fills, and nothing is left in a shared ``/tmp``). Each part holds the counter columns
its games used; :meth:`RowSpool.frame` reads the parts back as one lazy frame with every counter
column the run saw, so the final file is streamed from the parts and equals what
:func:`deckkit.analysis.runner.rows_frame` makes of the same rows held in memory.

A run killed outright (SIGKILL, a power cut) cannot remove its directory; each directory names
its owner (this machine and the process) in an ``owner`` file, and the next spool beside the
same output removes the directories whose owner was a process of this machine that is gone.
"""

from __future__ import annotations

import contextlib
import glob
import os
import shutil
import socket
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from deckkit.analysis.runner import ROW_COLUMNS, Row, counter_column, rows_frame
from deckkit.errors import CannotWrite

if TYPE_CHECKING:
    import polars as pl

PART_GAMES = 4_000  # games per part: rows held as Python tuples (kilobytes a game) until written


OWNER_FILE = "owner"


def _owner(pid: int | None = None) -> str:
    return f"{socket.gethostname()}\n{os.getpid() if pid is None else pid}\n"


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # alive, another user's
        return False
    return False


def _pid_in_name(folder: str, beside: str) -> str:
    """The creating process's id a spool folder's name carries (``.NAME.PID.RANDOM.rows.partial``),
    or "0" (never removed) for a name without one."""
    rest = folder[len(beside) + 2 :].split(".", 1)[0]
    return rest if rest.isdigit() else "0"


def remove_stranded(beside: Path) -> list[Path]:
    """Remove the spool directories beside ``beside`` left by runs of this machine that were
    killed before they could remove them (their owner process is gone); the removed ones."""
    directory = beside.parent if str(beside.parent) else Path(".")
    pattern = str(directory / f".{glob.escape(beside.name)}.*.rows.partial")
    host = socket.gethostname()
    removed: list[Path] = []
    for found in glob.glob(pattern):
        path = Path(found)
        with contextlib.suppress(OSError, ValueError):
            if path.is_symlink() or not path.is_dir():
                continue
            owner_file = path / OWNER_FILE
            if owner_file.exists():
                if owner_file.stat().st_size > 1000:
                    continue
                name, pid, *_ = owner_file.read_text(encoding="utf-8").split("\n")
            else:  # killed between creating the folder and writing its owner: the name's pid
                name, pid = host, _pid_in_name(path.name, beside.name)
            if name == host and int(pid) > 0 and _gone(int(pid)):
                shutil.rmtree(path, ignore_errors=True)
                removed.append(path)
    return removed


class RowSpool:
    """Rows of a run on disk, in game order. Use as a context manager: the parts are removed
    on exit, whatever happened."""

    def __init__(self, beside: Path, first: int = 0, part_games: int = PART_GAMES) -> None:
        directory = beside.parent if str(beside.parent) else Path(".")
        remove_stranded(beside)
        try:
            self.directory = Path(
                tempfile.mkdtemp(
                    prefix=f".{beside.name}.{os.getpid()}.", suffix=".rows.partial", dir=directory
                )
            )
            (self.directory / OWNER_FILE).write_text(_owner(), encoding="utf-8")
        except OSError as err:
            raise CannotWrite(
                f"cannot keep the per-game rows beside the output: {err.strerror or err}",
                path=beside,
            ) from None
        self.beside = beside
        self.part_games = part_games
        self.next = first
        self.waiting: dict[int, list[Row]] = {}
        self.gathered: list[Row] = []
        self.parts: list[Path] = []
        self.keys: set[tuple[str, str]] = set()
        self.games = 0

    def __enter__(self) -> RowSpool:
        return self

    def __exit__(self, *exc: object) -> None:
        self.remove()

    def remove(self) -> None:
        shutil.rmtree(self.directory, ignore_errors=True)

    def add(self, start: int, rows: list[Row]) -> None:
        """The rows of games ``start, start + 1, ...`` (one chunk)."""
        self.games += len(rows)
        self.waiting[start] = rows
        while self.next in self.waiting:
            chunk = self.waiting.pop(self.next)
            self.gathered.extend(chunk)
            self.next += len(chunk) or 1
        if len(self.gathered) >= self.part_games:
            self._write_part()

    def close(self) -> None:
        """Write what is still held: chunks after a gap (an interrupted run) in game order."""
        for start in sorted(self.waiting):
            self.gathered.extend(self.waiting.pop(start))
        if self.gathered:
            self._write_part()

    def _write_part(self) -> None:
        rows, self.gathered = self.gathered, []
        for row in rows:
            self.keys.update(row[-1])
        part = self.directory / f"{len(self.parts):06d}.parquet"
        try:
            rows_frame(rows).write_parquet(part, compression="lz4", statistics=False)
        except Exception as err:  # OSError, or polars' own error for a full disk
            raise CannotWrite(
                f"cannot keep the per-game rows beside the output: {err}", path=self.beside
            ) from None
        self.parts.append(part)

    def columns(self) -> list[str]:
        """Every column of the run's rows, in the order rows_frame gives them."""
        return [name for name, _ in ROW_COLUMNS] + [counter_column(*k) for k in sorted(self.keys)]

    def frame(self) -> pl.LazyFrame:
        """All rows, in game order, as one lazy frame (read from the parts as it is used)."""
        import polars as pl

        self.close()
        if not self.parts:
            return rows_frame([]).lazy()
        names = self.columns()
        fixed = {name: getattr(pl, dtype) for name, dtype in ROW_COLUMNS}
        schema = {name: fixed.get(name, pl.Int64) for name in names}
        # One scan over every part (a concatenation of one scan per part grows with their
        # number); a part without some counter column gets it as zeros.
        counters = [pl.col(n).fill_null(0) for n in names if n not in fixed]
        return (
            pl.scan_parquet(self.parts, schema=schema, missing_columns="insert")
            .with_columns(counters)
            .select(names)
        )
