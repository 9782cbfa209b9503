"""Every kind of page deckkit writes, in a real headless Chromium (as
tests/test_report_browser.py, one browser for all): the deck report, the random player's
report, a comparison, the balance summary, the Anima Tactics party page, the Animus match
page and the page of a party's saved rows (`report --from`), each at a desktop width (1400 px)
and a phone's (375 px), in light and dark mode.

Each view is measured against issue 28's page design: the page's answer (its ``.headline``)
shows without scrolling; every text on the page, chart text included, is drawn at 11 px or
more; the page does not scroll sideways; every chart has some height; every colour scale has a
legend (``.legend``); in dark mode every data mark (a chart's filled shapes, a coloured table
cell) has a contrast of 3:1 or more against the page's background (WCAG 2.1, 1.4.11 Non-text
Contrast); and the file weighs under 400 KB. Screenshots of every view land in
build/screenshots/. The pages are drawn from few games, and the party page from a short
roster (its full-size heat map's weight is checked without a browser in
tests/test_report_pages.py).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app
from tests.test_report_browser import FLAGS, _browser_path

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
SHOTS = REPO / "build" / "screenshots"
VIEWPORTS = {"desktop": (1400, 900), "phone": (375, 667)}
MIN_TEXT_PX = 11.0
MIN_CONTRAST = 3.0
MAX_BYTES = 400_000

# Every visible text's drawn size: each text node's font size times the scale its SVG applies
# (1 outside charts), rotation included. Returns the smallest and where it was.
SMALLEST_TEXT = """() => {
  let smallest = Infinity, where = "";
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const node = walker.currentNode;
    if (!node.textContent.trim()) continue;
    const el = node.parentElement;
    if (!el || el.closest("title, desc, script, style")) continue;
    const style = getComputedStyle(el);
    if (style.display === "none" || style.visibility === "hidden") continue;
    let size = parseFloat(style.fontSize);
    if (el instanceof SVGElement) {
      const m = el.getScreenCTM();
      size *= Math.hypot(m.a, m.b);
    } else if (el.getClientRects().length === 0) continue;
    if (size < smallest) { smallest = size; where = node.textContent.trim().slice(0, 40); }
  }
  return [smallest, where];
}"""

# The data marks of the page's charts and coloured table cells, each with its fill and the
# colour behind it (the page's background).
LOW_CONTRAST = """(minimum) => {
  const rgb = (s) => (s.match(/[\\d.]+/g) || []).map(Number);
  const lum = ([r, g, b]) => {
    const c = [r, g, b].map((v) => {
      v /= 255;
      return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2];
  };
  const ratio = (a, b) => {
    const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
    return (x + 0.05) / (y + 0.05);
  };
  const page = rgb(getComputedStyle(document.body).backgroundColor);
  const marks = [...document.querySelectorAll(
    "figure svg .role-mark path, figure svg .role-mark rect, figure svg .role-mark circle," +
    "figure svg .mark path, figure svg .mark circle, td.mark")];
  let low = [], count = 0;
  for (const m of marks) {
    const style = getComputedStyle(m);
    const colour = m instanceof SVGElement ? style.fill : style.backgroundColor;
    if (!colour || colour === "none") continue;
    const c = rgb(colour);
    if (c.length === 4 && c[3] < 0.5) continue;  // a translucent band, not a mark
    if (parseFloat(style.fillOpacity) < 0.5 || parseFloat(style.opacity) < 0.5) continue;
    count += 1;
    const r = ratio(c.slice(0, 3), page);
    if (r < minimum) low.push(`${colour} ${r.toFixed(2)}`);
  }
  return [count, low.slice(0, 5), low.length];
}"""

# Point labels of a chart (Vega's text marks) that overlap another of the same chart.
OVERLAPPING_LABELS = """() => {
  const found = [];
  for (const svg of document.querySelectorAll("figure svg")) {
    const boxes = [...svg.querySelectorAll(".mark-text.role-mark text")]
      .map((t) => [t.textContent, t.getBoundingClientRect()]);
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      const [a, p] = boxes[i], [b, q] = boxes[j];
      const apart = p.right <= q.left + 1 || q.right <= p.left + 1 ||
        p.bottom <= q.top + 1 || q.bottom <= p.top + 1;
      if (!apart)
        found.push(`${a} / ${b}`);
    }
  }
  return found.slice(0, 5);
}"""


def _run(args: list[str], ok: tuple[int, ...] = (0,)) -> None:
    result = CliRunner().invoke(app, args)
    assert result.exit_code in ok, (args, result.output)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    """One page of every kind, drawn from few games."""
    out = tmp_path_factory.mktemp("pages")
    deck = str(DECKS / "demo-solo.deck")
    few = ["-n", "60", "--seed", "2", "-q", "--no-impact"]
    _run(["report", deck, *few, "-o", str(out / "deck.html")])
    _run(["report", deck, *few, "-p", "random", "-o", str(out / "random.html")])
    _run(["compare", deck, str(DECKS / "easy-solo.deck"), "-n", "60", "-q",
          "--html", str(out / "compare.html")])  # fmt: skip
    team, vs = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
    _run(["report", str(team), "--vs", str(vs), "-n", "40", "-o", str(out / "team.html")])
    party, other = DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"
    _run(["simulate", str(party), "--vs", str(other), "-n", "40", "-o", str(out / "rows.parquet")])
    _run(["report", "--from", str(out / "rows.parquet"), "-o", str(out / "match.html")])

    from deckkit.animatactics.analysis import matrix as matrix_mod
    from deckkit.animatactics.construction.carddb import load_card_db

    full = matrix_mod.roster(load_card_db())
    short = full[::6]  # every sixth character: a heat map of 15 by 15
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(matrix_mod, "roster", lambda db: short)
        _run(["report", str(DECKS / "at-empire-light.party"), "-o", str(out / "party.html")])

    from deckkit.api.balance import balance_check, write_summary_page

    file = out / "balance.toml"
    file.write_text(
        f'seed = 1\nbudget = 300\n[[check]]\nname = "demo band"\ndeck = "{deck}"\n'
        'band = [0.8, 1.0]\n[[check]]\nname = "demo random band"\n'
        f'deck = "{deck}"\npolicy = "random"\nband = [0.9, 1.0]\n'
    )
    balance_dir = out / "balance"
    balance_dir.mkdir()
    outcome = balance_check(file)
    write_summary_page(outcome, balance_dir, {})
    return {
        "deck": out / "deck.html",
        "random": out / "random.html",
        "compare": out / "compare.html",
        "balance": balance_dir / "balance.html",
        "party": out / "party.html",
        "team": out / "team.html",
        "match": out / "match.html",
    }


def _measure(page: Any, kind: str, name: str, height: int, scheme: str) -> list[str]:
    faults = []
    answer = page.locator(".headline").first
    box = answer.bounding_box() if answer.count() else None
    if box is None or box["y"] + min(box["height"], 80) > height or box["height"] == 0:
        faults.append(f"{name}: no answer above the fold ({box})")
    smallest, where = page.evaluate(SMALLEST_TEXT)
    if smallest < MIN_TEXT_PX:
        faults.append(f"{name}: text drawn at {smallest:.1f} px ({where!r})")
    width = page.evaluate("document.documentElement.scrollWidth")
    if width > page.viewport_size["width"]:
        faults.append(f"{name}: the page scrolls sideways ({width} px)")
    charts = page.locator("figure svg")
    for i in range(charts.count()):
        chart = charts.nth(i)
        b = chart.bounding_box()
        if b is None or b["height"] < 50 or b["width"] < 50:
            faults.append(f"{name}: chart {i} is {b}")
    if scheme == "dark":
        count, low, n_low = page.evaluate(LOW_CONTRAST, MIN_CONTRAST)
        if n_low:
            faults.append(f"{name}: {n_low} of {count} data marks under 3:1 ({low})")
    unexplained = page.evaluate("""() => [...document.querySelectorAll("[data-colour-scale]")]
        .filter((e) => !e.querySelector(".legend, .role-legend")).length""")
    if unexplained:
        faults.append(f"{name}: {unexplained} colour scales without a legend")
    overlaps = page.evaluate(OVERLAPPING_LABELS)
    if overlaps:
        faults.append(f"{name}: chart labels overlap ({overlaps})")
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{kind}-{name}.png"), full_page=False)
    return faults


def _read_a_cell(page: Any) -> None:
    """The heat map names a cell's two characters and its duel value when it is tapped."""
    figure = page.locator("#heat-map")
    cell, origin = (int(figure.get_attribute(a) or 0) for a in ("data-cell", "data-origin"))
    figure.locator("svg").click(position={"x": origin + 2.5 * cell, "y": origin + 0.5 * cell})
    said = figure.locator("output").inner_text()
    names = figure.get_attribute("data-names") or "[]"
    first, third = json.loads(names)[0], json.loads(names)[2]
    assert said.startswith(f"{first} against {third}: "), said
    values = (figure.get_attribute("data-values") or "").split(",")
    assert said.endswith(f"{int(values[2]) / 1000:.3f}"), said


@pytest.mark.slow  # a real Chromium and seven pages: end to end (make test-slow, run by CI)
def test_every_page_kind_in_a_real_browser(pages: dict[str, Path]) -> None:
    executable = _browser_path()
    sync_api = pytest.importorskip("playwright.sync_api", reason="playwright is not installed")
    faults: list[str] = []
    errors: list[str] = []
    for kind, path in pages.items():
        size = path.stat().st_size
        if size >= MAX_BYTES:
            faults.append(f"{kind}: {size:,} bytes")
    with sync_api.sync_playwright() as p:
        browser = p.chromium.launch(executable_path=executable, headless=True, args=FLAGS)
        try:
            for kind, path in pages.items():
                for scheme in ("light", "dark"):
                    for view, (width, height) in VIEWPORTS.items():
                        page = browser.new_page(
                            viewport={"width": width, "height": height}, color_scheme=scheme
                        )
                        page.on("pageerror", lambda e: errors.append(str(e)))
                        page.goto(path.as_uri(), wait_until="load")
                        found = _measure(page, kind, f"{view}-{scheme}", height, scheme)
                        faults += [f"{kind} {f}" for f in found]
                        if kind == "party" and view == "phone":  # a tap reads out a cell
                            _read_a_cell(page)
                        page.close()
        finally:
            browser.close()
    assert errors == []
    assert faults == [], "\n".join(faults)
    for kind in pages:
        for view in ("desktop-light", "phone-light", "desktop-dark", "phone-dark"):
            assert (SHOTS / f"{kind}-{view}.png").stat().st_size > 5_000
