"""Text from files never reaches a terminal raw: control characters are shown escaped."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from deckkit.cli.main import app
from deckkit.textsafe import shown, shown_inline

REPO = Path(__file__).resolve().parent.parent
runner = CliRunner()
HOSTILE = "Evil\x1b[2J\x1b]0;owned\x07 \u202eDeck\r"


def test_escapes_controls_and_keeps_ordinary_text() -> None:
    assert shown("A-ko Magami ≥ 12\tok\n") == "A-ko Magami ≥ 12\tok\n"
    assert shown("\x1b[31mred") == "\\x1b[31mred"
    assert shown("\u202eabc\x9b\x7f") == "\\u202eabc\\x9b\\x7f"
    assert shown_inline("a\nb\tc") == "a\\nb\\tc"


def _hostile_deck(tmp_path: Path) -> Path:
    text = (REPO / "decks" / "demo-solo.deck").read_text()
    deck = tmp_path / "hostile.deck"
    deck.write_text(text.replace("name: Solo demo", f"name: {HOSTILE}"))
    return deck


def _assert_clean(output: str) -> None:
    assert "\x1b" not in output and "\u202e" not in output and "\x07" not in output
    assert "\r" not in output


def test_deck_names_are_escaped_in_every_text_output(tmp_path: Path) -> None:
    deck = _hostile_deck(tmp_path)
    for args in (
        ["validate", str(deck)],
        ["simulate", str(deck), "--games", "3", "--workers", "1"],
        ["play", str(deck), "--seed", "1"],
    ):
        result = runner.invoke(app, args)
        assert result.exit_code == 0, (args, result.output)
        _assert_clean(result.output)
        assert "\\x1b[2J" in result.output, args


def test_unknown_card_names_are_escaped_in_errors(tmp_path: Path) -> None:
    deck = tmp_path / "bad.deck"
    deck.write_text("[characters]\nGoku\x1b[31m\u202e\n")
    result = runner.invoke(app, ["validate", str(deck)])
    assert result.exit_code == 2
    _assert_clean(result.output)
    assert "\\x1b[31m" in result.output
