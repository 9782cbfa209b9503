"""The construction layer's card rules the game loop asks most, compiled with the engine.

A requirement met (requirements.py) and a modifier applied (cards.py) are asked thousands of
times a game; called from the compiled engine, the construction layer's functions run in the
interpreter. These are the same logic, for a party of the engine's characters and on the
requirements' game-time form (gamecards.py: terms coded as integers, a name's pattern compiled
once), so the compiled engine stays compiled. The construction layer's functions stay the
definition; the engine tests hold the two to the same results. A card's effects are read in
their game-time form too (:class:`GameEffect`, made from each record when a game is prepared:
``interpreter.common.by_trigger``), so the interpreter reads native fields.
"""

from __future__ import annotations

from typing import Final

from deckkit.animayhem.construction.cards import Modifier
from deckkit.animayhem.construction.requirements import Requirement
from deckkit.animayhem.construction.vocabulary import Action, Effect, Scope, Target, Trigger
from deckkit.animayhem.engine.codes import (
    TERM_ANY_SKILL,
    TERM_CARD,
    TERM_CATEGORY,
    TERM_GENDER,
    TERM_NAME,
    TERM_SKILL,
    TERM_STAT,
)
from deckkit.animayhem.engine.gamecards import (
    GameMod,
    GameRequirement,
    GameTerm,
    apply_op,
    game_requirement,
)
from deckkit.animayhem.engine.state import Char, Mods


class GameEffect:
    """An effect's game-time form, made once per prepared game from its record (the
    construction layer's :class:`Effect`, which stays the definition and is kept as
    ``record``): the same fields, read by the compiled interpreter as native attributes instead
    of through the record's generic attribute reads, plus what it would otherwise work out at
    each firing: whether it has any condition (``conditional``, :func:`queries.conditions_hold`)
    and the game-time forms of its requirements (``filter_req``, ``exclude_req``,
    ``when_req``, ``unless_req``: gamecards.py). Picklable, as the prepared game is."""

    __slots__ = (
        "against",
        "cards",
        "conditional",
        "do",
        "every",
        "exclude",
        "exclude_req",
        "filter",
        "filter_req",
        "if_here",
        "if_in_play",
        "max_times",
        "mods",
        "n",
        "pay",
        "record",
        "scope",
        "skill",
        "target",
        "to",
        "turns",
        "unless_in_play",
        "unless_met",
        "unless_req",
        "when",
        "when_met",
        "when_req",
    )

    def __init__(self, e: Effect) -> None:
        self.record = e
        self.when: Trigger = e.when
        self.do: Action = e.do
        self.target: Target = e.target
        self.n: int = e.n
        self.turns: int = e.turns
        self.every: int = e.every
        self.scope: Scope | None = e.scope
        self.mods: Mods = e.mods
        self.skill: str = e.skill
        self.to: str = e.to
        self.filter: Requirement | None = e.filter
        self.exclude: Requirement | None = e.exclude
        self.cards: tuple[str, ...] = e.cards
        self.when_met: Requirement | None = e.when_met
        self.unless_met: Requirement | None = e.unless_met
        self.if_in_play: tuple[str, ...] = e.if_in_play
        self.unless_in_play: tuple[str, ...] = e.unless_in_play
        self.pay: tuple[str, ...] = e.pay
        self.against: tuple[str, ...] = e.against
        self.max_times: int = e.max_times
        self.if_here: tuple[str, ...] = e.if_here
        self.conditional: bool = bool(
            e.if_here
            or e.when_met is not None
            or e.unless_met is not None
            or e.if_in_play
            or e.unless_in_play
        )
        self.filter_req: GameRequirement | None = _game_req(e.filter)
        self.exclude_req: GameRequirement | None = _game_req(e.exclude)
        self.when_req: GameRequirement | None = _game_req(e.when_met)
        self.unless_req: GameRequirement | None = _game_req(e.unless_met)

    def __reduce__(self) -> tuple[type[GameEffect], tuple[Effect]]:
        """Pickled as its record, and made again from it where unpickled (a prepared game goes
        to each worker process so)."""
        return (GameEffect, (self.record,))


def _game_req(req: Requirement | None) -> GameRequirement | None:
    return None if req is None else GameRequirement(req)


def apply_mod(mod: Modifier | GameMod, current: int) -> int:
    """:meth:`Modifier.apply`: a sign modifies, a bare number replaces; a power card's printed
    modifier in its game-time form (``GameCard.mod_slots``) on its coded operation."""
    if isinstance(mod, GameMod):
        return apply_op(mod.op, mod.value, current)
    op = mod.op
    if op == "+":
        return current + mod.value
    if op == "x":
        return current * mod.value
    if op == "/":
        return current // mod.value
    return mod.value


def skill_totals(party: list[Char]) -> dict[str, int]:
    """:func:`requirements.skill_totals`: every skill the party holds, anti-skills subtracted."""
    if not party:
        return {}
    # The first member's counts copied whole (one C-level copy), the others added to them.
    totals = dict(party[0].skill_counts)
    for i in range(1, len(party)):
        for name, n in party[i].skill_counts.items():
            totals[name] = totals.get(name, 0) + n
    return totals


def skill_total(party: list[Char], skill: str) -> int:
    """:func:`requirements.skill_total`: anti-skills cancel instances held by others."""
    n = 0
    for m in party:
        n += m.skill_counts.get(skill, 0)
    return max(0, n)


def requirement_met(
    req: Requirement, party: list[Char], totals: dict[str, int] | None = None
) -> bool:
    """:func:`requirements.requirement_met`: any alternative whose every term the party
    meets, checked on the requirement's game-time form (gamecards.py)."""
    return met(game_requirement(req), party, totals)


def met(req: GameRequirement, party: list[Char], totals: dict[str, int] | None = None) -> bool:
    """:func:`requirement_met` on a requirement's game-time form (``GameCard.requirement``)."""
    for alt in req.alternatives:
        ok = True
        for t in alt:
            if t.op == TERM_SKILL:
                # The skill's total in the party: its entry of ``totals`` (skill_totals) when
                # given, else summed for this one skill: read by its id where a member's
                # counts are its printed ones (Char.printed_vec), else looked up by name.
                if totals is not None:
                    have = totals.get(t.text, 0)
                else:
                    have = 0
                    sid = t.sid
                    for m in party:
                        counts = m.skill_counts
                        if counts is m.printed_skills:
                            v = m.printed_vec
                            if sid < len(v):
                                have += v[sid]
                        else:
                            have += counts.get(t.text, 0)
                if have < t.count:
                    ok = False
                    break
            elif not term_holds(t, party):
                ok = False
                break
        if ok:
            return True
    return False


def met_by(req: GameRequirement, c: Char) -> bool:
    """:func:`met` for a party of one (an effect's filter on a character, :func:`queries.fits`):
    a skill read from the character's own counts, no party list made to ask."""
    for alt in req.alternatives:
        ok = True
        for t in alt:
            if t.op == TERM_SKILL:
                counts = c.skill_counts
                if counts is c.printed_skills:
                    v = c.printed_vec
                    sid = t.sid
                    have = v[sid] if sid < len(v) else 0
                else:
                    have = counts.get(t.text, 0)
                if have < t.count:
                    ok = False
                    break
            else:
                # The party of one in one list kept for every call, its member replaced
                # (term_holds never asks met_by back): no list made and freed for each term,
                # and none grown and shrunk (append and pop would each resize it).
                one = _ONE
                if one:
                    one[0] = c
                else:
                    one.append(c)
                if not term_holds(t, one):
                    ok = False
                    break
        if ok:
            return True
    return False


_ONE: Final[list[Char]] = []


def term_holds(t: GameTerm, party: list[Char]) -> bool:
    """:func:`requirements.term_met` on a term's game-time form."""
    op = t.op
    if op == TERM_SKILL:
        return skill_total(party, t.text) >= t.count
    if op == TERM_STAT:
        for m in party:
            if m.cur[t.slot] >= t.count and (
                not t.gender or m.gender == t.gender or _holds(m, t.gender_sid, t.gender_skill)
            ):
                return True
        return False
    if op == TERM_GENDER:
        n = 0
        for m in party:
            if m.gender == t.gender or _holds(m, t.gender_sid, t.gender_skill):
                n += 1
        return n >= t.count
    if op == TERM_CATEGORY:
        return any(m.has_category(t.text) for m in party)
    if op == TERM_NAME:
        pattern = t.pattern
        assert pattern is not None
        return any(pattern.search(m.name) is not None for m in party)
    if op == TERM_CARD:
        return any(m.carries(t.text) for m in party)
    if op == TERM_ANY_SKILL:
        family = t.text
        skills = {s for m in party for s in m.skill_counts if s.endswith(family)}
        return any(skill_total(party, s) >= 1 for s in skills)
    return False  # a special term: never met


def _holds(c: Char, sid: int, skill: str) -> bool:
    """The character holds at least one of ``skill``, of id ``sid`` (gamecards.skill_id)."""
    counts = c.skill_counts
    if counts is not c.printed_skills:
        return counts.get(skill, 0) > 0
    v = c.printed_vec
    return 0 <= sid < len(v) and v[sid] > 0
