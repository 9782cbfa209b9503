"""Read and check an Animus card file (CSV, docs/animus-cards.md) and its type order.

No published list of the 36 characters and 6 Entities exists, so deckkit reads the user's own
file and ships only a made-up sample (card_db/animus/sample-cards.csv). Every row is checked when
the file loads; the first problem found is reported with the file, the line, the column and what
to do (exit 3, as for a broken Ani-Mayhem card database).
"""

from __future__ import annotations

import csv
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Protocol

from deckkit.animus.construction.cards import (
    CONDITIONS,
    PARAMETERS,
    REVEALS,
    STANDING,
    WHO,
    Ability,
    Card,
    Effect,
    Keyword,
    Kind,
)
from deckkit.animus.construction.rules import TypeOrder, load_types
from deckkit.core.carddir import chosen_file, expected_file, shipped_file
from deckkit.errors import CardDataError
from deckkit.textsafe import clipped
from deckkit.untrusted import read_bytes

GAME_DIR = "animus"
SAMPLE_NAME = "sample-cards.csv"
CARDS_NAME = "cards.csv"  # a designer's own set in a --card-db folder
TYPES_NAME = "types.toml"
COLUMNS = (
    "id",
    "name",
    "kind",
    "level",
    "type",
    "advantage",
    "melee",
    "range",
    "abilities",
    "made_up",
    "source",
)
MAX_BYTES = 1_000_000
MAX_PROBLEMS = 50  # broken rows reported at once; a file past that is no card file


class CardFileError(CardDataError):
    """A problem in a card file, located by line and column (1-based field number)."""

    def __init__(
        self,
        message: str,
        *,
        path: Path | str | None,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
    ) -> None:
        self.column = column
        if column is not None:
            name = COLUMNS[column - 1] if 0 < column <= len(COLUMNS) else "?"
            message = f"column {column} ({name}): {message}"
        super().__init__(message, path=path, line=line, hint=hint)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "column": self.column}


class CardFileProblems(CardFileError):
    """Every broken row of a card file at once (one line each), so a designer fixes them in one
    pass; the first problem's line and column are the error's own."""

    def __init__(self, problems: list[CardFileError], *, path: Path | str | None) -> None:
        self.problems = tuple(problems)
        first = problems[0]
        CardDataError.__init__(
            self,
            f"{len(problems)} broken rows in this card file",
            path=path,
            line=first.line,
            hint=first.hint,
        )
        self.column = first.column

    def render(self) -> str:
        lines = [super().render()]
        lines.extend(f"  line {p.line}: {clipped(p.message, 300)}" for p in self.problems)
        return "\n".join(lines)

    def as_dict(self) -> dict[str, object]:
        return {**super().as_dict(), "problems": [p.as_dict() for p in self.problems]}


@dataclass(frozen=True, slots=True)
class CardSet:
    """The cards of one file, by name (names are unique, compared without case)."""

    path: Path
    cards: tuple[Card, ...]
    types: TypeOrder

    @property
    def characters(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind is Kind.CHARACTER)

    @property
    def entities(self) -> tuple[Card, ...]:
        return tuple(c for c in self.cards if c.kind is Kind.ENTITY)

    def find(self, name: str) -> Card | None:
        return self._index().get(name.strip().casefold())

    def _index(self) -> dict[str, Card]:
        return _index_of(self.cards)


@cache
def _index_of(cards: tuple[Card, ...]) -> dict[str, Card]:
    return {c.name.casefold(): c for c in cards}


def sample_path() -> Path:
    """The card set a team without its own ``cards:`` file plays: the database ``--card-db``
    (``DECKKIT_CARD_DB``) names (its ``animus/cards.csv`` or ``animus/sample-cards.csv``), else
    the shipped made-up sample."""
    chosen = chosen_file(GAME_DIR, (CARDS_NAME, SAMPLE_NAME), header_word="melee")
    return chosen if chosen is not None else _shipped(SAMPLE_NAME)


def types_path_for(card_file: Path) -> Path:
    """A card file's type order: ``types.toml`` beside it, else the shipped one."""
    beside = card_file.parent / TYPES_NAME
    return beside if beside.is_file() else _shipped(TYPES_NAME)


def _shipped(name: str) -> Path:
    """A shipped Animus file (:mod:`deckkit.core.carddir`); where it should be when missing (its
    reader then says so)."""
    return shipped_file(GAME_DIR, name) or expected_file(GAME_DIR, name)


def load_cards(path: Path | None = None) -> CardSet:
    """The card file at ``path`` (the set :func:`sample_path` names when None), checked; cached
    per path."""
    return _load_cached(sample_path() if path is None else path)


@cache
def _load_cached(path: Path) -> CardSet:
    return read_cards(path, load_types(types_path_for(path)))


def cardfile_cache_clear() -> None:
    """Forget the card files read so far (a file edited in place is read again)."""
    _load_cached.cache_clear()


def read_cards(path: Path, types: TypeOrder) -> CardSet:
    """Read and check every row of a card file."""
    # Only a regular file of at most MAX_BYTES is read: a FIFO would block, a device never end.
    raw = read_bytes(
        path,
        what="card file",
        error=CardDataError,
        limit=MAX_BYTES,
        hint="a card file is a CSV of one card a row: docs/animus-cards.md",
    )
    lines = raw.split(b"\n")
    header: list[str] | None = None
    cards: list[Card] = []
    problems: list[CardFileError] = []
    seen_ids: dict[str, int] = {}
    seen_names: dict[str, int] = {}
    for number, chunk in enumerate(lines, start=1):
        try:
            text = chunk.decode("utf-8").rstrip("\r")
        except UnicodeDecodeError as err:
            raise CardFileError(
                f"not UTF-8 text (byte {err.start + 1})",
                path=path,
                line=number,
                hint="save the file as UTF-8",
            ) from None
        if number == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        try:
            fields = next(csv.reader([text]))
        except csv.Error as err:  # a bare carriage return inside a row, for one
            raise CardFileError(
                f"not a CSV row ({err})",
                path=path,
                line=number,
                hint="end each row with a line break; quote a field holding a comma or break",
            ) from None
        if header is None:
            header = _check_header(fields, path, number)
            continue
        try:
            card = _row(fields, path, number, types)
        except CardFileError as err:
            # Every row is checked: the broken ones are reported together below.
            problems.append(err)
            if len(problems) >= MAX_PROBLEMS:
                break
            continue
        duplicate = False
        for key, seen, what in (
            (card.id.casefold(), seen_ids, "id"),
            (card.name.casefold(), seen_names, "name"),
        ):
            if key in seen:
                problems.append(
                    CardFileError(
                        f"{what} {getattr(card, what)!r} is already used on line {seen[key]}",
                        path=path,
                        line=number,
                        column=COLUMNS.index(what) + 1,
                        hint="each card appears once: every Animus card is unique",
                    )
                )
                duplicate = True
            else:
                seen[key] = number
        if not duplicate:
            cards.append(card)
    if header is None:
        raise CardFileError(
            "the card file has no header row",
            path=path,
            line=1,
            hint=f"the first row names the columns: {','.join(COLUMNS)}",
        )
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise CardFileProblems(problems, path=path)
    if not any(c.kind is Kind.CHARACTER for c in cards):
        raise CardFileError("the card file holds no character", path=path)
    return CardSet(path, tuple(cards), types)


def _check_header(fields: list[str], path: Path, line: int) -> list[str]:
    names = [f.strip().lower() for f in fields]
    for i, expected in enumerate(COLUMNS):
        got = names[i] if i < len(names) else ""
        if got != expected:
            # A row that does not even start as a card file's header is not quoted: a file
            # that is no card file (a team's `cards:` naming the wrong file) is not shown.
            if i == 0:
                message = f"the first row is not a card file's header (it starts with {expected!r})"
            else:
                message = f"the header names {clipped(got, 40)!r} where {expected!r} belongs"
            raise CardFileError(
                message if got else f"the header lacks the column {expected!r}",
                path=path,
                line=line,
                column=i + 1,
                hint=f"the header row is: {','.join(COLUMNS)}",
            )
    if len(names) > len(COLUMNS):
        raise CardFileError(
            f"{len(names)} columns where a card file has {len(COLUMNS)}",
            path=path,
            line=line,
            column=len(COLUMNS) + 1,
            hint=f"the header row is: {','.join(COLUMNS)}",
        )
    return names


def _row(fields: list[str], path: Path, line: int, types: TypeOrder) -> Card:
    if len(fields) != len(COLUMNS):
        raise CardFileError(
            f"{len(fields)} fields where the header has {len(COLUMNS)}",
            path=path,
            line=line,
            column=min(len(fields), len(COLUMNS)) + 1,
            hint="a comma inside a value needs the value in double quotes",
        )
    values = dict(zip(COLUMNS, (f.strip() for f in fields), strict=True))

    def bad(column: str, message: str, hint: str | None = None) -> CardFileError:
        return CardFileError(
            message, path=path, line=line, column=COLUMNS.index(column) + 1, hint=hint
        )

    for column in ("id", "name", "source"):
        if not values[column]:
            raise bad(column, f"the {column} is empty", _HINTS[column])
    try:
        kind = Kind(values["kind"].lower())
    except ValueError:
        raise bad("kind", f"{values['kind']!r} is not a kind", "character or entity") from None
    made_up = values["made_up"].lower()
    if made_up not in ("yes", "no"):
        raise bad("made_up", f"{values['made_up']!r} is not yes or no", _HINTS["made_up"])
    abilities = _abilities(values["abilities"], kind, bad)
    if kind is Kind.ENTITY:
        for column in ("level", "type", "advantage", "melee", "range"):
            if values[column]:
                raise bad(column, "an Entity has no " + column, "leave it empty for an Entity")
        return Card(
            values["id"],
            values["name"],
            kind,
            0,
            "",
            "",
            0,
            0,
            abilities,
            made_up == "yes",
            values["source"],
            line,
        )
    level = _number(values["level"], "level", bad, low=1)
    melee = _number(values["melee"], "melee", bad, low=0)
    rng = _number(values["range"], "range", bad, low=0)
    card_type = _type(values["type"], "type", types, bad)
    advantage = (
        _type(values["advantage"], "advantage", types, bad)
        if values["advantage"]
        else types.default_advantage(card_type)
    )
    return Card(
        values["id"],
        values["name"],
        kind,
        level,
        card_type,
        advantage,
        melee,
        rng,
        abilities,
        made_up == "yes",
        values["source"],
        line,
    )


_HINTS = {
    "id": "give each card a short unique id, e.g. an017",
    "name": "the card's name as printed",
    "source": "where the row comes from (a card scan, a list, or 'made up')",
    "made_up": "yes for an invented card, no for a real one whose source is given",
}


def _number(text: str, column: str, bad: _Bad, *, low: int) -> int:
    if not re.fullmatch(r"\d{1,3}", text):
        raise bad(column, f"{text!r} is not a whole number", f"a whole number >= {low}")
    value = int(text)
    if value < low:
        raise bad(column, f"{value} is below {low}")
    return value


def _type(text: str, column: str, types: TypeOrder, bad: _Bad) -> str:
    for t in types.types:
        if t.casefold() == text.casefold():
            return t
    raise bad(
        column,
        f"{text!r} is not a card type",
        f"types ({types.path}): {', '.join(types.types)}",
    )


class _Bad(Protocol):
    def __call__(self, column: str, message: str, hint: str | None = None) -> CardFileError: ...


_ABILITY = re.compile(
    r"\s*(?P<kw>[A-Za-z]+)\s*(?:\(\s*(?P<cond>[a-z_]+)\s*\))?\s*:\s*"
    r"(?P<eff>[a-z_]+)\s*\((?P<args>[^()]*)\)\s*"
)


def _abilities(text: str, kind: Kind, bad: _Bad) -> tuple[Ability, ...]:
    """``Keyword[(condition)]: effect(args); ...``."""
    if not text:
        return ()
    out: list[Ability] = []
    for part in text.split(";"):
        if not part.strip():
            continue
        m = _ABILITY.fullmatch(part)
        if m is None:
            raise bad(
                "abilities",
                f"cannot read the ability {part.strip()!r}",
                "write Keyword: effect(arguments), e.g. 'Kill: draw(1)'; separate with ';'",
            )
        out.append(_ability(m, kind, bad))
    return tuple(out)


def _ability(m: re.Match[str], kind: Kind, bad: _Bad) -> Ability:
    words = {k.value.casefold(): k for k in Keyword}
    keyword = words.get(m["kw"].casefold())
    if keyword is None:
        raise bad("abilities", f"unknown keyword {m['kw']!r}", f"keywords: {', '.join(Keyword)}")
    try:
        effect = Effect(m["eff"])
    except ValueError:
        raise bad(
            "abilities", f"unknown effect {m['eff']!r}", f"effects: {', '.join(Effect)}"
        ) from None
    condition = m["cond"]
    if (keyword is Keyword.REACTION) != (condition is not None):
        raise bad(
            "abilities",
            "a Reaction names its condition, and only a Reaction does",
            f"e.g. Reaction(ally_killed): draw(1); conditions: {', '.join(CONDITIONS)}",
        )
    if condition is not None and condition not in CONDITIONS:
        raise bad(
            "abilities",
            f"unknown Reaction condition {condition!r}",
            f"conditions: {', '.join(CONDITIONS)}",
        )
    if (effect in STANDING) != (keyword is Keyword.ONGOING):
        raise bad(
            "abilities",
            f"{effect}() is {'a standing effect: only' if effect in STANDING else 'not'} Ongoing",
            "boost, edge, tough, hand and reveal are Ongoing; damage, heal and draw are not",
        )
    if kind is Kind.ENTITY and keyword in (Keyword.KILL, Keyword.DEATH, Keyword.COMBAT):
        raise bad("abilities", f"an Entity is never in combat: {keyword} cannot apply")
    params = dict(PARAMETERS[effect])
    args = [a.strip() for a in m["args"].split(",") if a.strip()]
    for i, arg in enumerate(args):
        name, sep, value = arg.partition("=")
        if not sep:
            name, value = "n", arg
            if i > 0 or "n" not in params:
                raise bad("abilities", f"{effect}() takes no argument {arg!r}")
        name = name.strip()
        value = value.strip()
        if name not in params:
            raise bad(
                "abilities",
                f"{effect}() has no parameter {name!r}",
                f"parameters: {', '.join(params) or 'none'}",
            )
        params[name] = value
    values: dict[str, int | str] = {}
    for name, value in params.items():
        if name == "what":
            if value not in REVEALS:
                raise bad(
                    "abilities",
                    f"{effect}() needs what= one of {', '.join(REVEALS)}"
                    + ("" if value is None else f", not {value!r}"),
                    "e.g. Ongoing: reveal(what=opponent_hand)",
                )
            values[name] = str(value)
            continue
        if name == "who":
            if value not in WHO:
                raise bad("abilities", f"who={value} is not one of {', '.join(WHO)}")
            values[name] = str(value)
            continue
        try:
            number = int(str(value))
        except ValueError:
            raise bad(
                "abilities", f"{effect}({name}=...) needs a whole number, not {value!r}"
            ) from None
        if not -9 <= number <= 9 or (name == "n" and number < 1):
            raise bad("abilities", f"{effect}({name}={number}) is out of range")
        values[name] = number
    return Ability(
        keyword,
        effect,
        n=int(values.get("n", 0)),
        melee=int(values.get("melee", 0)),
        range=int(values.get("range", 0)),
        who=str(values.get("who", "self")),
        condition=condition,
        what=str(values.get("what", "")),
    )
