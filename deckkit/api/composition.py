"""What a deck is before any game is played (the game's :class:`~deckkit.core.game.DeckStats`;
Ani-Mayhem's :mod:`deckkit.animayhem.deckstats`): composition, skills brought against skills
asked for, exact draw chances by turn, sample opening hands."""

from __future__ import annotations

from collections.abc import Sequence
from os import PathLike
from pathlib import Path
from typing import Any

from deckkit.api.deckinput import read_deck_arg
from deckkit.games import deck_stats


def stats(
    deck: str | Path | Any,
    *,
    edition: str | None = None,
    turns: Sequence[int] | None = None,
    draws_per_turn: int = 1,
    hands: int = 3,
    seed: int = 0,
) -> dict[str, Any]:
    """The document of `deckkit stats --format json`: the chance of having drawn each card or
    kind by each of ``turns`` (0: the opening hand; None: the game's default turns) under the
    edition's draw rules, and ``hands`` sample opening hands (games 0, 1, ... of a run seeded
    ``seed``). ``deck`` is a deck file (``-``: standard input) or an Ani-Mayhem deck."""
    parsed = read_deck_arg(Path(deck)) if isinstance(deck, str | PathLike) else deck
    facts = deck_stats()
    return facts.stats(
        parsed,
        edition,
        turns=tuple(facts.default_turns if turns is None else turns),
        draws_per_turn=draws_per_turn,
        hands=hands,
        seed=seed,
    )
