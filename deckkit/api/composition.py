"""What a deck is before any game is played (:mod:`deckkit.animayhem.deckstats`): composition,
skills brought against skills asked for, exact draw chances by turn, sample opening hands."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import DEFAULT_EDITION, load_edition
from deckkit.animayhem.deckstats import DEFAULT_TURNS, deck_stats
from deckkit.api.deckinput import read_deck_arg


def stats(
    deck: str | Path | Deck,
    *,
    edition: str | None = None,
    turns: Sequence[int] = DEFAULT_TURNS,
    draws_per_turn: int = 1,
    hands: int = 3,
    seed: int = 0,
) -> dict[str, Any]:
    """The document of `deckkit stats --format json`: the chance of having drawn each card or
    kind by each of ``turns`` (0: the opening hand) under the edition's draw rules, and
    ``hands`` sample opening hands (games 0, 1, ... of a run seeded ``seed``)."""
    parsed = deck if isinstance(deck, Deck) else read_deck_arg(Path(deck), load_card_db())
    ed = load_edition(edition or parsed.edition or DEFAULT_EDITION)
    return deck_stats(
        parsed, ed, turns=tuple(turns), draws_per_turn=draws_per_turn, hands=hands, seed=seed
    )
