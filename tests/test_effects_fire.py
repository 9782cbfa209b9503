"""Every encoded card's effect fires in real games, and the game invariants hold throughout.

Decks are the demo deck with a batch of encoded cards swapped in (its disasters, or added to
its characters and power cards), played by both policies; an encoded card whose effect never
acts in any of those games is either encoded wrong or fired by no rule, and the test names it.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from functools import cache
from pathlib import Path

import pytest

from deckkit.animayhem.carddb import load_card_db
from deckkit.animayhem.cards import AnyCard, CardType, Coverage
from deckkit.animayhem.deck import Deck, DeckEntry, read_deck
from deckkit.animayhem.editions import load_edition
from deckkit.animayhem.play import GameOptions, finish, prepare_game, start_game
from deckkit.animayhem.policy import make_policy
from deckkit.animayhem.record import CardStat
from tests.test_invariants import check_invariants

ROOT = Path(__file__).resolve().parent.parent
GAMES = 24  # per batch and policy
BATCH = 12
# What cannot fire in a solitaire game of these decks, by design of the test decks (each
# named card says why); everything else must.
NEVER_IN_THESE_DECKS: dict[str, str] = {}


@cache
def demo() -> Deck:
    return read_deck(ROOT / "decks" / "demo-solo.deck", load_card_db())


def encoded(types: set[CardType]) -> list[AnyCard]:
    return [
        c
        for c in load_card_db().cards
        if c.type in types
        and c.effects is not None
        and c.effects.effects
        and c.coverage is not Coverage.NONE
        and c.id not in NEVER_IN_THESE_DECKS
    ]


def _batches(cards: list[AnyCard]) -> list[tuple[AnyCard, ...]]:
    return [tuple(cards[i : i + BATCH]) for i in range(0, len(cards), BATCH)]


def deck_with(cards: tuple[AnyCard, ...]) -> Deck:
    """The demo deck with ``cards`` in: disasters replace half its disasters (two copies
    each, so they are met often); others join their piles."""
    base = demo()
    dis = [c for c in cards if c.type is CardType.DISASTER]
    entries = list(base.entries)
    if dis:
        entries = [e for e in entries if e.card.type is not CardType.DISASTER][:]
        keep = [e for e in base.entries if e.card.type is CardType.DISASTER][:4]
        entries += keep + [DeckEntry(c, 2, 0) for c in dis]
    entries += [DeckEntry(c, 1, 0) for c in cards if c.type is not CardType.DISASTER]
    return replace(base, entries=tuple(entries))


BATCHES = _batches(
    encoded({CardType.DISASTER})
    + encoded({CardType.CHARACTER})
    + encoded({CardType.FLASH_EFFECT, CardType.GLOBAL_EFFECT})
    + encoded({CardType.EQUIPMENT, CardType.ENHANCEMENT, CardType.ITEM})
)


@pytest.mark.parametrize("batch", BATCHES, ids=lambda b: f"{b[0].id}-{b[-1].id}")
def test_every_encoded_effect_fires(batch: tuple[AnyCard, ...]) -> None:
    setup = prepare_game(deck_with(batch), load_edition("guidelines1998"), GameOptions(turn_cap=60))
    fired: Counter[str] = Counter()
    for policy_name in ("heuristic", "random"):
        policy = make_policy(policy_name)
        for i in range(GAMES):
            game = start_game(setup, policy, 1000 + i, i)
            record = finish(game, setup, policy, lambda g: check_invariants(g, setup))
            for (cid, stat), n in record.counters.items():
                if stat is CardStat.EFFECTS:
                    fired[cid] += n
    silent = [f"{c.id} {c.name}" for c in batch if not fired[c.id]]
    assert not silent, f"never fired in {2 * GAMES} games: {silent}"
