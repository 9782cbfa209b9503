"""`deckkit sensitivity` for two parties (Anima Tactics) and two teams (Animus), through the
game interface (deckkit/analysis/game_sensitivity.py): each row is the paired difference of the
first side's win rate between the readings as played and one option changed, every reading of
every option the game lists, and each side of the pair is the very games `simulate` plays."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.construction.rules import rule_options
from deckkit.animus.construction.options import CHOICES
from deckkit.animus.game import GAME as ANIMUS
from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
AT, AT2 = ROOT / "decks" / "at-unaligned.party", ROOT / "decks" / "at-samael-darkness.party"
AN, AN2 = ROOT / "decks" / "animus-vanguard.team", ROOT / "decks" / "animus-counterpoint.team"
runner = CliRunner()


def _json(*args: str | Path) -> dict[str, object]:
    result = runner.invoke(app, [str(a) for a in args])
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


# Each row replayed by `simulate --rule` is a dozen Anima Tactics games: the fast suite
# replays two rows (the draw reading and the first), `make test-slow` every row.
@pytest.mark.parametrize("every_row", [False, pytest.param(True, marks=pytest.mark.slow)])
def test_party_sensitivity_rows_are_the_games_simulate_plays(every_row: bool) -> None:
    """Every other value of every rule option is a row; a row's win rate under a reading is
    `simulate --rule` of that reading on the same seed, and the base row is `simulate`'s."""
    n = "12"  # on seed 2 four of the five readings change the games: rows to tell apart
    doc = _json("sensitivity", AT, "--vs", AT2, "-n", n, "--seed", "2", "-f", "json")
    rows = doc["readings"]
    assert isinstance(rows, list)
    expected = [f"{o.name}={v}" for o in rule_options() for v in o.values[1:]]
    assert [r["setting"] for r in rows] == expected
    assert doc["rules"] == {o.name: o.default for o in rule_options()}
    base = _json("simulate", AT, "--vs", AT2, "-n", n, "--seed", "2", "-f", "json")
    assert doc["win_rate"] == base["win"]["rate"]  # type: ignore[index]
    replayed = (
        rows if every_row else [rows[0], *(r for r in rows if r["setting"] == "time_limit=draw")]
    )
    for row in replayed:
        sim = _json(
            "simulate", AT, "--vs", AT2, "-n", n, "--seed", "2", "-r", row["setting"], "-f", "json"
        )
        assert row["wins_b"] == sim["win"]["count"], row["setting"]  # type: ignore[index]
    drawn = next(r for r in rows if r["setting"] == "time_limit=draw")
    assert drawn["only_b_won"] == 0  # a draw after turn 10 never turns a loss into a win


def test_team_sensitivity_reads_the_team_files_and_rule_flags() -> None:
    """Animus: the readings as played are the team files' rule lines overridden by --rule; a
    row's wins are those of the interface's battles under that reading."""
    doc = _json(
        "sensitivity", AN, "--vs", AN2, "-n", "12", "--reading", "empty_deck",
        "--rule", "support_slots=3", "-f", "json",
    )  # fmt: skip
    assert doc["rules"] == {
        **{name: values[0] for name, values in CHOICES.items()},
        "support_slots": "3",
    }
    (row,) = doc["readings"]  # type: ignore[misc]
    assert row["setting"] == "empty_deck=lose" and row["default"] == "draw_what_remains"
    teams = [ANIMUS.read(AN), ANIMUS.read(AN2)]
    setup = ANIMUS.prepare(teams, rules={"empty_deck": "lose", "support_slots": "3"})
    wins = sum(ANIMUS.play(setup, 1, i).outcome == "win" for i in range(12))
    assert row["wins_b"] == wins
    assert any("made up" in n for n in doc["notices"])  # type: ignore[union-attr]


def test_an_unknown_reading_is_refused() -> None:
    for args in (["sensitivity", AT, "--vs", AT2], ["sensitivity", AN, "--vs", AN2]):
        result = runner.invoke(app, [*map(str, args), "--reading", "nonsense"])
        assert result.exit_code == 2 and "nonsense" in result.stderr
