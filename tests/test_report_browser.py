"""A generated report in a real headless Chromium (Debian's package, driven by Playwright with
no browser download), at a desktop width (1400 px) and a phone's (375 px), in light and dark
mode: the headline with the win rate shows without scrolling, every chart's text shows at 11 px
or more, charts carry a title and description for screen readers, the page makes no network
request and logs no console error, card tables sort, and screenshots land in the test's temp dir.

A real browser is end to end (a Chromium process, seconds a view): the test is marked slow and
runs in `make test-slow` (CI runs it), which installs chromium when it is missing; where it
cannot be installed this test is skipped and says why.
"""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

DECK = Path(__file__).resolve().parent.parent / "decks" / "demo-solo.deck"
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
VIEWPORTS = {"desktop": (1400, 900), "phone": (375, 667)}
MIN_TEXT_PX = 11.0

# The size each chart text is drawn at on screen: its font size in the SVG's units times the
# scale the page applies (the SVG shrinks with its column), rotation included.
SMALLEST_CHART_TEXT = """() => {
  let smallest = Infinity, count = 0;
  for (const text of document.querySelectorAll("figure svg text")) {
    if (!text.textContent.trim()) continue;
    const m = text.getScreenCTM();
    const size = parseFloat(getComputedStyle(text).fontSize) * Math.hypot(m.a, m.b);
    smallest = Math.min(smallest, size);
    count += 1;
  }
  return [smallest, count];
}"""


def _browser_path() -> str:
    for candidate in (
        "/usr/bin/chromium",
        shutil.which("chromium"),
        shutil.which("chromium-browser"),
    ):
        if candidate and Path(candidate).exists():
            return candidate
    pytest.skip("no Chromium found (`apt-get install -y chromium`; make test-slow installs it)")


def _check_view(page: Any, name: str, height: int, tmp_path: Path) -> None:
    headline = page.locator("#headline-win")
    box = headline.bounding_box()
    assert box is not None, name
    assert box["y"] >= 0 and box["y"] + box["height"] <= height, (name, box)
    assert "%" in headline.inner_text() and "games" in headline.inner_text()

    smallest, count = page.evaluate(SMALLEST_CHART_TEXT)
    assert count > 50, name
    assert smallest >= MIN_TEXT_PX, f"{name}: chart text drawn at {smallest:.1f} px"
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= page.viewport_size["width"], f"{name}: the page scrolls sideways ({width})"

    charts = page.locator("figure svg")
    assert charts.count() >= 7  # the impact chart too, measured by default
    for i in range(charts.count()):
        chart = charts.nth(i)
        box = chart.bounding_box()
        assert box is not None and box["width"] > 50 and box["height"] > 50
        assert chart.get_attribute("role") == "img"
        title = chart.locator("title").first.text_content() or ""
        description = chart.locator("desc").first.text_content() or ""
        assert title.strip() and len(description) > 20, (name, i)
    page.screenshot(path=str(tmp_path / f"report-{name}.png"), full_page=False)


@pytest.mark.slow  # a real Chromium: end to end (make test-slow, run by CI)
def test_report_in_a_real_browser(tmp_path: Path) -> None:
    executable = _browser_path()
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    page_path = tmp_path / "demo.html"
    # 500 games: the impact budget (as many) then pays for one card's five stand-ins.
    result = CliRunner().invoke(
        app, ["report", str(DECK), "-n", "500", "--seed", "2", "-o", str(page_path), "-q"]
    )
    assert result.exit_code == 0, result.stderr
    url = page_path.as_uri()

    errors: list[str] = []
    requests: list[str] = []
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            for scheme in ("light", "dark"):
                for name, (width, height) in VIEWPORTS.items():
                    page = browser.new_page(
                        viewport={"width": width, "height": height}, color_scheme=scheme
                    )
                    page.on("console", lambda m: m.type == "error" and errors.append(m.text))
                    page.on("pageerror", lambda e: errors.append(str(e)))
                    page.on("request", lambda r: requests.append(r.url))
                    page.goto(url, wait_until="load")
                    _check_view(page, f"{name}-{scheme}", height, tmp_path)
                    if scheme == "dark":  # the page follows the reader's colour scheme
                        style = "getComputedStyle(document.body).backgroundColor"
                        assert page.evaluate(style) != "rgb(255, 255, 255)"
                    page.close()

            page = browser.new_page(viewport={"width": 1400, "height": 900})
            page.on("pageerror", lambda e: errors.append(str(e)))
            page.goto(url, wait_until="load")
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
            assert len(set(ascending)) > 1  # the demo deck's disasters differ: a real reorder
            assert sorted(names()) == sorted(before)  # same rows, reordered
            # the typical games' traces are folded, and open on a click
            trace = page.locator("#typical details").first
            assert not trace.locator("pre").is_visible()
            trace.locator("summary").click()
            assert trace.locator("pre").is_visible()
            page.screenshot(path=str(tmp_path / "report-full.png"), full_page=True)
        finally:
            browser.close()

    assert errors == []
    assert [r for r in requests if r != url] == []
    for shot in ("desktop-light", "phone-light", "desktop-dark", "phone-dark", "full"):
        assert (tmp_path / f"report-{shot}.png").stat().st_size > 10_000
