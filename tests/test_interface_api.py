"""The Python API finds a file's game (issue 28, build point 3): `deckkit.simulate(file, vs=...)`
plays a party or a team through the game interface, the very games `deckkit simulate FILE --vs`
plays on the same seed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

import deckkit
from deckkit.cli.main import app
from deckkit.errors import UsageError

DECKS = Path(__file__).resolve().parent.parent / "decks"
PAIRS = {
    "anima-tactics": (DECKS / "at-empire-light.party", DECKS / "at-samael-darkness.party"),
    "animus": (DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"),
}


@pytest.mark.parametrize("game", sorted(PAIRS))
def test_simulate_finds_the_files_game_and_plays_the_commands_games(game: str) -> None:
    first, vs = PAIRS[game]
    run = deckkit.simulate(first, vs=vs, games=10, seed=5)
    assert isinstance(run, deckkit.MatchResult)
    assert run.document["game"] == game and run.win.n == 10
    out = CliRunner().invoke(app, ["simulate", str(first), "--vs", str(vs), "-n", "10", "-s", "5",
                                   "-f", "json"]).stdout  # fmt: skip
    doc = json.loads(out)
    win = doc["win"] if "win" in doc else doc["outcomes"]["win"]
    assert run.win.count == win["count"]
    frame = run.to_frame()
    assert frame.height == 10 and (frame["outcome"] == "win").sum() == win["count"]
    assert "MatchResult" in repr(run) and "<table>" in run._repr_html_()


def test_a_party_needs_an_opponent_of_its_game_and_a_deck_none() -> None:
    party, foe = PAIRS["anima-tactics"]
    with pytest.raises(UsageError, match="vs="):
        deckkit.simulate(party, games=2)
    with pytest.raises(UsageError, match="Animus file"):
        deckkit.simulate(party, vs=PAIRS["animus"][1], games=2)
    with pytest.raises(UsageError, match="solitaire"):
        deckkit.simulate(DECKS / "easy-solo.deck", vs=foe, games=2)
