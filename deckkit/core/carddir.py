"""Where the shipped card data lives: inside the installed package (the wheel force-includes
``card_db/`` as ``deckkit/card_db/``), else at the top of a source checkout. Each game keeps its
files in its own folder of it (``card_db/animayhem/``, ``card_db/animatactics/``,
``card_db/animus/``)."""

from __future__ import annotations

import os
from pathlib import Path

from deckkit.errors import CardDataError

PACKAGE = Path(__file__).resolve().parents[1]  # deckkit/
# Beside a game's card list, the folder of its cards' effect entries (Ani-Mayhem's
# ``card_db/animayhem/effects/*.toml``, docs/effects.md): what a balance snapshot freezes with
# each card's row (deckkit.balance.snapshot).
EFFECTS_DIR = "effects"
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


CARD_DB_ENV = "DECKKIT_CARD_DB"  # what `--card-db DIR` sets for every command and worker


def chosen_file(game_dir: str, names: tuple[str, ...], *, header_word: str) -> Path | None:
    """The file of this game in the database directory ``--card-db`` (``DECKKIT_CARD_DB``)
    names, or None when none is named (the shipped file is then used).

    ``DIR/GAME_DIR/NAME`` for the first NAME present; else ``DIR/NAME`` when that file's first
    line holds ``header_word`` (a column only this game's files have), so a folder holding one
    game's file alone also works; a file named directly is taken as it is. A named directory
    without this game's file is an error, never a silent fall back to the shipped data.
    """
    named = os.environ.get(CARD_DB_ENV, "").strip()
    if not named:
        return None
    root = Path(named)
    if not root.is_dir():
        return root
    for name in names:
        nested = root / game_dir / name
        if nested.exists() or nested.is_symlink():
            return nested
    for name in names:
        flat = root / name
        if flat.is_file():
            try:
                with flat.open(encoding="utf-8", errors="replace") as fh:
                    first = fh.readline(65_536)
            except OSError:
                continue
            if header_word in first:
                return flat
    raise CardDataError(
        f"the card database folder holds no {game_dir} file",
        path=root / game_dir / names[0],
        hint=f"copy the shipped card_db/{game_dir}/ into it, or leave --card-db (and "
        f"{CARD_DB_ENV}) out to use the shipped cards",
    )
