"""`deckkit balance baseline/check` with checks that name parties and teams (issue 28, build
point 2): each check plays its file against its opponent (``vs``) through the game interface;
a baseline keeps both files' text, and a drift check replays the baseline's files against the
file as it reads now, on the same games."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit import games
from deckkit.cli.main import app

DECKS = Path(__file__).resolve().parent.parent / "decks"
runner = CliRunner()


def run(*args: str | Path) -> tuple[int, str, str]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exception is None or isinstance(result.exception, SystemExit), repr(
        result.exception
    )
    return result.exit_code, result.stdout, result.stderr


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_a_changed_team_is_replayed_against_its_baseline(tmp_path: Path) -> None:
    for name in ("animus-vanguard.team", "animus-counterpoint.team"):
        shutil.copy(DECKS / name, tmp_path / name)
    team = tmp_path / "animus-vanguard.team"
    balance = tmp_path / "balance.toml"
    balance.write_text(
        "seed = 2\nbudget = 300\nbaseline_games = 40\n"
        '[[check]]\nname = "vanguard drift"\ndeck = "animus-vanguard.team"\n'
        'vs = "animus-counterpoint.team"\nmax_drop = 0.02\n'
        '[[check]]\nname = "vanguard band"\ndeck = "animus-vanguard.team"\n'
        'vs = "animus-counterpoint.team"\nband = [0.2, 0.9]\n',
        encoding="utf-8",
    )
    code, _, err = run("balance", "baseline", balance, "-q")
    assert code == 0, err
    record = json.loads((tmp_path / "baselines" / "vanguard-drift.json").read_text())
    assert record["game"] == "animus" and record["vs"] == "animus-counterpoint.team"
    assert (
        record["snapshot"]["vs_file"]["text"] == (tmp_path / "animus-counterpoint.team").read_text()
    )
    # unchanged: the drift check's pairs all tie (the same file, the same games)
    code, out, err = run(
        "balance", "check", balance, "-q", "--check", "vanguard drift", "-f", "json"
    )
    assert code == 0, err
    (same,) = json.loads(out)["checks"]
    assert (
        same["changed_cards"] == []
        and same["pairs"]["old_only_won"] == same["pairs"]["new_only_won"] == 0
    )
    # Ilka Varga replaced by a stand-in: the baseline's team is replayed beside today's
    game = games.game_interface(games.game_of_file(team))
    stand = game.stand_ins(game.read(team), "Ilka Varga")[0].how.removeprefix("replaced by ")
    team.write_text(team.read_text().replace("Ilka Varga", stand), encoding="utf-8")
    code, out, err = run("balance", "check", balance, "-q", "-f", "json")
    assert code in (0, 1, 3), err
    checks = {c["name"]: c for c in json.loads(out)["checks"]}
    drift = checks["vanguard drift"]
    assert drift["changed_cards"] == ["the file"] and drift["game"] == "animus"
    assert drift["pairs"]["old_only_won"] + drift["pairs"]["new_only_won"] > 0
    assert checks["vanguard band"]["vs"] == "animus-counterpoint.team"
    assert sorted(p.name for p in tmp_path.iterdir() if p.name.startswith(".")) == []
