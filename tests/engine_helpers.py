"""Building blocks for engine tests: a bare game on a chosen field with chosen cards."""

from __future__ import annotations

import itertools
import tempfile
from collections.abc import Sequence
from pathlib import Path

from deckkit.animayhem.construction.carddb import CardDB, load_card_db
from deckkit.animayhem.construction.cards import AnyCard, CharacterCard, DisasterCard
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, Edition, load_edition
from deckkit.animayhem.construction.effectdb import read_effects_file
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.chance import ScriptedChance, SeededChance
from deckkit.animayhem.engine.field import Cell, all_distances, build_field, compact_cells
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.movement import place_disaster
from deckkit.animayhem.engine.play import GameOptions, GameSetup, play_game, prepare_game
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, Loc, Trace, Triggers

SAMPLE_DECKS = Path(__file__).resolve().parent.parent / "decks"

# Nine plain locations (no symbols, damage or defense): the rulebook's 3 x 3 solitaire field.
NINE = [
    "Sewer",
    "Telephone Pole",
    "Mt. Muldoon",
    "Cathedral",
    "Country Bar",
    "Survival Shot",
    "Furinkan High",
    "Tea Room Transylvania",
    "Tokyo Mega Dome",
]


def db() -> CardDB:
    return load_card_db()


def card(name: str) -> AnyCard:
    """The one card of that name in the database."""
    found = db().lookup(name)
    assert len(found) == 1, f"{name!r} matches {len(found)} cards"
    return found[0]


_uids = itertools.count(10_000)


def uid() -> int:
    """A fresh card uid for cards a test places by hand."""
    return next(_uids)


def bare_game(
    locations: Sequence[str],
    cells: Sequence[Cell] | None = None,
    chance: SeededChance | None = None,
) -> Game:
    """A traced game whose field holds the named locations (compact layout unless ``cells``)."""
    game = Game(chance or ScriptedChance(), GameRecord(0, "stall", 0, 0, 0, 0, ""), Trace())
    game.field = build_field(list(cells) if cells else compact_cells(len(locations)))
    game.locs = [Loc(i, Copy(uid(), card(n))) for i, n in enumerate(locations)]  # type: ignore[attr-defined]
    game.dist = all_distances(game.field)
    return game


def add_char(game: Game, name: str, slot: int) -> Char:
    c = card(name)
    assert isinstance(c, CharacterCard)
    ch = Char(uid(), c)  # type: ignore[attr-defined]
    ch.zone = "field" if slot >= 0 else "haven"
    ch.slot = slot
    game.chars.append(ch)
    refresh(game, ch)
    return ch


def new_disaster(game: Game, name: str) -> Dis:
    c = card(name)
    assert isinstance(c, DisasterCard)
    return Dis(uid(), c)  # type: ignore[attr-defined]


def copy_of(game: Game, name: str) -> Copy:
    return Copy(uid(), card(name))  # type: ignore[attr-defined]


def stack_combat_pile(game: Game, names: Sequence[str]) -> None:
    """Combat cards drawn in the order given (the pile is drawn from its end)."""
    game.combat_pile = [copy_of(game, n) for n in reversed(names)]


def edition(name: str) -> Edition:
    return load_edition(name)


class ScriptedPolicy(Policy):
    """Fighters named by the test, never retreats, always continues."""

    def __init__(self, fighters: Sequence[str] = ()) -> None:
        self.names = list(fighters)

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        if not self.names:
            return super().fighters(game, d, able, target, cap)
        return [c for c in able if c.name in self.names]


def effect_table(policy: Policy | None = None, chance: SeededChance | None = None) -> Game:
    """A bare game on the nine-location field, in turn 1, whose effects call back into the rules
    of guidelines1998 with ``policy``."""
    game = bare_game(NINE, chance=chance)
    game.hooks = EngineHooks(edition("guidelines1998"), policy or ScriptedPolicy())
    game.turn = 1
    return game


def on_field(game: Game, d: Dis, slot: int) -> Dis:
    """Put a disaster face up at ``slot``."""
    place_disaster(game, d, game.field.path_index[slot])
    return d


def entry_of(card: AnyCard, body: str) -> Triggers:
    """The effects an entry of ``body`` (TOML) gives ``card``, read by the real loader."""
    text = f'[{card.id}]\nname = "{card.name}"\ncoverage = "full"\n{body}\n'
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "t.toml"
        path.write_text(text, encoding="utf-8")
        entry = read_effects_file(path, {c.id: c for c in db().cards}, db().vocabulary)
    fx = by_trigger(entry[card.id])
    assert fx is not None
    return fx


def sample_setup(deck: str) -> GameSetup:
    """decks/DECK prepared under its edition (the default one when it names none) and the
    default game options."""
    cards = read_deck(SAMPLE_DECKS / deck, load_card_db())
    return prepare_game(cards, load_edition(cards.edition or DEFAULT_EDITION), GameOptions())


def play_sample_deck(deck: str, policy: Policy, seed: int, games: int) -> None:
    """Games 0..games-1 of ``seed`` on decks/DECK, played by ``policy`` (a checking player
    subclass records what it saw)."""
    setup = sample_setup(deck)
    for i in range(games):
        play_game(setup, policy, seed, i)
