"""One battle's mutable state: two sides, their piles and their positions.

Positions ("Combat and Combat Positions"): one Melee Position, Range Positions on the left and
right, and Support Position. Range slot ``k`` of one side faces the other side's slot ``1 - k``
(left faces right across the table).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.rules import RuleNumbers
from deckkit.animus.engine.record import BattleRecord

if TYPE_CHECKING:
    from deckkit.animus.engine.policy import BattlePolicy
    from deckkit.core.chance import Chance

MELEE = "melee"
RANGE = "range"
SUPPORT = "support"
# A slot: (position, index): ("melee", 0), ("range", 0 | 1), ("support", i).
Slot = tuple[str, int]


@dataclass(slots=True, eq=False)
class Unit:
    """A character in play."""

    card: Card
    side: int
    index: int  # its place in its team, for the counters
    damage: int = 0
    acted: bool = False  # attacked or used its Combat ability this turn
    tactical_used: bool = False

    def __repr__(self) -> str:
        return f"{self.card.name}[{self.damage}]"


@dataclass(slots=True)
class Side:
    index: int
    team: tuple[Card, ...]
    entity: Card | None
    deck: list[Card] = field(default_factory=list)  # the top is the end of the list
    hand: list[Card] = field(default_factory=list)
    discard: list[Card] = field(default_factory=list)
    melee: Unit | None = None
    range: list[Unit | None] = field(default_factory=lambda: [None, None])
    support: list[Unit] = field(default_factory=list)
    levels_lost: int = 0
    played: bool = False  # played a card this turn
    switched: bool = False  # switched positions this turn
    tactical_used: bool = False  # used a Tactical ability this turn (one_per_turn)
    entity_tactical_used: bool = False  # the Entity's Tactical ability, once per turn
    # Who knows where a card of this side's hand or deck is, beyond its owner's own hand: a
    # bit per side (1 << side). Set when a card is seen face up on top of the deck as it is
    # drawn, and when it is put on the bottom (the owner knows; a revealed card, both).
    seen: dict[Card, int] = field(default_factory=dict)

    def units(self) -> list[Unit]:
        """Characters in play, front to back."""
        out = [self.melee] if self.melee is not None else []
        for u in self.range:
            if u is not None:
                out.append(u)
        out += self.support
        return out

    def fighters(self) -> list[Unit]:
        """Characters in Melee or Range Position."""
        out = [self.melee] if self.melee is not None else []
        out.extend(u for u in self.range if u is not None)
        return out

    def slot_of(self, unit: Unit) -> Slot:
        if self.melee is unit:
            return (MELEE, 0)
        for k, u in enumerate(self.range):
            if u is unit:
                return (RANGE, k)
        return (SUPPORT, self.support.index(unit))

    def at(self, slot: Slot) -> Unit | None:
        pos, k = slot
        if pos == MELEE:
            return self.melee
        if pos == RANGE:
            return self.range[k]
        return self.support[k] if k < len(self.support) else None

    def put(self, slot: Slot, unit: Unit | None) -> None:
        pos, k = slot
        if pos == MELEE:
            self.melee = unit
        elif pos == RANGE:
            self.range[k] = unit
        elif unit is None:
            del self.support[k]
        elif k < len(self.support):
            self.support[k] = unit
        else:
            self.support.append(unit)

    def shows_opponent_hand(self) -> bool:
        """A reveal(what=opponent_hand) of its Entity or of a character in play: the other
        side plays with its hand face up."""
        if self.entity is not None and self.entity.shows_opponent_hand:
            return True
        return any(u.card.shows_opponent_hand for u in self.units())

    def shows_deck_top(self) -> bool:
        """A reveal(what=deck_top) of its Entity or of a character in play: the top card of
        this side's deck is face up."""
        if self.entity is not None and self.entity.shows_deck_top:
            return True
        return any(u.card.shows_deck_top for u in self.units())

    def has_characters(self) -> bool:
        return bool(self.hand or self.deck or self.melee or any(self.range) or self.support)


@dataclass(slots=True)
class Battle:
    sides: tuple[Side, Side]
    options: RuleOptions
    numbers: RuleNumbers
    chance: Chance
    policies: tuple[BattlePolicy, BattlePolicy]
    record: BattleRecord
    active: int = 0
    turn: int = 0
    over: bool = False
    resolving_reaction: bool = False
    trace: Callable[[str], None] | None = None
    phase: int = 0  # the phase of the turn under way: an index of phases.PHASES

    def log(self, text: str) -> None:
        if self.trace is not None:
            self.trace(text)

    def finish(self, winner: int | None, reason: str) -> None:
        if not self.over:
            self.over = True
            self.record.winner = winner
            self.record.reason = reason
            self.log(f"end: {'draw' if winner is None else f'side {winner} wins'} ({reason})")

    # Standing (Ongoing) values: a card's own, its team's characters in play, its Entity.
    def value(self, unit: Unit, kind: str) -> int:
        card = unit.card
        side = self.sides[unit.side]
        entity = side.entity
        melee = kind == MELEE
        if melee:
            total = card.melee + card.own_melee + (entity.team_melee if entity else 0)
        else:
            total = card.range + card.own_range + (entity.team_range if entity else 0)
        for u in (side.melee, *side.range, *side.support):
            if u is not None:
                total += u.card.team_melee if melee else u.card.team_range
        return total if total > 0 else 0

    def kill_threshold(self, unit: Unit) -> int:
        return self.numbers.kill_tokens + unit.card.tough

    def has_edge(self, unit: Unit) -> bool:
        return unit.card.edge

    def hand_size(self, side: Side) -> int:
        return self.numbers.hand_size + (side.entity.extra_hand if side.entity else 0)
