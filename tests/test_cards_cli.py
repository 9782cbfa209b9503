"""`deckkit cards list|show`: output, JSON schema and exit codes."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
import typer
from typer.testing import CliRunner

from deckkit.cli.cards_cmd import register
from deckkit.errors import EXIT_BAD_INPUT

runner = CliRunner()


def make_app() -> typer.Typer:
    """The `cards` sub-app on a bare top-level app, independent of the other commands."""
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """Test root."""

    register(app)
    return app


APP = make_app()


def test_list_json_schema() -> None:
    """deckkit cards list --format json: id, name, type, set, categories for every card."""
    result = runner.invoke(APP, ["cards", "list", "--format", "json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["schema_version"] == 1 and doc["deckkit"]
    cards = doc["cards"]
    assert len(cards) == 787
    for c in cards:
        assert {"id", "name", "type", "set", "categories"} <= c.keys()
        assert isinstance(c["categories"], list)


def test_list_json_disasters_and_forms() -> None:
    """JSON carries major/combat booleans for disasters and the other form's name (1998
    guidelines 2.5) for characters."""
    out = runner.invoke(APP, ["cards", "list", "--type", "disaster", "-f", "json"]).stdout
    disasters = json.loads(out)["cards"]
    assert len(disasters) == 167
    assert all(isinstance(d["major"], bool) and isinstance(d["combat"], bool) for d in disasters)
    chars = json.loads(
        runner.invoke(APP, ["cards", "list", "-t", "character", "-f", "json"]).stdout
    )["cards"]
    washu = next(c for c in chars if c["name"] == "Washu")
    assert washu["alternate_form"] == "Little Washu"
    assert "Genius x2" in washu["skills"] and washu["abilities"]["energy"] == 5
    assert next(c for c in chars if c["name"] == "Ryoko")["alternate_form"] is None


def test_list_text_table() -> None:
    """deckkit cards list --type location prints a table of the 97 locations."""
    result = runner.invoke(APP, ["cards", "list", "--type", "location", "--format", "text"])
    assert result.exit_code == 0
    assert "97 cards" in result.stdout and "Genom Tower" in result.stdout
    assert "am033" not in result.stdout  # a character


def test_list_invalid_type_is_usage_error() -> None:
    """An unknown --type is a usage error, exit 2 (deckkit.errors)."""
    result = runner.invoke(APP, ["cards", "list", "--type", "wizard"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert result.stdout == ""


def test_show_card() -> None:
    """deckkit cards show NAME prints one card, by name, combat half or 'Name #N'."""
    result = runner.invoke(APP, ["cards", "show", "Little", "Washu"])
    assert result.exit_code == 0
    assert "am046" in result.stdout and "Washu (am097)" in result.stdout
    result = runner.invoke(APP, ["cards", "show", "stupefaction"])
    assert "Smash / Stupefaction" in result.stdout
    result = runner.invoke(APP, ["cards", "show", "Goku #33", "--format", "json"])
    assert json.loads(result.stdout)["id"] == "am033"


def test_show_ambiguous_lists_candidates() -> None:
    """card-data README, two Goku cards: an ambiguous name lists both ids and exits 2."""
    result = runner.invoke(APP, ["cards", "show", "Goku"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "am032" in result.stderr and "am033" in result.stderr


def test_show_unknown_suggests() -> None:
    """An unknown name suggests the closest names and exits 2."""
    result = runner.invoke(APP, ["cards", "show", "Washoo"])
    assert result.exit_code == EXIT_BAD_INPUT
    assert "Washu" in result.stderr


@pytest.mark.slow  # end to end: real processes, pools or signals; in make test-slow (CI runs it)
def test_real_cli_exit_codes_and_streams() -> None:
    """The installed entry point: results on stdout, errors on stderr with exit 2."""
    ok = subprocess.run(
        [sys.executable, "-m", "deckkit", "cards", "show", "Genom Tower"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert ok.returncode == 0 and "Strength & Attack 4+" in ok.stdout
    bad = subprocess.run(
        [sys.executable, "-m", "deckkit", "cards", "show", "Goku"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert bad.returncode == EXIT_BAD_INPUT
    assert bad.stdout == "" and "am032" in bad.stderr
