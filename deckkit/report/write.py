"""Where a report goes and how it is written: the page and its JSON sidecar, each whole or not
at all, together.

Without ``-o`` a report goes to ``reports/<deck file stem>.report.html``; generated files carry
the ``.report.`` infix so that git ignores them while other files in ``reports/`` (kept
baselines, say) stay tracked, and deckkit replaces its own earlier report there. A path given
with ``-o`` is the user's: it is never replaced without ``--force``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import IO, Any

from deckkit.analysis.output import check_writable, write_together
from deckkit.errors import UsageError
from deckkit.schema import ANI_MAYHEM, document

REPORTS_DIR = Path("reports")
SUFFIX = ".report.html"


def default_path(deck_path: str | Path, tag: str = "") -> Path:
    """``reports/<stem>[-tag].report.html``."""
    stem = Path(deck_path).stem or "deck"
    return REPORTS_DIR / f"{stem}{'-' + tag if tag else ''}{SUFFIX}"


def default_target(deck_path: str | Path) -> Path:
    """The default page path, creating ``reports/`` (deckkit's own directory) when missing."""
    REPORTS_DIR.mkdir(exist_ok=True)
    return default_path(deck_path)


def sidecar_of(html: Path) -> Path:
    """The JSON file beside a page: ``x.report.html`` -> ``x.report.json``."""
    return html.with_suffix(".json")


def check_output(path: Path, *, force: bool) -> None:
    """Fail before any game is played when the page or its sidecar could not be written."""
    if path.suffix.lower() != ".html":
        raise UsageError("the report must be an .html file", path=path, hint="e.g. -o my-deck.html")
    for target in (path, sidecar_of(path)):
        check_writable(target, force=force, what="the report")


def write_report(
    page: str, doc: dict[str, Any], path: Path, *, force: bool, game: str = ANI_MAYHEM
) -> Path:
    """Write the page and its sidecar, both whole or neither (every command's pages come
    through here); returns the sidecar's path. A failed write is exit 5 and leaves both files
    as they were. `game` names the game whose engine played (the sidecar's ``engine``)."""
    sidecar = sidecar_of(path)
    text = json.dumps(document(doc, game), indent=1, ensure_ascii=False, allow_nan=False)
    data = text.encode("utf-8")
    html = page.encode("utf-8")
    write_together(
        [(sidecar, lambda handle: _put(handle, data)), (path, lambda handle: _put(handle, html))],
        force=force,
    )
    return sidecar


def _put(handle: IO[bytes], data: bytes) -> None:
    handle.write(data)
