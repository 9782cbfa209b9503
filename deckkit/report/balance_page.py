"""The summary page of `deckkit balance check --report DIR`: every check's verdict, the games
its sequential test used, the log-likelihood ratio's course against its bounds, and for drift
checks the change against the baseline with the cards that changed since. Written beside the
checked decks' own report pages (``DIR/balance.html`` and its JSON sidecar), linking to them."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import TYPE_CHECKING, Any

from deckkit.report import write

if TYPE_CHECKING:
    from deckkit.balance.checks import CheckResult

PAGE = "balance.html"
TEMPLATE = "balance.html.j2"
VERDICTS = ("pass", "fail", "inconclusive")


def summary_document(
    results: Sequence[CheckResult],
    *,
    source: str,
    exit_code: int,
    pages: dict[str, str],
    generated: datetime | None = None,
) -> dict[str, Any]:
    """The page's numbers (its JSON sidecar): the checks as `balance check --format json`
    gives them, and where each deck's own report is."""
    checks = []
    for r in results:
        doc = r.as_dict()
        doc["report_page"] = pages.get(r.check.slug)
        checks.append(doc)
    return {
        "report_version": 1,
        "file": source,
        "exit_code": exit_code,
        "generated": (generated or datetime.now(UTC)).strftime("%Y-%m-%d %H:%M UTC"),
        "counts": {v: sum(r.verdict == v for r in results) for v in VERDICTS},
        "checks": checks,
    }


def write_summary(
    results: Sequence[CheckResult],
    directory: Path,
    *,
    source: str,
    exit_code: int,
    pages: dict[str, str],
) -> Path:
    """Draw and write ``DIR/balance.html`` (replacing the one a previous check wrote)."""
    from markupsafe import Markup

    from deckkit.report import charts, render

    doc = summary_document(results, source=source, exit_code=exit_code, pages=pages)
    specs = {
        f"llr-{i}": charts.llr_chart(c["name"], c["llr_course"])
        for i, c in enumerate(doc["checks"])
        if c.get("llr_course")
    }
    svgs = {name: Markup(svg) for name, svg in charts.draw(specs).items()}
    page = render.render(doc, svgs, template=TEMPLATE)
    target = directory / PAGE
    write.write_report(page, doc, target, force=True)
    return target
