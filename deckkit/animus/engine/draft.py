"""The draft (animus-rules-v3.5.txt, "Setup", Draft Characters) and pluggable drafting policies.

"Shuffle all the character cards and have each player roll a die. High roller drafts first.
Draw 18 face-down cards from the deck and set them up between the players ... The first player
to draft may select 1 card available ... The second player to draft, will then select 2 cards
to keep; each is chosen one at a time and the player can wait until a card is revealed before
choosing. After the second player chooses 2 cards, each player will alternate drafting a single
card at a time until all of the cards have been taken."

A drafting policy sees what the players see: the face-up cards, which of them may be taken, both
players' picks so far and how many cards are still face down; never a face-down card.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Protocol

from deckkit.animus.construction.carddb import CardSet
from deckkit.animus.construction.cards import Card
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.pyramid import Pyramid, Shape, picker_order
from deckkit.animus.construction.rules import TypeOrder, rule_numbers
from deckkit.animus.engine.play import high_roller
from deckkit.core.chance import Chance


@dataclass(frozen=True, slots=True)
class DraftView:
    """One decision: the cards that may be taken (slot -> card) and what is public."""

    available: dict[int, Card]
    visible: dict[int, Card]
    mine: tuple[Card, ...]
    theirs: tuple[Card, ...]
    face_down: int
    types: TypeOrder


class DraftPolicy(Protocol):
    name: str

    def pick(self, view: DraftView, chance: Chance) -> int: ...


class RandomDraft:
    """Any available card, at random."""

    name = "random"

    def pick(self, view: DraftView, chance: Chance) -> int:
        return chance.pick(sorted(view.available))


VALUES: dict[str, Callable[[Card], float]] = {
    "level": lambda c: c.level + 0.01 * (c.melee + c.range),
    "stats": lambda c: c.melee + c.range + 0.01 * c.level,
    "ability": lambda c: c.melee + c.range + 0.5 * len(c.abilities),
}


class GreedyDraft:
    """The available card of highest value (``level``, ``stats`` or ``ability``); ties to the
    lowest slot."""

    def __init__(self, value: str = "stats") -> None:
        self.value = VALUES[value]
        self.name = f"greedy:{value}"

    def pick(self, view: DraftView, chance: Chance) -> int:
        return max(sorted(view.available), key=lambda s: self.value(view.available[s]))


class CounterDraft:
    """Counters the opponent's types: the card whose advantage gem matches most of the
    opponent's picks and whose type the fewest of them beat, then the highest stats."""

    name = "counter"

    def pick(self, view: DraftView, chance: Chance) -> int:
        def score(slot: int) -> tuple[int, float]:
            card = view.available[slot]
            beats = sum(1 for c in view.theirs if c.type == card.advantage)
            beaten = sum(1 for c in view.theirs if c.advantage == card.type)
            return beats - beaten, card.melee + card.range + 0.01 * card.level

        return max(sorted(view.available), key=score)


DRAFT_POLICIES: dict[str, Callable[[], DraftPolicy]] = {
    "random": RandomDraft,
    "greedy": GreedyDraft,
    "greedy:level": lambda: GreedyDraft("level"),
    "greedy:stats": lambda: GreedyDraft("stats"),
    "greedy:ability": lambda: GreedyDraft("ability"),
    "counter": CounterDraft,
}


@dataclass(frozen=True, slots=True)
class DraftResult:
    pyramid: tuple[Card, ...]  # slot order, back row first
    picks: tuple[tuple[int, Card], ...]  # (drafter, card) in pick order; 0 drafted first
    first: int  # which policy (0 or 1) drafted first

    def team(self, drafter: int) -> tuple[Card, ...]:
        return tuple(c for who, c in self.picks if who == drafter)


def draft(
    cards: CardSet,
    policies: tuple[DraftPolicy, DraftPolicy],
    chance: Chance,
    options: RuleOptions | None = None,
) -> DraftResult:
    """Lay out a pyramid from the shuffled characters and let the policies draft it all.
    Drafter 0 of the result is ``policies[first]``."""
    numbers = rule_numbers()
    layout = numbers.layouts[(options or RuleOptions()).pyramid]
    pool = list(cards.characters)
    if len(pool) < layout.size:
        raise ValueError(f"a draft needs {layout.size} characters; the card set has {len(pool)}")
    chance.shuffle(pool)
    first = high_roller(chance, numbers.die_sides)
    laid = pool[: layout.size]
    pyramid = Pyramid(Shape.of(layout), [c.name for c in laid])
    by_slot = dict(enumerate(laid))
    order = picker_order(numbers.opening_picks, layout.size)
    taken: list[list[Card]] = [[], []]
    picks: list[tuple[int, Card]] = []
    for drafter in order:
        policy = policies[first if drafter == 0 else 1 - first]
        view = DraftView(
            available={s: by_slot[s] for s in pyramid.available()},
            visible={s: by_slot[s] for s in pyramid.visible()},
            mine=tuple(taken[drafter]),
            theirs=tuple(taken[1 - drafter]),
            face_down=pyramid.hidden_count(),
            types=cards.types,
        )
        slot = policy.pick(view, chance)
        if slot not in view.available:
            raise ValueError(f"{policy.name} picked slot {slot}, which cannot be taken")
        pyramid.take(slot)
        taken[drafter].append(by_slot[slot])
        picks.append((drafter, by_slot[slot]))
    return DraftResult(tuple(laid), tuple(picks), first)
