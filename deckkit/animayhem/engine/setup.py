"""Game setup for solitaire: the field, items and starting disasters, the haven, the starting
characters, the opening hand and the draw pile.

Set0 rulebook, Part II "Game Setup", "Deck Construction" (what starts where) and "Field Layouts >
Solitaire"; 1996 rules "Setup" (the opening hand of 7 from characters and power cards).
"""

from __future__ import annotations

from collections.abc import Iterable, MutableSequence, Sequence
from typing import TYPE_CHECKING, Final, TypeVar

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharacterCard,
    CharTemplate,
    DisasterCard,
)
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.codes import (
    KIND_ITEM,
    TYPE_CHARACTER,
    TYPE_COMBAT,
    TYPE_DISASTER,
    TYPE_ENHANCEMENT,
    TYPE_EQUIPMENT,
    TYPE_FLASH_EFFECT,
    TYPE_GLOBAL_EFFECT,
    TYPE_HAVEN,
    TYPE_ITEM,
    TYPE_LOCATION,
)
from deckkit.animayhem.engine.field import Field, all_distances, lay_out
from deckkit.animayhem.engine.gamecards import GameCard, game_card
from deckkit.animayhem.engine.hooks import EngineHooks
from deckkit.animayhem.engine.prepared import GameSetup
from deckkit.animayhem.engine.state import CardSlots, Char, Copy, Dis, Game, Loc, Told, use_slots

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.construction.vocabulary import Action
    from deckkit.animayhem.engine.policy import Policy
    from deckkit.animayhem.engine.state import Triggers

T = TypeVar("T")

STARTING_DISASTERS_PER_LOCATION: Final = (
    2  # "Place two disaster cards ... underneath each location"
)


class _Dealt:
    """What :func:`set_up` deals from that is the same in every game of a setup and edition:
    each pile's cards with their game-time records (gamecards.py), looked up once instead of
    once per card and game, the play rules it reads, and the field when its layout does not
    depend on chance. Card effects are still read from ``setup.fx`` in every game (a game's
    ``fx`` is that dictionary, which a caller may change); the actions they use are worked out
    again whenever its entries are not those they were worked out from (``actions``).

    A card without a usage limit never changes in a game (its one mutable attribute,
    ``uses_left``, is only ever set to its printed value, None: ``determinize._Copier.copy``),
    and set_up gives each card the same uid in every game (counted in the order dealt, before
    any shuffle): such a card is one object dealt to every game of the setup (``copies``),
    instead of a new one per card and game. A power card with a usage limit gets a new copy each
    game (``fresh``).

    The characters and disasters, which change in a game, are each built once here as dealt
    (``char_protos``, ``dis_protos``) and copied for each game by their classes' copy
    constructors (state.Char, state.Dis), their cards and templates not read again; and the
    deck's card ids are given their counters' slots once (``slots``: state.CardSlots), and
    their effects looked up once (``char_fx``, ``dis_fx``: ``actions``). The locations, which
    change little, are built once too (``loc_protos``, one a location card, in the order
    dealt) and copied the same way.

    A game that :func:`.play.play_game` played to its end hands its characters, disasters and
    locations back (:func:`take_back`: ``spare``), and the next game dealt from this record
    sets each of them up again from its prototype (its class's copy constructor run on it, its
    lists kept and emptied in place: nothing but the finished game held them), in the game's
    own lists of them (``Game.chars``, ``disasters_dealt``, ``locs``), instead of making new
    ones and freeing the old: a game's objects are the same ones, in the same state, as new
    ones would be."""

    __slots__ = (
        "acts",
        "acts_entries",
        "acts_fx",
        "char_fx",
        "char_protos",
        "characters",
        "combat",
        "combat_copies",
        "dis_fx",
        "dis_protos",
        "disasters",
        "dist",
        "edition",
        "field",
        "hand_from_characters",
        "hand_limit",
        "haven_copies",
        "havens",
        "item_copies",
        "item_pickup",
        "items",
        "loc_protos",
        "location_copies",
        "locations",
        "power",
        "power_copies",
        "power_fresh",
        "power_fresh_at",
        "setup",
        "slots",
        "spare",
        "starting_characters",
        "told",
    )

    def __init__(self, setup: GameSetup, edition: Edition) -> None:
        self.setup = setup  # held, so its id is not reused while this record lives
        self.edition = edition
        self.locations = _with_records(setup.locations)
        self.items = _with_records(setup.items)
        self.havens = _with_records(setup.havens)
        self.power = _with_records(setup.power)
        self.combat = _with_records(setup.combat)
        self.disasters: list[tuple[DisasterCard, GameCard]] = []
        for card in setup.disasters:
            assert isinstance(card, DisasterCard)
            self.disasters.append((card, game_card(card)))
        self.characters: list[tuple[CharacterCard, CharTemplate, GameCard]] = []
        for card, template in zip(setup.characters, setup.templates, strict=True):
            assert isinstance(card, CharacterCard)
            self.characters.append((card, template, game_card(card)))
        # Each pile's cards as set_up deals them, their uids counted in its order: locations,
        # items, disasters, havens, characters, power, combat.
        uid = 0
        self.location_copies = _copies(self.locations, uid)
        self.loc_protos = [Loc(0, cp) for cp in self.location_copies]
        uid += len(self.locations)
        self.item_copies = _copies(self.items, uid)
        uid += len(self.items)
        self.dis_protos = [Dis(uid + i + 1, card, g) for i, (card, g) in enumerate(self.disasters)]
        uid += len(self.disasters)
        self.haven_copies = _copies(self.havens, uid)
        uid += len(self.havens)
        self.char_protos = [
            Char(uid + i + 1, card, template, g)
            for i, (card, template, g) in enumerate(self.characters)
        ]
        uid += len(self.characters)
        self.power_copies = _copies(self.power, uid)
        # Whether each game gets a new copy of each of them, and the places of those that do.
        self.power_fresh = [_changes(x) for x in self.power_copies]
        self.power_fresh_at = [i for i, fresh in enumerate(self.power_fresh) if fresh]
        uid += len(self.power)
        self.combat_copies = _copies(self.combat, uid)
        for x in (
            *self.location_copies, *self.item_copies, *self.haven_copies, *self.combat_copies
        ):  # fmt: skip
            assert not _changes(x)  # only power cards have usage limits
        self.slots = CardSlots(
            card.id
            for pile in (
                setup.locations, setup.items, setup.disasters, setup.havens, setup.characters,
                setup.power, setup.combat,
            )
            for card in pile
        )  # fmt: skip
        # Each card's counters' slot given to the card as dealt (``cslot``: state.bump_card),
        # so no game's copy of it looks its id up again.
        index = self.slots.index
        for x in (
            *self.location_copies, *self.item_copies, *self.haven_copies, *self.power_copies,
            *self.combat_copies,
        ):  # fmt: skip
            x.cslot = index.get(x.cid, -1)
        for dp in self.dis_protos:
            dp.cslot = index.get(dp.cid, -1)
        for cp in self.char_protos:
            cp.cslot = index.get(cp.cid, -1)
        play = edition.play
        self.item_pickup = play.item_pickup
        self.starting_characters = play.starting_characters
        self.hand_from_characters = play.hand_from_characters
        self.hand_limit = play.hand_limit
        # The last finished game's characters, disasters and locations (``take_back``), each
        # list in its prototypes' order, or None: taken by the next game dealt.
        self.spare: tuple[list[Char], list[Dis], list[Loc]] | None = None
        self.acts: frozenset[Action] = frozenset()
        self.acts_fx: dict[str, Triggers] | None = None  # the dictionary they were read from
        self.told = Told()  # and what the combat cards were told of it (``Copy.texted``)
        self.acts_entries: list[tuple[str, Triggers]] = []  # and its entries then
        # Each prototype's effects in that dictionary (``fx.get`` of its card id), by the
        # prototypes' order: worked out with the actions, so a game reads no dictionary for
        # them.
        self.char_fx: list[Triggers | None] = []
        self.dis_fx: list[Triggers | None] = []
        # The compact and straight-line fields depend on the number of locations alone.
        self.field: Field | None = None
        self.dist: tuple[tuple[int, ...], ...] = ()
        if setup.options.layout != "random":
            self.field = lay_out(len(self.locations), setup.options.layout, _NO_CHANCE)
            self.dist = all_distances(self.field)

    def actions(self, fx: dict[str, Triggers]) -> frozenset[Action]:
        """:func:`_actions` of ``fx``, worked out again only when ``fx`` is another dictionary
        or its entries are not the same cards' same effect objects in the same order (a caller
        that changes a deck's effects puts new ones in; none is changed in place); the
        prototypes' effects (``char_fx``, ``dis_fx``) with them."""
        kept = self.acts_entries
        if fx is self.acts_fx and len(fx) == len(kept):
            for i, (cid, triggers) in enumerate(fx.items()):
                entry = kept[i]
                if entry[1] is not triggers or entry[0] != cid:
                    break
            else:
                return self.acts
        self.acts = _actions(fx)
        self.char_fx = [fx.get(proto.cid) for proto in self.char_protos]
        self.dis_fx = [fx.get(proto.cid) for proto in self.dis_protos]
        # Each combat card told whether it has effects (``Copy.texted``): a combat reads the
        # flag instead of looking its id up at each draw (combat._play_card).
        for x in self.combat_copies:
            half = x.g.half
            x.texted = 1 if half is not None and half.id in fx else 0
        self.told = Told(fx)
        self.acts_fx = fx
        self.acts_entries = list(fx.items())
        return self.acts


def _with_records(cards: tuple[AnyCard, ...]) -> list[tuple[AnyCard, GameCard]]:
    return [(card, game_card(card)) for card in cards]


def _copies(cards: list[tuple[AnyCard, GameCard]], before: int) -> list[Copy]:
    """A pile's cards as set_up deals them, numbered on from the uid ``before``."""
    return [Copy(before + i + 1, card, g) for i, (card, g) in enumerate(cards)]


def _changes(x: Copy) -> bool:
    """A card that may change in a game: a power card with a usage limit (``uses_left``)."""
    return x.g.power and x.g.uses is not None


class _NoChance:
    """The chance handed to a layout that draws none (a fixed field)."""

    def shuffle(self, cards: MutableSequence[T]) -> None:
        raise AssertionError("a fixed layout shuffled")

    def pick(self, options: Sequence[T]) -> T:
        raise AssertionError("a fixed layout picked")

    def below(self, n: int) -> int:
        raise AssertionError("a fixed layout drew")


_NO_CHANCE: Final = _NoChance()
# The records of the setups dealt lately, by id (a process plays few setups at a time: a deck and
# its variants); cleared when it grows, so a long sweep over decks does not keep them all.
_DEALT: Final[dict[int, _Dealt]] = {}
_DEALT_KEPT: Final = 32


def _dealt(setup: GameSetup, edition: Edition) -> _Dealt:
    d = _DEALT.get(id(setup))
    if d is None or d.edition is not edition:
        if len(_DEALT) >= _DEALT_KEPT:
            _DEALT.clear()
        d = _Dealt(setup, edition)
        _DEALT[id(setup)] = d
    return d


def set_up(game: Game, setup: GameSetup, edition: Edition, policy: Policy) -> None:
    """Lay out the field and deal every card of the deck into its starting zone."""
    chance = game.chance
    dealt = _dealt(setup, edition)
    fx = setup.fx
    game.fx = fx
    game.acts = dealt.actions(fx)
    game.told = dealt.told  # the effects its combat cards were told of (``Copy.texted``)
    game.hooks = EngineHooks(edition, policy)
    use_slots(game, dealt.slots)
    game.item_pickup = dealt.item_pickup
    game.hand_limit = dealt.hand_limit
    # Each card's uid is the one dealt gave it (the cards that never change are dealt's own,
    # the characters and disasters copies of its prototypes).

    # A finished game's objects to set up again, if one was handed back (``take_back``).
    spare = dealt.spare
    dealt.spare = None

    # The locations' prototypes shuffled as their cards would be (the same draws, the same
    # order), each laid out at its slot.
    locations = dealt.loc_protos.copy()
    chance.shuffle(locations)
    field = dealt.field
    if field is None:
        field = lay_out(len(locations), setup.options.layout, chance)
        game.dist = all_distances(field)
    else:
        game.dist = dealt.dist
    game.field = field
    if spare is None:
        locs: list[Loc] = []
        for i, lp in enumerate(locations):
            loc = Loc(i, lp.copy, lp)
            loc.hidden_disasters = []  # (a copy's are left to its copier)
            loc.hidden_cards = []
            locs.append(loc)
    else:
        # The last game's list of them, each set up again in its place (the list nobody else
        # holds: ``take_back``).
        locs = spare[2]
        for i, lp in enumerate(locations):
            loc = locs[i]
            Loc.__init__(loc, i, lp.copy, lp)
            if loc.hidden_disasters:
                loc.hidden_disasters.clear()
            if loc.hidden_cards:
                loc.hidden_cards.clear()
    game.locs = locs

    items = dealt.item_copies.copy()
    chance.shuffle(items)
    # The cards in play and what they count for beyond 1 in the final tally (``items_hidden``
    # with ``tally``, less one a card), counted as they are dealt.
    in_play = 0
    tally_extra = 0
    for loc in locs:
        if items:
            item = items.pop()
            loc.hidden_cards.append(item)
            in_play += 1
            g = item.g
            tally_extra += (g.tally if g.kind == KIND_ITEM else 0) - 1
    game.unused.extend(items)  # items beyond one per location are not used
    game.items_in_play = in_play
    game.tally_extra = tally_extra

    dis_fx = dealt.dis_fx
    if spare is None:
        dealt_dis: list[Dis] = []
        for i, dp in enumerate(dealt.dis_protos):
            d = Dis(dp.uid, dp.card, dp.g, dp)
            d.carrying = []  # (a copy's is left to its copier)
            d.fx = dis_fx[i]
            dealt_dis.append(d)
    else:
        dealt_dis = spare[1]  # the last game's list, each set up again in its place
        for i, dp in enumerate(dealt.dis_protos):
            d = dealt_dis[i]
            Dis.__init__(d, dp.uid, dp.card, dp.g, dp)
            if d.carrying:
                d.carrying.clear()
            d.fx = dis_fx[i]
    game.disasters_dealt = dealt_dis
    disasters = dealt_dis.copy()
    chance.shuffle(disasters)
    for loc in locs:
        for _ in range(STARTING_DISASTERS_PER_LOCATION):
            if disasters:
                d = disasters.pop()
                d.zone = "location"
                loc.hidden_disasters.append(d)

    havens = dealt.haven_copies.copy()
    start_haven = policy.starting_haven(havens)
    if start_haven is not None:
        havens.remove(start_haven)
        game.havens.append(start_haven)

    char_fx = dealt.char_fx
    if spare is None:
        chars: list[Char] = []
        for i, proto in enumerate(dealt.char_protos):
            c = Char(proto.uid, proto.card, None, proto.g, proto)
            # Its lists, left to a copier by the copy constructor.
            c.items = []
            c.equipment = []
            c.enhancements = []
            c.timed = []
            c.pending = []
            c.grants = []
            c.fx = char_fx[i]
            chars.append(c)
    else:
        chars = spare[0]  # the last game's list, each set up again in its place
        for i, proto in enumerate(dealt.char_protos):
            c = chars[i]
            Char.__init__(c, proto.uid, proto.card, None, proto.g, proto)
            # Its lists: kept, those the last game left full emptied.
            if c.items:
                c.items.clear()
            if c.equipment:
                c.equipment.clear()
            if c.enhancements:
                c.enhancements.clear()
            if c.timed:
                c.timed.clear()
            if c.pending:
                c.pending.clear()
            if c.grants:
                c.grants.clear()
            c.fx = char_fx[i]
    game.chars = chars
    starters = policy.starting_characters(game, chars, dealt.starting_characters)
    for c in starters:
        c.zone = "haven"
    rest_chars = [c for c in chars if c.zone != "haven"]

    hand_from_characters = dealt.hand_from_characters
    hand_limit = dealt.hand_limit
    # The power cards (those with a usage limit a new copy: ``power_fresh``), in their order.
    pool: list[Copy | Char] = list(dealt.power_copies)
    for i in dealt.power_fresh_at:
        power = dealt.power_copies[i]
        new = Copy(power.uid, power.card, power.g)
        new.cslot = power.cslot
        pool[i] = new
    if hand_from_characters:
        pool.extend(rest_chars)
    chance.shuffle(pool)
    hand = pool[:hand_limit]
    for x in hand:
        if isinstance(x, Char):
            x.zone = "hand"
    game.hand = hand
    draw: list[Copy | Char | Dis] = list(pool[hand_limit:])
    if not hand_from_characters:
        draw.extend(rest_chars)
    draw.extend(havens)
    draw.extend(disasters)
    chance.shuffle(draw)
    game.draw_pile = draw

    combat_pile = dealt.combat_copies.copy()
    chance.shuffle(combat_pile)
    game.combat_pile = combat_pile
    for c in chars:
        refresh(game, c)
    if game.trace is not None:
        game.say(
            "setup",
            f"field of {len(game.locs)} locations, {game.items_in_play} items, "
            f"starting characters: {', '.join(c.name for c in starters)}",
            field=game.field.render([field_label(loc.g.name) for loc in game.locs]),
        )


def take_back(game: Game, setup: GameSetup) -> None:
    """Keep a finished game's characters, disasters and locations for the next game dealt from
    ``setup`` (``_Dealt.spare``). Only :func:`.play.play_game` calls this, on a game it dealt,
    played to its end and released, whose objects nothing else holds: a game handed to a
    caller (``start_game``) is never taken back."""
    dealt = _DEALT.get(id(setup))
    if dealt is None or dealt.setup is not setup or dealt.edition is not setup.edition:
        return
    chars, disasters, locs = game.chars, game.disasters_dealt, game.locs
    if (
        len(chars) == len(dealt.char_protos)
        and len(disasters) == len(dealt.dis_protos)
        and len(locs) == len(dealt.loc_protos)
    ):
        dealt.spare = (chars, disasters, locs)


FIELD_LABEL = 14  # characters of a location's name in the trace's picture of the field


def field_label(name: str) -> str:
    """A location's name as the field picture shows it: at most :data:`FIELD_LABEL` characters,
    a cut name ending in an ellipsis (so a reader never takes it for the whole name)."""
    return name if len(name) <= FIELD_LABEL else name[: FIELD_LABEL - 1] + "…"


def _actions(fx: dict[str, Triggers]) -> frozenset[Action]:
    """The actions the deck's effects use."""
    acts: set[Action] = set()
    for triggers in fx.values():
        for entries in triggers.values():
            for _, e in entries:
                acts.add(e.do)
    return frozenset(acts)


def deck_piles(cards: Iterable[AnyCard]) -> dict[str, list[AnyCard]]:
    """Split a deck's cards into the piles setup deals from."""
    piles: dict[str, list[AnyCard]] = {
        "characters": [],
        "locations": [],
        "items": [],
        "havens": [],
        "power": [],
        "disasters": [],
        "combat": [],
    }
    key = {
        TYPE_CHARACTER: "characters",
        TYPE_LOCATION: "locations",
        TYPE_ITEM: "items",
        TYPE_HAVEN: "havens",
        TYPE_EQUIPMENT: "power",
        TYPE_ENHANCEMENT: "power",
        TYPE_FLASH_EFFECT: "power",
        TYPE_GLOBAL_EFFECT: "power",
        TYPE_DISASTER: "disasters",
        TYPE_COMBAT: "combat",
    }
    for card in cards:
        piles[key[card.type]].append(card)
    return piles
