"""`deckkit play PARTY --vs PARTY`: one Anima Tactics skirmish in words. The traced game is
the very game a run plays (same dice, same choices), a search player's imagined games leave no
lines in it, and the command's JSON names the same outcome as the game interface's record."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.game import GAME
from deckkit.cli.main import app
from deckkit.errors import EXIT_ILLEGAL

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
A, B = DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party"
runner = CliRunner()

EVERY_READING = {
    "counter_dodge": "yes",
    "board": "apart",
    "opening_charge": "no",
    "initiative": "alternate",
}


# A search game costs a CPU-second or more (twice: played and traced): the fast suite traces
# one game of a one-rollout search under the default readings; the same under every other
# reading (the readings' traces are the guarded and random players' cases here), and two games
# of two rollouts each (a lead weighed against its standard error), are `make test-slow`.
SLOW = pytest.mark.slow
PLAYERS = ["guarded", "random", "search:1", "search:2"]
CASES = [
    pytest.param(
        player,
        rules,
        marks=[SLOW] if player == "search:2" or (rules and "search" in player) else [],
    )
    for rules in ({}, EVERY_READING)
    for player in PLAYERS
]


@pytest.mark.slow  # a heavy end-to-end run of a command; in make test-slow (CI runs it)
@pytest.mark.parametrize(("player", "rules"), CASES)
def test_a_traced_game_is_the_game_the_run_plays(player: str, rules: dict[str, str]) -> None:
    setup = GAME.prepare([GAME.read(A), GAME.read(B)], player=player, rules=rules)
    searches = {"search:1": 1, "search:2": 2}
    for index in range(searches.get(player, 6)):
        played = setup.play(4, index)
        traced, lines = setup.traced(4, index)
        assert traced == played
        assert lines[0].startswith("turn 1: ")
        # one ending, the last line: a search player's imagined games leave no lines
        assert [line for line in lines if line.startswith("end: ")] == [lines[-1]]
        assert sum(line.startswith("turn ") for line in lines) == played.turns


def test_a_reaction_follows_every_attack_and_the_player_s_choices_come_first() -> None:
    setup = GAME.prepare([GAME.read(A), GAME.read(B)], rules=EVERY_READING)
    _, lines = setup.traced(1, 0)
    verbs = (" charges ", " attacks ", " walks into contact ")
    attacks = [
        i for i, line in enumerate(lines) if "action" in line and any(w in line for w in verbs)
    ]
    assert attacks
    for i in attacks:
        assert lines[i + 1].startswith("  "), lines[i : i + 2]  # the defender's reaction, the roll
    assert any(" activates " in line for line in lines)
    assert any(" runs into reach" in line for line in lines)  # board=apart's first turn


def test_play_json_is_game_i_of_the_run() -> None:
    match = GAME.prepare([GAME.read(A), GAME.read(B)])
    for index in range(3):
        result = runner.invoke(
            app, ["play", str(A), "--vs", str(B), "--seed", "5", "--game", str(index), "-f", "json"]
        )
        assert result.exit_code == 0, result.stderr
        doc = json.loads(result.stdout)
        record = GAME.play(match, 5, index)
        assert (doc["outcome"], doc["end_reason"]["code"], doc["turns"]) == (
            record.outcome,
            record.end_reason,
            record.turns,
        )
        assert doc["parties"] == ["Unaligned mercenaries", "Samael Darkness"]
        assert doc["events"] and doc["events"][-1]["text"].startswith("end: ")
        assert record.trace is None
        assert GAME.play(match, 5, index, trace=True).trace == tuple(
            e["text"] for e in doc["events"]
        )


def test_play_text_and_an_illegal_party() -> None:
    result = runner.invoke(app, ["play", str(A), "--vs", str(B), "--policy", "random"])
    assert result.exit_code == 0, result.stderr
    assert "game 0 of seed 0" in result.stdout and "players random against random" in result.stdout
    assert " activates " in result.stdout
    illegal = runner.invoke(app, ["play", str(DECKS / "at-illegal.party"), "--vs", str(B)])
    assert illegal.exit_code == EXIT_ILLEGAL
    allowed = runner.invoke(
        app, ["play", str(DECKS / "at-illegal.party"), "--vs", str(B), "--allow-illegal"]
    )
    assert allowed.exit_code == 0, allowed.stderr


def test_a_reactive_special_is_named_as_a_reaction(tmp_path: Path) -> None:
    """A reactive Attack special strikes out of its character's turn (Sho's Iaido before an
    enemy's melee attack): the trace says it is a reaction and what set it off."""
    party = tmp_path / "reactors.party"
    party.write_text(
        "game: anima-tactics\nname: Reactors\nlevels: 250\nedition: saga1\n\n"
        "[characters]\nSho\nAzriel\nGrey\n"
    )
    setup = GAME.prepare([GAME.read(party), GAME.read(B)])
    _, lines = setup.traced(0, 0)
    assert any("with Iaido" in line and "(a reaction: before melee)" in line for line in lines)
