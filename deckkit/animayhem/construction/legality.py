"""Deck legality: check a parsed deck against one edition's construction rules and a variant.

The numbers come from the edition files (``editions/*.toml``); this module is the behaviour:
which count is compared with which, how transforming characters, havens-by-proxy and printed
limits interact, and how each violation explains its arithmetic and the fix. Every check cites
the section it follows.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from deckkit.animayhem.construction.cards import (
    POWER_TYPES,
    AnyCard,
    CardType,
    CharacterCard,
    DisasterCard,
)
from deckkit.animayhem.construction.deck import Deck
from deckkit.animayhem.construction.editions import (
    Edition,
    Variant,
    load_edition,
    load_variant,
)
from deckkit.errors import UsageError

#: Keys of ``LegalityReport.required`` (the JSON contract of ``deckkit validate``).
REQUIRED_KEYS: tuple[str, ...] = (
    "locations",
    "items",
    "disasters",
    "combat_disasters",
    "major_disasters",
)
_PILE_GROUP = {
    "characters": "character",
    "items": "item",
    "combat": "combat",
    "disasters": "disaster",
    "power": "power",
    "locations": "location",
    "havens": "haven",
}
_VERSION = re.compile(r"^(?P<base>.+?)\s*\((?P<version>[^()]*)\)$")


@dataclass(frozen=True, slots=True)
class Violation:
    """One broken rule: ``message`` shows the arithmetic, ``fix`` says what to add or remove."""

    rule: str
    message: str
    fix: str


@dataclass(frozen=True, slots=True)
class LegalityReport:
    """The verdict on one deck under one edition, variant and player count."""

    legal: bool
    edition: str
    variant: str
    players: int
    counts: dict[str, int]
    required: dict[str, int | None]
    violations: tuple[Violation, ...] = ()
    notes: tuple[str, ...] = ()
    formula: str = ""  # the disaster formula with this deck's numbers, "" for Skirmish

    def as_dict(self) -> dict[str, Any]:
        """The stable JSON shape of ``deckkit validate --format json``."""
        return {
            "legal": self.legal,
            "edition": self.edition,
            "variant": self.variant,
            "players": self.players,
            "counts": dict(self.counts),
            "required": {k: self.required.get(k) for k in REQUIRED_KEYS},
            "violations": [
                {"rule": v.rule, "message": v.message, "fix": v.fix} for v in self.violations
            ],
            "notes": list(self.notes),
        }


def group_of(card: AnyCard) -> str:
    """The copy-limit group of a card type (the four power types share "power")."""
    return "power" if card.type in POWER_TYPES else card.type.value


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" if n == 1 else f"{n} {word}s"


def _adjust(have: int, need: int, word: str) -> str:
    """Say what to add or remove ("add 2 locations") to hit an exact count."""
    if have < need:
        return f"add {_plural(need - have, word)}"
    return f"remove {_plural(have - need, word)}"


@dataclass
class _Tally:
    """Copies per card id, and the counts the rules compare."""

    cards: dict[str, AnyCard] = field(default_factory=dict)
    copies: Counter[str] = field(default_factory=Counter)
    counts: dict[str, int] = field(default_factory=dict)
    pairs: list[tuple[CharacterCard, CharacterCard]] = field(default_factory=list)


def _tally(deck: Deck) -> _Tally:
    t = _Tally()
    for entry in deck.entries:
        t.cards[entry.card.id] = entry.card
        t.copies[entry.card.id] += entry.count

    def total(*types: CardType) -> int:
        return sum(n for cid, n in t.copies.items() if t.cards[cid].type in types)

    # set0 "Transforming Characters": the two forms count as a single card for construction;
    # 1998 guidelines 2.5: the alternate card is not counted. A pair is one character, counted
    # at the larger of its two forms' copy counts.
    identities: dict[str, list[CharacterCard]] = {}
    for card in t.cards.values():
        if isinstance(card, CharacterCard):
            key = min(card.id, card.alternate_form) if card.alternate_form else card.id
            identities.setdefault(key, []).append(card)
    for forms in identities.values():
        if len(forms) > 1:
            a, b = sorted(forms, key=lambda c: c.id)
            t.pairs.append((a, b))
    disasters = [(t.cards[cid], n) for cid, n in t.copies.items()]
    t.counts = {
        "characters": sum(max(t.copies[c.id] for c in f) for f in identities.values()),
        "locations": total(CardType.LOCATION),
        "items": total(CardType.ITEM),
        "havens": total(CardType.HAVEN),
        "power": total(*POWER_TYPES),
        "equipment": total(CardType.EQUIPMENT),
        "enhancement": total(CardType.ENHANCEMENT),
        "flash_effect": total(CardType.FLASH_EFFECT),
        "global_effect": total(CardType.GLOBAL_EFFECT),
        "combat": total(CardType.COMBAT),
        "disasters": total(CardType.DISASTER),
        "combat_disasters": sum(
            n for c, n in disasters if isinstance(c, DisasterCard) and c.combat
        ),
        "major_disasters": sum(n for c, n in disasters if isinstance(c, DisasterCard) and c.major),
    }
    return t


class _Check:
    """Collects violations and notes for one deck."""

    def __init__(self, deck: Deck, edition: Edition, variant: Variant, players: int) -> None:
        self.deck, self.edition, self.variant, self.players = deck, edition, variant, players
        self.t = _tally(deck)
        self.c = self.t.counts
        self.violations: list[Violation] = []
        self.notes: list[str] = []
        self.required: dict[str, int | None] = dict.fromkeys(REQUIRED_KEYS)
        self.formula = ""

    def fail(self, rule: str, message: str, fix: str) -> None:
        self.violations.append(Violation(rule, message, fix))

    def exact(self, rule: str, have: int, need: int, word: str, why: str) -> None:
        if have != need:
            self.fail(rule, f"{why}; the deck has {_plural(have, word)}", _adjust(have, need, word))

    def at_least(self, rule: str, have: int, need: int, word: str, why: str) -> None:
        if have < need:
            self.fail(
                rule,
                f"{why}; the deck has {have}",
                f"add {need - have} {word}" + ("" if need - have == 1 else "s"),
            )

    # -- checks common to every variant ----------------------------------------------------

    def variant_players(self) -> None:
        # set0 Part IV: Big Square is a four-player field, Skirmish a two-player game.
        want = self.variant.players
        if want is not None and self.players != want:
            self.fail(
                "variant.players",
                f"{self.variant.title} is played by {want} players, not {self.players}",
                f"use --players {want} or another variant",
            )

    def copy_limits(self) -> None:
        e, v = self.edition, self.variant
        for cid, n in self.t.copies.items():
            card = self.t.cards[cid]
            group = group_of(card)
            limit = e.copy_limit(group)
            rule, why = f"copies.{group}", f"{e.name} allows at most {{limit}} of one {group} card"
            if group == "location" and v.location_duplicates:
                # set0 Part IV, Big Square: "more than 1 of any given location card".
                limit = None
            if card.deck_limit is not None:
                # Card text beats every rulebook (README precedence; fifth2018 "A limit printed
                # on a card overrides these").
                limit = card.deck_limit
                rule, why = "copies.printed", "the card itself says {limit} per deck"
            cap = v.pile_copy_limit if group != "character" else None
            if cap is not None and (limit is None or cap < limit):
                # set0 Part IV, Skirmish: at most 2 of any item, combat, disaster or power card.
                limit = cap
                rule, why = "skirmish.copies", "Skirmish allows at most {limit} of one card"
            if e.unique_one_copy and card.unique and (limit is None or limit > 1):
                # set0 Lexicon "Unique": only 1 of that card.
                limit = 1
                rule, why = "copies.unique", "a << Unique >> card may appear only {limit} time"
            if limit is not None and n > limit:
                self.fail(
                    rule,
                    f"{n} × {card.name}: " + why.format(limit=limit) + f"; {n} − {limit} = "
                    f"{n - limit} too many",
                    f"remove {n - limit} {card.name}",
                )

    def versions(self) -> None:
        # fifth2018: names differing only in a parenthesised version share one limit: the
        # type's limit of one version, or one of each version.
        if not self.edition.versions_share_limit:
            return
        families: dict[str, list[str]] = {}
        for cid in self.t.copies:
            m = _VERSION.match(self.t.cards[cid].name)
            if m:
                families.setdefault(m["base"].casefold(), []).append(cid)
        for ids in families.values():
            if len(ids) > 1 and any(self.t.copies[i] > 1 for i in ids):
                listed = ", ".join(f"{self.t.copies[i]} × {self.t.cards[i].name}" for i in ids)
                self.fail(
                    "copies.versions",
                    f"{listed}: versions of one card allow the type's limit of one version, or "
                    "one of each version",
                    "keep one version only, or one copy of each version",
                )

    def transforming(self) -> None:
        for a, b in self.t.pairs:
            if self.edition.transform_pair == "illegal":
                # 1998 guidelines 2.5: both forms of a transforming character may not be in a deck.
                self.fail(
                    "characters.transforming",
                    f"{a.name} and {b.name} are the two forms of one transforming character; "
                    f"{self.edition.name} forbids both in one deck",
                    f"remove {b.name} (keep the alternate form aside, outside the deck)",
                )
            else:
                # set0 "Transforming Characters": one form is set aside; the pair counts once.
                self.notes.append(
                    f"{a.name} and {b.name} are two forms of one character: one form is set "
                    "aside and the pair counts once."
                )

    # -- the standard construction (standard, straight-line, big-square) -------------------

    def standard(self) -> None:
        e, v, c = self.edition, self.variant, self.c
        havens = c["havens"]
        if v.locations_per_player is not None:
            need_l: int | None = v.locations_per_player
            table = f"{v.title}: {need_l} locations per player"
        else:
            need_l = e.locations_for(self.players)
            table = f"{e.name}, {_plural(self.players, 'player')}: {need_l} locations"
        field_l = c["locations"]
        if (
            havens == 0
            and e.haven_location_proxy
            and need_l is not None
            and c["locations"] == need_l + 1
        ):
            # set0 "Haven Cards" / 1996 setup: with no haven, a location card stands in as haven.
            field_l, havens = need_l, 1
            self.notes.append(
                f"No haven card: one of the {c['locations']} locations stands in as the haven "
                f"(a proxy, counted as the haven), leaving {need_l} on the field."
            )
        if need_l is not None:
            self.required["locations"] = need_l
            if field_l != need_l:
                extra = ""
                if c["havens"] == 0 and e.haven_location_proxy:
                    extra = f" ({need_l + 1} if one stands in as the haven)"
                self.fail(
                    "locations.count",
                    f"{table} (Deck Construction table); the deck has {c['locations']}{extra}",
                    _adjust(field_l, need_l, "location"),
                )
        if e.locations_odd:
            # fifth2018: any number of locations, but an odd number.
            if field_l % 2 == 0:
                self.fail(
                    "locations.odd",
                    f"{e.name} needs an odd number of locations; the deck has {field_l}",
                    "add or remove 1 location",
                )
            need_l = field_l
        locations = need_l if need_l is not None else field_l
        self.at_least(
            "havens.min",
            havens,
            e.min_havens,
            "haven",
            f"{e.name} needs {_plural(e.min_havens, 'haven')}"
            + (" (or a spare location as proxy)" if e.haven_location_proxy else ""),
        )
        self.at_least(
            "characters.min",
            c["characters"],
            e.min_characters,
            "character",
            f"{e.name} needs at least {_plural(e.min_characters, 'character')}",
        )
        if e.min_combat_cards:
            self.at_least(
                "combat_cards.min",
                c["combat"],
                e.min_combat_cards,
                "combat card",
                f"{e.name} needs at least {e.min_combat_cards} combat cards",
            )
        num, den = e.items_per_location
        need_i = e.items_for(locations)
        self.required["items"] = need_i
        ratio = "1 per location" if (num, den) == (1, 1) else f"ceil({num}×{locations}/{den})"
        self.exact(
            "items.count",
            c["items"],
            need_i,
            "item",
            f"items = {ratio} = {need_i} for {_plural(locations, 'location')}",
        )
        self.disasters(locations, havens)

    def disasters(self, locations: int, havens: int) -> None:
        e, c = self.edition, self.c
        f = e.disasters
        d = f.compute(locations, c["power"], c["characters"], havens, self.players)
        self.formula = d.arithmetic
        if f.rounding_note:
            self.notes.append(f.rounding_note)
        if d.clamped:
            self.notes.append(
                f"The disaster formula gives {d.raw} ({d.arithmetic}); a deck cannot hold fewer "
                "than 0 disasters, so deckkit requires 0."
            )
        self.required["disasters"] = d.value
        self.exact("disasters.count", c["disasters"], d.value, "disaster", d.arithmetic)
        need_c, need_m = f.combat_quota(d.value), f.major_quota(d.value)
        self.required["combat_disasters"] = need_c
        self.required["major_disasters"] = need_m
        cn, cd = f.combat_fraction
        mn, md = f.major_fraction
        self.at_least(
            "disasters.combat",
            c["combat_disasters"],
            need_c,
            "combat disaster",
            f"combat disasters ≥ ceil({cn}×{d.value}/{cd}) = {need_c}",
        )
        self.at_least(
            "disasters.major",
            c["major_disasters"],
            need_m,
            "major disaster",
            f"major disasters ≥ ceil({mn}×{d.value}/{md}) = {need_m}",
        )

    # -- Skirmish ---------------------------------------------------------------------------

    def skirmish(self) -> None:
        # set0 Part IV, "Two-player: Skirmish": five fixed piles, half the disasters combat.
        v, c = self.variant, self.c
        piles = dict(v.piles or ())
        for key, need in piles.items():
            word = _PILE_GROUP.get(key, key).replace("_", " ")
            self.exact(
                f"skirmish.{key}",
                c.get(key, 0),
                need,
                word if key != "power" else "power card",
                f"Skirmish piles: {need} {key}",
            )
        self.required.update(
            locations=piles.get("locations", 0),
            items=piles.get("items"),
            disasters=piles.get("disasters"),
            combat_disasters=v.pile_combat_disasters,
            major_disasters=0,
        )
        if v.pile_combat_disasters is not None:
            self.at_least(
                "skirmish.combat_disasters",
                c["combat_disasters"],
                v.pile_combat_disasters,
                "combat disaster",
                f"Skirmish: half of the {piles.get('disasters')} disasters must be combat "
                f"disasters (≥ {v.pile_combat_disasters})",
            )

    def run(self) -> LegalityReport:
        self.variant_players()
        if self.variant.piles is not None:
            self.skirmish()
        else:
            self.standard()
        self.transforming()
        self.copy_limits()
        self.versions()
        if self.edition.name == "fifth2018" and self.c["disasters"]:
            self.notes.append(
                "fifth2018 also bars non-combat disasters that cannot affect your own cards; "
                "deckkit does not check that."
            )
        if self.variant.name == "big-square":
            self.notes.append(
                "Big Square lets a player who lacks the cards for a legal deck build a non-legal "
                "one after an honest attempt; deckkit reports the deck as the rules see it."
            )
        return LegalityReport(
            legal=not self.violations,
            edition=self.edition.name,
            variant=self.variant.name,
            players=self.players,
            counts=dict(self.c),
            required=dict(self.required),
            violations=tuple(self.violations),
            notes=tuple(self.notes),
            formula=self.formula,
        )


def check_deck(
    deck: Deck,
    edition: Edition | str,
    variant: Variant | str = "standard",
    players: int = 1,
) -> LegalityReport:
    """Check ``deck`` for ``players`` players; editions and variants may be given by name."""
    if isinstance(edition, str):
        edition = load_edition(edition)
    if isinstance(variant, str):
        variant = load_variant(variant)
    if players < 1:
        raise UsageError(f"players must be at least 1, not {players}")
    return _Check(deck, edition, variant, players).run()


__all__ = ["REQUIRED_KEYS", "LegalityReport", "Violation", "check_deck", "group_of"]
