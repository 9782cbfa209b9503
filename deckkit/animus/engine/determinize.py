"""Copies of a battle, and the copies a player may imagine: every card it cannot see dealt
again among the places it could be (a determinization), for the search player.

What a player knows is :func:`deckkit.animus.engine.queries.known_hand` and ``known_deck``: the
board, both discard piles and the Entities are public; its own hand; the cards the reveal()
abilities and revealed Reset cards show. The rest of each side's hand and deck is one pool
whose cards are shuffled back into the unknown places, never read from the true order; dice not
yet rolled come from the copy's own chance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from deckkit.animus.engine.queries import known_deck, known_hand
from deckkit.animus.engine.record import BattleRecord
from deckkit.animus.engine.state import Battle, Side, Unit
from deckkit.core.chance import Chance

if TYPE_CHECKING:
    from deckkit.animus.engine.policy import BattlePolicy


def _copy_unit(unit: Unit) -> Unit:
    return Unit(unit.card, unit.side, unit.index, unit.damage, unit.acted, unit.tactical_used)


def _copy_side(side: Side, units: dict[int, Unit]) -> Side:
    def mapped(u: Unit) -> Unit:
        copy = _copy_unit(u)
        units[id(u)] = copy
        return copy

    out = Side(side.index, side.team, side.entity)
    out.deck = list(side.deck)
    out.hand = list(side.hand)
    out.discard = list(side.discard)
    out.melee = mapped(side.melee) if side.melee is not None else None
    out.range = [mapped(u) if u is not None else None for u in side.range]
    out.support = [mapped(u) for u in side.support]
    out.levels_lost = side.levels_lost
    out.played = side.played
    out.switched = side.switched
    out.tactical_used = side.tactical_used
    out.entity_tactical_used = side.entity_tactical_used
    out.seen = dict(side.seen)
    return out


def copy_battle(
    battle: Battle,
    chance: Chance,
    policies: tuple[BattlePolicy, BattlePolicy],
    trace: Callable[[str], None] | None = None,
) -> Battle:
    """An independent copy of ``battle`` that draws from ``chance`` and is played by
    ``policies`` (the cards are shared: they never change)."""
    units: dict[int, Unit] = {}
    sides = (_copy_side(battle.sides[0], units), _copy_side(battle.sides[1], units))
    rec = battle.record
    record = BattleRecord(
        rec.winner,
        rec.reason,
        rec.turns,
        rec.first,
        list(rec.levels_lost),
        [[list(counts) for counts in side] for side in rec.cards],
        {k: list(v) for k, v in rec.matchups.items()},
    )
    return Battle(
        sides,
        battle.options,
        battle.numbers,
        chance,
        policies,
        record,
        battle.active,
        battle.turn,
        battle.over,
        battle.resolving_reaction,
        trace,
        battle.phase,
    )


def deal(battle: Battle, viewer: int, chance: Chance) -> None:
    """Deal ``battle`` (a copy) again as side ``viewer`` may imagine it: on each side, the hand
    and deck cards the viewer cannot identify are shuffled among the places they hold."""
    for side in battle.sides:
        hand = known_hand(battle, viewer, side.index)
        deck = known_deck(battle, viewer, side.index)
        pool = [side.hand[i] for i, c in enumerate(hand) if c is None]
        pool += [side.deck[i] for i, c in enumerate(deck) if c is None]
        if len(pool) < 2:
            continue
        # In team order before the shuffle: the deal depends on which cards are unknown, never
        # on where they truly are.
        pool.sort(key=side.team.index)
        chance.shuffle(pool)
        k = 0
        for i, c in enumerate(hand):
            if c is None:
                side.hand[i] = pool[k]
                k += 1
        for i, c in enumerate(deck):
            if c is None:
                side.deck[i] = pool[k]
                k += 1
