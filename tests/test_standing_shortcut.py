"""``abilities._reached``, the shortcut :func:`abilities.refresh` asks before it gathers a
character's standing effects, against its definition: whenever it says nothing can reach a
character, :func:`abilities.standing_mods` finds nothing for it (no modifier, no granted skill:
the skill counts it returns are the character's ``base_skills`` themselves).
Checked on every character at every Move phase of games of each solitaire sample deck.
Removing the havens' line from the shortcut does not fail this test: no sample deck's haven has
a standing effect that reaches a character, so no test here holds that line (nor, for the same
reason, the games' fingerprint)."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckkit.animayhem.engine.abilities import _reached, standing_mods
from deckkit.animayhem.engine.policy import HeuristicPolicy
from deckkit.animayhem.engine.state import Char, Dis, Game
from tests.engine_helpers import play_sample_deck

ROOT = Path(__file__).resolve().parent.parent
DECKS = sorted(p.name for p in (ROOT / "decks").glob("*-solo*.deck"))


class _Checked(HeuristicPolicy):
    """The heuristic player, checking the shortcut on the whole party at each Move phase."""

    def __init__(self) -> None:
        super().__init__()
        self.unreached = 0
        self.reached = 0
        self.missed: list[str] = []

    def _nearest_goal(
        self, game: Game, anchor: int, party: list[Char], hunt: list[Dis]
    ) -> int | None:
        for c in game.chars:
            if _reached(game, c):
                self.reached += 1  # standing_mods would count its effects: not called twice
                continue
            self.unreached += 1
            mods, counts = standing_mods(game, c)
            # No modifier, and the skill counts are the character's own (a copy when any
            # skill is granted or taken away).
            if mods or counts is not c.base_skills:
                self.missed.append(f"turn {game.turn}: {c.g.name} {mods} {counts}")
        return super()._nearest_goal(game, anchor, party, hunt)


@pytest.mark.parametrize("deck", DECKS)
def test_nothing_reaches_a_character_the_shortcut_passes_over(deck: str) -> None:
    policy = _Checked()
    play_sample_deck(deck, policy, 3, 40)
    assert policy.unreached > 100
    assert policy.missed == []


def test_the_shortcut_is_not_always_no() -> None:
    """A deck with standing effects in play: the shortcut says yes for some characters."""
    reached = 0
    for deck in DECKS:
        policy = _Checked()
        play_sample_deck(deck, policy, 3, 10)
        reached += policy.reached
    assert reached > 0
