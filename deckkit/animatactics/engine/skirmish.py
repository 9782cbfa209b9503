"""Party against party, sampled: the duel's rules (:mod:`.duel`) with several characters a side.

Rulebook, "Action Phase": "The player who acts first chooses one of his characters and takes all
of the actions he wants to with that character ... Now it is the next player's turn", until every
character has acted; "Winning": after 10 turns the player with the most levels on the table wins.

The automatic player, seeing only what a human sees: it activates its characters in the party's
order, attacks the enemy with the fewest Life Points left (ties: the first listed), and spends
actions by the same :class:`~.duel.Plan` as in a duel; the target reacts by its own plan. With one
character a side the game is exactly :func:`.duel.schedule`'s duel, which a test holds to the
exact result. Every game draws its dice from its own seed (``seed``, game number), so results do
not depend on how games are split between processes.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from deckkit.animatactics.engine.combat import CHARGE_BONUS, COUNTER_PENALTY, NATURAL_SUCCESS
from deckkit.animatactics.engine.duel import (
    ATTACK_COST,
    CHARGE_COST,
    COUNTER_COST,
    DODGE_COST,
    TURNS,
    Duellist,
    Plan,
    recover,
    starting_actions,
)


@dataclass(frozen=True)
class Side:
    """One party in a skirmish: its fighters, their levels (for the 10-turn count) and plan."""

    fighters: tuple[Duellist, ...]
    levels: tuple[int, ...]
    plan: Plan


@dataclass(frozen=True)
class GameResult:
    """``winner`` 0 (first side), 1 (second) or None (a draw on levels); ``by_ko`` when every
    enemy fell; ``turns`` played; Life Points left per fighter."""

    winner: int | None
    by_ko: bool
    turns: int
    life: tuple[tuple[int, ...], tuple[int, ...]]
    a_first: bool


class _Fighter:
    __slots__ = ("ap", "life", "stats")

    def __init__(self, stats: Duellist) -> None:
        self.stats = stats
        self.life = stats.life
        self.ap = starting_actions(stats)


def _strike(rng: random.Random, att: Duellist, dfn: Duellist, mod: int, defends: bool) -> int:
    """Damage of one attack (0 on a miss) and whether it missed: -1 marks a miss."""
    roll = rng.randint(1, 10)
    total = att.attack + roll + mod
    defense = dfn.defense + (rng.randint(1, 10) if defends else 0)
    if total < defense and roll != NATURAL_SUCCESS:
        return -1
    return max(att.damage + max(total - defense, 0) - dfn.armor, 0)


def play_game(sides: tuple[Side, Side], seed: int, game: int, turns: int = TURNS) -> GameResult:
    """One game; its dice come from (seed, game) alone."""
    rng = random.Random(f"anima-tactics:{seed}:{game}")
    a_first = rng.random() < 0.5  # "each player rolls a die, with the high roller deciding"
    teams = [[_Fighter(f) for f in s.fighters] for s in sides]
    engaged = False
    played = 0
    for turn in range(turns):
        played = turn + 1
        if turn > 0:
            for team in teams:
                for f in team:
                    f.ap = recover(f.ap, f.stats)
        order = (0, 1) if a_first else (1, 0)
        waiting = [[f for f in team if f.life > 0] for team in teams]
        while any(waiting):
            for side in order:
                if not waiting[side]:
                    continue
                actor = waiting[side].pop(0)
                if actor.life <= 0:
                    continue
                engaged = _activate(rng, actor, side, teams, sides, engaged)
                if not all(any(f.life > 0 for f in team) for team in teams):
                    return _result(teams, sides, played, a_first, by_ko=True)
    return _result(teams, sides, played, a_first, by_ko=False)


def _activate(
    rng: random.Random,
    actor: _Fighter,
    side: int,
    teams: list[list[_Fighter]],
    sides: tuple[Side, Side],
    engaged: bool,
) -> bool:
    plan = sides[side].plan
    enemy_plan = sides[1 - side].plan
    while actor.life > 0:
        alive = [f for f in teams[1 - side] if f.life > 0]
        if not alive:
            break
        if not engaged:
            if actor.ap < CHARGE_COST:
                break
            cost, mod = CHARGE_COST, CHARGE_BONUS
        elif actor.ap >= ATTACK_COST + plan.reserve:
            cost, mod = ATTACK_COST, 0
        else:
            break
        target = min(alive, key=lambda f: f.life)
        actor.ap -= cost
        engaged = True
        counter = enemy_plan.counter and target.ap >= COUNTER_COST
        defends = counter or target.ap >= DODGE_COST
        if counter:
            target.ap -= COUNTER_COST
        elif defends:
            target.ap -= DODGE_COST
        dealt = _strike(rng, actor.stats, target.stats, mod, defends)
        if dealt >= 0:
            target.life = max(target.life - dealt, 0)
        elif counter:  # a miss against a Counterattack: a free attack back at -2, undefended
            back = _strike(rng, target.stats, actor.stats, COUNTER_PENALTY, False)
            if back > 0:
                actor.life = max(actor.life - back, 0)
    return engaged


def _result(
    teams: list[list[_Fighter]], sides: tuple[Side, Side], turns: int, a_first: bool, by_ko: bool
) -> GameResult:
    life = (tuple(f.life for f in teams[0]), tuple(f.life for f in teams[1]))
    standing = [
        sum(lv for f, lv in zip(teams[i], sides[i].levels, strict=True) if f.life > 0)
        for i in (0, 1)
    ]
    winner: int | None = None
    if standing[0] != standing[1]:
        winner = 0 if standing[0] > standing[1] else 1
    return GameResult(winner, by_ko, turns, life, a_first)
