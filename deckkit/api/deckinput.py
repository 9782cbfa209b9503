"""Where every command reads a deck: a file, or ``-`` for standard input (read once, so that a
command that needs the deck's text again, for a run's metadata, gets the same bytes). The deck
is read by its game (:class:`~deckkit.core.game.DeckChecks`: Ani-Mayhem's), within the largest
deck file it reads."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from deckkit.errors import DeckFileError
from deckkit.games import card_runs, deck_checks
from deckkit.untrusted import read_bytes

STDIN = "-"
STDIN_NAME = "<stdin>"
_stdin: bytes | None = None  # the deck read from standard input, once per process


def is_stdin(path: Path | str) -> bool:
    return str(path) == STDIN


def stdin_bytes() -> bytes:
    """Standard input, read once (at most one byte past the deck size limit)."""
    global _stdin
    if _stdin is None:
        _stdin = sys.stdin.buffer.read(card_runs().max_file_bytes + 1)
    return _stdin


def forget_stdin() -> None:
    """Read standard input afresh next time (a new command in the same process: tests)."""
    global _stdin
    _stdin = None


def read_deck_arg(path: Path, db: Any | None = None) -> Any:
    """The deck a command line names: a file, or ``-`` for standard input (``db``: the card
    database it is read with, by default the one in use)."""
    if is_stdin(path):
        return deck_checks().parse_deck(stdin_bytes(), Path(STDIN_NAME), db)
    return deck_checks().read_deck(path, db)


def deck_bytes(path: Path) -> bytes:
    """The deck's bytes again (for a run's metadata), within the same bounds as the first read."""
    if is_stdin(path):
        return stdin_bytes()
    limit = card_runs().max_file_bytes
    return read_bytes(path, what="deck file", error=DeckFileError, limit=limit)
