"""Abilities as data: what a character's special abilities and innate abilities change in play.

The data is ``card_db/animatactics/abilities.csv`` (one row per ability, numbers and labels from
the BattleScribe data; its README gives the columns). This module turns a character's rows into
a :class:`Kit` the duel (:mod:`.duel`) and the party game (:mod:`.skirmish`) play, resolves one
attack with them exactly (:func:`swing_odds`), and says of each row whether it is played in full,
approximately or not at all (:func:`coverage`): that level is derived here from the row and from
what the engine plays, never written in the data.

Rules (anima-tactics-rulebook.txt unless named otherwise):

- "Special Abilities": "Like Basic abilities, each costs the number of Action points equal to the
  number of spheres next to it"; "Some of these Special Abilities modify the rules for normal
  defenses, attacks or counterattacks. Follow the normal rules for these actions, applying the
  modifiers from Special Abilities as needed." An Attack special is an Attack with its modifiers
  (to the roll, to Damage, to the target's Armor); a Charge special is a Charge (+2, once per
  turn, not against an enemy already engaged) with its own; a Ranged Attack special is a Ranged
  Attack.
- "Ranged Attacks": "no Counterattacks are possible against Ranged Attacks" (a Dodge is);
  "Characters engaged in hand-to-hand combat cannot make ranged attacks"; "Ranged Attacks against
  characters already engaged in hand-to-hand combat receive -1 to their Attack value". With no
  board, every enemy is in range and line of sight, never beyond half the range (no Long Range
  -1) and never behind cover.
- Innate "Ranged Attack" (the data's rule): the character's Attack action also reaches enemies at
  a distance, but not while it is engaged.
- "Attacking and hitting": "a result of 10 on an attack roll is automatically a success". The
  data's "Critical Hit" is read as that automatic success (a natural 10), and its "Critical
  Mastery" ("receives a Critical Hit on a result of 9 or 10 on any of its attacks") as 9 or 10.
  "Roll two dice and keep the highest result": the kept die is the attack roll.
- Innate "Damage Resistance" (the data's rule): such units "can't use Action Points to Dodge
  attacks or Counterattack. They always defend using their basic Defense attribute."
- Innate "Initiative" (the data's rule): "Characters with this ability add +1 to the result ...
  a party with several characters with Initiative add +1 for each". Read as the roll that decides
  who acts first ("each player rolls a die, with the high roller deciding who will act first";
  ties roll again).
- "Limit: Once per game" / "Once per turn" in a special's text: kept.
- Follow-on specials ("Special Abilities": a special's own condition modifies the normal rules):
  a special usable only right after another action (the data's ``after`` column: a Charge, a
  Charge that hit, a hit with a named special, a hit that throws) is offered only as the next
  action of the same activation, against the same target (:func:`options`, ``chain``; what an
  action leaves for the next: :func:`chain_of`).
- Reactive Attack specials: "Reactive actions ... can be taken at any time, even when it's not a
  character's turn to act ... Unless otherwise specified, reactive abilities must be used before
  any die roll" ("Using Actions: Active and Reactive Actions"). The special's own trigger (the
  ``reaction`` column) says when: before an enemy's melee attack at it (resolved first; a target
  it fells makes no attack), once an enemy's attack has damaged it (at that enemy), or after an
  enemy engaged with it attacks a friend of it (at that enemy). Never an active action
  (:func:`reactive`, played by the party game).
- Effects and Paralyze: "Special Abilities with the *Effect* keyword require a Resistance roll
  versus the target ... roll a die and add its Resistance value to the result. If the sum is
  greater than the difficulty level of the Special ability, the target is not affected"
  ("Resistances"). A special that deals no damage, or a fixed loss of Life Points instead of
  its damage (no Armor), or Paralyze on a hit, applies it only when the target fails that roll
  (:func:`effect_outcome`). "Paralyzed: The character is paralyzed and cannot use any Actions
  during the Turn" ("STATE"): no action, no Dodge, no reaction; "remove one counter of each type
  of State during Maintenance phase" (a level 1 Paralyze lasts the rest of the turn). A special
  usable only at a Paralyzed target waits for one. Party games only (the exact duel reads no
  Resistance and no state).
- Innate "Infiltration" (the data's rule: such a character may "infiltrate into the Scenario and
  hide in an advantageous position"): read as deploying hidden. "Hide": "While they are hidden,
  they cannot be the object of any hand-to-hand attack, ranged attack ... When a hidden
  character makes an attack or performs any offensive action, the character is revealed";
  a special usable only hidden then needs no Stealth first. Party games only.
- Innate "Intangible" (the data's rule): "immune to most conventional attacks. So, it ignores
  most damage or harm that isn't caused by a Magical or Ki Attack or Special Effect. Enemies of
  a higher level than the intangible Character ignore this rule": an attack that is not a
  special tagged Ki or Magic takes no Life Points from it, unless its attacker costs more levels
  (:func:`harms`). Party games only.
- "Hide": "A character cannot hide if it is already in the Zone of Control of an enemy
  character"; "When a hidden character makes an attack ... the character is revealed". A special
  usable only while hidden is played right after the character's Stealth: a Ranged Attack from
  where it hid, an Attack after a Walk into contact ("Walk (1 Action, Once per Turn)", a Movement
  action), neither while engaged.

- Off the table (the data's Towards The Clouds, Forced Landing and Pumpkin Bomb, Kaori's): a
  Movement special (``leave``) removes its user from the table, and on its next turn's
  activation it must come back by a special usable only off the table: one that places it
  (``land``) or one that places it and attacks (an Attack special requiring ``off the table``).
  The rulebook does not define a living character off the table; deckkit reads it by the rules
  it does give: "Movement": once per turn, never while in Hand-to-hand combat (so not engaged
  and not after a Charge that turn); "Hand-to-hand Combat" (bases touching) and "Ranged
  Attacks" (the target in Line of Sight and range): off the table no one can attack it and it
  attacks no one, engaged with none; "Winning" counts the "levels on the table", so it does not
  count while off. Placed back, board-free: apart from every enemy by the landing, in contact
  with its target (engaged) by the landing attack, whose "all units within 3 inches" are read
  as the target and every character in contact with it (the user's friends engaged with it,
  hit too); "cannot move after": its Movement for the turn spent. Party games only.
- Power tokens: "Recovery, Maintenance and Action" ("Phases and Turns"): a power that buys
  tokens with actions in the Maintenance (the data's "Upkeep") Phase buys them right before the
  Action Phase of the same turn, so a special that spends tokens costs an action a token more
  (:data:`TOKEN_COST`), and one more token buys the row's ``token_bonus`` (a second special of
  the kit). Played only where the character has such a power (:func:`buys_tokens`).

Where a special's text has a clause the engine does not play, the row lists it (``unplayed``)
and the special counts as approximate; where it needs a condition the board-free engine cannot
see (hidden, flying, a follow-on to another action, its own low Life Points), it is not played.
"""

from __future__ import annotations

import csv
import functools
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from deckkit.animatactics.engine.combat import DIE, NATURAL_SUCCESS
from deckkit.animatactics.engine.keyed import KeptHash

ABILITIES_CSV = "abilities.csv"

# What a special does when used, by its ``action`` column.
MELEE = "attack"  # an Attack special: against an enemy it is engaged with
RANGED = "ranged"  # a Ranged Attack special: while not engaged, no Counterattack against it
CHARGE = "charge"  # a Charge special: +2 as a Charge, once per turn, into contact
PLAYED_ACTIONS = (MELEE, RANGED, CHARGE)
LEAVE = "leave"  # a Movement special that takes its user off the table
LAND = "land"  # a special that puts it back (usable only off the table), no attack
OFF_TABLE = "off the table"  # a ``requires`` label: usable only off the table

WALK_COST = 1  # "Walk (1 Action, Once per Turn)"
CHARGE_BONUS = 2  # "Charge": "adding +2 to the roll" (as combat.CHARGE_BONUS)
ENGAGED_TARGET = -1  # "Ranged Attacks against characters already engaged ... -1"
MASTERY_CRITICAL = 9  # Critical Mastery: "a Critical Hit on a result of 9 or 10"

# Innate abilities and how the engine plays them (coverage, and what is left out).
FULL = "full"
APPROXIMATE = "approximate"
NONE = "none"
SUMMONS = (
    "summons are not in the data (and neither the rulebook nor the data's rule entry "
    "defines summoning)"
)
INNATE: dict[str, tuple[str, str]] = {
    "Critical Mastery": (FULL, ""),
    "Initiative": (FULL, "the roll for the first action; deployment has no board"),
    "Damage Resistance": (FULL, "no Fall or Crash on a board-free table"),
    "Ranged Attack": (APPROXIMATE, "every enemy in range and sight, no cover or Long Range"),
    "Flight": (APPROXIMATE, "no scenery or interception on a board-free table"),
    "Advanced Deployment": (APPROXIMATE, "no deployment zones on a board-free table"),
    "Open Movement": (APPROXIMATE, "no terrain on a board-free table"),
    "Immunity": (APPROXIMATE, "no state is played yet, so none is resisted"),
    "Pilot": (FULL, "a Gear's recovery comes from its pilot"),
    "Infiltration": (
        APPROXIMATE,
        "party games only: deploys hidden (no deployment zones, no "
        "Seek or Upkeep played); its first attack reveals it",
    ),
    "Intangible": (
        APPROXIMATE,
        "party games only; no terrain or free Escape on a board-free table; the players do not "
        "see it when they choose a target",
    ),
    "Summoner (Level 1)": (NONE, SUMMONS),
    "Summoner (Level 2)": (NONE, SUMMONS),
    "Summoner (Level 3)": (NONE, SUMMONS),
}
# Clauses whose absence leaves nothing of the special worth playing: not played at all.
BLOCKING = frozenset({"rules text not in the source"})


@dataclass(frozen=True)
class Special(KeptHash):
    """One special ability the engine plays: an attack with its cost and modifiers."""

    __hash__ = KeptHash.__hash__  # kept: the dataclass would make its own

    name: str
    action: str  # MELEE, RANGED or CHARGE
    cost: int
    attack: int = 0  # to the attack roll
    damage: int = 0  # to the attacker's Damage
    armor: int = 0  # to the target's Armor (never below 0)
    ignore_armor: bool = False
    dice: int = 1  # 2: two dice, the highest kept
    roll: int = 0  # a fixed attack roll (no die), 0 when rolled
    strikes: int = 1  # consecutive attacks on the same target
    follow_up: str = ""  # "hit": one more plain attack when the first hits; "always": one more
    area: bool = False  # every enemy in contact (board-free: every enemy it is engaged with)
    critical_mastery: bool = False
    critical_damage: int = 0
    critical_ignores_armor: bool = False
    self_damage: int = 0  # Life Points sacrificed to use it
    limit: str = ""  # "game", "turn" or ""
    max_life: int = 0  # usable only at this many Life Points or fewer (0: always)
    hide: int = 0  # actions of Stealth paid first (usable only when hidden), in ``cost``
    walk: bool = False  # an Attack special used hidden: a Walk into contact first, in ``cost``
    after: str = ""  # a follow-on: usable only right after this (a key of :func:`chain_of`)
    reaction: str = ""  # a reactive special: its trigger (BEFORE_MELEE, DAMAGED, ALLY_ATTACKED)
    recoil: bool = False  # the user then loses as many Life Points as its target has left
    throws: bool = False  # a hit with it throws the target (the throw itself is not played)
    no_damage: bool = False  # a hit takes no Life Points (its effect is what it does)
    loss: int = 0  # a hit takes this many Life Points instead of its damage, Armor no help
    paralyze: int = 0  # a hit Paralyzes at this level
    effect: int = 0  # the difficulty the target resists ``loss`` and ``paralyze`` against
    at_paralyzed: bool = False  # usable only at a Paralyzed target
    arcane: bool = True  # a Ki or Magic special (it harms an Intangible character)
    tokens: int = 0  # power tokens it spends, each bought with an action (in ``cost``)
    off_table: bool = False  # usable only off the table: it places its user, then attacks

    @property
    def effect_roll(self) -> bool:
        """Whether a hit with it is resisted by the target's Resistance roll ("Resistances")."""
        return self.no_damage or bool(self.loss or self.paralyze) or self.at_paralyzed

    @property
    def party_only(self) -> bool:
        """Effects, states and the table: played in party games, never in the exact duel."""
        return self.effect_roll or self.off_table


# Reactive triggers (the ``reaction`` column).
BEFORE_MELEE = "before melee"
DAMAGED = "damaged"
ALLY_ATTACKED = "ally attacked"
# Follow-on keys (the ``after`` column).
AFTER_CHARGE = "charge"
AFTER_CHARGE_HIT = "charge hit"
AFTER_THROW_HIT = "throw hit"
AFTER_HIT = "hit:"  # + the (lower-case) name, or end of the name, of a special that hit


def effect_outcome(spec: Special, dealt: int, resistance: int, roll: int) -> tuple[int, int]:
    """Life Points a hit of ``spec`` takes (``dealt`` its damage, >= 0) and the Paralyze level
    it leaves, the target having rolled ``roll`` for Resistance ("Resistances": resisted when
    the roll plus Resistance is greater than the difficulty)."""
    resisted = roll + resistance > spec.effect
    if spec.no_damage:
        life = 0
    elif spec.loss:
        life = 0 if resisted else spec.loss
    else:
        life = dealt
    return life, 0 if resisted else spec.paralyze


def harms(target: Kit, spec: Special | None, attacker_levels: int, target_levels: int) -> bool:
    """Whether an attack (``spec`` None: a basic one) can take Life Points from ``target``:
    not from an Intangible one unless a Ki or Magic special, or its attacker's level higher."""
    if not target.intangible or attacker_levels > target_levels:
        return True
    return spec is not None and spec.arcane


def chain_of(spec: Special | None, charge: bool, hit: bool) -> frozenset[str]:
    """What an action leaves for a follow-on special right after it: a Charge (basic or a
    special), one that hit; a hit with a special (its name); a hit that throws."""
    out: set[str] = set()
    if charge:
        out.add(AFTER_CHARGE)
        if hit:
            out.add(AFTER_CHARGE_HIT)
    if hit and spec is not None:
        out.add(AFTER_HIT + spec.name.lower())
        if spec.throws:
            out.add(AFTER_THROW_HIT)
    return frozenset(out)


def follows(spec: Special, chain: frozenset[str]) -> bool:
    """Whether the follow-on ``spec`` may come right after an action that left ``chain``; a
    named special matches by the end of its name (the data names "Xian Wu Jian" for "First
    Stand: Xian Wu Jian")."""
    if spec.after.startswith(AFTER_HIT):
        name = spec.after[len(AFTER_HIT) :]
        return any(k.startswith(AFTER_HIT) and k.endswith(name) for k in chain)
    return spec.after in chain


@dataclass(frozen=True)
class Kit(KeptHash):
    """What a character's abilities change in play."""

    __hash__ = KeptHash.__hash__  # kept: the dataclass would make its own

    specials: tuple[Special, ...] = ()
    critical_mastery: bool = False
    initiative: bool = False
    damage_resistance: bool = False
    ranged: bool = False  # innate Ranged Attack: its Attack reaches at a distance
    infiltration: bool = False  # innate Infiltration: deploys hidden (party games)
    intangible: bool = False  # innate Intangible: plain attacks harm it not (party games)
    ignore_armor: bool = False  # a power: every attack it makes ignores the target's Armor
    damage_cap: int = 0  # a power: it loses at most this many Life Points to one attack (0: any)
    deter: int = 0  # a power: an attacker at it misses unless it resists this Effect (0: none)
    leave: Special | None = None  # its special that takes it off the table (party games)
    land: Special | None = None  # its special that puts it back, no attack (off the table)


NO_KIT = Kit()


@dataclass(frozen=True)
class Powers(KeptHash):
    """What the powers of an attacker and of its target change in one attack of the one at the
    other (:func:`powers_between`, the only place that reads them): every attack made, and every
    attack weighed by a player or the duel's schedule, goes through it."""

    __hash__ = KeptHash.__hash__  # kept: the dataclass would make its own

    ignores: bool = False  # the attacker's: its attacks ignore the target's Armor
    cap: int = 0  # the target's: the most Life Points one attack takes from it (0: no limit)
    fails: int = 0  # faces of the attacker's Resistance die on which the target's deterrent
    # makes the attack miss


NO_POWERS = Powers()


def powers_between(kit: Kit, resistance: int, target: Kit) -> Powers:
    """The powers in play when a character with ``kit`` and ``resistance`` attacks one with
    ``target``: its own Armor bypass (Lightning Slash: "all of [its] attacks ignore the target's
    Armor"), the target's cap on Life Points lost to one attack (Immortal Shadow) and the
    target's deterrent the attacker must resist or miss (Fearbringer, "Resistances": resisted
    when the roll plus Resistance is greater than the difficulty)."""
    fails = deterred(target.deter, resistance)
    if not (kit.ignore_armor or target.damage_cap or fails):
        return NO_POWERS
    return Powers(kit.ignore_armor, target.damage_cap, fails)


@dataclass(frozen=True)
class Swing:
    """Everything one attack roll reads."""

    attack: int  # the attacker's Attack plus every modifier to the roll
    damage: int  # the attacker's Damage plus the special's
    defense: int
    armor: int  # the target's Armor after the special's change
    ignore_armor: bool = False
    dice: int = 1
    roll: int = 0
    critical: int = NATURAL_SUCCESS  # the kept die from which the hit is critical
    critical_damage: int = 0
    critical_ignores_armor: bool = False
    cap: int = 0  # the most Life Points it can take (the defender's power), 0: no limit
    fails: int = 0  # faces of the attacker's Resistance die on which it misses (a deterrent)


def make_swing(
    attack: int, damage: int, mastery: bool, defense: int, armor: int, spec: Special | None,
    mod: int, powers: Powers = NO_POWERS,
) -> Swing:  # fmt: skip
    """One attack of a character (Attack, Damage, innate Critical Mastery) against a defender
    (Defense, Armor), plain (``spec`` None) or by a special, with ``mod`` added to the roll and
    the two's ``powers`` (:func:`powers_between`)."""
    if spec is None:
        return Swing(
            attack + mod, damage, defense, armor, powers.ignores,
            critical=MASTERY_CRITICAL if mastery else NATURAL_SUCCESS, cap=powers.cap,
            fails=powers.fails,
        )  # fmt: skip
    return Swing(
        attack + mod + spec.attack,
        damage + spec.damage,
        defense,
        max(armor + spec.armor, 0),
        spec.ignore_armor or powers.ignores,
        spec.dice,
        spec.roll,
        MASTERY_CRITICAL if mastery or spec.critical_mastery else NATURAL_SUCCESS,
        spec.critical_damage,
        spec.critical_ignores_armor,
        powers.cap,
        powers.fails,
    )


def roll_weights(dice: int, roll: int) -> tuple[tuple[int, Fraction], ...]:
    """The kept attack die and its probability: one d10; the higher of two d10 (P(k) =
    (2k - 1)/100); or a fixed result."""
    if roll:
        return ((roll, Fraction(1)),)
    if dice == 2:
        return tuple((k, Fraction(2 * k - 1, 100)) for k in DIE)
    return tuple((k, Fraction(1, 10)) for k in DIE)


def swing_damage(sw: Swing, kept: int, defense_roll: int) -> int:
    """Life Points one attack takes with its dice known; -1 on a miss ("Attacking and hitting",
    "Calculating Damage": Damage + Level of Success - Armor, never below 0)."""
    total = sw.attack + kept
    defense = sw.defense + defense_roll
    critical = kept >= sw.critical and sw.roll == 0
    if total < defense and not critical:
        return -1
    success = max(total - defense, 0)
    armor = 0 if sw.ignore_armor or (critical and sw.critical_ignores_armor) else sw.armor
    bonus = sw.critical_damage if critical else 0
    dealt = max(sw.damage + bonus + success - armor, 0)
    return min(dealt, sw.cap) if sw.cap else dealt


@functools.cache
def swing_odds(sw: Swing, defends: bool) -> tuple[Fraction, tuple[Fraction, ...]]:
    """Exactly: P(miss) and P(hit taking k Life Points), k = 0, 1, ..., every attack die kept
    and, when the defender Dodges or Counterattacks, its d10 added to Defense."""
    miss = Fraction(0)
    damage: dict[int, Fraction] = {}
    for kept, w in roll_weights(sw.dice, sw.roll):
        for d in DIE if defends else (0,):
            p = w / 10 if defends else w
            dealt = swing_damage(sw, kept, d)
            if dealt < 0:
                miss += p
            else:
                damage[dealt] = damage.get(dealt, Fraction(0)) + p
    if sw.fails:  # the attacker's Resistance roll first: on a failure the attack misses
        keep = Fraction(10 - sw.fails, 10)
        miss = 1 - keep + keep * miss
        damage = {k: keep * p for k, p in damage.items()}
    top = max(damage, default=0)
    return miss, tuple(damage.get(k, Fraction(0)) for k in range(top + 1))


def deterred(deter: int, resistance: int) -> int:
    """Faces of a d10 on which an attacker with ``resistance`` fails to resist a deterrent of
    difficulty ``deter`` ("Resistances": resisted when the roll plus Resistance is greater than
    the difficulty), so its attack misses."""
    return max(0, min(10, deter - resistance)) if deter else 0


@functools.cache
def expected_damage(sw: Swing, defends: bool) -> float:
    _, dist = swing_odds(sw, defends)
    return float(sum((k * p for k, p in enumerate(dist)), Fraction(0)))


def hit_chance(sw: Swing, defends: bool) -> float:
    return float(1 - swing_odds(sw, defends)[0])


def use_value(
    attack: int, damage: int, mastery: bool, defense: int, armor: int, spec: Special | None,
    mod: int, defends: bool, powers: Powers = NO_POWERS,
) -> float:  # fmt: skip
    """Expected Life Points one use takes from its target (every attack of it defended alike;
    a follow-up attack plain; the two's ``powers`` applied to each, as the attack itself applies
    them), the measure by which a player weighs an action against its cost."""
    sw = make_swing(attack, damage, mastery, defense, armor, spec, mod, powers)
    if spec is None:
        return expected_damage(sw, defends)
    if spec.no_damage or spec.loss:  # the fixed loss on a hit, as if never resisted
        return hit_chance(sw, defends) * spec.loss * spec.strikes
    value = expected_damage(sw, defends)
    value *= spec.strikes
    if spec.follow_up:
        plain = expected_damage(
            make_swing(attack, damage, mastery, defense, armor, None, 0, powers), False
        )
        value += plain * (hit_chance(sw, defends) if spec.follow_up == "hit" else 1.0)
    return value


def _strike_odds(
    sw: Swing, spec: Special | None, defends: bool
) -> tuple[tuple[int, float, bool], ...]:
    """One attack of a use: (Life Points taken, probability, whether it hit), a miss taking 0;
    a special with no damage or a fixed loss takes that on a hit (as if never resisted, as
    :func:`use_value`)."""
    miss, dist = swing_odds(sw, defends)
    hit = float(1 - miss)
    if spec is not None and (spec.no_damage or spec.loss):
        return ((0, 1.0 - hit, False), (spec.loss, hit, True))
    return ((0, float(miss), False), *((k, float(p), True) for k, p in enumerate(dist) if p))


@functools.cache
def use_outcome(
    attack: int, damage: int, mastery: bool, defense: int, armor: int, spec: Special | None,
    mod: int, defends: bool, life: int, powers: Powers = NO_POWERS,
) -> tuple[float, float, float]:  # fmt: skip
    """What one use does to a target with ``life`` Life Points left: the Life Points it takes
    (never more than are left: "Damage and Death", a character at 0 is removed from play, so a
    hit beyond that takes nothing more), the chance it knocks the target out, and the chance its
    first attack hits (a Paralyze's chance before the Resistance roll). Every attack of it is
    defended alike and a follow-up attack is plain, as :func:`use_value` weighs them, with the
    two's ``powers``."""
    sw = make_swing(attack, damage, mastery, defense, armor, spec, mod, powers)
    one = _strike_odds(sw, spec, defends)
    first_hit = sum(p for _, p, h in one if h)
    left: dict[tuple[int, bool], float] = {(life, False): 1.0}  # (Life Points left, last hit)
    for _ in range(spec.strikes if spec is not None else 1):
        nxt: dict[tuple[int, bool], float] = {}
        for (lp, _hit), p in left.items():
            for k, q, h in one if lp > 0 else ((0, 1.0, False),):
                key = (max(lp - k, 0), h)
                nxt[key] = nxt.get(key, 0.0) + p * q
        left = nxt
    if spec is not None and spec.follow_up:
        plain = _strike_odds(make_swing(attack, damage, mastery, defense, armor, None, 0,
                                        powers), None, False)  # fmt: skip
        nxt = {}
        for (lp, h), p in left.items():
            if lp > 0 and (h or spec.follow_up == "always"):
                for k, q, _h in plain:
                    key = (max(lp - k, 0), False)
                    nxt[key] = nxt.get(key, 0.0) + p * q
            else:
                nxt[(lp, False)] = nxt.get((lp, False), 0.0) + p
        left = nxt
    taken = sum((life - lp) * p for (lp, _h), p in left.items())
    ko = sum(p for (lp, _h), p in left.items() if lp == 0)
    return taken, ko, first_hit


def initiative_first(bonus_a: int, bonus_b: int) -> Fraction:
    """P(side A wins the roll for the first action): d10 + its Initiative bonus against the
    other's, ties rolled again."""
    win = sum(1 for a in DIE for b in DIE if a + bonus_a > b + bonus_b)
    lose = sum(1 for a in DIE for b in DIE if a + bonus_a < b + bonus_b)
    return Fraction(win, win + lose)


# "Basic abilities": "Attack (2 Actions)", "Charge (3 Actions, Once per Turn)" (as in .duel).
BASIC_ATTACK_COST = 2
BASIC_CHARGE_COST = 3


@dataclass(frozen=True)
class Option:
    """An active action a character may take: a basic one (``special`` -1) or a special."""

    special: int
    cost: int
    mod: int  # to the roll beyond the special's own: +2 for a Charge, -1 at an engaged target
    charge: bool  # a Charge: once per turn, not while engaged; ignores the plan's reserve
    engages: bool  # brings the two into contact
    ranged: bool  # no Counterattack against it
    strikes: int = 1
    follow_up: str = ""


# The options of one character against one enemy depend on these arguments alone; a party
# game asks for the same ones again and again (every ready character's actions, every decision
# of a search player's rollouts). Bounded: a long run meets many kits and states.
OPTIONS_KEPT = 1 << 16


@functools.lru_cache(maxsize=OPTIONS_KEPT)
def options_kept(
    kit: Kit, ap: int, engaged: bool, moved: bool, used: int, target_engaged: bool, life: int,
    chain: frozenset[str], at_paralyzed: bool,
) -> tuple[Option, ...]:  # fmt: skip
    """:func:`options` as a party game asks for them (no reserve, effects played, the Charge's
    bonus by the default reading's value), kept: the same tuple for the same arguments."""
    return tuple(options(kit, ap, 0, engaged, moved, used, target_engaged, life, chain=chain,
                         effects=True, at_paralyzed=at_paralyzed))  # fmt: skip


def options(
    kit: Kit, ap: int, reserve: int, engaged: bool, moved: bool, used: int, target_engaged: bool,
    life: int, charge_bonus: int = CHARGE_BONUS, chain: frozenset[str] = frozenset(),
    effects: bool = False, at_paralyzed: bool = False,
) -> list[Option]:  # fmt: skip
    """What a character can pay for now against one enemy, basic actions first. Not engaged:
    a Charge (when it has not moved this turn), its Charge specials, its Ranged Attack specials
    and, with innate Ranged Attack, an Attack at a distance; engaged: an Attack and its Attack
    specials. A Charge needs its cost only (it opens a fight); any other action leaves the
    plan's ``reserve`` of actions for reactions. ``life`` 0: Life Points unknown (the exact
    duel), so no special that costs Life Points. ``charge_bonus``: a Charge's +2, 0 under the
    rule option ``opening_charge=no`` (a Walk into contact and an Attack, engine/options.py).
    ``chain``: what the character's previous action of this activation left against this enemy
    (:func:`chain_of`), which a follow-on special needs; empty (the exact duel), none is offered.
    Reactive specials are never offered (:func:`reactive`); specials with effects or states only
    with ``effects`` (party games), one usable at a Paralyzed target only when it is
    (``at_paralyzed``). A special used hidden after a Walk
    into contact is offered while not engaged and not moved, and engages."""
    out: list[Option] = []
    shot = ENGAGED_TARGET if target_engaged else 0
    if engaged:
        if ap >= BASIC_ATTACK_COST + reserve:
            out.append(Option(-1, BASIC_ATTACK_COST, 0, False, True, False))
    else:
        if not moved and ap >= BASIC_CHARGE_COST:
            out.append(Option(-1, BASIC_CHARGE_COST, charge_bonus, True, True, False))
        if kit.ranged and ap >= BASIC_ATTACK_COST + reserve:
            out.append(Option(-1, BASIC_ATTACK_COST, shot, False, False, True))
    for i, sp in enumerate(kit.specials):
        if used >> i & 1 or (sp.self_damage and life <= sp.self_damage):
            continue
        if sp.max_life and (life == 0 or life > sp.max_life):
            continue
        if sp.reaction or sp.off_table or (sp.party_only and not effects):
            continue  # an off-table special: offered by the party game off the table alone
        if sp.at_paralyzed and not at_paralyzed:
            continue
        if sp.after:
            # "immediately after": the next action, whether or not engaged (a throw parts them)
            if follows(sp, chain) and ap >= sp.cost + reserve:
                out.append(Option(i, sp.cost, 0, False, sp.action == MELEE, sp.action == RANGED,
                                  sp.strikes, sp.follow_up))  # fmt: skip
            continue
        if sp.walk:
            if not engaged and not moved and ap >= sp.cost + reserve:
                out.append(Option(i, sp.cost, 0, False, True, False, sp.strikes, sp.follow_up))
            continue
        if sp.action == CHARGE:
            if engaged or moved or ap < sp.cost:
                continue
            out.append(Option(i, sp.cost, charge_bonus, True, True, False, sp.strikes,
                              sp.follow_up))  # fmt: skip
        elif ap >= sp.cost + reserve and (sp.action == MELEE) == engaged:
            mod = shot if sp.action == RANGED else 0
            out.append(Option(i, sp.cost, mod, False, sp.action == MELEE, sp.action == RANGED,
                              sp.strikes, sp.follow_up))  # fmt: skip
    return out


def option_value(
    attack: int, damage: int, kit: Kit, defense: int, armor: int, target: Kit, target_ap: int,
    opt: Option, powers: Powers = NO_POWERS,
) -> float:  # fmt: skip
    """Expected Life Points per action point the option takes from its target, with the two's
    ``powers`` (:func:`powers_between`) as the attack applies them; the party game's heuristic
    (players.action_value) weighs them alike, so one against one it is still this duel."""
    defends = target_ap >= 1 and not target.damage_resistance
    spec = kit.specials[opt.special] if opt.special >= 0 else None
    value = use_value(attack, damage, kit.critical_mastery, defense, armor, spec, opt.mod, defends,
                      powers)  # fmt: skip
    return value / opt.cost


def choose(
    attack: int, damage: int, kit: Kit, defense: int, armor: int, target: Kit, ap: int,
    reserve: int, engaged: bool, moved: bool, used: int, target_ap: int, target_engaged: bool,
    life: int, charge_bonus: int = CHARGE_BONUS, powers: Powers = NO_POWERS,
) -> Option | None:  # fmt: skip
    """The option worth most Life Points per action point against this target (the first of
    equals, so a basic action unless a special beats it), the two's ``powers`` weighed; None
    when nothing can be paid."""
    found = options(kit, ap, reserve, engaged, moved, used, target_engaged, life, charge_bonus)
    if len(found) <= 1:
        return found[0] if found else None
    best: Option | None = None
    best_value = -1.0
    for opt in found:
        v = option_value(attack, damage, kit, defense, armor, target, target_ap, opt, powers)
        if v > best_value + 1e-12:
            best, best_value = opt, v
    return best


def reactive(kit: Kit, trigger: str, ap: int, used: int) -> int:
    """The reactive special of ``kit`` with this trigger the character can pay for now (not
    used up), the first of them; -1 when none. The party game uses it whenever it can: a player
    choice simplified (it may keep no actions back for a Dodge)."""
    for i, sp in enumerate(kit.specials):
        if sp.reaction == trigger and not used >> i & 1 and ap >= sp.cost:
            return i
    return -1


# --- the data ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class AbilityRow:
    """One row of abilities.csv."""

    character: str
    ability: str
    kind: str  # innate, special, power
    fields: tuple[tuple[str, str], ...]

    def get(self, key: str) -> str:
        return dict(self.fields).get(key, "")

    @property
    def unplayed(self) -> list[str]:
        return [x for x in self.get("unplayed").split(";") if x]

    @property
    def requires(self) -> list[str]:
        return [x for x in self.get("requires").split(";") if x]


def _num(text: str) -> int:
    return int(text) if text.strip() else 0


HIDDEN = "hidden"
POWER_TOKENS = "power tokens"  # a ``requires`` label: it spends power tokens
TOKENS_FOR_ACTIONS = "actions"  # a power's ``tokens``: it buys them with actions
# "During the Upkeep Phase [it] can spend any amount of AP to get an equal number of Power
# tokens" (the data's Ice Arrows; the rulebook's "Maintenance Phase" comes right before the
# Action Phase of the same turn, "Phases and Turns"): a token costs an action.
TOKEN_COST = 1
WARRIOR_AGENT = "warrior agent"
PARALYZE = "Paralyze"
LOW_LIFE = "low life "
STEALTH = "Stealth"


def hiding_cost(rows: list[AbilityRow]) -> int:
    """The action cost of the character's Stealth special ("becomes Hidden"), 0 without one."""
    for r in rows:
        if r.kind == "special" and r.ability == STEALTH and r.get("ap"):
            return _num(r.get("ap"))
    return 0


def leaves_table(rows: list[AbilityRow]) -> bool:
    """Whether the character has a special that takes it off the table (``action`` leave), which
    a special usable only off the table needs."""
    return any(r.kind == "special" and r.get("action") == LEAVE and r.get("ap") for r in rows)


def buys_tokens(rows: list[AbilityRow]) -> bool:
    """Whether the character has a power that buys power tokens with actions in the Maintenance
    Phase (the ``tokens`` column ``actions``)."""
    return any(r.kind == "power" and r.get("tokens") == TOKENS_FOR_ACTIONS for r in rows)


def _blocked(row: AbilityRow, hiding: int, tokens: bool = False, leaves: bool = False) -> list[str]:
    """What the special needs that the engine cannot give it (empty: it is played); ``tokens``:
    the character buys power tokens with actions; ``leaves``: it can take itself off the table."""
    out = []
    for need in row.requires:
        if need == OFF_TABLE and leaves and row.get("action") == MELEE:
            continue  # used on the turn after its leave special, off the table (party games)
        if need == POWER_TOKENS and tokens and row.get("tokens"):
            continue  # bought in the Maintenance Phase, an action each (paid at the shot)
        if need == HIDDEN and hiding and row.get("action") in (RANGED, MELEE):
            continue  # hides first with Stealth (out of contact), then shoots or walks in
        if need.startswith(LOW_LIFE) and need[len(LOW_LIFE) :].isdigit():
            continue  # party games read the character's Life Points
        if need == WARRIOR_AGENT:
            continue  # the Agent's categories include Fighter (Warrior): taken as one
        out.append(need)
    return out + sorted(BLOCKING.intersection(row.unplayed))


def special_of(
    row: AbilityRow, hiding: int = 0, tokens: bool = False, more: int = 0, leaves: bool = False
) -> Special | None:
    """The special the engine plays for ``row`` (``hiding``: the character's Stealth cost;
    ``tokens``: it buys power tokens with actions; ``more``: tokens spent beyond the special's
    own, each for the row's ``token_bonus``; ``leaves``: it can take itself off the table), or
    None when it plays none of it."""
    if row.kind != "special" or row.get("action") not in PLAYED_ACTIONS:
        return None
    if _blocked(row, hiding, tokens, leaves) or not row.get("ap"):
        return None
    spent = _num(row.get("tokens")) + more
    bonus_attack, _, bonus_damage = row.get("token_bonus").partition("/")
    armor = row.get("armor")
    hide = hiding if HIDDEN in row.requires else 0
    walk = bool(hide) and row.get("action") == MELEE
    low = [int(x[len(LOW_LIFE) :]) for x in row.requires if x.startswith(LOW_LIFE)]
    state, _, level = row.get("state").partition(" ")
    return Special(
        name=row.ability if not more else f"{row.ability} ({more} more token)",
        action=row.get("action"),
        cost=_num(row.get("ap")) + hide + (WALK_COST if walk else 0) + spent * TOKEN_COST,
        attack=_num(row.get("attack")) + more * _num(bonus_attack),
        damage=_num(row.get("damage")) + more * _num(bonus_damage),
        armor=0 if armor in ("", "ignore") else int(armor),
        ignore_armor=armor == "ignore",
        dice=_num(row.get("dice")) or 1,
        roll=_num(row.get("roll")),
        strikes=_num(row.get("strikes")) or 1,
        follow_up=row.get("follow_up"),
        area=row.get("area") == "yes",
        critical_mastery=row.get("critical_mastery") == "yes",
        critical_damage=_num(row.get("critical_damage")),
        critical_ignores_armor=row.get("critical_ignores_armor") == "yes",
        self_damage=_num(row.get("self_damage")),
        limit=row.get("limit"),
        max_life=low[0] if low else 0,
        hide=hide,
        walk=walk,
        after=row.get("after"),
        reaction=row.get("reaction"),
        recoil=row.get("recoil") == "yes",
        throws="throw" in row.unplayed,
        no_damage=row.get("no_damage") == "yes",
        loss=_num(row.get("loss")),
        paralyze=_num(level) if state == PARALYZE else 0,
        effect=_num(row.get("effect")),
        at_paralyzed=row.get("target_state") == PARALYZE,
        arcane=bool({"Ki", "Magic"} & set(row.get("tags").split("+"))),
        tokens=spent,
        off_table=OFF_TABLE in row.requires,
    )


# What the engine leaves out of a special it plays, beyond the row's own ``unplayed`` list.
def _left_out(spec: Special) -> list[str]:
    out: list[str] = []
    if spec.action == RANGED:
        out.append("every enemy in range and sight, no cover or Long Range")
    if spec.area and not spec.off_table:
        out.append("area: the enemies it is engaged with")
    if spec.follow_up == "hit":
        out.append("the follow-up attack undefended in the exact duel")
    if spec.self_damage or spec.max_life:
        out.append("party games only (the exact duel reads no Life Points)")
    if spec.hide and spec.walk:
        out.append(f"used right after Stealth and a Walk into contact ({spec.hide + WALK_COST} "
                   "actions added); hiding's other effects")  # fmt: skip
    elif spec.hide:
        out.append(f"used right after Stealth ({spec.hide} actions added); hiding's other effects")
    if spec.after:
        out.append("party games only (the exact duel plays no follow-on)")
    if spec.after == AFTER_THROW_HIT:
        out.append("the throw not played: still engaged after it")
    if spec.party_only and not spec.off_table:
        out.append("party games only (the exact duel reads no Resistance or state)")
    if spec.no_damage:
        out.append("the players weigh Life Points only: a hit that takes none is worth nothing "
                   "to them")  # fmt: skip
    elif spec.loss:
        out.append("the players value its loss as if never resisted")
    if spec.reaction:
        out.append("party games only (the exact duel plays no reactive special); used whenever "
                   "it can be paid")  # fmt: skip
    if spec.off_table:
        out.append(
            "party games only (the exact duel has no table to leave): used on the turn after "
            "its user left the table, the only way back but a plain landing; placed in contact "
            "with its target, board-free: the units within 3 inches are the target and the "
            "user's friends engaged with it"
        )
    if spec.tokens:
        out.append(
            "its power tokens bought in the Maintenance Phase of the turn it is used, an action "
            "each (paid at the attack, never spent on a reaction first)"
        )
    return out


_TABLE_NOTES = {
    LEAVE: "party games only: off the table until its next turn's activation, which must bring "
    "it back; never while engaged or after moving that turn; the heuristic never takes it (it "
    "weighs Life Points per action point), the search player weighs it by playing it out",
    LAND: "party games only: placed apart from every enemy (no board); its Movement for the turn",
}


def coverage(row: AbilityRow, rows: list[AbilityRow] | None = None) -> tuple[str, str]:
    """``(level, note)``: full, approximate or none, and what is left out or why not; ``rows``:
    the character's rows (its Stealth)."""
    if row.kind == "innate":
        level, note = INNATE.get(row.ability, (NONE, "not played"))
        return level, note
    if row.kind == "power":
        if row.get("tokens") == TOKENS_FOR_ACTIONS and any(
            r.get("tokens") and special_of(r, hiding_cost(rows or []), True) for r in rows or []
        ):
            return APPROXIMATE, ("tokens bought only for a special that spends them, in the turn "
                                 "it is used; no other use of the power")  # fmt: skip
        if row.get("armor") == "ignore" or row.get("damage_cap") or row.get("deter"):
            return FULL, ""  # every attack it makes, or takes, in the duel and party games
        return NONE, "powers are not played yet"
    if row.kind == "category":
        return NONE, "a party-building category, no rule in play"
    if row.get("action") in (LEAVE, LAND) and row.get("ap") and leaves_table(rows or []):
        return APPROXIMATE, _TABLE_NOTES[row.get("action")]
    if row.get("action") not in PLAYED_ACTIONS:
        return NONE, f"{row.get('action') or 'this'} specials are not played yet"
    hiding = hiding_cost(rows or [])
    tokens = buys_tokens(rows or [])
    leaves = leaves_table(rows or [])
    spec = special_of(row, hiding, tokens, leaves=leaves)
    if spec is None:
        why = _blocked(row, hiding, tokens, leaves) or ["no action cost"]
        return NONE, "needs " + ", ".join(why)
    missing = [*row.unplayed, *_left_out(spec)]
    if WARRIOR_AGENT in row.requires:
        missing.append("the Agent always taken as a Warrior (its data lists Warrior and Mystic; a "
                       "party file cannot say which)")  # fmt: skip
    if missing:
        return APPROXIMATE, "; ".join(missing)
    return FULL, ""


def kit_of(rows: list[AbilityRow]) -> Kit:
    """A character's kit from its rows."""
    innate = {r.ability for r in rows if r.kind == "innate"}
    hiding = hiding_cost(rows)
    tokens = buys_tokens(rows)
    leaves = leaves_table(rows)
    caps = [_num(r.get("damage_cap")) for r in rows if r.kind == "power" and r.get("damage_cap")]
    # a special that spends power tokens is offered with one more token too, for its bonus
    variants = [(r, more) for r in rows for more in ((0, 1) if r.get("token_bonus") else (0,))]
    specials = tuple(
        s
        for s in (special_of(r, hiding, tokens, more, leaves) for r, more in variants)
        if s is not None
    )
    table = {
        r.get("action"): Special(r.ability, r.get("action"), _num(r.get("ap")))
        for r in rows
        if r.kind == "special" and r.get("action") in (LEAVE, LAND) and r.get("ap")
    }
    return Kit(
        specials=specials,
        critical_mastery="Critical Mastery" in innate,
        initiative="Initiative" in innate,
        damage_resistance="Damage Resistance" in innate,
        ranged="Ranged Attack" in innate,
        infiltration="Infiltration" in innate,
        intangible="Intangible" in innate,
        ignore_armor=any(r.kind == "power" and r.get("armor") == "ignore" for r in rows),
        damage_cap=min(caps, default=0),
        deter=max((_num(r.get("deter")) for r in rows if r.kind == "power"), default=0),
        leave=table.get(LEAVE) if leaves else None,
        land=table.get(LAND) if leaves else None,
    )


def read_abilities(path: Path) -> list[AbilityRow]:
    with path.open(newline="", encoding="utf-8") as f:
        return [
            AbilityRow(
                r["character"].strip(),
                r["ability"].strip(),
                r["kind"].strip(),
                tuple((k, (v or "").strip()) for k, v in r.items() if k),
            )
            for r in csv.DictReader(f)
        ]


def by_character(path: Path) -> dict[str, list[AbilityRow]]:
    """The rows of the abilities file at ``path``, by character."""
    return _by_character(path)


@functools.cache
def _by_character(path: Path) -> dict[str, list[AbilityRow]]:
    out: dict[str, list[AbilityRow]] = {}
    for r in read_abilities(path):
        out.setdefault(r.character, []).append(r)
    return out


def kits(path: Path) -> dict[str, Kit]:
    """Every character's kit, by name, from the abilities file at ``path``."""
    return {name: kit_of(rows) for name, rows in _by_character(path).items()}
