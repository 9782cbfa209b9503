"""Small edges a new user met on the command line (issue 28, point 6), each held here: one unit
for a difference of two rates ("pts", as `balance` writes it), no deck-line hint for a deck
file that cannot be read at all, `cards list | head -1` ending with 141 as every command does,
the field picture of `play` marking a cut name with an ellipsis, `cards show`'s abilities under
their labels, and one default worker count for every long command (the README's tour
consistent with it)."""

from __future__ import annotations

import io
import re
import shlex
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.api import deckinput
from deckkit.api.options import RunOptions
from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DEMO = ROOT / "decks" / "demo-solo.deck"
MEDIUM = ROOT / "decks" / "medium-solo.deck"


def deckkit(*args: str | Path) -> tuple[int, str, str]:
    deckinput.forget_stdin()
    result = CliRunner().invoke(app, [str(a) for a in args])
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_compare_and_impact_write_differences_in_pts_as_balance_does() -> None:
    code, out, err = deckkit("compare", DEMO, MEDIUM, "-n", "40", "-q")
    assert code == 0, err
    assert re.search(r"Medium solo minus Solo demo: [+-]\d+\.\d pts", out), out
    assert " pp" not in out
    code, out, err = deckkit("impact", DEMO, "--card", "Krillin", "-n", "40", "--remove", "-q")
    assert code == 0, err
    assert re.search(r"Krillin: [+-]\d+\.\d pts", out) and " pp" not in out, out


@pytest.mark.parametrize("command", ["validate", "simulate", "play", "stats"])
def test_a_missing_deck_file_gets_no_hint_about_a_decks_lines(command: str, tmp_path: Path) -> None:
    """The file is not there: "a deck lists one card per line" would send the user to fix a
    file they do not have."""
    code, _, err = deckkit(command, tmp_path / "nope.deck")
    assert code == 2
    assert "nope.deck: cannot read deck file: No such file or directory" in err
    assert "one card per line" not in err
    code, _, err = deckkit(command, tmp_path)  # a directory
    assert code == 2 and "a directory" in err and "one card per line" not in err


class HeadOne(io.StringIO):
    """stdout read by `head -1`: once a line has reached the reader, it closes the pipe, and
    every later write fails as a write to a closed pipe does."""

    def write(self, text: str) -> int:
        if "\n" in self.getvalue():
            raise BrokenPipeError(32, "Broken pipe")
        return super().write(text)


@pytest.mark.parametrize("fmt", ["tsv", "csv"])
def test_cards_list_stops_with_141_when_its_reader_has_gone(
    fmt: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`deckkit cards list | head -1`: the list was written in one piece, which fits a pipe's
    buffer, so the command never saw the reader go and ended with 0; line by line, it ends
    with 141 like every other command."""
    from deckkit.cli.main import run

    reader = HeadOne()
    monkeypatch.setattr(sys, "argv", ["deckkit", "cards", "list", "-f", fmt])
    monkeypatch.setattr(sys, "stdout", reader)
    with pytest.raises(SystemExit) as done:
        run()
    assert done.value.code == 141
    assert reader.getvalue().startswith("id")


def test_plays_field_marks_a_cut_name_with_an_ellipsis() -> None:
    code, out, err = deckkit("play", DEMO, "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    start = lines.index("Setup") + 2  # the setup line, then the field picture
    field = []
    for line in lines[start:]:
        if not line.startswith("    "):
            break
        field += [cell for cell in re.split(r"\s{2,}", line.strip()) if cell not in (".", "H")]
    names = {"Tokyo Mega Dome", "Tea Room Transylvania", "Sewer", "Cathedral"}
    assert len(field) == 9
    for cell in field:
        assert len(cell) <= 14, cell
        if cell.endswith("…"):
            assert any(n.startswith(cell[:-1]) and len(n) > 14 for n in names | {cell}), cell
    assert "Tokyo Mega Do…" in field and "Tea Room Tran…" in field
    assert "Tokyo Mega Dom" not in field


@pytest.mark.parametrize("card", ["Little Washu", "Goten", "Kishiime"])
def test_cards_show_puts_each_ability_under_its_label(card: str) -> None:
    code, out, err = deckkit("cards", "show", card)
    assert code == 0, err
    lines = out.splitlines()
    at = next(i for i, line in enumerate(lines) if line.startswith("  abilities"))
    labels, values = lines[at], lines[at + 1]
    starts = [m.start() for m in re.finditer(r"\S+", labels)][1:]  # after "abilities"
    value_starts = [m.start() for m in re.finditer(r"\S+", values)]
    assert len(starts) == len(value_starts) == 5, (labels, values)
    assert starts == value_starts, (labels, values)


def test_every_long_command_has_one_default_worker_count() -> None:
    """One process unless -w says otherwise, in every long command of every game and in the
    API; the README's tour passes no --workers, so every line runs with that default."""
    default = RunOptions().workers
    assert default == 1
    sources = [*(ROOT / "deckkit" / "cli").rglob("*.py")]
    found = 0
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for value in re.findall(r"workers: opt\.WorkersOpt = (\d+)", text):
            assert int(value) == default, path
            found += 1
        for value in re.findall(r'typer\.Option\(\s*(\d+),\s*"--workers"', text):
            assert int(value) == default, path
            found += 1
    assert found >= 10  # simulate, report, compare, impact, sensitivity, balance, the siblings'

    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    tour = readme.split("## A tour of the CLI", 1)[1].split("```", 2)[1]
    commands = [shlex.split(line.split("  #")[0]) for line in tour.splitlines()]
    commands = [c for c in commands if c and c[0] == "deckkit"]
    assert len(commands) > 15
    for args in commands:
        assert "--workers" not in args and "-w" not in args, args
    assert "one worker process unless `-w N`" in readme
