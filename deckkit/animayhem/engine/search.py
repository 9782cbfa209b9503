"""The search player: weighs its significant choices by playing them out on sampled games.

At each significant decision (where the parties move, whether a party attacks a disaster it
stands with, whether it scavenges) it lists a few candidates, the heuristic player's own choice
first. For each of ``rollouts`` samples it deals a determinization of the game (``determinize``:
a copy in which every card the player cannot see is reshuffled among the places it could lie,
never read from the true order) and plays every candidate forward on its own copy of that same
sample (common random numbers) with the heuristic player, for ``horizon`` turns after the
current one or to the end of the game; it takes the candidate with the best mean
(:func:`rollout.value`), the heuristic's choice on a tie. This is determinized Monte Carlo
search, as card-game players by simulation do it.

The player reads the game through the read-only queries and its heuristic parent; the only other
engine calls are the two it is handed at construction (``Simulate``: play a copy forward) and
``determinize``, which copies. Its random numbers come from the game's chance without advancing
it (``chance.sampling_seed``), so a game plays the same for any number of worker processes.

A decision kind is a method of the policy, the candidates it weighs, the point its rollouts
resume from (``rollout.RESUME``), and a way to force the candidate on the copy (``_Forced``);
adding one (the charm battle, once the rules ask the player) means one entry of each.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any

from deckkit.animayhem.engine.chance import sampling_seed
from deckkit.animayhem.engine.determinize import determinize
from deckkit.animayhem.engine.policy import HeuristicPolicy, Move, Policy
from deckkit.animayhem.engine.state import Char, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition

# play_out(copy, player, resume point, turns) -> value in [0, 1] (rollout.play_out)
Simulate = Callable[[Game, Policy, str, int], float]

DEFAULT_ROLLOUTS = 8
DEFAULT_HORIZON = 3
PlanKey = tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]


def plan_key(plans: Sequence[Move]) -> PlanKey:
    """A plan as uids and routes, so it can be compared and carried to a copy of the game."""
    return tuple((tuple(c.uid for c in party), tuple(route)) for party, route in plans)


class _Forced(HeuristicPolicy):
    """The heuristic player, except that the first decision of ``kind`` about ``about`` is
    answered with ``choice`` (on a copy of the game: characters are found again by uid)."""

    def __init__(self, kind: str, about: int, choice: Any) -> None:
        super().__init__()
        self.kind = kind
        self.about = about
        self.choice = choice

    def _take(self, kind: str, about: int) -> bool:
        if self.kind == kind and self.about == about:
            self.kind = ""
            return True
        return False

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        if not self._take("moves", 0):
            return super().moves(game, edition)
        by_uid = {c.uid: c for c in game.chars}
        return [([by_uid[u] for u in party], list(route)) for party, route in self.choice]

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        if self._take("attack", d.uid):
            return bool(self.choice)
        return super().attack(game, d, chars)

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        if self._take("scavenge", slot):
            return bool(self.choice)
        return super().scavenge(game, party, slot)


class SearchPolicy(HeuristicPolicy):
    """Determinized Monte Carlo search over the heuristic player (see the module's docstring)."""

    name = "search"

    def __init__(
        self,
        simulate: Simulate,
        rollouts: int = DEFAULT_ROLLOUTS,
        horizon: int = DEFAULT_HORIZON,
        goals: int = 2,
    ) -> None:
        super().__init__()
        if rollouts < 1 or horizon < 0:
            raise ValueError("the search needs at least one rollout and a horizon of 0 or more")
        self.simulate = simulate
        self.rollouts = rollouts
        self.horizon = horizon
        self.goals = goals  # goals weighed besides the heuristic's own
        self.decisions = 0  # decisions weighed by rollouts (for the cost figures)

    def best(self, game: Game, kind: str, about: int, resume: str, choices: list[Any]) -> int:
        """The index of the choice with the best mean value over the rollouts."""
        if len(choices) < 2:
            return 0
        self.decisions += 1
        rng = random.Random(sampling_seed(game.chance, game.turn * 1009 + about))
        totals = [0.0] * len(choices)
        for _ in range(self.rollouts):
            sample = rng.getrandbits(64)
            for i, choice in enumerate(choices):
                copy = determinize(game, random.Random(sample))
                totals[i] += self.simulate(copy, _Forced(kind, about, choice), resume, self.horizon)
        best = 0
        for i, total in enumerate(totals):
            if total > totals[best] + 1e-9:
                best = i
        return best

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        """Where the parties go: the heuristic's plan, staying put, or heading for one of the
        next nearest goals instead."""
        mine = super().moves(game, edition)
        options: dict[PlanKey, list[Move]] = {plan_key(mine): mine}
        options.setdefault((), [])
        anchors = [c.slot for c in game.on_field()] or [game.field.haven_slot]
        here = max(set(anchors), key=anchors.count)
        party = game.on_field() or game.in_haven()
        goals = sorted(self._targets(game, party), key=lambda s: (game.dist[here][s], s))
        for slot in goals[: self.goals + 1]:
            plan = self.plan_moves(game, edition, slot)
            options.setdefault(plan_key(plan), plan)
        keys = list(options)
        return options[keys[self.best(game, "moves", 0, "move", keys)]]

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        mine = super().attack(game, d, chars)
        return [mine, not mine][self.best(game, "attack", d.uid, "attack", [mine, not mine])]

    def scavenge(self, game: Game, party: list[Char], slot: int) -> bool:
        mine = super().scavenge(game, party, slot)
        return [mine, not mine][self.best(game, "scavenge", slot, "scavenge", [mine, not mine])]
