"""The heuristic player's retreat: when a party fights on against a disaster it may not beat.

A retreat is no free way out (set0 rulebook, "Declare Retreat": the disaster deals its damage to
one of the retreating characters, who deal none back), and a disaster defeated hands what it
carries to the party that beat it (combat.defeat_disaster).
"""

from __future__ import annotations

from deckkit.animayhem.engine.policy import FIGHT_FOR_ITEMS, HeuristicPolicy, can_beat
from tests.engine_helpers import add_char, copy_of, effect_table, new_disaster, on_field


def test_a_party_carrying_nothing_fights_on_for_a_disasters_item() -> None:
    """A-ko Magami alone at Sewer (slot 0) meets Freeza (1st form), at full health and too
    strong to beat. Carrying nothing, against a Freeza that carries nothing, she retreats; when
    Freeza carries an item she fights on for it (a won fight takes it back, a lost one costs
    her no item); once she carries an item herself she retreats again. Before, she retreated
    in all three."""
    assert FIGHT_FOR_ITEMS
    game = effect_table()
    c = add_char(game, "A-ko Magami", 0)
    d = on_field(game, new_disaster(game, "Freeza (1st form)"), 0)
    assert d.health >= d.health_max and not can_beat(game, [c], d)
    player = HeuristicPolicy()
    assert player.retreat(game, d, [c], 1)
    d.carrying.append(copy_of(game, "Earrings"))
    assert not player.retreat(game, d, [c], 1)
    c.items.append(copy_of(game, "Keys"))
    assert player.retreat(game, d, [c], 1)
