"""`deckkit stats TEAM`: an Animus team's draw chances, exact, as the engine deals the deck."""

from __future__ import annotations

import json
from math import comb
from pathlib import Path

from typer.testing import CliRunner

from deckkit.animus.construction.team import read_team
from deckkit.animus.deckstats import sample_hands, team_stats
from deckkit.animus.engine.play import Lineup, setup
from deckkit.cli.main import app
from deckkit.core.chance import SeededChance
from deckkit.errors import EXIT_BAD_INPUT

ROOT = Path(__file__).resolve().parent.parent
DECKS = ROOT / "decks"
TEAM, OTHER = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
runner = CliRunner()


def test_the_chances_are_the_shuffle_s_exact_odds() -> None:
    doc = team_stats(read_team(TEAM), turns=(0, 1, 2, 6), draws_per_turn=1)
    assert doc["drawn"] == [3, 4, 5, 9]  # 3 dealt; each Reset Phase draws the played card again
    rows = {r["key"]: r for r in doc["draw_chances"]}
    one = rows["card:Astrid Kell"]["chances"]
    assert one == [3 / 9, 4 / 9, 5 / 9, 1.0]
    powers = rows["type:Power"]
    assert powers["copies"] == 3
    assert powers["chances"][0] == 1 - comb(6, 3) / comb(9, 3)
    two = team_stats(read_team(TEAM), turns=(1, 3), draws_per_turn=2)
    assert two["drawn"] == [5, 9]


def test_an_entity_s_hand_size_draws_more(tmp_path: Path) -> None:
    text = TEAM.read_text(encoding="utf-8").replace(
        "entity: The Ember Throne", "entity: The Lattice Mind"
    )
    team = tmp_path / "lattice.team"
    team.write_text(text, encoding="utf-8")
    doc = team_stats(read_team(team), turns=(0, 1, 2))
    assert doc["draw"]["hand_size"] == 4
    assert doc["drawn"] == [3, 5, 6]


def test_sample_hands_are_the_hands_the_engine_deals() -> None:
    team, other = read_team(TEAM), read_team(OTHER)
    hands = sample_hands(team, 7, 4)
    for i, hand in enumerate(hands):
        battle = setup(
            (Lineup(team.cards, team.entity), Lineup(other.cards, other.entity)),
            team.options,
            SeededChance.for_game(7, i),
        )
        assert hand == sorted((c.name for c in battle.sides[0].hand), key=str.casefold)
    assert len({tuple(h) for h in hands}) > 1


def test_stats_command_text_json_and_refusals() -> None:
    result = runner.invoke(app, ["stats", str(TEAM), "--turns", "0,2", "-f", "json"])
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["game"] == "animus" and doc["turns"] == [0, 2] and doc["sample_hands"]
    text = runner.invoke(app, ["stats", str(TEAM)])
    assert text.exit_code == 0 and "Chance to have drawn at least one" in text.stdout
    seat = runner.invoke(app, ["stats", str(DECKS / "animus-seat-greedy.team")])
    assert seat.exit_code == EXIT_BAD_INPUT and "draft seat" in seat.stderr
    bad = runner.invoke(app, ["stats", str(TEAM), "--turns", "x"])
    assert bad.exit_code == EXIT_BAD_INPUT
