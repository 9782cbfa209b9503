"""Anima Tactics Attack specials that hang on another action: follow-ons (right after a Charge or
a hit), reactive Attack specials, Attack specials used hidden, and a special that costs its user
its target's remaining Life Points. Each rule quoted from anima-tactics-rulebook.txt."""

from __future__ import annotations

import random

from deckkit.animatactics.analysis.matrix import kit_for
from deckkit.animatactics.engine.abilities import (
    AFTER_CHARGE,
    AFTER_CHARGE_HIT,
    AFTER_THROW_HIT,
    ALLY_ATTACKED,
    APPROXIMATE,
    BEFORE_MELEE,
    DAMAGED,
    NONE,
    AbilityRow,
    Kit,
    Special,
    chain_of,
    coverage,
    effect_outcome,
    follows,
    kit_of,
    options,
)
from deckkit.animatactics.engine.duel import PLANS, Duellist
from deckkit.animatactics.engine.skirmish import (
    ATTACK,
    CHARGE,
    COUNTER,
    NO_REACTION,
    Action,
    GameState,
    Policy,
    Side,
    _recovery,
    perform,
)

ALL_OUT = PLANS[0]


class _Still(Policy):
    """A player that never Dodges or Counterattacks (the dice alone decide)."""

    name = "still"

    def react(self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
              rng: random.Random) -> int:  # fmt: skip
        return NO_REACTION


POLS = (_Still(), _Still())


def _row(**fields: str) -> AbilityRow:
    base = {"character": "X", "ability": "Y", "kind": "special", "source": "test"}
    base.update(fields)
    return AbilityRow(base["character"], base["ability"], base["kind"], tuple(base.items()))


def _game(a: tuple[Duellist, ...], b: tuple[Duellist, ...]) -> GameState:
    return GameState(
        (Side(a, (10,) * len(a), ALL_OUT), Side(b, (10,) * len(b), ALL_OUT)), 0
    )  # fmt: skip


def _engage(g: GameState, side: int, i: int, t: int) -> None:
    g.teams[side][i].engaged |= 1 << t
    g.teams[1 - side][t].engaged |= 1 << i


def test_a_follow_on_comes_only_right_after_its_action_at_the_same_target() -> None:
    """ "Some of these Special Abilities modify the rules for normal defenses, attacks or
    counterattacks. Follow the normal rules for these actions, applying the modifiers from Special
    Abilities as needed" (Special Abilities): a special usable only right after a Charge is the
    next action of the activation, at the Charge's target; any other action ends the chance."""
    bones = Special("Bones", "attack", 2, damage=3, after=AFTER_CHARGE)
    kit = Kit(specials=(bones,))
    assert not any(o.special == 0 for o in options(kit, 6, 0, True, False, 0, False, 10))
    after = options(kit, 6, 0, True, False, 0, False, 10, chain=frozenset({AFTER_CHARGE}))
    assert any(o.special == 0 for o in after)
    me = Duellist("Me", 5, 4, 8, 1, 30, 8, 7, kit)
    foes = (Duellist("Foe", 5, 4, 8, 1, 30, 5, 3), Duellist("Other", 5, 4, 8, 1, 30, 5, 3))
    g = _game((me,), foes)
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    follow = [a for a in g.legal(0, 0) if a.special == 0]
    assert [a.target for a in follow] == [0]  # the Charge's target only
    perform(g, 0, 0, Action(ATTACK, 0), POLS, random.Random(3), random.Random(4))
    assert not any(a.special == 0 for a in g.legal(0, 0))  # no longer "immediately after"


def test_a_follow_on_after_a_hit_needs_the_hit() -> None:
    """ "may only be executed following a successful hit with" the named special (Feng Yi's
    stands, from the data): each stand follows a hit of the one before it, matched by the end of
    its name; a miss, or a Charge that missed, leaves nothing to follow."""
    stands = {s.name: s for s in kit_for("Feng Yi").specials}
    first = stands["First Stand: Xian Wu Jian"]
    second = stands["Second Stand: San Hua"]
    third = stands["Third Stand: Jing Niao"]
    assert follows(second, chain_of(first, False, True))
    assert not follows(second, chain_of(first, False, False))
    assert not follows(third, chain_of(first, False, True))
    assert follows(third, chain_of(second, False, True))
    assert AFTER_CHARGE_HIT in chain_of(None, True, True)
    assert chain_of(None, True, False) == frozenset({AFTER_CHARGE})
    visio = next(s for s in kit_for("XII").specials if s.name == "Visio Dei")
    assert visio.after == AFTER_CHARGE_HIT


def test_a_reactive_attack_before_a_melee_attack_can_stop_it() -> None:
    """ "Reactive actions, on the other hand, can be taken at any time, even when it's not a
    character's turn to act ... Unless otherwise specified, reactive abilities must be used before
    any die roll" (Using Actions: Active and Reactive Actions). Iaido's trigger: before an
    enemy's melee attack at it, resolved first, and a target it fells makes no attack; once per
    turn."""
    # a fixed roll of 10 at Defense 0 always hits; 40 damage fells the attacker
    iaido = Special("Iaido", "attack", 2, damage=40, roll=10, limit="turn",
                    reaction=BEFORE_MELEE)  # fmt: skip
    sho = Duellist("Sho", 0, 0, 30, 0, 20, 6, 5, Kit(specials=(iaido,)))
    foe = Duellist("Foe", 9, 5, 0, 0, 10, 6, 5)
    g = _game((foe,), (sho,))
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    assert g.teams[0][0].life == 0 and g.done  # felled before its attack
    assert g.teams[1][0].life == 20 and g.teams[1][0].ap == 6 - 2
    assert g.attacks == 1  # Iaido, not the Charge's attack roll
    # once per turn: a second attacker meets no Iaido
    foes = (Duellist("A", 9, 5, 0, 0, 60, 6, 5), Duellist("B", 9, 5, 0, 0, 60, 6, 5))
    g = _game(foes, (sho,))
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    perform(g, 0, 1, Action(CHARGE, 0), POLS, random.Random(3), random.Random(4))
    assert g.teams[0][0].life == 10 and g.teams[0][1].life == 60
    assert g.teams[1][0].ap == 6 - 2
    # a Ranged Attack is not a melee attack: no Iaido
    assert not any(s.reaction for s in kit_for("Sho").specials if s.action == "ranged")
    assert [o.special for o in options(sho.kit, 6, 0, True, False, 0, False, 20)] == [-1]


def test_a_reactive_attack_once_damaged_strikes_back_at_the_attacker() -> None:
    """Reactive actions "can be taken at any time" (Using Actions: Active and Reactive Actions);
    Promised Pain's trigger: once an enemy's attack has damaged it, at that enemy. An attack
    that deals no Life Points sets nothing off."""
    pain = Special("Pain", "attack", 2, damage=5, roll=10, reaction=DAMAGED)
    azriel = Duellist("Azriel", 0, 0, 0, 0, 50, 6, 5, Kit(specials=(pain,)))
    hitter = Duellist("Hitter", 20, 3, 0, 0, 30, 6, 5)
    g = _game((hitter,), (azriel,))
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    assert g.teams[1][0].life < 50
    assert g.teams[1][0].ap == 6 - 2 and g.teams[0][0].life == 30 - 15  # 5 + 10 levels
    armored = Duellist("Azriel", 0, 0, 0, 40, 50, 6, 5, Kit(specials=(pain,)))
    g = _game((hitter,), (armored,))
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    assert g.teams[1][0].life == 50 and g.teams[1][0].ap == 6 and g.teams[0][0].life == 30


def test_a_reactive_attack_when_an_engaged_enemy_attacks_a_friend() -> None:
    """Lightning Retribution's trigger: an enemy engaged with it attacks a friend of it; made
    after that enemy's roll ("Unless otherwise specified, reactive abilities must be used before
    any die roll", Using Actions: this one says otherwise). Not engaged with that enemy: no
    reaction."""
    bolt = Special("Bolt", "attack", 2, damage=5, roll=10, reaction=ALLY_ATTACKED)
    grey = Duellist("Grey", 0, 0, 0, 0, 30, 6, 5, Kit(specials=(bolt,)))
    friend = Duellist("Friend", 0, 0, 0, 0, 30, 6, 5)
    foe = Duellist("Foe", 20, 3, 0, 0, 30, 6, 5)
    g = _game((foe,), (friend, grey))
    _engage(g, 0, 0, 1)  # the foe is engaged with Grey
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    assert g.teams[1][1].ap == 6 - 2 and g.teams[0][0].life == 30 - 15
    g = _game((foe,), (friend, grey))
    perform(g, 0, 0, Action(CHARGE, 0), POLS, random.Random(1), random.Random(2))
    assert g.teams[1][1].ap == 6 and g.teams[0][0].life == 30


def test_reactive_specials_are_never_active_actions() -> None:
    """A reactive special is used in answer to an enemy, never as an action of its own turn."""
    pain = Special("Pain", "attack", 2, reaction=DAMAGED)
    assert [o.special for o in options(Kit(specials=(pain,)), 6, 0, True, False, 0, False,
                                       20)] == [-1]  # fmt: skip


def test_a_hidden_attack_walks_in_after_stealth() -> None:
    """ "A character cannot hide if it is already in the Zone of Control of an enemy character";
    "When a hidden character makes an attack ... the character is revealed" (Hide); "Walk (1
    Action, Once per Turn)" (Basic abilities). An Attack special usable only hidden: Stealth,
    a Walk into contact, then the attack; never while engaged or after moving."""
    stealth = _row(ability="Stealth", ap="2", action="other")
    scar = _row(ability="Scar", ap="3", action="attack", attack="2", requires="hidden")
    kit = kit_of([stealth, scar])
    assert [(s.name, s.cost, s.hide, s.walk) for s in kit.specials] == [("Scar", 6, 2, True)]
    assert coverage(scar, [stealth, scar])[0] == APPROXIMATE
    assert coverage(scar, [scar])[0] == NONE  # no Stealth: never hidden
    apart = [o for o in options(kit, 6, 0, False, False, 0, False, 10) if o.special == 0]
    assert apart and apart[0].engages and not apart[0].charge
    assert not any(o.special == 0 for o in options(kit, 6, 0, True, False, 0, False, 10))
    assert not any(o.special == 0 for o in options(kit, 6, 0, False, True, 0, False, 10))
    me = Duellist("Vayl", 5, 4, 8, 1, 30, 6, 5, kit)
    g = _game((me,), (Duellist("Foe", 5, 4, 8, 1, 30, 5, 3),))
    act = next(a for a in g.legal(0, 0) if a.special == 0)
    perform(g, 0, 0, act, POLS, random.Random(1), random.Random(2))
    f = g.teams[0][0]
    assert f.moved and f.engaged == 1 and f.ap == 0


def test_a_recoil_costs_the_user_its_targets_remaining_life() -> None:
    """Ultra Finisher (the data): after it, the user loses as many Life Points as its target has
    left; it follows a hit that throws (the throw itself is not played)."""
    finisher = Special("Finisher", "ranged", 1, roll=10, damage=2, after=AFTER_THROW_HIT,
                       recoil=True)  # fmt: skip
    kick = Special("Kick", "attack", 2, roll=10, throws=True)
    me = Duellist("Hiro", 0, 0, 8, 0, 20, 8, 4, Kit(specials=(kick, finisher)))
    g = _game((me,), (Duellist("Foe", 0, 0, 0, 0, 30, 5, 3),))
    _engage(g, 0, 0, 0)
    assert not any(a.special == 1 for a in g.legal(0, 0))
    perform(g, 0, 0, Action(ATTACK, 0, 0, 2), POLS, random.Random(1), random.Random(2))
    assert g.teams[1][0].life == 30 - 10
    act = next(a for a in g.legal(0, 0) if a.special == 1)
    perform(g, 0, 0, act, POLS, random.Random(1), random.Random(2))
    assert g.teams[1][0].life == 20 - 12
    assert g.teams[0][0].life == 20 - 8
    hiro = {s.name: s for s in kit_for("Hiro").specials}
    assert hiro["Ultra Finisher"].after == AFTER_THROW_HIT and hiro["Ultra Finisher"].recoil
    assert hiro["Garo Fang"].throws


class _Countering(Policy):
    name = "countering"

    def react(self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
              rng: random.Random) -> int:  # fmt: skip
        return COUNTER


def test_an_effect_applies_only_when_not_resisted() -> None:
    """ "When a Resistance roll is needed, all the affected characters must roll a die and add its
    Resistance value to the result. If the sum is greater than the difficulty level of the
    Special ability, the target is not affected" (Resistances)."""
    freq = Special("Freq", "attack", 2, loss=6, effect=17)
    assert effect_outcome(freq, 9, 7, 10) == (6, 0)  # 17 is not greater than 17: affected
    assert effect_outcome(freq, 9, 8, 10) == (0, 0)  # 18 is: resisted
    tail = Special("Tail", "attack", 1, no_damage=True, paralyze=1, effect=15)
    assert effect_outcome(tail, 9, 5, 10) == (0, 1)
    assert effect_outcome(tail, 9, 6, 10) == (0, 0)
    # a fixed loss, Armor no help, in play
    me = Duellist("Lorenzo", 0, 0, 8, 0, 20, 6, 5, Kit(specials=(Special(
        "Freq", "attack", 2, roll=10, loss=6, effect=17),)))  # fmt: skip
    for resistance, left in ((0, 30 - 6), (20, 30)):
        foe = Duellist("Foe", 0, 0, 0, 50, 30, 6, 5, resistance=resistance)
        g = _game((me,), (foe,))
        _engage(g, 0, 0, 0)
        perform(g, 0, 0, Action(ATTACK, 0, 0, 2), POLS, random.Random(1), random.Random(2))
        assert g.teams[1][0].life == left


def test_paralyze_takes_every_action_until_maintenance() -> None:
    """ "Paralyzed: The character is paralyzed and cannot use any Actions during the Turn"
    (STATE); "remove one counter of each type of State during Maintenance phase" (STATE, and
    Phases and Turns: "2- Maintenance ... Remove the corresponding State counters"). A special
    usable only "on a Paralyzed Character" (Code-34, the data) waits for one."""
    tail = Special("Tail", "attack", 1, roll=10, no_damage=True, paralyze=1, effect=15)
    execute = Special("Execute", "attack", 2, damage=5, at_paralyzed=True)
    me = Duellist("Sigma", 0, 0, 8, 0, 20, 8, 7, Kit(specials=(tail, execute)))
    foe = Duellist("Foe", 5, 5, 0, 0, 30, 6, 5, resistance=0)
    g = _game((me,), (foe,))
    _engage(g, 0, 0, 0)
    assert not any(a.special == 1 for a in g.legal(0, 0))
    perform(g, 0, 0, Action(ATTACK, 0, 0, 1), POLS, random.Random(1), random.Random(2))
    target = g.teams[1][0]
    assert target.life == 30 and target.paralyzed == 1  # no damage; 1-10 + 0 never beats 15
    assert any(a.special == 1 for a in g.legal(0, 0))
    assert g.legal(1, 0) == []  # no action
    pols = (_Countering(), _Countering())
    perform(g, 0, 0, Action(ATTACK, 0), pols, random.Random(3), random.Random(4))
    assert target.ap == 6  # no Dodge, no Counterattack
    _recovery(g)
    assert target.paralyzed == 0 and g.legal(1, 0)
    # never in the exact duel (no Resistance there)
    assert [o.special for o in options(me.kit, 8, 0, True, False, 0, False, 20)] == [-1]


def test_an_infiltrator_deploys_hidden_until_it_attacks() -> None:
    """ "While they are hidden, they cannot be the object of any hand-to-hand attack, ranged
    attack, effect, or interception ... Other players cannot declare any attack or Special
    Ability against the hidden character. When a hidden character makes an attack or performs
    any offensive action, the character is revealed and loses the state of hidden" (Hide); the
    data's Infiltration lets a character "hide in an advantageous position" at deployment. A
    special usable only hidden then needs no Stealth first."""
    assert kit_for("May").infiltration and not kit_for("Veronica").infiltration
    scar = Special("Scar", "attack", 6, attack=2, hide=2, walk=True)
    sneak = Duellist("Sneak", 5, 4, 8, 1, 30, 6, 5, Kit(specials=(scar,), infiltration=True))
    foe = Duellist("Foe", 5, 4, 8, 1, 30, 6, 5)
    g = _game((sneak,), (foe,))
    assert g.teams[0][0].hidden and g.legal(1, 0) == []  # nobody to attack
    kiss = next(a for a in g.legal(0, 0) if a.special == 0)
    assert kiss.cost == 6 - 2  # no Stealth paid: already hidden
    perform(g, 0, 0, kiss, POLS, random.Random(1), random.Random(2))
    assert not g.teams[0][0].hidden and g.legal(1, 0)  # revealed by its attack


def test_an_intangible_character_takes_harm_only_from_ki_magic_or_a_higher_level() -> None:
    """Intangible (the data's rule): "it ignores most damage or harm that isn't caused by a
    Magical or Ki Attack or Special Effect. Enemies of a higher level than the intangible
    Character ignore this rule"."""
    assert kit_for("High Saint Elienai").intangible
    assert all(s.arcane for s in kit_for("Claire Adelheid").specials)  # all Ki
    ki = Special("Ki", "attack", 2, roll=10, arcane=True)
    plain = Special("Plain", "attack", 2, roll=10, arcane=False)
    ghost = Duellist("Ghost", 0, 0, 0, 0, 30, 6, 5, Kit(intangible=True))
    for spec, levels, left in ((ki, 10, 30 - 15), (plain, 10, 30), (plain, 11, 30 - 15)):
        me = Duellist("Me", 0, 5, 8, 0, 30, 6, 5, Kit(specials=(spec,)))
        g = GameState((Side((me,), (levels,), ALL_OUT), Side((ghost,), (10,), ALL_OUT)), 0)
        _engage(g, 0, 0, 0)
        perform(g, 0, 0, Action(ATTACK, 0, 0, 2), POLS, random.Random(1), random.Random(2))
        assert g.teams[1][0].life == left, (spec.name, levels)


def test_a_warrior_agents_attack_is_played_as_approximate() -> None:
    """ "Deus Ex Terra can only be used if the Agent is a Warrior" (the data); the Church Agent's
    categories list Fighter (Warrior) and Mystic, and a party file cannot yet say which it
    is: played, taken as a Warrior, and approximate for it."""
    row = _row(ap="3", action="attack", attack="3", damage="2", requires="warrior agent")
    level, note = coverage(row, [row])
    assert level == APPROXIMATE and "Warrior" in note
    assert [s.name for s in kit_for("Church Agent").specials] == ["Deus Ex Terra"]
