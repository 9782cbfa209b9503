"""The search player: weighs its main choices by playing them out on imagined battles.

At each choice of a card to play (which card, or none: "You can choose not to play a card during
your turn") and of each combat action (which attack, which Combat ability, or to stop attacking)
it lists a few candidates, the heuristic player's own choice first. For each of ``rollouts``
samples it deals a determinization of the battle (:func:`.determinize.deal`: a copy in which
every card the player cannot see, the opponent's hidden hand, both decks' unseen cards, is
shuffled among the places it could be, never read from the true order; what a reveal() shows
stays in place) and plays every candidate forward on its own copy of that same sample, with the
same dice (common random numbers), the heuristic player on both sides, to the end of the battle.
A candidate's value is the outcome (1 a win, 1/2 a draw, 0 a loss) plus a hundredth of the
levels margin; the heuristic's choice is left only for a candidate whose lead over it, sample by
sample, exceeds the lead's standard error. This is determinized Monte Carlo search, as the
Ani-Mayhem and Anima Tactics search players do it.

Dice not yet rolled are the copy's own: each sample's chance is seeded from the game's chance
without advancing it (:func:`deckkit.core.chance.sampling_seed`), so the game itself is the same
whether or not a player searches, and the same for any number of worker processes.
"""

from __future__ import annotations

import math
from typing import TypeVar

from deckkit.animus.construction.cards import Card
from deckkit.animus.engine.determinize import copy_battle, deal
from deckkit.animus.engine.phases import COMBAT, PLAY, finish_turn, take_turn
from deckkit.animus.engine.policy import HeuristicPolicy, attack_gain
from deckkit.animus.engine.queries import Action, open_slots
from deckkit.animus.engine.state import Battle, Side, Slot, Unit
from deckkit.core.chance import SeededChance, sampling_seed

DEFAULT_ROLLOUTS = 8
MAX_CANDIDATES = 4  # the most choices weighed at one decision
_SALT = {"play": 1, "combat": 2}
T = TypeVar("T")


class _Forced(HeuristicPolicy):
    """The heuristic player, except that its first decision of ``kind`` is ``choice``."""

    def __init__(self, kind: str, choice: object) -> None:
        super().__init__()
        self.kind = kind
        self.choice = choice

    def choose_play(self, battle: Battle, side: Side, mandatory: bool) -> tuple[Card, Slot] | None:
        if self.kind == "play":
            self.kind = ""
            choice = self.choice
            if choice is None:
                return None
            assert isinstance(choice, tuple)
            if choice[0] in side.hand and choice[1] in open_slots(battle, side):
                return choice[0], choice[1]
        return super().choose_play(battle, side, mandatory)

    def choose_combat(self, battle: Battle, side: Side, options: list[Action]) -> int | None:
        if self.kind == "combat":
            self.kind = ""
            choice = self.choice
            if choice is None or (isinstance(choice, int) and choice < len(options)):
                return choice if isinstance(choice, int) else None
        return super().choose_combat(battle, side, options)


def value(battle: Battle, me: int) -> float:
    """A finished copy's worth to side ``me``: the outcome, and a hundredth of the levels margin
    (so that among equal outcomes the wider one counts)."""
    rec = battle.record
    outcome = 0.5 if rec.winner is None else 1.0 if rec.winner == me else 0.0
    margin = battle.sides[1 - me].levels_lost - battle.sides[me].levels_lost
    return outcome + 0.01 * margin / battle.numbers.levels_to_win


def play_out(battle: Battle) -> None:
    """The rest of the turn under way from the decision being weighed, then whole turns to the
    end (the battle's own turn cap bounds it)."""
    finish_turn(battle, battle.phase, COMBAT if battle.phase == 1 else PLAY)
    while not battle.over:
        battle.active = 1 - battle.active
        take_turn(battle)


def _clear_lead(best: list[float], base: list[float]) -> bool:
    diffs = [a - b for a, b in zip(best, base, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    if n < 2:
        return mean > 0
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    return mean > math.sqrt(var / n)


class SearchPolicy(HeuristicPolicy):
    """Determinized Monte Carlo search over the heuristic player (see the module's docstring)."""

    name = "search"

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS) -> None:
        super().__init__()
        if rollouts < 1:
            raise ValueError("the search needs at least one rollout")
        self.rollouts = rollouts
        self.decisions = 0  # decisions weighed by rollouts
        self.changed = 0  # ... where the heuristic's choice lost
        self.weighed: tuple[float, ...] = ()  # the last decision's value sums, by candidate

    def best(self, battle: Battle, side: Side, kind: str, choices: list[T]) -> T:
        """The choice of best mean value over the rollouts (the first, the heuristic's, unless
        another leads it clearly)."""
        if len(choices) < 2:
            return choices[0]
        self.decisions += 1
        salt = battle.turn * 1009 + self.decisions * 7 + _SALT[kind]
        sampler = SeededChance(sampling_seed(battle.chance, salt))
        values: list[list[float]] = [[] for _ in choices]
        me = side.index
        heuristic = (HeuristicPolicy(), HeuristicPolicy())
        for _ in range(self.rollouts):
            seed = sampler.below(2**62)
            sample = copy_battle(battle, SeededChance(seed), heuristic)
            deal(sample, me, SeededChance(sampler.below(2**62)))
            for i, choice in enumerate(choices):
                forced = _Forced(kind, choice)
                policies = (forced, HeuristicPolicy()) if me == 0 else (HeuristicPolicy(), forced)
                copy = copy_battle(sample, SeededChance(seed), policies)
                play_out(copy)
                values[i].append(value(copy, me))
        totals = [sum(v) for v in values]
        self.weighed = tuple(totals)
        best = 0
        for i, total in enumerate(totals):
            if total > totals[best] + 1e-9:
                best = i
        if best and not _clear_lead(values[best], values[0]):
            best = 0
        if best:
            self.changed += 1
        return choices[best]

    def choose_play(self, battle: Battle, side: Side, mandatory: bool) -> tuple[Card, Slot] | None:
        """The heuristic's card and slot, each other card in hand to that slot (or the first
        open one), and, when playing is not mandatory, none."""
        mine = super().choose_play(battle, side, mandatory)
        slots = open_slots(battle, side)
        if not slots:
            return mine
        slot = mine[1] if mine is not None else slots[0]
        choices: list[tuple[Card, Slot] | None] = [mine]
        for card in side.hand:
            if len(choices) >= MAX_CANDIDATES - (0 if mandatory else 1):
                break
            if mine is None or card is not mine[0]:
                choices.append((card, slot))
        if not mandatory and mine is not None:
            choices.append(None)
        return self.best(battle, side, "play", choices)

    def choose_combat(self, battle: Battle, side: Side, options: list[Action]) -> int | None:
        """The heuristic's action, the next best attacks by expected gain, and stopping."""
        mine = super().choose_combat(battle, side, options)

        def gain(i: int) -> float:
            _, unit, what = options[i]
            return attack_gain(battle, unit, what) if isinstance(what, Unit) else 0.0

        ranked = sorted((i for i in range(len(options)) if i != mine), key=gain, reverse=True)
        choices: list[int | None] = [mine]
        for i in ranked:
            if len(choices) >= MAX_CANDIDATES - (0 if mine is None else 1):
                break
            choices.append(i)
        if mine is not None:
            choices.append(None)
        return self.best(battle, side, "combat", choices)
