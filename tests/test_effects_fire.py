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
from deckkit.animayhem.policy import HeuristicPolicy, Policy, make_policy
from deckkit.animayhem.record import CardStat
from deckkit.animayhem.state import Char, Copy, Dis, Game
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


# Cards that give effects something to act on: vehicles of each kind, a weapon, a suit,
# computer and science cards, money, music, food and clothing items, a Saiyan and an Android.
BAIT = ("am158", "am178", "am175", "am161", "am159", "am166", "am163", "am203",
        "am384", "am418", "am420", "am389", "am033", "am008")  # fmt: skip


def companions(cards: tuple[AnyCard, ...]) -> list[AnyCard]:
    """Characters an effect's condition names ("if Unipuma is here"), so it can come true."""
    db = load_card_db()
    names: set[str] = set()
    for card in cards:
        for e in card.effects.effects if card.effects else ():
            names.update(e.if_in_play)
            for req in (e.when_met, e.filter):
                if req is not None:
                    names.update(str(t) for alt in req.alternatives for t in alt
                                 if type(t).__name__ == "NameTerm")  # fmt: skip
    out = []
    for name in sorted(names):
        out += [c for c in db.cards if c.type is CardType.CHARACTER and name in c.name][:1]
    return out


def deck_with(cards: tuple[AnyCard, ...]) -> Deck:
    """The demo deck with ``cards`` in: disasters take most of its disaster slots (two copies
    each, so they are met often); other cards join their piles with the bait and companions."""
    db = load_card_db()
    base = demo()
    dis = [c for c in cards if c.type is CardType.DISASTER]
    entries = [e for e in base.entries if e.card.type is not CardType.DISASTER]
    entries += [e for e in base.entries if e.card.type is CardType.DISASTER][: 4 if dis else 99]
    entries += [DeckEntry(c, 2, 0) for c in dis]
    extra = [c for c in cards if c.type is not CardType.DISASTER]
    extra += [db.get(cid) for cid in BAIT] + companions(cards)
    seen = {e.card.id for e in entries}
    for c in extra:
        if c.id not in seen:
            seen.add(c.id)
            entries.append(DeckEntry(c, 1, 0))
    return replace(base, entries=tuple(entries))


BATCHES = _batches(
    encoded({CardType.DISASTER})
    + encoded({CardType.CHARACTER})
    + encoded({CardType.FLASH_EFFECT, CardType.GLOBAL_EFFECT})
    + encoded({CardType.EQUIPMENT, CardType.ENHANCEMENT, CardType.ITEM})
)


class EagerPolicy(HeuristicPolicy):
    """The heuristic player, but it plays every flash effect at its first combat and gives up
    any item asked for: a test device that exercises every card a deck holds."""

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        flash = [
            x for x in game.hand if isinstance(x, Copy) and x.card.type is CardType.FLASH_EFFECT
        ]
        return [(x, target) for x in flash[:1]]

    def pay_item(self, game: Game, source: Dis | Char | Copy) -> bool:
        return True


def policies() -> list[Policy]:
    return [make_policy("heuristic"), make_policy("random"), EagerPolicy()]


@pytest.mark.parametrize("batch", BATCHES, ids=lambda b: f"{b[0].id}-{b[-1].id}")
def test_every_encoded_effect_fires(batch: tuple[AnyCard, ...]) -> None:
    setup = prepare_game(deck_with(batch), load_edition("guidelines1998"), GameOptions(turn_cap=60))
    fired: Counter[str] = Counter()
    for policy in policies():
        for i in range(GAMES):
            game = start_game(setup, policy, 1000 + i, i)
            record = finish(game, setup, policy, lambda g: check_invariants(g, setup))
            for (cid, stat), n in record.counters.items():
                if stat is CardStat.EFFECTS:
                    fired[cid] += n
    silent = [f"{c.id} {c.name}" for c in batch if not fired[c.id]]
    assert not silent, f"never fired in {3 * GAMES} games: {silent}"
