"""The duel matrix: every complete character against every other, one on one.

Each entry is A's duel value against B (a win 1; a duel undecided after 10 turns goes to the
character worth more levels, 1/2 at equal levels or under the rule option ``time_limit=draw``;
see :mod:`deckkit.animatactics.engine.duel`). It is computed exactly whenever the joint Life Point
table of the pair (``(life A + 1) x (life B + 1)`` cells) fits ``max_cells``; a pair beyond it is
played by seeded Monte Carlo (:mod:`deckkit.animatactics.engine.skirmish`, the same plans) with a
Wilson interval, and the entry says which. With the shipped data and the default limit every pair
is exact. B against A is 1 minus A against B, so each pair is computed once.

A Gear's recovery comes from its pilot (card data, gear_pilot rows): the roster fields each Gear
with the cheapest pilot that gives recovery 3 (Valis and Elfriede Adler, 5 levels each: the duel
is the same with either), and its level cost includes that pilot.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from deckkit.animatactics.construction.carddb import (
    BONUS_STATS,
    CardDB,
    abilities_csv,
    advantage_bonuses,
)
from deckkit.animatactics.construction.cards import Character, Pilot
from deckkit.animatactics.engine.abilities import NO_KIT, Kit, by_character, kit_of
from deckkit.animatactics.engine.duel import PLANS, Duellist, duel
from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import Side
from deckkit.core.estimates import mean_estimate, wilson_interval

DEFAULT_MAX_CELLS = 4096
DEFAULT_SAMPLES = 2000


@dataclass(frozen=True)
class Entrant:
    """A roster character as it duels: its stats, its level cost, and what was assumed."""

    character: Character
    duellist: Duellist
    levels: int
    pilot: Pilot | None
    note: str

    @property
    def name(self) -> str:
        return self.character.name


def gear_pilot(db: CardDB) -> Pilot:
    """The cheapest complete pilot with recovery 3 (ties: the first in the data)."""
    fitting = [p for p in db.pilots if p.complete and p.level_cost is not None and p.recovery == 3]
    return min(fitting, key=lambda p: p.level_cost or 0)


def kit_for(name: str) -> Kit:
    """The character's abilities as the engine plays them (card_db/animatactics/abilities.csv);
    none for a name the file does not list. Only this character's rows are read into a kit:
    a party's entrants are made for every game a race or a tune plays, and building the whole
    file's kits for each was most of an Anima Tactics run's time."""
    rows = by_character(abilities_csv()).get(name.strip())
    return NO_KIT if rows is None else kit_of(rows)


def entrant(
    c: Character, pilot: Pilot | None = None, db: CardDB | None = None, abilities: bool = True
) -> Entrant:
    """A character as it fights; ``abilities`` False: its printed stat line alone."""
    note = ""
    if c.is_gear and pilot is None and db is not None:
        pilot = gear_pilot(db)
        note = (
            f"Gear: piloted by {pilot.name} (recovery {pilot.recovery}, +{pilot.level_cost} levels)"
        )
    recovery = c.recovery if c.recovery is not None else (pilot.recovery if pilot else 0)
    kit = kit_for(c.name) if abilities else NO_KIT
    d = Duellist(
        c.name, c.attack, c.damage, c.defense, c.armor, c.life, c.actions_max, recovery, kit,
        c.resistance,
    )  # fmt: skip
    levels = (c.level_cost or 0) + ((pilot.level_cost or 0) if pilot and c.is_gear else 0)
    if c.printed:
        shown = ", ".join(f"{k} {v}" for k, v in c.printed.items())
        note = "; ".join(x for x in (note, f"prints {shown}: the first value used") if x)
    return Entrant(c, d, levels, pilot if c.is_gear else None, note)


def roster(db: CardDB, abilities: bool = True) -> list[Entrant]:
    return [entrant(c, db=db, abilities=abilities) for c in db.roster()]


@dataclass(frozen=True)
class Cell:
    value: float
    a_wins: float
    b_wins: float
    undecided: float
    method: str  # "exact" or "monte-carlo"
    ci: tuple[float, float] | None = None  # Monte Carlo only: 95% Wilson interval of the value
    games: int = 0

    def flipped(self) -> Cell:
        ci = None if self.ci is None else (1 - self.ci[1], 1 - self.ci[0])
        return Cell(
            1 - self.value, self.b_wins, self.a_wins, self.undecided, self.method, ci, self.games
        )


def sampled_cell(
    a: Entrant, b: Entrant, games: int, seed: int, rules: RuleSet = DEFAULT_RULES
) -> Cell:
    """Monte Carlo of A against B. Solving the plans' game by sampling would cost nine times the
    games, so both sides play the middle plan ("guarded"); the interval is on the duel value."""
    plan = PLANS[1]
    sides = (
        Side((a.duellist,), (a.levels,), plan),
        Side((b.duellist,), (b.levels,), plan),
    )
    results = [play_game(sides, seed, i, rules=rules) for i in range(games)]
    a_ko = sum(1 for g in results if g.by_ko and g.winner == 0)
    b_ko = sum(1 for g in results if g.by_ko and g.winner == 1)
    undecided = games - a_ko - b_ko
    # Scores (the games' winners, after 10 turns by the rule option time_limit) in half points
    # (0, 1, 2): a Student-t interval of the mean score; when every game ended alike (no
    # spread), the Wilson interval of that outcome's count.
    won = sum(1 for g in results if g.winner == 0)
    draws = sum(1 for g in results if g.winner is None)
    est = mean_estimate(games, 2 * won + draws, 4 * won + draws)
    value = (won + 0.5 * draws) / games
    if est.ci is not None and est.std:
        ci = (max(est.ci[0] / 2, 0.0), min(est.ci[1] / 2, 1.0))
    elif draws == 0:
        ci = wilson_interval(won, games)
    else:
        ci = (value, value)
    return Cell(value, a_ko / games, b_ko / games, undecided / games, "monte-carlo", ci, games)


def cell(
    a: Entrant,
    b: Entrant,
    max_cells: int,
    samples: int,
    seed: int,
    rules: RuleSet = DEFAULT_RULES,
) -> Cell:
    if (a.duellist.life + 1) * (b.duellist.life + 1) > max_cells:
        return sampled_cell(a, b, samples, seed, rules)
    r = duel(a.duellist, b.duellist, rules=rules, levels=(a.levels, b.levels))
    return Cell(r.value, r.a_wins, r.b_wins, r.undecided, "exact")


@dataclass(frozen=True)
class Matrix:
    entrants: list[Entrant]
    cells: list[list[Cell]]
    rules: RuleSet = DEFAULT_RULES  # the rule options its duels were played under
    max_cells: int = DEFAULT_MAX_CELLS  # how it was computed (compute_matrix's arguments)
    samples: int = DEFAULT_SAMPLES
    seed: int = 0

    def strength(self, i: int) -> float:
        """Mean duel value against every other character of the roster."""
        row = [c.value for j, c in enumerate(self.cells[i]) if j != i]
        return sum(row) / len(row)

    def methods(self) -> dict[str, int]:
        out: dict[str, int] = {}
        for row in self.cells:
            for c in row:
                out[c.method] = out.get(c.method, 0) + 1
        return out

    def as_dict(self) -> dict[str, Any]:
        return {
            "characters": [
                {
                    "name": e.name,
                    "levels": e.levels,
                    "faction": e.character.faction.value,
                    "strength": round(self.strength(i), 6),
                    "note": e.note,
                    "source": e.character.source,
                }
                for i, e in enumerate(self.entrants)
            ],
            "value": [[round(c.value, 6) for c in row] for row in self.cells],
            "method": self.methods(),
            "monte_carlo": [
                {
                    "a": self.entrants[i].name,
                    "b": self.entrants[j].name,
                    "value": c.value,
                    "ci95": list(c.ci) if c.ci else None,
                    "games": c.games,
                }
                for i, row in enumerate(self.cells)
                for j, c in enumerate(row)
                if c.method != "exact"
            ],
        }


def compute_matrix(
    entrants: list[Entrant],
    *,
    max_cells: int = DEFAULT_MAX_CELLS,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    rules: RuleSet = DEFAULT_RULES,
) -> Matrix:
    n = len(entrants)
    cells: list[list[Cell | None]] = [[None] * n for _ in range(n)]
    for i in range(n):
        for j in range(i, n):
            c = cell(entrants[i], entrants[j], max_cells, samples, seed, rules)
            cells[i][j] = c
            if j != i:
                cells[j][i] = c.flipped()
    return Matrix(
        entrants, [[c for c in row if c is not None] for row in cells], rules, max_cells, samples,
        seed,
    )  # fmt: skip


def party_entrants(members: list[tuple[Character, Pilot | None]], db: CardDB) -> list[Entrant]:
    """A party's fighters (characters without stats in the data cannot fight: left out)."""
    return [entrant(c, pilot, db) for c, pilot in members if c.complete]


def equipped(fighters: list[Entrant], picks: list[tuple[str, str | None]]) -> list[Entrant]:
    """The fighters with the stat bonuses of the advantage cards placed on them (``picks``:
    card name and bearer; a card on no one, or on someone not fighting, changes nothing). Its
    level cost stays the character's: "the most levels on the table" counts characters."""
    bonuses = advantage_bonuses()
    out = list(fighters)
    for card, bearer in picks:
        bonus = bonuses.get(card.strip().casefold())
        if bonus is None or bearer is None:
            continue
        for i, e in enumerate(out):
            if e.name.casefold() == bearer.strip().casefold():
                d = e.duellist
                d = replace(
                    d,
                    attack=d.attack + bonus.attack,
                    damage=d.damage + bonus.damage,
                    defense=d.defense + bonus.defense,
                    armor=d.armor + bonus.armor,
                )
                shown = f"{card}: " + ", ".join(
                    f"{k} {v:+d}" for k in BONUS_STATS if (v := getattr(bonus, k))
                )
                out[i] = replace(e, duellist=d, note="; ".join(x for x in (e.note, shown) if x))
    return out


def odds_against_roster(
    fighters: list[Entrant], others: list[Entrant], rules: RuleSet = DEFAULT_RULES
) -> list[dict[str, Any]]:
    """Each fighter's exact duel value against every roster character, and the party's mean."""
    rows = []
    for o in others:
        values = [
            duel(f.duellist, o.duellist, rules=rules, levels=(f.levels, o.levels)).value
            for f in fighters
        ]
        rows.append(
            {
                "opponent": o.name,
                "levels": o.levels,
                "faction": o.character.faction.value,
                "members": [round(v, 6) for v in values],
                "party_mean": round(sum(values) / len(values), 6) if values else None,
            }
        )
    return rows
