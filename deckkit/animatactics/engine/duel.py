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
(``alternate``: the first player changes each turn), ``board`` (``apart``: the first turn
each character Runs into reach and attacks nobody, not even with a Ranged Attack) and
``counter_dodge`` (``yes``: the attacker Dodges the free attack a Counterattack brings back
when it has an action left, as party games play it). Under ``yes`` the actions spent depend on
the dice (the Dodge is paid only where the attack missed), which one fixed schedule cannot
carry: :func:`play_branching` carries the joint Life Points activation by activation, one table
per way the action counters stand, and stays exact.

How each character spends its actions is a *plan* chosen from :data:`PLANS` (the rulebook's own
advice, "reserve a few Action counters... for reactive actions", in three strengths). Under fixed
plans every action's cost is known in advance, so the order of attacks is fixed and only the dice
are random: the joint distribution of both characters' Life Points is carried forward attack by
attack, exactly (no sampling). Each side then picks its plan knowing the other's options: the duel
value is the value of that 3 x 3 zero-sum game (:func:`game_value`).

Abilities (:mod:`.abilities`, from card_db/animatactics/abilities.csv): each action is the one worth
most Life Points per action point among those the character can pay for (a basic action unless a
special beats it; the two's powers weighed as the attack applies them), Ranged Attack specials and
an innate Ranged Attack while the two are not yet in contact (the duel opens apart), Critical
Mastery, Damage Resistance (no reaction) and Initiative (the roll for the first action) apply. The
choice reads no dice, so the schedule stays fixed and the duel exact; a special that costs Life
Points is left to the party game, and a follow-up attack made only on a hit is resolved undefended.

Not played: powers other than those :mod:`.abilities` plays, equipment (a party's Equipment
bonuses are in its fighters' stats), movement and states, and (under ``counter_dodge=no``) a
reaction to a Counterattack's own free attack (it is resolved undefended).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np
import numpy.typing as npt

from deckkit.animatactics.engine.abilities import (
    NO_KIT,
    Kit,
    Option,
    choose,
    initiative_first,
    make_swing,
    powers_between,
    swing_odds,
)
from deckkit.animatactics.engine.combat import CHARGE_BONUS, COUNTER_PENALTY
from deckkit.animatactics.engine.keyed import KeptHash
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
class Duellist(KeptHash):
    """What a duel reads of a character."""

    __hash__ = KeptHash.__hash__  # kept: the dataclass would make its own

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


# A Counterattacked attack under ``counter_dodge=yes`` splits the duel in two (the attacker's
# Dodge of the free attack back is paid only when its attack missed): each branch keeps one part.
NO_BRANCH, HIT_ONLY, MISS_DODGED = 0, 1, 2


@dataclass(frozen=True)
class Strike:
    """One attack in a duel's fixed order: who attacks, how, and how the target reacts."""

    by_a: bool
    mod: int  # +2 Charge, 0 Attack
    defends: bool  # Dodge or Counterattack: +d10 Defense
    counter: bool  # Counterattack: a miss brings a free attack back at -2
    special: int = -1  # the attacker's special (index in its kit), -1 a basic attack
    on_hit: bool = False  # a follow-up made only when the attack before it hit (undefended)
    branch: int = NO_BRANCH  # HIT_ONLY: this branch keeps the hits; MISS_DODGED: the misses,
    # the attacker Dodging the free attack back (counter_dodge=yes)


def recover(actions: int, who: Duellist) -> int:
    """Recovery Phase: "recover as many actions as their Recovery Attribute allows", but "may
    never have more Actions than their total number of spheres" (Recovery and Total Actions)."""
    return min(who.actions_max, actions + who.recovery)


def starting_actions(who: Duellist) -> int:
    """ "During the first turn of play, all Characters start with a number of Action counters
    equal to their Recovery value PLUS 1" (never above the maximum)."""
    return min(who.actions_max, who.recovery + 1)


Memo = dict[tuple[bool, int, int, bool, bool, int, int], Option | None]
PaceKey = tuple[int, int, int, int, int, int, bool]


@dataclass
class _Pace:
    """Where a duel's action counters stand: each side's actions, its specials used this game
    and this turn (a bit each), and whether the two are in contact."""

    ap: dict[bool, int]
    used: dict[bool, int]
    used_turn: dict[bool, int]
    engaged: bool = False

    @classmethod
    def start(cls, a: Duellist, b: Duellist) -> _Pace:
        return cls({True: starting_actions(a), False: starting_actions(b)},
                   {True: 0, False: 0}, {True: 0, False: 0})  # fmt: skip

    def copy(self) -> _Pace:
        return _Pace(dict(self.ap), dict(self.used), dict(self.used_turn), self.engaged)

    def key(self) -> PaceKey:
        return (self.ap[True], self.ap[False], self.used[True], self.used[False],
                self.used_turn[True], self.used_turn[False], self.engaged)  # fmt: skip

    def new_turn(self, a: Duellist, b: Duellist) -> None:
        """The Recovery Phase, and the once-per-turn specials free again."""
        self.ap = {True: recover(self.ap[True], a), False: recover(self.ap[False], b)}
        self.used_turn = {True: 0, False: 0}


class _Undecided(Exception):
    """An activation reached a Dodge of a free attack back its branch list does not settle."""


def first_player(a_first: bool, turn: int, rules: RuleSet) -> bool:
    """Who acts first this turn: the initiative roll's, swapped each turn under
    ``initiative=alternate``."""
    return a_first if rules.initiative != ALTERNATE or turn % 2 == 0 else not a_first


def _activation(
    stats: dict[bool, Duellist], plans: dict[bool, Plan], side: bool, pace: _Pace, turn: int,
    rules: RuleSet, memo: Memo | None, dodges: list[bool] | None = None,
) -> list[Strike]:  # fmt: skip
    """One character's activation: its attacks in order, with the reactions the plans choose
    (action costs are paid on declaration, so they do not depend on the dice), ``pace`` updated.

    ``dodges`` (``counter_dodge=yes`` only): for each Counterattack of this activation the
    attacker could answer, whether this branch is the one where the attack missed and the
    attacker Dodged the free attack back; :class:`_Undecided` when the list runs out."""
    if rules.board == APART and turn == 0:  # closing in: a Run, no attack
        pace.ap[side] -= min(RUN_COST, pace.ap[side])
        return []
    opening = CHARGE_BONUS if rules.opening_charge else 0
    ap = pace.ap
    out: list[Strike] = []
    moved = False
    decided = 0
    while True:
        me, target = stats[side], stats[not side]
        key = (side, ap[side], plans[side].reserve, pace.engaged, moved,
               pace.used[side] | pace.used_turn[side], ap[not side])  # fmt: skip
        if memo is not None and key in memo:
            pick = memo[key]
        else:
            pick = choose(
                me.attack, me.damage, me.kit, target.defense, target.armor, target.kit,
                key[1], key[2], pace.engaged, moved, key[5], key[6], False, 0, opening,
                powers_between(me.kit, me.resistance, target.kit),
            )  # fmt: skip
            if memo is not None:
                memo[key] = pick
        if pick is None:
            return out
        ap[side] -= pick.cost
        if pick.charge:
            moved = True
        if pick.engages:
            pace.engaged = True
        if pick.special >= 0:
            spec = me.kit.specials[pick.special]
            bit = 1 << pick.special
            if spec.limit == "game":
                pace.used[side] |= bit
            elif spec.limit == "turn":
                pace.used_turn[side] |= bit
        for _ in range(pick.strikes):
            st = _reacted(side, pick.mod, pick.special, pick.ranged, ap, plans,
                          target.kit.damage_resistance)  # fmt: skip
            if dodges is not None and st.counter and _dodges_back(me, ap[side]):
                if decided == len(dodges):
                    raise _Undecided
                dodged = dodges[decided]
                decided += 1
                st = replace(st, branch=MISS_DODGED if dodged else HIT_ONLY)
                if dodged:
                    ap[side] -= DODGE_COST
            out.append(st)
        if pick.follow_up == "hit":
            out.append(Strike(side, 0, False, False, -1, True))
        elif pick.follow_up == "always":
            out.append(_reacted(side, 0, -1, False, ap, plans,
                                target.kit.damage_resistance))  # fmt: skip


def _dodges_back(attacker: Duellist, ap: int) -> bool:
    """Under ``counter_dodge=yes``: "When an enemy declares the intention to attack a
    character, the targeted character can spend an Action point to roll a die and add the
    result to its Defense" (Dodge) read on the Counterattack's free attack too. Every plan
    reacts when it can pay (a Counterattack against it is played as a Dodge, as in party
    games), so the attacker Dodges it with an action left, unless it has Damage Resistance
    ("can't use Action Points to Dodge attacks", the data's rule)."""
    return ap >= DODGE_COST and not attacker.kit.damage_resistance


def schedule(
    a: Duellist,
    b: Duellist,
    plan_a: Plan,
    plan_b: Plan,
    a_first: bool,
    turns: int = TURNS,
    rules: RuleSet = DEFAULT_RULES,
    memo: Memo | None = None,
) -> tuple[Strike, ...]:
    """Every attack of a duel in order, with the reactions the plans choose (action costs are
    paid on declaration, so they do not depend on the dice) under the rule options ``rules``.
    Under ``counter_dodge=yes`` the actions spent depend on the dice: :func:`play_branching`."""
    if rules.counter_dodge:
        raise ValueError("counter_dodge=yes branches on the dice: play_branching plays it")
    stats = {True: a, False: b}
    plans = {True: plan_a, False: plan_b}
    pace = _Pace.start(a, b)
    out: list[Strike] = []
    for turn in range(turns):
        if turn > 0:
            pace.new_turn(a, b)
        first = first_player(a_first, turn, rules)
        for side in (first, not first):
            out += _activation(stats, plans, side, pace, turn, rules, memo)
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
        powers_between(attacker.kit, attacker.resistance, defender.kit),
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


def _step(tables: _Tables, st: Strike, p: Array, last_hit: Array) -> tuple[Array, Array]:
    """The joint Life Points after one attack, and the part of them where it hit (``p`` and
    ``last_hit`` before it). A branch of ``counter_dodge=yes`` keeps its part alone: the hits
    (HIT_ONLY), or the misses with the free attack back Dodged (MISS_DODGED)."""
    miss, m = tables.get(st.by_a, st.mod, st.defends, st.special)
    base = last_hit if st.on_hit else p
    hit = base @ m if st.by_a else m.T @ base
    if st.branch == HIT_ONLY:
        p_next = hit
    elif st.counter:  # the target's free attack back, at -2, Dodged in the MISS_DODGED branch
        c_miss, cm = tables.get(not st.by_a, COUNTER_PENALTY, st.branch == MISS_DODGED)
        back = (cm.T @ base) if st.by_a else (base @ cm)
        if st.branch == MISS_DODGED:
            hit = np.zeros_like(hit)
            p_next = miss * (back + c_miss * base)
        else:
            p_next = hit + miss * (back + c_miss * base)
    else:
        p_next = hit + miss * base
    if st.on_hit:  # where the attack before missed, nothing more happens
        p_next = p_next + (p - last_hit)
    return p_next, hit


def _settle(p: Array, hit: Array) -> tuple[float, float, Array]:
    """A's and B's new wins (the other fallen) and the part hit where both still stand;
    ``p`` loses its finished games in place."""
    a_won = float(p[1:, 0].sum())
    b_won = float(p[0, 1:].sum())
    p[:, 0] = 0.0
    p[0, :] = 0.0
    last_hit = hit.copy()
    last_hit[:, 0] = 0.0
    last_hit[0, :] = 0.0
    return a_won, b_won, last_hit


def play_exact(tables: _Tables, strikes: Sequence[Strike], share: float = 0.5) -> DuelOutcome:
    """Carry the joint distribution of both characters' Life Points through the attacks
    (``share``: A's score for a duel still standing at the end)."""
    a, b = tables.a, tables.b
    p = np.zeros((a.life + 1, b.life + 1))
    p[a.life, b.life] = 1.0
    a_wins = b_wins = 0.0
    last_hit = p  # the Life Points after the attack before, where it hit
    for st in strikes:
        p, hit = _step(tables, st, p, last_hit)
        a_won, b_won, last_hit = _settle(p, hit)
        a_wins += a_won
        b_wins += b_won
        if a_wins + b_wins > 1 - 1e-15:
            break
    return DuelOutcome(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), share)


def _paths(
    stats: dict[bool, Duellist], plans: dict[bool, Plan], side: bool, pace: _Pace, turn: int,
    rules: RuleSet, memo: Memo,
) -> list[tuple[list[Strike], _Pace]]:  # fmt: skip
    """Every branch of one activation from ``pace``: its attacks and where the counters end.
    The branches split only on a Dodge of a free attack back, so they share the dice of every
    other attack and together cover every roll once."""
    out: list[tuple[list[Strike], _Pace]] = []
    todo: list[list[bool]] = [[]]
    while todo:
        dodges = todo.pop()
        end = pace.copy()
        try:
            strikes = _activation(stats, plans, side, end, turn, rules, memo,
                                  dodges if rules.counter_dodge else None)  # fmt: skip
        except _Undecided:
            todo += [[*dodges, True], [*dodges, False]]
            continue
        out.append((strikes, end))
    return out


def play_branching(
    tables: _Tables,
    plan_a: Plan,
    plan_b: Plan,
    a_first: bool,
    rules: RuleSet = DEFAULT_RULES,
    share: float = 0.5,
    turns: int = TURNS,
    memo: Memo | None = None,
) -> DuelOutcome:
    """The exact duel when the actions spent depend on the dice (``counter_dodge=yes``): the
    joint Life Points are carried activation by activation, one table for each way the action
    counters stand (branches that reach the same counters are merged), so it stays exact with
    no sampling. Without a branch it is :func:`play_exact` of :func:`schedule`."""
    a, b = tables.a, tables.b
    stats = {True: a, False: b}
    plans = {True: plan_a, False: plan_b}
    memo = {} if memo is None else memo
    start = _Pace.start(a, b)
    p0 = np.zeros((a.life + 1, b.life + 1))
    p0[a.life, b.life] = 1.0
    frontier: dict[PaceKey, tuple[_Pace, Array]] = {start.key(): (start, p0)}
    paths: dict[tuple[bool, PaceKey, bool], list[tuple[list[Strike], _Pace]]] = {}
    a_wins = b_wins = 0.0
    for turn in range(turns):
        if turn > 0:
            turned: dict[PaceKey, tuple[_Pace, Array]] = {}
            for pace, p in frontier.values():
                pace.new_turn(a, b)
                _add(turned, pace, p)
            frontier = turned
        first = first_player(a_first, turn, rules)
        for side in (first, not first):
            nxt: dict[PaceKey, tuple[_Pace, Array]] = {}
            for pace, p in frontier.values():
                k = (side, pace.key(), turn == 0)
                if k not in paths:
                    paths[k] = _paths(stats, plans, side, pace, turn, rules, memo)
                for strikes, end in paths[k]:
                    q, last_hit = p.copy(), p
                    for st in strikes:
                        q, hit = _step(tables, st, q, last_hit)
                        a_won, b_won, last_hit = _settle(q, hit)
                        a_wins += a_won
                        b_wins += b_won
                    _add(nxt, end.copy(), q)
            frontier = nxt
        if a_wins + b_wins > 1 - 1e-15:
            break
    return DuelOutcome(a_wins, b_wins, max(0.0, 1.0 - a_wins - b_wins), share)


def _add(into: dict[PaceKey, tuple[_Pace, Array]], pace: _Pace, p: Array) -> None:
    """Merge a branch into the one with the same action counters."""
    key = pace.key()
    if key in into:
        into[key] = (into[key][0], into[key][1] + p)
    else:
        into[key] = (pace, p)


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
    memo: Memo = {}
    # "each player rolls a die, with the high roller deciding who will act first": the winner
    # of the roll (Initiative adds to it) picks the order better for it.
    p_a = float(initiative_first(int(a.kit.initiative), int(b.kit.initiative)))
    for i, pa in enumerate(plans):
        for j, pb in enumerate(plans):
            if rules.counter_dodge:
                both = [
                    play_branching(tables, pa, pb, first, rules, share, memo=memo)
                    for first in (True, False)
                ]
            else:
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
