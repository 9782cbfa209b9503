"""Party against party, sampled: the duel's rules (:mod:`.duel`) with several characters a side,
each activation, target and action chosen by a player (:mod:`.players`).

Rulebook (anima-tactics-rulebook.txt), as this module plays it without a map:

- "Action Phase": "The player who acts first chooses one of his characters and takes all of the
  actions he wants to with that character ... Now it is the next player's turn to act. That player
  now does the same with one of his characters. Play continues this way until all characters have
  finished their actions". A player with no character left to act passes; the other goes on.
  Which character, which action and whom it strikes are the player's choices
  (:class:`Policy`); "It is quite acceptable to turn a character card sideways without taking any
  Action", so a player may end an activation at any time.
- "Charge (3 Actions, Once per Turn)": "+2 to the roll"; "A character can't Charge against an
  enemy it's already engaged in combat with. Although it is an Attack action, Charging also counts
  as a Movement action, so a character can only Charge once per turn". "Movement": "A character
  can not move if it is in Hand-to-hand combat; first it must Escape from combat." So a character
  may Charge only while it is engaged with no enemy and has not moved this turn.
- "Hand-to-hand Combat": "when the bases of two enemy characters are touching ... both characters
  are engaged in combat. If a character's base is in contact with more than one enemy, it can
  choose which to attack". A Charge brings the charger into contact with its target (both are
  then engaged); "Attack (2 Actions)" strikes an enemy the attacker is engaged with. Engagement
  ends when one of the two falls ("Damage and Death": "removed from play").
- Reactions: "Dodge (1 Action, Reactive)" (+d10 Defense) and "Counterattack (3 Actions,
  Reactive)" (+d10 Defense; a miss brings a free attack back at -2), declared before the attack
  roll, chosen by the defending player.
- "Winning": after 10 turns the player with the most levels on the table wins; a game ends
  earlier when one side has no character left.

Rule options (:mod:`.options`; docs/interpretations.md, "Anima Tactics"), one frozen
:class:`.options.RuleSet` a game carries: ``time_limit`` (who wins after the last turn, in
:mod:`.playing`), ``counter_dodge`` (may the attacker Dodge a Counterattack's free attack),
``opening_charge`` (``no``: a fight opens with a Walk into contact and a plain Attack, the same 3
actions without the +2), ``initiative`` (``alternate``: the first player changes each turn) and
``board`` (``apart``: the first turn every character Runs into reach and attacks nobody; the
default ``open`` is the paragraph below).

Move-free stand-ins: there is no board, so every enemy is within Charge reach and no Charge is
intercepted. Walking into contact and then attacking costs the Charge's 3 actions without its +2
and is never the better choice here, so it is not offered; Escape, Run and Walk (which only
matter with distances) are not played, nor powers and most effect specials and states. Attack,
Ranged Attack and Charge specials (follow-on, reactive and hidden ones included), Effects
against Resistance with Paralyze, and the innate abilities the engine plays (:mod:`.abilities`)
are: a Ranged Attack is made while not engaged and brings no one into contact. A special that
takes its user off the table (:mod:`.abilities`, "Off the table") is too: off the table no one
may attack it and it does not count among the levels on the table; its next turn's activation
must bring it back (a player ending it there lands it).

With one character a side and the heuristic player (:class:`.players.Heuristic`), the game is
exactly :func:`.duel.schedule`'s duel, which a test holds to the exact result. Nothing depends on
the order in which a party file lists its characters: each side is put in a canonical order
(by name, then stats) before play, and Life Points are reported back in the given order. Every
game draws its dice from its own seed (``seed``, game number), the players their own choices'
randomness from another stream of the same seed, so results do not depend on how games are split
between processes.

A game may keep its events in words (:class:`Trace`, for `deckkit play`): each player's choice
as it makes it (which character acts, what it does, how the defender reacts), then what the
dice made of it. Only a game given a trace keeps one; every other game, and every game a search
player imagines (:meth:`GameState.copy`), carries None and skips the wording, so a run plays
exactly the same games at the same speed with the trace or without it.
"""

from __future__ import annotations

import functools
import random
from dataclasses import dataclass

from deckkit.animatactics.engine.abilities import (
    ALLY_ATTACKED,
    BEFORE_MELEE,
    DAMAGED,
    MELEE,
    OPTIONS_KEPT,
    Kit,
    Option,
    Special,
    chain_of,
    effect_outcome,
    harms,
    make_swing,
    options_kept,
    powers_between,
    reactive,
    swing_damage,
)
from deckkit.animatactics.engine.combat import CHARGE_BONUS, COUNTER_PENALTY
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
from deckkit.animatactics.engine.options import (
    ALTERNATE,
    APART,
    DEFAULT_RULES,
    RUN_COST,
    RuleSet,
)

# Actions a character spends actively (its player's choice during its activation).
ATTACK = 0  # "Attack (2 Actions)": an enemy it is engaged with
CHARGE = 1  # "Charge (3 Actions, Once per Turn)": +2, into contact with any enemy
SHOT = 2  # a Ranged Attack (a special, or innate Ranged Attack): while not engaged, any enemy
LEAVE = 3  # a special that takes the actor off the table (no target)
LAND = 4  # a special that puts it back apart from every enemy (no target)
# Reactions to an attack (the defending player's choice, declared before the attack roll).
NO_REACTION = 0
DODGE = 1  # "Dodge (1 Action, Reactive)"
COUNTER = 2  # "Counterattack (3 Actions, Reactive)"

DEFAULT_POLICY = "heuristic"


@dataclass(frozen=True)
class Side:
    """One party in a skirmish: its fighters, their levels (for the 10-turn count), the plan its
    characters spend actions by (how many they keep for reactions, whether they Counterattack)
    and the player choosing its activations and targets (a name of :data:`.players.POLICIES`,
    ``search:N`` for a search player weighing N rollouts)."""

    fighters: tuple[Duellist, ...]
    levels: tuple[int, ...]
    plan: Plan
    policy: str = DEFAULT_POLICY


@dataclass(frozen=True)
class Action:
    """An active action: ``kind`` ATTACK, CHARGE or SHOT against enemy number ``target``, basic
    (``special`` -1) or the actor's special of that index (:mod:`.abilities`), which costs
    ``price`` actions; ``shift`` is added to the roll (-1 at an engaged target of a shot)."""

    kind: int
    target: int
    special: int = -1
    price: int = 0
    shift: int = 0

    @property
    def cost(self) -> int:
        if self.special >= 0 or self.kind in (LEAVE, LAND):
            return self.price
        return CHARGE_COST if self.kind == CHARGE else ATTACK_COST

    @property
    def mod(self) -> int:
        return (CHARGE_BONUS if self.kind == CHARGE else 0) + self.shift


def as_action(opt: Option, target: int) -> Action:
    kind = CHARGE if opt.charge else SHOT if opt.ranged else ATTACK
    shift = opt.mod - (CHARGE_BONUS if opt.charge else 0)
    return Action(kind, target, opt.special, opt.cost if opt.special >= 0 else 0, shift)


@functools.lru_cache(maxsize=OPTIONS_KEPT)
def actions_kept(
    kit: Kit, ap: int, engaged: bool, moved: bool, used: int, target_engaged: bool, life: int,
    chain: frozenset[str], at_paralyzed: bool, target: int,
) -> tuple[Action, ...]:  # fmt: skip
    """:func:`.abilities.options_kept` against enemy number ``target`` as its actions, kept
    (actions are frozen, so one tuple serves every ask): a party game asks :meth:`GameState.legal`
    for the same ones again and again, and building them was a fifth of a search player's time."""
    options = options_kept(kit, ap, engaged, moved, used, target_engaged, life, chain, at_paralyzed)
    return tuple(as_action(opt, target) for opt in options)


@dataclass(frozen=True)
class GameResult:
    """``winner`` 0 (first side), 1 (second) or None (a draw on levels); ``by_ko`` when every
    enemy fell; ``turns`` played; Life Points left per fighter (in the sides' given order);
    ``charges`` and ``attacks``: the Charges and plain Attacks declared in the game."""

    winner: int | None
    by_ko: bool
    turns: int
    life: tuple[tuple[int, ...], tuple[int, ...]]
    a_first: bool
    charges: int = 0
    attacks: int = 0


class Trace:
    """A game's events in words, in the order they happen. Characters are named by their card;
    a name on both sides gets its party's name beside it."""

    def __init__(self, parties: tuple[str, str]) -> None:
        self.parties = parties
        self.lines: list[str] = []
        self.twice: frozenset[str] = frozenset()

    def start(self, sides: tuple[Side, Side]) -> None:
        """Learn which names both parties field (before the first event)."""
        first = {f.name for f in sides[0].fighters}
        self.twice = frozenset(f.name for f in sides[1].fighters if f.name in first)

    def add(self, text: str) -> None:
        self.lines.append(text)

    def who(self, g: GameState, side: int, index: int) -> str:
        name = g.teams[side][index].stats.name
        return f"{name} ({self.parties[side]})" if name in self.twice else name

    def life(self, g: GameState, side: int, index: int) -> str:
        f = g.teams[side][index]
        return f"{f.life} LP left" if f.life > 0 else "falls (0 LP)"

    def action(self, g: GameState, side: int, actor: int, act: Action) -> str:
        """What the acting character's player chose, in the rulebook's words."""
        me = self.who(g, side, actor)
        kit = g.teams[side][actor].stats.kit
        if act.kind in (LEAVE, LAND):
            table = kit.leave if act.kind == LEAVE else kit.land
            name = f" ({table.name})" if table is not None else ""
            verb = "leaves the table" if act.kind == LEAVE else "comes back apart from every enemy"
            return f"{me} {verb}{name}: {actions(act.cost)}"
        target = self.who(g, 1 - side, act.target)
        spec = kit.specials[act.special] if act.special >= 0 else None
        with_special = f" with {spec.name}" if spec is not None else ""
        if spec is not None and spec.off_table:
            verb = f"comes back beside {target} and attacks{with_special}"
        elif act.kind == CHARGE:
            verb = (
                f"charges {target}{with_special} (+{CHARGE_BONUS})"
                if g.rules.opening_charge
                else f"walks into contact with {target} and attacks{with_special}"
            )
        elif act.kind == SHOT:
            verb = f"makes a Ranged Attack at {target}{with_special}"
        else:
            verb = f"attacks {target}{with_special}"
        shift = f", {act.shift:+d} to the roll" if act.shift else ""
        return f"{me} {verb}: {actions(act.cost)}{shift}"


def actions(n: int) -> str:
    return f"{n} action" if n == 1 else f"{n} actions"


REACTION_WORDS = {NO_REACTION: "does not react", DODGE: "dodges", COUNTER: "counterattacks"}


class Fighter:
    """One character in play: Life Points, Action counters, whether it has acted (its card
    turned) or moved this turn, and the enemies it is engaged with (a bit per enemy)."""

    __slots__ = (
        "acted", "ap", "chain", "chain_target", "engaged", "hidden", "life", "moved", "off_table",
        "paralyzed", "stats", "used", "used_turn",
    )  # fmt: skip

    def __init__(self, stats: Duellist) -> None:
        self.stats = stats
        self.life = stats.life
        self.ap = starting_actions(stats)
        self.acted = False
        self.moved = False
        self.engaged = 0
        self.used = 0  # once-per-game specials used (a bit each)
        self.used_turn = 0  # once-per-turn specials used this turn
        self.chain: frozenset[str] = frozenset()  # what its last action left for a follow-on
        self.chain_target = -1  # and against whom
        self.paralyzed = 0  # Paralyze counters ("STATE": no Actions while any is left)
        self.hidden = stats.kit.infiltration  # "Hide": no enemy may attack it
        self.off_table = -1  # the turn it left the table (its leave special), -1 on the table

    def copy(self) -> Fighter:
        f = Fighter(self.stats)
        f.life, f.ap, f.acted, f.moved, f.engaged, f.used, f.used_turn = (
            self.life, self.ap, self.acted, self.moved, self.engaged, self.used, self.used_turn,
        )  # fmt: skip
        f.chain, f.chain_target, f.paralyzed = self.chain, self.chain_target, self.paralyzed
        f.hidden, f.off_table = self.hidden, self.off_table
        return f


class GameState:
    """Everything a player sees of a game (no dice to come): both teams, the turn, who acted
    first, whose activation is next and which character is acting."""

    def __init__(
        self,
        sides: tuple[Side, Side],
        first: int,
        turns: int = TURNS,
        rules: RuleSet = DEFAULT_RULES,
        log: Trace | None = None,
    ) -> None:
        self.log = log  # the game's events in words, when kept (:class:`Trace`)
        self.sides = sides
        self.rules = rules
        self.teams: list[list[Fighter]] = [[Fighter(f) for f in s.fighters] for s in sides]
        self.turn = 0  # 0-based
        self.turns = turns
        self.first = first
        self.to_move = first
        self.active = -1  # the acting character's index, -1 between activations
        self.active_side = first
        self.done = False
        self.by_ko = False
        self.charges = 0
        self.attacks = 0

    def copy(self) -> GameState:
        g = GameState.__new__(GameState)
        g.sides, g.turns, g.first, g.rules = self.sides, self.turns, self.first, self.rules
        g.log = None  # an imagined game (a search player's) keeps no trace
        g.teams = [[f.copy() for f in team] for team in self.teams]
        g.turn, g.to_move, g.active, g.active_side = (
            self.turn, self.to_move, self.active, self.active_side,
        )  # fmt: skip
        g.done, g.by_ko, g.charges, g.attacks = self.done, self.by_ko, self.charges, self.attacks
        return g

    def ready(self, side: int) -> list[int]:
        """Characters of ``side`` that may still be activated this turn."""
        return [i for i, f in enumerate(self.teams[side]) if f.life > 0 and not f.acted]

    def legal(self, side: int, actor: int) -> list[Action]:
        """The active actions character ``actor`` of ``side`` can pay for now (with no plan's
        reserve: :func:`.abilities.options`), enemy by enemy: engaged, an Attack or an Attack
        special at an enemy it is engaged with; not engaged, a Charge (not after moving), a
        Charge special or a Ranged Attack at any enemy."""
        f = self.teams[side][actor]
        out: list[Action] = []
        if f.life <= 0 or f.paralyzed:  # "Paralyzed: ... cannot use any Actions" (STATE)
            return out
        if f.off_table >= 0:
            return self.comebacks(side, actor)
        if self.rules.board == APART and self.turn == 0:  # closing in (see _activation)
            return out
        kit = f.stats.kit
        engaged = f.engaged != 0
        leave = kit.leave
        if leave is not None and not engaged and not f.moved and f.ap >= leave.cost:
            # a Movement action: "a character can only move once per Turn", and "can not move
            # if it is in Hand-to-hand combat" ("Movement")
            out.append(Action(LEAVE, -1, -1, leave.cost))
        for t, e in enumerate(self.teams[1 - side]):
            if e.life <= 0 or e.hidden or e.off_table >= 0 or (engaged and not f.engaged >> t & 1):
                continue  # "Other players cannot declare any attack ... against the hidden" (Hide);
                # off the table: no base to touch, none in Line of Sight
            if not kit.specials and not kit.ranged:  # the stat line alone
                if engaged and f.ap >= ATTACK_COST:
                    out.append(Action(ATTACK, t))
                elif not engaged and not f.moved and f.ap >= CHARGE_COST:
                    out.append(Action(CHARGE, t))
                continue
            chain = f.chain if t == f.chain_target else frozenset()
            acts = actions_kept(kit, f.ap, engaged, f.moved, f.used | f.used_turn,
                                e.engaged != 0, f.life, chain, e.paralyzed > 0, t)  # fmt: skip
            if not f.hidden:
                out.extend(acts)
                continue
            for act in acts:
                hide = kit.specials[act.special].hide if act.special >= 0 else 0
                if hide:  # already hidden: no Stealth first
                    act = Action(act.kind, t, act.special, act.price - hide, act.shift)
                out.append(act)
        return out

    def comebacks(self, side: int, actor: int) -> list[Action]:
        """What a character off the table can do: nothing the turn it left (off the table no one
        is in contact or Line of Sight, and it has moved); on a later turn, come back by its
        landing special (apart from every enemy) or by an off-table Attack special at any enemy
        on the table, which its activation must use one of (its leave special's own rule)."""
        f = self.teams[side][actor]
        out: list[Action] = []
        if self.turn == f.off_table:
            return out
        kit = f.stats.kit
        for t, e in enumerate(self.teams[1 - side]):
            if e.life <= 0 or e.hidden or e.off_table >= 0:
                continue
            for i, sp in enumerate(kit.specials):
                if sp.off_table and f.ap >= sp.cost and not (f.used | f.used_turn) >> i & 1:
                    out.append(Action(ATTACK, t, i, sp.cost))
        if kit.land is not None and f.ap >= kit.land.cost:
            out.append(Action(LAND, -1, -1, kit.land.cost))
        return out

    def roll_mod(self, act: Action) -> int:
        """What ``act`` adds to its attack roll under the game's rule options: a Charge's +2
        ("Charge", "adding +2 to the roll"), none under ``opening_charge=no`` (a Walk into
        contact and an Attack, the same 3 actions), and the action's own ``shift``."""
        if act.kind == CHARGE and not self.rules.opening_charge:
            return act.shift
        return act.mod

    def standing(self, side: int) -> int:
        """Levels of ``side`` still on the table ("Winning": "the most levels on the table"): a
        character off the table does not count."""
        return sum(
            lv
            for f, lv in zip(self.teams[side], self.sides[side].levels, strict=True)
            if f.life > 0 and f.off_table < 0
        )


class Policy:
    """A player of one side: which character acts next, what it does, how it reacts. ``rng`` is
    the player's own randomness (never the dice of the game)."""

    name = "policy"

    def choose_actor(self, g: GameState, side: int, ready: list[int], rng: random.Random) -> int:
        raise NotImplementedError

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        """One of ``legal`` (never empty), or None to end the activation."""
        raise NotImplementedError

    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        """NO_REACTION, DODGE or COUNTER (a reaction it cannot pay for is taken as none)."""
        raise NotImplementedError


def _strike(
    rng: random.Random, att: Duellist, dfn: Duellist, mod: int, defends: bool,
    spec: Special | None = None,
) -> int:  # fmt: skip
    """Damage of one attack, -1 on a miss: the attack die (or two, the higher kept, or none for
    a fixed roll), then the defender's d10 when it defends (:func:`.abilities.swing_damage`)."""
    sw = make_swing(
        att.attack, att.damage, att.kit.critical_mastery, dfn.defense, dfn.armor, spec, mod,
        powers_between(att.kit, att.resistance, dfn.kit),
    )  # fmt: skip
    if sw.fails and rng.randint(1, 10) <= sw.fails:
        return -1  # the attacker failed its Resistance roll: the attack misses
    if sw.roll:
        kept = sw.roll
    else:
        kept = rng.randint(1, 10)
        if sw.dice == 2:
            kept = max(kept, rng.randint(1, 10))
    return swing_damage(sw, kept, rng.randint(1, 10) if defends else 0)


def _fall(g: GameState, side: int, index: int) -> None:
    """A character at 0 Life Points leaves play: no enemy is engaged with it any more."""
    for e in g.teams[1 - side]:
        e.engaged &= ~(1 << index)
    g.teams[side][index].engaged = 0
    if not any(f.life > 0 for f in g.teams[side]):
        g.done = True
        g.by_ko = True
        if g.log is not None:
            g.log.add(f"end: every character of {g.log.parties[side]} fell")


def perform(
    g: GameState,
    side: int,
    actor: int,
    act: Action,
    pols: tuple[Policy, Policy],
    dice: random.Random,
    prng: random.Random,
) -> None:
    """Character ``actor`` of ``side`` spends ``act``; the target's player reacts."""
    me = g.teams[side][actor]
    enemy = 1 - side
    me.ap -= act.cost
    me.chain, me.chain_target = frozenset(), -1
    if act.kind in (LEAVE, LAND):  # a Movement action: the one of the turn ("Movement")
        me.moved = True
        me.off_table = g.turn if act.kind == LEAVE else -1
        return
    me.hidden = False  # "When a hidden character makes an attack ... revealed" (Hide)
    mod = g.roll_mod(act)
    if act.kind == CHARGE:
        me.moved = True
        g.charges += 1
    else:
        g.attacks += 1
    spec = me.stats.kit.specials[act.special] if act.special >= 0 else None
    if spec is not None:
        if spec.limit == "game":
            me.used |= 1 << act.special
        elif spec.limit == "turn":
            me.used_turn |= 1 << act.special
        if spec.walk:  # hidden, then a Walk into contact (a Movement action)
            me.moved = True
        if spec.off_table:  # placed beside its target; "cannot move after" (its own rule)
            me.off_table = -1
            me.moved = True
        if spec.self_damage:  # Life Points paid to use it
            me.life = max(me.life - spec.self_damage, 0)
            if g.log is not None:
                g.log.add(
                    f"{g.log.who(g, side, actor)} pays {spec.self_damage} LP for {spec.name}: "
                    f"{g.log.life(g, side, actor)}"
                )
            if me.life == 0:
                _fall(g, side, actor)
                return
    if act.kind != SHOT:
        me.engaged |= 1 << act.target
        g.teams[enemy][act.target].engaged |= 1 << actor
    targets = [act.target]
    friends: list[int] = []
    if spec is not None and spec.area and spec.action == MELEE:
        # every enemy in contact: board-free, every enemy it is engaged with
        targets += [
            t for t, e in enumerate(g.teams[enemy])
            if t != act.target and e.life > 0 and me.engaged >> t & 1
        ]  # fmt: skip
        if spec.off_table:  # "all units within 3 inches": its friends in contact with the target
            friends = [
                i for i, f in enumerate(g.teams[side])
                if i != actor and f.life > 0 and g.teams[enemy][act.target].engaged >> i & 1
            ]  # fmt: skip
    strikes = spec.strikes if spec is not None else 1
    follow = spec.follow_up if spec is not None else ""
    landed = False
    for t in targets:
        hit = False
        for _ in range(strikes):
            if me.life <= 0 or g.done:
                return
            if g.teams[enemy][t].life > 0:
                hit = _attack(g, side, actor, t, act, spec, mod, pols, dice, prng)
        landed = landed or (hit and t == act.target)
        again = follow == "always" or (follow == "hit" and hit)
        if again and me.life > 0 and g.teams[enemy][t].life > 0 and not g.done:
            _attack(g, side, actor, t, act, None, 0, pols, dice, prng)
    for i in friends:
        if me.life <= 0 or g.done:
            return
        if spec is not None and g.teams[side][i].life > 0:
            _friendly_fire(g, side, actor, i, spec, mod, pols, dice, prng)
    if spec is not None and spec.recoil and me.life > 0:
        # the user loses as many Life Points as its target has left (the special's own rule)
        me.life = max(me.life - g.teams[enemy][act.target].life, 0)
        if me.life == 0:
            _fall(g, side, actor)
    if me.life > 0 and g.teams[enemy][act.target].life > 0:
        me.chain, me.chain_target = chain_of(spec, act.kind == CHARGE, landed), act.target


def _friendly_fire(
    g: GameState, side: int, actor: int, friend: int, spec: Special, mod: int,
    pols: tuple[Policy, Policy], dice: random.Random, prng: random.Random,
) -> None:  # fmt: skip
    """An area attack of ``actor`` that reaches friend ``friend`` too ("all units within 3
    inches", Pumpkin Bomb's own rule): its player may Dodge it ("Dodge (1 Action, Reactive)"); a
    Counterattack's free attack is "against the enemy", so a friend's Counterattack is a Dodge."""
    me, f = g.teams[side][actor], g.teams[side][friend]
    reaction = pols[side].react(g, side, friend, actor, False, prng)
    defends = (
        reaction != NO_REACTION and f.ap >= DODGE_COST and not f.stats.kit.damage_resistance
        and not f.paralyzed
    )  # fmt: skip
    if defends:
        f.ap -= DODGE_COST
    dealt = _strike(dice, me.stats, f.stats, mod, defends, spec)
    levels = g.sides[side].levels[actor], g.sides[side].levels[friend]
    if dealt > 0 and not harms(f.stats.kit, spec, *levels):
        dealt = 0
    if g.log is not None:
        log = g.log
        hit = "miss" if dealt < 0 else "hit, no damage" if dealt == 0 else (
            f"hit: {log.who(g, side, friend)} loses {dealt} LP, "
            + (f"{f.life - dealt} LP left" if f.life > dealt else "falls (0 LP)")
        )  # fmt: skip
        log.add(f"  {spec.name} reaches {log.who(g, side, friend)}, a friend in contact with the "
                f"target; it {'dodges' if defends else 'does not react'}; {hit}")  # fmt: skip
    if dealt > 0:
        f.life = max(f.life - dealt, 0)
        if f.life == 0:
            _fall(g, side, friend)


def _react(
    g: GameState, side: int, actor: int, t: int, trigger: str, pols: tuple[Policy, Policy],
    dice: random.Random, prng: random.Random,
) -> None:  # fmt: skip
    """Character ``actor`` of ``side`` uses its reactive Attack special with this trigger against
    enemy ``t`` if it can (:func:`.abilities.reactive`): an Attack the target may defend, which
    sets off no reactive special in turn."""
    me = g.teams[side][actor]
    if me.life <= 0 or me.paralyzed or g.done or g.teams[1 - side][t].life <= 0:
        return
    i = reactive(me.stats.kit, trigger, me.ap, me.used | me.used_turn)
    if i < 0:
        return
    spec = me.stats.kit.specials[i]
    me.ap -= spec.cost
    me.hidden = False
    if spec.limit == "game":
        me.used |= 1 << i
    elif spec.limit == "turn":
        me.used_turn |= 1 << i
    g.attacks += 1
    act = Action(ATTACK, t, i, spec.cost)
    if g.log is not None:  # a reactive special: out of turn, so the trace names it
        g.log.add(f"{g.log.action(g, side, actor, act)} (a reaction: {trigger})")
    _attack(g, side, actor, t, act, spec, 0, pols, dice, prng, reacting=True)


def _attack(
    g: GameState, side: int, actor: int, t: int, act: Action, spec: Special | None, mod: int,
    pols: tuple[Policy, Policy], dice: random.Random, prng: random.Random,
    reacting: bool = False,
) -> bool:  # fmt: skip
    """One attack roll of ``actor`` at enemy ``t`` and its reaction; whether it hit. Unless the
    attack is itself a reactive special (``reacting``), it may set off the reactive specials of
    the target and of the target's friends engaged with ``actor`` (:func:`_react`)."""
    me = g.teams[side][actor]
    enemy = 1 - side
    target = g.teams[enemy][t]
    if not reacting and act.kind != SHOT:
        # a reactive special resolved before the melee attack; a felled attacker makes none
        _react(g, enemy, t, actor, BEFORE_MELEE, pols, dice, prng)
        if me.life <= 0 or g.done:
            return False
    reaction = pols[enemy].react(g, enemy, t, actor, act.kind == CHARGE, prng)
    chosen = reaction
    if target.stats.kit.damage_resistance:  # "can't use Action Points to Dodge attacks or
        reaction = NO_REACTION  # Counterattack" (Damage Resistance, the data's rule)
    elif target.paralyzed:  # "cannot use any Actions during the Turn" (STATE: Paralyzed)
        reaction = NO_REACTION
    elif act.kind == SHOT and reaction == COUNTER:  # "no Counterattacks are possible against
        reaction = DODGE  # Ranged Attacks" (Ranged Attacks): a Dodge instead
    if reaction == COUNTER and target.ap >= COUNTER_COST:
        target.ap -= COUNTER_COST
    elif reaction == DODGE and target.ap >= DODGE_COST:
        target.ap -= DODGE_COST
    else:  # "if your character doesn't have enough Action points available, you can't use the
        # Ability" (Actions)
        reaction = NO_REACTION
    dealt = _strike(dice, me.stats, target.stats, mod, reaction != NO_REACTION, spec)
    paralyzed = target.paralyzed > 0  # before this attack's own Effect, for the log
    if dealt >= 0 and spec is not None and spec.effect_roll:
        # an Effect: the target's Resistance roll decides ("Resistances")
        dealt, paralyze = effect_outcome(spec, dealt, target.stats.resistance,
                                         dice.randint(1, 10))  # fmt: skip
        target.paralyzed = max(target.paralyzed, paralyze)
    levels = g.sides[side].levels[actor], g.sides[enemy].levels[t]
    if dealt > 0 and not harms(target.stats.kit, spec, *levels):
        dealt = 0  # Intangible: a hit that harms it not (the data's rule)
    if g.log is not None:
        _log_strike(g, g.log, side, actor, t, chosen, reaction, dealt, paralyzed)
    if dealt >= 0:
        target.life = max(target.life - dealt, 0)
        if target.life == 0:
            _fall(g, enemy, t)
        if not reacting:
            _after_attack(g, side, actor, t, dealt > 0, pols, dice, prng)
        return True
    if not reacting:
        _after_attack(g, side, actor, t, False, pols, dice, prng)
    if reaction == COUNTER:  # a miss against a Counterattack: a free attack back at -2
        dodged = False
        if g.rules.counter_dodge and me.ap >= DODGE_COST and not me.stats.kit.damage_resistance:
            # "an automatic Attack Action": under counter_dodge=yes the attacker's player may
            # Dodge it as any attack (a Counterattack against it is played as a Dodge); not
            # with Damage Resistance ("can't use Action Points to Dodge attacks", the data's).
            dodged = pols[side].react(g, side, actor, t, False, prng) != NO_REACTION
            if dodged:
                me.ap -= DODGE_COST
        back = _strike(dice, target.stats, me.stats, COUNTER_PENALTY, dodged)
        if back > 0 and not harms(me.stats.kit, None, levels[1], levels[0]):
            back = 0
        if back > 0:
            me.life = max(me.life - back, 0)
        if g.log is not None:
            log = g.log
            log.add(
                f"  {log.who(g, enemy, t)}'s free attack back ({COUNTER_PENALTY:+d})"
                + (f", {log.who(g, side, actor)} dodges" if dodged else "")
                + (
                    f": {log.who(g, side, actor)} loses {back} LP, {log.life(g, side, actor)}"
                    if back > 0
                    else (": no damage" if back == 0 else ": misses")
                )
            )
        if back > 0 and me.life == 0:
            _fall(g, side, actor)
    return False


def _after_attack(
    g: GameState, side: int, actor: int, t: int, damaged: bool, pols: tuple[Policy, Policy],
    dice: random.Random, prng: random.Random,
) -> None:  # fmt: skip
    """Reactive specials an attack of ``actor`` at enemy ``t`` sets off once rolled: the target's
    own when it took damage (at ``actor``, if the two are engaged: an Attack special), then
    those of the target's friends engaged with ``actor``."""
    enemy = 1 - side
    me = g.teams[side][actor]
    if damaged and me.engaged >> t & 1:
        _react(g, enemy, t, actor, DAMAGED, pols, dice, prng)
    for i, f in enumerate(g.teams[enemy]):
        if i != t and f.life > 0 and me.engaged >> i & 1:
            _react(g, enemy, i, actor, ALLY_ATTACKED, pols, dice, prng)


def _log_strike(
    g: GameState, log: Trace, side: int, actor: int, t: int, chosen: int, played: int,
    dealt: int, paralyzed: bool = False,
) -> None:  # fmt: skip
    """The defender's reaction (its player's choice, and what was played when the rules or its
    actions turned it into another) and what the attack roll made of it."""
    enemy = 1 - side
    target = log.who(g, enemy, t)
    reacts = REACTION_WORDS[played]
    if chosen != played:
        why = (
            "Damage Resistance"
            if g.teams[enemy][t].stats.kit.damage_resistance
            else "Paralyzed"
            if paralyzed
            else "a Dodge against a Ranged Attack"
            if played == DODGE
            else "too few actions"
        )
        reacts = f"would {REACTION_WORDS[chosen].removesuffix('s')}, {reacts} ({why})"
    elif played != NO_REACTION:
        reacts += f" ({actions(COUNTER_COST if played == COUNTER else DODGE_COST)})"
    if dealt < 0:
        result = "miss"
    elif dealt == 0:
        result = "hit, no damage"
    else:
        left = g.teams[enemy][t].life - dealt
        result = f"hit: {target} loses {dealt} LP, " + (
            f"{left} LP left" if left > 0 else "falls (0 LP)"
        )
    log.add(f"  {target} {reacts}; {result}")


def _activation(
    g: GameState,
    pols: tuple[Policy, Policy],
    dice: random.Random,
    prng: random.Random,
) -> None:
    """The acting character takes the actions its player wants, then its card is turned."""
    side, actor = g.active_side, g.active
    me = g.teams[side][actor]
    if g.rules.board == APART and g.turn == 0 and not me.moved:
        me.ap -= min(RUN_COST, me.ap)  # "Run (2 Actions, Once per Turn)" into reach
        me.moved = True
        if g.log is not None:
            g.log.add(f"{g.log.who(g, side, actor)} runs into reach: {actions(RUN_COST)}")
    while me.life > 0 and not g.done:
        legal = g.legal(side, actor)
        if not legal:
            break
        act = pols[side].choose_action(g, side, actor, legal, prng)
        if act is None and me.off_table >= 0:
            # "During [its] activation on the next turn you are forced to use" a way back (the
            # leave special's own rule): ending the activation off the table lands it
            act = next((a for a in legal if a.kind == LAND), None)
        if act is None:
            break
        if g.log is not None:
            g.log.add(g.log.action(g, side, actor, act))
        perform(g, side, actor, act, pols, dice, prng)
    if g.log is not None and me.life > 0 and not g.done:
        g.log.add(f"{g.log.who(g, side, actor)}'s card is turned, {actions(me.ap)} kept")
    me.chain, me.chain_target = frozenset(), -1  # "immediately after": within the activation
    me.acted = True
    g.active = -1
    g.to_move = 1 - side


def _recovery(g: GameState) -> None:
    """Recovery Phase: actions back up to the maximum; cards straightened."""
    for team in g.teams:
        for f in team:
            f.ap = recover(f.ap, f.stats)
            f.acted = False
            f.moved = False
            f.used_turn = 0
            f.paralyzed = max(f.paralyzed - 1, 0)  # Maintenance: one State counter removed
    alternate = g.rules.initiative == ALTERNATE and g.turn % 2 == 1
    g.to_move = 1 - g.first if alternate else g.first


def advance(
    g: GameState,
    pols: tuple[Policy, Policy],
    dice: random.Random,
    prng: random.Random,
    stop_turn: int = TURNS,
) -> None:
    """Play on from ``g`` (within an activation, between two, or at a turn's start) until the
    game ends or turn ``stop_turn`` (0-based) is about to begin."""
    while not g.done:
        if g.active >= 0:
            _activation(g, pols, dice, prng)
            continue
        side = g.to_move
        ready = g.ready(side)
        if not ready:
            side = 1 - side
            ready = g.ready(side)
        if ready:
            g.active_side = side
            g.active = pols[side].choose_actor(g, side, ready, prng)
            if g.log is not None:
                _log_activation(g, g.log)
            continue
        g.turn += 1  # every card is turned: the turn is over
        if g.turn >= g.turns:
            g.done = True
            if g.log is not None:
                g.log.add(
                    f"end: after turn {g.turns}, levels on the table: "
                    f"{g.log.parties[0]} {g.standing(0)}, {g.log.parties[1]} {g.standing(1)}"
                )
            return
        _recovery(g)
        if g.log is not None:
            g.log.add(
                f"turn {g.turn + 1}: actions recovered; {g.log.parties[g.to_move]} acts first"
            )
        if g.turn >= stop_turn:
            return


def _log_activation(g: GameState, log: Trace) -> None:
    """The player's choice of the character to act, with what it has to act with."""
    side, actor = g.active_side, g.active
    f = g.teams[side][actor]
    engaged = [log.who(g, 1 - side, t) for t in range(len(g.teams[1 - side])) if f.engaged >> t & 1]
    log.add(
        f"{log.parties[side]} activates {log.who(g, side, actor)}: {f.life} LP, {actions(f.ap)}"
        + (f", engaged with {', '.join(engaged)}" if engaged else "")
        + (", off the table" if f.off_table >= 0 else "")
    )


def canonical(side: Side) -> tuple[Side, list[int]]:
    """``side`` with its characters in a fixed order (name, then stats and levels), whatever
    the party file's order, and where each of them came from."""
    order = sorted(
        range(len(side.fighters)),
        key=lambda i: (side.fighters[i].name, repr(side.fighters[i]), side.levels[i]),
    )
    return (
        Side(
            tuple(side.fighters[i] for i in order),
            tuple(side.levels[i] for i in order),
            side.plan,
            side.policy,
        ),
        order,
    )
