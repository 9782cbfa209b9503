"""`deckkit report`: the page shows the numbers of its JSON sidecar, which are the numbers of
`deckkit simulate` for the same run; illegal decks lead with their violations; text from files
is escaped; saved runs render without playing."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from report_helpers import lookup, mismatches, read_page
from typer.testing import CliRunner

from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
ILLEGAL = Path(__file__).resolve().parent / "data" / "illegal-disasters.deck"
SOLO_DECKS = sorted(p for p in DECKS.glob("*.deck") if "3p" not in p.name)


def deckkit(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def report(
    tmp_path: Path, *args: str | Path, name: str = "r.html"
) -> tuple[int, str, dict[str, Any]]:
    page = tmp_path / name
    code, _, err = deckkit("report", *args, "-o", page, "--quiet")
    assert page.exists(), err
    return code, page.read_text("utf-8"), json.loads(page.with_suffix(".json").read_text())


# The fast suite draws the page of one deck per edition and one deck of another size; the
# other sample decks' pages (the same page code, other numbers) are `make test-slow`.
FAST_PAGES = {"demo-solo", "demo-solo-set0", "demo-solo-fifth2018", "tough-solo"}


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
@pytest.mark.parametrize(
    "deck",
    [pytest.param(d, marks=[] if d.stem in FAST_PAGES else [pytest.mark.slow]) for d in SOLO_DECKS],
    ids=lambda p: p.stem,
)
def test_sample_deck_page_shows_the_sidecar_numbers(deck: Path, tmp_path: Path) -> None:
    code, html, doc = report(tmp_path, deck, "-n", 60, "--seed", 3)
    assert code == 0
    assert mismatches(html, doc) == []
    shown = {path for path, _, _ in read_page(html).numbers}
    for path in (
        "games",
        "outcomes.win.rate",
        "outcomes.win.ci.0",
        "outcomes.win.ci.1",
        "outcomes.loss.rate",
        "outcomes.stall.rate",
        "turns.mean",
        "items.lost",
    ):
        assert path in shown  # fmt: skip
    assert doc["games"] == 60
    assert sum(n for _, n in doc["distributions"]["turns"]) == 60
    assert sum(r["games"] for r in doc["end_reasons"]) == 60
    # the charts are there, drawn as inline SVG, and nothing is fetched from anywhere
    assert html.count("<svg") >= 5
    assert "http://" not in html.replace('xmlns="http://www.w3.org/2000/svg"', "").replace(
        'xmlns:xlink="http://www.w3.org/1999/xlink"', ""
    )
    assert "https://" not in html


def test_report_numbers_are_those_of_simulate(tmp_path: Path) -> None:
    deck = DECKS / "demo-solo.deck"
    code, _, doc = report(tmp_path, deck, "-n", 150, "--seed", 11)
    assert code == 0
    code, out, _ = deckkit("simulate", deck, "-n", 150, "--seed", 11, "--format", "json", "-q")
    assert code == 0
    sim = json.loads(out)
    assert doc["outcomes"]["win"]["count"] == sim["wins"]
    assert doc["outcomes"]["win"]["ci"] == sim["win_rate_ci"]
    assert doc["outcomes"]["stall"]["rate"] == sim["stall_rate"]
    assert doc["turns"]["mean"] == sim["mean_turns"]
    assert {c["id"]: c["per_game"] for c in doc["cards"]} == {
        k: v["per_game"] for k, v in sim["cards"].items()
    }
    assert doc["not_simulated"] == sim["not_simulated"]
    assert doc["run"]["seed"] == 11 and doc["run"]["policy"] == "heuristic"
    assert doc["command"].startswith("deckkit report ") and "--seed 11" in doc["command"]


def test_illegal_deck_report_leads_with_violations(tmp_path: Path) -> None:
    code, html, doc = report(tmp_path, ILLEGAL, "-n", 20)
    assert code == 1
    assert doc["legality"]["legal"] is False and doc["simulated"] is False
    page = read_page(html)
    assert page.sections[0] == "illegal"
    text = "".join(page.text)
    first_violation = doc["legality"]["violations"][0]["message"]
    assert first_violation in text
    assert text.index("Not legal") < text.index(first_violation) < text.index("Reproduce")


def test_illegal_deck_simulated_when_allowed(tmp_path: Path) -> None:
    code, html, doc = report(tmp_path, ILLEGAL, "-n", 30, "--allow-illegal")
    assert code == 0
    assert read_page(html).sections[0] == "illegal"
    assert doc["simulated"] is True and doc["games"] == 30
    assert mismatches(html, doc) == []


def test_text_from_files_is_escaped(tmp_path: Path) -> None:
    deck = tmp_path / "evil.deck"
    deck.write_text(
        (DECKS / "demo-solo.deck")
        .read_text()
        .replace("name: Solo demo", "name: <script>alert('deck')</script> & <b>bold</b>")
    )
    code, html, doc = report(tmp_path, deck, "-n", 20)
    assert code == 0
    assert "<script>alert" not in html and "<b>bold" not in html
    assert "&lt;script&gt;alert(&#39;deck&#39;)&lt;/script&gt; &amp; &lt;b&gt;bold" in html
    # a card named <script>: render the same document with that name in every card table
    from deckkit.report import charts, render

    doc["cards"][0]["card"] = "<script>alert(1)</script>"
    doc["observational"][0]["card"] = "<img src=x onerror=alert(1)>"
    page = render.render(doc, charts.report_charts(doc))
    assert "<script>alert(1)" not in page and "<img src=x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert read_page(page).scripts == 1  # the page's own sorting script only


def test_from_saved_results_gives_the_same_numbers(tmp_path: Path) -> None:
    deck = DECKS / "medium-solo.deck"
    runs = tmp_path / "run.parquet"
    # card impact plays more games, so a saved run has none: compare without it
    code, _, played = report(
        tmp_path, deck, "-n", 80, "--seed", 5, "--results", runs, "--no-impact"
    )
    assert code == 0 and runs.exists()
    code, html, redrawn = report(tmp_path, "--from", runs, name="again.html")
    assert code == 0
    for doc in (played, redrawn):
        del doc["generated"]
    assert redrawn == played
    assert mismatches(html, redrawn) == []


def test_simulate_out_carries_the_run_metadata(tmp_path: Path) -> None:
    from deckkit.analysis.results import deck_hash, read_results

    deck = DECKS / "demo-solo.deck"
    runs = tmp_path / "games.parquet"
    code, _, err = deckkit("simulate", deck, "-n", 40, "--seed", 9, "--out", runs, "-q")
    assert code == 0, err
    frame, meta = read_results(runs)
    assert frame.height == 40
    assert (meta.seed, meta.policy, meta.edition, meta.games_requested) == (
        9, "heuristic", "guidelines1998", 40,
    )  # fmt: skip
    assert meta.deck_sha256 == deck_hash(deck.read_text()) and meta.deckkit_version
    code, _, doc = report(tmp_path, "--from", runs)
    assert code == 0 and doc["games"] == 40


def test_default_output_is_under_reports(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    shutil.copy(DECKS / "demo-solo.deck", tmp_path / "mine.deck")
    for _ in range(2):  # reports/ is created; deckkit replaces its own generated report
        code, out, err = deckkit("report", "mine.deck", "-n", 10, "-q")
        assert code == 0, err
    assert "reports/mine.report.html" in out
    assert sorted(p.name for p in (tmp_path / "reports").iterdir()) == [
        "mine.report.html", "mine.report.json",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--from", "nothing.csv"], ".parquet"),
        (["--from", "missing.parquet"], "no such file"),
        ([], "either a DECK"),
    ],
)
def test_bad_usage(tmp_path: Path, args: list[str], message: str) -> None:
    code, _, err = deckkit("report", *args)
    assert code == 2 and message in err


def test_never_replaces_a_named_file(tmp_path: Path) -> None:
    page = tmp_path / "mine.html"
    page.write_text("keep me")
    code, _, err = deckkit("report", DECKS / "demo-solo.deck", "-n", 5, "-o", page)
    assert code == 2 and "--force" in err
    assert page.read_text() == "keep me" and not page.with_suffix(".json").exists()
    assert lookup({"a": [1, {"b": 2}]}, "a.1.b") == 2


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_report_with_card_impact(tmp_path: Path) -> None:
    code, html, doc = report(
        tmp_path, DECKS / "medium-solo.deck", "-n", 60, "--impact", "--impact-card", "Goten",
        "--impact-games", 200, "--impact-target-error", 0.5,
    )  # fmt: skip
    assert code == 0
    (goten,) = doc["impact"]["cards"]
    assert goten["card"] == "Goten" and goten["games"] <= 200
    assert goten["kind"] == "median stand-in" and len(goten["stand_ins"]) == 5
    assert all(s["card"] in html for s in goten["stand_ins"])  # each stand-in named on the page
    assert "impact" in read_page(html).sections
    assert mismatches(html, doc) == []
    assert html.count("<svg") >= 6  # the impact chart too
