"""MOVE_TO picks its destination as ``min`` with the rule's keys would: the nearest character's
location (nearer first, then the lower slot), or the nearest combat disaster (fewer steps apart
on the path, then the earlier arrival); ties included (Part III "Ally Disaster"; Dobermans)."""

from __future__ import annotations

import random

from deckkit.animayhem.construction.vocabulary import Action, Effect, Target, Trigger
from deckkit.animayhem.engine.cardrules import GameEffect
from deckkit.animayhem.engine.field import all_distances
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import _move_to
from deckkit.animayhem.engine.movement import place_disaster
from deckkit.animayhem.engine.state import Game
from tests.engine_helpers import NINE, add_char, bare_game, new_disaster

TO_CHARACTER = GameEffect(
    Effect(Trigger.LANDS, Action.MOVE_TO, Target.SELF, to="nearest_character")
)
TO_DISASTER = GameEffect(Effect(Trigger.ENTERS, Action.MOVE_TO, Target.SELF, to="nearest_disaster"))


def _game(rng: random.Random) -> Game:
    game = bare_game(NINE)
    game.dist = all_distances(game.field)
    for _ in range(rng.randrange(0, 5)):
        c = add_char(game, "A-ko Magami", rng.randrange(9))
        if rng.random() < 0.2:
            c.zone = "haven"
    for _ in range(rng.randrange(1, 6)):
        d = new_disaster(game, rng.choice(("Bugrom, Type 1", "Goons", "Dobermans")))
        place_disaster(game, d, rng.randrange(9))
        d.entered = rng.randrange(3)  # repeated on purpose: the first of equals wins
    return game


def test_move_to_goes_where_min_with_the_rule_keys_goes() -> None:
    rng = random.Random(11)
    moved = 0
    for _ in range(400):
        game = _game(rng)
        d = game.disasters[0]
        here = game.slot_of(d)
        chars = game.on_field()
        dist = game.dist[here]
        want_char = min((c.slot for c in chars), key=lambda s: (dist[s], s)) if chars else None
        others = [o for o in game.disasters if o is not d and o.combat]
        near = min(others, key=lambda o: (abs(o.pos - d.pos), o.entered)) if others else None
        want_dis = game.slot_of(near) if near is not None else None

        start = d.pos
        assert _move_to(game, TO_CHARACTER, d) is (want_char is not None)
        assert game.slot_of(d) == (want_char if want_char is not None else here)
        d.pos = start
        assert _move_to(game, TO_DISASTER, d) is (want_dis is not None)
        assert game.slot_of(d) == (want_dis if want_dis is not None else here)
        moved += (want_char is not None) + (want_dis is not None)
    assert moved > 400  # both kinds of destination were found many times
