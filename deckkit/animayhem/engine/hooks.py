"""The rules the effect interpreter calls back into, bound to one game's edition and policy.

The interpreter sits below combat and movement in the import graph (they call it at every
trigger); when an effect must knock a character out, defeat a disaster or start a combat, it
asks through this object, which setup puts on the game.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.combat import defeat_disaster, fight, knock_out
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy


class EngineHooks:
    """Implements :class:`deckkit.animayhem.engine.state.RuleHooks`."""

    __slots__ = ("edition", "policy")

    def __init__(self, edition: Edition, policy: Policy) -> None:
        self.edition = edition
        self.policy = policy

    def knock_out(self, game: Game, c: Char, how: str, by: Dis | None) -> None:
        if c.zone in ("field", "haven"):
            knock_out(game, c, how, by)

    def defeat(self, game: Game, d: Dis, winners: list[Char]) -> None:
        defeat_disaster(game, d, winners, self.policy)

    def attack(self, game: Game, d: Dis, slot: int) -> None:
        fight(game, self.edition, self.policy, d, slot, "disaster")

    def worth_an_item(self, game: Game, source: Dis | Char | Copy) -> bool:
        return self.policy.pay_item(game, source)

    def worth_using(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool:
        return self.policy.use_item(game, card, who, fought)

    def destination(self, game: Game, party: list[Char]) -> int:
        return self.policy.destination(game, party)
