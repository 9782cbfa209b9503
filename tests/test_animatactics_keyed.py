"""The Anima Tactics records hashed on every cached look-up keep their hash
(deckkit/animatactics/engine/keyed.py): the same hash as their fields', kept after the first,
never carried by a pickle into another process (a string's hash differs there)."""

from __future__ import annotations

import copy
import dataclasses
import pickle

import pytest

from deckkit.animatactics.engine.abilities import Kit, Powers, Special
from deckkit.animatactics.engine.duel import Duellist
from deckkit.animatactics.engine.keyed import KeptHash

SPECIAL = Special("Blade", "melee", 3, attack=1, damage=2)
DUELLIST = Duellist("Kira", 6, 5, 6, 2, 10, 5, 3, Kit(specials=(SPECIAL,)), resistance=4)


@pytest.mark.parametrize("record", [SPECIAL, Kit(specials=(SPECIAL,)), Powers(cap=3), DUELLIST])
def test_the_kept_hash_is_the_fields_hash_kept_and_left_out_of_copies(record: object) -> None:
    assert type(record).__hash__ is KeptHash.__hash__  # not the dataclass's own
    fields = tuple(getattr(record, f.name) for f in dataclasses.fields(record))  # type: ignore[arg-type]
    assert hash(record) == hash(fields)
    assert "_kept_hash" in vars(record)
    for other in (pickle.loads(pickle.dumps(record)), copy.copy(record), copy.deepcopy(record)):
        assert "_kept_hash" not in vars(other)
        assert other == record and hash(other) == hash(record)


def test_a_changed_copy_has_its_own_hash() -> None:
    hash(DUELLIST)
    stronger = dataclasses.replace(DUELLIST, attack=7)
    assert stronger != DUELLIST
    assert hash(stronger) == hash(
        tuple(getattr(stronger, f.name) for f in dataclasses.fields(stronger))
    )
