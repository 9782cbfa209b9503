"""Load and check the Anima Tactics card database (``card_db/animatactics/cards.csv``).

Built by ``tools/build_animatactics_db.py`` from the shared card data; every row keeps its
``source_url``. A malformed row is a broken database (exit 3) naming the file, line and field.
"""

from __future__ import annotations

import csv
import functools
import io
import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from deckkit.animatactics.construction.cards import Advantage, Character, Faction, Pilot
from deckkit.core.carddir import chosen_file, expected_file, shipped_file
from deckkit.errors import CardDataError
from deckkit.untrusted import read_text

GAME_DIR = "animatactics"
CSV_NAME = "cards.csv"
REQUIRED_COLUMNS = (
    "id", "card_type", "name", "level_cost", "advantage_points_cost", "attack", "damage",
    "defense", "armor", "life_points", "resistance", "actions_max", "recovery", "affiliation",
    "faction", "agent", "innate_abilities", "advantage_subtype", "restriction", "limit",
    "stats_complete", "notes", "source_url",
)  # fmt: skip
STATS = ("attack", "damage", "defense", "armor", "life_points", "resistance", "actions_max")
_PRINTED = re.compile(r"^(\d+)(?:/(\d+))?$")
_T = TypeVar("_T", Character, Advantage, Pilot)


def _key(name: str) -> str:
    return re.sub(r"\s+", " ", name.strip()).casefold()


@dataclass
class CardDB:
    """Characters, advantage cards and Gear pilots, looked up by name (case-insensitive)."""

    path: Path
    characters: list[Character] = field(default_factory=list)
    advantages: list[Advantage] = field(default_factory=list)
    pilots: list[Pilot] = field(default_factory=list)

    def character(self, name: str) -> Character | None:
        return self._by_name(self.characters, name)

    def advantage(self, name: str) -> Advantage | None:
        return self._by_name(self.advantages, name)

    def pilot(self, name: str) -> Pilot | None:
        return self._by_name(self.pilots, name)

    @staticmethod
    def _by_name(items: Iterable[_T], name: str) -> _T | None:
        wanted = _key(name)
        return next((c for c in items if _key(c.name) == wanted or c.id == wanted), None)

    def roster(self) -> list[Character]:
        """Every character whose stats are complete (the duel matrix's rows and columns)."""
        return [c for c in self.characters if c.complete]

    def suggest(self, name: str, n: int = 3) -> list[str]:
        import difflib

        names = [c.name for c in self.characters] + [a.name for a in self.advantages]
        return difflib.get_close_matches(name, names, n=n, cutoff=0.6)


class _Row:
    def __init__(self, path: Path, line: int, row: dict[str, str]) -> None:
        self.path, self.line, self.row = path, line, row

    def error(self, column: str, message: str) -> CardDataError:
        return CardDataError(f"column {column}: {message}", path=self.path, line=self.line)

    def text(self, column: str) -> str:
        return (self.row.get(column) or "").strip()

    def number(self, column: str, *, required: bool) -> int | None:
        value = self.text(column)
        if not value:
            if required:
                raise self.error(column, "a number is required for a complete row")
            return None
        m = _PRINTED.match(value)
        if m is None:
            raise self.error(column, f"{value!r} is not a number (or 'N/M' as printed)")
        return int(m.group(1))


def _character(r: _Row) -> Character:
    complete = r.text("stats_complete") == "yes"
    printed = {c: r.text(c) for c in STATS if "/" in r.text(c)}
    faction_text = r.text("faction")
    try:
        faction = Faction(faction_text)
    except ValueError:
        raise r.error("faction", f"{faction_text!r} is not Light, Darkness or Unaligned") from None
    recovery_text = r.text("recovery")
    recovery = None if recovery_text == "varies" else r.number("recovery", required=complete)
    stats = {c: r.number(c, required=complete) or 0 for c in STATS}
    return Character(
        id=r.text("id"),
        name=r.text("name"),
        level_cost=r.number("level_cost", required=complete),
        attack=stats["attack"],
        damage=stats["damage"],
        defense=stats["defense"],
        armor=stats["armor"],
        life=stats["life_points"],
        resistance=stats["resistance"],
        actions_max=stats["actions_max"],
        recovery=recovery,
        faction=faction,
        affiliations=tuple(
            a.split("(")[0].strip() for a in r.text("affiliation").split(";") if a.strip()
        ),
        abilities=tuple(a.strip() for a in r.text("innate_abilities").split(";") if a.strip()),
        printed=printed,
        agent=r.text("agent") == "yes",
        complete=complete,
        notes=r.text("notes"),
        source=r.text("source_url"),
        leader=r.text("leader") == "yes",
    )


def _advantage(r: _Row) -> Advantage:
    return Advantage(
        id=r.text("id"),
        name=r.text("name"),
        subtype=r.text("advantage_subtype"),
        advantage_points=r.number("advantage_points_cost", required=False),
        level_cost=r.number("level_cost", required=False),
        restriction=r.text("restriction"),
        limit=r.text("limit"),
        per_party_once="per party" in r.text("limit"),
        source=r.text("source_url"),
    )


def _pilot(r: _Row) -> Pilot:
    return Pilot(
        id=r.text("id"),
        name=r.text("name"),
        level_cost=r.number("level_cost", required=False),
        recovery=r.number("recovery", required=True) or 0,
        complete=r.text("stats_complete") == "yes",
        source=r.text("source_url"),
    )


def read_card_db(path: Path) -> CardDB:
    """Read and check one cards.csv."""
    # A regular file within the bounds (deckkit.untrusted); a byte-order mark is dropped.
    text = read_text(path, what="card database", error=CardDataError)
    try:
        rows = list(csv.DictReader(io.StringIO(text, newline="")))
        columns = set(rows[0]) if rows else set()
    except csv.Error as err:
        raise CardDataError(f"cannot read the card database: {err}", path=path) from None
    missing = [c for c in REQUIRED_COLUMNS if c not in columns]
    if missing:
        raise CardDataError(f"missing columns: {', '.join(missing)}", path=path, line=1)
    db = CardDB(path)
    seen: dict[str, int] = {}
    for line, row in enumerate(rows, start=2):
        r = _Row(path, line, row)
        if not r.text("source_url"):
            raise r.error("source_url", "every row names its source")
        ident = r.text("id")
        if ident in seen:
            raise r.error("id", f"{ident!r} is also on line {seen[ident]}")
        seen[ident] = line
        kind = r.text("card_type")
        if kind == "character":
            db.characters.append(_character(r))
        elif kind in ("advantage", "organizational_advantage"):
            db.advantages.append(_advantage(r))
        elif kind == "gear_pilot":
            db.pilots.append(_pilot(r))
        else:
            raise r.error("card_type", f"unknown card type {kind!r}")
    return db


def card_db_csv() -> Path:
    """The database ``--card-db`` (``DECKKIT_CARD_DB``) names, its ``animatactics/cards.csv``,
    else the shipped one (:mod:`deckkit.core.carddir`)."""
    chosen = chosen_file(GAME_DIR, (CSV_NAME,), header_word="level_cost")
    if chosen is not None:
        return chosen
    found = shipped_file(GAME_DIR, CSV_NAME)
    if found is None:
        raise CardDataError(
            "Anima Tactics card database not found",
            path=expected_file(GAME_DIR, CSV_NAME),
            hint="run `python tools/build_animatactics_db.py` in a source checkout",
        )
    return found


ABILITIES_NAME = "abilities.csv"


def abilities_csv() -> Path:
    """The abilities file beside the card database in use (``--card-db``'s
    ``animatactics/abilities.csv`` when it has one), else the shipped one."""
    beside = card_db_csv().parent / ABILITIES_NAME
    if beside.is_file():
        return beside
    found = shipped_file(GAME_DIR, ABILITIES_NAME)
    if found is None:
        raise CardDataError(
            "Anima Tactics abilities file not found",
            path=expected_file(GAME_DIR, ABILITIES_NAME),
            hint="run `python tools/build_animatactics_abilities.py` in a source checkout",
        )
    return found


ADVANTAGES_NAME = "advantages.csv"
BONUS_STATS = ("attack", "damage", "defense", "armor")


@dataclass(frozen=True)
class Bonus:
    """What an advantage card adds to its bearer's stats (advantages.csv), and what of its text
    the engine leaves out."""

    attack: int = 0
    damage: int = 0
    defense: int = 0
    armor: int = 0
    unplayed: str = ""


def advantages_csv() -> Path | None:
    """The advantage effects file beside the card database in use, else the shipped one (None:
    no file, so no advantage card changes a stat)."""
    beside = card_db_csv().parent / ADVANTAGES_NAME
    if beside.is_file():
        return beside
    return shipped_file(GAME_DIR, ADVANTAGES_NAME)


def advantage_bonuses() -> dict[str, Bonus]:
    """Each advantage card that changes its bearer's stats, by name (case-folded)."""
    path = advantages_csv()
    return {} if path is None else _bonuses(path)


@functools.cache
def _bonuses(path: Path) -> dict[str, Bonus]:
    out: dict[str, Bonus] = {}
    try:
        text = read_text(path, what="Anima Tactics advantages file", error=CardDataError)
        rows = list(csv.DictReader(io.StringIO(text)))
        for line, r in enumerate(rows, start=2):
            try:
                nums = {k: int(r.get(k) or 0) for k in BONUS_STATS}
            except ValueError as err:
                raise CardDataError(
                    f"{path}: line {line}: {err}", hint="a bonus is a whole number, e.g. +2"
                ) from err
            if any(nums.values()):
                name = r["advantage"].strip().casefold()
                out[name] = Bonus(**nums, unplayed=r.get("unplayed") or "")
    except (OSError, KeyError, UnicodeDecodeError) as err:
        raise CardDataError(f"{path}: {err}") from err
    return out


def load_card_db() -> CardDB:
    """The database in use (a designer's copy named by ``--card-db``, else the shipped one),
    read once per process and path."""
    return _read_cached(card_db_csv())


@functools.cache
def _read_cached(path: Path) -> CardDB:
    return read_card_db(path)
