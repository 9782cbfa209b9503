"""Automatic players for a battle. They choose; the rules (phases, positions, combat) act.

A player reads only what a human at the table sees: the board, both discard piles, its own
hand and the number of cards in each deck, never a deck's order or the opponent's hand.
"""

from __future__ import annotations

from functools import cache
from typing import Protocol

from deckkit.animus.construction.cards import Ability, Card, Effect, Keyword
from deckkit.animus.engine import queries
from deckkit.animus.engine.queries import Action, TacticalOption
from deckkit.animus.engine.state import MELEE, RANGE, Battle, Side, Slot, Unit


class BattlePolicy(Protocol):
    name: str

    def choose_play(
        self, battle: Battle, side: Side, mandatory: bool
    ) -> tuple[Card, Slot] | None: ...
    def choose_switch(self, battle: Battle, side: Side) -> tuple[Slot, Slot] | None: ...
    def choose_tactical(
        self, battle: Battle, side: Side, options: list[TacticalOption]
    ) -> int | None: ...
    def choose_combat(self, battle: Battle, side: Side, options: list[Action]) -> int | None: ...
    def choose_reset(self, battle: Battle, side: Side) -> Card | None: ...
    def damage_target(
        self, battle: Battle, side: Side, enemies: list[Unit], n: int
    ) -> Unit | None: ...
    def heal_target(self, battle: Battle, side: Side, hurt: list[Unit]) -> Unit | None: ...
    def shift_to_melee(self, battle: Battle, side: Side, candidates: list[Unit]) -> Unit: ...
    def shift_to_range(self, battle: Battle, side: Side, candidates: list[Unit]) -> Unit: ...


def _die(advantage: bool) -> tuple[float, ...]:
    """P(result = 1..6): one die, or the better of two."""
    return tuple(((2 * k - 1) / 36) if advantage else 1 / 6 for k in range(1, 7))


@cache
def fight_odds(a_value: int, a_adv: bool, d_value: int, d_adv: bool) -> tuple[float, float, float]:
    """(attacker wins, defender wins, tie) for one fight."""
    pa, pd = _die(a_adv), _die(d_adv)
    win = lose = tie = 0.0
    for i, p in enumerate(pa):
        for j, q in enumerate(pd):
            diff = (i + a_value) - (j + d_value)
            if diff > 0:
                win += p * q
            elif diff < 0:
                lose += p * q
            else:
                tie += p * q
    return win, lose, tie


def worth(battle: Battle, unit: Unit) -> float:
    """What one more damage token on a character is worth: its level over the tokens it still
    needs to die (a token that kills is worth the whole level)."""
    left = battle.kill_threshold(unit) - unit.damage
    return unit.card.level / max(left, 1)


def attack_gain(battle: Battle, attacker: Unit, target: Unit) -> float:
    kind = queries.value_kind(battle, attacker, target)
    a_adv = queries.has_advantage(battle, attacker, target)
    d_adv = queries.has_advantage(battle, target, attacker)
    if a_adv and d_adv and battle.options.mutual_advantage == "cancel":
        a_adv = d_adv = False
    win, lose, tie = fight_odds(
        battle.value(attacker, kind), a_adv, battle.value(target, kind), d_adv
    )
    wt, wa = worth(battle, target), worth(battle, attacker)
    return win * wt - lose * wa + tie * (wt - wa)


def _strength(card: Card, pos: str) -> float:
    return (card.melee if pos == MELEE else card.range) + 0.1 * card.level


class HeuristicPolicy:
    """Fills the front first with the card strongest there, attacks when the odds favour it,
    uses every useful ability, and hits the enemy it can kill, the highest level first."""

    name = "heuristic"

    def __init__(self, caution: float = 0.0) -> None:
        self.caution = caution  # attack when the expected gain exceeds -caution

    def choose_play(self, battle: Battle, side: Side, mandatory: bool) -> tuple[Card, Slot] | None:
        slots = queries.open_slots(battle, side)
        if not slots or not side.hand:
            return None
        slot = slots[0]
        pos = slot[0]
        if pos not in (MELEE, RANGE) and not mandatory:
            # Support: a card that works from there, or any when the hand is full.
            useful = [c for c in side.hand if _works_in_support(c)]
            if useful:
                return max(useful, key=lambda c: c.level), slot
            if len(side.hand) < battle.hand_size(side):
                return None
            return min(side.hand, key=lambda c: _strength(c, RANGE)), slot
        return max(side.hand, key=lambda c: _strength(c, pos)), slot

    def choose_switch(self, battle: Battle, side: Side) -> tuple[Slot, Slot] | None:
        front = side.melee
        if front is None:
            return None
        if battle.kill_threshold(front) - front.damage > 1:
            return None
        best: tuple[float, Slot] | None = None
        for k, u in enumerate(side.range):
            if u is None or battle.kill_threshold(u) - u.damage <= 1:
                continue
            score = battle.value(u, MELEE) - battle.value(front, MELEE) + 1
            if score > 0 and (best is None or score > best[0]):
                best = (score, (RANGE, k))
        return ((MELEE, 0), best[1]) if best else None

    def choose_tactical(
        self, battle: Battle, side: Side, options: list[TacticalOption]
    ) -> int | None:
        for i, (_, _, ability) in enumerate(options):
            if _useful(battle, side, ability):
                return i
        return None

    def choose_combat(self, battle: Battle, side: Side, options: list[Action]) -> int | None:
        best: tuple[float, int] | None = None
        for i, (kind, unit, what) in enumerate(options):
            if kind == "attack":
                assert isinstance(what, Unit)
                gain = attack_gain(battle, unit, what)
                if gain <= -self.caution:
                    continue
            else:
                assert not isinstance(what, Unit)
                if not _useful(battle, side, what):
                    continue
                gain = 0.5 * what.n
            if best is None or gain > best[0]:
                best = (gain, i)
        return best[1] if best else None

    def choose_reset(self, battle: Battle, side: Side) -> Card | None:
        for card in side.hand:
            if card.has(Keyword.RESET) and any(
                _useful(battle, side, a) for a in card.by_keyword[Keyword.RESET]
            ):
                return card
        return None

    def damage_target(self, battle: Battle, side: Side, enemies: list[Unit], n: int) -> Unit | None:
        if not enemies:
            return None
        killable = [u for u in enemies if u.damage + n >= battle.kill_threshold(u)]
        if killable:
            return max(killable, key=lambda u: u.card.level)
        return max(enemies, key=lambda u: worth(battle, u))

    def heal_target(self, battle: Battle, side: Side, hurt: list[Unit]) -> Unit | None:
        return max(hurt, key=lambda u: worth(battle, u)) if hurt else None

    def shift_to_melee(self, battle: Battle, side: Side, candidates: list[Unit]) -> Unit:
        return max(candidates, key=lambda u: battle.value(u, MELEE) - u.damage)

    def shift_to_range(self, battle: Battle, side: Side, candidates: list[Unit]) -> Unit:
        return max(candidates, key=lambda u: battle.value(u, RANGE) - u.damage)


class RandomPolicy(HeuristicPolicy):
    """Legal choices at random (from the battle's chance): a baseline to measure play against."""

    name = "random"

    def choose_play(self, battle: Battle, side: Side, mandatory: bool) -> tuple[Card, Slot] | None:
        slots = queries.open_slots(battle, side)
        if not slots or not side.hand or (not mandatory and battle.chance.below(4) == 0):
            return None
        return battle.chance.pick(side.hand), battle.chance.pick(slots)

    def choose_switch(self, battle: Battle, side: Side) -> tuple[Slot, Slot] | None:
        legal = queries.switches(side)
        if not legal or battle.chance.below(4) != 0:
            return None
        return battle.chance.pick(legal)

    def choose_combat(self, battle: Battle, side: Side, options: list[Action]) -> int | None:
        if battle.chance.below(5) == 0:
            return None
        return battle.chance.below(len(options))

    def damage_target(self, battle: Battle, side: Side, enemies: list[Unit], n: int) -> Unit | None:
        return battle.chance.pick(enemies) if enemies else None

    def shift_to_melee(self, battle: Battle, side: Side, candidates: list[Unit]) -> Unit:
        return battle.chance.pick(candidates)


def _works_in_support(card: Card) -> bool:
    return (
        card.has(Keyword.COMBAT)
        or card.has(Keyword.TACTICAL)
        or any(a.who == "team" for a in card.standing(Effect.BOOST))
    )


def _useful(battle: Battle, side: Side, ability: Ability) -> bool:
    if ability.effect is Effect.DAMAGE:
        return bool(battle.sides[1 - side.index].units())
    if ability.effect is Effect.HEAL:
        return any(u.damage > 0 for u in side.units())
    if ability.effect is Effect.DRAW:
        return bool(side.deck)
    return False


POLICIES: dict[str, type[HeuristicPolicy]] = {"heuristic": HeuristicPolicy, "random": RandomPolicy}


def make_policy(name: str) -> BattlePolicy:
    return POLICIES[name]()
