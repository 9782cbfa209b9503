"""Animus team files: a drafted team of 9, its Entity, and optionally the draft it came from.

The syntax follows Ani-Mayhem's deck files (``key: value`` headers, ``[section]`` lists of card
names, ``#`` comments); the ``game: animus`` header says which game the file is for. Format:
docs/animus-cards.md.
"""

from __future__ import annotations

import difflib
import stat
from dataclasses import dataclass, field
from pathlib import Path

from deckkit.animus.construction.carddb import CardSet, load_cards
from deckkit.animus.construction.cards import Card, Kind
from deckkit.animus.construction.options import RuleOptions, parse_options
from deckkit.errors import DeckFileError, DeckkitError, DeckProblems
from deckkit.textsafe import clipped
from deckkit.untrusted import read_bytes, read_head

MAX_BYTES = 200_000
HEADERS = ("game", "name", "cards", "entity", "drafted", "draft")
SECTIONS = ("team", "pyramid", "picks")
TEAM_HINT = "a team file is a few lines of text: docs/animus-cards.md"


@dataclass(frozen=True, slots=True)
class Team:
    path: Path
    name: str
    cards: tuple[Card, ...]
    card_set: CardSet
    entity: Card | None = None
    options: RuleOptions = field(default_factory=RuleOptions)
    # The draft, when the file records it: the pyramid back row first, then every pick in order.
    pyramid: tuple[Card, ...] = ()
    picks: tuple[Card, ...] = ()
    drafted: int | None = None  # 0 = drafted first, 1 = second
    # A draft seat: no fixed team; before every battle a fresh draft from the card set, with
    # this drafting policy (deckkit.animus.engine.draft).
    draft_policy: str | None = None
    lines: dict[str, int] = field(default_factory=dict)  # card name -> line in the team file

    @property
    def levels(self) -> int:
        return sum(c.level for c in self.cards)


def read_game(path: Path) -> str | None:
    """The ``game:`` header of a file, or None (read only up to the first section)."""
    head = read_head(path, MAX_BYTES)
    if head is None:
        return None
    for raw in head.decode("utf-8-sig", "replace").splitlines():
        line = raw.split("#", 1)[0].strip()
        if line.startswith("["):
            return None
        key, sep, value = line.partition(":")
        if sep and key.strip().lower() == "game":
            return value.strip().lower()
    return None


def read_team(path: Path, rule_overrides: list[str] | None = None) -> Team:
    """Parse and resolve a team file; every unknown name is reported at once."""
    raw = read_bytes(path, what="team file", error=DeckFileError, limit=MAX_BYTES, hint=TEAM_HINT)
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as err:
        at = raw[: err.start].count(b"\n") + 1
        raise DeckFileError("not UTF-8 text", path=path, line=at, hint="save it as UTF-8") from None
    headers: dict[str, tuple[str, int]] = {}
    rules: dict[str, str] = {}
    sections: dict[str, list[tuple[str, int]]] = {}
    current: str | None = None
    for number, raw_line in enumerate(text.splitlines(), start=1):
        line = raw_line.split("#", 1)[0].strip()
        if not line:
            continue
        if line.startswith("[") and line.endswith("]"):
            current = line[1:-1].strip().lower()
            if current not in SECTIONS:
                raise DeckFileError(
                    f"unknown section [{current}]",
                    path=path,
                    line=number,
                    hint=f"sections: {', '.join(f'[{s}]' for s in SECTIONS)}",
                )
            if current in sections:
                raise DeckFileError(f"section [{current}] appears twice", path=path, line=number)
            sections[current] = []
            continue
        if current is None:
            key, sep, value = line.partition(":")
            key = key.strip().lower()
            if not sep:
                raise DeckFileError(
                    f"expected 'key: value' before the first section, not {line!r}",
                    path=path,
                    line=number,
                    hint="card names go under [team]",
                )
            if key.startswith("rule."):
                rules[key[5:]] = value.strip()
            elif key in HEADERS:
                headers[key] = (value.strip(), number)
            else:
                raise DeckFileError(
                    f"unknown header {key!r}",
                    path=path,
                    line=number,
                    hint=f"headers: {', '.join(HEADERS)}, rule.NAME",
                )
            continue
        sections[current].append((line, number))
    game = headers.get("game", ("", 0))[0].lower()
    if game != "animus":
        raise DeckFileError(
            "not an Animus team file (no 'game: animus' header)",
            path=path,
            line=1,
            hint="put 'game: animus' at the top",
        )
    card_set = _card_set(path, headers.get("cards"))
    try:
        for item in rule_overrides or []:
            name, _, value = item.partition("=")
            rules[name.strip()] = value.strip()
        options = parse_options(rules)
    except DeckkitError as err:
        raise DeckFileError(err.message, path=path, hint=err.hint) from None
    problems: list[DeckFileError] = []

    def resolve(name: str, line: int) -> Card | None:
        card = card_set.find(name)
        if card is None:
            close = difflib.get_close_matches(name, [c.name for c in card_set.cards], n=1)
            problems.append(
                DeckFileError(
                    f"no card named {name!r} in {card_set.path.name}",
                    path=path,
                    line=line,
                    hint=f"did you mean {close[0]!r}?" if close else "check the spelling",
                )
            )
        return card

    draft_policy = headers["draft"][0] if "draft" in headers else None
    if draft_policy is not None:
        if "team" in sections:
            raise DeckFileError(
                "a draft seat ('draft:' header) lists no [team]: it drafts a new one each battle",
                path=path,
                line=headers["draft"][1],
                hint="remove the [team] section, or the 'draft:' line",
            )
        sections["team"] = []
    if "team" not in sections:
        raise DeckFileError(
            "the file has no [team] section", path=path, hint="list 9 cards under [team]"
        )
    cards = [resolve(n, ln) for n, ln in sections["team"]]
    entity = None
    if "entity" in headers:
        entity = resolve(*headers["entity"])
        if entity is not None and entity.kind is not Kind.ENTITY:
            problems.append(
                DeckFileError(
                    f"{entity.name!r} is a character, not an Entity",
                    path=path,
                    line=headers["entity"][1],
                )
            )
    pyramid = [resolve(n, ln) for n, ln in sections.get("pyramid", [])]
    picks = [resolve(n, ln) for n, ln in sections.get("picks", [])]
    drafted = None
    if "drafted" in headers:
        value, at = headers["drafted"]
        if value.lower() not in ("first", "second"):
            problems.append(
                DeckFileError(f"drafted is first or second, not {value!r}", path=path, line=at)
            )
        else:
            drafted = 0 if value.lower() == "first" else 1
    if problems:
        raise problems[0] if len(problems) == 1 else DeckProblems(problems, path=path)
    return Team(
        path=path,
        name=headers.get("name", (path.stem, 0))[0] or path.stem,
        cards=tuple(c for c in cards if c is not None),
        card_set=card_set,
        entity=entity,
        options=options,
        pyramid=tuple(c for c in pyramid if c is not None),
        picks=tuple(c for c in picks if c is not None),
        drafted=drafted,
        draft_policy=draft_policy,
        lines={n: ln for n, ln in sections["team"]},
    )


def _card_set(path: Path, given: tuple[str, int] | None) -> CardSet:
    """The card set a team's ``cards:`` line names: ``sample`` (or nothing) for the shipped
    made-up set, else a ``.csv`` file in the team file's directory or a folder below it
    (docs/animus-cards.md, "Team files"). A team file may come from someone else: its
    ``cards:`` line cannot make deckkit read, or quote, a file elsewhere on the machine."""
    if given is None or given[0].lower() in ("", "sample"):
        return load_cards(None)
    name, line = given
    shown_name = clipped(name)
    hint = (
        "'cards:' takes 'sample' or a .csv file's path relative to the team file, in its "
        "folder or below (copy or link a card file kept elsewhere next to the team)"
    )
    relative = Path(name)
    if relative.is_absolute() or ".." in relative.parts:
        raise DeckFileError(
            f"the card file {shown_name!r} is outside the team file's folder",
            path=path,
            line=line,
            hint=hint,
        )
    if relative.suffix.lower() != ".csv":
        raise DeckFileError(
            f"the card file {shown_name!r} is not a .csv file", path=path, line=line, hint=hint
        )
    where = path.parent / relative
    try:
        mode = where.stat().st_mode
    except (OSError, ValueError):
        raise DeckFileError(
            f"the card file {shown_name!r} does not exist", path=path, line=line, hint=hint
        ) from None
    if not stat.S_ISREG(mode):
        raise DeckFileError(
            f"the card file {shown_name!r} is not a regular file", path=path, line=line, hint=hint
        )
    return load_cards(where.resolve())
