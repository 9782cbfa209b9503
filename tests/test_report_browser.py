"""A generated report in a real headless Chromium (Debian's package, driven by Playwright with
no browser download): no console error, no network request, charts drawn with a size, sortable
card tables, and a screenshot kept in the test's temp dir.

`make test` installs chromium when it is missing; where it cannot be installed this test is
skipped and says why.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

DECK = Path(__file__).resolve().parent.parent / "decks" / "demo-solo.deck"


def _browser_path() -> str:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("no Chromium found (`apt-get install -y chromium`; make test tries to install it)")


def test_report_in_a_real_browser(tmp_path: Path) -> None:
    executable = _browser_path()
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    page_path = tmp_path / "demo.html"
    result = CliRunner().invoke(
        app, ["report", str(DECK), "-n", "120", "--seed", "2", "-o", str(page_path), "-q"]
    )
    assert result.exit_code == 0, result.stderr
    url = page_path.as_uri()

    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True)
        try:
            page = browser.new_page(viewport={"width": 900, "height": 1200})
            page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.on("request", lambda r: requests.append(r.url))
            page.goto(url, wait_until="load")

            charts = page.locator("figure svg")
            assert charts.count() >= 5
            for i in range(charts.count()):
                box = charts.nth(i).bounding_box()
                assert box is not None and box["width"] > 50 and box["height"] > 50

            table = page.locator("#cards-disaster")
            column = 2  # "defeated" (per game), a numeric column

            def values() -> list[float]:
                cells = table.locator(f"tbody tr td:nth-child({column})")
                return [float(cells.nth(i).get_attribute("data-sort") or "nan")
                        for i in range(cells.count())]  # fmt: skip

            def names() -> list[str]:
                return table.locator("tbody tr td:first-child").all_inner_texts()

            before = names()
            header = table.locator(f"thead th:nth-child({column}) button")
            header.click()
            ascending = values()
            assert ascending == sorted(ascending)
            header.click()
            descending = values()
            assert descending == sorted(descending, reverse=True)
            assert names() != before or len(set(ascending)) == 1
            assert len(set(ascending)) > 1  # the demo deck's disasters differ: a real reorder
            assert sorted(names()) == sorted(before)  # same rows, reordered
            page.screenshot(path=str(tmp_path / "report.png"), full_page=True)
        finally:
            browser.close()

    assert errors == []
    assert [r for r in requests if r != url] == []
    assert (tmp_path / "report.png").stat().st_size > 10_000
