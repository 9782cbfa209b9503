"""The heuristic player's retreat: when a party fights on against a disaster it may not beat, and
where it goes when it retreats.

A retreat is no free way out (set0 rulebook, "Declare Retreat": the disaster deals its damage to
one of the retreating characters, who deal none back), and a disaster defeated hands what it
carries to the party that beat it (combat.defeat_disaster).
"""

from __future__ import annotations

from deckkit.animayhem.engine.play import effects_of
from deckkit.animayhem.engine.policy import (
    FIGHT_FOR_ITEMS,
    RETREAT_AWAY_FROM_RISK,
    WEAR_DOWN_ROUNDS,
    HeuristicPolicy,
    can_beat,
    can_hurt,
)
from deckkit.animayhem.engine.state import DMG
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


def test_a_party_does_not_fight_on_for_an_item_held_by_a_disaster_it_cannot_hurt() -> None:
    """Kishiime takes damage only from a character with Speed (SHIELD). Krillin and Goten, who
    have none, meet one carrying an item: they retreat, since no fight of theirs can take the
    item back. Before, they fought on for it until the round bound (hard-solo, 1,000 games:
    the search player retreated there and gained; paired, this change: hard +0.7 points, 95%
    CI +0.1 to +1.2, tough +0.9, +0.4 to +1.3, 2,000 games, seed 1)."""
    game = effect_table()
    party = [add_char(game, name, 0) for name in ("Krillin", "Goten")]
    d = new_disaster(game, "Kishiime")
    fx = effects_of([d.card])[d.card.id]
    d.fx = fx
    game.fx[d.card.id] = fx
    on_field(game, d, 0)
    d.carrying.append(copy_of(game, "Earrings"))
    player = HeuristicPolicy()
    assert d.health >= d.health_max and not can_beat(game, party, d)
    assert not can_hurt(game, party, d)
    assert player.retreat(game, d, party, 1)
    # Against Freeza, whom they can hurt if not beat, they fight on for its item as before.
    freeza = on_field(game, new_disaster(game, "Freeza (1st form)"), 0)
    freeza.carrying.append(copy_of(game, "Keys"))
    assert can_hurt(game, party, freeza) and not player.retreat(game, freeza, party, 1)


def test_a_party_that_gets_past_the_defense_fights_on_to_wear_a_disaster_down() -> None:
    """A-ko Magami, Goten and Priss Asagiri (damage 4, 3 and 3) meet Kagato (defense 8, health
    8) at full health at Sewer: they deal it 2 a round, its health in 4 rounds, so they fight on
    (loss of health is cumulative during combat). Counting three rounds, they retreated. Goten
    and Priss alone (6) do not get past its defense and still retreat."""
    assert WEAR_DOWN_ROUNDS >= 4
    game = effect_table()
    party = [add_char(game, name, 0) for name in ("A-ko Magami", "Goten", "Priss Asagiri")]
    d = on_field(game, new_disaster(game, "Kagato"), 0)
    assert d.health >= d.health_max == 8
    assert sum(c.cur[DMG] for c in party) - d.defense == 2
    player = HeuristicPolicy()
    assert can_beat(game, party, d)
    assert not player.retreat(game, d, party, 1)
    assert player.retreat(game, d, party[1:], 1)


def test_a_retreat_out_of_reach_of_the_haven_steps_away_from_a_strikes_path() -> None:
    """A-ko Magami retreats from a fight at slot 6, whose legal steps are slots 3, 4 and 7
    (the haven, annexed to slot 1, is two steps away). Slots 3 and 4 are both one step from the
    haven; a Satellite Strike at slot 0 will pass slot 3 in its next movement (path 0, 3, 6, then
    its next cycle from slot 2), acting on whoever stands there, and never slot 4. She goes to
    slot 4; with no Strike on the field, to slot 3 as before. Before, she went to slot 3 in both."""
    assert RETREAT_AWAY_FROM_RISK
    game = effect_table()
    c = add_char(game, "A-ko Magami", 6)
    player = HeuristicPolicy()
    assert player.retreat_to(game, [c], 6) == 3
    strike = new_disaster(game, "Satellite Strike")
    fx = effects_of([strike.card])[strike.card.id]
    strike.fx = fx
    game.fx[strike.card.id] = fx
    on_field(game, strike, 0)
    assert player.retreat_to(game, [c], 6) == 4
