"""The automatic players of an Anima Tactics party game (:class:`.skirmish.Policy`).

- ``heuristic``: focus fire. Of its characters still to act, it activates the one that can knock an
  enemy out soonest, and strikes that enemy: the expected number of attacks to bring the target's
  Life Points left to 0, from the exact single-attack odds (:func:`.duel.damage_table`, the target
  defending when it has an action to Dodge with); ties go to the enemy worth more levels, then by
  name. It spends actions by its side's plan (:class:`.duel.Plan`: attack while the plan's reserve
  stays; Charge when out of contact, which opens every fight) and reacts by it (a Counterattack when
  the plan says so and it can pay, else a Dodge when it has an action). Against one enemy it takes
  the action worth most (:func:`action_value`): expected Life Points per action point, no more than
  the enemy has left, with the follow-on special it opens, plus what a knock-out or a Paralyze takes
  from the enemy's actions to come. Every expectation, and the enemy's threat a knock-out removes,
  reads the powers of the two as the attack applies them (:func:`.abilities.powers_between`: an
  Armor bypass, a cap on Life Points lost to one attack, a deterrent the attacker must resist or
  miss). A special that takes a character off the table takes no Life Points and is never its
  choice; a character off the table comes back by the best of its off-table attacks it can pay for,
  else lands. With one character a side and no specials this is exactly the duel's schedule; with
  specials, the same while no attack can knock the enemy out (the schedule reads no Life Points
  left).
- ``random``: a random character, a random affordable action or the end of the activation, a
  random affordable reaction. A floor for the ladder.
- ``search``: plays ahead by simulating. At each activation it weighs its candidates (every
  character still to act with its two best-looking actions and any special that takes it off the
  table, and ending an activation at once to keep actions for reactions) against the heuristic's own
  choice by rollouts: a copy of the game played on by the heuristic for both sides to the end of the
  next turn, with fresh dice of its own (it never sees the game's dice before they are rolled), the
  same rollout dice for every candidate (common random numbers). A rollout scores 1 for a win, 0 for
  a loss, 1/2 a draw; one that stops before the game's end scores the share of levels still on the
  table, each weighted by its Life Points left. Another candidate replaces the heuristic's choice
  only when its lead, rollout by rollout, exceeds its standard error. The rest of an activation and
  the reactions follow the heuristic.
"""

from __future__ import annotations

import functools
import math
import random

from deckkit.animatactics.engine.abilities import (
    AFTER_CHARGE,
    Powers,
    chain_of,
    follows,
    powers_between,
    use_outcome,
    use_value,
)
from deckkit.animatactics.engine.duel import (
    ATTACK_COST,
    CHARGE_COST,
    COUNTER_COST,
    DODGE_COST,
    Duellist,
    Plan,
    damage_table,
    recover,
)
from deckkit.animatactics.engine.options import LEVELS
from deckkit.animatactics.engine.skirmish import (
    CHARGE,
    COUNTER,
    DODGE,
    LAND,
    LEAVE,
    NO_REACTION,
    Action,
    GameState,
    Policy,
    advance,
    perform,
)
from deckkit.errors import UsageError

POLICIES: tuple[str, ...] = ("heuristic", "random", "search")
DEFAULT_ROLLOUTS = 8
MAX_ROLLOUTS = 10_000
HORIZON_TURNS = 2  # a rollout plays the rest of this turn and the next one


@functools.cache
def _kill_times(
    att: Duellist, dfn: Duellist, mod: int, defends: bool, special: int = -1
) -> tuple[float, ...]:
    """E[attacks until the defender's Life Points reach 0] from each Life Points left (index),
    the float form of :func:`.combat.expected_attacks_to_defeat`; inf when no attack can hurt."""
    miss, hits = damage_table(att, dfn, mod, defends, special)
    p_nothing = miss + float(hits[0])
    if p_nothing >= 1.0 - 1e-12:
        return tuple([0.0] + [math.inf] * dfn.life)
    expected = [0.0] * (dfn.life + 1)
    for left in range(1, dfn.life + 1):
        rest = 0.0
        for k in range(1, len(hits)):
            p = float(hits[k])
            if p:
                rest += p * expected[max(left - k, 0)]
        expected[left] = (1.0 + rest) / (1.0 - p_nothing)
    return tuple(expected)


def _defends(g: GameState, side: int, act: Action) -> bool:
    """Whether the target can react to the action: an action left, no Damage Resistance, and
    not Paralyzed ("STATE": a Paralyzed character "cannot use any Actions during the Turn", a
    Dodge included)."""
    target = g.teams[1 - side][act.target]
    return (
        target.ap >= DODGE_COST and not target.stats.kit.damage_resistance and not target.paralyzed
    )


def powers(g: GameState, side: int, actor: int, target: int) -> Powers:
    """The powers in play when ``actor`` of ``side`` attacks enemy ``target``
    (:func:`.abilities.powers_between`, as the attack itself applies them)."""
    me = g.teams[side][actor].stats
    return powers_between(me.kit, me.resistance, g.teams[1 - side][target].stats.kit)


def kill_time(g: GameState, side: int, actor: int, act: Action) -> float:
    """Expected uses of ``act`` by ``actor`` to knock its target out from where it is (a
    special of several attacks counts as as many, by its expected damage)."""
    me = g.teams[side][actor].stats
    target = g.teams[1 - side][act.target]
    defends = _defends(g, side, act)
    mod = g.roll_mod(act)  # a Charge's +2 as the rule options play it
    single = _kill_times(me, target.stats, mod, defends, act.special)[target.life]
    if act.special < 0 or math.isinf(single):
        return single
    spec = me.kit.specials[act.special]
    if spec.strikes == 1 and not spec.follow_up:
        return single
    pw = powers(g, side, actor, act.target)
    one = use_value(me.attack, me.damage, me.kit.critical_mastery, target.stats.defense,
                    target.stats.armor, spec, mod, defends, pw) / spec.strikes  # fmt: skip
    total = use_value(me.attack, me.damage, me.kit.critical_mastery, target.stats.defense,
                      target.stats.armor, spec, mod, defends, pw)  # fmt: skip
    return single * one / total if total > 0 else single


def attack_threat(g: GameState, side: int, enemy: int, victim: int) -> float:
    """Expected Life Points enemy ``enemy`` takes from character ``victim`` of ``side`` with one
    basic Attack ("Attack (2 Actions)"), the victim Dodging when it has an action, the two's
    powers applied: what one of its attacks is worth to it, in the heuristic's own measure."""
    me = g.teams[1 - side][enemy].stats
    v = g.teams[side][victim]
    defends = v.ap >= DODGE_COST and not v.stats.kit.damage_resistance and not v.paralyzed
    return use_value(me.attack, me.damage, me.kit.critical_mastery, v.stats.defense,
                     v.stats.armor, None, 0, defends,
                     powers(g, 1 - side, enemy, victim))  # fmt: skip


def worst_threat(g: GameState, side: int, enemy: int) -> float:
    """One Attack of ``enemy`` at the character of ``side`` it hurts most (:func:`attack_threat`):
    whom it strikes is its player's choice ("Action Phase")."""
    return max(
        (
            attack_threat(g, side, enemy, v)
            for v, f in enumerate(g.teams[side])
            if f.life > 0 and f.off_table < 0  # off the table: none can strike it
        ),
        default=0.0,
    )


def actions_to_come(g: GameState, side: int, enemy: int) -> int:
    """The actions enemy ``enemy`` still has to act with: this turn's if its card is not yet
    turned, else the next turn's after Recovery ("Recovery Phase": Recovery more, up to its
    maximum)."""
    e = g.teams[1 - side][enemy]
    return e.ap if not e.acted else recover(e.ap, e.stats)


def knockout_worth(g: GameState, side: int, target: int) -> float:
    """What knocking ``target`` out is worth beyond its Life Points: "Damage and Death": a
    character at 0 Life Points is removed from play, so the Attacks its actions to come would
    have made (:func:`actions_to_come`, one Attack per 2) are never made; valued as the Life
    Points they would take (:func:`worst_threat`)."""
    return actions_to_come(g, side, target) / ATTACK_COST * worst_threat(g, side, target)


def paralyze_worth(g: GameState, side: int, target: int, level: int) -> float:
    """What Paralyzing ``target`` at ``level`` is worth: "Paralyzed: The character is paralyzed
    and cannot use any Actions during the Turn" ("STATE"), one counter of it removed at each
    Maintenance, so a level 1 Paralyze takes the actions it has left this turn (none when its
    card is already turned) and each further level one turn's Recovery more; valued as the Life
    Points its lost Attacks would take (:func:`worst_threat`). Nothing when it is Paralyzed as
    long already (the higher level stays)."""
    e = g.teams[1 - side][target]
    if e.paralyzed >= level:
        return 0.0
    now = 0 if e.acted else e.ap
    lost = now + (level - 1) * e.stats.recovery
    if e.paralyzed:
        lost -= now + (e.paralyzed - 1) * e.stats.recovery
    return max(lost, 0) / ATTACK_COST * worst_threat(g, side, target)


def resist_fails(effect: int, resistance: int) -> float:
    """P(the target fails its Resistance roll): "roll a die and add its Resistance value to the
    result. If the sum is greater than the difficulty level ... the target is not affected"
    ("Resistances"), a d10."""
    return min(max(effect - resistance, 0), 10) / 10


def follow_on(g: GameState, side: int, actor: int, act: Action) -> tuple[float, int, float]:
    """The best follow-on special ``act`` opens for ``actor`` against its target (a special usable
    only right after it, the data's ``after`` column: :func:`.abilities.chain_of`): the chance
    the chain is left (a Charge leaves one whatever the dice; a hit, the first attack's odds),
    its cost, and the Life Points it takes; (0, 0, 0) when none or none can be paid after."""
    me = g.teams[side][actor]
    kit = me.stats.kit
    if not any(sp.after for sp in kit.specials):
        return 0.0, 0, 0.0
    spec = kit.specials[act.special] if act.special >= 0 else None
    target = g.teams[1 - side][act.target]
    charge = act.kind == CHARGE
    left = chain_of(spec, charge, True)
    pw = powers(g, side, actor, act.target)
    _, _, hit = use_outcome(me.stats.attack, me.stats.damage, kit.critical_mastery,
                            target.stats.defense, target.stats.armor, spec, g.roll_mod(act),
                            _defends(g, side, act), target.life, pw)  # fmt: skip
    best = (0.0, 0, 0.0)
    used = me.used | me.used_turn
    reserve = g.sides[side].plan.reserve
    for i, sp in enumerate(kit.specials):
        if not sp.after or used >> i & 1 or not follows(sp, left):
            continue
        if me.ap - act.cost < sp.cost + reserve:
            continue
        p = 1.0 if sp.after == AFTER_CHARGE else hit
        lp = use_value(me.stats.attack, me.stats.damage, kit.critical_mastery,
                       target.stats.defense, target.stats.armor, sp, 0,
                       _defends(g, side, act), pw)  # fmt: skip
        if p * lp > best[0] * best[2]:
            best = (p, sp.cost, lp)
    return best


def action_value(
    g: GameState, side: int, actor: int, act: Action, worths: dict[int, float] | None = None
) -> float:
    """Expected Life Points per action point ``act`` takes from its target (as
    :func:`.abilities.option_value`, which the duel's schedule weighs by), no more than the
    target has left (:func:`.abilities.use_outcome`), and with the follow-on special it opens
    (:func:`follow_on`, the two weighed with both costs); plus what it does once, in Life Points
    an Attack's 2 actions are worth: a knock-out's lost Attacks (:func:`knockout_worth`) and a
    Paralyze's (:func:`paralyze_worth`). Those are per use, not per action point: the actions a
    cheaper use saves cannot knock the same enemy out, or Paralyze it, twice.

    A knock-out's worth is asked only when the action can knock its target out (three uses in
    four cannot), and ``worths`` keeps it by target for the caller's other actions of one
    decision (nothing changes between them): the same values, a fraction of the work."""
    me = g.teams[side][actor].stats
    target = g.teams[1 - side][act.target]
    spec = me.kit.specials[act.special] if act.special >= 0 else None
    taken, ko, hit = use_outcome(me.attack, me.damage, me.kit.critical_mastery,
                                 target.stats.defense, target.stats.armor, spec,
                                 g.roll_mod(act), _defends(g, side, act), target.life,
                                 powers(g, side, actor, act.target))  # fmt: skip
    p, cost, lp = follow_on(g, side, actor, act)
    once = 0.0
    if ko:
        worth = None if worths is None else worths.get(act.target)
        if worth is None:
            worth = knockout_worth(g, side, act.target)
            if worths is not None:
                worths[act.target] = worth
        once = ko * worth
    if spec is not None and spec.paralyze:
        fails = resist_fails(spec.effect, target.stats.resistance)
        once += hit * fails * paralyze_worth(g, side, act.target, spec.paralyze)
    return (taken + p * lp) / (act.cost + p * cost) + once / ATTACK_COST


def _key(g: GameState, side: int, actor: int, act: Action) -> tuple[float, int, str, str]:
    """Smaller is better: knock-out soonest (in basic actions' worth of action points: a special
    of 3 actions counts as one and a half Attacks), then the target worth more levels, then
    names."""
    enemy = g.sides[1 - side]
    basic = CHARGE_COST if act.kind == CHARGE else ATTACK_COST
    return (
        kill_time(g, side, actor, act) * act.cost / basic,
        -enemy.levels[act.target],
        enemy.fighters[act.target].name,
        g.sides[side].fighters[actor].name,
    )


def affordable(
    g: GameState, side: int, actor: int, legal: list[Action], worths: dict[int, float] | None = None
) -> list[Action]:
    """The actions the side's plan spends: a Charge whenever it can pay (it opens a fight), any
    other action while the plan's reserve of actions stays after it; against each enemy, the
    one worth most Life Points per action point (the first of equals: a basic action unless a
    special beats it). ``worths``: a knock-out's worth by target (:func:`action_value`), which
    the caller may share between the actors of one decision (it depends on the side and the
    target, not on who strikes)."""
    plan = g.sides[side].plan
    me = g.teams[side][actor]
    kitted = bool(me.stats.kit.specials) or me.stats.kit.ranged
    best: dict[int, tuple[float, Action]] = {}
    if worths is None:
        worths = {}
    for a in legal:
        if a.kind in (LEAVE, LAND):
            continue  # no Life Points: never weighed (a landing is forced when nothing else is)
        if a.kind != CHARGE and me.ap < a.cost + plan.reserve:
            continue
        v = action_value(g, side, actor, a, worths) if kitted else 0.0
        if a.target not in best or v > best[a.target][0] + 1e-12:
            best[a.target] = (v, a)
    return [a for _, a in best.values()]


def plan_reaction(plan: Plan, ap: int) -> int:
    """The plan's reaction: a Counterattack when it says so and can pay, else a Dodge."""
    if plan.counter and ap >= COUNTER_COST:
        return COUNTER
    return DODGE if ap >= DODGE_COST else NO_REACTION


def _state(g: GameState) -> tuple[object, ...]:
    """Everything of a game a heuristic decision reads that play changes: the turn and every
    character's counters (the sides, their plans and the rules stay for the whole game)."""
    fighters = [
        (
            f.life,
            f.ap,
            f.acted,
            f.moved,
            f.engaged,
            f.used,
            f.used_turn,
            f.chain,
            f.chain_target,
            f.paralyzed,
            f.hidden,
            f.off_table,
        )
        for team in g.teams
        for f in team
    ]
    return (g.turn, g.done, *fighters)


class Heuristic(Policy):
    """Focus the enemy it can knock out soonest (see the module's text)."""

    name = "heuristic"

    def __init__(self) -> None:
        # The engine asks for the character to activate, then at once for its first action:
        # choose_actor has already found that action (the best of the actor it picked), so it
        # keeps it for choose_action, which returns it when asked in the very game and state it
        # was found in (else it works it out again). One game's player: made per game.
        self._picked: (
            tuple[GameState, int, int, tuple[object, ...], list[Action], Action] | None
        ) = None

    def best(self, g: GameState, side: int, actor: int) -> Action | None:
        keyed = self._best_keyed(g, side, actor)
        return None if keyed is None else keyed[1]

    @staticmethod
    def _best_keyed(
        g: GameState,
        side: int,
        actor: int,
        legal: list[Action] | None = None,
        worths: dict[int, float] | None = None,
    ) -> tuple[tuple[float, int, str, str], Action] | None:
        """The actor's best action with its key (the first of equal keys), or None."""
        if legal is None:
            legal = g.legal(side, actor)
        options = affordable(g, side, actor, legal, worths)
        if not options:
            return None
        return min(((_key(g, side, actor, a), a) for a in options), key=lambda ka: ka[0])

    def choose_actor(self, g: GameState, side: int, ready: list[int], rng: random.Random) -> int:
        best_actor = -1
        best_key: tuple[float, int, str, str] | None = None
        best_act: Action | None = None
        best_legal: list[Action] = []
        worths: dict[int, float] = {}  # a knock-out's worth by target: the same for every actor
        for i in ready:
            legal = g.legal(side, i)
            keyed = self._best_keyed(g, side, i, legal, worths)
            if keyed is None:
                continue
            k = keyed[0]
            if best_key is None or k < best_key:
                best_actor, best_key, best_act, best_legal = i, k, keyed[1], legal
        if best_act is not None:
            self._picked = (g, side, best_actor, _state(g), best_legal, best_act)
            return best_actor
        self._picked = None
        names = g.sides[side].fighters
        return min(ready, key=lambda i: names[i].name)  # none can strike: it only turns a card

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        picked, self._picked = self._picked, None
        if (
            picked is not None
            and picked[0] is g
            and picked[1] == side
            and picked[2] == actor
            and picked[4] == legal
            and picked[3] == _state(g)
        ):
            return picked[5]
        options = affordable(g, side, actor, legal)
        if not options:
            return None
        return min(options, key=lambda a: _key(g, side, actor, a))

    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        return plan_reaction(g.sides[side].plan, g.teams[side][defender].ap)


class RandomPlayer(Policy):
    """Every choice at random among what it can pay for."""

    name = "random"

    def choose_actor(self, g: GameState, side: int, ready: list[int], rng: random.Random) -> int:
        return ready[rng.randrange(len(ready))]

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        pick = rng.randrange(len(legal) + 1)
        return legal[pick] if pick < len(legal) else None

    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        ap = g.teams[side][defender].ap
        options = [NO_REACTION]
        if ap >= DODGE_COST:
            options.append(DODGE)
        if ap >= COUNTER_COST:
            options.append(COUNTER)
        return options[rng.randrange(len(options))]


def evaluate(g: GameState, side: int) -> float:
    """A rollout's score for ``side``: 1 win, 0 loss, 1/2 draw at the game's end; before it, the
    share of levels on the table, each weighted by the Life Points its character has left."""
    if g.done:
        if not g.by_ko and g.rules.time_limit != LEVELS:  # time_limit=draw
            return 0.5
        mine, theirs = g.standing(side), g.standing(1 - side)
        return 1.0 if mine > theirs else 0.0 if mine < theirs else 0.5
    worth = [0.0, 0.0]
    for s in (0, 1):
        for f, lv in zip(g.teams[s], g.sides[s].levels, strict=True):
            worth[s] += lv * f.life / f.stats.life
    total = worth[0] + worth[1]
    return 0.5 if total == 0 else worth[side] / total


class Search(Policy):
    """Weighs each activation by determinized rollouts (see the module's text)."""

    name = "search"

    def __init__(self, rollouts: int = DEFAULT_ROLLOUTS, horizon: int = HORIZON_TURNS) -> None:
        self.rollouts = rollouts
        self.horizon = horizon
        self.base = Heuristic()
        self.pending: Action | None = None  # the first action of the activation it picked

    def candidates(
        self, g: GameState, side: int, ready: list[int]
    ) -> list[tuple[int, Action | None]]:
        out: list[tuple[int, Action | None]] = []
        idle = -1
        idle_key = (-math.inf, "")
        names = g.sides[side].fighters
        for i in ready:
            legal = g.legal(side, i)
            strikes = [a for a in legal if a.kind not in (LEAVE, LAND)]
            ranked = sorted(strikes, key=lambda a: _key(g, side, i, a))
            out.extend((i, a) for a in ranked[:2])
            out.extend((i, a) for a in legal if a.kind == LEAVE)  # off the table: played out
            worst = _key(g, side, i, ranked[0])[0] if ranked else math.inf
            if (worst, names[i].name) > idle_key:
                idle, idle_key = i, (worst, names[i].name)
        if idle >= 0:
            out.append((idle, None))  # turn the least useful card, keeping its actions
        return out

    def rollout_values(
        self, g: GameState, side: int, actor: int, act: Action | None, seeds: list[int]
    ) -> list[float]:
        """The candidate's score in each rollout (one per seed)."""
        pols = (self.base, self.base)
        out: list[float] = []
        for s in seeds:
            sim = g.copy()
            dice = random.Random(s)
            sim.active_side, sim.active = side, actor
            if act is not None:
                perform(sim, side, actor, act, pols, dice, dice)
            else:  # the activation ends at once
                sim.teams[side][actor].acted = True
                sim.active = -1
                sim.to_move = 1 - side
            advance(sim, pols, dice, dice, sim.turn + self.horizon)
            out.append(evaluate(sim, side))
        return out

    def choose_actor(self, g: GameState, side: int, ready: list[int], rng: random.Random) -> int:
        """The heuristic's own choice unless another candidate leads it, rollout by rollout on
        the same dice, by more than the standard error of that lead."""
        h_actor = self.base.choose_actor(g, side, ready, rng)
        h_legal = g.legal(side, h_actor)
        h_act = self.base.choose_action(g, side, h_actor, h_legal, rng) if h_legal else None
        options: list[tuple[int, Action | None]] = [(h_actor, h_act)]
        options.extend(c for c in self.candidates(g, side, ready) if c != (h_actor, h_act))
        actor, act = h_actor, h_act
        if len(options) > 1:
            seeds = [rng.getrandbits(63) for _ in range(self.rollouts)]
            values = [self.rollout_values(g, side, a, x, seeds) for a, x in options]
            best = max(range(len(options)), key=lambda k: (sum(values[k]), -k))
            if best and _leads(values[best], values[0]):
                actor, act = options[best]
        self.pending = Action(-1, -1) if act is None else act  # (-1, -1): end it at once
        return actor

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        pending, self.pending = self.pending, None
        if pending is not None:
            if pending.kind < 0:
                return None
            if pending in legal:
                return pending
        return self.base.choose_action(g, side, actor, legal, rng)

    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        return self.base.react(g, side, defender, attacker, charge, rng)


def _leads(mine: list[float], ref: list[float]) -> bool:
    """The paired lead of ``mine`` over ``ref`` exceeds its standard error."""
    n = len(mine)
    diffs = [a - b for a, b in zip(mine, ref, strict=True)]
    lead = sum(diffs) / n
    if lead <= 0:
        return False
    if n == 1:
        return True
    var = sum((d - lead) ** 2 for d in diffs) / (n - 1)
    return lead > math.sqrt(var / n)


def make_policy(name: str) -> Policy:
    """A player by name: ``heuristic``, ``random``, ``search`` or ``search:N`` (N rollouts per
    candidate). The plan it spends actions by is its side's (:class:`.skirmish.Side`)."""
    if name == "heuristic":
        return Heuristic()
    if name == "random":
        return RandomPlayer()
    if name == "search" or name.startswith("search:"):
        rollouts = DEFAULT_ROLLOUTS
        if ":" in name:
            text = name.split(":", 1)[1]
            if not text.isdigit() or not 1 <= int(text) <= MAX_ROLLOUTS:
                raise UsageError(f"search rollouts must be 1 to {MAX_ROLLOUTS:,}, not {text!r}")
            rollouts = int(text)
        return Search(rollouts)
    raise UsageError(f"unknown player {name!r}", hint=f"players: {', '.join(POLICIES)}")
