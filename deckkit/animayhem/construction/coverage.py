"""How much of the card text the engine plays: per card (full, approximate, none) and per type.

One source: a card's effect entry (card_db/animayhem/effects) says how faithfully the engine
plays it, and :func:`derive`, applied as the card database loads, lowers that where the engine
can tell by itself that it cannot play the card as printed (a requirement alternative it cannot
read, a printed column it never applies). Every output (``cards show``, ``cards list``,
``cards coverage``, the reports) reads ``Card.coverage``, so they cannot disagree.

The targets are deckkit's own goals for the card-effects work: a win rate means little when the
cards that make a deck hard are played as blank numbers, so every result also lists the deck's
cards that are not played in full.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from deckkit.animayhem.construction.cards import (
    POWER_TYPES,
    AnyCard,
    CardType,
    Coverage,
    LocationCard,
    PowerCard,
)
from deckkit.animayhem.construction.requirements import SpecialTerm
from deckkit.animayhem.construction.vocabulary import Action, CardEffects, Target, Trigger

if TYPE_CHECKING:
    from deckkit.animayhem.construction.carddb import CardDB

_RANK = {Coverage.FULL: 2, Coverage.APPROXIMATE: 1, Coverage.NONE: 0}
DERIVED = "derived: "  # how a note the engine wrote itself begins

# The abilities a printed modifier column can reach, by how the engine applies the card
# (engine/abilities.py refresh; engine/combat.py, the energy-cost and limited-use round bonus;
# engine/queries.py party_movement for vehicles). A column outside these is never applied.
_ROUND_ONLY = frozenset({"damage", "defense"})  # set0 "Enhancement": paid for one round
_VEHICLE = frozenset({"movement"})  # a vehicle's card is read for its movement only


def _unreadable(card: AnyCard, entry: CardEffects | None) -> tuple[Coverage, str] | None:
    """A requirement alternative holding a term the engine cannot read is never met
    (requirements.py, SpecialTerm): the card is at best approximate; a power card with no
    alternative left can never be played, and a location with none and no defense to attack
    can never be scavenged. A location printing no listing at all is never scavenged with
    skills: its entry says whether that is the card (Garlic Jr.'s Palace); without one, the
    engine says it."""
    if isinstance(card, LocationCard) and not card.requirement.alternatives and entry is None:
        if card.defense is not None:
            return (
                Coverage.APPROXIMATE,
                "it lists no skills: only attacking its defense scavenges it",
            )
        return Coverage.NONE, "it lists no skills and has no defense: it is never scavenged"
    if not isinstance(card, (LocationCard, PowerCard)) or card.requirement is None:
        return None
    bad = [
        alt for alt in card.requirement.alternatives if any(isinstance(t, SpecialTerm) for t in alt)
    ]
    if not bad:
        return None
    words = "; ".join(" & ".join(str(t) for t in alt) for alt in bad)
    if card.requirement.simulable:
        return Coverage.APPROXIMATE, f"the requirement alternative {words!r} is never met"
    if isinstance(card, LocationCard) and card.defense is not None:
        return Coverage.APPROXIMATE, (
            f"its requirement {words!r} is never met: only attacking its defense scavenges it"
        )
    return Coverage.NONE, f"its requirement {words!r} is never met"


def _ignored_columns(card: AnyCard, entry: CardEffects | None) -> tuple[Coverage, str] | None:
    """Printed modifiers the engine reads nowhere for this kind of card."""
    if not isinstance(card, PowerCard) or not card.modifiers:
        return None
    if entry is not None and not entry.columns:
        return None  # its effects play the text instead of the columns
    read: frozenset[str] | None = None
    why = ""
    if card.type is CardType.EQUIPMENT and card.vehicle:
        read, why = _VEHICLE, "a vehicle is read for its movement only"
    elif card.type is CardType.ENHANCEMENT and card.energy_cost:
        read, why = _ROUND_ONLY, "an energy cost pays for one combat round's damage and defense"
    elif card.type is CardType.ENHANCEMENT and card.uses is not None:
        read, why = _ROUND_ONLY, "a use pays for one combat round's damage and defense"
    elif card.type is CardType.EQUIPMENT and (card.energy_cost or card.uses is not None):
        read, why = _ROUND_ONLY, "a cost or use pays for one combat round's damage and defense"
    if read is None:
        return None
    dropped = [f"{a} {m}" for a, m in card.modifiers if a not in read]
    if not dropped:
        return None
    return Coverage.APPROXIMATE, f"its printed {', '.join(dropped)} is not applied ({why})"


# Actions whose effect spends a card's printed uses (its ``uses_left`` counter): LEAP (a move
# that needs it: Speed), EASE (a scavenging attempt it eases: Electronic Day Planner), and
# EQUIP_ANYWHERE naming cards (each card played: Medical Scanner).
_SPENDS_USES = frozenset({Action.LEAP, Action.EASE})


def _uncounted_uses(card: AnyCard, entry: CardEffects | None) -> tuple[Coverage, str] | None:
    """A card printing a usage limit (the uses column, "N uses": set0 rulebook, "Equipment
    Cards With Usage Limits", "Global Effect Cards With Usage Limits") is played as printed only
    where the engine counts those uses: its damage or defense columns a combat round a use
    (engine/combat.py, ``_activate``: equipment and enhancements without an energy cost), an
    effect that spends the card's counter (LEAP, EQUIP_ANYWHERE with cards), one limited to
    ``max_times``, or one that discards the card itself. Otherwise the bonus or effect never
    runs out: at best approximate."""
    if not isinstance(card, PowerCard) or card.uses is None:
        return None
    columns = entry is None or entry.columns
    if (
        columns
        and card.type in (CardType.EQUIPMENT, CardType.ENHANCEMENT)
        and not card.vehicle
        and not (card.type is CardType.ENHANCEMENT and card.energy_cost)
        and any(a in _ROUND_ONLY for a, _ in card.modifiers)
    ):
        return None
    if entry is not None and entry.coverage is Coverage.NONE:
        return None  # not played at all: nothing to run out
    for e in entry.effects if entry is not None else ():
        if e.max_times or e.do in _SPENDS_USES:
            return None
        if e.do is Action.EQUIP_ANYWHERE and e.cards:
            return None
        if e.do is Action.DISCARD and e.target is Target.SELF:
            return None
    uses = f"{card.uses} use" + ("" if card.uses == 1 else "s")
    return Coverage.APPROXIMATE, f"its usage limit ({uses}) is not counted: it never runs out"


def _party_bonus(entry: CardEffects | None, card: AnyCard) -> tuple[Coverage, str] | None:
    """A standing bonus a character or carried card lends to its whole group (``modify`` to
    ``here``) is weighed in fights with disasters only (interpreter.standing.party_lenders): not
    in a location's attack, its defense, nor an "Attack N+" skill listing."""
    if entry is None or card.type is CardType.LOCATION:
        return None
    for e in entry.effects:
        if (
            e.when is Trigger.ALWAYS
            and e.do is Action.MODIFY
            and e.target is Target.HERE
            and not e.against
            and any(stat in ("damage", "defense") for stat, _ in e.mods)
        ):
            return Coverage.APPROXIMATE, (
                "the bonus to its group counts in fights with disasters only, not against a "
                "location's damage or defense nor in an 'Attack N+' requirement"
            )
    return None


def derive(card: AnyCard, entry: CardEffects | None) -> CardEffects | None:
    """The card's entry with what the engine can tell about it applied: its coverage lowered
    and a ``derived:`` note added for each part of the card the engine cannot play. None when
    the card has no entry and nothing to derive (a card with no text is played in full)."""
    found = [
        x
        for x in (
            _unreadable(card, entry),
            _ignored_columns(card, entry),
            _party_bonus(entry, card),
            _uncounted_uses(card, entry),
        )
        if x is not None
    ]
    if not found:
        return entry
    coverage = entry.coverage if entry is not None else Coverage.FULL
    notes = [entry.note] if entry is not None and entry.note else []
    for cap, why in found:
        if _RANK[cap] < _RANK[coverage]:
            coverage = cap
        notes.append(DERIVED + why)
    note = "; ".join(notes)
    if entry is None:
        return CardEffects(card.id, coverage, note, (), "derived", True)
    return replace(entry, coverage=coverage, note=note)


# Share of cards `full` or `approximate` that the project aims for, by group.
TARGETS: dict[str, float] = {
    "disaster": 0.90,
    "character": 0.85,
    "power": 0.80,
    "location": 1.0,
    "item": 1.0,
    "haven": 1.0,
    "all": 0.85,
}


def group_of(card: AnyCard) -> str:
    """The coverage group: power cards together, every other type by itself."""
    return "power" if card.type in POWER_TYPES else card.type.value


@dataclass(frozen=True, slots=True)
class CoverageRow:
    group: str
    cards: int
    full: int
    approximate: int
    none: int

    @property
    def covered(self) -> float:
        return (self.full + self.approximate) / self.cards if self.cards else 1.0

    @property
    def target(self) -> float | None:
        return TARGETS.get(self.group)

    @property
    def meets_target(self) -> bool | None:
        t = self.target
        return None if t is None else self.covered >= t - 1e-9


def coverage_table(db: CardDB) -> list[CoverageRow]:
    """One row per card type (power cards also as one group), then ``all``."""
    counts: dict[str, list[int]] = {}
    order = [t.value for t in CardType if t not in POWER_TYPES]
    order.insert(order.index("combat"), "power")
    power_types = [t.value for t in CardType if t in POWER_TYPES]
    for card in db.cards:
        status, _ = db.coverage(card)
        idx = {Coverage.FULL: 0, Coverage.APPROXIMATE: 1, Coverage.NONE: 2}[status]
        keys = [group_of(card), "all"]
        if card.type in POWER_TYPES:
            keys.append(card.type.value)
        for key in keys:
            counts.setdefault(key, [0, 0, 0])[idx] += 1
    rows = []
    for group in [
        *order[: order.index("power") + 1],
        *power_types,
        *order[order.index("power") + 1 :],
        "all",
    ]:
        full, approx, none = counts.get(group, [0, 0, 0])
        rows.append(CoverageRow(group, full + approx + none, full, approx, none))
    return rows
