"""Standing rules, read by combat, movement and the phases while a card is in play.

PREFER, SPARE, SHIELD, SAFEGUARD, EXTRA_CARDS, lasting modifiers, IMMUNE, a haven's RECYCLE,
PRESERVE, STORE, HIDE, AMPLIFY, LEAP, WEAR and FORFEIT; and ``record_uses``, which counts what a
read-only query (:mod:`deckkit.animayhem.engine.queries`) found acting once the rules act on it."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import AnyCard, PowerCard
from deckkit.animayhem.construction.vocabulary import Action
from deckkit.animayhem.engine.abilities import carries_effects_for, conditional, refresh
from deckkit.animayhem.engine.codes import (
    ACT_AMPLIFY,
    ACT_EXTRA_CARDS,
    ACT_HIDE,
    ACT_IMMUNE,
    ACT_MODIFY,
    ACT_PREFER,
    ACT_PRESERVE,
    ACT_RECYCLE,
    ACT_SAFEGUARD,
    ACT_SHIELD,
    ACT_SPARE,
    ACT_STORE,
    ACT_WEAR,
    KIND_FLASH_EFFECT,
    TARGET_CARDS_IN_PLAY,
    TARGET_DISASTERS,
    TARGET_FIELD,
    TARGET_HERE,
    TARGET_PLAY,
    TARGET_SELF,
    TRIGGER_ALWAYS,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import NO_CHAR_MODS, Source, _credit, _say
from deckkit.animayhem.engine.queries import (
    Use,
    _carried_standing,
    _lent,
    card_matches,
    conditions_hold,
    fits,
    leap_room,
    standing,
)
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect
    from deckkit.animayhem.engine.state import Mods, Triggers


def record_uses(game: Game, uses: list[Use]) -> None:
    """Record what a query found acting, now that the rules act on it: each card's effect
    counts as used, says what it did in the turn trace, and spends one of its ``max_times``."""
    for u in uses:
        _credit(game, u.card)
        if u.said and u.source is not None:
            _say(game, u.source, u.said)
        if u.key is not None:
            game.fired[u.key] = game.fired.get(u.key, 0) + 1
        if u.spent is not None and u.holder is not None:
            spend_use(game, u.holder, u.spent)
    uses.clear()


def spend_use(game: Game, holder: Char, x: Copy) -> None:
    """One use of an equipment or enhancement card with a usage limit on ``holder``; out of
    uses, it is discarded (set0 rulebook, "Equipment Cards With Usage Limits": "Once the maximum
    number of uses has been reached, then equipment card is discarded"; an enhancement printing
    "N uses" is read the same way). A weapon's own rule, back to the hand, is combat.py's."""
    if x.uses_left is None:
        return
    x.uses_left -= 1
    if x.uses_left <= 0:
        (holder.enhancements if x in holder.enhancements else holder.equipment).remove(x)
        x.uses_left = x.g.uses if x.g.power else None
        game.discard.append(x)
        _say(game, x, f"is used up on {holder.name}")
        refresh(game, holder)


def safeguarded(game: Game, holder: Char, x: Copy) -> bool:
    """No disaster may steal or take this carried item (SAFEGUARD): a global effect in play
    names its kind for every character (Classy Crooks: Gift and Clothing items), or a card its
    carrier carries does for its carrier. Callers ask only for items, and only when SAFEGUARD
    is in the deck."""
    for g, _ in game.globals_in_play:
        for e in standing(game.fx.get(g.cid), ACT_SAFEGUARD):
            if e.target is TARGET_PLAY and fits(e, holder) and matches(x.g, e.cards):
                _credit(game, g.card)
                return True
    for pile in (holder.items, holder.equipment, holder.enhancements):
        for y in pile:
            for e in standing(game.fx.get(y.cid), ACT_SAFEGUARD):
                if e.target is not TARGET_SELF or not matches(x.g, e.cards):
                    continue
                # The first n matching items its carrier holds (Assassin Disguise: one).
                kept = [z for z in holder.items if matches(z.g, e.cards)][: max(1, e.n)]
                if x in kept:
                    _credit(game, y.card)
                    return True
    return False


def stealable(game: Game, holder: Char, pile: list[Copy]) -> list[Copy]:
    """The items of ``pile`` a disaster may steal or take from ``holder`` (SAFEGUARD)."""
    if ACT_SAFEGUARD not in game.acts:
        return pile
    return [x for x in pile if not safeguarded(game, holder, x)]


def spared(game: Game, d: Dis, c: Char) -> bool:
    """The disaster never attacks this character (SPARE)."""
    if any(fits(e, c) for e in standing(d.fx, ACT_SPARE)):
        _credit(game, d.card)
        return True
    return False


def attack_order(game: Game, d: Dis, pool: list[Char]) -> list[Char]:
    """Whom the disaster attacks first (PREFER); everyone when nobody matches."""
    if ACT_PREFER not in rules_of(d.fx):
        return pool  # nobody first, asked without a list every round
    prefs = standing(d.fx, ACT_PREFER)
    first = [c for c in pool if any(fits(e, c) for e in prefs)]
    if first and len(first) < len(pool):
        _credit(game, d.card)
    return first or pool


def has_rule(game: Game, d: Dis, rule: Action) -> bool:
    """The disaster carries this standing rule (NO_RETREAT, IGNORE_CARDS, DUEL, APART); each
    time it shapes a combat counts as a use of the card's effect. Asked several times a combat
    round: a set made once (:func:`rules_of`), not a list of them
    (:func:`queries.standing`)."""
    if d.fx is None or rule not in rules_of(d.fx):
        return False
    _credit(game, d.card)
    return True


class _Rules:
    """The effects table :func:`rules_of` was last asked about and its answer: a combat asks
    about the same disaster several times a round."""

    __slots__ = ("fx", "rules")

    def __init__(self) -> None:
        self.fx: Triggers | None = None  # held, so its id is not reused while kept
        self.rules: frozenset[Action] = frozenset()


_LAST_RULES: Final = _Rules()
# Every effects table asked about, by id, with the table held (a run's tables are made once,
# at its start, and never changed: setup.py shares them between its games).
_RULES: Final[dict[int, tuple[Triggers, frozenset[Action]]]] = {}


def rules_of(fx: Triggers | None) -> frozenset[Action]:
    """The actions of a card's standing (ALWAYS) effects, from its effects table ``fx``: what
    a combat round asks several times of its disaster (NO_RETREAT, IGNORE_CARDS, PREFER,
    SHIELD, APART), worked out once per table instead of a scan of its effects each time."""
    if fx is None:
        return _NO_RULES
    last = _LAST_RULES
    if last.fx is fx:
        return last.rules
    known = _RULES.get(id(fx))
    if known is not None and known[0] is fx:
        rules = known[1]
    else:
        rules = frozenset(e.do for _, e in fx.get(TRIGGER_ALWAYS, ()))
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        _RULES[id(fx)] = (fx, rules)
    last.fx = fx
    last.rules = rules
    return rules


_NO_RULES: Final[frozenset[Action]] = frozenset()
_RULES_KEPT: Final = 4096


def has_standing(fx: Triggers | None, do: Action) -> bool:
    """The card has a standing (ALWAYS) effect of this action: :func:`queries.standing` without
    the list, for a test asked every combat round."""
    if fx is None:
        return False
    return any(e.do is do for _, e in fx.get(TRIGGER_ALWAYS, ()))


def shielded_from(game: Game, d: Dis, c: Char) -> bool:
    """The disaster takes no damage from this character (SHIELD)."""
    if any(fits(e, c) for e in standing(d.fx, ACT_SHIELD)):
        _credit(game, d.card)
        return True
    return False


def auras_in_play(game: Game) -> list[tuple[Source, GameEffect]]:
    """ALWAYS effects of cards in play that reach others: face-up and lasting disasters and
    global effects."""
    out: list[tuple[Source, GameEffect]] = []
    for d in game.disasters:
        if d.fx is not None:
            for _, e in d.fx.get(TRIGGER_ALWAYS, ()):
                out.append((d, e))
    for d, _ in game.lasting:
        if d.fx is not None:
            for _, e in d.fx.get(TRIGGER_ALWAYS, ()):
                out.append((d, e))
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is not None:
            for _, e in fx.get(TRIGGER_ALWAYS, ()):
                out.append((g, e))
    return out


def extra_cards(game: Game, d: Dis, auras: list[tuple[Source, GameEffect]] | None = None) -> int:
    """Combat cards the disaster draws beyond its one (EXTRA_CARDS of itself and others).
    ``auras``: :func:`auras_in_play`, when the caller has gathered them for the combat."""
    n = 0
    for src, e in auras_in_play(game) if auras is None else auras:
        if e.do is not ACT_EXTRA_CARDS:
            continue
        if (src is d and e.target is TARGET_SELF) or (
            e.target is TARGET_DISASTERS and d.combat and matches(d.g, e.cards)
        ):
            n += e.n
            _credit(game, src.card)
    return n


def disaster_bonus(
    game: Game, d: Dis, auras: list[tuple[Source, GameEffect]] | None = None
) -> tuple[int, int]:
    """Damage and defense a disaster gains while cards last: its own standing modifiers and
    those others lend (e.g. every Bugrom +2). ``auras`` as for :func:`extra_cards`."""
    dmg = dfn = 0
    for src, e in auras_in_play(game) if auras is None else auras:
        if e.do is not ACT_MODIFY:
            continue
        own = src is d and e.target is TARGET_SELF
        if not own and (e.target is not TARGET_DISASTERS or src is d):
            continue
        if not matches(d.g, e.cards) or not conditions_hold(game, e, -1):
            continue
        _credit(game, src.card)
        add_dmg, add_dfn = _lent(e.mods, d)
        dmg += add_dmg
        dfn += add_dfn
    # A character in play may lend every disaster of a kind its bonus (Katsuhiko Jinnai).
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for _, e in c.fx.get(TRIGGER_ALWAYS, ()):
            lends = e.do is ACT_MODIFY and e.target is TARGET_DISASTERS
            if lends and matches(d.g, e.cards) and conditions_hold(game, e, -1):
                _credit(game, c.card)
                add_dmg, add_dfn = _lent(e.mods, d)
                dmg += add_dmg
                dfn += add_dfn
    return dmg, dfn


def party_lenders(game: Game, slot: int) -> list[tuple[AnyCard, GameEffect]]:
    """The MODIFY effects lent to everyone at ``slot`` (target ``here``) by the characters there
    and the cards they carry, in table order: gathered once per combat, not once per fighter."""
    return [
        (card, e)
        for other in game.at(slot)
        for card, e in _carried_standing(game, other)
        if e.do is ACT_MODIFY and e.target is TARGET_HERE
    ]


def party_combat_mods(
    game: Game, chars: list[Char], d: Dis, slot: int, auras: list[tuple[Source, GameEffect]]
) -> dict[int, list[Mods]]:
    """:func:`combat_mods` of each of ``chars`` (all at ``slot``) by uid, with what they share
    gathered once for the combat: each character's standing effects there (read for its own
    bonuses and for those it lends), the party bonuses, and ``auras`` (:func:`auras_in_play`)."""
    # Only those with standing effects are kept (most characters have none): the dictionary is
    # made at the first one, the lenders' list only from it.
    carried: dict[int, list[tuple[AnyCard, GameEffect]]] | None = None
    # Those at ``slot`` (``game.at``) read in the game's order without the list: the loop only
    # reads them.
    for other in game.chars:
        if other.slot != slot or other.zone != "field":
            continue
        if _has_standing(game, other):
            mine = _carried_standing(game, other)
            if mine:
                if carried is None:
                    carried = {}
                carried[other.uid] = mine
    lenders = NO_LENDERS
    if carried is not None:
        lenders = [
            (card, e)
            for mine in carried.values()
            for card, e in mine
            if e.do is ACT_MODIFY and e.target is TARGET_HERE
        ]
    reach = _auras_reaching(game, auras, slot) if auras else NO_AURAS
    shared = bool(lenders) or bool(reach) or game.locs[slot].cid in game.fx
    # A character with nothing that may apply gets no entry (most of them): the same as none.
    # With no entry at all, the shared empty NO_CHAR_MODS (the combat only reads it).
    out = NO_CHAR_MODS
    for c in chars:
        own = carried.get(c.uid) if carried is not None else None
        if shared or own is not None or c.pending:
            if out is NO_CHAR_MODS:
                out = {}
            out[c.uid] = combat_mods(
                game, c, d, slot, lenders, reach, own if own is not None else NO_LENDERS
            )
    return out


# Shared empty lists of :func:`party_combat_mods` where it finds no lenders, no auras or none
# of a character's own: only read (by :func:`combat_mods`), never added to.
NO_LENDERS: Final[list[tuple[AnyCard, GameEffect]]] = []
NO_AURAS: Final[list[tuple[Source, GameEffect]]] = []


def _auras_reaching(
    game: Game, auras: list[tuple[Source, GameEffect]], slot: int
) -> list[tuple[Source, GameEffect]]:
    """The ``auras`` that may lend a character at ``slot`` a modifier in :func:`combat_mods`:
    its tests that do not depend on the character, made once for the combat."""
    out: list[tuple[Source, GameEffect]] = []
    for src, e in auras:
        if e.do is not ACT_MODIFY:
            continue
        if e.target is TARGET_HERE:
            if isinstance(src, Dis) and src.pos >= 0 and game.slot_of(src) == slot:
                out.append((src, e))
        elif (e.target is TARGET_FIELD or e.target is TARGET_PLAY) and not isinstance(src, Copy):
            out.append((src, e))
    return out


def _has_standing(game: Game, c: Char) -> bool:
    """``c``'s card or a card it carries has a standing effect (most have none): tested
    before :func:`queries._carried_standing` lists them, so no list is made for the others."""
    own = c.fx
    if own is not None and TRIGGER_ALWAYS in own:
        return True
    return carries_effects_for(game, c, TRIGGER_ALWAYS)


def combat_mods(
    game: Game,
    c: Char,
    d: Dis,
    slot: int,
    lenders: list[tuple[AnyCard, GameEffect]] | None = None,
    auras: list[tuple[Source, GameEffect]] | None = None,
    own: list[tuple[AnyCard, GameEffect]] | None = None,
) -> list[Mods]:
    """Modifiers a character fights with against ``d`` beyond its current abilities: its own
    and its cards' ALWAYS effects against this kind of disaster (``own``:
    :func:`queries._carried_standing`), a pending next-combat modifier, party bonuses
    (``lenders``, from :func:`party_lenders`), auras of disasters, global effects and the
    location (``auras``: :func:`auras_in_play`). Each one that applies counts as a use of its
    card."""
    out: list[Mods] = []
    for card, e in _carried_standing(game, c) if own is None else own:
        if e.do is not ACT_MODIFY or e.target is not TARGET_SELF or not fits(e, c):
            continue
        if not e.against and not conditional(e):
            continue  # unconditional: already in its current abilities (abilities.refresh)
        if e.against and not matches(d.g, e.against):
            continue
        if conditions_hold(game, e, slot):
            out.append(e.mods)
            _credit(game, card)
    # Party bonuses: a character, or a card one carries, lending to everyone at its location.
    for card, e in party_lenders(game, slot) if lenders is None else lenders:
        if not fits(e, c):
            continue
        if e.against and not matches(d.g, e.against):
            continue
        if conditions_hold(game, e, slot):
            out.append(e.mods)
            _credit(game, card)
    for src, e in auras_in_play(game) if auras is None else auras:
        if isinstance(src, Copy) and e.target is not TARGET_HERE:
            continue  # a global effect's reach is already in current abilities (refresh)
        if e.do is ACT_MODIFY and e.target in (TARGET_FIELD, TARGET_PLAY, TARGET_HERE):
            if e.target is TARGET_HERE and (
                not isinstance(src, Dis) or src.pos < 0 or game.slot_of(src) != slot
            ):
                continue
            if fits(e, c) and conditions_hold(game, e, slot):
                out.append(e.mods)
                _credit(game, src.card)
    loc = game.locs[slot].card
    loc_fx = game.fx.get(loc.id)
    if loc_fx is not None:
        for _, e in loc_fx.get(TRIGGER_ALWAYS, ()):
            here = e.do is ACT_MODIFY and e.target is TARGET_HERE and fits(e, c)
            if here and conditions_hold(game, e, slot):
                out.append(e.mods)
                _credit(game, loc)
    if c.pending:
        out.extend(c.pending)
        c.pending = []
    return out


def can_act(game: Game, c: Char) -> bool:
    return c.disabled_until < game.turn


def can_move(game: Game, c: Char) -> bool:
    return c.disabled_until < game.turn and c.held_until < game.turn


# --- protection from a disaster (IMMUNE) ------------------------------------------------------


def _ward_effects(game: Game, c: Char) -> list[tuple[AnyCard, GameEffect]]:
    """The IMMUNE effects covering ``c``: its own and its cards' (self), those of cards its
    group carries (here), and a haven's for the one character it names (play, n of them: the
    earliest in play; n = 0: all)."""
    out = [
        (card, e)
        for card, e in _carried_standing(game, c)
        if e.do is ACT_IMMUNE and e.target is TARGET_SELF and fits(e, c)
    ]
    if c.zone == "field":
        for other in game.at(c.slot):
            out.extend(
                (card, e)
                for card, e in _carried_standing(game, other)
                if e.do is ACT_IMMUNE and e.target is TARGET_HERE and fits(e, c)
            )
    for h in havens_in_play(game):
        fx = game.fx.get(h.cid)
        if fx is None:
            continue
        for _, e in fx.get(TRIGGER_ALWAYS, ()):
            if e.do is ACT_IMMUNE and e.target is TARGET_PLAY and fits(e, c):
                pool = sorted(
                    (x for x in game.chars if x.zone in ("field", "haven") and fits(e, x)),
                    key=lambda x: x.uid,
                )
                if c in (pool[: e.n] if e.n > 0 else pool):
                    out.append((h.card, e))
    return out


def immune(game: Game, d: Dis, c: Char) -> bool:
    """The disaster neither attacks nor affects this character (IMMUNE: Bills and Calculator
    keeps Money disasters off its holder, Sylvie is never attacked by 33-S)."""
    if ACT_IMMUNE not in game.acts:
        return False
    slot = c.slot if c.zone == "field" else -1
    for card, e in _ward_effects(game, c):
        if matches(d.g, e.against) and conditions_hold(game, e, slot):
            _credit(game, card)
            if game.trace is not None:
                game.say("effect", f"{card.name} keeps {d.name} away from {c.name}")
            return True
    return False


# --- havens' standing rules; cards kept in the deck (RECYCLE) or in play (PRESERVE) -----------


def havens_in_play(game: Game) -> list[Copy]:
    """The player's havens, and the locations turned havens (BECOME_HAVEN)."""
    return game.havens + game.turned_havens if game.turned_havens else game.havens


def _haven_rules(game: Game, do: Action) -> list[tuple[AnyCard, GameEffect]]:
    """The standing effects of this kind of the havens in play."""
    out: list[tuple[AnyCard, GameEffect]] = []
    for h in havens_in_play(game):
        fx = game.fx.get(h.cid)
        if fx is not None:
            out.extend((h.card, e) for _, e in fx.get(TRIGGER_ALWAYS, ()) if e.do is do)
    return out


def kept_in_deck(game: Game, x: Copy) -> bool:
    """A destroyed card of the player goes back into the draw pile rather than the discard
    pile (RECYCLE of cards in play from a haven: Raven's Garage and equipment)."""
    for card, e in _haven_rules(game, ACT_RECYCLE):
        if e.target is TARGET_CARDS_IN_PLAY and matches(x.g, e.cards):
            _credit(game, card)
            return True
    return False


def preserved(game: Game, x: Copy) -> bool:
    """A character in play keeps this card from being destroyed (PRESERVE, at most
    ``max_times`` a game: Al and a vehicle)."""
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for i, e in c.fx.get(TRIGGER_ALWAYS, ()):
            if e.do is not ACT_PRESERVE or not matches(x.g, e.cards):
                continue
            key = (c.uid, -1 - i)
            if e.max_times and game.fired.get(key, 0) >= e.max_times:
                continue
            game.fired[key] = game.fired.get(key, 0) + 1
            _credit(game, c.card)
            _say(game, c, f"keeps {x.g.name} from being destroyed")
            return True
    return False


# --- carrying limits of vehicles (CARRY) ------------------------------------------------


# --- flash effects kept aside (STORE) ---------------------------------------------------


def stored(game: Game) -> int:
    """Flash effects in the hand that a global effect in play keeps aside (STORE: Refuge):
    they do not count toward the hand limit when the Reload phase draws."""
    room, src = 0, None
    for g, _ in game.globals_in_play:
        for e in standing(game.fx.get(g.cid), ACT_STORE):
            room, src = room + e.n, g
    if src is None:
        return 0
    flash = sum(1 for x in game.hand if isinstance(x, Copy) and x.g.kind == KIND_FLASH_EFFECT)
    kept = min(room, flash)
    if kept:
        _credit(game, src.card)
        _say(game, src, f"keeps {kept} flash effects aside: the hand draws {kept} more")
    return kept


# --- a group hidden from the disasters (HIDE) ----------------------------------------------


def hiding_slot(game: Game) -> int:
    """The location moving disasters pass over in this Maintenance phase (HIDE: Hiding Out):
    the player hides the group carrying most items (the larger on a tie), one use of the card
    (``max_times`` phases at most); -1 when no card hides anyone."""
    groups = {c.slot for c in game.on_field()}
    if not groups or not any(d.zone == "field" and d.movement > 0 for d in game.disasters):
        return -1  # nobody to hide, or nothing moving: the player keeps the use
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is None:
            continue
        for i, e in fx.get(TRIGGER_ALWAYS, ()):
            key = (g.uid, -1 - i)
            if e.do is not ACT_HIDE or (e.max_times and game.fired.get(key, 0) >= e.max_times):
                continue
            slot = max(
                sorted(groups),
                key=lambda s: (sum(len(c.items) for c in game.at(s)), len(game.at(s))),
            )
            game.fired[key] = game.fired.get(key, 0) + 1
            _credit(game, g.card)
            _say(game, g, f"hides the group at {game.locs[slot].g.name} from the disasters")
            return slot
    return -1


# --- a non-flying vehicle's extra movement (BOOST) -----------------------------------------


# --- element boosters (AMPLIFY) --------------------------------------------------------------


def amplified(game: Game, card: PowerCard) -> int:
    """How much more each additive modifier of ``card`` gives, from the characters in play
    (on the field or in the haven) whose card strengthens power cards like it (AMPLIFY:
    Shayla-Shayla, +1 to every Fire effect); each one that does counts as a use of its card."""
    if ACT_AMPLIFY not in game.acts:
        return 0
    more = 0
    for c in game.chars:
        if c.zone not in ("field", "haven") or c.fx is None:
            continue
        for e in standing(c.fx, ACT_AMPLIFY):
            if card_matches(card, e.cards):
                more += e.n
                _credit(game, c.card)
                _say(game, c, f"strengthens {card.name} by {e.n}")
    return more


# --- a party jumping over a location (LEAP) ---------------------------------------------------


def leaps(game: Game, party: list[Char]) -> int:
    """The party's move needs the location a member's card lets it jump over (LEAP: Jump):
    one use of that card (``max_times``), which is discarded when its uses are spent ("use
    twice, then discard"). A card printing "N uses" (the uses column: Speed) counts them on
    its own counter instead, a use for each move that needs it (set0 rulebook, "Equipment
    Cards With Usage Limits": "once per phase", the modifier lasting "until the end of the
    phase"). Returns the extra movement; 0 when no card lends it."""
    room = leap_room(game, party)
    if room is None:
        return 0
    n, c, x, key, limit = room
    _credit(game, x.card)
    _say(game, x, f"lets {c.name}'s party move {n} further")
    if x.uses_left is not None:
        spend_use(game, c, x)
        return n
    game.fired[key] = game.fired.get(key, 0) + 1
    if limit and game.fired[key] >= limit:
        (c.enhancements if x in c.enhancements else c.equipment).remove(x)
        game.discard.append(x)
        refresh(game, c)
    return n


# --- equipment that wears out (WEAR), skills a card takes away (FORFEIT) ----------------------


def wear(game: Game, hits: Sequence[tuple[Char, int]]) -> None:
    """Equipment that wears out (WEAR: Ross' Battle Suit, "discard" after it has taken 8
    damage) adds the health its wearer lost this round; at ``n`` in all it is discarded."""
    for v, loss in hits:
        if loss <= 0:
            continue
        for x in list(v.equipment):
            fx = game.fx.get(x.cid)
            for i, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
                if e.do is not ACT_WEAR:
                    continue
                key = (x.uid, -1 - i)
                worn = game.fired.get(key, 0) + loss
                game.fired[key] = worn
                if worn >= e.n:
                    game.fired[key] = 0  # a copy played again starts whole
                    v.equipment.remove(x)
                    game.discard.append(x)
                    _credit(game, x.card)
                    _say(game, x, f"is worn out on {v.name} and discarded")
                    refresh(game, v)
                break
