"""A copy of a game in which every card the player cannot see is dealt anew: a determinization.

A player who plans by simulating (the search player, ``search.py``) must not read the true order
of face-down cards. It plans on copies made here instead: the copy shares nothing it can change
with the game, and every hidden card (disasters and items under the locations, the draw pile, the
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

import _random
import random
from typing import Final, TypeVar

from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import KIND_ITEM
from deckkit.animayhem.engine.record import GameRecord
from deckkit.animayhem.engine.state import Building, Char, Copy, Dis, Game, Loc

T = TypeVar("T")


class _Copier:
    """Copies the state's objects once each, keeping who refers to whom (a disaster's ally, a
    form's character): immutable card data is shared, and so is every card that cannot change
    (``copy``); lists, sets and dicts are new. Every attribute is copied by name
    (tests/test_search.py checks that none is forgotten): the compiled engine reads and writes
    them directly, where a loop over names would go through Python's generic attribute access
    for each. The game, a character, disaster or location is built by its class's copy
    constructor (``like``: the state's own values, not worked out from the card again), and
    only its lists and what points at other objects are set here, each once (a list the
    constructor built would be one more to build and free)."""

    def __init__(self, game: Game, chance: SeededChance) -> None:
        self.game = game
        # The copy's record is a blank one (a copy's events never count, and nothing reads or
        # writes a copy's record): built directly, not from the game's (whose counters a new
        # game would load, only for them to be dropped), and shared by the copies of a copy.
        # Nor are its per-card counters read, but for the two the rules read back (state.bump:
        # the constructor's copy keeps only those).
        record = game._record
        if game.counts_all:
            record = GameRecord(record.index, "stall", 0, 0, 0, 0, "")
        # Built as a copy of ``game`` (state.Game: its plain values; the zones are filled here).
        self.new = Game(chance, record, None, game)
        # The copies made so far, at their uid: set_up numbers the cards of a game 1, 2, ...,
        # each its own, and no rule makes another object of a card, so a uid stands for one
        # object. A list indexed by uid, grown as needed (``_seen``), where dictionaries would
        # box the uid, hash it and grow several times a copy.
        self.seen: list[Copy | Char | Dis | None] = [None] * _SEEN

    def copy(self, x: Copy) -> Copy:
        g = x.g
        if not g.power or g.uses is None:
            # A card without a usage limit never changes: every write to its one mutable
            # attribute, ``uses_left``, sets its printed value, None (state.Copy; combat.py
            # and interpreter/standing.py count uses down only from a number). The copy shares
            # it, as it shares the card data, instead of building it anew.
            return x
        uid = x.uid
        seen = self._seen(uid)
        y = seen[uid]
        if isinstance(y, Copy):
            return y
        z = Copy(uid, x.card, x.g)
        z.uses_left = x.uses_left
        seen[uid] = z
        return z

    def _seen(self, uid: int) -> list[Copy | Char | Dis | None]:
        """The copies made so far, long enough to hold ``uid``."""
        seen = self.seen
        if uid >= len(seen):
            seen.extend([None] * (uid + 1 - len(seen)))
        return seen

    def copies(self, xs: list[Copy]) -> list[Copy]:
        return [self.copy(x) for x in xs]

    def char(self, c: Char) -> Char:
        uid = c.uid
        seen = self._seen(uid)
        known = seen[uid]
        if isinstance(known, Char):
            return known
        # Built as a copy of ``c`` (state.Char: its card's template is not read again), but
        # for its lists, each set here once: new and empty, or a copy of the game's.
        y = Char(uid, c.card, None, c.g, c)
        seen[uid] = y
        y.items = self.copies(c.items) if c.items else []
        y.equipment = self.copies(c.equipment) if c.equipment else []
        y.enhancements = self.copies(c.enhancements) if c.enhancements else []
        y.timed = list(c.timed)
        y.pending = list(c.pending)
        y.grants = list(c.grants)
        return y

    def dis(self, d: Dis) -> Dis:
        uid = d.uid
        seen = self._seen(uid)
        known = seen[uid]
        if isinstance(known, Dis):
            return known
        y = Dis(uid, d.card, d.g, d)  # a copy of ``d`` but for what points elsewhere
        seen[uid] = y
        if d.game is not None:
            y.game = self.new
        y.carrying = self.copies(d.carrying) if d.carrying else []  # (not set by ``Dis``)
        if d.stolen is not None:
            y.stolen = self.copy(d.stolen)
        if d.ignores:
            y.ignores = set(d.ignores)
        if d.shunned:
            y.shunned = set(d.shunned)
        if d.ally_of is not None:
            y.ally_of = self.dis(d.ally_of)
        return y

    def any(self, x: Copy | Char | Dis) -> Copy | Char | Dis:
        if isinstance(x, Char):
            return self.char(x)
        if isinstance(x, Dis):
            return self.dis(x)
        return self.copy(x)

    def in_hand(self, x: Copy | Char) -> Copy | Char:
        if isinstance(x, Char):
            return self.char(x)
        return self.copy(x)

    def loc(self, loc: Loc) -> Loc:
        y = Loc(loc.slot, self.copy(loc.copy), loc)  # a copy but for what lies beneath it
        y.hidden_cards = self.copies(loc.hidden_cards) if loc.hidden_cards else []
        y.hidden_disasters = [self.dis(d) for d in loc.hidden_disasters]
        return y

    def run(self) -> Game:
        # (A list, set or dict empty in the game stays the new game's own empty one.)
        g, new = self.game, self.new
        new.chars = [self.char(c) for c in g.chars]
        new.locs = [self.loc(loc) for loc in g.locs]
        new.draw_pile = [self.any(x) for x in g.draw_pile]
        new.hand = [self.in_hand(x) for x in g.hand]
        if g.discard:
            new.discard = [self.any(x) for x in g.discard]
        new.combat_pile = self.copies(g.combat_pile)
        if g.combat_discard:
            new.combat_discard = self.copies(g.combat_discard)
        new.havens = self.copies(g.havens)
        if g.haven_cards:
            new.haven_cards = self.copies(g.haven_cards)
        if g.globals_in_play:
            new.globals_in_play = [(self.copy(x), t) for x, t in g.globals_in_play]
        new.disasters = [self.dis(d) for d in g.disasters]
        if g.drawn:
            new.drawn = [self.dis(d) for d in g.drawn]
        if g.carried_off:
            new.carried_off = self.copies(g.carried_off)
        if g.unused:
            new.unused = self.copies(g.unused)
        if g.scavenged:
            new.scavenged = set(g.scavenged)
        if g.scavenge_started:
            new.scavenge_started = set(g.scavenge_started)
        if g.done_scavenging:
            new.done_scavenging = set(g.done_scavenging)
        if g.lasting:
            new.lasting = [(self.dis(d), t) for d, t in g.lasting]
        if g.blocked:
            new.blocked = dict(g.blocked)
        if g.fired:
            new.fired = dict(g.fired)
        if g.standing_seen:
            new.standing_seen = set(g.standing_seen)
        if g.dis_timers:
            new.dis_timers = [(t, self.dis(d), v) for t, d, v in g.dis_timers]
        if g.turned_havens:
            new.turned_havens = self.copies(g.turned_havens)
        # Havens built on the field (and the run's rule option, set by the constructor): a
        # rollout plays the rules of the game it copies (Building, havens.py;
        # construction/readings.py).
        if g.annexed:
            new.annexed = {slot: self.copy(h) for slot, h in g.annexed.items()}
        if g.forms:
            new.forms = [(self.char(a), self.char(b), t) for a, b, t in g.forms]
        if g.building:
            new.building = [
                Building(self.copy(b.haven), b.slot, [self.char(c) for c in b.builders],
                         b.last_turn, list(b.before))
                for b in g.building
            ]  # fmt: skip
        if g.known:
            new.known = set(g.known)
        # Every disaster of the copy, so the copy's one cycle can be broken when it is done
        # with (rollout.play_out, as play.release does for a game).
        new.disasters_dealt = [self.dis(d) for d in g.disasters_dealt]
        return new


# The length of the copier's first table of copies by uid: a game of up to 127 cards never
# grows it (the sample decks deal 50 to 90).
_SEEN: Final = 128


def copy_game(game: Game, chance: SeededChance) -> Game:
    """A copy of ``game`` that shares only what cannot change (cards, the field, effect tables,
    templates, the physical cards without a usage limit) and the rule hooks, and plays with
    ``chance``; its record is a blank one (a copy's events never count) and it keeps no
    trace."""
    return _Copier(game, chance).run()


def clone(game: Game, rng: _random.Random) -> Game:
    """:func:`copy_game` with a new generator drawn from ``rng`` as its chance."""
    return copy_game(game, SeededChance(rng.getrandbits(64)))


def determinize(game: Game, rng: _random.Random) -> Game:
    """A copy of ``game`` with every card the player cannot see reshuffled among the places it
    could lie (see the module's docstring); ``game`` itself is left untouched. Its chance is a
    new generator seeded by ``rng``'s first 64 bits."""
    return deal(game, rng.getrandbits(64), rng)


def deal(game: Game, seed: int, rng: _random.Random, plan: DealPlan | None = None) -> Game:
    """:func:`determinize` with its chance's seed given: the hidden cards are dealt with
    ``rng``. A player weighing several choices on one such sample plays each on a
    :func:`copy_game` of it with a chance of the same seed: the same game as dealing it again
    from the same generator, without dealing it again. A player dealing many samples of one
    game hands each deal the game's :class:`DealPlan`, worked out once."""
    if plan is None or plan.game is not game:
        plan = DealPlan(game)
    g = copy_game(game, SeededChance(seed))
    locs = g.locs
    pile = g.draw_pile
    # Disasters: the unseen ones under the locations trade places with those in the draw pile,
    # put in order by uid (the plan's order), then shuffled.
    under_locs, under_at, in_pile = plan.under_locs, plan.under_at, plan.in_pile
    n = len(under_locs)
    found: list[Dis] = []
    for j in range(n):
        found.append(locs[under_locs[j]].hidden_disasters[under_at[j]])
    for i in in_pile:
        x = pile[i]
        assert isinstance(x, Dis)
        found.append(x)
    pool = [found[k] for k in plan.dis_order]
    _shuffle(rng, pool)
    for j in range(n):
        d = pool[j]
        locs[under_locs[j]].hidden_disasters[under_at[j]] = d
        d.zone = "location"
    for j in range(len(in_pile)):
        d = pool[n + j]
        pile[in_pile[j]] = d
        d.zone = "draw"
    # Items: the unseen ones under the locations trade places with the unused ones.
    item_locs, item_at = plan.item_locs, plan.item_at
    n = len(item_locs)
    cards: list[Copy] = []
    for j in range(n):
        cards.append(locs[item_locs[j]].hidden_cards[item_at[j]])
    cards.extend(g.unused)
    items = [cards[k] for k in plan.item_order]
    _shuffle(rng, items)
    after = 0
    for j in range(n):
        x = items[j]
        locs[item_locs[j]].hidden_cards[item_at[j]] = x
        after += _extra(x)
    g.unused = items[n:]
    # An item that counts for more than one in the tally (C-ko) may have come into play.
    g.tally_extra += after - plan.before
    # The piles: any order. The draw pile by uid is its other cards in the plan's order with
    # the disasters just dealt into it merged in by uid, then shuffled.
    dealt = pool[len(under_locs) :]
    _sort_by_uid(dealt, [d.uid for d in dealt])
    rest, rest_uids = plan.rest, plan.rest_uids
    m = len(rest)
    ordered: list[Copy | Char | Dis] = []
    a = 0
    for d in dealt:
        u = d.uid
        while a < m and rest_uids[a] < u:
            ordered.append(pile[rest[a]])
            a += 1
        ordered.append(d)
    while a < m:
        ordered.append(pile[rest[a]])
        a += 1
    g.draw_pile = ordered
    _shuffle(rng, ordered)
    combat = g.combat_pile
    combat = [combat[k] for k in plan.combat_order]
    g.combat_pile = combat
    _shuffle(rng, combat)
    return g


class DealPlan:
    """Where :func:`deal` finds the cards it deals in a copy of ``game``, and their order by
    uid, worked out once for the game: every copy lists its cards in the game's order
    (``copy_game``) and knows the same cards, so a player dealing many samples of one game
    (search.py) reads these positions instead of looking for the cards and sorting them by
    uid in each sample (index loops, not tuples, zips and sorts by a key function: the same
    cards in the same places, worked out by compiled code). ``game`` must not change while
    the plan is used."""

    __slots__ = (
        "before", "combat_order", "dis_order", "game", "in_pile", "item_at", "item_locs",
        "item_order", "rest", "rest_uids", "under_at", "under_locs",
    )  # fmt: skip

    def __init__(self, game: Game) -> None:
        self.game = game
        known = game.known
        locs = game.locs
        # The unseen disasters under the locations (the location's index and the place
        # beneath it), then those in the draw pile (their index); the draw pile's other cards.
        self.under_locs: list[int] = []
        self.under_at: list[int] = []
        uids: list[int] = []
        for k in range(len(locs)):
            hidden = locs[k].hidden_disasters
            for i in range(len(hidden)):
                u = hidden[i].uid
                if u not in known:
                    self.under_locs.append(k)
                    self.under_at.append(i)
                    uids.append(u)
        pile = game.draw_pile
        self.in_pile: list[int] = []
        rest: list[int] = []
        rest_uids: list[int] = []
        for i in range(len(pile)):
            x = pile[i]
            if isinstance(x, Dis):
                self.in_pile.append(i)
                uids.append(x.uid)
            else:
                rest.append(i)
                rest_uids.append(x.uid)
        self.dis_order = _order(uids)  # those disasters by uid, as indices of that list
        order = _order(rest_uids)
        self.rest = [rest[k] for k in order]  # the pile's other cards by uid
        self.rest_uids = [rest_uids[k] for k in order]
        # The unseen items under the locations, then the unused ones; how many more than one
        # the unseen ones count for in the tally.
        self.item_locs: list[int] = []
        self.item_at: list[int] = []
        uids = []
        before = 0
        for k in range(len(locs)):
            cards = locs[k].hidden_cards
            for i in range(len(cards)):
                x = cards[i]
                if x.g.kind == KIND_ITEM and x.uid not in known:
                    self.item_locs.append(k)
                    self.item_at.append(i)
                    uids.append(x.uid)
                    before += _extra(x)
        for x in game.unused:
            uids.append(x.uid)
        self.item_order = _order(uids)
        self.before = before
        self.combat_order = _order([x.uid for x in game.combat_pile])


def _order(uids: list[int]) -> list[int]:
    """The indices of ``uids`` in the order of their uids (``_sort_by_uid``)."""
    order = list(range(len(uids)))
    _sort_by_uid(order, list(uids))
    return order


def _sort_by_uid(xs: list[T], uids: list[int]) -> None:
    """Sort ``xs`` in place by ``uids`` (``xs``'s uids, in its order). Every card of a game
    has its own uid, so the order is the one ``sorted(xs, key=uid)`` gives: a few cards by
    insertion, more by placing each at its uid in a table and reading the table in order
    (the uids are small: set_up numbers the cards 1, 2, ...)."""
    n = len(xs)
    if n <= _FEW:
        for i in range(1, n):
            u = uids[i]
            x = xs[i]
            j = i - 1
            while j >= 0 and uids[j] > u:
                uids[j + 1] = uids[j]
                xs[j + 1] = xs[j]
                j -= 1
            uids[j + 1] = u
            xs[j + 1] = x
        return
    at: list[T | None] = [None] * (max(uids) + 1)
    for i in range(n):
        at[uids[i]] = xs[i]
    k = 0
    for y in at:
        if y is not None:
            xs[k] = y
            k += 1


_FEW: Final = 8  # the longest list _sort_by_uid sorts by insertion


def _shuffle(rng: _random.Random, xs: list[T]) -> None:
    """``random.Random(seed).shuffle(xs)`` for ``rng`` seeded with ``seed`` (a
    ``random.Random`` or the C generator under it, ``_random.Random``): CPython's own draws and
    swaps (Fisher-Yates, each index drawn by ``getrandbits`` with rejection, as
    ``Random._randbelow`` does), run as compiled code where the library's loop is interpreted
    (tests/test_search.py holds the two equal). A subclass of ``random.Random`` may draw
    otherwise: it shuffles its own way."""
    if isinstance(rng, random.Random) and type(rng) is not random.Random:
        rng.shuffle(xs)
        return
    getrandbits = rng.getrandbits
    for i in range(len(xs) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        xs[i], xs[j] = xs[j], xs[i]


def _extra(x: Copy) -> int:
    """How many more than one an item counts for in the tally (its card's ``tally`` - 1, read
    from its game-time record); 0 for any other card."""
    g = x.g
    return g.tally - 1 if g.kind == KIND_ITEM else 0
