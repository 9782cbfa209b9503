"""The player's goal: the nearest-first search asks fewer questions than listing every location
the party may scavenge, and must pick the very same goal."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.engine.play import start_game
from deckkit.animayhem.engine.policy import HeuristicPolicy, Move, _danger_slots, _loc_defense
from deckkit.animayhem.engine.state import Char, Dis, Game
from tests.engine_helpers import play_sample_deck, sample_setup

ROOT = Path(__file__).resolve().parent.parent


class _Checked(HeuristicPolicy):
    """The heuristic player, comparing the two ways to its goal at every Move phase."""

    def __init__(self) -> None:
        super().__init__()
        self.compared = 0
        self.hunted = 0
        self.mismatches: list[tuple[int | None, int | None]] = []

    def _nearest_goal(
        self, game: Game, anchor: int, party: list[Char], hunt: list[Dis]
    ) -> int | None:
        fast = super()._nearest_goal(game, anchor, party, hunt)
        full = self._pick_goal(game, anchor, self._targets(game, party), hunt, party)
        self.compared += 1
        self.hunted += bool(hunt)
        if fast != full:
            self.mismatches.append((fast, full))
        return full


@pytest.mark.parametrize("deck", ["demo-solo.deck", "hard-solo.deck", "tricky-solo.deck"])
def test_nearest_goal_is_the_goal_picked_among_all_targets(deck: str) -> None:
    policy = _Checked()
    play_sample_deck(deck, policy, 7, 60)
    assert policy.compared > 200
    assert policy.mismatches == []


class _CheckedBeyond(HeuristicPolicy):
    """The heuristic player, comparing the two ways to the goal past a hunted disaster
    (``HUNT_PASS_ON``) each time a party passes one on."""

    def __init__(self) -> None:
        super().__init__()
        self.compared = 0
        self.mismatches: list[tuple[int | None, int | None]] = []

    def _goal_beyond(self, game: Game, everyone: list[Char], slot: int) -> int | None:
        fast = super()._goal_beyond(game, everyone, slot)
        targets = [s for s in self._targets(game, everyone) if s != slot]
        full = self._pick_goal(game, slot, targets, [], everyone)
        self.compared += 1
        if fast != full:
            self.mismatches.append((fast, full))
        return full


# (tough's held hand keeps most disasters in the draw pile: its hunts are rarer, so more games.)
@pytest.mark.parametrize(("deck", "games"), [("medium-solo.deck", 60), ("tough-solo.deck", 200)])
def test_goal_past_a_hunt_is_the_goal_picked_among_all_targets(deck: str, games: int) -> None:
    policy = _CheckedBeyond()
    play_sample_deck(deck, policy, 7, games)
    assert policy.compared > 40
    assert policy.mismatches == []


class _CheckedTables(HeuristicPolicy):
    """The heuristic player, checking at every Move phase the tables the goal search keeps from
    call to call: the danger row (written again by each call, ``_danger_slots``) against the
    row read again after a game without disasters, and each location's defense by its copy's
    uid (``_loc_defense``) against its card's."""

    def __init__(self, quiet: Game) -> None:
        super().__init__()
        self.quiet = quiet
        self.compared = 0
        self.dangers = 0
        self.mismatches: list[str] = []

    def moves(self, game: Game, edition: Edition) -> list[Move]:
        first = list(_danger_slots(game))
        none = list(_danger_slots(self.quiet))
        again = list(_danger_slots(game))
        self.compared += 1
        self.dangers += any(first)
        if none != [0] * len(self.quiet.locs) or again != first:
            self.mismatches.append(f"danger {first} {none} {again}")
        for loc in game.locs:
            if _loc_defense(loc) != loc.card.defense:
                self.mismatches.append(f"defense {loc.card.id}")
        return super().moves(game, edition)


def test_the_goal_search_s_kept_tables_are_each_game_s_own() -> None:
    quiet = start_game(sample_setup("medium-solo.deck"), HeuristicPolicy(), 1, 0)
    assert not quiet.disasters
    for deck in ("hard-solo.deck", "demo-solo.deck", "hard-solo.deck"):
        policy = _CheckedTables(quiet)
        play_sample_deck(deck, policy, 3, 40)
        assert policy.compared > 100 and policy.dangers > 20
        assert policy.mismatches == []
