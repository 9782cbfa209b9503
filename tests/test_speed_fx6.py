"""The question whether a game's effects answer to a trigger (abilities.answered) is read once
per effects dictionary: a card's effects added to a game's dictionary are seen at once, and
carried cards are looked up only for a trigger some card answers to."""

from __future__ import annotations

from deckkit.animayhem.engine.abilities import answered, carries_effects_for
from deckkit.animayhem.engine.codes import TRIGGER_ALWAYS, TRIGGER_HURT, TRIGGER_ROUND, TRIGGER_TURN
from deckkit.animayhem.engine.interpreter.common import by_trigger
from tests.engine_helpers import NINE, add_char, bare_game, copy_of


def test_a_card_s_effects_added_to_a_game_are_answered_at_once() -> None:
    game = bare_game(NINE)
    c = add_char(game, "A-ko Magami", 0)
    sword = copy_of(game, "Red Dragon Spirit Capture Star Sword")
    c.equipment.append(sword)
    assert not answered(game, TRIGGER_ALWAYS)
    assert not carries_effects_for(game, c, TRIGGER_ALWAYS)
    fx = by_trigger(sword.card.effects)  # type: ignore[arg-type]
    assert fx is not None and TRIGGER_ROUND in fx  # its bonus each combat round
    game.fx[sword.card.id] = fx
    for trigger in (TRIGGER_ALWAYS, TRIGGER_ROUND, TRIGGER_HURT, TRIGGER_TURN):
        assert answered(game, trigger) == (trigger in fx)
        assert carries_effects_for(game, c, trigger) == (trigger in fx)
    # Another game's dictionary is read again, though of the same size.
    other = bare_game(NINE)
    other.fx[sword.card.id] = {}
    assert not answered(other, TRIGGER_ROUND)
    assert answered(game, TRIGGER_ROUND)
