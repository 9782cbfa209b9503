"""Load and validate the Ani-Mayhem card database (``card_db/animayhem/cards.csv``).

The CSV is edited by people and rebuilt by ``tools/build_card_db.py``, so every row is checked
against the schema in ``card_db/animayhem/README.md`` before it becomes a typed record from
:mod:`deckkit.animayhem.construction.cards`; a bad row stops the load with a
:class:`CardDataError` naming the file, the line and the field, rather than surfacing later as a
wrong simulation."""

from __future__ import annotations

import functools
import hashlib
import io
import os
import re
import sys
import weakref
from collections.abc import Callable, Iterable, Mapping
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, TypedDict, TypeVar, cast

from deckkit.animayhem.construction.cards import (
    ABILITIES,
    Abilities,
    Ability,
    AnyCard,
    CardType,
    CharacterCard,
    CharmHalf,
    CombatCard,
    Coverage,
    DisasterCard,
    Gender,
    HavenCard,
    ItemCard,
    LocationCard,
    Modifier,
    PhysicalHalf,
    PowerCard,
    Skill,
    Trait,
)
from deckkit.animayhem.construction.requirements import Requirement, Vocabulary, parse_requirement
from deckkit.animayhem.construction.vocabulary import CardEffects
from deckkit.core.carddir import EFFECTS_DIR, expected_file, shipped_file
from deckkit.errors import CardDataError
from deckkit.untrusted import parse_toml, read_bytes, read_text

if TYPE_CHECKING:
    from deckkit.core.nearest import NameIndex

CSV_NAME = "cards.csv"
CARD_DB_ENV = "DECKKIT_CARD_DB"  # a database directory used instead of the shipped one
GAME_DIR = "animayhem"
REQUIRED_COLUMNS = (
    "id", "name", "type", "major", "combat", "set", "rarity",
    *ABILITIES, *(f"{a}_alt" for a in ABILITIES),
    "health", "skills", "gender", "categories", "symbols", "requirement",
    "energy_cost", "uses", "deck_limit", "tally", "vehicle", "weapon",
    "traits", "moves_times", "plus_characters", "alternate_form",
    "phys_name", "phys_damage", "phys_defense", "phys_opp_damage", "phys_opp_defense",
    "phys_extra_draw", "charm_name", "charm_modifier", "charm_target",
    "errata", "source",
)  # fmt: skip
# An older cards.csv also had ``not_simulated``; a balance baseline's snapshot of the card
# database may still hold it. It is ignored, like any column the schema does not name: how much
# of a card the engine plays is its entry in effects/*.toml (construction/coverage.py).
_ID = re.compile(r"^am(\d{3})$")
_DISAMBIGUATED = re.compile(r"^(?P<name>.*?)\s*#\s*(?P<no>\d+)$")
_SKILL = re.compile(r"^(?P<name>.+?)(?:\s+x(?P<times>\d+)|\s+(?P<neg>-\d+))?$")
_PLUS_CHARACTERS = re.compile(r"^(?P<ability>[a-z]+)\s*\+(?P<bonus>\d+)$")
_E = TypeVar("_E")


def card_db_dir() -> Path:
    """Where the card database lives (:mod:`deckkit.core.carddir`): the folder holding
    ``animayhem/cards.csv``."""
    found = shipped_file(GAME_DIR, CSV_NAME)
    if found is None:
        raise CardDataError(
            "card database not found",
            path=expected_file(GAME_DIR, CSV_NAME).parents[1],
            hint="reinstall deckkit, or run `python tools/build_card_db.py` in a source checkout",
        )
    return found.parents[1]


def _normalise(text: str) -> str:
    """Lookup key: case-folded, outer and repeated whitespace removed, " / " spacing fixed."""
    text = re.sub(r"\s*/\s*", " / ", text.strip())
    return re.sub(r"\s+", " ", text).casefold()


class CardDB:
    """Every card, indexed for lookup by id, name, combat half and ``Name #number``."""

    def __init__(
        self,
        cards: Iterable[AnyCard],
        vocabulary: Vocabulary,
        effects: Mapping[str, CardEffects] | None = None,
    ) -> None:
        self.cards: tuple[AnyCard, ...] = tuple(sorted(cards, key=lambda c: c.id))
        self.vocabulary = vocabulary
        self.effects: dict[str, CardEffects] = dict(effects or {})
        self._by_id: dict[str, AnyCard] = {c.id: c for c in self.cards}
        self._by_key: dict[str, list[AnyCard]] = {}
        for card in self.cards:
            keys = {card.name, card.id}
            if isinstance(card, CombatCard):
                keys |= {card.physical.name, card.charm.name}
            for key in keys:
                self._by_key.setdefault(_normalise(key), []).append(card)
        self._names = sorted({k for c in self.cards for k in self._display_names(c)})

    @staticmethod
    def _display_names(card: AnyCard) -> tuple[str, ...]:
        if isinstance(card, CombatCard):
            return (card.name, card.physical.name, card.charm.name)
        return (card.name,)

    def __len__(self) -> int:
        return len(self.cards)

    def get(self, card_id: str) -> AnyCard:
        """The card with this id; KeyError names the id when there is none."""
        try:
            return self._by_id[card_id.strip().lower()]
        except KeyError:
            raise KeyError(f"no card with id {card_id!r}") from None

    def coverage(self, card: AnyCard) -> tuple[Coverage, str]:
        """How faithfully the engine plays the card's text, with the note saying what differs."""
        return card.coverage, card.coverage_note

    def of_type(self, card_type: CardType) -> list[AnyCard]:
        return [c for c in self.cards if c.type == card_type]

    def lookup(self, name: str) -> list[AnyCard]:
        """Cards a deck line may mean: full name, either combat half, an id (``am033``) or
        ``Name #33``. Several results mean the name is shared; the caller decides."""
        key = _normalise(name)
        found = self._by_key.get(key)
        if found:
            return list(found)
        m = _DISAMBIGUATED.match(key)
        if m:
            card = self._by_id.get(f"am{int(m['no']):03d}")
            if card is not None and card in self._by_key.get(m["name"], []):
                return [card]
        return []

    def suggest(self, name: str, n: int = 3) -> list[str]:
        """The closest known names, for "did you mean" messages (difflib's closest, from an
        index built at the first misspelt name and kept for the next: a deck written for
        another game has dozens)."""
        from deckkit.core.nearest import NameIndex  # only a misspelt name pays for it

        found = _NAME_INDEXES.get(self)
        if found is None:
            lowered = {k.casefold(): k for k in self._names}
            found = _NAME_INDEXES[self] = (lowered, NameIndex(list(lowered)))
        lowered, index = found
        return [lowered[h] for h in index.close_matches(_normalise(name), n=n, cutoff=0.5)]


# Each database's name index (CardDB.suggest), kept beside it rather than in it: a database is
# pickled whole into the disk cache, and the index is rebuilt in a moment where it is needed.
_NAME_INDEXES: weakref.WeakKeyDictionary[CardDB, tuple[dict[str, str], NameIndex]] = (
    weakref.WeakKeyDictionary()
)


# Plausible ranges of the numeric columns: printed abilities go down to -2 (a few cards print
# negative defense, charm or energy); counts start at 1 where a 0 makes no sense on a card.
INT_RANGES: dict[str, tuple[int, int]] = {
    "card_no": (1, 9999),
    "damage": (-20, 99),
    "defense": (-20, 99),
    "movement": (-20, 99),
    "charm": (-20, 99),
    "energy": (-20, 99),
    "health": (1, 99),
    "energy_cost": (0, 99),
    "uses": (1, 99),
    "deck_limit": (1, 99),
    "tally": (1, 7),
    "moves_times": (1, 9),
}


class _Row:
    """One CSV row with typed, error-reporting accessors (errors name file, line, field)."""

    def __init__(self, data: Mapping[str, str | None], path: Path, line: int) -> None:
        self.data = data
        self.path = path
        self.line = line

    def fail(self, field: str, message: str, hint: str | None = None) -> CardDataError:
        card = self.data.get("id") or "?"
        return CardDataError(
            f"card {card}, field {field!r}: {message}", path=self.path, line=self.line, hint=hint
        )

    def text(self, field: str, required: bool = False) -> str:
        value = (self.data.get(field) or "").strip()
        if required and not value:
            raise self.fail(field, "is required")
        return value

    def int(self, field: str, required: bool = False) -> int | None:
        """A whole number within the field's plausible range (:data:`INT_RANGES`): a printed
        card never has 10^20 damage or -5 uses, and such a value is a typo, not a card."""
        value = self.text(field, required)
        if not value:
            return None
        try:
            number = int(value)
        except ValueError:
            raise self.fail(field, f"{value!r} is not an integer") from None
        lo, hi = INT_RANGES.get(field.removesuffix("_alt"), (-99, 99))
        if not lo <= number <= hi:
            raise self.fail(field, f"{number} is out of range ({lo} to {hi})")
        return number

    def bool(self, field: str, required: bool = True) -> bool:
        value = self.text(field, required).lower()
        if value in ("true", "yes", "1"):
            return True
        if value in ("false", "no", "0", ""):
            return False
        raise self.fail(field, f"{value!r} is not true/false")

    def enum(self, field: str, kind: Callable[[str], _E], allowed: Iterable[str]) -> _E:
        value = self.text(field, required=True)
        try:
            return kind(value)
        except ValueError:
            raise self.fail(
                field, f"{value!r} is not one of {', '.join(sorted(allowed))}"
            ) from None

    def modifier(self, field: str) -> Modifier | None:
        value = self.text(field)
        if not value:
            return None
        try:
            return Modifier.parse(value)
        except ValueError:
            raise self.fail(
                field, f"{value!r} is not a modifier", hint="write +2, -1, x2, /2, =0 or 3"
            ) from None

    def listing(self, field: str) -> tuple[str, ...]:
        return tuple(p.strip() for p in self.text(field).split(";") if p.strip())

    def abilities(self, suffix: str = "") -> Abilities:
        values = {a: self.int(f"{a}{suffix}") for a in ABILITIES}
        return Abilities(**values)


def _skills(row: _Row) -> tuple[Skill, ...]:
    out: list[Skill] = []
    for part in row.listing("skills"):
        m = _SKILL.match(part)
        if m is None:  # pragma: no cover - the pattern matches any non-empty text
            raise row.fail("skills", f"unreadable skill {part!r}")
        count = int(m["times"]) if m["times"] else int(m["neg"]) if m["neg"] else 1
        out.append(Skill(m["name"].strip(), count))
    return tuple(out)


def _effect_files(directory: Path) -> dict[Path, tuple[str, dict[str, Any]]]:
    """The text and data of every effects file that reads and parses, each read once for both
    the vocabulary (:func:`_granted_skills`) and the effects loader. A file that does not is
    left out: the effects loader reads it again and reports what is wrong with it."""
    out: dict[Path, tuple[str, dict[str, Any]]] = {}
    for path in sorted(directory.glob("*.toml")) if directory.is_dir() else ():
        try:
            text = read_text(path, what="effects file", error=CardDataError)
            out[path] = (text, parse_toml(text, path, what="effects file", error=CardDataError))
        except CardDataError:
            continue
    return out


def _granted_skills(files: Mapping[Path, tuple[str, dict[str, Any]]]) -> set[str]:
    """Skills the effect files grant (Ancient Pottery: Archaeology, which no character prints),
    so a location's requirement reads them as skills a granted one can meet."""
    out: set[str] = set()
    for _, data in files.values():
        for entry in data.values():
            effects = entry.get("effects", []) if isinstance(entry, dict) else []
            for e in effects if isinstance(effects, list) else []:
                skill = e.get("skill") if isinstance(e, dict) else None
                if e.get("do") == "grant" and isinstance(skill, str) and skill.strip():
                    out.add(skill.strip())
    return out


def _vocabulary(rows: list[_Row], granted: set[str]) -> Vocabulary:
    """Skills, categories, character names and the names of cards characters carry (items,
    equipment) as the database itself lists them, and the skills its effects grant."""
    skills: set[str] = set(granted)
    categories: set[str] = set()
    names: set[str] = set()
    carried: set[str] = set()
    for row in rows:
        categories.update(row.listing("categories"))
        if row.text("type") == CardType.CHARACTER:
            names.add(row.text("name"))
            skills.update(s.name for s in _skills(row))
        elif row.text("type") in (CardType.ITEM, CardType.EQUIPMENT):
            carried.add(row.text("name"))
    return Vocabulary(
        frozenset(skills), frozenset(categories), frozenset(names), frozenset(carried)
    )


class _Common(TypedDict):
    """The fields every card type shares (:class:`deckkit.animayhem.construction.cards.Card`)."""

    id: str
    name: str
    type: CardType
    set: str
    rarity: str
    categories: tuple[str, ...]
    symbols: frozenset[str]
    deck_limit: int | None
    errata: str
    source: str
    effects: CardEffects | None


def _build(row: _Row, vocab: Vocabulary) -> AnyCard:
    card_id = row.text("id", required=True)
    if not _ID.match(card_id):
        raise row.fail("id", f"{card_id!r} is not am + a 3-digit card number")
    ctype = row.enum("type", CardType, [t.value for t in CardType])
    row.int("card_no")  # informational, but a typo there is still a typo
    common: _Common = {
        "id": card_id,
        "name": row.text("name", required=True),
        "type": ctype,
        "set": row.text("set", required=True),
        "rarity": row.text("rarity", required=True),
        "categories": row.listing("categories"),
        "symbols": frozenset(row.listing("symbols")),
        "deck_limit": row.int("deck_limit"),
        "errata": row.text("errata"),
        "source": row.text("source", required=True),
        "effects": None,
    }
    req_text = row.text("requirement")
    requirement = parse_requirement(req_text, vocab) if req_text else None

    if ctype is CardType.CHARACTER:
        for a in ABILITIES:
            row.int(a, required=True)
        alt = row.abilities("_alt")
        return CharacterCard(
            **common,
            abilities=row.abilities(),
            alt=alt if alt != Abilities() else None,
            skills=_skills(row),
            gender=row.enum("gender", Gender, [g.value for g in Gender]),
            alternate_form=row.text("alternate_form") or None,
            health=row.int("health"),
        )
    if ctype is CardType.LOCATION:
        # An empty requirement (Garlic Jr.'s Palace: no skills scavenge it) is never met; an
        # effect entry says so, or the coverage derived at load does (coverage.derive).
        return LocationCard(
            **common,
            requirement_text=req_text,
            requirement=requirement or Requirement("", ()),
            damage=row.int("damage"),
            defense=row.int("defense"),
        )
    if ctype is CardType.ITEM:
        return ItemCard(**common, tally=row.int("tally") or 1)
    if ctype is CardType.HAVEN:
        return HavenCard(**common)
    if ctype is CardType.COMBAT:
        target = row.text("charm_target", required=True)
        if target not in ("self", "opponent", "special"):
            raise row.fail("charm_target", f"{target!r} is not one of opponent, self, special")
        return CombatCard(
            **common,
            physical=PhysicalHalf(
                name=row.text("phys_name", required=True),
                damage=row.modifier("phys_damage"),
                defense=row.modifier("phys_defense"),
                opp_damage=row.modifier("phys_opp_damage"),
                opp_defense=row.modifier("phys_opp_defense"),
                extra_draw=row.bool("phys_extra_draw"),
            ),
            charm=CharmHalf(
                name=row.text("charm_name", required=True),
                modifier=row.modifier("charm_modifier"),
                target=cast(Literal["self", "opponent", "special"], target),
            ),
        )
    plus_characters = _plus_characters(row)
    if plus_characters and ctype is not CardType.DISASTER:
        raise row.fail("plus_characters", "is only for disasters")
    if ctype is CardType.DISASTER:
        traits = _traits(row)
        abilities = row.abilities()
        combat = row.bool("combat")
        if combat:
            for a in ("damage", "defense", "movement"):
                if all(name != a for name, _ in plus_characters):
                    row.int(a, required=True)
        alt = row.abilities("_alt")
        return DisasterCard(
            **common,
            major=row.bool("major"),
            combat=combat,
            abilities=abilities,
            alt=alt if alt != Abilities() else None,
            traits=traits,
            moves_times=row.int("moves_times"),
            health=row.int("health"),
            plus_characters=plus_characters,
        )
    # power cards: equipment, enhancement, flash effect, global effect
    modifiers: list[tuple[Ability, Modifier]] = []
    for a in ABILITIES:
        mod = row.modifier(a)
        if mod is not None:
            modifiers.append((a, mod))
    return PowerCard(
        **common,
        modifiers=tuple(modifiers),
        energy_cost=row.int("energy_cost"),
        uses=row.int("uses"),
        requirement_text=req_text,
        requirement=requirement,
        vehicle=row.bool("vehicle", required=False),
        weapon=row.bool("weapon", required=False),
    )


def _plus_characters(row: _Row) -> tuple[tuple[Ability, int], ...]:
    """``damage +2; defense +3``: abilities equal to the number of characters at the card's
    location plus the printed bonus (card text; card_db/animayhem/README.md)."""
    out: list[tuple[Ability, int]] = []
    for part in row.listing("plus_characters"):
        m = _PLUS_CHARACTERS.match(part)
        if m is None or m["ability"] not in ABILITIES:
            raise row.fail(
                "plus_characters", f"{part!r} is not an ability and a bonus", hint="damage +2"
            )
        out.append((cast(Ability, m["ability"]), int(m["bonus"])))
    return tuple(out)


def _traits(row: _Row) -> frozenset[Trait]:
    out: set[Trait] = set()
    for value in row.listing("traits"):
        try:
            out.add(Trait(value))
        except ValueError:
            allowed = ", ".join(t.value for t in Trait)
            raise row.fail("traits", f"{value!r} is not one of {allowed}") from None
    return frozenset(out)


def _check_links(cards: list[AnyCard], rows: dict[str, _Row]) -> None:
    """Ids unique; ``alternate_form`` names an existing character that names this one back."""
    by_id: dict[str, AnyCard] = {}
    for card in cards:
        if card.id in by_id:
            raise rows[card.id].fail("id", f"{card.id} appears twice")
        by_id[card.id] = card
    for card in cards:
        if not isinstance(card, CharacterCard) or card.alternate_form is None:
            continue
        other = by_id.get(card.alternate_form)
        if not isinstance(other, CharacterCard):
            raise rows[card.id].fail(
                "alternate_form", f"{card.alternate_form!r} is not a character in the database"
            )
        if other.alternate_form != card.id:
            raise rows[card.id].fail(
                "alternate_form",
                f"{other.id} ({other.name}) does not name {card.id} back",
                hint="both forms of a transforming character must name each other",
            )


def read_card_db(path: Path) -> CardDB:
    """Read and validate one cards.csv (no caching; see :func:`load_card_db`)."""
    # The readers load here, not with the module: a database read back from the cache
    # (cached_card_db) needs only the card classes, and a short command skips their imports.
    import csv

    from deckkit.animayhem.construction.coverage import derive
    from deckkit.animayhem.construction.effectdb import read_effects

    text = read_text(path, what="card database", error=CardDataError)
    try:
        with io.StringIO(text, newline="") as fh:
            reader = csv.DictReader(fh)
            header = reader.fieldnames or []
            missing = [c for c in REQUIRED_COLUMNS if c not in header]
            if missing:
                raise CardDataError(f"missing column(s): {', '.join(missing)}", path=path, line=1)
            rows: list[_Row] = []
            for record in reader:
                if None in record:
                    raise CardDataError(
                        "row has more fields than the header", path=path, line=reader.line_num
                    )
                rows.append(_Row(record, path, reader.line_num))
    except OSError as err:
        raise CardDataError(f"cannot read card database: {err.strerror}", path=path) from err
    except UnicodeDecodeError as err:
        raise CardDataError(
            f"not UTF-8 text (byte {err.start})", path=path, hint="save it as UTF-8"
        ) from None
    except csv.Error as err:
        raise CardDataError(f"malformed CSV: {err}", path=path) from err
    parsed = _effect_files(path.parent / EFFECTS_DIR)
    vocab = _vocabulary(rows, _granted_skills(parsed))
    cards: list[AnyCard] = []
    by_id: dict[str, _Row] = {}
    for row in rows:
        card = _build(row, vocab)
        if card.id in by_id:
            raise row.fail("id", f"{card.id} appears twice (first on line {by_id[card.id].line})")
        by_id[card.id] = row
        cards.append(card)
    _check_links(cards, by_id)
    effects = read_effects(path.parent / EFFECTS_DIR, {c.id: c for c in cards}, vocab, parsed)
    attached: list[AnyCard] = []
    for card in cards:
        entry = derive(card, effects.get(card.id))
        attached.append(card if entry is None else replace(card, effects=entry))
    derived = {c.id: c.effects for c in attached if c.effects is not None}
    return CardDB(attached, vocab, derived)


# The modules whose code shapes a parsed database (the readers and the card classes a cached
# one is unpickled into): a change to any of them, as in a source checkout, is a cache miss.
_CONSTRUCTION = Path(__file__).resolve().parent
_PARSER_FILES = (
    _CONSTRUCTION.parents[1] / "untrusted.py",
    _CONSTRUCTION.parents[1] / "errors.py",
    _CONSTRUCTION.parents[1] / "core" / "carddir.py",
)
CACHE_LAYOUT = "animayhem-carddb-1"  # bump when a cached database's meaning changes


def _source_files(path: Path) -> list[Path]:
    """Every file :func:`read_card_db` reads for the cards.csv at ``path``, in its order."""
    effects = path.parent / EFFECTS_DIR
    return [path, *(sorted(effects.glob("*.toml")) if effects.is_dir() else ())]


def _parser_fingerprint() -> bytes:
    """Size and modification time of every module of the card readers (:data:`_PARSER_FILES`
    and this package's), the way Python's own bytecode cache tells a changed source."""
    files = sorted(_CONSTRUCTION.glob("*.py")) + list(_PARSER_FILES)
    parts = []
    for file in files:
        info = file.stat()
        parts.append(f"{file.name}:{info.st_size}:{info.st_mtime_ns}")
    return "\n".join(parts).encode()


def _cache_key(path: Path, where: Path) -> str | None:
    """A digest of everything the database at ``path`` (resolved: ``where``) is built from: the
    bytes of each source file with its name, the readers' code, deckkit's and Python's versions.
    None when a source cannot be read as a regular file: the full read then reports it."""
    from deckkit.version import __version__

    digest = hashlib.sha256()
    digest.update(f"{CACHE_LAYOUT}\n{__version__}\n{sys.version}\n{where}\n".encode())
    try:
        digest.update(_parser_fingerprint())
        for source in _source_files(path):
            data = read_bytes(source, what="card data", error=CardDataError)
            digest.update(f"\n{source.name}\n{len(data)}\n".encode())
            digest.update(data)
    except (OSError, CardDataError):
        return None
    return digest.hexdigest()


def _cache_name(where: Path) -> str:
    """One cache entry per database location, so an edited database replaces its entry."""
    return f"animayhem-cards-{hashlib.sha256(str(where).encode()).hexdigest()[:20]}.pickle"


def cached_card_db(path: Path) -> CardDB:
    """:func:`read_card_db`, through the per-user cache (:mod:`deckkit.core.diskcache`): the
    same database, read back in about a sixth of the time while no source file has changed.
    A database that does not load is never stored; its error is raised on every load."""
    from deckkit.core import diskcache

    try:
        where = path.resolve()
    except (OSError, RuntimeError):  # a symbolic link loop: the full read reports it
        return read_card_db(path)
    key = _cache_key(path, where)
    if key is None:
        return read_card_db(path)
    name = _cache_name(where)
    found = diskcache.load(name, key)
    if isinstance(found, CardDB):
        return found
    db = read_card_db(path)
    diskcache.store(name, key, db)
    return db


@functools.lru_cache(maxsize=1)
def _default_db() -> CardDB:
    return cached_card_db(card_db_dir() / GAME_DIR / CSV_NAME)


def card_db_csv(path: Path | None = None) -> Path:
    """The cards.csv of the database at ``path``: a cards.csv, or a directory holding
    ``cards.csv`` or ``animayhem/cards.csv``. Without ``path``, the database the environment
    variable ``DECKKIT_CARD_DB`` names, else the shipped one. Its effect files are the
    ``effects/`` directory beside it."""
    if path is None:
        named = os.environ.get(CARD_DB_ENV, "").strip()
        if not named:
            return card_db_dir() / GAME_DIR / CSV_NAME
        path = Path(named)
    if path.is_dir():
        nested = path / GAME_DIR / CSV_NAME
        # Whatever stands at the nested name is the database (a FIFO or a device there is
        # refused by the reader, not passed over for another file).
        return nested if nested.exists() or nested.is_symlink() else path / CSV_NAME
    return path


def load_card_db(path: Path | None = None) -> CardDB:
    """The card database at ``path`` (see :func:`card_db_csv`, which also reads
    ``DECKKIT_CARD_DB`` when no path is given); the shipped one is loaded once per process."""
    if path is None and not os.environ.get(CARD_DB_ENV, "").strip():
        return _default_db()
    if path is None:  # `--card-db DIR`: a working copy, read again whenever it changes
        return cached_card_db(card_db_csv())
    return read_card_db(card_db_csv(path))
