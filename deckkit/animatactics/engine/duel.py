"""One-on-one duels, computed exactly: who wins when two characters fight to the end of the game.

The duel follows the Saga I rulebook with no map (anima-tactics-rulebook.txt):

- "Place the Action counters...": in the first turn each character has Recovery + 1 actions; in
  each later "Recovery Phase" it recovers its Recovery value, never above its maximum ("Recovery
  and Total Actions").
- Initiative ("...decide who takes the first action"): both roll a d10, the high roller (ties
  roll again: 1/2 each) decides who acts first, for the whole game. Whichever order the roller
  picks, the roller's expected result averaged over the roll is the mean of the two orders, so a
  duel's value is the mean of "A acts first" and "B acts first".
- "Action Phase": the first player's character takes all its actions, then the other's.
- Basic abilities: Charge (3 actions, +2 to the roll; the opening attack, as the two start apart),
  Attack (2), Dodge (1, reactive: +d10 Defense), Counterattack (3, reactive: +d10 Defense and, when
  the attack misses, a free attack at -2).
- "Winning": "The standard scenario is that the player with the most levels on the table at the
  end of 10 turns is the winner": a duel still undecided then goes to the character worth more
  levels (equal levels: half a win each). Rule option ``time_limit=draw`` counts it half a win
  to each side whatever the levels.

The rule options (:mod:`.options`, docs/interpretations.md "Anima Tactics") the duel plays:
``time_limit``, ``opening_charge`` (``no``: a fight opens with a plain Attack after a Walk into
contact, the same 3 actions without the +2; a Charge special loses its +2 too), ``initiative``
(``alternate``: the first player changes each turn) and ``board`` (``apart``: the first turn
each character Runs into reach and attacks nobody, not even with a Ranged Attack).
``counter_dodge=yes`` makes the actions spent depend on the dice, which the fixed schedule
cannot carry: the duel refuses it (party games play it).

How each character spends its actions is a *plan* chosen from :data:`PLANS` (the rulebook's own
advice, "reserve a few Action counters... for reactive actions", in three strengths). Under fixed
plans every action's cost is known in advance, so the order of attacks is fixed and only the dice
are random: the joint distribution of both characters' Life Points is carried forward attack by
attack, exactly (no sampling). Each side then picks its plan knowing the other's options: the duel
value is the value of that 3 x 3 zero-sum game (:func:`game_value`).

Abilities (:mod:`.abilities`, from card_db/animatactics/abilities.csv): each action is the one
worth most Life Points per action point among those the character can pay for (a basic action
unless a special beats it), Ranged Attack specials and an innate Ranged Attack while the two are
not yet in contact (the duel opens apart), Critical Mastery, Damage Resistance (no reaction) and
Initiative (the roll for the first action) apply. The choice reads no dice, so the schedule stays
fixed and the duel exact; a special that costs Life Points is left to the party game, and a
follow-up attack made only on a hit is resolved undefended.

Not played: powers, equipment, movement and states, and a reaction to a Counterattack's own free
attack (it is resolved undefended).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

from deckkit.animatactics.engine.abilities import (
    NO_KIT,
    Kit,
    Option,
    choose,
    initiative_first,
    make_swing,
    swing_odds,
)
from deckkit.animatactics.engine.combat import CHARGE_BONUS, COUNTER_PENALTY
from deckkit.animatactics.engine.options import (
    ALTERNATE,
    APART,
    DEFAULT_RULES,
    LEVELS,
    RUN_COST,
    RuleSet,
)

TURNS = 10  # "Winning": "at the end of 10 turns"
ATTACK_COST, CHARGE_COST, DODGE_COST, COUNTER_COST = 2, 3, 1, 3  # "Basic abilities"

Array = npt.NDArray[np.float64]


@dataclass(frozen=True)
class Duellist:
    """What a duel reads of a character."""

    name: str
    attack: int
    damage: int
    defense: int
    armor: int
    life: int
    actions_max: int
    recovery: int
    kit: Kit = NO_KIT  # its abilities (engine/abilities.py); none: the printed stat line alone
    resistance: int = 0  # read by Effects in party games only (engine/abilities.py)


@dataclass(frozen=True)
class Plan:
    """How a character spends its actions: attack while at least ``reserve`` actions stay after
    the attack; react to each attack with a Counterattack when it can pay for one (``counter``),
    else a Dodge when it has an action left."""

    name: str
    reserve: int
    counter: bool


PLANS: tuple[Plan, ...] = (
    Plan("all-out", reserve=0, counter=False),
    Plan("guarded", reserve=1, counter=False),
    Plan("counter", reserve=1, counter=True),
)


@dataclass(frozen=True)
class Strike:
    """One attack in a duel's fixed order: who attacks, how, and how the target reacts."""

    by_a: bool
    mod: int  # +2 Charge, 0 Attack
    defends: bool  # Dodge or Counterattack: +d10 Defense
    counter: bool  # Counterattack: a miss brings a free attack back at -2
    special: int = -1  # the attacker's special (index in its kit), -1 a basic attack
    on_hit: bool = False  # a follow-up made only when the attack before it hit (undefended)


def recover(actions: int, who: Duellist) -> int:
    """Recovery Phase: "recover as many actions as their Recovery Attribute allows", but "may
    never have more Actions than their total number of spheres" (Recovery and Total Actions)."""
    return min(who.actions_max, actions + who.recovery)


def starting_actions(who: Duellist) -> int:
    """ "During the first turn of play, all Characters start with a number of Action counters
    equal to their Recovery value PLUS 1" (never above the maximum)."""
    return min(who.actions_max, who.recovery + 1)


def schedule(
    a: Duellist,
    b: Duellist,
    plan_a: Plan,
    plan_b: Plan,
    a_first: bool,
    turns: int = TURNS,
    rules: RuleSet = DEFAULT_RULES,
    memo: dict[tuple[bool, int, int, bool, bool, int, int], Option | None] | None = None,
) -> tuple[Strike, ...]:
    """Every attack of a duel in order, with the reactions the plans choose (action costs are
    paid on declaration, so they do not depend on the dice) under the rule options ``rules``."""
    opening = CHARGE_BONUS if rules.opening_charge else 0
    ap = {True: starting_actions(a), False: starting_actions(b)}
    stats = {True: a, False: b}
    plans = {True: plan_a, False: plan_b}
    used = {True: 0, False: 0}  # specials used, once-per-game ones (a bit each)
    engaged = False
    out: list[Strike] = []
    for turn in range(turns):
        if turn > 0:
            for side in (True, False):
                ap[side] = recover(ap[side], stats[side])
        used_turn = {True: 0, False: 0}
        first = a_first if rules.initiative != ALTERNATE or turn % 2 == 0 else not a_first
        for side in (first, not first):
            if rules.board == APART and turn == 0:  # closing in: a Run, no attack
                ap[side] -= min(RUN_COST, ap[side])
                continue
            moved = False
            while True:
                me, target = stats[side], stats[not side]
                key = (side, ap[side], plans[side].reserve, engaged, moved,
                       used[side] | used_turn[side], ap[not side])  # fmt: skip
                if memo is not None and key in memo:
                    pick = memo[key]
                else:
                    pick = choose(
                        me.attack, me.damage, me.kit, target.defense, target.armor, target.kit,
                        key[1], key[2], engaged, moved, key[5], key[6], False, 0, opening,
                    )  # fmt: skip
                    if memo is not None:
                        memo[key] = pick
                if pick is None:
                    break
                ap[side] -= pick.cost
                if pick.charge:
                    moved = True
                if pick.engages:
                    engaged = True
                if pick.special >= 0:
                    spec = me.kit.specials[pick.special]
                    bit = 1 << pick.special
                    if spec.limit == "game":
                        used[side] |= bit
                    elif spec.limit == "turn":
                        used_turn[side] |= bit
                for _ in range(pick.strikes):
                    out.append(_reacted(side, pick.mod, pick.special, pick.ranged, ap, plans,
                                        target.kit.damage_resistance))  # fmt: skip
                if pick.follow_up == "hit":
                    out.append(Strike(side, 0, False, False, -1, True))
                elif pick.follow_up == "always":
                    out.append(_reacted(side, 0, -1, False, ap, plans,
                                        target.kit.damage_resistance))  # fmt: skip
    return tuple(out)


def _reacted(
    side: bool, mod: int, special: int, ranged: bool, ap: dict[bool, int], plans: dict[bool, Plan],
    resists: bool,
) -> Strike:  # fmt: skip
    """One attack and the target's reaction by its plan, paid now: a Counterattack when the plan
    says so and it can pay (never against a Ranged Attack: "no Counterattacks are possible
    against Ranged Attacks"), else a Dodge when it has an action; none for a Damage Resistance
    unit ("can't use Action Points to Dodge attacks or Counterattack", the data's rule)."""
    target = not side
    if resists:
        return Strike(side, mod, False, False, special)
    if plans[target].counter and not ranged and ap[target] >= COUNTER_COST:
        ap[target] -= COUNTER_COST
        return Strike(side, mod, True, True, special)
    if ap[target] >= DODGE_COST:
        ap[target] -= DODGE_COST
        return Strike(side, mod, True, False, special)
    return Strike(side, mod, False, False, special)


def damage_table(
    attacker: Duellist, defender: Duellist, mod: int, defends: bool, special: int = -1
) -> tuple[float, Array]:
    """P(miss) and P(hit dealing k Life Points), k = 0, 1, ...: a basic attack (``special`` -1)
    or the attacker's special, with its innate abilities (float copy of abilities.swing_odds)."""
    spec = attacker.kit.specials[special] if special >= 0 else None
    sw = make_swing(
        attacker.attack, attacker.damage, attacker.kit.critical_mastery, defender.defense,
        defender.armor, spec, mod,
    )  # fmt: skip
    miss, dist = swing_odds(sw, defends)
    out = np.array([float(p) for p in dist]) if dist else np.zeros(1)
    return float(miss), out


def _hit_matrix(hits: Array, life: int) -> Array:
    """M[l, l'] = P(a hit takes l Life Points to l'), l' = max(l - k, 0)."""
    m = np.zeros((life + 1, life + 1))
    for left in range(1, life + 1):
        for k, p in enumerate(hits):
            if p:
                m[left, max(left - k, 0)] += p
    return m


@dataclass
class _Tables:
    """Transition matrices of one ordered pair, built once for all of its schedules."""

    a: Duellist
    b: Duellist

    def __post_init__(self) -> None:
        self.cache: dict[tuple[bool, int, int, bool], tuple[float, Array]] = {}

    def get(self, by_a: bool, mod: int, defends: bool, special: int = -1) -> tuple[float, Array]:
        key = (by_a, special, mod, defends)
        if key not in self.cache:
            att, dfn = (self.a, self.b) if by_a else (self.b, self.a)
            miss, hits = damage_table(att, dfn, mod, defends, special)
            self.cache[key] = (miss, _hit_matrix(hits, dfn.life))
        return self.cache[key]


@dataclass(frozen=True)
class DuelOutcome:
    """Exact probabilities of one duel under fixed plans and a fixed first player."""

    a_wins: float
    b_wins: float
    undecided: float
    undecided_share: float = 0.5  # A's score for a duel still standing after the last turn

    @property
    def value(self) -> float:
        """A's score: a win 1, a duel undecided after 10 turns ``undecided_share``."""
        return self.a_wins + self.undecided_share * self.undecided


def play_exact(tables: _Tables, strikes: Sequence[Strike], share: float = 0.5) -> DuelOutcome:
    """Carry the joint distribution of both characters' Life Points through the attacks
    (``share``: A's score for a duel still standing at the end)."""
    a, b = tables.a, tables.b
    p = np.zeros((a.life + 1, b.life + 1))
    p[a.life, b.life] = 1.0
    a_wins = b_wins = 0.0
    last_hit = p  # the Life Points after the attack before, where it hit
    for st in strikes:
        miss, m = tables.get(st.by_a, st.mod, st.defends, st.special)
        base = last_hit if st.on_hit else p
        hit = base @ m if st.by_a else m.T @ base
        if st.counter:  # the target's free attack back, at -2, undefended
            c_miss, cm = tables.get(not st.by_a, COUNTER_PENALTY, False)
            back = (cm.T @ base) if st.by_a else (base @ cm)
            p_next = hit + miss * (back + c_miss * base)
        else:
            p_next = hit + miss * base
        if st.on_hit:  # where the attack before missed, nothing more happens
            p_next = p_next + (p - last_hit)
        p = p_next
        a_wins += float(p[1:, 0].sum())
        b_wins += float(p[0, 1:].sum())
        p[:, 0] = 0.0
        p[0, :] = 0.0
        last_hit = hit.copy()
        last_hit[:, 0] = 0.0
        last_hit[0, :] = 0.0
        if a_wins + b_wins > 1 - 1e-15:
            break
    return DuelOutcome(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), share)


def game_value(payoff: Array) -> float:
    """The value of a zero-sum matrix game (rows maximise): a saddle point when there is one,
    else the linear programme of the mixed strategies (scipy)."""
    lower = float(payoff.min(axis=1).max())
    upper = float(payoff.max(axis=0).min())
    if upper - lower < 1e-12:
        return lower
    from scipy.optimize import linprog

    rows, cols = payoff.shape
    # maximise v subject to sum_i x_i payoff[i, j] >= v for every column j, x a distribution
    c = np.zeros(rows + 1)
    c[-1] = -1.0
    a_ub = np.hstack([-payoff.T, np.ones((cols, 1))])
    a_eq = np.hstack([np.ones((1, rows)), np.zeros((1, 1))])
    res = linprog(
        c, A_ub=a_ub, b_ub=np.zeros(cols), A_eq=a_eq, b_eq=[1.0],
        bounds=[(0, 1)] * rows + [(None, None)], method="highs",
    )  # fmt: skip
    return float(-res.fun)


@dataclass(frozen=True)
class DuelResult:
    """A duel's value for A (the matrix entry) and the plans' outcomes behind it."""

    value: float
    payoff: tuple[tuple[float, ...], ...]  # plan of A x plan of B, mean over the first player
    a_wins: float  # under the plans' equilibrium pick (the saddle or the best pure response)
    b_wins: float
    undecided: float


def undecided_share(rules: RuleSet, levels: tuple[int, int] | None) -> float:
    """A's score for a duel still standing after the last turn: under ``time_limit=levels``
    ("the player with the most levels on the table at the end of 10 turns is the winner") 1 when
    A is worth more levels, 0 when fewer, 1/2 when as many or ``levels`` is not known; under
    ``time_limit=draw`` 1/2."""
    if rules.time_limit != LEVELS or levels is None or levels[0] == levels[1]:
        return 0.5
    return 1.0 if levels[0] > levels[1] else 0.0


def duel(
    a: Duellist,
    b: Duellist,
    plans: Sequence[Plan] = PLANS,
    *,
    rules: RuleSet = DEFAULT_RULES,
    levels: tuple[int, int] | None = None,
) -> DuelResult:
    """A against B, exactly: each plan pair, each first player, then the plans' game, under
    the rule options ``rules``; ``levels``: what A and B are worth, for the 10-turn count."""
    if rules.counter_dodge:
        raise ValueError(
            "the exact duel does not play counter_dodge=yes (party games with --vs do)"
        )
    share = undecided_share(rules, levels)
    tables = _Tables(a, b)
    n = len(plans)
    payoff = np.zeros((n, n))
    outcomes: dict[tuple[int, int], list[DuelOutcome]] = {}
    played: dict[tuple[Strike, ...], DuelOutcome] = {}  # plans often give the same attacks

    def play(strikes: tuple[Strike, ...]) -> DuelOutcome:
        if strikes not in played:
            played[strikes] = play_exact(tables, strikes, share)
        return played[strikes]

    # The action choices, memoised for this duel alone (its rule options fixed).
    memo: dict[tuple[bool, int, int, bool, bool, int, int], Option | None] = {}
    # "each player rolls a die, with the high roller deciding who will act first": the winner
    # of the roll (Initiative adds to it) picks the order better for it.
    p_a = float(initiative_first(int(a.kit.initiative), int(b.kit.initiative)))
    for i, pa in enumerate(plans):
        for j, pb in enumerate(plans):
            both = [
                play(schedule(a, b, pa, pb, first, rules=rules, memo=memo))
                for first in (True, False)
            ]
            outcomes[i, j] = both
            best = 0 if both[0].value >= both[1].value else 1
            payoff[i, j] = p_a * both[best].value + (1 - p_a) * both[1 - best].value
    value = game_value(payoff)
    i = int(payoff.min(axis=1).argmax())
    j = int(payoff[i].argmin())
    pick = outcomes[i, j]
    best = 0 if pick[0].value >= pick[1].value else 1
    w = (p_a, 1 - p_a) if best == 0 else (1 - p_a, p_a)
    return DuelResult(
        value=value,
        payoff=tuple(tuple(float(x) for x in row) for row in payoff),
        a_wins=w[0] * pick[0].a_wins + w[1] * pick[1].a_wins,
        b_wins=w[0] * pick[0].b_wins + w[1] * pick[1].b_wins,
        undecided=w[0] * pick[0].undecided + w[1] * pick[1].undecided,
    )
