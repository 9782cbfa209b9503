"""Every Animus automatic player by name: the heuristic and random players of ``policy.py`` and
the search player (``search``, or ``search:N`` for N rollouts per choice weighed), built here so
the policies a battle's rules call never import the rules themselves."""

from __future__ import annotations

from deckkit.animus.engine.policy import POLICIES, BattlePolicy
from deckkit.animus.engine.search import DEFAULT_ROLLOUTS, SearchPolicy

PLAYERS: tuple[str, ...] = (*POLICIES, "search")
# The most rollouts per candidate the search player weighs: each is the rest of a battle played
# out, and a battle asks some twenty choices (deckkit's own bound; the rules say nothing of it).
MAX_ROLLOUTS = 1000


def search_budget(name: str) -> int | None:
    """The rollouts per choice a search player's name asks for ("search": the default,
    "search:N": N from 1 to :data:`MAX_ROLLOUTS`); None for any other name."""
    if name == "search":
        return DEFAULT_ROLLOUTS
    head, _, n = name.partition(":")
    if head == "search" and n.isdigit() and len(n) <= 6 and 1 <= int(n) <= MAX_ROLLOUTS:
        return int(n)
    return None


def is_player(name: str) -> bool:
    return name in POLICIES or search_budget(name) is not None


def make_player(name: str) -> BattlePolicy:
    """A player by name; a name no player has raises ValueError."""
    rollouts = search_budget(name)
    if rollouts is not None:
        return SearchPolicy(rollouts)
    if name in POLICIES:
        return POLICIES[name]()
    raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(PLAYERS)}")
