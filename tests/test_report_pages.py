"""The page design of issue 28 (point 4), checked without a browser where the page's text
shows it (tests/test_pages_browser.py measures the drawn pages): differences written in points
as the CLI writes them (point 6), a title naming the player, the Animus page keeping the
writer's directories to itself, the compare page leading with its answer, the Anima Tactics
heat map of the whole roster drawn at a readable size within the page's weight, and the
shared colour scale keeping 3:1 against the dark page."""

from __future__ import annotations

import json
import re
from pathlib import Path

from typer.testing import CliRunner

from deckkit.cli.main import app
from deckkit.report import animatactics, render

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
CSS = REPO / "deckkit" / "report" / "templates" / "report.css"


def _invoke(*args: str | Path) -> None:
    result = CliRunner().invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output


def test_differences_are_written_in_points() -> None:
    # issue 28, point 6: `compare` and the pages said "pp" where `balance` says "pts"
    assert render.fmt(0.0734, "signed_pct") == "+7.3 pts"
    assert render.fmt(-0.25, "signed_pct") == "-25.0 pts"


def test_compare_page_leads_with_the_difference(tmp_path: Path) -> None:
    page = tmp_path / "cmp.html"
    _invoke("compare", DECKS / "demo-solo.deck", DECKS / "easy-solo.deck", "-n", 30, "-q",
            "--html", page)  # fmt: skip
    html = page.read_text()
    doc = json.loads(page.with_suffix(".json").read_text())
    head = html.index('id="headline"')
    assert head < html.index('id="run"') and head < html.index("<svg")  # the answer first
    shown = render.fmt(doc["differences"][0]["difference"], "signed_pct")
    assert shown in html[head : html.index("</section>", head)] and "pts" in shown


def test_the_random_players_page_is_titled_so(tmp_path: Path) -> None:
    page = tmp_path / "random.html"
    _invoke("report", DECKS / "demo-solo.deck", "-n", 10, "-p", "random", "--no-impact", "-q",
            "-o", page)  # fmt: skip
    title = re.search(r"<title>(.*)</title>", page.read_text())
    assert title is not None and "random player" in title.group(1)


def test_animus_page_names_the_card_file_without_its_directories(tmp_path: Path) -> None:
    page = tmp_path / "team.html"
    _invoke("report", DECKS / "animus-vanguard.team", "--vs", DECKS / "animus-counterpoint.team",
            "-n", 4, "-o", page)  # fmt: skip
    html = page.read_text()
    card_file = Path(json.loads(page.with_suffix(".json").read_text())["teams"][0]["card_file"])
    assert str(card_file.parent) not in html and f"<dd>{card_file.name}</dd>" in html
    assert html.index('id="headline"') < html.index('id="run"')


def _roster_matrix(n: int) -> dict[str, object]:
    """A duel matrix the size of the whole Anima Tactics roster, values spread over 0..1."""
    chars = [{"name": f"Character number {i:02d}", "strength": i / n} for i in range(n)]
    values = [[((i * 7 + j * 13) % 101) / 100 for j in range(n)] for i in range(n)]
    return {"characters": chars, "value": values}


def test_heat_map_of_the_whole_roster_is_readable_and_light() -> None:
    matrix = _roster_matrix(88)
    svg = animatactics.heat_map(matrix)
    assert len(svg.encode()) < 200_000  # was 0.9 MB: one element per cell
    size = float(re.search(r'font-size="([\d.]+)"', svg).group(1))  # type: ignore[union-attr]
    width = re.search(r'<svg[^>]* width="(\d+)"', svg)
    view = re.search(r'viewBox="0 0 (\d+) ', svg)
    assert width and view and width.group(1) == view.group(1)  # drawn 1:1, never shrunk
    assert size >= 11
    # every cell is drawn once, in its colour step
    drawn: dict[int, int] = {}
    for step, d in re.findall(r'<path class="d(\d+)" d="([^"]+)"', svg):
        widths = re.findall(r"h(\d+)v", d)
        drawn[int(step)] = sum(int(w) for w in widths) // animatactics.CELL
    expected: dict[int, int] = {}
    for row in matrix["value"]:  # type: ignore[attr-defined]
        for v in row:
            expected[animatactics.step(v)] = expected.get(animatactics.step(v), 0) + 1
    assert drawn == expected and sum(drawn.values()) == 88 * 88
    names, cells = animatactics.heat_values(matrix)
    assert len(json.loads(names)) == 88 and len(cells.split(",")) == 88 * 88


def _luminance(colour: str) -> float:
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    lin = [c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]


def test_colour_steps_keep_three_to_one_on_the_dark_page() -> None:
    # WCAG 2.1, 1.4.11 Non-text Contrast: 3:1 for the marks that carry the data
    css = CSS.read_text()
    dark = css[css.index("@media (prefers-color-scheme: dark)") :]
    background = _luminance(re.search(r"--bg: (#[0-9a-f]{6})", dark).group(1))  # type: ignore[union-attr]
    steps = dict(re.findall(r"--d(\d+): (#[0-9a-f]{6})", dark)[: animatactics.STEPS])
    assert len(steps) == animatactics.STEPS
    for colour in steps.values():
        assert (_luminance(colour) + 0.05) / (background + 0.05) >= 3, colour
    assert [animatactics.step(v) for v in (0, 0.04, 0.06, 0.5, 0.96, 1)] == [0, 0, 1, 5, 10, 10]
