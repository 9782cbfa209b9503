"""The numbers of Animus v3.5 (rules.toml) and the type-advantage order (a card set's types.toml).

Numbers are data read once; the engine takes them from a :class:`RuleNumbers`, so a test can
check each against the passage it comes from.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from deckkit.errors import CardDataError
from deckkit.untrusted import read_text


@dataclass(frozen=True, slots=True)
class PyramidLayout:
    """Rows from the back (0) to the front; face-up rows at the start of the draft."""

    name: str
    rows: tuple[int, ...]
    face_up_rows: frozenset[int]

    @property
    def size(self) -> int:
        return sum(self.rows)


@dataclass(frozen=True, slots=True)
class RuleNumbers:
    team_size: int
    pyramid_size: int
    hand_size: int
    opening_hand: int
    kill_tokens: int
    levels_to_win: int
    die_sides: int
    advantage_dice: int
    range_slots: int
    entities_dealt: int
    opening_picks: tuple[int, ...]
    layouts: dict[str, PyramidLayout]


@cache
def rule_numbers() -> RuleNumbers:
    """The shipped rules.toml (packaged with deckkit)."""
    source = resources.files("deckkit.animus.construction").joinpath("rules.toml")
    data = tomllib.loads(source.read_text("utf-8"))
    layouts = {
        name: PyramidLayout(name, tuple(spec["rows"]), frozenset(spec["face_up_rows"]))
        for name, spec in data.pop("pyramid")["layouts"].items()
    }
    for layout in layouts.values():
        if layout.size != data["pyramid_size"]:
            raise CardDataError(f"pyramid layout {layout.name!r} does not hold 18 cards")
    data["opening_picks"] = tuple(data["opening_picks"])
    return RuleNumbers(layouts=layouts, **data)


@dataclass(frozen=True, slots=True)
class TypeOrder:
    """The card types and which type each one beats by default."""

    types: tuple[str, ...]
    beats: dict[str, str]
    path: str = ""

    def default_advantage(self, card_type: str) -> str:
        return self.beats[card_type]


def load_types(path: Path) -> TypeOrder:
    """Read a types.toml: every type named once, each beats another known type."""
    text = read_text(path, what="type order", error=CardDataError)
    try:
        data = tomllib.loads(text)
    except RecursionError:
        raise CardDataError("the type order is nested too deeply to be read", path=path) from None
    except tomllib.TOMLDecodeError as err:
        raise CardDataError(
            f"not valid TOML: {err}", path=path, line=getattr(err, "lineno", None)
        ) from None
    types = data.get("types")
    beats = data.get("beats")
    if not isinstance(types, list) or not types or not all(isinstance(t, str) for t in types):
        raise CardDataError("'types' must be a list of type names", path=path)
    if len(set(types)) != len(types):
        raise CardDataError("a type is named twice in 'types'", path=path)
    if not isinstance(beats, dict):
        raise CardDataError("a [beats] table is missing", path=path, hint='e.g. Power = "Talent"')
    for t in types:
        if beats.get(t) not in types:
            raise CardDataError(
                f"[beats] must name, for type {t!r}, one of the types it beats",
                path=path,
                hint=f"types: {', '.join(types)}",
            )
    extra = set(beats) - set(types)
    if extra:
        raise CardDataError(f"[beats] names unknown types: {', '.join(sorted(extra))}", path=path)
    return TypeOrder(tuple(types), {t: beats[t] for t in types}, str(path))
