"""A deck: the cards a player brings, with the header values that pick players, edition, variant."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

from deckkit.animayhem.cards import AnyCard, CardType


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One deck line: ``count`` copies of ``card``, read from ``line`` of the deck file."""

    card: AnyCard
    count: int
    line: int
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    """A parsed deck file. Header values are defaults the CLI flags override."""

    name: str
    entries: tuple[DeckEntry, ...]
    players: int | None = None
    edition: str | None = None
    variant: str | None = None
    path: Path | None = None
    header: dict[str, str] = field(default_factory=dict)

    def cards(self) -> Iterator[AnyCard]:
        """Every copy, one card object per physical card."""
        for e in self.entries:
            for _ in range(e.count):
                yield e.card

    def of_type(self, *types: CardType) -> list[AnyCard]:
        return [c for c in self.cards() if c.type in types]

    def count(self, *types: CardType) -> int:
        return sum(e.count for e in self.entries if e.card.type in types)
