"""Writing per-game rows: whole files or nothing, and never over a file the user did not name.

The rows go to a uniquely named temporary file in the destination's directory (same filesystem,
so the final rename is atomic), which is flushed to disk and then moved into place. A failure at
any point removes the temporary file and leaves the destination as it was. Without ``force`` the
move is a hard link, which fails if the destination appeared meanwhile, rather than a rename,
which would silently replace it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from pathlib import Path
from typing import TYPE_CHECKING

from deckkit.errors import UsageError

if TYPE_CHECKING:  # polars is imported by whoever builds the frame, not by every command
    import polars as pl

FORMATS: dict[str, str] = {".parquet": "parquet", ".csv": "csv"}


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


def check_destination(path: Path, *, force: bool) -> str:
    """Fail before any game is played if the rows could not be written: wrong extension, missing
    directory, or an existing file without ``force``. Returns the format."""
    fmt = out_format(path)
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError("the directory for --out does not exist", path=path)
    if path.is_dir():
        raise UsageError("--out names a directory, not a file", path=path)
    if path.exists() and not force:
        raise UsageError(
            "refusing to overwrite an existing file", path=path, hint="pass --force to replace it"
        )
    try:  # the rows are written beside the destination first: that must be possible
        with tempfile.TemporaryFile(dir=parent):
            pass
    except OSError as err:
        raise UsageError(
            f"cannot write in the directory for --out: {err.strerror or err}", path=path
        ) from None
    return fmt


def write_frame(frame: pl.DataFrame, path: Path, *, force: bool = False) -> None:
    """Write ``frame`` to ``path`` (format from the extension) atomically."""
    fmt = out_format(path)
    directory = path.parent if str(path.parent) else Path(".")
    fd, tmp_name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".partial", dir=directory)
    tmp = Path(tmp_name)
    try:
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give the usual permissions
        with os.fdopen(fd, "wb") as handle:
            if fmt == "parquet":
                frame.write_parquet(handle)
            else:
                frame.write_csv(handle)
            handle.flush()
            os.fsync(handle.fileno())
        _publish(tmp, path, force=force)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()
        raise


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
        if path.exists():
            raise UsageError(
                "refusing to overwrite an existing file",
                path=path,
                hint="pass --force to replace it",
            ) from None
        os.replace(tmp, path)
        return
    tmp.unlink()
