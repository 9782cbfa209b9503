"""`deckkit compare`: arms on the same games, paired differences, cards that differ, and the
HTML page (numbers equal to its sidecar, text escaped)."""

from __future__ import annotations

import json
from pathlib import Path

from report_helpers import mismatches, read_page
from typer.testing import CliRunner

from deckkit.cli.main import app

DECKS = Path(__file__).resolve().parent.parent / "decks"


def run(*args: str | Path) -> tuple[int, str, str]:
    result = CliRunner().invoke(app, ["compare", *map(str, args)])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_same_deck_two_policies(tmp_path: Path) -> None:
    page = tmp_path / "cmp.html"
    code, out, err = run(
        DECKS / "medium-solo.deck", "--policy-b", "random", "-n", 150, "--seed", 2,
        "--format", "json", "--html", page,
    )  # fmt: skip
    assert code == 0, err
    doc = json.loads(out)
    a, b = doc["arms"]
    assert (a["policy"], b["policy"]) == ("heuristic", "random")
    (d,) = doc["differences"]
    assert d["games"] == 150
    assert d["difference"] == (b["outcomes"]["win"]["count"] - a["outcomes"]["win"]["count"]) / 150
    assert d["wins_a"] - d["only_a_won"] == d["wins_b"] - d["only_b_won"]  # both-won games
    assert d["ci"][0] <= d["difference"] <= d["ci"][1]
    assert d["ci"][1] < 0  # the random player is clearly worse
    assert d["cards_that_differ"] == []
    html = page.read_text()
    sidecar = json.loads(page.with_suffix(".json").read_text())
    assert sidecar == doc
    assert mismatches(html, doc) == []
    assert html.count("<svg") == 3 and read_page(html).scripts == 1


def test_two_decks_list_the_cards_that_differ() -> None:
    code, out, _ = run(DECKS / "demo-solo.deck", DECKS / "tricky-solo.deck", "-n", 40)
    assert code == 0
    assert "cards that differ:" in out and "minus" in out


def test_arm_labels_are_escaped(tmp_path: Path) -> None:
    deck = tmp_path / "evil.deck"
    deck.write_text(
        (DECKS / "demo-solo.deck")
        .read_text()
        .replace("name: Solo demo", "name: <script>x()</script>")
    )
    page = tmp_path / "cmp.html"
    code, _, err = run(deck, "--policy-b", "random", "-n", 20, "--html", page)
    assert code == 0, err
    html = page.read_text()
    assert "<script>x()" not in html and "&lt;script&gt;x()" in html


def test_one_deck_needs_a_second_arm() -> None:
    code, _, err = run(DECKS / "demo-solo.deck")
    assert code == 2 and "--policy-b" in err


def test_illegal_arm_is_refused() -> None:
    illegal = Path(__file__).resolve().parent / "data" / "illegal-disasters.deck"
    code, _, err = run(DECKS / "demo-solo.deck", illegal, "-n", 10)
    assert code == 1 and "--allow-illegal" in err
