"""The construction layer's card rules the game loop asks most, compiled with the engine.

A requirement met (requirements.py) and a modifier applied (cards.py) are asked thousands of
times a game; called from the compiled engine, the construction layer's functions run in the
interpreter. These are the same logic, for a party of the engine's characters, so the compiled
engine stays compiled. The construction layer's functions stay the definition; the engine tests
hold the two to the same results.
"""

from __future__ import annotations

from collections.abc import Sequence

from deckkit.animayhem.construction.cards import Modifier
from deckkit.animayhem.construction.requirements import Requirement, SkillTerm, term_met
from deckkit.animayhem.engine.state import Char


def apply_mod(mod: Modifier, current: int) -> int:
    """:meth:`Modifier.apply`: a sign modifies, a bare number replaces."""
    op = mod.op
    if op == "+":
        return current + mod.value
    if op == "x":
        return current * mod.value
    if op == "/":
        return current // mod.value
    return mod.value


def skill_totals(party: Sequence[Char]) -> dict[str, int]:
    """:func:`requirements.skill_totals`: every skill the party holds, anti-skills subtracted."""
    totals: dict[str, int] = {}
    for m in party:
        for name, n in m.skill_counts.items():
            totals[name] = totals.get(name, 0) + n
    return totals


def requirement_met(
    req: Requirement, party: Sequence[Char], totals: dict[str, int] | None = None
) -> bool:
    """:func:`requirements.requirement_met`: any alternative whose every term the party meets
    (skill terms counted here, the others asked of the construction layer)."""
    for alt in req.alternatives:
        met = True
        for t in alt:
            if type(t) is SkillTerm:
                if totals is None:
                    totals = skill_totals(party)
                if totals.get(t.skill, 0) < t.count:
                    met = False
                    break
            elif not term_met(t, party):
                met = False
                break
        if met:
            return True
    return False
