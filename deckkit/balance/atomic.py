"""Whole files or nothing for the balance commands' outputs (baselines, JUnit files): the same
writer as every other output (:func:`deckkit.analysis.output.write_atomic`), replacing the file
it names, with a failed write reported as exit 5."""

from __future__ import annotations

from pathlib import Path
from typing import IO

from deckkit.analysis.output import write_atomic


def write_text_atomic(path: Path, text: str) -> None:
    """Replace ``path`` with ``text`` in one rename; on any failure the destination is left as
    it was and the temporary file removed."""
    data = text.encode("utf-8")

    def fill(handle: IO[bytes]) -> None:
        handle.write(data)

    write_atomic(path, fill, force=True)
