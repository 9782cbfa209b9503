"""Where the shipped card data lives: inside the installed package (the wheel force-includes
``card_db/`` as ``deckkit/card_db/``), else at the top of a source checkout. Each game keeps its
files in its own folder of it (``card_db/animayhem/``, ``card_db/animatactics/``,
``card_db/animus/``)."""

from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]  # deckkit/
CANDIDATES = (PACKAGE / "card_db", PACKAGE.parent / "card_db")


def shipped_file(game_dir: str, name: str) -> Path | None:
    """``card_db/GAME_DIR/NAME`` in the first place that has it, or None."""
    for candidate in CANDIDATES:
        path = candidate / game_dir / name
        if path.is_file():
            return path
    return None


def expected_file(game_dir: str, name: str) -> Path:
    """Where a missing shipped file was looked for last (a source checkout's ``card_db/``), for
    the message that says it is missing."""
    return CANDIDATES[-1] / game_dir / name
