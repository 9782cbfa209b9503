"""The order in which the report measures card impact within its budget: the cards whose value
the run already shows most clearly first, so that a small budget is spent where the page most
needs an answer (SimulationCraft's scale factors spend their iterations the same way: on the
stats whose weight is still uncertain and large)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, TypeVar

C = TypeVar("C")


def by_clearest_signal(cards: Sequence[C], observed: Sequence[dict[str, Any]]) -> list[C]:
    """``cards`` (objects with an ``id``) ordered by the correlational view: rows with enough
    games first, by the size of the difference in win rate with and without the card, then the
    rest in deck order."""

    def key(item: tuple[int, C]) -> tuple[int, float, int]:
        index, card = item
        row = rows.get(str(getattr(card, "id", "")))
        if row is None or not row.get("supported") or row.get("difference") is None:
            return (1, 0.0, index)
        return (0, -abs(float(row["difference"])), index)

    rows = {str(o["id"]): o for o in observed}
    return [card for _, card in sorted(enumerate(cards), key=key)]
