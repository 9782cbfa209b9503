"""The page of a party's or team's saved rows (``deckkit report --from RUN.parquet`` of a run
that ``deckkit simulate PARTY_OR_TEAM --vs OTHER --out RUN.parquet`` wrote), without playing a
game: the rows and their metadata are read through the game interface
(:mod:`deckkit.analysis.saved_matches`), the page is laid out by :mod:`deckkit.report.match_page`
and its charts drawn in the report's chart process, and the page and its JSON sidecar are
written together (:mod:`deckkit.report.write`). No game package is imported here."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from deckkit.analysis.saved_matches import match_document, open_saved_match
from deckkit.api.display import ReportResult
from deckkit.report import write
from deckkit.report.chart_process import ChartProcess

Notify = Callable[[str], None]


def _silent(message: str) -> None:
    del message


def default_page(first: str, second: str) -> Path:
    """``reports/<first file>-vs-<second file>.report.html``, as ``deckkit report PARTY --vs
    OTHER`` names its page (``reports/`` is created when missing)."""
    write.REPORTS_DIR.mkdir(exist_ok=True)
    return write.default_path(first, f"vs-{Path(second).stem}")


def write_match_report_from_saved(
    source: str | Path,
    out: str | Path | None = None,
    *,
    force: bool = False,
    notify: Notify = _silent,
) -> ReportResult:
    """The page of a saved run of a two-sided game (Anima Tactics parties, Animus teams) and
    its JSON sidecar: it leads with the first side's win rate and its 95% interval, then who
    wins how often, the end reasons by code with the game's words, the game length and each
    side's counters. Without ``out`` the page goes to ``reports/`` beside deckkit's other pages
    (replacing deckkit's own earlier page of the same two files); a path given is replaced only
    with ``force``. Notices (a file changed since the run, an interrupted run) go to
    ``notify`` and onto the page."""
    target_out = Path(out) if out is not None else None
    # The chart renderer starts first, in its own process, so its start-up overlaps the reading.
    with ChartProcess() as drawer:
        saved = open_saved_match(Path(source))
        files = saved.meta["files"]
        target = target_out or default_page(files[0]["path"], files[1]["path"])
        write.check_output(target, force=force or target_out is None)
        doc = match_document(saved)
        for notice in doc["notices"]:
            notify(f"note: {notice}")
        from deckkit.report import match_page

        drawer.send(match_page.specs(doc))
        svgs = drawer.receive()
        if drawer.crashed:
            notify("warning: the chart renderer stopped; the page is written without its charts")
        page = match_page.render(doc, svgs)
        sidecar = write.write_report(
            page, doc, target, force=force or target_out is None, game=saved.game.name
        )
    return ReportResult(target, sidecar, None, 0, doc)
