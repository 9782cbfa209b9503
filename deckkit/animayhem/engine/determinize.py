"""A copy of a game in which every card the player cannot see is dealt anew: a determinization.

A player who plans by simulating (the search player, ``search.py``) must not read the true order
of face-down cards. It plans on copies made here instead: the copy shares nothing mutable with
the game, and every hidden card (disasters and items under the locations, the draw pile, the
combat pile, the items set aside as unused) is first put in a canonical order (by card uid) and
then reshuffled among the hidden places it could be in, with the caller's random generator. So
the copy depends on what the player could know (the counts it sees, the cards it has looked at
with a REVEAL card: ``game.known``) and on the generator alone, never on the true hidden order.

Which places a card could be in: set0 rulebook, Part II "Game Setup": two disasters dealt face
down under each location from the shuffled disasters, the rest shuffled into the draw pile; one
item under each location (fifth2018: the rest unused). A card the player has looked at stays
where it lies. One simplification: once the discard pile has been reshuffled into a new draw
pile, the disasters in it are ones the player saw, yet they may still trade places with unseen
ones under the locations; the player never sees more than it could, only believes a little less.

This module copies and deals; it plays no rule (it imports only the game state and chance).
"""

from __future__ import annotations

import random
from typing import Any

from deckkit.animayhem.construction.cards import ItemCard
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import KIND_ITEM
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Building, Char, Copy, Dis, Game, Loc

_CHAR_PLAIN = (
    "base", "base_skills", "bonked_turn", "captor", "card", "categories", "charm_turn", "cur",
    "disabled_until", "fx", "gender", "health", "health_base", "health_max", "held_until",
    "name", "pinned", "return_turn", "skill_counts", "slot", "uid", "wounded_turn", "zone",
)  # fmt: skip
_DIS_PLAIN = (
    "backward", "base_damage", "base_defense", "card", "charm", "combat",
    "damage_counts_characters", "defense_counts_characters", "entered", "first_move_done", "fx",
    "health", "incapacitated_turn", "major", "movement", "name", "pos", "recycled",
    "stationary", "uid", "zone",
)  # fmt: skip
_LOC_PLAIN = ("card", "destroyed", "dimensional", "planetary", "slot")
_GAME_PLAIN = (
    "field", "turn", "phase", "dist", "items_in_play", "tally_extra", "arrivals", "ended",
    "outcome", "fx", "hooks", "acts", "recycle_next",
)  # fmt: skip


class _Copier:
    """Copies the state's objects once each, keeping who refers to whom (a disaster's ally, a
    form's character): immutable card data is shared, lists, sets and dicts are new."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.new = Game(game.chance, game.record, None)  # chance and record replaced in run
        self.seen: dict[int, Any] = {}

    def copy(self, x: Copy) -> Copy:
        y = self.seen.get(id(x))
        if y is None:
            y = Copy(x.uid, x.card)
            y.uses_left = x.uses_left
            self.seen[id(x)] = y
        return y

    def copies(self, xs: list[Copy]) -> list[Copy]:
        return [self.copy(x) for x in xs]

    def char(self, c: Char) -> Char:
        seen = self.seen.get(id(c))
        if seen is not None:
            return seen  # type: ignore[no-any-return]
        y = Char(c.uid, c.card)  # (the compiled classes are built only by their constructor)
        self.seen[id(c)] = y
        for a in _CHAR_PLAIN:
            setattr(y, a, getattr(c, a))
        y.items = self.copies(c.items)
        y.equipment = self.copies(c.equipment)
        y.enhancements = self.copies(c.enhancements)
        y.timed = list(c.timed)
        y.pending = list(c.pending)
        y.grants = list(c.grants)
        return y

    def dis(self, d: Dis) -> Dis:
        seen = self.seen.get(id(d))
        if seen is not None:
            return seen  # type: ignore[no-any-return]
        y = Dis(d.uid, d.card)
        self.seen[id(d)] = y
        for a in _DIS_PLAIN:
            setattr(y, a, getattr(d, a))
        y.game = self.new if d.game is not None else None
        y.carrying = self.copies(d.carrying)
        y.stolen = self.copy(d.stolen) if d.stolen is not None else None
        y.ignores = set(d.ignores)
        y.shunned = set(d.shunned)
        y.ally_of = self.dis(d.ally_of) if d.ally_of is not None else None
        return y

    def any(self, x: Copy | Char | Dis) -> Any:
        if isinstance(x, Char):
            return self.char(x)
        if isinstance(x, Dis):
            return self.dis(x)
        return self.copy(x)

    def loc(self, loc: Loc) -> Loc:
        y = Loc(loc.slot, self.copy(loc.copy))
        for a in _LOC_PLAIN:
            setattr(y, a, getattr(loc, a))
        y.hidden_cards = self.copies(loc.hidden_cards)
        y.hidden_disasters = [self.dis(d) for d in loc.hidden_disasters]
        return y

    def run(self, chance: SeededChance) -> Game:
        g, new = self.game, self.new
        for a in _GAME_PLAIN:
            setattr(new, a, getattr(g, a))
        new.chance = chance
        new.record = GameRecord(g.record.index, "stall", 0, 0, 0, 0, "")  # never counted
        new.trace = None
        new.chars = [self.char(c) for c in g.chars]
        new.locs = [self.loc(loc) for loc in g.locs]
        new.draw_pile = [self.any(x) for x in g.draw_pile]
        new.hand = [self.any(x) for x in g.hand]
        new.discard = [self.any(x) for x in g.discard]
        new.combat_pile = self.copies(g.combat_pile)
        new.combat_discard = self.copies(g.combat_discard)
        new.havens = self.copies(g.havens)
        new.haven_cards = self.copies(g.haven_cards)
        new.globals_in_play = [(self.copy(x), t) for x, t in g.globals_in_play]
        new.disasters = [self.dis(d) for d in g.disasters]
        new.drawn = [self.dis(d) for d in g.drawn]
        new.carried_off = self.copies(g.carried_off)
        new.unused = self.copies(g.unused)
        new.scavenged = set(g.scavenged)
        new.scavenge_started = set(g.scavenge_started)
        new.done_scavenging = set(g.done_scavenging)
        new.lasting = [(self.dis(d), t) for d, t in g.lasting]
        new.blocked = dict(g.blocked)
        new.fired = dict(g.fired)
        new.standing_seen = set(g.standing_seen)
        new.dis_timers = [(t, self.dis(d), v) for t, d, v in g.dis_timers]
        new.turned_havens = self.copies(g.turned_havens)
        # Havens built on the field, and the run's rule option: a rollout plays the rules of
        # the game it copies (Building, havens.py; construction/readings.py).
        new.annexed = {slot: self.copy(h) for slot, h in g.annexed.items()}
        new.item_pickup = g.item_pickup
        new.forms = [(self.char(a), self.char(b), t) for a, b, t in g.forms]
        new.building = [
            Building(self.copy(b.haven), b.slot, [self.char(c) for c in b.builders], b.last_turn,
                     list(b.before))
            for b in g.building
        ]  # fmt: skip
        new.known = set(g.known)
        return new


def clone(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` that shares only immutable card data (cards, the field, effect tables,
    templates) and the rule hooks; its chance is a new generator drawn from ``rng``, its record
    a blank one (a copy's events never count) and it keeps no trace."""
    return _Copier(game).run(SeededChance(rng.getrandbits(64)))


def determinize(game: Game, rng: random.Random) -> Game:
    """A copy of ``game`` with every card the player cannot see reshuffled among the places it
    could lie (see the module's docstring); ``game`` itself is left untouched."""
    g = clone(game, rng)
    known = g.known
    # Disasters: the unseen ones under the locations trade places with those in the draw pile.
    under = [(loc, i) for loc in g.locs for i, d in enumerate(loc.hidden_disasters)
             if d.uid not in known]  # fmt: skip
    in_pile = [i for i, x in enumerate(g.draw_pile) if isinstance(x, Dis)]
    pool: list[Dis] = sorted(
        [loc.hidden_disasters[i] for loc, i in under]
        + [x for x in g.draw_pile if isinstance(x, Dis)],
        key=lambda d: d.uid,
    )
    rng.shuffle(pool)
    for (loc, i), d in zip(under, pool, strict=False):
        loc.hidden_disasters[i] = d
        d.zone = "location"
    for i, d in zip(in_pile, pool[len(under) :], strict=True):
        g.draw_pile[i] = d
        d.zone = "draw"
    # Items: the unseen ones under the locations trade places with the unused ones.
    slots = [(loc, i) for loc in g.locs for i, x in enumerate(loc.hidden_cards)
             if x.g.kind == KIND_ITEM and x.uid not in known]  # fmt: skip
    before = sum(_extra(loc.hidden_cards[i]) for loc, i in slots)
    items: list[Copy] = sorted(
        [loc.hidden_cards[i] for loc, i in slots] + list(g.unused), key=lambda x: x.uid
    )
    rng.shuffle(items)
    for (loc, i), x in zip(slots, items, strict=False):
        loc.hidden_cards[i] = x
    g.unused = items[len(slots) :]
    # An item that counts for more than one in the tally (C-ko) may have come into play.
    g.tally_extra += sum(_extra(loc.hidden_cards[i]) for loc, i in slots) - before
    # The piles: any order.
    g.draw_pile.sort(key=lambda x: x.uid)
    rng.shuffle(g.draw_pile)
    g.combat_pile.sort(key=lambda x: x.uid)
    rng.shuffle(g.combat_pile)
    return g


def _extra(x: Copy) -> int:
    card = x.card
    return card.tally - 1 if isinstance(card, ItemCard) else 0
