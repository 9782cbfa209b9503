"""Reading files a user hands deckkit (deck files, card databases, edition and balance files,
baselines, saved runs) with the same bounds everywhere.

Only regular files are read: a FIFO would block forever and a device (``/dev/zero``) never ends.
The file is opened without blocking and checked on the open descriptor, so a name swapped for a
FIFO between a check and the open cannot hang the command. At most ``limit`` bytes are read;
a bigger file is refused before it costs memory. TOML and JSON nested deeper than Python's
parsers can follow are refused as such rather than as a ``RecursionError``.

Each caller names what the file is (``"card database"``) and the error type its command maps to
an exit code, so the message and the code stay those of the command.
"""

from __future__ import annotations

import json
import os
import stat
import tomllib
from pathlib import Path
from typing import Any

from deckkit.errors import DeckkitError, UsageError

# Real card databases, edition files, balance files and baselines are a few hundred kilobytes
# at most; anything this size is not one of them.
MAX_DATA_BYTES = 16 << 20


def _size_text(limit: int) -> str:
    if limit >= 1 << 20 and limit % (1 << 20) == 0:
        return f"{limit >> 20} MiB"
    if limit >= 1 << 10 and limit % (1 << 10) == 0:
        return f"{limit >> 10} KiB"
    return f"{limit:,} bytes"


def check_regular(
    path: Path, *, what: str, error: type[DeckkitError] = UsageError, hint: str | None = None
) -> os.stat_result:
    """The file's status if it is a regular file (following links); else ``error``."""
    try:
        info = path.stat()
    except OSError as err:
        raise error(f"cannot read {what}: {err.strerror or err}", path=path, hint=hint) from None
    if not stat.S_ISREG(info.st_mode):
        kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
        raise error(f"cannot read {what}: {kind}", path=path, hint=hint)
    return info


def read_bytes(
    path: Path,
    *,
    what: str,
    error: type[DeckkitError] = UsageError,
    limit: int = MAX_DATA_BYTES,
    hint: str | None = None,
) -> bytes:
    """The bytes of a regular file of at most ``limit`` bytes, or ``error`` naming the file."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError as err:
        raise error(f"cannot read {what}: {err.strerror or err}", path=path, hint=hint) from None
    mode = os.fstat(fd).st_mode
    if not stat.S_ISREG(mode):
        os.close(fd)
        kind = "a directory" if stat.S_ISDIR(mode) else "not a regular file"
        raise error(f"cannot read {what}: {kind}", path=path, hint=hint)
    os.set_blocking(fd, True)
    with os.fdopen(fd, "rb") as handle:
        try:
            data = handle.read(limit + 1)
        except OSError as err:
            raise error(
                f"cannot read {what}: {err.strerror or err}", path=path, hint=hint
            ) from None
    if len(data) > limit:
        raise error(
            f"{what} is larger than {_size_text(limit)}: not a {what}", path=path, hint=hint
        )
    return data


def read_head(path: Path, limit: int) -> bytes | None:
    """At most the first ``limit`` bytes of a regular file, or None when it is not one or
    cannot be read: for a look at a file's header (which game it is for) before the file's
    own reader reports whatever is wrong with it. Never blocks on a FIFO."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except (OSError, ValueError):
        return None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        os.set_blocking(fd, True)
        return os.read(fd, limit)
    except OSError:
        return None
    finally:
        os.close(fd)


def read_text(
    path: Path,
    *,
    what: str,
    error: type[DeckkitError] = UsageError,
    limit: int = MAX_DATA_BYTES,
    hint: str | None = None,
) -> str:
    """:func:`read_bytes`, decoded as UTF-8 (a BOM is dropped)."""
    data = read_bytes(path, what=what, error=error, limit=limit, hint=hint)
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        raise error(
            f"{what} is not UTF-8 text (byte {err.start})", path=path, hint="save it as UTF-8"
        ) from None


def parse_toml(text: str, path: Path, *, what: str, error: type[DeckkitError]) -> dict[str, Any]:
    """TOML text, or ``error`` (malformed, or nested too deeply to follow)."""
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        raise error(f"malformed TOML: {err}", path=path) from None
    except RecursionError:
        raise error(f"{what} is nested too deeply to be read", path=path) from None


def parse_json(text: str, path: Path, *, what: str, error: type[DeckkitError]) -> Any:
    """JSON text, or ``error`` (malformed, or nested too deeply to follow)."""
    try:
        return json.loads(text)
    except ValueError as err:
        raise error(f"{what} is not valid JSON: {err}", path=path) from None
    except RecursionError:
        raise error(f"{what} is nested too deeply to be read", path=path) from None


def load_toml(
    path: Path,
    *,
    what: str,
    error: type[DeckkitError] = UsageError,
    limit: int = MAX_DATA_BYTES,
) -> dict[str, Any]:
    """A TOML file within the bounds."""
    text = read_text(path, what=what, error=error, limit=limit)
    return parse_toml(text, path, what=what, error=error)
