"""Where every command reads a deck: a file, or ``-`` for standard input (read once, so that a
command that needs the deck's text again, for a run's metadata, gets the same bytes)."""

from __future__ import annotations

import sys
from pathlib import Path

from deckkit.animayhem.construction.carddb import CardDB
from deckkit.animayhem.construction.deck import (
    MAX_DECK_BYTES,
    Deck,
    parse_deck_bytes,
    read_deck,
)
from deckkit.errors import DeckFileError
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
        _stdin = sys.stdin.buffer.read(MAX_DECK_BYTES + 1)
    return _stdin


def forget_stdin() -> None:
    """Read standard input afresh next time (a new command in the same process: tests)."""
    global _stdin
    _stdin = None


def read_deck_arg(path: Path, db: CardDB | None = None) -> Deck:
    """The deck a command line names: a file, or ``-`` for standard input (``db``: the card
    database it is read with, by default the one in use)."""
    if db is None:
        from deckkit.animayhem.construction.carddb import load_card_db

        db = load_card_db()
    if is_stdin(path):
        return parse_deck_bytes(stdin_bytes(), db, Path(STDIN_NAME))
    return read_deck(path, db)


def deck_bytes(path: Path) -> bytes:
    """The deck's bytes again (for a run's metadata), within the same bounds as the first read."""
    if is_stdin(path):
        return stdin_bytes()
    return read_bytes(path, what="deck file", error=DeckFileError, limit=MAX_DECK_BYTES)
