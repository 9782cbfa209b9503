"""Party files: the characters and advantage cards a player brings to an Anima Tactics game.

Format (UTF-8 text; ``#`` starts a comment)::

    game: anima-tactics          <- header lines "key: value", only at the top
    name: Imperial vanguard
    levels: 250                  <- the game's agreed level total (250 is standard)
    edition: saga1               <- saga1 (the rulebook) or later (advantage points)

    [characters]
    Yuri Olsen
    Goethia with Valis           <- a Gear names its pilot after "with"

    [advantages]
    Heavy Armor on Claire Adelheid   <- Equipment and Powers may name their bearer after "on"
    Tactics

Every problem is an error naming the file and line (exit 2); an unknown name suggests the nearest.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

from deckkit.animatactics.construction.carddb import CardDB
from deckkit.animatactics.construction.cards import Advantage, Character, Pilot
from deckkit.animatactics.construction.editions import EDITIONS
from deckkit.errors import DeckFileError, DeckProblems
from deckkit.untrusted import read_bytes

HEADER_KEYS = ("game", "name", "levels", "edition", "converted-levels")
SECTIONS = ("characters", "advantages")
MAX_PARTY_BYTES = 1 << 20
MAX_LINE_CHARS = 500
_HEADER = re.compile(r"^([A-Za-z][A-Za-z0-9_-]*)\s*:\s*(.*)$")
_SECTION = re.compile(r"^\[\s*([^\]]*?)\s*\]$")
_WITH = re.compile(r"^(?P<name>.+?)\s+with\s+(?P<pilot>.+)$", re.IGNORECASE)
_ON = re.compile(r"^(?P<name>.+?)\s+on\s+(?P<bearer>.+)$", re.IGNORECASE)


@dataclass(frozen=True)
class Member:
    character: Character
    pilot: Pilot | None
    line: int


@dataclass(frozen=True)
class Pick:
    advantage: Advantage
    bearer: str | None  # a character's name, for Equipment and Powers placed on one
    line: int


@dataclass
class Party:
    name: str
    path: Path | None
    levels: int | None = None
    edition: str | None = None
    converted_levels: int = 0
    members: list[Member] = field(default_factory=list)
    advantages: list[Pick] = field(default_factory=list)
    header_lines: dict[str, int] = field(default_factory=dict)


class _Parser:
    def __init__(self, db: CardDB, path: Path | None) -> None:
        self.db, self.path = db, path
        self.party = Party(name=path.stem if path else "party", path=path)
        self.section: str | None = None
        self.in_header = True
        self.problems: list[DeckFileError] = []

    def error(self, message: str, line: int, hint: str | None = None) -> DeckFileError:
        return DeckFileError(message, path=self.path, line=line, hint=hint)

    def feed(self, raw: str, line: int) -> None:
        if len(raw) > MAX_LINE_CHARS:
            raise self.error(
                f"line is {len(raw):,} characters long (at most {MAX_LINE_CHARS})", line
            )
        text = raw.split("#", 1)[0].strip()
        if not text:
            return
        m = _HEADER.match(text)
        if self.in_header and m and m.group(1).lower() in HEADER_KEYS:
            self._header(m.group(1).lower(), m.group(2).strip(), line)
            return
        if self.in_header and m and self.section is None:
            raise self.error(
                f"unknown header key {m.group(1)!r}",
                line,
                hint=f"header keys: {', '.join(HEADER_KEYS)}",
            )
        self.in_header = False
        s = _SECTION.match(text)
        if s:
            key = s.group(1).lower()
            if key not in SECTIONS:
                raise self.error(
                    f"unknown section [{s.group(1)}]",
                    line,
                    hint="sections: [characters], [advantages]",
                )
            self.section = key
            return
        if self.section is None:
            raise self.error(
                f"{text!r} is outside a section",
                line,
                hint="put it under [characters] or [advantages]",
            )
        if self.section == "characters":
            self._character(text, line)
        else:
            self._advantage(text, line)

    def _header(self, key: str, value: str, line: int) -> None:
        p = self.party
        if key in p.header_lines:
            raise self.error(
                f"header {key!r} given twice (first on line {p.header_lines[key]})", line
            )
        p.header_lines[key] = line
        if key == "name":
            p.name = value
        elif key in ("levels", "converted-levels"):
            if not (value.isascii() and value.isdigit()):
                raise self.error(f"{key} must be a whole number, not {value!r}", line)
            if key == "levels":
                p.levels = int(value)
            else:
                p.converted_levels = int(value)
        elif key == "edition":
            if value not in EDITIONS:
                raise self.error(
                    f"unknown edition {value!r}", line, hint=f"editions: {', '.join(EDITIONS)}"
                )
            p.edition = value
        elif key == "game" and value.lower().replace(" ", "-") != "anima-tactics":
            raise self.error(f"not an Anima Tactics party (game: {value})", line)

    def _unknown(self, what: str, name: str, line: int) -> None:
        near = self.db.suggest(name)
        hint = (
            f"did you mean {' or '.join(repr(n) for n in near)}?"
            if near
            else "see `deckkit cards list --game anima-tactics`"
        )
        self.problems.append(self.error(f"unknown {what} {name!r}", line, hint=hint))

    def _character(self, text: str, line: int) -> None:
        character = self.db.character(text)
        pilot = None
        if character is None:
            m = _WITH.match(text)
            if m and (found := self.db.character(m.group("name"))) is not None:
                character = found
                pilot = self.db.pilot(m.group("pilot"))
                if pilot is None:
                    names = ", ".join(p.name for p in self.db.pilots)
                    self.problems.append(
                        self.error(
                            f"unknown pilot {m.group('pilot')!r}", line, hint=f"pilots: {names}"
                        )
                    )
                    return
        if character is None:
            if self.db.advantage(text) is not None:
                self.problems.append(
                    self.error(
                        f"{text!r} is an advantage card", line, hint="list it under [advantages]"
                    )
                )
                return
            self._unknown("character", text, line)
            return
        self.party.members.append(Member(character, pilot, line))

    def _advantage(self, text: str, line: int) -> None:
        advantage = self.db.advantage(text)
        bearer = None
        if advantage is None:
            m = _ON.match(text)
            if m and (found := self.db.advantage(m.group("name"))) is not None:
                advantage, bearer = found, m.group("bearer").strip()
        if advantage is None:
            if self.db.character(text) is not None:
                self.problems.append(
                    self.error(f"{text!r} is a character", line, hint="list it under [characters]")
                )
                return
            self._unknown("advantage card", text, line)
            return
        self.party.advantages.append(Pick(advantage, bearer, line))


def parse_party_bytes(data: bytes, db: CardDB, path: Path | None) -> Party:
    """A party from a file's bytes; every unreadable line is reported (exit 2)."""
    if len(data) > MAX_PARTY_BYTES:
        raise DeckFileError(
            f"file is larger than {MAX_PARTY_BYTES:,} bytes: not a party file", path=path
        )
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as err:
        line = data[: err.start].count(b"\n") + 1
        raise DeckFileError(
            "not UTF-8 text", path=path, line=line, hint="save the file as UTF-8"
        ) from err
    parser = _Parser(db, path)
    for lineno, raw in enumerate(text.splitlines(), start=1):
        parser.feed(raw, lineno)
    if len(parser.problems) == 1:
        raise parser.problems[0]
    if parser.problems:
        raise DeckProblems(parser.problems, path=path)
    if not parser.party.members:
        raise DeckFileError(
            "no characters in this party", path=path, hint="list them under [characters]"
        )
    return parser.party


def read_party(path: Path, db: CardDB) -> Party:
    # Only a regular file is read (a FIFO would block, a device never end), within the bound.
    data = read_bytes(
        path,
        what="party file",
        error=DeckFileError,
        limit=MAX_PARTY_BYTES,
        hint="a party file lists its characters and advantage cards",
    )
    return parse_party_bytes(data, db, path)
