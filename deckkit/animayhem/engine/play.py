"""Play one solitaire game: the engine's single entry point.

Same setup, policy, seed and game index in, same record out: the chance object is derived from
(seed, index) alone, so game i can be replayed by itself with `deckkit play --seed S --game i`.
"""

from __future__ import annotations

from collections.abc import Callable

from deckkit.animayhem.construction.cards import AnyCard, CharacterCard, CharTemplate, Coverage
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.combat import GameOver
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.phases import turn
from deckkit.animayhem.engine.policy import Policy

# What a run's games are set up from, re-exported: play is the engine's entry point.
from deckkit.animayhem.engine.prepared import DEFAULT_TURN_CAP as DEFAULT_TURN_CAP
from deckkit.animayhem.engine.prepared import GameOptions as GameOptions
from deckkit.animayhem.engine.prepared import GameSetup as GameSetup
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.setup import deck_piles, set_up, take_back
from deckkit.animayhem.engine.state import Game, Trace, Triggers


def not_simulated(deck: Deck) -> list[str]:
    """The deck's cards whose text the engine does not play in full, each once, with how
    ("approximate" or "none")."""
    seen: dict[str, None] = {}
    for e in deck.entries:
        if e.card.coverage is not Coverage.FULL:
            seen.setdefault(f"{e.card.name} ({e.card.coverage.value})", None)
    return list(seen)


def effects_of(cards: list[AnyCard]) -> dict[str, Triggers]:
    """The deck's encoded effects grouped by trigger, once per deck. A card marked ``none``
    is not played even if it lists effects."""
    out: dict[str, Triggers] = {}
    for card in cards:
        if card.coverage is Coverage.NONE:
            continue
        fx = by_trigger(card.effects)
        if fx is not None:
            out[card.id] = fx
    return out


def prepare_game(deck: Deck, edition: Edition, options: GameOptions | None = None) -> GameSetup:
    cards = list(deck.cards())
    piles = deck_piles(cards)
    return GameSetup(
        edition=edition,
        options=options or GameOptions(),
        characters=tuple(piles["characters"]),
        locations=tuple(piles["locations"]),
        items=tuple(piles["items"]),
        havens=tuple(piles["havens"]),
        power=tuple(piles["power"]),
        disasters=tuple(piles["disasters"]),
        combat=tuple(piles["combat"]),
        not_simulated=tuple(not_simulated(deck)),
        templates=tuple(
            CharTemplate.of(c) for c in piles["characters"] if isinstance(c, CharacterCard)
        ),
        fx=effects_of(cards),
    )


def start_game(
    setup: GameSetup,
    policy: Policy,
    seed: int,
    index: int,
    trace: Trace | None = None,
    chance: SeededChance | None = None,
) -> Game:
    """A game laid out and dealt, before its first turn (tests drive it from here)."""
    record = GameRecord(index, "stall", 0, 0, 0, 0, "")
    game = Game(chance or SeededChance.for_game(seed, index), record, trace)
    set_up(game, setup, setup.edition, policy)
    return game


def finish(
    game: Game,
    setup: GameSetup,
    policy: Policy,
    after_phase: Callable[[Game], None] | None = None,
) -> GameRecord:
    """Play turns until an end condition or the turn cap; a capped game is a stall, never a
    silent loss."""
    cap = setup.options.turn_cap
    edition = setup.edition
    try:
        while game.turn < cap:
            if turn(game, edition, policy, after_phase):
                break
        else:
            game.outcome = "stall"
            game.ended = f"turn cap of {cap} reached"
            if game.trace is not None:
                game.say("end", f"game over: stall ({game.ended})")
    except GameOver:  # an end within a phase
        pass
    rec = game.record
    rec.outcome = game.outcome  # type: ignore[assignment]
    rec.turns = game.turn
    rec.items_in_play = game.items_in_play
    rec.items_retrieved = game.items_player()
    rec.items_lost = game.items_disasters()
    rec.end_reason = game.ended or ""
    return rec


def play_game(
    setup: GameSetup,
    policy: Policy,
    seed: int,
    index: int,
    trace: Trace | None = None,
    chance: SeededChance | None = None,
) -> GameRecord:
    """Play game ``index`` of a run seeded ``seed`` to its end."""
    game = start_game(setup, policy, seed, index, trace, chance)
    record = finish(game, setup, policy)
    release(game)
    take_back(game, setup)  # its characters, disasters and locations set up again next game
    return record


def release(game: Game) -> None:
    """Break a finished game's one reference cycle (a disaster that entered the field points
    back at its game), so reference counting frees the whole game when it is dropped. Left
    cyclic, every game was garbage only the cyclic collector could free, and each of its runs
    walks every young object alive."""
    for d in game.disasters_dealt:
        d.game = None
