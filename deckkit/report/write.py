"""Where a report goes and how it is written: the page and its JSON sidecar, each whole or not
at all.

Without ``-o`` a report goes to ``reports/<deck file stem>.report.html``; generated files carry
the ``.report.`` infix so that git ignores them while other files in ``reports/`` (kept
baselines, say) stay tracked, and deckkit replaces its own earlier report there. A path given
with ``-o`` is the user's: it is never replaced without ``--force``.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from deckkit.analysis.output import write_bytes
from deckkit.errors import UsageError
from deckkit.schema import document

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
    """Fail before any game is played when the page could not be written."""
    if path.suffix.lower() != ".html":
        raise UsageError("the report must be an .html file", path=path, hint="e.g. -o my-deck.html")
    parent = path.parent if str(path.parent) else Path(".")
    if not parent.is_dir():
        raise UsageError("the directory for the report does not exist", path=path)
    for target in (path, sidecar_of(path)):
        if target.is_dir():
            raise UsageError("the report's path names a directory", path=target)
        if target.exists() and not force:
            raise UsageError(
                "refusing to overwrite an existing file",
                path=target,
                hint="pass --force to replace it, or choose another -o",
            )


def write_report(page: str, doc: dict[str, Any], path: Path, *, force: bool) -> Path:
    """Write the sidecar, then the page; returns the sidecar's path."""
    sidecar = sidecar_of(path)
    data = json.dumps(document(doc), indent=1, ensure_ascii=False, allow_nan=False).encode("utf-8")
    try:
        write_bytes(data, sidecar, force=force)
        write_bytes(page.encode("utf-8"), path, force=force)
    except OSError as err:
        raise UsageError(f"cannot write the report: {err.strerror or err}", path=path) from err
    return sidecar
