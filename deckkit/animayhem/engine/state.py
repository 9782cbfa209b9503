"""The mutable state of one solitaire game, owned by ``play_game`` and gone when it returns.

Immutable per-step copies would be elegant and far too slow for thousands of games a second, so
each game owns plain slotted objects. Every physical card is one object that sits in exactly one
zone at any time (checked by ``zones_of`` in the invariant tests).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Final, Protocol

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharacterCard,
    CharTemplate,
    DisasterCard,
    LocationCard,
    Modifier,
    Stat,
)
from deckkit.animayhem.construction.vocabulary import Action, Trigger
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.codes import CARD_STATS, KIND_ITEM, STAT_DEFEATED, STAT_WAS_BONKED
from deckkit.animayhem.engine.field import Field
from deckkit.animayhem.engine.gamecards import GameCard, game_card, skill_vector
from deckkit.animayhem.engine.record import CardStat, GameRecord

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

Triggers = dict[Trigger, tuple[tuple[int, "GameEffect"], ...]]  # a card's effects by trigger
Mods = tuple[tuple[Stat, Modifier], ...]
Timed = tuple[Mods, int]  # modifiers and the last turn they last


class RuleHooks(Protocol):
    """The rules the effect interpreter calls back into; set on each game by setup, so the
    interpreter sits below combat and movement in the import graph."""

    def knock_out(self, game: Game, c: Char, how: str, by: Dis | None) -> None: ...
    def defeat(self, game: Game, d: Dis, winners: list[Char]) -> None: ...
    def attack(self, game: Game, d: Dis, slot: int) -> None: ...
    def worth_an_item(self, game: Game, source: Dis | Char | Copy) -> bool: ...
    def worth_using(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool: ...
    def destination(self, game: Game, party: list[Char]) -> int: ...


# Ability slots in the ``cur`` tuples below.
# Final: the compiled engine reads them as C constants, not module-dictionary lookups.
DMG: Final = 0
DEF: Final = 1
MOV: Final = 2
CHA: Final = 3
ENE: Final = 4
ABILITY_INDEX: Final = {"damage": DMG, "defense": DEF, "movement": MOV, "charm": CHA, "energy": ENE}


# The number of per-card counters (codes.STAT_*): a card's counters are this many entries of a
# game's ``counts``, from its slot times this.
N_STATS: Final = 12
assert len(CARD_STATS) == N_STATS


class CardSlots:
    """The card ids a game counts, each at a slot of its ``counts`` (``bump``): made once per
    setup from its deck (setup.py) and shared by its games, so counting looks a card id up in a
    dictionary no game builds and keeps its counters in one list made once a game. A game that
    counts a card id not listed (a card brought in by an effect, a test's) gives itself a copy
    to add it to (``_slot_for``), never adding to a shared one. ``keys`` are the record's
    keys of the counters, by their place in ``counts`` (made once per setup, not per game:
    ``_sync_counters``)."""

    __slots__ = ("ids", "index", "keys")

    def __init__(self, ids: Iterable[str] = ()) -> None:
        self.ids: list[str] = []  # by slot
        self.index: dict[str, int] = {}  # card id -> slot
        self.keys: list[tuple[str, CardStat]] = []  # (card id, stat) at slot * N_STATS + stat
        for card_id in ids:
            if card_id not in self.index:
                self.add(card_id)

    def add(self, card_id: str) -> int:
        """The new slot of ``card_id`` (not listed yet)."""
        slot = len(self.ids)
        self.ids.append(card_id)
        self.index[card_id] = slot
        self.keys.extend([(card_id, stat) for stat in CARD_STATS])
        return slot

    def copy(self) -> CardSlots:
        new = CardSlots()
        new.ids = list(self.ids)
        new.index = dict(self.index)
        new.keys = list(self.keys)
        return new


NO_SLOTS: Final = CardSlots()  # a game's until setup deals it its deck's (never added to)


def bump(game: Game, card_id: str, stat: int, n: int = 1) -> None:
    """:meth:`GameRecord.bump` in the engine: one more of a card's counter. ``stat`` is a
    counter's index (codes.STAT_*); the card's counters lie at its slot (``CardSlots``) in the
    game's one list of them, so counting hashes a card id (cached in the string) and builds
    neither a key nor a row. A game that keeps only the counters the rules read back
    (``Game.counts_all`` False: a search player's copy, whose record is never read) counts
    nothing else."""
    if not game.counts_all and stat != STAT_DEFEATED and stat != STAT_WAS_BONKED:
        return
    slot = game.slots.index.get(card_id)
    if slot is None:
        slot = _slot_for(game, card_id)
    at = slot * N_STATS + stat
    counts = game.counts
    before = counts[at]
    if before == 0:
        game.counted.append(at)  # the order the record's counters are listed in
    counts[at] = before + n
    game.counts_synced = False


def bump_card(game: Game, card: Counted, stat: int) -> None:
    """``bump`` for a card in play, by the slot it keeps (``cslot``: its id's slot, looked
    up once and kept): a check of the game's slots at it, not a dictionary look-up. A card
    is dealt again in each game of its setup, whose slots give its id the same slot (a game
    adding ids adds them to a copy, after the setup's); the check looks the id up again when
    they do not (a game given other slots, a card of another setup's)."""
    if not game.counts_all and stat != STAT_DEFEATED and stat != STAT_WAS_BONKED:
        return
    ids = game.slots.ids
    slot = card.cslot
    cid = card.cid
    # (The id listed is most often the card's own string: told by identity first.)
    if slot < 0 or slot >= len(ids) or (ids[slot] is not cid and ids[slot] != cid):
        found = game.slots.index.get(cid)
        slot = _slot_for(game, cid) if found is None else found
        card.cslot = slot
    at = slot * N_STATS + stat
    counts = game.counts
    before = counts[at]
    if before == 0:
        game.counted.append(at)  # the order the record's counters are listed in
    counts[at] = before + 1
    game.counts_synced = False


def _slot_for(game: Game, card_id: str) -> int:
    """A slot for a card id the game's slots do not list, in a copy of them its own."""
    if not game.slots_own:
        game.slots = game.slots.copy()
        game.slots_own = True
    game.counts.extend([0] * N_STATS)
    return game.slots.add(card_id)


def count(game: Game, card_id: str, stat: int) -> int:
    """A card's counter so far (``stat``: codes.STAT_*). The rules read only the defeats and
    the times bonked: a game that keeps no other (``Game.counts_all`` False) refuses the rest."""
    if not game.counts_all and stat != STAT_DEFEATED and stat != STAT_WAS_BONKED:
        raise ValueError(f"this game keeps no counter {CARD_STATS[stat]} (a copy: state.bump)")
    slot = game.slots.index.get(card_id)
    return 0 if slot is None else game.counts[slot * N_STATS + stat]


def counted_keys(game: Game) -> list[tuple[str, int]]:
    """The (card id, stat) of each counter counted, in the order first counted."""
    ids = game.slots.ids
    return [(ids[at // N_STATS], at % N_STATS) for at in game.counted]


def use_slots(game: Game, slots: CardSlots) -> None:
    """Count by ``slots`` (setup.py: its deck's), the counters so far carried over (a game
    started from a record that counted: ``_load_counters``)."""
    ids = game.slots.ids
    counts = game.counts
    kept = [(ids[at // N_STATS], at % N_STATS, counts[at]) for at in game.counted]
    game.slots = slots
    game.slots_own = False
    game.counts = [0] * (len(slots.ids) * N_STATS)
    game.counted = []
    for card_id, stat, n in kept:
        bump(game, card_id, stat, n)


def _sync_counters(game: Game) -> None:
    """Hand the counters to the record (keyed (card id, CardStat)), each key where a dictionary
    counting as they happened would have it: in the order first counted. The record makes its
    dictionary when it is read (``GameRecord.count_from``), from the slots' keys."""
    game._record.count_from(game.slots.keys, game.counts, game.counted)
    game.counts_synced = True


def _load_counters(game: Game, record: GameRecord) -> None:
    """Start the counters from a record's (empty for a new game), by the game's slots."""
    game.counts = [0] * (len(game.slots.ids) * N_STATS)
    game.counted = []
    for (card_id, stat), n in record.counters.items():
        bump(game, card_id, CARD_STATS.index(stat), n)
    game.counts_synced = True


class Told:
    """The effects dictionary a deck's dealt combat cards were told of (``Copy.texted``) and
    its size then (setup._Dealt.actions): their flags are read only while a game's ``fx`` is
    still that dictionary of that size (a test adds a card's effects to a game's dictionary
    after its setup; havens.py gives a game without effects a new one)."""

    __slots__ = ("fx", "size")

    def __init__(self, fx: dict[str, Triggers] | None = None) -> None:
        self.fx = fx
        self.size = -1 if fx is None else len(fx)


class Counted:
    """What a card in play is counted by (``bump_card``): its card's id and its counters' slot.
    The base of :class:`Copy`, :class:`Char` and :class:`Dis`, so that counting reads both at
    one place for all three (compiled: one field each, no test of which of them it is)."""

    __slots__ = ("cid", "cslot")

    cid: str
    cslot: int


class Copy(Counted):
    """One physical non-character, non-disaster card (item, power, combat, haven, location).

    ``g`` is the card's game-time record (gamecards.py) and ``cid`` its id: the game loop reads
    those; ``card`` is the construction layer's card, for the rare paths."""

    __slots__ = ("card", "g", "texted", "uid", "uses_left")

    def __init__(self, uid: int, card: AnyCard, g: GameCard | None = None) -> None:
        self.uid = uid
        self.cslot = -1  # its counters' slot, once counted (``bump_card``)
        # Whether its card has effects in its game's ``fx`` (1 or 0), as its deck's dealt
        # combat cards are told when the game is set up (setup._Dealt.actions, for the
        # dictionary ``Game.texted_fx``); -1: not told, looked up.
        self.texted = -1
        self.card = card
        if g is None:
            g = game_card(card)
        self.g = g
        self.cid = g.cid
        self.uses_left = g.uses if g.power else None

    def __repr__(self) -> str:
        return f"<{self.g.name}#{self.uid}>"


class Char(Counted):
    """A character card and, while in play, its health, energy and what it carries."""

    __slots__ = (
        "_card",
        "base",
        "base_skills",
        "bonked_turn",
        "captor",
        "categories",
        "charm_turn",
        "cur",
        "disabled_until",
        "enhancements",
        "equipment",
        "fx",
        "g",
        "gender",
        "grants",
        "health",
        "health_base",
        "health_max",
        "held_until",
        "items",
        "name",
        "pending",
        "pinned",
        "printed_skills",
        "printed_vec",
        "return_turn",
        "skill_counts",
        "slot",
        "timed",
        "uid",
        "wounded_turn",
        "zone",
    )

    # Declared here, not in the constructor: it sets them on one of two paths.
    uid: int
    _card: CharacterCard
    g: GameCard
    name: str
    gender: str
    base: tuple[int, int, int, int, int]
    health_max: int
    health_base: int
    health: int
    skill_counts: dict[str, int]
    printed_skills: dict[str, int]
    printed_vec: list[int]
    base_skills: dict[str, int]
    categories: frozenset[str]
    cur: tuple[int, int, int, int, int]
    items: list[Copy]
    equipment: list[Copy]
    enhancements: list[Copy]
    slot: int
    zone: str
    bonked_turn: int
    charm_turn: int
    fx: Triggers | None
    disabled_until: int
    held_until: int
    timed: list[Timed]
    pending: list[Mods]
    grants: list[tuple[str, int]]
    captor: int
    return_turn: int
    wounded_turn: int
    pinned: bool

    def __init__(
        self,
        uid: int,
        card: CharacterCard,
        template: CharTemplate | None = None,
        g: GameCard | None = None,
        like: Char | None = None,
    ) -> None:
        """A character as its card prints it; or, given ``like`` (a character of the game a
        search player copies: determinize.py), one in the state ``like`` is in, but for what
        it carries and what was done to it (its lists, left to the copier, which sets every
        one), its card's template not read."""
        self.uid = uid
        # Its counters' slot, once counted (``bump_card``): a copy's game has the same slots.
        self.cslot = -1 if like is None else like.cslot
        self._card = card
        if like is not None:
            self.g = like.g
            self.cid = like.cid
            self.name = like.name
            self.gender = like.gender
            self.base = like.base
            self.health_max = like.health_max
            self.health_base = like.health_base
            self.health = like.health
            self.skill_counts = like.skill_counts
            self.printed_skills = like.printed_skills
            self.printed_vec = like.printed_vec
            self.base_skills = like.base_skills
            self.categories = like.categories
            self.cur = like.cur
            self.slot = like.slot
            self.zone = like.zone
            self.bonked_turn = like.bonked_turn
            self.charm_turn = like.charm_turn
            self.fx = like.fx
            self.disabled_until = like.disabled_until
            self.held_until = like.held_until
            self.captor = like.captor
            self.return_turn = like.return_turn
            self.wounded_turn = like.wounded_turn
            self.pinned = like.pinned
            return
        if g is None:
            g = game_card(card)
        self.g = g
        self.cid = g.cid
        self.name = card.name
        t = template or CharTemplate.of(card)
        self.gender = t.gender
        self.base = t.base
        self.health_max = t.health_max
        self.health_base = t.health_max  # printed health; card effects may change health_max
        self.health = t.health_max
        self.skill_counts = t.skill_counts  # shared with the template: never mutated
        # The template's counts and the same by skill id (gamecards.skill_vector), made once
        # for the prototype and shared by its copies: while ``skill_counts`` is that very
        # dictionary (most characters, most of the time: nothing granted or forfeited), the
        # requirement checks read a skill by its id (cardrules.py). Told by identity, so a
        # form's swapped printed skills (interpreter/vehicles_and_forms) are read by name.
        self.printed_skills = t.skill_counts
        self.printed_vec = skill_vector(t.skill_counts)
        self.base_skills = t.skill_counts  # printed skills; skill_counts adds granted ones
        self.categories = t.categories
        self.cur = self.base
        self.items = []
        self.equipment = []
        self.enhancements = []
        self.slot = -1  # location slot while on the field
        self.zone = "draw"  # draw, hand, haven, field, bonked, captured, discard, aside (REPLACE)
        self.bonked_turn = -1
        self.charm_turn = -1  # the turn it last declared a charm battle (one a turn)
        # Effects (interpreter/): the card's own effects by trigger, and what others did to it.
        self.fx = None
        self.disabled_until = 0  # no move, scavenge or attack through this turn
        self.held_until = 0  # no move through this turn
        self.timed = []  # ability modifiers lasting through a turn
        self.pending = []  # modifiers for its next combat
        self.grants = []  # (skill, through turn); 0 = while the source
        self.captor = -1  # uid of the disaster holding it captive (-1: none)
        self.return_turn = 0  # a captive returns to the haven at this turn's reload
        self.wounded_turn = -1  # took direct damage this turn; heals at the next turn
        self.pinned = False  # cannot run away from its next combat (No Way Out)

    @property
    def card(self) -> CharacterCard:
        """The character card it plays as (a form swaps it: interpreter/vehicles_and_forms)."""
        return self._card

    @card.setter
    def card(self, card: CharacterCard) -> None:
        self._card = card
        g = game_card(card)
        self.g = g
        self.cid = g.cid

    def set_energy(self, energy: int) -> None:
        cur = self.cur
        self.cur = (cur[0], cur[1], cur[2], cur[3], energy)

    # PartyMember protocol (requirements.py)
    def current(self, ability: str) -> int:
        return self.cur[ABILITY_INDEX[ability]]

    def has_category(self, category: str) -> bool:
        """The category is the character's own or that of a card it carries: its equipment
        (a vehicle counts as a << Vehicle >>: set0 rulebook, "Vehicles": "An equipment card may be
        categorized as a vehicle") and its items (Lexicon "Categories": look for the category on
        cards in play). Checked card by card, so nothing is cached and nothing goes stale when
        equipment or items change hands."""
        if category in self.categories:
            return True
        for x in self.equipment:
            g = x.g
            if category in g.categories:
                return True
            if category == "Vehicle" and g.vehicle:
                return True
        return any(category in x.g.categories for x in self.items)

    def carries(self, card_name: str) -> bool:
        """An item or equipment card of that name is on it (a skill listing naming a card:
        Ryoko's Prison Cave, "Keys")."""
        for x in self.items:
            if x.g.name == card_name:
                return True
        return any(x.g.name == card_name for x in self.equipment)

    @property
    def carrying_items(self) -> bool:
        return bool(self.items)

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid}>"


# The ``ignores`` and ``shunned`` of a disaster that has none yet: one shared empty frozenset
# (most disasters of most games never get one, and a game then builds no two sets for each); a
# disaster is given a set of its own (``Dis.own_ignores``/``own_shunned``) before one is added.
NO_UIDS: Final[frozenset[int]] = frozenset()
UidSet = set[int] | frozenset[int]


class Dis(Counted):
    """A disaster card and, once face up, where it is on the disaster path."""

    __slots__ = (
        "ally_of",
        "backward",
        "base_damage",
        "base_defense",
        "card",
        "carrying",
        "charm",
        "combat",
        "damage_counts_characters",
        "defense_counts_characters",
        "entered",
        "first_move_done",
        "fx",
        "g",
        "game",
        "health",
        "ignores",
        "incapacitated_turn",
        "major",
        "movement",
        "name",
        "pos",
        "recycled",
        "shunned",
        "stationary",
        "stolen",
        "uid",
        "zone",
    )

    # Declared here, not in the constructor: it sets them on one of two paths.
    uid: int
    card: DisasterCard
    g: GameCard
    name: str
    game: Game | None
    base_damage: int
    base_defense: int
    damage_counts_characters: bool
    defense_counts_characters: bool
    movement: int
    charm: int
    major: bool
    combat: bool
    health: int
    pos: int
    carrying: list[Copy]
    stolen: Copy | None
    first_move_done: bool
    stationary: bool
    backward: bool
    entered: int
    ignores: UidSet
    shunned: UidSet
    incapacitated_turn: int
    ally_of: Dis | None
    zone: str
    fx: Triggers | None
    recycled: bool

    def __init__(
        self, uid: int, card: DisasterCard, g: GameCard | None = None, like: Dis | None = None
    ) -> None:
        """A disaster as its card prints it; or, given ``like`` (a disaster of the game a
        search player copies: determinize.py), one in the state ``like`` is in, but for what
        points at other objects (its game, what it carries or stole, whom it ignores or shuns,
        its ally: none here, the copier sets them; what it carries is left to the copier, which
        always sets it), its card not read again."""
        self.uid = uid
        # Its counters' slot, once counted (``bump_card``): a copy's game has the same slots.
        self.cslot = -1 if like is None else like.cslot
        self.card = card
        if like is not None:
            self.g = like.g
            self.cid = like.cid
            self.name = like.name
            self.game = None
            self.base_damage = like.base_damage
            self.base_defense = like.base_defense
            self.damage_counts_characters = like.damage_counts_characters
            self.defense_counts_characters = like.defense_counts_characters
            self.movement = like.movement
            self.charm = like.charm
            self.major = like.major
            self.combat = like.combat
            self.health = like.health
            self.pos = like.pos
            self.stolen = None
            self.first_move_done = like.first_move_done
            self.stationary = like.stationary
            self.backward = like.backward
            self.entered = like.entered
            self.ignores = NO_UIDS
            self.shunned = NO_UIDS
            self.incapacitated_turn = like.incapacitated_turn
            self.ally_of = None
            self.zone = like.zone
            self.fx = like.fx
            self.recycled = like.recycled
            return
        if g is None:
            g = game_card(card)
        self.g = g
        self.cid = g.cid
        self.name = card.name
        self.game = None  # set when it enters the field, to count characters
        self.base_damage = 0
        self.base_defense = 0
        self.damage_counts_characters = False
        self.defense_counts_characters = False
        self.reset_damage_defense()
        self.movement = g.movement
        self.charm = g.charm
        self.major = g.major
        self.combat = g.combat
        self.health = self.health_max
        self.pos = -1  # index on the field's disaster path while on the field
        self.carrying = []  # at most one item (set0 rulebook, "Major Disaster")
        self.stolen = None  # the card it last stole (held while in ``carrying``)
        self.first_move_done = False
        self.stationary = False  # "Moves N" disasters stay put after their N movements
        self.backward = False  # moves against the disaster path (REVERSE: Change Direction)
        self.entered = 0  # order of arrival, for ties
        # Characters it ignores until they attack it: a charmer who won against a major ("will
        # ignore the charmer until the charmer attacks it"), or all who lost ("Special Case").
        # NO_UIDS until it has any (add through ``own_ignores``).
        self.ignores = NO_UIDS
        # Characters who lost a charm battle against it and may not attack it until it attacks
        # them, across combats (kept only under the rule option charm_loss=until_attacked).
        self.shunned = NO_UIDS
        self.incapacitated_turn = -1
        self.ally_of = None
        self.zone = "draw"  # draw, location (face down), drawn, field, lasting, discard
        self.fx = None  # its effects by trigger (interpreter/)
        self.recycled = False  # defeated and shuffled back into the draw pile (RECYCLE)

    def own_ignores(self) -> set[int]:
        """``ignores``, as a set of its own to add to."""
        own = self.ignores
        if not isinstance(own, set):
            own = self.ignores = set()
        return own

    def own_shunned(self) -> set[int]:
        """``shunned``, as a set of its own to add to."""
        own = self.shunned
        if not isinstance(own, set):
            own = self.shunned = set()
        return own

    def reset_damage_defense(self) -> None:
        """The printed damage and defense. Bugrom Horde and 55-C Bodyguard Boomer print a bonus
        on the number of characters at their location (card text): the bonus is kept here and
        the characters are counted whenever the ability is read."""
        g = self.g
        bonus = g.damage_bonus
        self.damage_counts_characters = bonus is not None
        self.base_damage = bonus if bonus is not None else g.damage
        bonus = g.defense_bonus
        self.defense_counts_characters = bonus is not None
        self.base_defense = bonus if bonus is not None else g.defense

    @property
    def damage(self) -> int:
        """Current damage; for a plus-characters disaster it changes as characters come and
        go."""
        if self.damage_counts_characters:
            return self.base_damage + self.characters_here()
        return self.base_damage

    @damage.setter
    def damage(self, value: int) -> None:
        # A lasting modifier (card effects) changes the printed value, or the printed bonus.
        if self.damage_counts_characters:
            value -= self.characters_here()
        self.base_damage = value

    @property
    def defense(self) -> int:
        if self.defense_counts_characters:
            return self.base_defense + self.characters_here()
        return self.base_defense

    @defense.setter
    def defense(self, value: int) -> None:
        if self.defense_counts_characters:
            value -= self.characters_here()
        self.base_defense = value

    @property
    def health_max(self) -> int:
        """Health at the start of a combat: a printed health (card text, "Health = 14") or its
        current defense (set0 rulebook, Lexicon "Health")."""
        printed = self.g.health
        return printed if printed is not None else self.defense

    def characters_here(self) -> int:
        """Characters at this disaster's location (none while it is off the field)."""
        game = self.game
        if game is None or self.zone != "field" or self.pos < 0:
            return 0
        slot = game.field.path[self.pos]
        return sum(1 for c in game.chars if c.zone == "field" and c.slot == slot)

    def forget(self) -> None:
        """A card that leaves play "loses all memory of what happened to it in play" (set0
        rulebook, "Zones of Play"): back to its printed state before it is drawn again."""
        self.pos = -1
        self.recycled = False
        self.carrying = []
        self.stolen = None
        self.first_move_done = False
        self.stationary = False
        self.backward = False
        self.health = self.health_max
        self.ignores = NO_UIDS
        self.shunned = NO_UIDS
        self.incapacitated_turn = -1
        self.ally_of = None
        self.reset_damage_defense()
        self.movement = self.g.movement
        self.charm = self.g.charm
        self.health = self.health_max

    def __repr__(self) -> str:
        return f"<{self.name}#{self.uid}>"


class Loc:
    """A location on the field with what lies face down beneath it (disasters above items)."""

    __slots__ = (
        "card",
        "cid",
        "copy",
        "damaging",
        "destroyed",
        "dimensional",
        "g",
        "hidden_cards",
        "hidden_disasters",
        "planetary",
        "slot",
    )

    # Declared here, not in the constructor: it sets them on one of two paths.
    slot: int
    copy: Copy
    card: LocationCard
    g: GameCard
    cid: str
    hidden_disasters: list[Dis]
    hidden_cards: list[Copy]
    damaging: bool
    destroyed: bool
    planetary: bool
    dimensional: bool

    def __init__(self, slot: int, copy: Copy, like: Loc | None = None) -> None:
        """A location laid out; or, given ``like`` (a location of the game a search player
        copies: determinize.py), one in the state ``like`` is in, but for what lies beneath it
        (left to the copier, which sets both lists)."""
        self.slot = slot
        self.copy = copy
        if like is not None:
            self.card = like.card
            self.g = like.g
            self.cid = like.cid
            self.damaging = like.damaging
            self.destroyed = like.destroyed
            self.planetary = like.planetary
            self.dimensional = like.dimensional
            return
        card = copy.card
        assert isinstance(card, LocationCard)
        self.card = card
        self.g = copy.g
        self.cid = copy.cid
        self.hidden_disasters = []  # index 0 is the top card
        self.hidden_cards = []  # items and dropped equipment
        # Its card prints damage ("Locations with Damage"): read once, not from the card (an
        # interpreted object) at every Move phase.
        self.damaging = card.damage is not None
        self.destroyed = False
        # LocationCard.planetary and .dimensional, read from the record's symbols (the card's
        # properties would run interpreted code for every location of every game).
        symbols = copy.g.symbols
        self.planetary = "Planetary" in symbols
        self.dimensional = "Dimensional" in symbols


def _count(x: Copy, tally: bool) -> int:
    """1 for an item card (its ``tally`` when asked), 0 for anything else."""
    g = x.g
    if g.kind != KIND_ITEM:
        return 0
    return g.tally if tally else 1


def _who(x: Any) -> Any:
    """A card in play (character, disaster, copy, location) or a list of them, as data."""
    if isinstance(x, list | tuple):
        return [_who(y) for y in x]
    card = x.card
    return {"id": card.id, "name": getattr(x, "name", card.name)}


@dataclass(slots=True)
class Trace:
    """Events of one game for `deckkit play`; the engine writes here only when asked to."""

    events: list[dict[str, Any]] = field(default_factory=list)

    def add(self, kind: str, text: str, **data: Any) -> None:
        self.events.append({"kind": kind, "text": text, **data})


@dataclass(slots=True)
class Building:
    """A haven being built: its card, the location, the builders and the last turn they rest."""

    haven: Copy
    slot: int
    builders: list[Char]
    last_turn: int
    # Each builder's ``disabled_until`` before the building disabled it, restored if it stops.
    before: list[int]


class Game:
    """Everything about one game in progress."""

    field: Field  # laid out by setup

    # Declared here, not in the constructor: a copy (``like``) sets them after it.
    chars: list[Char]
    locs: list[Loc]
    draw_pile: list[Copy | Char | Dis]
    hand: list[Copy | Char]
    combat_pile: list[Copy]
    havens: list[Copy]
    disasters: list[Dis]
    disasters_dealt: list[Dis]

    def __init__(
        self,
        chance: SeededChance,
        record: GameRecord,
        trace: Trace | None,
        like: Game | None = None,
    ) -> None:
        """A new game; or, given ``like`` (the game a search player copies: determinize.py),
        one with ``like``'s plain values (turn, phase, counts, the tables it shares) and of its
        per-card counters only the two the rules read back (``count``), whose zones are left
        to the copier: those it always fills (the characters, locations, piles, hand, havens
        and disasters) are not built here only to be replaced, the rest new and empty."""
        self.chance = chance
        self._record = record
        if like is not None:
            self._copy_of(like)
            return
        # The per-card counters (``bump``): the card ids' slots (setup gives the deck's), a list
        # of every slot's counters (codes.STAT_* after the slot's first), and where each counter
        # first counted lies in it, in that order; written into the record when it is read
        # (``record``).
        self.slots = NO_SLOTS
        self.slots_own = False  # ``slots`` this game's own to add to (``_slot_for``)
        self.counts: list[int] = []
        self.counted: list[int] = []
        self.counts_synced = True
        # Every counter (a game played), or only those the rules read back (``count``: a
        # search player's copy, whose record is never read; set by determinize).
        self.counts_all = True
        if record.counts_any():
            _load_counters(self, record)
        self.trace = trace
        self.turn = 0
        self.phase = "setup"
        self.locs = []
        self.chars = []
        self.draw_pile = []
        self.hand = []
        self.discard: list[Copy | Char | Dis] = []
        self.combat_pile = []
        self.combat_discard: list[Copy] = []
        self.havens = []  # havens in play; the first is the starting haven
        self.haven_cards: list[Copy] = []  # items and equipment stored in havens
        self.globals_in_play: list[tuple[Copy, int]] = []  # (card, last turn it lasts)
        self.disasters = []  # face up on the field
        self.disasters_dealt = []  # every disaster card of the game (play.release)
        self.drawn: list[Dis] = []  # drawn this reload phase, entering at maintenance
        self.carried_off: list[Copy] = []  # items destroyed by disasters completing a cycle
        self.unused: list[Copy] = []  # items beyond one per location (fifth2018), not in play
        self.scavenged: set[int] = set()  # location slots fully scavenged at least once
        self.dist: tuple[tuple[int, ...], ...] = ()  # steps between location slots
        self.items_in_play = 0
        self.tally_extra = 0  # items in play counting for more than 1 in the tally (C-ko: +1)
        self.arrivals = 0
        self.scavenge_started: set[int] = set()  # character uids that started this turn
        self.done_scavenging: set[int] = set()  # location slots stopped this turn
        self.ended: str | None = None
        self.outcome: str | None = None
        # The combats being fought, innermost last (combat.go_on), the game's own: a Dask
        # worker's threads play other games at once. A list whose storage is sized for one
        # (emptied from a larger one, CPython gives its storage back, and the next fight's
        # append asks for it again).
        fighting: list[Any] = [None]
        fighting.pop()
        self.fighting = fighting
        # Effects (interpreter/)
        self.fx: dict[str, Triggers] = {}  # card id -> its effects by trigger
        # What the dealt combat cards were told of (``Copy.texted``; set by setup).
        self.told: Told | None = None
        self.hooks: RuleHooks  # the rules the interpreter calls back into (set by setup)
        self.lasting: list[tuple[Dis, int]] = []  # off-field disasters lasting through a turn
        self.blocked: dict[int, tuple[int, int]] = {}  # slot -> (through turn, source uid)
        self.fired: dict[tuple[int, int], int] = {}  # (card uid, effect index) -> times
        # (card id, character uid): a standing effect reaching a character counts as one act of
        # its card however often the character's abilities are recomputed (abilities.py).
        self.standing_seen: set[tuple[str, int]] = set()
        self.dis_timers: list[tuple[int, Dis, tuple[int, int, int, int]]] = []
        # Character-side additions: the actions this deck's effects use (so a game without
        # protections pays one set test), and how many of the next defeated disasters are
        # shuffled back into the draw pile (Willpower).
        self.acts: frozenset[Action] = frozenset()
        self.recycle_next = 0
        # Locations turned havens (BECOME_HAVEN): still locations (the zones list them there);
        # their standing effects reach the player's characters like a haven's.
        self.turned_havens: list[Copy] = []
        # Extra havens (havens.py): built ones by the location they are annexed to, and those
        # being built (Building).
        self.annexed: dict[int, Copy] = {}
        self.building: list[Building] = []
        # Forms (REPLACE): (character in play, the card set aside for it, through turn).
        self.forms: list[tuple[Char, Char, int]] = []
        # Face-down cards the player has looked at (REVEAL), by uid: the policy may use what
        # lies under a location only for these (policy.py).
        self.known: set[int] = set()
        # The heuristic player's memory of its held hand (policy.HOLD_HAND): what lay under the
        # locations and in the items held when it last changed, and the turn it did.
        self.hold_mark: tuple[int, int] = (-1, 0)
        # Rule options (construction/readings.py) read below the rules' own modules; setup
        # copies them from the edition.
        self.item_pickup = "through"
        # The hand a Reload fills (the edition's ``hand_limit``, set by setup): what the player
        # knows of its next draw (queries.draw_may_bring_disaster).
        self.hand_limit = 7

    def _copy_of(self, like: Game) -> None:
        """The constructor's copy of ``like`` (see ``__init__``)."""
        self.counts_all = False  # a copy's record is never read (``bump``)
        self.counts_synced = True
        # The two counters the rules read back (``count``) go on from the game's: a form that
        # waits for its character's third bonk (Super Saiyan (Goku), vehicles_and_forms.py)
        # comes in a rollout when it would in the game. The slots are the game's (a copy of
        # them if it adds to its own); ``counted`` lists the counters kept.
        self.slots_own = like.slots_own
        self.slots = like.slots.copy() if like.slots_own else like.slots
        theirs = like.counts
        counts = [0] * len(theirs)
        counted: list[int] = []
        for at in like.counted:
            stat = at % N_STATS
            if stat in (STAT_DEFEATED, STAT_WAS_BONKED):
                counts[at] = theirs[at]
                counted.append(at)
        self.counts = counts
        self.counted = counted
        self.trace = None
        # The game's own combats, shared: a rollout of a choice made in a combat carries the
        # game's innermost one over to the copy (rollout.py), and the copy's fights, each
        # ended before the rollout returns, leave it as it was.
        self.fighting = like.fighting
        self.field = like.field
        self.turn = like.turn
        self.phase = like.phase
        self.dist = like.dist
        self.items_in_play = like.items_in_play
        self.tally_extra = like.tally_extra
        self.arrivals = like.arrivals
        self.ended = like.ended
        self.outcome = like.outcome
        self.fx = like.fx
        self.told = like.told  # (its combat cards are copies: never told)
        self.hooks = like.hooks
        self.acts = like.acts
        self.recycle_next = like.recycle_next
        self.hold_mark = like.hold_mark
        self.item_pickup = like.item_pickup
        self.hand_limit = like.hand_limit
        self.discard = []
        self.combat_discard = []
        self.haven_cards = []
        self.globals_in_play = []
        self.drawn = []
        self.carried_off = []
        self.unused = []
        self.scavenged = set()
        self.scavenge_started = set()
        self.done_scavenging = set()
        self.lasting = []
        self.blocked = {}
        self.fired = {}
        self.standing_seen = set()
        self.dis_timers = []
        self.turned_havens = []
        self.annexed = {}
        self.building = []
        self.forms = []
        self.known = set()

    @property
    def record(self) -> GameRecord:
        """What the game returns: its outcome and per-card counters (brought up to date)."""
        if not self.counts_synced:
            _sync_counters(self)
        return self._record

    @record.setter
    def record(self, record: GameRecord) -> None:
        self._record = record
        _load_counters(self, record)

    def say(self, kind: str, text: str, actor: Any = None, target: Any = None, **data: Any) -> None:
        """One trace event: its kind, the sentence, and as data who acted on whom (card ids
        beside names) and any numbers, for `deckkit play --format json`."""
        if self.trace is not None:
            if actor is not None:
                data["actor"] = _who(actor)
            if target is not None:
                data["target"] = _who(target)
            self.trace.add(kind, text, turn=self.turn, phase=self.phase, **data)

    # --- views over the zones -------------------------------------------------------------
    def on_field(self) -> list[Char]:
        return [c for c in self.chars if c.zone == "field"]

    def in_haven(self) -> list[Char]:
        return [c for c in self.chars if c.zone == "haven"]

    def at(self, slot: int) -> list[Char]:
        # (The slot first: an integer compared, where most characters differ, before the zone.)
        return [c for c in self.chars if c.slot == slot and c.zone == "field"]

    def disasters_at(self, slot: int) -> list[Dis]:
        path = self.field.path
        return [d for d in self.disasters if path[d.pos] == slot]

    def slot_of(self, d: Dis) -> int:
        return self.field.path[d.pos]

    def items_player(self, tally: bool = False) -> int:
        """Items the player controls: carried by characters or stored in havens. With ``tally``,
        counted as the final item tally counts them (C-ko Kotobuki's card: 2 items)."""
        n = 0  # loops, not generators: the end checks ask this every turn
        for c in self.chars:
            if c.items:
                zone = c.zone
                if zone == "field" or zone == "haven":
                    for x in c.items:
                        n += _count(x, tally)
        for x in self.haven_cards:
            n += _count(x, tally)
        return n

    def items_disasters(self, tally: bool = False) -> int:
        """Items the disasters control: carried, and carried off the field (1998 guidelines
        4.3: "Disasters Control Discarded / Destroyed Items"). In this engine an item is only
        ever destroyed by a disaster completing its cycle (``carried_off``); the invariant test
        (items retrieved + held + destroyed + hidden = items in play) guards that."""
        held = 0
        for d in self.disasters:
            for x in d.carrying:
                held += _count(x, tally)
        for x in self.carried_off:
            held += _count(x, tally)
        return held

    def items_hidden(self, tally: bool = False) -> int:
        return sum(_count(x, tally) for loc in self.locs for x in loc.hidden_cards)

    def tally_in_play(self) -> int:
        """The final item tally of every item in play (``items_in_play`` counts cards)."""
        return self.items_in_play + self.tally_extra

    def zones_of(self) -> Iterator[tuple[str, Copy | Char | Dis]]:
        """Every card object with the zone it sits in (for the conservation invariant)."""
        for x in self.draw_pile:
            yield "draw", x
        for x in self.hand:
            yield "hand", x
        for x in self.discard:
            yield "discard", x
        for x in self.combat_pile:
            yield "combat_pile", x
        for x in self.combat_discard:
            yield "combat_discard", x
        for x in self.havens:
            yield "havens", x
        for x in self.haven_cards:
            yield "haven_cards", x
        for b in self.building:
            yield "building", b.haven
        for g, _ in self.globals_in_play:
            yield "globals", g
        for x in self.carried_off:
            yield "carried_off", x
        for x in self.unused:
            yield "unused", x
        for loc in self.locs:
            yield "field", loc.copy
            for d in loc.hidden_disasters:
                yield "under_location", d
            for x in loc.hidden_cards:
                yield "under_location", x
        for d in self.disasters:
            yield "on_field", d
            for x in d.carrying:
                yield "carried_by_disaster", x
        for d in self.drawn:
            yield "drawn", d
        for d, _ in self.lasting:
            yield "lasting", d
        for c in self.chars:
            if c.zone in ("field", "haven", "bonked", "captured", "aside"):
                yield c.zone, c
                for x in c.items:
                    yield "carried", x
                for x in c.equipment:
                    yield "equipped", x
                for x in c.enhancements:
                    yield "enhanced", x
