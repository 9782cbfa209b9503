"""Every automatic player by name: the policies of ``policy.py`` and the search player, which is
built here with the simulator it plans with (so the search player itself imports no module that
plays rules)."""

from __future__ import annotations

from deckkit.animayhem.engine.policy import POLICIES as BASIC
from deckkit.animayhem.engine.policy import Policy, make_policy
from deckkit.animayhem.engine.rollout import play_out
from deckkit.animayhem.engine.search import DEFAULT_ROLLOUTS, SearchPolicy

PLAYERS: tuple[str, ...] = (*BASIC, "search")
# The most rollouts per candidate a search player weighs: each is a whole game played out, so a
# choice of a few candidates at this budget already costs thousands of games; more would hold a
# single game for hours (deckkit's own budget; the rulebooks say nothing of players).
MAX_ROLLOUTS = 1000


def search_budget(name: str) -> int | None:
    """The rollouts per choice a search player's name asks for ("search": the default,
    "search:N": N from 1 to :data:`MAX_ROLLOUTS`); None for any other name, a malformed one or
    one beyond the bound."""
    if name == "search":
        return DEFAULT_ROLLOUTS
    head, _, n = name.partition(":")
    if head == "search" and n.isdigit() and len(n) <= 6 and 1 <= int(n) <= MAX_ROLLOUTS:
        return int(n)
    return None


def is_player(name: str) -> bool:
    return name in BASIC or search_budget(name) is not None


def make_player(name: str) -> Policy:
    """A player by name: "heuristic", "random", or "search" ("search:N": N rollouts per
    choice weighed)."""
    rollouts = search_budget(name)
    if rollouts is not None:
        return SearchPolicy(play_out, rollouts=rollouts)
    if name in BASIC:
        return make_policy(name)
    raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(PLAYERS)}")
