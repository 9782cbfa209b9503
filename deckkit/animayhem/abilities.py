"""Characters' current abilities and where they stand: what modifies an ability, and moving in
and out of the haven.

Set0 rulebook, Part I "Enhancement" (modifiers apply to base abilities), "Equipment" (usable when
the requirement is met; "Using Equipment Cards": no two modifying the same ability), "Global
Effect" (applies to current abilities), "Haven".
"""

from __future__ import annotations

from deckkit.animayhem.cards import PowerCard
from deckkit.animayhem.requirements import requirement_met
from deckkit.animayhem.state import ABILITY_INDEX, Char, Copy, Game


def usable(c: Char, card: PowerCard) -> bool:
    """A character can use a power card whose requirement it meets ("Equipment")."""
    return card.requirement is None or requirement_met(card.requirement, [c])


def _equipment_value(copy: Copy) -> int:
    """Sort key: larger additive bonuses first (negated for an ascending sort)."""
    card = copy.card
    assert isinstance(card, PowerCard)
    return -sum(m.value for _, m in card.modifiers if m.op == "+")


def refresh(game: Game, c: Char) -> None:
    """Recompute current abilities: enhancements apply to base abilities, then equipment (no two
    modifying the same ability: set0 rulebook, "Using Equipment Cards"), then global effects on
    characters on the field. Modifiers that need energy or uses apply only in combat."""
    cur = list(c.base)
    for copy in c.enhancements:
        card = copy.card
        assert isinstance(card, PowerCard)
        if card.energy_cost:
            continue
        for ability, mod in card.modifiers:
            i = ABILITY_INDEX[ability]
            cur[i] = mod.apply(c.base[i]) + (cur[i] - c.base[i])
    used: set[str] = set()
    # No two equipment cards modifying the same ability: the most valuable are used first.
    equipment = c.equipment if len(c.equipment) < 2 else sorted(c.equipment, key=_equipment_value)
    for copy in equipment:
        card = copy.card
        assert isinstance(card, PowerCard)
        if card.vehicle or copy.uses_left is not None or not card.modifiers:
            continue
        names = {a for a, _ in card.modifiers}
        if names & used or not usable(c, card):
            continue
        used |= names
        for ability, mod in card.modifiers:
            i = ABILITY_INDEX[ability]
            cur[i] = mod.apply(cur[i])
    if c.zone == "field":
        for copy, _ in game.globals_in_play:
            card = copy.card
            assert isinstance(card, PowerCard)
            if copy.uses_left is not None:
                continue
            for ability, mod in card.modifiers:
                i = ABILITY_INDEX[ability]
                cur[i] = mod.apply(cur[i])
    c.cur = (max(0, cur[0]), max(0, cur[1]), max(0, cur[2]), max(0, cur[3]), max(0, cur[4]))


def enter_haven(game: Game, c: Char) -> None:
    """Into the haven: items carried are stored there, safe from disasters."""
    c.zone = "haven"
    c.slot = -1
    if c.items:
        game.haven_cards.extend(c.items)
        c.items = []
    refresh(game, c)
