"""Players: they see what a human would, and the sensible one plays better than the floor."""

from __future__ import annotations

import random
from pathlib import Path

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.cards import CardType
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.phases import play_turn
from deckkit.animayhem.engine.play import GameOptions, play_game, prepare_game, start_game
from deckkit.animayhem.engine.policy import make_policy
from deckkit.animayhem.engine.state import Game

ROOT = Path(__file__).resolve().parent.parent


def _decisions(game: Game, policy_name: str = "heuristic") -> object:
    policy = make_policy(policy_name)
    ed = load_edition("guidelines1998")
    return (
        [([c.uid for c in party], route) for party, route in policy.moves(game, ed)],
        [x.uid for x in policy.discards(game)],
        [
            (choice[0].uid, choice[1].uid) if choice else None
            for choice in (
                policy.power_card(game, CardType.ENHANCEMENT, True),
                policy.power_card(game, CardType.EQUIPMENT, False),
            )
        ],
    )


def _reshuffle_hidden(game: Game, rng: random.Random) -> None:
    """Swap which face-down cards lie where, keeping every count a player can see."""
    disasters = [d for loc in game.locs for d in loc.hidden_disasters]
    items = [x for loc in game.locs for x in loc.hidden_cards]
    rng.shuffle(disasters)
    rng.shuffle(items)
    for loc in game.locs:
        n, m = len(loc.hidden_disasters), len(loc.hidden_cards)
        loc.hidden_disasters, disasters = disasters[:n], disasters[n:]
        loc.hidden_cards, items = items[:m], items[m:]
    rng.shuffle(game.draw_pile)
    rng.shuffle(game.combat_pile)


def test_heuristic_decides_on_visible_information_only() -> None:
    """A policy sees only what a human player would: rearranging the face-down cards (under the
    locations, in the draw and combat piles) never changes its decisions."""
    deck = read_deck(ROOT / "tests/data/wild-solo.deck", load_card_db())
    setup = prepare_game(deck, load_edition("guidelines1998"), GameOptions(layout="random"))
    checked = 0
    for seed in range(12):
        policy = make_policy("heuristic")
        game = start_game(setup, policy, seed, 0)
        try:
            for _ in range(1 + seed % 4):
                play_turn(game, setup.edition, policy)
        except GameOver:
            continue
        before = _decisions(game)
        for k in range(3):
            _reshuffle_hidden(game, random.Random(k))
            assert _decisions(game) == before
        checked += 1
    assert checked >= 8


def test_heuristic_beats_the_random_floor() -> None:
    """The sensible player wins more often than random legal play (same games, same seeds)."""
    deck = read_deck(ROOT / "tests/data/wild-solo.deck", load_card_db())
    setup = prepare_game(deck, load_edition("guidelines1998"))
    wins = {}
    for name in ("heuristic", "random"):
        policy = make_policy(name)
        wins[name] = sum(play_game(setup, policy, 5, i).outcome == "win" for i in range(200))
    assert wins["heuristic"] > wins["random"] + 40


def _fingerprint(game: Game) -> object:
    """Everything a decision must leave as it found it (the chance stream aside: a policy may
    draw from it to break ties)."""
    return (
        dict(game.record.counters),
        dict(game.fired),
        [(c.uid, c.zone, c.slot, c.health, tuple(c.cur), len(c.items)) for c in game.chars],
        [(d.uid, d.zone, d.pos, d.damage, d.defense) for d in game.disasters],
        [x.uid for x in game.hand],
        [(len(loc.hidden_cards), len(loc.hidden_disasters)) for loc in game.locs],
    )


def test_deciding_changes_nothing_in_the_game() -> None:
    """The player reads the game through read-only queries (engine.queries): weighing its moves,
    discards and cards never changes the state nor counts as a card's effect acting (it once
    counted a key's unlock each time the player merely considered a location)."""
    checked = 0
    for path in sorted((ROOT / "decks").glob("*.deck")):
        deck = read_deck(path, load_card_db())
        setup = prepare_game(deck, load_edition("guidelines1998"))
        for seed in range(4):
            policy = make_policy("heuristic")
            game = start_game(setup, policy, seed, 0)
            try:
                for _ in range(2 + seed):
                    before = _fingerprint(game)
                    _decisions(game)
                    assert _fingerprint(game) == before, f"{path.name} seed {seed}"
                    play_turn(game, setup.edition, policy)
                    checked += 1
            except GameOver:
                continue
    assert checked >= 20
