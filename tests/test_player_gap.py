"""The default player's distance from the search player, said where a win rate is read: the
ladder's data file, the choice of reference decks, and the line in `simulate`, its JSON and the
report's headline."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from report_helpers import mismatches
from typer.testing import CliRunner

from deckkit.animayhem.player_gap import LADDER_CSV, LadderRow, load_ladder, nearest, player_gap
from deckkit.api.gap_text import comparison_sentence, run_sentence
from deckkit.cli.main import app
from tests.schema_check import Validator

REPO = Path(__file__).resolve().parent.parent
GRIM = REPO / "decks" / "grim-solo.deck"
validator = Validator(REPO / "docs" / "schemas")
SOLO_DECKS = sorted(p.stem for p in (REPO / "decks").glob("*-solo.deck"))


def _row(deck: str, heuristic: float, gap: float = 0.1, high: float = 0.14) -> LadderRow:
    return LadderRow(deck, 1000, 1, heuristic, heuristic + gap, gap, gap - 0.04, high, "abc")


def test_the_ladder_file_measures_every_sample_solitaire_deck() -> None:
    rows = load_ladder()
    # (demo-solo-set0 and demo-solo-fifth2018 are the demo deck under other editions)
    assert sorted(r.deck for r in rows) == [d for d in SOLO_DECKS if not d.startswith("demo-solo-")]
    for r in rows:
        assert r.games >= 300
        assert r.gap == pytest.approx(r.search - r.heuristic, abs=1e-3)
        assert r.gap_low <= r.gap <= r.gap_high
    assert [r.heuristic for r in rows] == sorted(r.heuristic for r in rows)


def test_the_ladder_file_agrees_with_the_readme_table() -> None:
    """The README's ladder table and the data file come from the same run of
    benchmarks/ladder.py: the same rates and gaps, to the printed tenth of a point."""
    readme = (REPO / "README.md").read_text(encoding="utf-8")
    line = re.compile(
        r"^\| `decks/([\w-]+)\.deck` \| [^|]+ \| [^|]+ \| ([\d.]+)% \| ([\d.]+)% "
        r"\| ([+−-][\d.]+) points \(([+−-][\d.]+) to ([+−-][\d.]+)\)",
        re.M,
    )
    table = {m[1]: m.groups()[1:] for m in line.finditer(readme)}
    assert len(table) == len(line.findall(readme)), "one ladder row a deck"
    rows = load_ladder()
    assert table, "the README's ladder table was not found"
    for r in rows:
        shown = [float(x.replace("−", "-")) for x in table[r.deck]]
        mine = [r.heuristic, r.search, r.gap, r.gap_low, r.gap_high]
        assert shown == pytest.approx([round(100 * x, 1) for x in mine], abs=0.051), r.deck


def test_the_readme_s_prose_says_the_ladder_s_range() -> None:
    """Where the README sums the contested decks' gaps up in words ("9 to 16 points"), the
    words are the data file's: the smallest and largest lead of the decks not near, rounded."""
    readme = " ".join((REPO / "README.md").read_text(encoding="utf-8").split())
    far = [100 * r.gap for r in load_ladder() if r.gap_high > 0.03]
    low, high = round(min(far)), round(max(far))
    assert f"but {low} to {high} points below it on the contested ones" in readme
    assert f"(+{low} to +{high} on the contested ones)" in readme
    assert f"the search player plays better by {low} to {high} points" in readme
    assert f"+{low} to +{high} points at 8" in readme


def test_the_nearest_decks_bracket_the_rate() -> None:
    rows = (_row("low", 0.2), _row("mid", 0.5), _row("high", 0.9))
    assert [r.deck for r in nearest(rows, 0.6)] == ["mid", "high"]
    assert [r.deck for r in nearest(rows, 0.3)] == ["low", "mid"]
    assert [r.deck for r in nearest(rows, 0.1)] == ["low"]  # below the ladder
    assert [r.deck for r in nearest(rows, 0.95)] == ["high"]  # above it
    assert [r.deck for r in nearest(rows, 0.5)] == ["mid"]  # on a deck's own rate
    assert nearest((), 0.5) == []


def test_only_a_solitaire_heuristic_run_gets_a_gap() -> None:
    assert player_gap("random", 1, 0.5) is None
    assert player_gap("search", 1, 0.5) is None
    assert player_gap("search:16", 1, 0.5) is None
    assert player_gap("heuristic", 3, 0.5) is None
    assert player_gap("heuristic", 1, None) is None
    gap = player_gap("heuristic", 1, 0.5, "my decks/grim.deck")
    assert gap is not None
    assert gap["command"] == (
        "deckkit compare 'my decks/grim.deck' --policy heuristic --policy-b search --games 1000"
    )


def test_contested_and_easy_rates_read_differently() -> None:
    rows = load_ladder()
    contested = max(rows, key=lambda r: r.gap_high)
    easy = rows[-1]
    assert contested.gap_high > 0.03 >= easy.gap_high  # the data this test reads
    hard = player_gap("heuristic", 1, contested.heuristic)
    assert hard is not None and not hard["near"]
    assert [r["deck"] for r in hard["reference"]] == [contested.deck]
    text = run_sentence(hard)
    assert contested.deck in text and "that much more often" in text
    top = player_gap("heuristic", 1, min(1.0, easy.heuristic + 0.001))
    assert top is not None and top["near"]
    assert "near a stronger player's" in run_sentence(top)
    assert "deckkit compare" not in run_sentence(top)  # nothing to check where it is near


def test_a_comparison_line_needs_every_arm_s_gap() -> None:
    hard = player_gap("heuristic", 1, 0.6, "a.deck")
    easy = player_gap("heuristic", 1, 0.999, "b.deck")
    assert hard is not None and easy is not None
    arms = [{"player_gap": hard, "deck_path": "a.deck"}, {"player_gap": easy, "deck_path": None}]
    line = comparison_sentence(arms)
    assert line is not None and "may not be the one above" in line
    assert line.endswith("Check: the same comparison with the search player (--policy search)")
    arms[1]["deck_path"] = "my b.deck"
    assert str(comparison_sentence(arms)).endswith(
        "Check: deckkit compare a.deck 'my b.deck' --policy search --games 1000"
    )
    both_easy = [{"player_gap": easy, "deck_path": "b.deck"}] * 2
    assert "near a stronger player's" in str(comparison_sentence(both_easy))
    assert comparison_sentence([{"player_gap": hard}, {"player_gap": None}]) is None
    assert comparison_sentence([]) is None


def test_the_ladder_file_is_read_with_its_comments(tmp_path: Path) -> None:
    path = tmp_path / "ladder.csv"
    text = LADDER_CSV.read_text(encoding="utf-8")
    assert text.startswith("#")
    path.write_text(text, encoding="utf-8")
    assert load_ladder(path) == load_ladder()


def test_simulate_prints_and_saves_the_gap(tmp_path: Path) -> None:
    runner = CliRunner()
    base = ["simulate", str(GRIM), "--games", "200", "--seed", "1", "-q"]
    text = runner.invoke(app, base)
    assert text.exit_code == 0, text.stderr
    said = " ".join(text.stdout.split())  # the console folds long lines
    line = said[said.index("default player:") :]
    assert "the search player won" in line and f"deckkit compare {GRIM}" in line
    doc = json.loads(runner.invoke(app, [*base, "--format", "json"]).stdout)
    assert validator.errors(doc, "simulate.schema.json") == []
    gap = doc["player_gap"]
    assert gap is not None and gap["reference"] and gap["near"] is False
    bounds = [r["heuristic"] for r in gap["reference"]]
    assert min(bounds) <= doc["win_rate"] <= max(bounds) or len(bounds) == 1
    rand = json.loads(runner.invoke(app, [*base, "--format", "json", "-p", "random"]).stdout)
    assert rand["player_gap"] is None
    assert validator.errors(rand, "simulate.schema.json") == []
    out = runner.invoke(app, [*base[:-1], "--policy", "random"])
    assert "default player:" not in out.stdout


def test_the_report_leads_with_the_gap(tmp_path: Path) -> None:
    page = tmp_path / "grim.html"
    out = CliRunner().invoke(
        app,
        ["report", str(GRIM), "--games", "200", "--seed", "1", "--no-impact", "-q",
         "--out", str(page)],
    )  # fmt: skip
    assert out.exit_code == 0, out.stderr
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert doc["player_gap"]["reference"]
    html = page.read_text(encoding="utf-8")
    assert 'id="player-gap"' in html
    assert 'data-json="player_gap.reference.0.gap"' in html
    assert mismatches(html, doc) == []


def test_compare_says_a_stronger_players_difference_may_differ(tmp_path: Path) -> None:
    runner = CliRunner()
    hard = REPO / "decks" / "hard-solo.deck"
    page = tmp_path / "cmp.html"
    base = ["compare", str(hard), str(GRIM), "--games", "200", "--seed", "1", "-q"]
    out = runner.invoke(app, [*base, "--html", str(page)])
    assert out.exit_code == 0, out.stderr
    said = " ".join(out.stdout.split())
    assert "default player: on the sample decks nearest these rates" in said
    assert f"Check: deckkit compare {hard} {GRIM} --policy search --games 1000" in said
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert all(arm["player_gap"]["reference"] for arm in doc["arms"])
    html = page.read_text(encoding="utf-8")
    assert 'id="player-gap"' in html and "may not be the one above" in html
    assert mismatches(html, doc) == []
    mixed = json.loads(runner.invoke(app, [*base, "--policy-b", "random", "-f", "json"]).stdout)
    assert validator.errors(mixed, "compare.schema.json") == []
    arms = mixed["arms"]
    assert arms[0]["player_gap"] is not None and arms[1]["player_gap"] is None
    text = runner.invoke(app, [*base, "--policy-b", "random"])
    assert "default player:" not in text.stdout


def test_the_python_api_gives_the_gap_and_prints_it() -> None:
    import deckkit

    run = deckkit.simulate(GRIM, games=100, seed=1)
    assert isinstance(run, deckkit.SimulateResult)
    gap = run.player_gap()
    assert gap is not None and gap == run.as_dict()["player_gap"]
    assert "default player: on the sample decks nearest this rate" in repr(run)
    other = deckkit.simulate(GRIM, games=100, seed=1, policy="random")
    assert isinstance(other, deckkit.SimulateResult)
    assert other.player_gap() is None and "default player:" not in repr(other)
