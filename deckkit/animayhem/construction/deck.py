"""A deck: the cards a player brings, with the header values that pick players, edition, variant;
and the parser of the plain-text deck file format (see ``parse_deck``)."""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from deckkit.animayhem.construction.cards import POWER_TYPES, AnyCard, CardType
from deckkit.animayhem.construction.editions import EDITIONS, VARIANTS
from deckkit.animayhem.construction.readings import parse_rule
from deckkit.errors import DeckFileError, DeckProblems, UsageError
from deckkit.untrusted import read_bytes


@dataclass(frozen=True, slots=True)
class DeckEntry:
    """One deck line: ``count`` copies of ``card``, read from ``line`` of the deck file."""

    card: AnyCard
    count: int
    line: int
    section: str | None = None


@dataclass(frozen=True, slots=True)
class Deck:
    """A parsed deck file. Header values are defaults the CLI flags override."""

    name: str
    entries: tuple[DeckEntry, ...]
    players: int | None = None
    edition: str | None = None
    variant: str | None = None
    path: Path | None = None
    header: dict[str, str] = field(default_factory=dict)
    # "rule: NAME=VALUE" lines: rule options (readings.py), defaults the CLI's --rule overrides.
    rules: tuple[tuple[str, str], ...] = ()

    def cards(self) -> Iterator[AnyCard]:
        """Every copy, one card object per physical card."""
        for e in self.entries:
            for _ in range(e.count):
                yield e.card

    def of_type(self, *types: CardType) -> list[AnyCard]:
        return [c for c in self.cards() if c.type in types]

    def count(self, *types: CardType) -> int:
        return sum(e.count for e in self.entries if e.card.type in types)


# --- The deck file parser --------------------------------------------------------------------
#
# Format (one deck per file, UTF-8, a BOM and CRLF line ends accepted):
#
#   name: Solo demo            <- header lines "key: value", only at the top of the file
#   players: 1                    keys: name, players, edition, variant, rule (repeatable:
#   rule: charm=every                "rule: NAME=VALUE", a rule option of readings.py)
#   # a comment                <- "#" starting a line, or " # ..." after a card (a "#" right
#   [locations]                   before a digit, as in "Goku #33", is part of the name)
#   Galaxy Police HQ           <- one copy
#   3 Dragon Ball              <- "N Name", "Nx Name", "N x Name": N copies
#
# Card names that start with a number ("2 Dragon Balls", "3 Way Rumble") are resolved by trying
# the whole line as a name FIRST: "2 Dragon Balls" is one copy of the card "2 Dragon Balls", and
# "2x Dragon Balls" two copies of "Dragon Balls". Writing the count ("1 2 Dragon Balls") is
# never ambiguous. A `[section]` header (characters, locations, items, havens, power, disasters,
# combat) is optional; when present, each card under it must be of that type. Repeated lines of one
# card add up.

HEADER_KEYS: tuple[str, ...] = ("name", "players", "edition", "variant", "rule", "game")
MAX_COPIES = 999  # far beyond any legal deck; stops "10000000 Goku" from building a huge list

_SECTIONS: dict[str, frozenset[CardType]] = {
    "characters": frozenset({CardType.CHARACTER}),
    "locations": frozenset({CardType.LOCATION}),
    "items": frozenset({CardType.ITEM}),
    "havens": frozenset({CardType.HAVEN}),
    "power": POWER_TYPES,
    "disasters": frozenset({CardType.DISASTER}),
    "combat": frozenset({CardType.COMBAT}),
}
_SECTION_ALIASES: dict[str, str] = {
    **{s: s for s in _SECTIONS},
    **{s[:-1]: s for s in _SECTIONS if s.endswith("s")},
    "power cards": "power",
    "combat cards": "combat",
    **{t.value: "power" for t in POWER_TYPES},
}

_HEADER_RE = re.compile(r"^([A-Za-z][A-Za-z_-]*)\s*:\s*(.*)$")
_SECTION_RE = re.compile(r"^\[(.*)\]$")
_COUNT_RE = re.compile(r"^(\d+)\s+(.+)$")  # "3 Card Name"
_COUNT_X_RE = re.compile(r"^(\d+)(?:\s*[xX×]\s+|[xX×])(.+)$")  # "3x Card Name", "3 x Card Name"
_COMMENT_RE = re.compile(r"(?:^|\s)#(?=\s|$)")


class CardLookup(Protocol):
    """What the parser needs from the card database (``construction.carddb.CardDB``)."""

    def lookup(self, name: str) -> list[AnyCard]: ...

    def suggest(self, name: str, n: int = 3) -> list[str]: ...


def _strip_comment(line: str) -> str:
    if line.lstrip().startswith("#"):
        return ""
    m = _COMMENT_RE.search(line)
    return line[: m.start()] if m else line


def _disambiguated(card: AnyCard) -> str:
    digits = card.id[2:] if card.id.startswith("am") else ""
    return f"{card.name} #{int(digits)}" if digits.isdigit() else card.id


class _Parser:
    def __init__(self, db: CardLookup, path: Path | None) -> None:
        self.db = db
        self.path = path
        self.header: dict[str, str] = {}
        self.rules: list[tuple[str, str]] = []
        self.header_lines: dict[str, int] = {}
        self.entries: dict[str, DeckEntry] = {}
        self.section: str | None = None
        self.in_header = True

    def error(self, message: str, line: int, hint: str | None = None) -> DeckFileError:
        return DeckFileError(message, path=self.path, line=line, hint=hint)

    def lookup(self, name: str, lineno: int) -> list[AnyCard]:
        try:
            return list(self.db.lookup(name))
        except DeckFileError:
            raise
        except Exception as err:  # a name the database cannot even look up
            raise self.error(f"cannot look up card name {name!r}: {err}", lineno) from err

    def feed(self, raw: str, lineno: int) -> None:
        if len(raw) > MAX_LINE_CHARS:
            raise self.error(
                f"line is {len(raw):,} characters long (at most {MAX_LINE_CHARS:,})",
                lineno,
                hint="one card per line: '3 Card Name'",
            )
        line = _strip_comment(raw).strip()
        if not line:
            return
        if self.in_header and self._header(line, lineno):
            return
        self.in_header = False
        m = _SECTION_RE.match(line)
        if m:
            key = " ".join(m.group(1).lower().split())
            if key not in _SECTION_ALIASES:
                raise self.error(
                    f"unknown section [{m.group(1)}]",
                    lineno,
                    hint="sections: " + ", ".join(f"[{s}]" for s in _SECTIONS),
                )
            self.section = _SECTION_ALIASES[key]
            return
        self._card(line, lineno)

    def _header(self, line: str, lineno: int) -> bool:
        m = _HEADER_RE.match(line)
        if not m:
            return False
        key, value = m.group(1).lower(), m.group(2).strip()
        if key not in HEADER_KEYS:
            if self.lookup(line, lineno):  # a card whose name has a colon ("Beware: Bathroom!")
                return False
            raise self.error(
                f"unknown header key {m.group(1)!r}",
                lineno,
                hint=f"header keys: {', '.join(HEADER_KEYS)}",
            )
        if key == "rule":
            try:
                self.rules.append(parse_rule(value, "rule"))
            except UsageError as err:
                raise self.error(err.message, lineno, hint=err.hint) from None
            return True
        if key in self.header:
            raise self.error(
                f"header {key!r} given twice (first on line {self.header_lines[key]})", lineno
            )
        if key == "players":
            if not value.isascii() or not value.isdigit() or int(value) < 1:
                raise self.error(
                    f"players must be a whole number of at least 1, not {value!r}", lineno
                )
            value = str(int(value))
        elif key == "edition" and value not in EDITIONS:
            raise self.error(
                f"unknown edition {value!r}", lineno, hint=f"editions: {', '.join(EDITIONS)}"
            )
        elif key == "game" and value.lower().replace(" ", "-") not in ("ani-mayhem", "animayhem"):
            # validate, simulate, report and cards send other games' files to their own
            # readers (deckkit.games); the commands that serve Ani-Mayhem only get here. One
            # line says so, rather than every line of the file as an unknown card.
            raise OtherGame(
                f"not an Ani-Mayhem deck: this file is for {value} (its 'game:' line)",
                path=self.path,
                line=lineno,
                hint="the README's command x game table says which command serves which game",
            )
        elif key == "variant" and value not in VARIANTS:
            raise self.error(
                f"unknown variant {value!r}", lineno, hint=f"variants: {', '.join(VARIANTS)}"
            )
        self.header[key] = value
        self.header_lines[key] = lineno
        return True

    def _card(self, line: str, lineno: int) -> None:
        count, name = 1, line
        found = self.lookup(line, lineno)  # the whole line first: "2 Dragon Balls" is a name
        for pattern in (_COUNT_RE, _COUNT_X_RE):  # then "3 Xenon" before "3x Name"
            m = pattern.match(line)
            if found or not m:
                continue
            count, name = int(m.group(1)), m.group(2).strip()
            found = self.lookup(name, lineno)
        if not found:
            hint = None
            try:
                close = list(self.db.suggest(name, 3))
            except Exception:  # suggestions are a courtesy; never let them mask the real error
                close = []
            if close:
                hint = "did you mean " + " or ".join(repr(c) for c in close) + "?"
            if self.section is None and _HEADER_RE.match(line) and not self.entries:
                hint = (hint + " " if hint else "") + "(header lines go at the top of the file)"
            raise self.error(f"unknown card {name!r}", lineno, hint=hint)
        if len(found) > 1:
            forms = ", ".join(f"{c.id} ({_disambiguated(c)})" for c in found)
            raise self.error(
                f"card name {name!r} is ambiguous: {len(found)} cards match",
                lineno,
                hint=f"write one of: {forms}",
            )
        if count < 1 or count > MAX_COPIES:
            raise self.error(f"copy count {count} is out of range 1-{MAX_COPIES}", lineno)
        card = found[0]
        if self.section is not None and card.type not in _SECTIONS[self.section]:
            raise self.error(
                f"{card.name!r} is a {card.type.value.replace('_', ' ')} card,"
                f" not in section [{self.section}]",
                lineno,
                hint="move the line to the matching section or remove the section header",
            )
        prev = self.entries.get(card.id)
        if prev is None:
            self.entries[card.id] = DeckEntry(card, count, lineno, self.section)
        else:
            self.entries[card.id] = replace(prev, count=prev.count + count)
            if prev.count + count > MAX_COPIES:
                raise self.error(f"copy count of {card.name!r} exceeds {MAX_COPIES}", lineno)


class OtherGame(DeckFileError):
    """A file whose header names another game: the one problem reported for it."""


def parse_deck(text: str, db: CardLookup, path: Path | None = None) -> Deck:
    """Parse deck-file text (format above). Every problem raises :class:`DeckFileError` naming
    the line; nothing else escapes."""
    problems: list[DeckFileError] = []
    try:
        parser = _Parser(db, path)
        text = text.removeprefix("\ufeff")
        for lineno, raw in enumerate(text.split("\n"), start=1):
            try:
                parser.feed(raw.rstrip("\r"), lineno)
            except OtherGame:
                raise
            except DeckFileError as err:  # keep going: report every problem at once
                problems.append(err)
                if len(problems) >= MAX_PROBLEMS:
                    break
    except OtherGame:
        raise
    except Exception as err:  # a parser bug must still reach the user as a deck-file error
        raise DeckFileError(f"cannot parse deck: {err!r}", path=path) from err
    if len(problems) == 1:
        raise problems[0]
    if problems:
        raise DeckProblems(problems, path=path)
    if not parser.entries:
        raise DeckFileError(
            "the deck lists no cards", path=path, hint="one card per line: '3 Card Name'"
        )
    header = parser.header
    name = header.get("name") or (path.stem if path is not None else "deck")
    return Deck(
        name=name,
        entries=tuple(parser.entries.values()),
        players=int(header["players"]) if "players" in header else None,
        edition=header.get("edition"),
        variant=header.get("variant"),
        path=path,
        header=dict(header),
        rules=tuple(parser.rules),
    )


# Bounds on what a deck file may be: a real deck is a few kilobytes of short lines. Anything
# larger is not a deck (a log, a binary, a device), and must not cost memory or time.
MAX_DECK_BYTES = 1 << 20
MAX_LINE_CHARS = 1000
MAX_PROBLEMS = 50  # a file that is not a deck at all stops here, not at its millionth line


def read_deck(path: Path, db: CardLookup) -> Deck:
    """Read and parse a deck file; an unreadable file is a :class:`DeckFileError`.

    Only regular files are read (a FIFO or a device could block or never end), and at most
    :data:`MAX_DECK_BYTES` of them."""
    # No hint about a deck's lines here: the file could not be read at all (missing, a
    # directory, a device); a file too large to be a deck gets its hint from parse_deck_bytes.
    data = read_bytes(path, what="deck file", error=DeckFileError, limit=MAX_DECK_BYTES)
    return parse_deck_bytes(data, db, path)


def parse_deck_bytes(data: bytes, db: CardLookup, path: Path | None) -> Deck:
    """Decode and parse a deck read from a file or standard input, within the size bounds."""
    if len(data) > MAX_DECK_BYTES:
        raise DeckFileError(
            f"deck file is larger than {MAX_DECK_BYTES // 1024} KiB: not a deck",
            path=path,
            hint="a deck lists one card per line",
        )
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as err:
        raise DeckFileError(
            f"deck file is not UTF-8 text (byte {err.start})",
            path=path,
            hint="save the file as UTF-8",
        ) from err
    return parse_deck(text, db, path)
