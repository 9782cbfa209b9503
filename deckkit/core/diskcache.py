"""A per-user cache of values that are slow to build from their sources and quick to check.

Its one use is the parsed Ani-Mayhem card database: parsing and validating cards.csv and the
effect files takes about 0.12 s of CPU, a third of a short command such as `deckkit validate`,
while reading it back from here takes about 0.02 s. The caller names each entry and gives a key
that covers everything the value was built from (the sources' bytes, the code that parsed them);
an entry whose key differs is a miss, and the caller rebuilds the value and stores it again.

Where: ``$DECKKIT_CACHE_DIR``, else ``$XDG_CACHE_HOME/deckkit``, else ``~/.cache/deckkit``.
``DECKKIT_NO_CACHE=1`` turns the cache off (every value is built from its sources).

A cache can only cost time, never change a result: anything wrong with an entry (missing,
truncated, corrupt, written for another key or by another version, not a regular file, owned by
another user or writable by others) is a miss; a directory that cannot be created or written
leaves the value unstored. An entry is written to a temporary file beside it and renamed over
it, so a concurrent reader (a worker process, another command) sees the old entry or the new
one, never part of one. Entries are pickles, so only files the current user owns and no one
else can write are read.

Entries are named FAMILY-ID.SUFFIX (one card database per place it is read from), so a user who
reads databases from many places would gather entries for good: a hit marks its entry used
(its modification time), and each store removes the entries of its family unused for
:data:`MAX_AGE_DAYS`.
"""

from __future__ import annotations

import contextlib
import os
import pickle
import stat
import tempfile
import time
from pathlib import Path

CACHE_DIR_ENV = "DECKKIT_CACHE_DIR"
NO_CACHE_ENV = "DECKKIT_NO_CACHE"
# What every entry starts with, so that a file of another kind (or of an older layout of this
# one) is a miss before it is unpickled.
MAGIC = b"deckkit-cache-1\n"
# An entry of a family not read or written for this long is removed at the family's next store.
MAX_AGE_DAYS = 30


def cache_dir() -> Path | None:
    """The cache directory (not created here), or None when the cache is turned off."""
    if os.environ.get(NO_CACHE_ENV, "").strip() not in ("", "0"):
        return None
    named = os.environ.get(CACHE_DIR_ENV, "").strip()
    if named:
        return Path(named)
    xdg = os.environ.get("XDG_CACHE_HOME", "").strip()
    if xdg and Path(xdg).is_absolute():  # the XDG spec ignores a relative path
        return Path(xdg) / "deckkit"
    try:
        return Path.home() / ".cache" / "deckkit"
    except RuntimeError:  # no home directory to be found
        return None


def _trusted(info: os.stat_result) -> bool:
    """A regular file this user owns and nobody else may write: safe to unpickle."""
    if not stat.S_ISREG(info.st_mode) or info.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
        return False
    getuid = getattr(os, "getuid", None)
    return getuid is None or info.st_uid == getuid()


def load(name: str, key: str) -> object | None:
    """The value stored under ``name`` for ``key``, or None (a miss, whatever the reason)."""
    directory = cache_dir()
    if directory is None:
        return None
    path = directory / name
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | getattr(os, "O_CLOEXEC", 0))
    except OSError:
        return None
    try:
        with os.fdopen(fd, "rb") as handle:
            if not _trusted(os.fstat(handle.fileno())):
                return None
            os.set_blocking(handle.fileno(), True)
            if handle.read(len(MAGIC)) != MAGIC:
                return None
            stored_key = handle.readline(256).rstrip(b"\n").decode("ascii", errors="replace")
            if stored_key != key:
                return None
            value: object = pickle.load(handle)
    except Exception:  # a damaged entry of any kind is a miss, never an error
        return None
    with contextlib.suppress(OSError):
        os.utime(path)  # used now: not pruned while it serves
    return value


def store(name: str, key: str, value: object) -> bool:
    """Store ``value`` under ``name`` for ``key``; False when it could not be (no error)."""
    directory = cache_dir()
    if directory is None:
        return False
    try:
        directory.mkdir(mode=0o700, parents=True, exist_ok=True)
        data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
        fd, temporary = tempfile.mkstemp(prefix=f".{name}.", dir=directory)
    except Exception:  # unwritable place, unpicklable value: nothing stored
        return False
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(MAGIC)
            handle.write(key.encode("ascii") + b"\n")
            handle.write(data)
        os.replace(temporary, directory / name)
    except Exception:  # a full disk or a vanished directory: nothing stored
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        return False
    prune(directory, name)
    return True


def prune(directory: Path, name: str, now: float | None = None) -> list[str]:
    """Remove the entries of ``name``'s family (the part before its last ``-``, and its
    suffix) that no load or store has used for :data:`MAX_AGE_DAYS`; the names removed. Only
    this user's regular files are touched, and any error leaves the entry where it is."""
    stem, dash, last = name.rpartition("-")
    if not dash:
        return []
    suffix = Path(last).suffix
    oldest = (time.time() if now is None else now) - MAX_AGE_DAYS * 86_400
    removed = []
    try:
        entries = list(os.scandir(directory))
    except OSError:
        return []
    for entry in entries:
        if (
            entry.name == name
            or not entry.name.startswith(stem + "-")
            or not entry.name.endswith(suffix)
        ):
            continue
        try:
            info = entry.stat(follow_symlinks=False)
            if _trusted(info) and info.st_mtime < oldest:
                os.unlink(entry.path)
                removed.append(entry.name)
        except OSError:
            continue
    return removed
