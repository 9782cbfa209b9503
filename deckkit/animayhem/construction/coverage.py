"""How much of the card text the engine plays: per card (full, approximate, none) and per type.

The targets are deckkit's own goals for the card-effects work: a win rate means little when the
cards that make a deck hard are played as blank numbers, so every result also lists the deck's
cards that are not played in full.
"""

from __future__ import annotations

from dataclasses import dataclass

from deckkit.animayhem.construction.carddb import CardDB
from deckkit.animayhem.construction.cards import POWER_TYPES, AnyCard, CardType, Coverage

# Share of cards `full` or `approximate` that the project aims for, by group.
TARGETS: dict[str, float] = {
    "disaster": 0.90,
    "character": 0.85,
    "power": 0.80,
    "location": 1.0,
    "item": 1.0,
    "haven": 1.0,
    "all": 0.85,
}


def group_of(card: AnyCard) -> str:
    """The coverage group: power cards together, every other type by itself."""
    return "power" if card.type in POWER_TYPES else card.type.value


@dataclass(frozen=True, slots=True)
class CoverageRow:
    group: str
    cards: int
    full: int
    approximate: int
    none: int

    @property
    def covered(self) -> float:
        return (self.full + self.approximate) / self.cards if self.cards else 1.0

    @property
    def target(self) -> float | None:
        return TARGETS.get(self.group)

    @property
    def meets_target(self) -> bool | None:
        t = self.target
        return None if t is None else self.covered >= t - 1e-9


def coverage_table(db: CardDB) -> list[CoverageRow]:
    """One row per card type (power cards also as one group), then ``all``."""
    counts: dict[str, list[int]] = {}
    order = [t.value for t in CardType if t not in POWER_TYPES]
    order.insert(order.index("combat"), "power")
    power_types = [t.value for t in CardType if t in POWER_TYPES]
    for card in db.cards:
        status, _ = db.coverage(card)
        idx = {Coverage.FULL: 0, Coverage.APPROXIMATE: 1, Coverage.NONE: 2}[status]
        keys = [group_of(card), "all"]
        if card.type in POWER_TYPES:
            keys.append(card.type.value)
        for key in keys:
            counts.setdefault(key, [0, 0, 0])[idx] += 1
    rows = []
    for group in [
        *order[: order.index("power") + 1],
        *power_types,
        *order[order.index("power") + 1 :],
        "all",
    ]:
        full, approx, none = counts.get(group, [0, 0, 0])
        rows.append(CoverageRow(group, full + approx + none, full, approx, none))
    return rows
