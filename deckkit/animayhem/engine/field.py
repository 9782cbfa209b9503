"""The field: where location cards lie, who is adjacent to whom, and the path disasters follow.

Set0 rulebook, "Field Layouts > Solitaire": each location is placed adjacent to one already on the
field, side-to-side or corner-to-corner; characters move to any adjacent location (diagonals too);
disasters ignore blank spaces and never move diagonally. "Maintenance Phase": a disaster enters at
the top of the rightmost column, moves down it, then to the top of the next column to the left,
and leaves the field after the bottom of the leftmost column. "Solitaire: Straight Line": one row,
disasters enter at the right end and move left.
"""

from __future__ import annotations

import math
from collections import deque
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Literal

from deckkit.animayhem.engine.chance import Chance

Layout = Literal["compact", "random", "straight-line"]
LAYOUTS: tuple[Layout, ...] = ("compact", "random", "straight-line")

Cell = tuple[int, int]  # (column, row); column 0 is leftmost, row 0 is the top


@dataclass(frozen=True, slots=True)
class Field:
    """Geometry of one laid-out field. Locations are referred to by slot index 0..n-1."""

    cells: tuple[Cell, ...]
    neighbours: tuple[tuple[int, ...], ...]  # side- or corner-adjacent slots, for characters
    path: tuple[int, ...]  # the disaster path: slot indices in visiting order
    path_index: tuple[int, ...]  # slot -> its position on the path
    haven_slot: int  # the location the starting haven is annexed to
    haven_cell: Cell

    def __reduce__(self) -> tuple[type[Field], tuple[object, ...]]:
        """Pickled by its fields: the compiled class's frozen fields refuse the default
        reconstruction, which sets them one by one."""
        return (
            Field,
            (
                self.cells,
                self.neighbours,
                self.path,
                self.path_index,
                self.haven_slot,
                self.haven_cell,
            ),
        )

    @property
    def size(self) -> int:
        return len(self.cells)

    def distances_from(self, start: int) -> list[int]:
        """Steps between locations for characters (a breadth-first search over adjacency)."""
        dist = [-1] * len(self.cells)
        dist[start] = 0
        queue = deque([start])
        while queue:
            here = queue.popleft()
            for nxt in self.neighbours[here]:
                if dist[nxt] < 0:
                    dist[nxt] = dist[here] + 1
                    queue.append(nxt)
        return dist

    def render(self, labels: Sequence[str] | None = None) -> str:
        """A small text picture of the field with the haven marked H, for traces and docs."""
        cells = list(self.cells) + ([self.haven_cell] if self.haven_cell != (-1, -1) else [])
        c0 = min(c for c, _ in cells)
        r0 = min(r for _, r in cells)
        cols = max(c for c, _ in cells) - c0 + 1
        rows = max(r for _, r in cells) - r0 + 1
        width = max((len(x) for x in labels), default=1) if labels else 2
        grid = [["." + " " * (width - 1) for _ in range(cols)] for _ in range(rows)]
        for i, (c, r) in enumerate(self.cells):
            grid[r - r0][c - c0] = (labels[i] if labels else str(i)).ljust(width)
        if self.haven_cell != (-1, -1):
            hc, hr = self.haven_cell
            grid[hr - r0][hc - c0] = "H".ljust(width)
        return "\n".join(" ".join(row).rstrip() for row in grid)


def disaster_path(cells: Sequence[Cell]) -> tuple[int, ...]:
    """Rightmost column first, top to bottom, then the next column to the left; gaps are skipped
    (set0 rulebook, "Maintenance Phase" and "Field Layouts > Solitaire")."""
    order = sorted(range(len(cells)), key=lambda i: (-cells[i][0], cells[i][1]))
    return tuple(order)


def _adjacent(a: Cell, b: Cell) -> bool:
    return a != b and abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def build_field(cells: Sequence[Cell], haven_slot: int | None = None) -> Field:
    """Normalise cells (top-left at 0,0), compute adjacency and the disaster path, and annex the
    starting haven to a perimeter location ("Once the field is complete, place your starting
    haven card adjacent to one of your location cards")."""
    if not cells:
        raise ValueError("a field needs at least one location")
    if len(set(cells)) != len(cells):
        raise ValueError("two locations on one cell")
    min_c = min(c for c, _ in cells)
    min_r = min(r for _, r in cells)
    norm = tuple((c - min_c, r - min_r) for c, r in cells)
    neighbours = tuple(
        tuple(j for j in range(len(norm)) if _adjacent(norm[i], norm[j])) for i in range(len(norm))
    )
    path = disaster_path(norm)
    path_index = [0] * len(norm)
    for pos, slot in enumerate(path):
        path_index[slot] = pos
    occupied = set(norm)
    shell = Field(norm, neighbours, path, tuple(path_index), 0, (-1, -1))

    def free_cells(slot: int) -> list[Cell]:
        c, r = norm[slot]
        return [
            (c + dc, r + dr)
            for dr in (1, 0, -1)
            for dc in (0, -1, 1)
            if (dc or dr) and (c + dc, r + dr) not in occupied
        ]

    if haven_slot is None:
        # The slot with a free neighbouring cell that is closest, on total, to every location.
        best: tuple[int, int] | None = None
        for slot in range(len(norm)):
            if not free_cells(slot):
                continue
            total = sum(shell.distances_from(slot))
            if best is None or total < best[0]:
                best = (total, slot)
        if best is None:  # impossible for a finite field, kept for the type checker
            raise ValueError("no room beside the field for a haven")
        haven_slot = best[1]
    cells_free = free_cells(haven_slot)
    haven_cell = cells_free[0] if cells_free else (-1, -1)
    return Field(norm, neighbours, path, tuple(path_index), haven_slot, haven_cell)


def compact_cells(n: int) -> list[Cell]:
    """A near-square block filled row by row: 9 locations make the rulebook's 3 x 3."""
    cols = max(1, math.ceil(math.sqrt(n)))
    return [(i % cols, i // cols) for i in range(n)]


def line_cells(n: int) -> list[Cell]:
    """One horizontal row ("Solitaire: Straight Line")."""
    return [(i, 0) for i in range(n)]


def random_cells(n: int, chance: Chance) -> list[Cell]:
    """Each new location goes on a random free cell adjacent (side or corner) to the field."""
    cells: list[Cell] = [(0, 0)]
    taken = {(0, 0)}
    while len(cells) < n:
        frontier = sorted(
            {
                (c + dc, r + dr)
                for c, r in cells
                for dc in (-1, 0, 1)
                for dr in (-1, 0, 1)
                if (c + dc, r + dr) not in taken
            }
        )
        cell = chance.pick(frontier)
        cells.append(cell)
        taken.add(cell)
    return cells


@lru_cache(maxsize=64)
def _fixed_field(n: int, layout: Layout) -> Field:
    """The compact and straight-line fields depend on the number of locations alone."""
    if layout == "compact":
        return build_field(compact_cells(n))
    return build_field(line_cells(n), haven_slot=n // 2)


@lru_cache(maxsize=64)
def all_distances(f: Field) -> tuple[tuple[int, ...], ...]:
    return tuple(tuple(f.distances_from(i)) for i in range(f.size))


def lay_out(n: int, layout: Layout, chance: Chance) -> Field:
    if layout in ("compact", "straight-line"):
        return _fixed_field(n, layout)
    if layout == "random":
        return build_field(random_cells(n, chance))
    raise ValueError(f"unknown layout {layout!r}")
