"""Combat cards: the text of a card drawn in a combat round or a charm battle (PLAYED)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.construction.cards import AnyCard
from deckkit.animayhem.construction.requirements import requirement_met
from deckkit.animayhem.engine.cardrules import apply_mod
from deckkit.animayhem.engine.codes import (
    ACT_HEAL,
    SCOPE_COMBAT,
    TARGET_SELF,
    TRIGGER_PLAYED,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import Sides, _credit
from deckkit.animayhem.engine.queries import conditions_hold, fits
from deckkit.animayhem.engine.state import Char, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect
    from deckkit.animayhem.engine.state import Mods


# --- combat cards: the text of a card drawn in a combat round or a charm battle ----------


class _Foe:
    """A disaster as the skill-listing grammar sees it: its categories and current abilities;
    it has no skills or gender, so a filter naming those never matches it."""

    __slots__ = ("categories", "d", "gender", "name", "skill_counts")

    def __init__(self, d: Dis) -> None:
        self.d = d
        self.name = d.name
        self.gender = ""
        self.skill_counts: dict[str, int] = {}
        self.categories = frozenset(d.g.categories)

    def current(self, ability: str) -> int:
        d = self.d
        return {"damage": d.damage, "defense": d.defense, "movement": d.movement}.get(
            ability, d.charm if ability == "charm" else 0
        )

    def has_category(self, category: str) -> bool:
        return category in self.categories

    def carries(self, card_name: str) -> bool:
        return False  # a disaster's carried cards name no skill listing's term


def _meets(e: GameEffect, who: Char | Dis) -> bool:
    """``filter`` and ``exclude`` on a combat card's recipient or its opponent."""
    if isinstance(who, Char):
        return fits(e, who)
    foe = _Foe(who)
    if e.filter is not None and not requirement_met(e.filter, [foe]):
        return False
    return e.exclude is None or not requirement_met(e.exclude, [foe])


def combat_card(
    game: Game,
    card: AnyCard,
    who: Char | Dis,
    other: Char | Dis,
    slot: int,
    charm: bool,
    sides: Sides | None,
) -> tuple[list[Mods], list[Mods]]:
    """A combat card played on ``who`` against ``other`` (PLAYED): the modifiers for the
    recipient's side and for its opponent's this round. Charm modifiers belong to the card's
    charm half (a charm battle, ``charm``), everything else to its physical half (a combat
    round). ``if``/``unless`` test the party at the location, so they only reach a character;
    ``against`` names the disaster a character fights. A ``combat`` scope also lasts the rest
    of the combat (``sides``)."""
    mine: list[Mods] = []
    theirs: list[Mods] = []
    fx = game.fx.get(card.id)
    if fx is None:
        return mine, theirs
    acted = False
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        char_side = isinstance(who, Char)
        if (e.when_met is not None or e.unless_met is not None or e.against) and not char_side:
            continue
        if e.against and not (isinstance(other, Dis) and matches(other.g, e.against)):
            continue
        if not conditions_hold(game, e, slot):
            continue
        on = who if e.target is TARGET_SELF else other
        if not _meets(e, on):
            continue
        if e.do is ACT_HEAL:
            if charm:
                continue
            on.health = on.health_max
            acted = True
            continue
        mods = tuple((a, m) for a, m in e.mods if (a == "charm") is charm)
        if not mods:
            continue
        (mine if on is who else theirs).append(mods)
        if e.scope is SCOPE_COMBAT and sides is not None:
            if isinstance(on, Char):
                sides.char_mod(on.uid, mods, True)
            else:
                sides.dis_mod(mods, True)
        acted = True
    if acted:
        _credit(game, card)
    return mine, theirs


def apply_charm(mods: list[Mods], charm: int) -> int:
    for group in mods:
        for ability, mod in group:
            if ability == "charm":
                charm = apply_mod(mod, charm)
    return charm
