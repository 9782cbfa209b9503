"""Rule editions and field variants, loaded from the TOML files in ``editions/``.

The numbers of deck construction (location table, copy limits, the disaster formula and its
rounding, quotas) differ between the four rule sets a player may pick, so they are data; this
module only reads them into frozen records and does the arithmetic the files describe. The
precedence of the sources (card text > 1998 guidelines > 1996 general-play rules > Set 0 rulebook)
is reflected in what each file says; see the comments there for the section each number follows.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass
from functools import cache
from importlib import resources
from itertools import pairwise
from pathlib import Path
from typing import Any, Literal, get_args

from deckkit.errors import CardDataError, UsageError
from deckkit.untrusted import load_toml

EDITIONS: tuple[str, ...] = ("set0", "general1996", "guidelines1998", "fifth2018")
DEFAULT_EDITION = "guidelines1998"
VARIANTS: tuple[str, ...] = ("standard", "straight-line", "big-square", "skirmish")
DEFAULT_VARIANT = "standard"

Rounding = Literal["up", "down"]
KillRule = Literal["triple_damage", "double_health", "negative_health"]
CombatCardRule = Literal["one_each_side", "per_attacker"]
EndConditions = Literal["majority", "guidelines1998"]
TransformPair = Literal["set_aside", "illegal"]
PickupRule = Literal["after_first_movement", "first_item_location"]
CharmRule = Literal["choice", "first_automatic", "disaster", "every", "off"]
ItemPickup = Literal["beneath", "through"]
CharmTie = Literal["nothing", "lost"]
AfterCharm = Literal["continue", "stop"]
CharmLoss = Literal["combat", "until_attacked"]
CombatCardTo = Literal["attacked", "chosen"]
RetreatBlocked = Literal["stay", "no_retreat"]
LocationAttack = Literal["standing", "stopped"]
MajorityTrigger = Literal["each_side", "combined"]
AllScavenged = Literal["or_empty", "scavenged"]
HavenAbandoned = Literal["hand", "discard"]
BonkReturn = Literal["hand", "haven"]
CharmAllLost = Literal["any", "major"]
Term = Literal["power", "characters", "havens"]

#: Copy-limit groups: every card type maps to one (the four power types share "power").
GROUPS: tuple[str, ...] = ("character", "location", "item", "haven", "power", "disaster", "combat")


def rounded(num: int, den: int, rounding: Rounding) -> int:
    """``num / den`` rounded as an edition says (exact integer arithmetic, no floats)."""
    return -((-num) // den) if rounding == "up" else num // den


@dataclass(frozen=True, slots=True)
class PlayRules:
    """The play rules that differ between editions, for the game engine (field names are the
    engine's contract)."""

    kill: KillRule
    combat_cards: CombatCardRule
    disasters_skip_destroyed: bool
    end_conditions: EndConditions
    majority_needs_more_than_half: bool
    max_party: int | None
    hand_from_characters: bool
    hand_limit: int = 7
    max_on_field: int = 6
    starting_characters: int = 4
    # set0 "Maintenance Phase": a combat disaster takes an item after its first full movement;
    # 1996 rules: at the first location it moves to that has an item.
    pickup: PickupRule = "first_item_location"
    # set0 "Equip Phase": enhancements only on characters in a haven; 1996 rules "Equip": on
    # any character in play.
    enhance_in_haven_only: bool = False
    # set0 Part III "Steal" and 1996 rules: a stealer holding an item drops it and steals; the
    # 1998 guidelines ("Steal"): not while it holds a card it stole.
    steal_holding_stolen: bool = True
    # Who starts charm battles (set0's combat procedure: the disaster declares, then the player
    # may; 1996 rules: one is automatic when combat starts). The fields below are rule options
    # (readings.py), whose defaults are here; the edition files set only ``charm``.
    charm: CharmRule = "choice"
    item_pickup: ItemPickup = "through"
    charm_tie: CharmTie = "nothing"
    scavenge_after_charm: AfterCharm = "continue"
    stalemate_rounds: int = 30
    charm_loss: CharmLoss = "combat"
    combat_card: CombatCardTo = "attacked"
    retreat_blocked: RetreatBlocked = "stay"
    location_attack: LocationAttack = "standing"
    majority_trigger: MajorityTrigger = "each_side"
    all_scavenged: AllScavenged = "or_empty"
    haven_abandoned: HavenAbandoned = "hand"
    # Where a bonked character comes back after sitting out one of its owner's turns: set0
    # "Reload Phase" and the 1996 rules, to the hand at the Reload phase; 1998 guidelines, game
    # term "Bonked", to the starting haven at the Equip phase, health restored.
    bonked_return: BonkReturn = "hand"
    # Which disasters the special case of a charm battle lost by everyone at the location applies
    # to (no combat; the disaster takes the item and moves on): set0 "Special Case of a Character
    # Charming a Disaster" names any disaster ("any"); the 1996 rules, "Combat", only a major one
    # ("Each person at the location may engage in a Charm Combat with a Major Disaster ... That
    # Disaster will then discontinue Combat and leave with the Item"): "major".
    charm_all_lost: CharmAllLost = "any"


@dataclass(frozen=True, slots=True)
class DisasterCount:
    """The disaster count D for one deck, with the arithmetic spelled out for reports."""

    value: int  # clamped at zero
    raw: int  # before clamping
    arithmetic: str  # "D = 2×9 + ceil((18 + 0 + 0)/2) − 2×1 = 25"

    @property
    def clamped(self) -> bool:
        return self.raw < 0


@dataclass(frozen=True, slots=True)
class DisasterFormula:
    """D = per_location×L + round((P + extra characters + extra havens)/divisor) − per_player×N.

    One shape fits all three printed formulas: set0 counts characters beyond 4 and havens beyond
    1, general1996 counts all of them, fifth2018 folds extras into P and divides by 3."""

    per_location: int
    per_player: int
    divisor: int
    rounding: Rounding
    terms: tuple[Term, ...]
    characters_free: int
    havens_free: int
    rounding_note: str
    combat_fraction: tuple[int, int]
    major_fraction: tuple[int, int]

    def _term(self, term: Term, power: int, characters: int, havens: int) -> tuple[int, str]:
        if term == "power":
            return power, str(power)
        if term == "characters":
            n, free = characters, self.characters_free
        else:
            n, free = havens, self.havens_free
        if free == 0:
            return n, str(n)
        if n <= free:
            return 0, "0"
        return n - free, f"({n}−{free})"

    def compute(
        self, locations: int, power: int, characters: int, havens: int, players: int
    ) -> DisasterCount:
        """Evaluate the formula for one deck; a negative result clamps to zero."""
        values, shown = zip(
            *(self._term(t, power, characters, havens) for t in self.terms), strict=True
        )
        total = sum(values)
        half = rounded(total, self.divisor, self.rounding)
        raw = self.per_location * locations + half - self.per_player * players
        fn = "ceil" if self.rounding == "up" else "floor"
        inner = " + ".join(shown)
        if len(shown) > 1:
            inner = f"({inner})"
        text = f"D = {self.per_location}×{locations} + {fn}({inner}/{self.divisor})"
        if self.per_player:
            text += f" − {self.per_player}×{players}"
        text += f" = {raw}"
        if raw < 0:
            text += ", clamped to 0"
        return DisasterCount(value=max(raw, 0), raw=raw, arithmetic=text)

    def combat_quota(self, disasters: int) -> int:
        """At least this many combat disasters (rounded up in every edition)."""
        num, den = self.combat_fraction
        return rounded(disasters * num, den, "up")

    def major_quota(self, disasters: int) -> int:
        """At least this many major disasters (rounded up in every edition)."""
        num, den = self.major_fraction
        return rounded(disasters * num, den, "up")


@dataclass(frozen=True, slots=True)
class Edition:
    """One rule set's deck-construction numbers and play rules."""

    name: str
    title: str
    sources: tuple[str, ...]
    locations_by_players: tuple[tuple[int, int], ...]  # (fewest players, locations each)
    locations_odd: bool
    location_duplicates: bool
    items_per_location: tuple[int, int]
    copy_limits: tuple[tuple[str, int], ...]  # group -> max copies; absent = unlimited
    unique_one_copy: bool
    versions_share_limit: bool
    min_characters: int
    transform_pair: TransformPair
    min_havens: int
    haven_location_proxy: bool
    min_combat_cards: int
    disasters: DisasterFormula
    play: PlayRules

    def locations_for(self, players: int) -> int | None:
        """Locations each player brings, or None when the edition has no table (fifth2018)."""
        chosen: int | None = None
        for fewest, count in self.locations_by_players:
            if players >= fewest:
                chosen = count
        return chosen

    def items_for(self, locations: int) -> int:
        """Items a deck needs for ``locations`` locations (rounded up)."""
        num, den = self.items_per_location
        return rounded(locations * num, den, "up")

    def copy_limit(self, group: str) -> int | None:
        """Most copies of one card of ``group``; None = no limit."""
        return dict(self.copy_limits).get(group)


@dataclass(frozen=True, slots=True)
class Variant:
    """A field variant of set0 "Part IV: Other Topics"; only Big Square and Skirmish change the
    deck."""

    name: str
    title: str
    source: str
    players: int | None
    locations_per_player: int | None
    location_duplicates: bool
    piles: tuple[tuple[str, int], ...] | None  # Skirmish: exact pile sizes by count key
    pile_copy_limit: int | None
    pile_combat_disasters: int | None


def _read(filename: str) -> dict[str, Any]:
    """An edition file, read with the bounds of every file deckkit reads (a directory, a FIFO
    or a huge file in its place is broken data, exit 3)."""
    ref = resources.files("deckkit.animayhem.construction").joinpath("editions", filename)
    if not isinstance(ref, Path):  # pragma: no cover - an installation inside a zip file
        try:
            return tomllib.loads(ref.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as err:
            raise CardDataError(f"malformed edition file: {err}", path=filename) from err
    if not ref.exists():
        raise CardDataError(f"edition file missing: {filename}", path=filename)
    return load_toml(ref, what="edition file", error=CardDataError)


def _count(value: object, where: str, least: int = 0) -> int:
    """A whole number of at least ``least`` (a count, a limit, a divisor), or a data error
    naming the key: a negative limit or a zero divisor would only fail later, in arithmetic."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise CardDataError(f"{where}: expected a whole number, got {value!r}")
    if value < least:
        raise CardDataError(f"{where}: must be at least {least}, not {value}")
    return value


def _choice(value: object, literal: Any, where: str) -> Any:
    if value not in get_args(literal):
        raise CardDataError(f"{where}: {value!r} is not one of {get_args(literal)}")
    return value


def _pair(value: object, where: str) -> tuple[int, int]:
    if not (isinstance(value, list) and len(value) == 2 and all(isinstance(v, int) for v in value)):
        raise CardDataError(f"{where}: expected [numerator, denominator], got {value!r}")
    return _count(value[0], f"{where} numerator"), _count(value[1], f"{where} denominator", 1)


def _optional_count(value: object, where: str, least: int) -> int | None:
    return None if value is None else _count(value, where, least)


def _location_table(rows: object, odd: bool, where: str) -> tuple[tuple[int, int], ...]:
    """Rows of [fewest players, locations each], the first for one player, in ascending order,
    each with at least one location (a game needs a field). An empty table means "any number",
    which only an edition that still constrains the count (``odd``) may say: otherwise every
    deck would pass."""
    if not isinstance(rows, list):
        raise CardDataError(f"{where}: expected a list of [players, locations], got {rows!r}")
    table = []
    for row in rows:
        if not (isinstance(row, list) and len(row) == 2):
            raise CardDataError(f"{where}: expected [players, locations], got {row!r}")
        fewest, count = _count(row[0], f"{where} players", 1), _count(row[1], where, 1)
        table.append((fewest, count))
    if not table and not odd:
        raise CardDataError(
            f"{where} is empty and odd is false: nothing would limit a deck's locations",
            hint="give rows such as [[1, 9], [2, 7]], or set odd = true",
        )
    if table and table[0][0] != 1:
        raise CardDataError(f"{where}: the first row must be for 1 player, not {table[0][0]}")
    if any(a[0] >= b[0] for a, b in pairwise(table)):
        raise CardDataError(f"{where}: rows must go up in number of players")
    return tuple(table)


def _edition_from(data: dict[str, Any], filename: str) -> Edition:
    try:
        loc, dis, play = data["locations"], data["disasters"], data["play"]
        limits = data["copy_limits"]
        unknown = set(limits) - set(GROUPS)
        if unknown:
            raise CardDataError(f"unknown copy-limit group(s) {sorted(unknown)}", path=filename)
        max_party = play.get("max_party")
        return Edition(
            name=str(data["name"]),
            title=str(data["title"]),
            sources=tuple(str(s) for s in data.get("sources", ())),
            locations_by_players=_location_table(
                loc["by_players"], bool(loc["odd"]), "locations.by_players"
            ),
            locations_odd=bool(loc["odd"]),
            location_duplicates=bool(loc["duplicates"]),
            items_per_location=_pair(data["items"]["per_location"], "items.per_location"),
            copy_limits=tuple(
                (g, _count(limits[g], f"copy_limits.{g}")) for g in GROUPS if g in limits
            ),
            unique_one_copy=bool(data["cards"]["unique_one_copy"]),
            versions_share_limit=bool(data["cards"]["versions_share_limit"]),
            min_characters=_count(data["characters"]["min"], "characters.min"),
            transform_pair=_choice(
                data["characters"]["transform_pair"], TransformPair, "characters.transform_pair"
            ),
            min_havens=_count(data["havens"]["min"], "havens.min"),
            haven_location_proxy=bool(data["havens"]["location_proxy"]),
            min_combat_cards=_count(data["combat_cards"]["min"], "combat_cards.min"),
            disasters=DisasterFormula(
                per_location=_count(dis["per_location"], "disasters.per_location"),
                per_player=_count(dis["per_player"], "disasters.per_player"),
                divisor=_count(dis["divisor"], "disasters.divisor", 1),
                rounding=_choice(dis["rounding"], Rounding, "disasters.rounding"),
                terms=tuple(_choice(t, Term, "disasters.terms") for t in dis["terms"]),
                characters_free=_count(dis["characters_free"], "disasters.characters_free"),
                havens_free=_count(dis["havens_free"], "disasters.havens_free"),
                rounding_note=str(dis.get("rounding_note", "")),
                combat_fraction=_pair(dis["combat_fraction"], "disasters.combat_fraction"),
                major_fraction=_pair(dis["major_fraction"], "disasters.major_fraction"),
            ),
            play=PlayRules(
                kill=_choice(play["kill"], KillRule, "play.kill"),
                combat_cards=_choice(play["combat_cards"], CombatCardRule, "play.combat_cards"),
                disasters_skip_destroyed=bool(play["disasters_skip_destroyed"]),
                end_conditions=_choice(
                    play["end_conditions"], EndConditions, "play.end_conditions"
                ),
                majority_needs_more_than_half=bool(play["majority_needs_more_than_half"]),
                max_party=None if max_party is None else _count(max_party, "play.max_party", 1),
                hand_from_characters=bool(play["hand_from_characters"]),
                hand_limit=_count(play.get("hand_limit", 7), "play.hand_limit", 1),
                max_on_field=_count(play.get("max_on_field", 6), "play.max_on_field", 1),
                starting_characters=_count(
                    play.get("starting_characters", 4), "play.starting_characters", 1
                ),
                pickup=_choice(
                    play.get("pickup", "first_item_location"), PickupRule, "play.pickup"
                ),
                enhance_in_haven_only=bool(play.get("enhance_in_haven_only", False)),
                steal_holding_stolen=bool(play.get("steal_holding_stolen", True)),
                charm=_choice(play.get("charm", "choice"), CharmRule, "play.charm"),
                bonked_return=_choice(
                    play.get("bonked_return", "hand"), BonkReturn, "play.bonked_return"
                ),
                charm_all_lost=_choice(
                    play.get("charm_all_lost", "any"), CharmAllLost, "play.charm_all_lost"
                ),
            ),
        )
    except CardDataError as err:
        if err.path is None:
            raise CardDataError(err.message, path=filename) from err
        raise
    except (KeyError, TypeError, ValueError) as err:
        raise CardDataError(f"malformed edition file: {err!r}", path=filename) from err


def _unknown(kind: str, name: str, known: tuple[str, ...]) -> UsageError:
    return UsageError(f"unknown {kind} {name!r}", hint=f"choose one of: {', '.join(known)}")


@cache
def load_edition(name: str) -> Edition:
    """Read ``editions/<name>.toml``; an unknown name is a usage error (exit 2), a broken file a
    data error (exit 3)."""
    if name not in EDITIONS:
        raise _unknown("edition", name, EDITIONS)
    filename = f"{name}.toml"
    edition = _edition_from(_read(filename), filename)
    if edition.name != name:
        raise CardDataError(f"file says name = {edition.name!r}", path=filename)
    return edition


@cache
def load_variant(name: str) -> Variant:
    """Read one table of ``editions/variants.toml``."""
    if name not in VARIANTS:
        raise _unknown("variant", name, VARIANTS)
    return _variant_from(name, _read("variants.toml"))


def _variant_from(name: str, data: dict[str, Any]) -> Variant:
    """One variant's table, every value checked: a count is a whole number in range, not a
    word, a negative or a fraction that would only fail (or pass every deck) later."""
    try:
        v = data[name]
        if not isinstance(v, dict):
            raise CardDataError(f"[{name}] must be a table, not {v!r}")
        piles = v.get("piles")
        if piles is not None and not isinstance(piles, dict):
            raise CardDataError(f"{name}.piles must be a table of pile sizes, not {piles!r}")
        return Variant(
            name=name,
            title=str(v["title"]),
            source=str(v["source"]),
            players=_optional_count(v.get("players"), f"{name}.players", 1),
            locations_per_player=_optional_count(
                v.get("locations_per_player"), f"{name}.locations_per_player", 1
            ),
            location_duplicates=bool(v.get("location_duplicates", False)),
            piles=None
            if piles is None
            else tuple((str(k), _count(n, f"{name}.piles.{k}")) for k, n in piles.items()),
            pile_copy_limit=_optional_count(v.get("pile_copy_limit"), f"{name}.pile_copy_limit", 1),
            pile_combat_disasters=_optional_count(
                v.get("pile_combat_disasters"), f"{name}.pile_combat_disasters", 0
            ),
        )
    except CardDataError as err:
        raise CardDataError(
            f"malformed variant {name!r}: {err.message}", path="variants.toml", hint=err.hint
        ) from None
    except (KeyError, TypeError, ValueError, AttributeError) as err:
        raise CardDataError(f"malformed variant {name!r}: {err!r}", path="variants.toml") from err


__all__ = [
    "DEFAULT_EDITION",
    "DEFAULT_VARIANT",
    "EDITIONS",
    "GROUPS",
    "VARIANTS",
    "DisasterCount",
    "DisasterFormula",
    "Edition",
    "PlayRules",
    "Variant",
    "load_edition",
    "load_variant",
    "rounded",
]
