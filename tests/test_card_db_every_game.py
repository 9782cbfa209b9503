"""`--card-db` is what every game plays (issue 27, point 5): a designer's edited copy of a
game's card file changes that game's numbers; a folder without the game's file is an error,
never a silent fall back to the shipped cards."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
runner = CliRunner()


def _json(args: list[str]) -> dict:
    result = runner.invoke(app, args)
    assert result.exit_code == 0, result.output
    return json.loads(result.stdout)


def _copy(tmp_path: Path, game_dir: str) -> Path:
    shutil.copytree(REPO / "card_db" / game_dir, tmp_path / game_dir)
    return tmp_path


def _edit_row(path: Path, name: str, old: str, new: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    hits = [i for i, line in enumerate(lines) if f",{name}," in line]
    assert len(hits) == 1 and old in lines[hits[0]]
    lines[hits[0]] = lines[hits[0]].replace(old, new, 1)
    path.write_text("".join(lines), encoding="utf-8")


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_an_edited_anima_tactics_copy_changes_legality_and_games(tmp_path: Path) -> None:
    party = str(DECKS / "at-empire-light.party")
    # 20 games: 4 wins with the shipped data, 8 with the edited copy (the same seeds).
    vs = ["--vs", str(DECKS / "at-samael-darkness.party"), "-n", "20", "--format", "json"]
    shipped = _json(["validate", party, "--format", "json"])
    games = _json(["simulate", party, *vs])
    db = _copy(tmp_path, "animatactics")
    # Yuri Olsen: level cost 55 -> 75, attack 5 -> 9 in the designer's copy.
    _edit_row(db / "animatactics" / "cards.csv", "Yuri Olsen", ",55,,5,5,9,", ",75,,9,5,9,")
    edited = _json(["--card-db", str(db), "validate", party, "--format", "json"])
    assert edited["counts"]["levels_spent"] == shipped["counts"]["levels_spent"] + 20
    edited_games = _json(["--card-db", str(db), "simulate", party, *vs, "--allow-illegal"])
    assert edited_games["win"]["count"] > games["win"]["count"]


def test_an_edited_animus_copy_changes_the_battles(tmp_path: Path) -> None:
    team = str(DECKS / "animus-vanguard.team")
    vs = ["--vs", str(DECKS / "animus-counterpoint.team"), "-n", "200", "--format", "json"]
    shipped = _json(["simulate", team, *vs])
    db = _copy(tmp_path, "animus")
    cards = db / "animus" / "sample-cards.csv"
    lines = cards.read_text(encoding="utf-8").splitlines(keepends=True)
    # Every Vanguard character's melee raised to 9 in the designer's copy (column 7).
    vanguard = {
        line.split("#")[0].strip()
        for line in (DECKS / "animus-vanguard.team")
        .read_text()
        .split("[team]")[1]
        .split("[")[0]
        .splitlines()
        if line.split("#")[0].strip()
    }
    for i, line in enumerate(lines):
        fields = line.rstrip("\n").split(",")
        if len(fields) > 7 and fields[1] in vanguard and fields[2] == "character":
            fields[6] = "9"
            lines[i] = ",".join(fields) + "\n"
    cards.write_text("".join(lines), encoding="utf-8")
    edited = _json(["--card-db", str(db), "simulate", team, *vs])
    assert edited["outcomes"]["team"]["count"] > shipped["outcomes"]["team"]["count"]


def test_a_folder_without_the_game_s_file_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "notes.txt").write_text("nothing here\n")
    result = runner.invoke(
        app, ["--card-db", str(tmp_path), "validate", str(DECKS / "at-empire-light.party")]
    )
    assert result.exit_code == 3
    assert "holds no animatactics file" in result.output + (result.stderr or "")
