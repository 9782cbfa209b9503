"""How much of each character's abilities the engine plays: `deckkit cards coverage --game
anima-tactics`.

Every row of ``card_db/animatactics/abilities.csv`` gets a level derived from the row and from
what the engine plays (:func:`deckkit.animatactics.engine.abilities.coverage`): ``full``,
``approximate`` (with what is left out) or ``none`` (with why). A character is ``full`` when every
ability it has is, ``none`` when none is played, ``approximate`` otherwise. Groups: innate
abilities, special abilities by what they do (Attack, Ranged Attack, Charge, the rest), powers;
deckkit's target is every Attack and Ranged Attack special and every innate ability played.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from deckkit.animatactics.construction.carddb import abilities_csv, load_card_db
from deckkit.animatactics.engine.abilities import (
    APPROXIMATE,
    FULL,
    NONE,
    AbilityRow,
    by_character,
    coverage,
)

TARGETS = {"innate": 1.0, "special: attack": 1.0, "special: ranged attack": 1.0}
GROUPS = (
    "innate",
    "special: attack",
    "special: ranged attack",
    "special: charge",
    "special: other",
    "power",
    "category",
)


def group_of(row: AbilityRow) -> str:
    if row.kind != "special":
        return row.kind
    action = row.get("action")
    return {
        "attack": "special: attack",
        "ranged": "special: ranged attack",
        "charge": "special: charge",
    }.get(action, "special: other")


@dataclass(frozen=True)
class Group:
    group: str
    abilities: int
    full: int
    approximate: int
    none: int

    @property
    def covered(self) -> float:
        return (self.full + self.approximate) / self.abilities if self.abilities else 1.0

    @property
    def target(self) -> float | None:
        return TARGETS.get(self.group)

    def as_dict(self) -> dict[str, Any]:
        t = self.target
        return {
            "group": self.group,
            "abilities": self.abilities,
            "full": self.full,
            "approximate": self.approximate,
            "none": self.none,
            "covered": round(self.covered, 4),
            "target": t,
            "meets_target": None if t is None else self.covered >= t - 1e-9,
        }


@dataclass(frozen=True)
class Entry:
    character: str
    ability: str
    kind: str
    group: str
    level: str
    note: str
    source: str


def entries() -> list[Entry]:
    """Every ability of every character the card database fields, with its level."""
    fielded = {c.name.strip() for c in load_card_db().characters if c.complete}
    out = []
    for name, rows in by_character(abilities_csv()).items():
        if name not in fielded:
            continue
        for row in rows:
            level, note = coverage(row, rows)
            out.append(
                Entry(row.character, row.ability, row.kind, group_of(row), level, note,
                      row.get("source"))
            )  # fmt: skip
    return out


def groups(found: list[Entry]) -> list[Group]:
    out = []
    for name in (*GROUPS, "all"):
        mine = [e for e in found if name in ("all", e.group)]
        out.append(
            Group(
                name,
                len(mine),
                sum(e.level == FULL for e in mine),
                sum(e.level == APPROXIMATE for e in mine),
                sum(e.level == NONE for e in mine),
            )
        )
    return out


def characters(found: list[Entry]) -> list[dict[str, Any]]:
    """Per character: its level (full only when all its abilities are) and the counts."""
    by: dict[str, list[Entry]] = {}
    for e in found:
        by.setdefault(e.character, []).append(e)
    fielded = [c.name.strip() for c in load_card_db().characters if c.complete]
    out = []
    for name in fielded:
        mine = by.get(name, [])
        levels = [e.level for e in mine]
        if all(x == FULL for x in levels):
            level = FULL
        elif all(x == NONE for x in levels):
            level = NONE
        else:
            level = APPROXIMATE
        out.append(
            {
                "character": name,
                "coverage": level,
                "abilities": len(mine),
                "full": levels.count(FULL),
                "approximate": levels.count(APPROXIMATE),
                "none": levels.count(NONE),
            }
        )
    return out


def report(with_abilities: bool) -> dict[str, Any]:
    found = entries()
    doc: dict[str, Any] = {
        "game": "anima-tactics",
        "groups": [g.as_dict() for g in groups(found)],
        "characters": characters(found),
    }
    if with_abilities:
        doc["abilities"] = [
            {
                "character": e.character,
                "ability": e.ability,
                "kind": e.kind,
                "group": e.group,
                "coverage": e.level,
                "note": e.note,
                "source": e.source,
            }
            for e in found
        ]
    return doc
