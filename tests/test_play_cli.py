"""`deckkit play`, and help/version for every command."""

from __future__ import annotations

import json
from pathlib import Path

import polars as pl
import pytest
from typer.testing import CliRunner

from deckkit.cli.main import app

ROOT = Path(__file__).resolve().parent.parent
DEMO = str(ROOT / "decks" / "demo-solo.deck")
runner = CliRunner()


def test_play_prints_turns_phases_and_result() -> None:
    """One game, turn by turn, with phases, combat arithmetic and the result (seed 4: seed 3's
    player draws nothing, its hand held, and so shows no Reload or Maintenance phase)."""
    result = runner.invoke(app, ["play", DEMO, "--seed", "4"])
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "Turn 1" in out and "Reload phase" in out and "Maintenance phase" in out
    assert "round 1: cards" in out and " = " in out
    assert "Result: " in out


def test_play_json_is_the_trace_as_data() -> None:
    """--format json gives the same game as events."""
    result = runner.invoke(app, ["play", DEMO, "--seed", "3", "--format", "json"])
    assert result.exit_code == 0
    doc = json.loads(result.stdout)
    assert doc["outcome"] in ("win", "loss", "stall")
    kinds = {e["kind"] for e in doc["events"]}
    assert {"setup", "combat", "round", "end"} <= kinds
    text = runner.invoke(app, ["play", DEMO, "--seed", "3"]).stdout
    assert all(e["text"] in text for e in doc["events"])


def test_game_i_of_a_simulation_replays_alone(tmp_path: Path) -> None:
    """Game i of `simulate --seed S` is `play --seed S --game i` (per-game streams)."""
    out = tmp_path / "games.csv"
    sim = runner.invoke(
        app,
        [
            "simulate",
            str(ROOT / "tests/data/wild-solo.deck"),
            "--games",
            "30",
            "--seed",
            "11",
            "--allow-illegal",
            "--quiet",
            "--out",
            str(out),
            "--format",
            "json",
        ],
    )
    assert sim.exit_code == 0, sim.output
    rows = pl.read_csv(out)
    for i in (0, 7, 29):
        row = rows.filter(pl.col("index") == i).row(0, named=True)
        played = runner.invoke(
            app,
            [
                "play",
                str(ROOT / "tests/data/wild-solo.deck"),
                "--seed",
                "11",
                "--game",
                str(i),
                "--allow-illegal",
                "--format",
                "json",
            ],
        )
        doc = json.loads(played.stdout)
        assert (doc["outcome"], doc["turns"], doc["items_retrieved"]) == (
            row["outcome"],
            row["turns"],
            row["items_retrieved"],
        )


def test_play_refuses_an_illegal_deck() -> None:
    """An illegal deck is refused with the validator's explanation (exit 1)."""
    result = runner.invoke(app, ["play", str(ROOT / "tests/data/wild-solo.deck")])
    assert result.exit_code == 1
    assert "not legal" in result.stderr


def test_play_bad_policy_is_a_usage_error() -> None:
    """Unknown policy: exit 2 with a hint."""
    result = runner.invoke(app, ["play", DEMO, "--policy", "genius"])
    assert result.exit_code == 2


@pytest.mark.parametrize(
    "args",
    [
        ["--help"],
        ["validate", "--help"],
        ["simulate", "--help"],
        ["play", "--help"],
        ["cards", "--help"],
        ["cards", "list", "--help"],
        ["cards", "show", "--help"],
    ],
)
def test_every_help_works(args: list[str]) -> None:
    """`deckkit --help` and every subcommand's help exit 0 and print usage."""
    result = runner.invoke(app, args)
    assert result.exit_code == 0 and "Usage" in result.stdout


def test_version() -> None:
    """`deckkit --version` prints the version."""
    from deckkit import __version__

    result = runner.invoke(app, ["--version"])
    assert result.exit_code == 0 and __version__ in result.stdout


def test_json_events_name_actor_and_target_by_card_id() -> None:
    """`play --format json` events are data, not only prose: who acted on whom (card ids with
    names beside them) and the numbers of each combat."""
    from typer.testing import CliRunner

    from deckkit.cli.main import app

    deck = Path(__file__).resolve().parent.parent / "decks" / "tricky-solo.deck"
    result = CliRunner().invoke(app, ["play", str(deck), "--seed", "1", "--format", "json"])
    assert result.exit_code == 0, result.output
    events = json.loads(result.stdout)["events"]
    combats = [e for e in events if e["kind"] == "combat"]
    assert combats
    for e in combats:
        assert e["actor"]["id"].startswith("am") and e["actor"]["name"] in e["text"]
        assert all(t["id"].startswith("am") for t in e["target"])
        assert isinstance(e["disaster_damage"], int)
    structured = [e for e in events if "actor" in e or "target" in e]
    assert len(structured) > len(events) // 2
