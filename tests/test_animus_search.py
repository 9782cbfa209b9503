"""The Animus search player: registered by name, blind to what its side cannot see, seeded from
the game's seed (the same battles for any number of workers), and leaving the game's own dice
alone."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from deckkit.animus.construction.carddb import load_cards
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.team import read_team
from deckkit.animus.engine import phases
from deckkit.animus.engine.play import Lineup, setup
from deckkit.animus.engine.players import PLAYERS, make_player, search_budget
from deckkit.animus.engine.policy import HeuristicPolicy
from deckkit.animus.engine.search import SearchPolicy
from deckkit.animus.engine.state import Battle
from deckkit.animus.game import GAME
from deckkit.animus.montecarlo import Match, run
from deckkit.cli.animus import app
from deckkit.core.chance import SeededChance

DECKS = Path(__file__).resolve().parents[1] / "decks"
TEAM, VS = DECKS / "animus-vanguard.team", DECKS / "animus-counterpoint.team"
runner = CliRunner()


def test_the_search_player_is_one_of_the_games_players() -> None:
    assert "search" in GAME.players() and GAME.players()[0] == "heuristic"
    assert PLAYERS == ("heuristic", "random", "search")
    player = make_player("search:3")
    assert isinstance(player, SearchPolicy) and player.rollouts == 3
    assert search_budget("search") == 8
    for bad in ("search:0", "search:x", "search:1001", "clever"):
        assert search_budget(bad) is None
        with pytest.raises(ValueError):
            make_player(bad)


def _midgame(seed: int) -> Battle:
    """A battle of the sample teams after a few heuristic turns, side 0 to play."""
    a, b = read_team(TEAM), read_team(VS)
    battle = setup(
        (Lineup(a.cards, a.entity), Lineup(b.cards, b.entity)),
        RuleOptions(),
        SeededChance(seed),
        (HeuristicPolicy(), HeuristicPolicy()),
        first=0,
    )
    for _ in range(4):
        phases.take_turn(battle)
        battle.active = 1 - battle.active
    assert not battle.over and battle.active == 0
    phases.start_turn(battle)  # side 0's turn begins: its first choice is what to play
    return battle


def test_a_search_decision_leaves_the_games_dice_alone() -> None:
    """Its samples are seeded from the game's chance without drawing from it."""
    battle = _midgame(3)
    side = battle.sides[0]
    state = battle.chance._gen.getstate()  # type: ignore[attr-defined]
    player = SearchPolicy(2)
    player.choose_play(battle, side, mandatory=False)
    player.choose_combat(battle, side, phases.combat_options(battle, side))
    assert battle.chance._gen.getstate() == state  # type: ignore[attr-defined]
    assert player.decisions >= 1


def test_the_search_player_does_not_look_at_hidden_cards() -> None:
    """Reordering what side 0 cannot see (the opponent's hand and deck, its own deck) changes
    none of its choices nor the values it weighed them by."""
    answers = set()
    for order in range(4):
        battle = _midgame(11)
        hidden = battle.sides[1].hand + battle.sides[1].deck
        SeededChance(order).shuffle(hidden)
        n = len(battle.sides[1].hand)
        battle.sides[1].hand[:] = hidden[:n]
        battle.sides[1].deck[:] = hidden[n:]
        SeededChance(50 + order).shuffle(battle.sides[0].deck)
        side = battle.sides[0]
        player = SearchPolicy(3)
        play = player.choose_play(battle, side, mandatory=False)
        assert len(player.weighed) > 1  # a decision it weighed
        choice = None if play is None else (play[0].name, play[1])
        answers.add((choice, tuple(round(v, 9) for v in player.weighed)))
    assert len(answers) == 1


@pytest.mark.slow
def test_search_battles_are_the_same_for_any_number_of_workers() -> None:
    match = Match(TEAM, VS, read_team(TEAM).options, ("search:2", "heuristic"))
    one = run(match, games=4, seed=7, workers=1).tally
    two = run(match, games=4, seed=7, workers=2).tally
    assert (one.wins, one.turns, one.cards) == (two.wins, two.turns, two.cards)


def test_simulate_takes_policy_search_with_rollouts() -> None:
    args = ["simulate", str(TEAM), "--vs", str(VS), "-n", "2", "-f", "json"]
    result = runner.invoke(app, [*args, "--policy", "search", "--rollouts", "1"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["run"]["games"] == 2 and any("made up" in n for n in doc["notices"])
    refused = runner.invoke(app, [*args, "--rollouts", "3"])
    assert refused.exit_code == 2 and "add --policy search" in refused.output


def test_the_sample_set_makes_search_a_named_card_set_player() -> None:
    """The search player reads the sample's Entities like any other: a battle with the real
    Entity on one side plays to its end."""
    cards = load_cards()
    ai = cards.find("Omniscient Artificial Intelligence")
    a = read_team(TEAM)
    battle = setup(
        (Lineup(a.cards, ai), Lineup(read_team(VS).cards)),
        RuleOptions(),
        SeededChance(2),
        (SearchPolicy(1), HeuristicPolicy()),
    )
    while not battle.over:
        phases.take_turn(battle)
        if not battle.over:
            battle.active = 1 - battle.active
    assert battle.record.reason
