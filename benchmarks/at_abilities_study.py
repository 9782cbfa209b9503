"""The Anima Tactics duel matrix and cost study with and without abilities, side by side.

Usage: ``python benchmarks/at_abilities_study.py [--top N] [--json PATH]``. Both matrices are
exact (every pair of the roster, :mod:`deckkit.animatactics.analysis.matrix`); "before" fields
each character's printed stat line alone, "after" adds what ``card_db/animatactics/abilities.csv``
gives it as the engine plays it (:mod:`deckkit.animatactics.engine.abilities`). Prints the fits,
the characters whose strength moved most (with what moved them), and the over- and under-costed
lists of both. Both matrices are played under the cost study's rule options
(:func:`deckkit.animatactics.analysis.cost_study.study_rules`: ``time_limit=draw``), so the
study fits the strengths shown.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from deckkit.animatactics.analysis.cost_study import CostStudy, cost_study, study_rules
from deckkit.animatactics.analysis.matrix import Matrix, compute_matrix, roster
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.engine.abilities import Kit
from deckkit.animatactics.engine.options import DEFAULT_RULES


def kit_words(kit: Kit) -> str:
    innate = [
        name
        for name, on in (
            ("Critical Mastery", kit.critical_mastery),
            ("Initiative", kit.initiative),
            ("Damage Resistance", kit.damage_resistance),
            ("Ranged Attack", kit.ranged),
        )
        if on
    ]
    specials = [f"{s.name} ({s.action} {s.cost})" for s in kit.specials]
    return "; ".join(innate + specials) or "-"


def undecided(m: Matrix) -> float:
    n = len(m.cells)
    cells = [m.cells[i][j] for i in range(n) for j in range(n) if i != j]
    return sum(c.undecided for c in cells) / len(cells)


def fit_line(label: str, s: CostStudy, m: Matrix) -> str:
    return (
        f"{label}: levels = {s.intercept:.1f} + {s.slope:.1f} x strength, "
        f"R^2 {s.r_squared:.3f}, residual sd {s.residual_sd:.1f} levels, "
        f"{sum(p.outside for p in s.points)} outside the 95% interval; "
        f"duels undecided after 10 turns {undecided(m):.1%}"
    )


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--top", type=int, default=12)
    ap.add_argument("--json", type=Path, default=None)
    args = ap.parse_args()
    db = load_card_db()
    rules = study_rules(DEFAULT_RULES)
    before_m = compute_matrix(roster(db, abilities=False), rules=rules)
    after_m = compute_matrix(roster(db, abilities=True), rules=rules)
    before, after = cost_study(before_m), cost_study(after_m)
    print(fit_line("before (stat lines)", before, before_m))
    print(fit_line("after (abilities)  ", after, after_m))
    b_pts = {p.name: p for p in before.points}
    a_pts = {p.name: p for p in after.points}
    kits = {e.name: e.duellist.kit for e in after_m.entrants}
    rows = []
    for name, b in b_pts.items():
        a = a_pts[name]
        rows.append((a.strength - b.strength, name, b, a))
    rows.sort(key=lambda r: -abs(r[0]))
    print()
    print(f"moved most ({args.top}): strength = mean duel value against the roster")
    print(
        f"{'character':<28}{'lv':>4}{'str before':>11}{'after':>7}{'change':>8}"
        f"{'resid before':>13}{'after':>7}  what it plays"
    )
    for d, name, b, a in rows[: args.top]:
        print(
            f"{name[:27]:<28}{b.levels:>4}{b.strength:>11.3f}{a.strength:>7.3f}{d:>+8.3f}"
            f"{b.residual:>+13.1f}{a.residual:>+7.1f}  {kit_words(kits[name])}"
        )
    for label, study in (("before", before), ("after", after)):
        over, under = study.furthest(8)
        print()
        print(
            f"{label}: most over-costed: " + ", ".join(f"{p.name} {p.residual:+.0f}" for p in over)
        )
        print(
            f"{label}: most under-costed: "
            + ", ".join(f"{p.name} {p.residual:+.0f}" for p in under)
        )
    if args.json is not None:
        args.json.write_text(
            json.dumps(
                {
                    "before": before.as_dict(),
                    "after": after.as_dict(),
                    "undecided": {"before": undecided(before_m), "after": undecided(after_m)},
                    "moved": [
                        {
                            "name": name,
                            "levels": b.levels,
                            "strength_before": b.strength,
                            "strength_after": a.strength,
                            "residual_before": b.residual,
                            "residual_after": a.residual,
                            "plays": kit_words(kits[name]),
                        }
                        for _, name, b, a in rows
                    ],
                },
                indent=1,
            )
        )


if __name__ == "__main__":
    main()
