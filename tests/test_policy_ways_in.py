"""The goal search asks `queries.may_unlock` once for a party before it asks `unlocked` location by
location (the player's time in long games: benchmarks/bench_paired.py, long-solo 1.35x). Each
kind of way in that `unlocked` knows must still make a location a goal: a carried item's UNLOCK
(Antiques), an equipment's EASE (Electronic Day Planner), a global effect's EASE (Breaking and
Entering), a once-a-game UNLOCK (Alarm Clock); a party with none has none."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deckkit.animayhem.engine.policy import HeuristicPolicy
from deckkit.animayhem.engine.queries import may_unlock, unlocked
from deckkit.animayhem.engine.state import Char, Game, Loc
from tests.engine_helpers import add_char, copy_of
from tests.test_vocabulary_rules import (
    arm,
    dream_location,
    genom_tower_table,
    shipped_copy,
    table,
)


def _museum() -> tuple[Game, Char, int]:
    game = table()
    game.locs[4] = Loc(4, copy_of(game, "Museum"))
    return game, add_char(game, "Nene Romanova", 4), 4


def _dream() -> tuple[Game, Char, int]:
    game = table()
    game.locs[4] = Loc(4, dream_location(game))
    return game, add_char(game, "Nene Romanova", 4), 4


def _antiques(game: Game, c: Char) -> None:
    c.items.append(shipped_copy(game, "Antiques"))


def _planner(game: Game, c: Char) -> None:
    c.equipment.append(shipped_copy(game, "Electronic Day Planner"))


def _breaking_in(game: Game, c: Char) -> None:
    game.globals_in_play.append((shipped_copy(game, "Breaking and Entering"), 5))


def _alarm_clock(game: Game, c: Char) -> None:
    c.items.append(shipped_copy(game, "Alarm Clock"))


@pytest.mark.parametrize(
    ("where", "way_in"),
    [
        (_museum, _antiques),
        (genom_tower_table, _planner),
        (genom_tower_table, _breaking_in),
        (_dream, _alarm_clock),
    ],
    ids=["carried-unlock", "equipment-ease", "global-ease", "once-a-game-unlock"],
)
def test_every_way_in_still_makes_a_goal(
    where: Callable[[], tuple[Game, Char, int]], way_in: Callable[[Game, Char], None]
) -> None:
    game, c, slot = where()
    game.locs[slot].hidden_cards.append(copy_of(game, "Keys"))  # something to scavenge there
    arm(game)
    assert not may_unlock(game, [c]) and not unlocked(game, [c], slot)
    assert slot not in HeuristicPolicy()._targets(game, [c])  # no listing met, no way in
    way_in(game, c)
    arm(game)
    assert unlocked(game, [c], slot)
    assert may_unlock(game, [c])
    assert slot in HeuristicPolicy()._targets(game, [c])
