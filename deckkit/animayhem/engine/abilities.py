"""Characters' current abilities and where they stand: what modifies an ability, and moving in
and out of the haven.

Set0 rulebook, Part I "Enhancement" (modifiers apply to base abilities), "Equipment" (usable when
the requirement is met; "Using Equipment Cards": no two modifying the same ability), "Global
Effect" (applies to current abilities), "Haven".
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from deckkit.animayhem.engine.cardrules import apply_mod
from deckkit.animayhem.engine.codes import (
    ACT_DOUBLE_SKILLS,
    ACT_FORFEIT,
    ACT_GRANT,
    ACT_MODIFY,
    STAT_EFFECTS,
    TARGET_FIELD,
    TARGET_PLAY,
    TARGET_SELF,
    TRIGGER_ALWAYS,
    TRIGGER_COMBAT,
    TRIGGER_HURT,
    TRIGGER_ROUND,
    TRIGGER_STOPS,
    TRIGGER_TURN,
)
from deckkit.animayhem.engine.queries import can_use, fits
from deckkit.animayhem.engine.state import ABILITY_INDEX, Char, Copy, Game, bump

if TYPE_CHECKING:
    from deckkit.animayhem.construction.vocabulary import Trigger
    from deckkit.animayhem.engine.cardrules import GameEffect
    from deckkit.animayhem.engine.state import Mods, Triggers


def standing_mods(game: Game, c: Char) -> tuple[list[Mods], dict[str, int]]:
    """What :func:`abilities.refresh` adds: the character's own, its cards' and global
    effects' lasting modifiers (ALWAYS, without ``against``), and timed ones; and its skill
    counts with the skills they grant or take away: ``c.base_skills`` itself when none does,
    else a copy of it made at the first change and added to (no dictionary of changes made
    and then added to a copy)."""
    mods: list[Mods] = []
    counts = c.base_skills
    if c.fx is not None:
        counts = _own_standing(game, c, c.cid, c.fx.get(TRIGGER_ALWAYS, ()), mods, counts)
    counts = _carried_standing(game, c, c.items, mods, counts)
    counts = _carried_standing(game, c, c.equipment, mods, counts)
    counts = _carried_standing(game, c, c.enhancements, mods, counts)
    # A haven's standing effects reach its player's characters; a global effect's, those on the
    # field.
    for x in game.havens:
        counts = _reaching_standing(game, c, x, mods, counts)
    for x in game.turned_havens:
        counts = _reaching_standing(game, c, x, mods, counts)
    if c.zone == "field":
        for x, _ in game.globals_in_play:
            counts = _reaching_standing(game, c, x, mods, counts)
    turn = game.turn
    if c.timed:
        # Those that have run out are dropped (a new list only when one has).
        for _, last in c.timed:
            if last < turn:
                c.timed = [(m, last) for m, last in c.timed if last >= turn]
                break
        for m, _ in c.timed:
            mods.append(m)
    if c.grants:
        for _, last in c.grants:
            if last < turn:
                c.grants = [(s, last) for s, last in c.grants if last >= turn]
                break
        for s, _ in c.grants:
            counts = _add_skill(c, counts, s, 1)
    return mods, counts


def _add_skill(c: Char, counts: dict[str, int], skill: str, n: int) -> dict[str, int]:
    """``counts`` with ``n`` more of ``skill``, in :func:`standing_mods`: while it is still the
    character's ``base_skills``, a copy of them is made first (they are never changed)."""
    if counts is c.base_skills:
        counts = dict(counts)
    counts[skill] = counts.get(skill, 0) + n
    return counts


def _carried_standing(
    game: Game, c: Char, pile: list[Copy], mods: list[Mods], counts: dict[str, int]
) -> dict[str, int]:
    """The standing effects of the cards in one of the character's piles, in
    :func:`standing_mods` (a helper, so no tuple of piles is built per call)."""
    for x in pile:
        fx = game.fx.get(x.cid)
        if fx is not None:
            counts = _own_standing(game, c, x.cid, fx.get(TRIGGER_ALWAYS, ()), mods, counts)
    return counts


def _reaching_standing(
    game: Game, c: Char, x: Copy, mods: list[Mods], counts: dict[str, int]
) -> dict[str, int]:
    """The standing effects of a haven, a location turned haven or a global effect ``x`` that
    reach character ``c``, in :func:`standing_mods`."""
    fx = game.fx.get(x.cid)
    if fx is None:
        return counts
    for _, e in fx.get(TRIGGER_ALWAYS, ()):
        if e.target not in (TARGET_FIELD, TARGET_PLAY) or not fits(e, c):
            continue
        if e.do is ACT_MODIFY:
            mods.append(e.mods)
        elif e.do is ACT_GRANT and x in game.turned_havens:
            counts = _add_skill(c, counts, e.skill, 1)  # Galaxy Police HQ: Police
        else:
            continue
        _credit_standing(game, x.cid, c)
    return counts


class _Answered:
    """The triggers some effect of an effects dictionary (``Game.fx``) answers to, and the
    dictionary and its size they were read from: read again when a game's dictionary is
    another one or its size changed (a test adds a card's effects to a game's after its
    setup), as the combat cards' flags are (``state.Told``). The triggers the engine asks
    most are also kept as native flags, read without hashing a trigger. Never changed once
    made: another dictionary gets a new record (``answered``)."""

    def __init__(self, fx: dict[str, Triggers] | None) -> None:
        triggers: set[Trigger] = set()
        for entry in (fx or {}).values():
            triggers.update(entry)
        self.fx = fx  # held, so its id is not reused
        self.size = -1 if fx is None else len(fx)
        self.triggers = triggers
        self.always = TRIGGER_ALWAYS in triggers
        self.combat = TRIGGER_COMBAT in triggers
        self.round = TRIGGER_ROUND in triggers
        self.turn = TRIGGER_TURN in triggers
        self.hurt = TRIGGER_HURT in triggers
        self.stops = TRIGGER_STOPS in triggers


class _Kept:
    """The record of the effects dictionary asked about last, replaced whole by one attribute
    store: the threads of other runs read one record or another, never one half written."""

    __slots__ = ("answered",)

    def __init__(self) -> None:
        self.answered = _Answered(None)


_KEPT: Final = _Kept()


def answers(game: Game) -> _Answered:
    """The record of the triggers the game's effects (``game.fx``) answer to: its flags are
    read where one trigger is asked often (a combat's rounds)."""
    fx = game.fx
    known = _KEPT.answered
    if fx is not known.fx or len(fx) != known.size:
        known = _Answered(fx)
        _KEPT.answered = known
    return known


def answered(game: Game, trigger: Trigger) -> bool:
    """Some card's effects in the game (``game.fx``) answer to ``trigger``. Most games' decks
    have few effects, for few triggers: when none answers, no card needs to be looked up."""
    known = answers(game)
    if trigger is TRIGGER_ALWAYS:
        return known.always
    if trigger is TRIGGER_COMBAT:
        return known.combat
    if trigger is TRIGGER_ROUND:
        return known.round
    if trigger is TRIGGER_TURN:
        return known.turn
    if trigger is TRIGGER_HURT:
        return known.hurt
    if trigger is TRIGGER_STOPS:
        return known.stops
    return trigger in known.triggers


def carries_effects_for(game: Game, c: Char, trigger: Trigger) -> bool:
    """A card on ``c`` (item, equipment, enhancement) has effects for ``trigger``. The callers
    test this before copying the three piles to fire them (a fired card may change the piles):
    most characters carry none, and the copy is left out. The three piles are walked here, not
    by a helper called for each: most are empty; and not at all when no card of the game has
    effects for ``trigger`` (:func:`answered`)."""
    if not answered(game, trigger):
        return False
    fx_of = game.fx
    for x in c.items:
        fx = fx_of.get(x.cid)
        if fx is not None and trigger in fx:
            return True
    for x in c.equipment:
        fx = fx_of.get(x.cid)
        if fx is not None and trigger in fx:
            return True
    for x in c.enhancements:
        fx = fx_of.get(x.cid)
        if fx is not None and trigger in fx:
            return True
    return False


def _reached(game: Game, c: Char) -> bool:
    """Could :func:`standing_mods` find anything for ``c``? Only timed modifiers, granted skills
    and cards with standing (ALWAYS) effects add to it; most characters of most games have
    none, and this asks without building the lists."""
    if c.timed or c.grants:
        return True
    own = c.fx
    if own is not None and TRIGGER_ALWAYS in own:
        return True
    if not answered(game, TRIGGER_ALWAYS):
        return False  # no card of the game has one: none carried, no haven's, no global's
    if carries_effects_for(game, c, TRIGGER_ALWAYS):
        return True
    fx_of = game.fx
    for x in game.havens:
        fx = fx_of.get(x.cid)
        if fx is not None and TRIGGER_ALWAYS in fx:
            return True
    for x in game.turned_havens:
        fx = fx_of.get(x.cid)
        if fx is not None and TRIGGER_ALWAYS in fx:
            return True
    if c.zone == "field":
        for x, _ in game.globals_in_play:
            fx = fx_of.get(x.cid)
            if fx is not None and TRIGGER_ALWAYS in fx:
                return True
    return False


def _own_standing(
    game: Game,
    c: Char,
    card_id: str,
    effects: tuple[tuple[int, GameEffect], ...],
    mods: list[Mods],
    counts: dict[str, int],
) -> dict[str, int]:
    """The lasting modifiers and skills one card's ALWAYS effects on its holder (or on the
    character itself) add, in :func:`standing_mods`."""
    for _, e in effects:
        if e.target is not TARGET_SELF or e.against or not fits(e, c) or conditional(e):
            continue  # conditional ones are weighed where they apply (combat_mods)
        if e.do is ACT_MODIFY:
            mods.append(e.mods)
        elif e.do is ACT_GRANT:
            counts = _add_skill(c, counts, e.skill, 1)
        elif e.do is ACT_FORFEIT:
            counts = _add_skill(c, counts, e.skill, -e.n)  # an anti-skill (Blasters: -2 Chi)
        elif e.do is ACT_DOUBLE_SKILLS:
            for s, n in c.base_skills.items():  # Gene Doubling: every printed skill again
                counts = _add_skill(c, counts, s, n)
        else:
            continue
        _credit_standing(game, card_id, c)
    return counts


def _credit_standing(game: Game, card_id: str, c: Char) -> None:
    """A standing effect acts once on each character it reaches in a game: the per-card
    ``effects`` count must not follow how often abilities happen to be recomputed."""
    key = (card_id, c.uid)
    if key not in game.standing_seen:
        game.standing_seen.add(key)
        bump(game, card_id, STAT_EFFECTS)


def conditional(e: GameEffect) -> bool:
    """An effect whose conditions depend on who else is around."""
    return bool(
        e.when_met is not None or e.unless_met is not None or e.if_in_play or e.unless_in_play
    )


def _equipment_value(copy: Copy) -> int:
    """Sort key: larger additive bonuses first (negated for an ascending sort)."""
    return -copy.g.plus_sum


def refresh(game: Game, c: Char) -> None:
    """Recompute current abilities: enhancements apply to base abilities, then equipment (no two
    modifying the same ability: set0 rulebook, "Using Equipment Cards"), then global effects on
    characters on the field. Modifiers that need energy or uses apply only in combat.

    An enhancement printing "N uses" (Akagiyama Missiles, Wrist Lasers) is no standing bonus:
    as equipment and global effects with a usage limit (set0 rulebook, "Equipment Cards With
    Usage Limits", "Global Effect Cards With Usage Limits": activated "once per phase or once
    per combat round", an ability modifier lasting "until the end of the phase or combat
    round"), each use buys one combat round (combat._activate) or one move (LEAP: Speed)."""
    b = c.base  # read by constant indices: the compiled engine keeps it unboxed
    effects = bool(game.fx) or bool(c.timed) or bool(c.grants)
    reached = effects and _reached(game, c)  # a question only: asked first, asked once
    if (
        not reached
        and not c.enhancements
        and not c.equipment
        and (c.zone != "field" or not game.globals_in_play)
    ):
        # Nothing modifies the base (most calls): no list of abilities to build.
        if effects:
            _settle(c, c.health_base, c.base_skills)
        c.cur = (max(0, b[0]), max(0, b[1]), max(0, b[2]), max(0, b[3]), max(0, b[4]))
        return
    # The abilities worked on, as one unboxed tuple of five (state.DMG, DEF, MOV, CHA, ENE)
    # replaced at each change (``_put``): no list of boxed ints written and read back.
    cur = b
    if c.enhancements:
        for copy in c.enhancements:
            g = copy.g
            if g.energy_cost or copy.uses_left is not None or g.columns_off:
                continue  # columns off: its effects play the text (Speed: LEAP)
            for i, mod in g.mod_slots:
                # Modifiers apply to base abilities (set0 rulebook, "Enhancement").
                base = _at(b, i)
                cur = _put(cur, i, apply_mod(mod, base) + (_at(cur, i) - base))
    if c.equipment:
        cur = _apply_equipment(c, cur)
    if c.zone == "field":
        for copy, _ in game.globals_in_play:
            g = copy.g
            if copy.uses_left is not None:
                continue
            if g.columns_off:
                continue  # its text gates the bonus: its effects play it (Palace Guard)
            for i, mod in g.mod_slots:
                cur = _put(cur, i, apply_mod(mod, _at(cur, i)))
    if effects:
        # Card effects (interpreter/): lasting modifiers and granted skills.
        health = c.health_base
        counts = c.base_skills
        if reached:
            mods, counts = standing_mods(game, c)
            for group in mods:
                for stat, change in group:
                    if stat == "health":
                        health = apply_mod(change, health)  # King Yemma's Fruit, Tail Steak
                        continue
                    i = ABILITY_INDEX[stat]
                    cur = _put(cur, i, apply_mod(change, _at(cur, i)))
        _settle(c, health, counts)
    c.cur = (max(0, cur[0]), max(0, cur[1]), max(0, cur[2]), max(0, cur[3]), max(0, cur[4]))


def _at(t: tuple[int, int, int, int, int], i: int) -> int:
    """``t[i]`` by constant indices: the compiled engine keeps ``t`` unboxed, where indexing it
    by a variable would box it into a tuple object first."""
    if i == 0:
        return t[0]
    if i == 1:
        return t[1]
    if i == 2:
        return t[2]
    if i == 3:
        return t[3]
    return t[4]


def _put(t: tuple[int, int, int, int, int], i: int, v: int) -> tuple[int, int, int, int, int]:
    """``t`` with ability ``i`` set to ``v`` (an unboxed tuple for another, in :func:`refresh`)."""
    if i == 0:
        return (v, t[1], t[2], t[3], t[4])
    if i == 1:
        return (t[0], v, t[2], t[3], t[4])
    if i == 2:
        return (t[0], t[1], v, t[3], t[4])
    if i == 3:
        return (t[0], t[1], t[2], v, t[4])
    return (t[0], t[1], t[2], t[3], v)


def _settle(c: Char, health: int, counts: dict[str, int]) -> None:
    """:func:`refresh`'s health and skills once card effects are weighed."""
    health = max(1, health)
    if health != c.health_max:
        # Health moves with its maximum, so damage taken stays taken; losing the bonus never
        # bonks by itself.
        gain = health - c.health_max
        c.health = c.health + gain if gain > 0 else max(min(c.health, 1), c.health + gain)
        c.health_max = health
    c.skill_counts = counts


def _apply_equipment(
    c: Char, cur: tuple[int, int, int, int, int]
) -> tuple[int, int, int, int, int]:
    """``cur`` with equipment's printed modifiers, in :func:`refresh`: no two equipment cards
    modifying the same ability (set0 rulebook, "Using Equipment Cards"), the most valuable used
    first."""
    equipment = c.equipment if len(c.equipment) < 2 else sorted(c.equipment, key=_equipment_value)
    used: set[str] | None = None  # the abilities modified so far (built at the first card)
    for copy in equipment:
        g = copy.g
        if g.vehicle or copy.uses_left is not None or not g.modifiers:
            continue
        if g.energy_cost:
            continue  # paid for one combat round at a time (combat._activate), never standing
        if g.columns_off:
            continue  # its effects play the text the column reads (Goz' Flying Machine)
        names = g.mod_names
        if used is not None and not used.isdisjoint(names):
            continue
        if not can_use(c, g):
            continue
        if used is None:
            used = set(names)
        else:
            used |= names
        for i, mod in g.mod_slots:
            cur = _put(cur, i, apply_mod(mod, _at(cur, i)))
    return cur


def enter_haven(game: Game, c: Char) -> None:
    """Into the haven: items carried are stored there, safe from disasters."""
    c.zone = "haven"
    c.slot = -1
    if c.items:
        game.haven_cards.extend(c.items)
        c.items = []
    refresh(game, c)
