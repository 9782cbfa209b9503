"""Writing outputs: whole files or nothing, and never over a file the user did not name.

Every output (per-game rows, report pages and their JSON sidecars, comparison pages) goes to a
uniquely named temporary file in the destination's directory (same filesystem, so the final
rename is atomic), which is flushed to disk and then moved into place. A failure at any point
removes the temporary file and leaves the destination as it was. Without ``force`` the move is a
hard link, which fails if the destination appeared meanwhile, rather than a rename, which would
silently replace it. A write that fails (a full disk, a file size limit) is
:class:`~deckkit.errors.CannotWrite`, exit 5, whichever library was writing.

:func:`write_together` writes several files as one: a page and its sidecar both appear, or
neither does (and files they replace come back).
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import IO, TYPE_CHECKING

from deckkit.errors import CannotWrite, UsageError

if TYPE_CHECKING:  # polars is imported by whoever builds the frame, not by every command
    import polars as pl

FORMATS: dict[str, str] = {".parquet": "parquet", ".csv": "csv"}
Fill = Callable[[IO[bytes]], None]
ROW_GROUP_ROWS = 50_000


def out_format(path: Path) -> str:
    """``"parquet"`` or ``"csv"`` from the file name; anything else is a usage error."""
    fmt = FORMATS.get(path.suffix.lower())
    if fmt is None:
        raise UsageError(
            f"--out must end in .parquet or .csv, not {path.suffix or 'no extension'!r}",
            path=path,
            hint="e.g. --out games.parquet",
        )
    return fmt


def directory_of(path: Path) -> Path:
    return path.parent if str(path.parent) else Path(".")


def check_writable(path: Path, *, force: bool, what: str) -> None:
    """Fail before any game is played if ``path`` could not be written: a missing directory, a
    directory in its place, an existing file (or a link, even a dangling one) without
    ``force``, or a directory where no file can be created."""
    parent = directory_of(path)
    if not parent.is_dir():
        raise UsageError(f"the directory for {what} does not exist", path=path)
    if path.is_dir():
        raise UsageError(f"{what} names a directory, not a file", path=path)
    if (path.exists() or path.is_symlink()) and not force:
        raise UsageError(
            "refusing to overwrite an existing file", path=path, hint="pass --force to replace it"
        )
    try:  # the output is written beside the destination first: that must be possible
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as err:
        raise UsageError(
            f"cannot write in the directory for {what}: {err.strerror or err}", path=path
        ) from None


def check_destination(path: Path, *, force: bool) -> str:
    """Fail before any game is played if the rows could not be written to ``--out``. Returns
    the format."""
    fmt = out_format(path)
    check_writable(path, force=force, what="--out")
    return fmt


@contextlib.contextmanager
def _cannot_write(path: Path) -> Iterator[None]:
    """Any failure to write, from the OS or from polars' own writers, as CannotWrite."""
    try:
        yield
    except (CannotWrite, UsageError, KeyboardInterrupt):
        raise
    except OSError as err:
        raise CannotWrite(f"cannot write: {err.strerror or err}", path=path) from None
    except Exception as err:  # polars raises its own error types (a full disk among them)
        if type(err).__module__.split(".")[0] != "polars":
            raise
        first = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise CannotWrite(f"cannot write: {first}", path=path) from None


def _temporary(path: Path, fill: Fill) -> Path:
    """A finished, flushed temporary file beside ``path``; removed again on any failure."""
    fd, tmp_name = tempfile.mkstemp(
        prefix=f".{path.name}.", suffix=".partial", dir=directory_of(path)
    )
    tmp = Path(tmp_name)
    try:
        with _cannot_write(path):
            os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
            with os.fdopen(fd, "wb") as handle:
                fill(handle)
                handle.flush()
                os.fsync(handle.fileno())
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise
    return tmp


def write_atomic(path: Path, fill: Fill, *, force: bool = False) -> None:
    """Write ``path`` whole or not at all; ``fill`` writes the content into a binary file."""
    write_together([(path, fill)], force=force)


def write_together(outputs: Sequence[tuple[Path, Fill]], *, force: bool = False) -> None:
    """Write every file whole, then put them all in place, or none: on any failure the
    temporary files are removed, the files already put in place taken back, and files they
    replaced restored."""
    temps: list[Path] = []
    placed: list[tuple[Path, Path | None]] = []  # (destination, backup of what it replaced)
    try:
        for path, fill in outputs:
            temps.append(_temporary(path, fill))
        for (path, _), tmp in zip(outputs, temps, strict=True):
            with _cannot_write(path):
                backup = _backup(path) if force else None
                try:
                    _publish(tmp, path, force=force)
                except BaseException:
                    if backup is not None:
                        os.replace(backup, path)
                    raise
            placed.append((path, backup))
    except BaseException:
        for tmp in temps:
            with contextlib.suppress(FileNotFoundError):
                tmp.unlink()
        for path, backup in reversed(placed):
            with contextlib.suppress(OSError):
                if backup is not None:
                    os.replace(backup, path)
                else:
                    path.unlink()
        raise
    for _, backup in placed:
        if backup is not None:
            with contextlib.suppress(OSError):
                backup.unlink()


def _backup(path: Path) -> Path | None:
    """A hard link to the file ``path`` names now, to restore it if a later step fails."""
    if not (path.exists() or path.is_symlink()):
        return None
    backup = path.with_name(f".{path.name}.{os.getpid()}.previous")
    with contextlib.suppress(FileNotFoundError):
        backup.unlink()
    try:
        os.link(path, backup, follow_symlinks=False)
    except OSError:  # no hard links here: the replaced file cannot be brought back
        return None
    return backup


def write_frame(
    frame: pl.DataFrame | pl.LazyFrame,
    path: Path,
    *,
    force: bool = False,
    metadata: dict[str, str] | None = None,
) -> None:
    """Write ``frame`` to ``path`` (format from the extension) atomically. A lazy frame is
    streamed to the file, never held whole. ``metadata`` goes into a Parquet file's key-value
    metadata (a CSV file has none)."""
    fmt = out_format(path)

    def fill(handle: IO[bytes]) -> None:
        lazy = frame.lazy()
        if fmt == "parquet":
            # Row groups of a bounded size: the writer holds one group while it fills.
            lazy.sink_parquet(handle, metadata=metadata, row_group_size=ROW_GROUP_ROWS)
        else:
            lazy.sink_csv(handle)

    write_atomic(path, fill, force=force)


def write_bytes(data: bytes, path: Path, *, force: bool = False) -> None:
    """Write ``data`` to ``path`` atomically, with the same no-overwrite rule as
    :func:`write_frame`."""

    def fill(handle: IO[bytes]) -> None:
        handle.write(data)

    write_atomic(path, fill, force=force)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


def _publish(tmp: Path, path: Path, *, force: bool) -> None:
    if force:
        os.replace(tmp, path)
        return
    try:
        os.link(tmp, path)  # fails, rather than replaces, if the destination exists
    except FileExistsError:
        raise UsageError(
            "refusing to overwrite an existing file", path=path, hint="pass --force to replace it"
        ) from None
    except OSError:  # a filesystem without hard links: check, then rename
        if path.exists() or path.is_symlink():
            raise UsageError(
                "refusing to overwrite an existing file",
                path=path,
                hint="pass --force to replace it",
            ) from None
        os.replace(tmp, path)
        return
    tmp.unlink()
