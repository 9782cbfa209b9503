"""Animus results say what a reader must know where the numbers are read (issue 27, point 5):
made-up cards on every output that uses them (text, JSON, the page's headline), and two teams
that field the same cards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

from typer.testing import CliRunner

from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
TEAM = REPO / "decks" / "animus-vanguard.team"
VS = REPO / "decks" / "animus-counterpoint.team"
runner = CliRunner()


def _run(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_made_up_cards_are_announced_in_text_json_and_the_headline(tmp_path: Path) -> None:
    text = _run(["simulate", str(TEAM), "--vs", str(VS), "-n", "30", "-q"])
    head = text.split("outcome")[0]  # before the results table
    assert "notice: 20 of the 20 cards are made up" in head.replace("\n", " ")
    doc = json.loads(_run(["simulate", str(TEAM), "--vs", str(VS), "-n", "30", "--format", "json"]))
    assert any("made up" in n for n in doc["notices"])
    assert doc["made_up_cards"] == 18  # the 9 characters of each team
    assert "made up" in _run(["validate", str(TEAM)])
    page = tmp_path / "p.html"
    _run(["report", str(TEAM), "--vs", str(VS), "-n", "30", "-o", str(page), "-q"])
    html = page.read_text(encoding="utf-8")
    headline = html[
        html.index('id="headline"') : html.index("</section>", html.index('id="headline"'))
    ]
    assert "cards are made up" in headline


def test_a_real_card_file_gets_no_made_up_notice(tmp_path: Path) -> None:
    """A designer's file whose rows are not marked made up: no notice."""
    cards = tmp_path / "animus"
    shutil.copytree(REPO / "card_db" / "animus", cards)
    csv = cards / "sample-cards.csv"
    lines = csv.read_text(encoding="utf-8").splitlines(keepends=True)
    csv.write_text(
        "".join(line.replace(",yes,made up", ",no,made up") for line in lines), encoding="utf-8"
    )
    doc = json.loads(
        _run(["--card-db", str(tmp_path), "simulate", str(TEAM), "--vs", str(VS), "-n", "30",
              "--format", "json"])
    )  # fmt: skip
    assert doc["made_up_cards"] == 0 and doc["notices"] == []


def test_two_teams_sharing_cards_get_a_notice() -> None:
    doc = json.loads(
        _run(["simulate", str(TEAM), "--vs", str(TEAM), "-n", "20", "--format", "json"])
    )
    shared = [n for n in doc["notices"] if "share" in n]
    assert len(shared) == 1 and "the Entity The Ember Throne" in shared[0]
    doc = json.loads(_run(["simulate", str(TEAM), "--vs", str(VS), "-n", "20", "--format", "json"]))
    assert not any("share" in n for n in doc["notices"])


def test_a_card_file_without_its_type_order_gets_a_notice_wherever_it_is_used(
    tmp_path: Path,
) -> None:
    """The rules never write down which type beats which ("Card types and Combat Advantage"):
    a card file without types.toml beside it takes deckkit's guess, and every command says so."""
    shutil.copy(REPO / "card_db" / "animus" / "sample-cards.csv", tmp_path / "mine.csv")
    for name in ("animus-vanguard.team", "animus-counterpoint.team"):
        text = (REPO / "decks" / name).read_text(encoding="utf-8")
        (tmp_path / name).write_text(text.replace("cards: sample", "cards: mine.csv"))
    team, vs = tmp_path / "animus-vanguard.team", tmp_path / "animus-counterpoint.team"
    guess = "has no types.toml beside it"
    assert guess in _run(["validate", "--game", "animus", str(tmp_path / "mine.csv")])
    assert guess in _run(["validate", str(team)])
    doc = json.loads(_run(["simulate", str(team), "--vs", str(vs), "-n", "20", "--format", "json"]))
    assert sum(guess in n for n in doc["notices"]) == 1
    listed = json.loads(
        _run(["cards", "list", "--game", "animus", "--cards", str(tmp_path / "mine.csv"),
              "--format", "json"])
    )  # fmt: skip
    assert guess in listed["notices"][0]
    shown = json.loads(
        _run(["cards", "show", "--game", "animus", "--cards", str(tmp_path / "mine.csv"),
              "Ilka Varga", "--format", "json"])
    )  # fmt: skip
    assert any(guess in n for n in shown["notices"])
    # play, report and sensitivity, text and JSON (the page: its headline)
    assert guess in _run(["play", str(team), "--vs", str(vs), "--game", "1"])
    played = json.loads(_run(["play", str(team), "--vs", str(vs), "--format", "json"]))
    assert sum(guess in n for n in played["notices"]) == 1
    page = tmp_path / "p.html"
    _run(["report", str(team), "--vs", str(vs), "-n", "10", "-o", str(page), "-q"])
    html = page.read_text(encoding="utf-8")
    start = html.index('id="headline"')
    assert guess in html[start : html.index("</section>", start)]
    sens = ["sensitivity", str(team), "--vs", str(vs), "-n", "4", "--reading", "empty_deck"]
    assert guess in _run(sens)
    assert any(guess in n for n in json.loads(_run([*sens, "--format", "json"]))["notices"])
    # With the order written beside the file, no notice.
    shutil.copy(REPO / "card_db" / "animus" / "types.toml", tmp_path / "types.toml")
    doc = json.loads(_run(["simulate", str(team), "--vs", str(vs), "-n", "20", "--format", "json"]))
    assert not any(guess in n for n in doc["notices"])


def test_cards_show_says_a_card_is_made_up() -> None:
    text = _run(["cards", "show", "--game", "animus", "Ilka Varga"])
    assert "Ilka Varga" in text and "notice: this card is made up" in text
    doc = json.loads(_run(["cards", "show", "--game", "animus", "ans26", "--format", "json"]))
    assert doc["name"] == "Ilka Varga" and "made up" in doc["notices"][0]


def test_the_made_up_notice_counts_in_good_english() -> None:
    """One card: "this card is made up"; one made-up card of many: "1 of the 21 cards is"."""
    from deckkit.animus.construction.carddb import load_cards
    from deckkit.animus.construction.notices import made_up_notice

    cards = load_cards()
    real = cards.find("Omniscient Artificial Intelligence")
    one = cards.find("Kaida Flint")
    assert real is not None and one is not None
    assert made_up_notice([real]) is None
    assert str(made_up_notice([one])).startswith("this card is made up")
    assert str(made_up_notice([one, real])).startswith("1 of the 2 cards is made up")
    many = [*cards.characters[:20], real]
    assert str(made_up_notice(many)).startswith("20 of the 21 cards are made up")
