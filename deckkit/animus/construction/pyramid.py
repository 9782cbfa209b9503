"""The draft pyramid: 18 cards in rows, taken from the front ("Setup", Draft Characters).

"A player may only select cards that are faceup and do not have any other cards on top of them
... When a facedown card has no other cards on top of it, it is flipped faceup and revealed."
(animus-rules-v3.5.txt, "Setup"). The shape is data (rules.toml): a card rests on the cards of
the next row at its own index and the one before it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from deckkit.animus.construction.rules import PyramidLayout


@dataclass(frozen=True, slots=True)
class Shape:
    """Slots numbered row by row from the back; ``covers[s]``: the slots lying on slot s."""

    layout: PyramidLayout
    row_of: tuple[int, ...]
    covered_by: tuple[tuple[int, ...], ...]

    @classmethod
    def of(cls, layout: PyramidLayout) -> Shape:
        starts: list[int] = []
        total = 0
        for width in layout.rows:
            starts.append(total)
            total += width
        row_of: list[int] = []
        covered_by: list[tuple[int, ...]] = []
        for r, width in enumerate(layout.rows):
            for i in range(width):
                row_of.append(r)
                if r + 1 < len(layout.rows):
                    below = layout.rows[r + 1]
                    covered_by.append(
                        tuple(starts[r + 1] + j for j in (i - 1, i) if 0 <= j < below)
                    )
                else:
                    covered_by.append(())
        return cls(layout, tuple(row_of), tuple(covered_by))

    @property
    def size(self) -> int:
        return len(self.row_of)


@dataclass(slots=True)
class Pyramid:
    """A pyramid being drafted: which slots are taken and which are face up."""

    shape: Shape
    cards: list[str]  # card name per slot
    taken: list[bool] = field(default_factory=list)
    face_up: list[bool] = field(default_factory=list)

    def __post_init__(self) -> None:
        if len(self.cards) != self.shape.size:
            raise ValueError(f"a pyramid holds {self.shape.size} cards, not {len(self.cards)}")
        self.taken = [False] * self.shape.size
        self.face_up = [r in self.shape.layout.face_up_rows for r in self.shape.row_of]
        self._flip()

    def uncovered(self, slot: int) -> bool:
        return all(self.taken[s] for s in self.shape.covered_by[slot])

    def available(self) -> list[int]:
        """Slots a player may take now: face up with nothing on top."""
        return [
            s
            for s in range(self.shape.size)
            if not self.taken[s] and self.face_up[s] and self.uncovered(s)
        ]

    def visible(self) -> dict[int, str]:
        """What both players see: the face-up cards still in the pyramid."""
        return {
            s: self.cards[s]
            for s in range(self.shape.size)
            if self.face_up[s] and not self.taken[s]
        }

    def hidden_count(self) -> int:
        return sum(1 for s in range(self.shape.size) if not self.face_up[s] and not self.taken[s])

    def take(self, slot: int) -> str:
        if slot not in self.available():
            raise ValueError(f"slot {slot} cannot be taken now")
        self.taken[slot] = True
        self._flip()
        return self.cards[slot]

    def _flip(self) -> None:
        for s in range(self.shape.size):
            if not self.taken[s] and not self.face_up[s] and self.uncovered(s):
                self.face_up[s] = True


def picker_order(opening: tuple[int, ...], picks: int) -> list[int]:
    """Who takes each pick: the opening (first drafter 1, second 2) then alternating single
    picks "until all of the cards have been taken"."""
    order = list(opening[:picks])
    while len(order) < picks:
        order.append(1 - order[-1])
    return order
