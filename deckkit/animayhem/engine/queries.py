"""Read-only questions about a game: what the rules and the cards in play allow, never a change.

The automatic players read the game only through this module (and the state's own data), so
a player can weigh a move without playing it, and the modules that change the game (combat,
movement, phases, the interpreter's actions) sit above it in the import graph. The rules ask
the same questions here before they act.

A query that finds a card's effect acting (a key that unlocks a location, an ally lending its
bonus) says so only when the caller passes a ``uses`` list: it appends a :class:`Use` for each,
and the engine, which really acts, records them (``interpreter.standing.record_uses``). A player's
estimate passes nothing, so weighing a move never counts as using a card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Final, NamedTuple

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CharmHalf,
    PowerCard,
)
from deckkit.animayhem.construction.requirements import term_met
from deckkit.animayhem.construction.vocabulary import Action, Trigger
from deckkit.animayhem.engine.cardrules import apply_mod, met, met_by
from deckkit.animayhem.engine.codes import (
    ACT_BAR,
    ACT_BOOST,
    ACT_CAPTURE,
    ACT_CARRY,
    ACT_CHARGE,
    ACT_DEFEAT,
    ACT_DISABLE,
    ACT_DISCARD,
    ACT_DRAW,
    ACT_EASE,
    ACT_EQUIP_ANYWHERE,
    ACT_EXTRA_CARDS,
    ACT_FETCH,
    ACT_FIRST_STRIKE,
    ACT_FORFEIT,
    ACT_FRAIL,
    ACT_FREE,
    ACT_FREE_CAST,
    ACT_HOLD,
    ACT_LEAP,
    ACT_MODIFY,
    ACT_PUSH,
    ACT_RECOVER,
    ACT_RELOAD,
    ACT_REORDER,
    ACT_RETRIEVE,
    ACT_REVERSE,
    ACT_REVERSE_CHARM,
    ACT_SEND,
    ACT_SHARE,
    ACT_SURVIVE,
    ACT_SWAP,
    ACT_UNBLOCK,
    ACT_UNLOCK,
    ACT_WAIVE,
    KIND_FLASH_EFFECT,
    KIND_ITEM,
    SCOPE_COMBAT,
    SCOPE_RETREAT,
    SCOPE_ROUND,
    TARGET_DISASTERS,
    TARGET_NEAREST_DISASTER,
    TARGET_OPPONENT,
    TARGET_PLAY,
    TARGET_SELF,
    TRIGGER_AFFECT,
    TRIGGER_ALWAYS,
    TRIGGER_COMBAT,
    TRIGGER_PLAYED,
    TRIGGER_STOPS,
)
from deckkit.animayhem.engine.gamecards import (
    GameCard,
    GameMod,
    game_card,
    matches,
)
from deckkit.animayhem.engine.state import MOV, Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect
    from deckkit.animayhem.engine.state import Mods


class Use(NamedTuple):
    """One card effect a query found acting, for the engine to record when it really acts."""

    card: AnyCard
    source: Char | Dis | Copy | None = None  # whom the turn trace names, when it says something
    said: str = ""
    key: tuple[int, int] | None = None  # an (effect, copy) use counted against ``max_times``
    spent: Copy | None = None  # a carried card with a usage limit that spends one use
    holder: Char | None = None  # who carries ``spent``


Uses = list[Use] | None


class ActionsInPlay:
    """Whether the game's effects use a few actions its queries ask about on every fight and
    move (``game.acts``: every action of the deck's effects), read as native fields instead of
    a set look-up each time, and worked out again only when a game's ``acts`` is another set
    (the games of one prepared deck share theirs)."""

    def __init__(self) -> None:
        self.acts: frozenset[Action] | None = None
        self.bar = False
        self.equip_anywhere = False
        self.leap = False

    def of(self, game: Game) -> ActionsInPlay:
        acts = game.acts
        if acts is not self.acts:
            self.acts = acts
            self.bar = ACT_BAR in acts
            self.equip_anywhere = ACT_EQUIP_ANYWHERE in acts
            self.leap = ACT_LEAP in acts
        return self


# The one record of the actions in play (``ACTIONS.of(game)``).
ACTIONS: Final = ActionsInPlay()

# What ``ally_bonus`` lends when no ally lends anything.
_NO_BONUS: Final = (0, 0)


# --- what cards match, what holds ------------------------------------------------------


def card_matches(card: AnyCard, words: Sequence[str]) -> bool:
    """A card matches a ``cards`` word by kind, category, symbol or (disasters) name: the words
    its game-time record lists (gamecards.py)."""
    if not words:
        return True
    return matches(game_card(card), words)


def in_play_names(game: Game) -> set[str]:
    names = {c.name for c in game.chars if c.zone in ("field", "haven")}
    names |= {d.name for d in game.disasters}
    names |= {d.name for d, _ in game.lasting}
    names |= {g.g.name for g, _ in game.globals_in_play}
    return names


def _named(names: set[str], wanted: Sequence[str]) -> bool:
    return any(any(w.casefold() in n.casefold() for n in names) for w in wanted)


def _party(game: Game, slot: int) -> list[Char]:
    """The characters a condition is about: those at the location, else everyone in play."""
    if slot >= 0:
        here = game.at(slot)
        if here:
            return here
    return [c for c in game.chars if c.zone in ("field", "haven")]


def _all_here(game: Game, names: Sequence[str], slot: int) -> bool:
    """Every named card is at the location: a character there or a card one carries."""
    if slot < 0:
        return False
    held = set()
    for c in game.at(slot):
        held.add(c.name.casefold())
        held.update(x.g.name.casefold() for x in (*c.items, *c.equipment, *c.enhancements))
    return all(n.casefold() in held for n in names)


def conditions_hold(game: Game, e: GameEffect, slot: int) -> bool:
    if not e.conditional:
        return True  # most effects have no condition: one native field read
    if e.if_here and not _all_here(game, e.if_here, slot):
        return False
    when, unless = e.when_req, e.unless_req
    if when is not None or unless is not None:
        party = _party(game, slot)
        if when is not None and not met(when, party):
            return False
        if unless is not None and met(unless, party):
            return False
    if e.if_in_play or e.unless_in_play:
        names = in_play_names(game)
        if e.if_in_play and not _named(names, e.if_in_play):
            return False
        if e.unless_in_play and _named(names, e.unless_in_play):
            return False
    return True


def _carried(c: Char, words: Sequence[str]) -> list[tuple[Char, list[Copy], Copy]]:
    """(holder, pile, card) for what ``c`` carries that matches; items by default."""
    want = words or ("item",)
    out = []
    for pile in (c.items, c.equipment, c.enhancements):
        for x in pile:
            if matches(x.g, want):
                out.append((c, pile, x))
    return out


_FIGHT_SCOPES: Final = (SCOPE_ROUND, SCOPE_COMBAT)


_AT_DISASTER: Final = (TARGET_DISASTERS, TARGET_NEAREST_DISASTER, TARGET_OPPONENT)


def combat_flash_mods(game: Game, card: AnyCard) -> tuple[list[Mods], list[Mods]]:
    """The combat-round modifiers a flash effect's encoded text gives the character it is
    played on, and those it puts on the disaster fought (PLAYED, MODIFY for the round or the
    combat)."""
    fx = game.fx.get(card.id)
    mine: list[Mods] = []
    theirs: list[Mods] = []
    if fx is None:
        return mine, theirs
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if e.do is ACT_MODIFY and e.scope in _FIGHT_SCOPES:
            if e.target is TARGET_SELF:
                mine.append(e.mods)
            elif e.target in _AT_DISASTER:
                theirs.append(e.mods)
    return mine, theirs


def combat_only(game: Game, card: AnyCard) -> bool:
    """A flash effect whose encoded text only acts inside a combat round (modifiers for the
    round or the combat, or on the disaster fought, or more combat cards for its character):
    worth keeping for a fight."""
    fx = game.fx.get(card.id)
    if fx is None or TRIGGER_PLAYED not in fx:
        return False
    return all(
        (e.do is ACT_MODIFY and e.scope in _FIGHT_SCOPES)
        or (e.do is ACT_EXTRA_CARDS and e.target is TARGET_SELF)
        or e.do is ACT_FRAIL
        or e.do is ACT_CHARGE
        for _, e in fx[TRIGGER_PLAYED]
    )


def flash_reaches(game: Game, card: AnyCard, c: Char) -> bool:
    """Would this flash effect's round modifiers of ``self`` reach character ``c`` against a
    disaster at its location (``filter``, ``exclude``, ``against``)? A read-only query for the
    policy; True when it has no such condition."""
    fx = game.fx.get(card.id)
    if fx is None:
        return True
    here = game.disasters_at(c.slot) if c.zone == "field" else []
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if e.do is ACT_FRAIL or e.do is ACT_CHARGE:
            if not fits(e, c):
                return False  # only a character meeting its filter may play it (Kamehameha)
            continue
        if e.do is not ACT_MODIFY or e.target is not TARGET_SELF:
            continue
        if not fits(e, c):
            return False
        if e.against and not any(matches(d.g, e.against) for d in here):
            return False
    return True


def keep_for_combat(game: Game, card: AnyCard) -> bool:
    """A flash effect the player keeps in hand for a fight: one that only acts in a combat
    round, or one that defeats or discards a disaster."""
    if combat_only(game, card):
        return True
    fx = game.fx.get(card.id)
    return fx is not None and any(
        e.do in (ACT_DEFEAT, ACT_DISCARD) and e.target is not TARGET_SELF
        for _, e in fx.get(TRIGGER_PLAYED, ())
    )


def defeats(game: Game, card: AnyCard, d: Dis) -> bool:
    """Does playing this flash effect in a combat with ``d`` defeat or discard it?"""
    fx = game.fx.get(card.id)
    if fx is None:
        return False
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if not conditions_hold(game, e, game.slot_of(d) if d.pos >= 0 else -1):
            continue
        removes = e.do in (ACT_DEFEAT, ACT_DISCARD) and e.target is not TARGET_SELF
        fitting = matches(d.g, e.cards) and matches(d.g, e.against)
        if removes and fitting:
            return True
    return False


def special_defeat(game: Game, party: list[Char], d: Dis) -> bool:
    """Can ``party`` defeat ``d`` by one of its special ways (a DEFEAT when combat begins
    whose condition the party meets, paying with equipment it carries)? A read-only query."""
    if d.fx is None:
        return False
    for _, e in d.fx.get(TRIGGER_COMBAT, ()):
        if e.do is not ACT_DEFEAT:
            continue
        if e.when_req is not None and not met(e.when_req, party):
            continue
        if e.unless_req is not None and met(e.unless_req, party):
            continue
        if e.pay and not any(
            x.g.kind != KIND_ITEM for c in party for _, _, x in _carried(c, e.pay)
        ):
            continue
        return True
    return False


def cycle_steps_left(d: Dis, n: int) -> int:
    """The steps a face-up disaster has left in its cycle on a disaster path of ``n`` locations,
    the step off the field included (set0 rulebook, "Movement": "Moving a disaster card from a
    location to off the field, however, requires 1 movement"); backwards for one turned round."""
    return d.pos + 1 if d.backward else n - d.pos


def harmful(d: Dis) -> bool:
    """A non-combat disaster on the field that will act on the characters it reaches."""
    return d.fx is not None and TRIGGER_AFFECT in d.fx


def standing(
    fx: dict[Trigger, tuple[tuple[int, GameEffect], ...]] | None, do: Action
) -> list[GameEffect]:
    if fx is None:
        return []
    return [e for _, e in fx.get(TRIGGER_ALWAYS, ()) if e.do is do]


def standing_or_none(
    fx: dict[Trigger, tuple[tuple[int, GameEffect], ...]] | None, do: Action
) -> list[GameEffect] | None:
    """:func:`standing`, None when there is none (no list made for the most common answer)."""
    if fx is None:
        return None
    out: list[GameEffect] | None = None
    for _, e in fx.get(TRIGGER_ALWAYS, ()):
        if e.do is do:
            if out is None:
                out = []
            out.append(e)
    return out


def unlocked(game: Game, party: list[Char], slot: int, uses: Uses = None) -> bool:
    """A card a party member holds (or the member itself) lets it scavenge this location
    without the listed skills (UNLOCK), or with some of them missing (EASE). An unlock limited
    to ``max_times`` a game (Alarm Clock: once) is used up only through ``uses`` (a real
    attempt, not the player's planning)."""
    loc = game.locs[slot].g
    for c in party:
        for card, e in _carried_standing(game, c):
            if e.do is ACT_UNLOCK and not e.max_times and fits(e, c) and matches(loc, e.cards):
                if uses is not None:
                    uses.append(Use(card))
                return True
        if ACT_UNLOCK in game.acts and _unlocked_limited(game, c, loc, uses):
            return True
    return eased(game, party, slot, uses)


def may_unlock(game: Game, party: list[Char]) -> bool:
    """Whether :func:`unlocked` could let ``party`` into any location at all: a member's own
    card or a card it carries has a standing UNLOCK or EASE, or a global effect in play has one
    (:func:`unlocked` reads only a global's EASE: the test is looser there, never a wrong no).
    False means :func:`unlocked` is False at every slot: a player's goal search asks this once
    for a party instead of :func:`unlocked` once for each location it weighs."""
    for c in party:
        if c.fx is not None and _opens(c.fx):
            return True
        for pile in (c.items, c.equipment, c.enhancements):
            for x in pile:
                fx = game.fx.get(x.cid)
                if fx is not None and _opens(fx):
                    return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is not None and _opens(fx):
            return True
    return False


def _opens(fx: dict[Trigger, tuple[tuple[int, GameEffect], ...]]) -> bool:
    """A card's standing effects include an UNLOCK or an EASE."""
    return any(e.do is ACT_UNLOCK or e.do is ACT_EASE for _, e in fx.get(TRIGGER_ALWAYS, ()))


def _unlocked_limited(game: Game, c: Char, loc: GameCard, uses: Uses) -> bool:
    """A carried card's unlock with uses left this game (UNLOCK with ``max_times``)."""
    for x in (*c.items, *c.equipment, *c.enhancements):
        fx = game.fx.get(x.cid)
        for i, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
            if e.do is not ACT_UNLOCK or not e.max_times:
                continue
            key = (x.uid, -1 - i)
            if game.fired.get(key, 0) >= e.max_times or not fits(e, c):
                continue
            if not matches(loc, e.cards):
                continue
            if uses is not None:
                uses.append(Use(x.card, key=key))
            return True
    return False


def ally_bonus(game: Game, d: Dis, uses: Uses = None) -> tuple[int, int]:
    """The (damage, defense) its allies lend disaster ``d`` (set0 rulebook, Part III "Ally
    Disaster": Kodachi Kuno allied with Kiriya gives it +2 damage and +2 defense). An ally's
    bonus is its standing MODIFY of ``nearest_disaster``: the primary it stays with."""
    damage = defense = 0
    for a in game.disasters:
        if a.ally_of is not d or a.fx is None:
            continue
        for _, e in a.fx.get(TRIGGER_ALWAYS, ()):
            if e.do is not ACT_MODIFY or e.target is not TARGET_NEAREST_DISASTER:
                continue
            if uses is not None:  # a policy's estimate is no use of the effect
                uses.append(Use(a.card))
            dmg, dfn = _lent(e.mods, d)
            damage += dmg
            defense += dfn
    if damage == 0 and defense == 0:
        return _NO_BONUS  # (no new pair for the most common answer)
    return damage, defense


def _lent(mods: Mods, d: Dis) -> tuple[int, int]:
    """What modifiers add to a disaster's current damage and defense."""
    dmg = dfn = 0
    for ability, mod in mods:
        if ability == "damage":
            dmg += apply_mod(mod, d.damage) - d.damage
        elif ability == "defense":
            dfn += apply_mod(mod, d.defense) - d.defense
    return dmg, dfn


def _carried_standing(game: Game, c: Char) -> list[tuple[AnyCard, GameEffect]]:
    """The ALWAYS effects of a character's own card and of the cards it carries."""
    out: list[tuple[AnyCard, GameEffect]] = []
    if c.fx is not None:
        card = c.card
        for _, e in c.fx.get(TRIGGER_ALWAYS, ()):
            out.append((card, e))
    for pile in (c.items, c.equipment, c.enhancements):
        for x in pile:
            fx = game.fx.get(x.cid)
            if fx is not None:
                for _, e in fx.get(TRIGGER_ALWAYS, ()):
                    out.append((x.card, e))
    return out


def blocked(game: Game, slot: int) -> bool:
    """No party may stop on or scavenge a blocked location (BLOCK)."""
    b = game.blocked.get(slot)
    if b is None:
        return False
    last, uid = b
    if uid >= 0:
        if any(d.uid == uid for d in game.disasters) or any(d.uid == uid for d, _ in game.lasting):
            return True
        del game.blocked[slot]
        return False
    if last < game.turn:
        del game.blocked[slot]
        return False
    return True


def _pile_matches(x: Copy | Char | Dis, words: Sequence[str]) -> bool:
    """A pile card a RECOVER or FETCH may take: never a disaster, an item only when named
    (an item may not be shuffled back: Rescue), a character when ``cards`` names characters."""
    if isinstance(x, Dis):
        return False
    low = {w.casefold() for w in words}
    if isinstance(x, Char):
        return not words or "character" in low
    if x.g.kind == KIND_ITEM and "item" not in low:
        return False
    return matches(x.g, words)


def _eased(game: Game, e: GameEffect, party: list[Char], slot: int) -> bool:
    """The location's requirement is met but for ``n`` of the skills one of its alternatives
    lists (only where it lists more than ``n``), or, with ``n = 0``, by any one of them."""
    loc = game.locs[slot].card
    if not card_matches(loc, e.cards):
        return False
    for alt in loc.requirement.alternatives:
        met = sum(1 for t in alt if term_met(t, party))
        if e.n == 0 and met >= 1:
            return True
        if 0 < e.n < len(alt) and len(alt) - met <= e.n:
            return True
    return False


def eased(game: Game, party: list[Char], slot: int, uses: Uses = None) -> bool:
    """A card a party member carries, or a global effect in play, eases this location's
    requirement enough for the party (EASE). A carried card printing "N uses" (Electronic Day
    Planner: 2) spends one on the attempt it eases (set0 rulebook, "Equipment Cards With Usage
    Limits"); out of uses it is discarded (``record_uses``)."""
    for c in party:
        if c.fx is not None:
            for _, e in c.fx.get(TRIGGER_ALWAYS, ()):
                if e.do is ACT_EASE and _eased(game, e, party, slot):
                    if uses is not None:
                        uses.append(Use(c.card))
                    return True
        for pile in (c.items, c.equipment, c.enhancements):
            for x in pile:
                fx = game.fx.get(x.cid)
                for _, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
                    if e.do is ACT_EASE and _eased(game, e, party, slot):
                        if uses is not None:
                            spent = x if x.uses_left is not None else None
                            uses.append(Use(x.card, spent=spent, holder=c))
                        return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is None:
            continue
        for _, e in fx.get(TRIGGER_ALWAYS, ()):
            if e.do is ACT_EASE and _eased(game, e, party, slot):
                if uses is not None:
                    uses.append(Use(g.card))
                return True
    return False


def strikes_first_card(game: Game, card: AnyCard) -> bool:
    """The card's effect is a first strike (a read-only query for the player)."""
    fx = game.fx.get(card.id)
    return fx is not None and any(
        e.do is ACT_FIRST_STRIKE for effects in fx.values() for _, e in effects
    )


def barred(game: Game, party: list[Char], slot: int, uses: Uses = None) -> bool:
    """The location bars this party from scavenging it: a member meets its BAR (Kozo Karino
    at the Shinjuku Police Building)."""
    if not ACTIONS.of(game).bar:
        return False
    loc = game.locs[slot].card
    fx = game.fx.get(loc.id)
    if fx is None:
        return False
    for _, e in fx.get(TRIGGER_ALWAYS, ()):
        if e.do is ACT_BAR and any(fits(e, c) for c in party):
            if uses is not None:
                uses.append(Use(loc))
            return True
    return False


def equips_anywhere(game: Game, c: Char, uses: Uses = None, card: AnyCard | None = None) -> bool:
    """Equipment (``card``; None: some equipment) may be played on this character on the field
    (EQUIP_ANYWHERE: Mousse); with ``uses``, the card that allows the play."""
    if not ACTIONS.of(game).equip_anywhere:
        return False
    if c.fx is not None and any(
        e.do is ACT_EQUIP_ANYWHERE for _, e in c.fx.get(TRIGGER_ALWAYS, ())
    ):
        if uses is not None:
            uses.append(Use(c.card))
        return True
    return _equips_from_carried(game, c, uses, card)


_PILE_ACTIONS: Final = frozenset(
    {
        ACT_SWAP,
        ACT_RETRIEVE,
        ACT_RECOVER,
        ACT_FETCH,
        ACT_DRAW,
        ACT_FREE,
        ACT_UNBLOCK,
        ACT_PUSH,
        ACT_RELOAD,
        ACT_REORDER,
        ACT_SHARE,
    }
)


def waits_for_a_use(game: Game, card: AnyCard) -> bool:
    """A flash effect worth keeping in hand until it can act: one that spares a kill (played
    when a character would die), or one whose pile, captive, block, push or reload effects
    would find nothing now. A read-only query for the policy."""
    fx = game.fx.get(card.id)
    if fx is None:
        return False
    played = [e for _, e in fx.get(TRIGGER_PLAYED, ())]
    if any(
        e.do is ACT_SURVIVE or e.do is ACT_FREE_CAST or e.scope is SCOPE_RETREAT for e in played
    ):
        return True
    if charm_only(game, card):
        return True  # kept for a charm battle it can turn (held_for_charm)
    pile = [e for e in played if e.do in _PILE_ACTIONS]
    return bool(pile) and not any(_would_act(game, e) for e in pile)


def _would_act(game: Game, e: GameEffect) -> bool:
    do = e.do
    if do is ACT_RECOVER:
        return any(_pile_matches(x, e.cards) for x in game.discard)
    if do is ACT_FETCH:
        return any(_pile_matches(x, e.cards) for x in game.draw_pile)
    if do is ACT_DRAW:
        return bool(game.draw_pile)
    if do is ACT_FREE:
        return any(c.zone == "captured" for c in game.chars)
    if do is ACT_RETRIEVE:
        anywhere = e.to == "location"
        return any(
            d.carrying and d.pos >= 0 and (anywhere or game.at(game.slot_of(d)))
            for d in game.disasters
        )
    if do is ACT_UNBLOCK:
        return any(blocked(game, s) for s in list(game.blocked))
    if do is ACT_PUSH or do is ACT_SWAP:
        # Worth it when a combat disaster stands with a party on the field (and, to swap,
        # another one is somewhere else).
        here = {c.slot for c in game.on_field()}
        with_party = any(d.combat and game.slot_of(d) in here for d in game.disasters)
        if do is ACT_SWAP:
            return with_party and sum(1 for d in game.disasters if d.combat) > 1
        return with_party
    if do is ACT_RELOAD:
        return any(
            x.uses_left is not None and x.g.uses is not None and x.uses_left < x.g.uses
            for c in game.chars
            if c.zone in ("field", "haven")
            for x in c.equipment
        )
    return True


def haven_equips(game: Game, card: AnyCard | None, uses: Uses = None) -> bool:
    """A haven lets this equipment (``None``: some equipment) be played on the player's
    characters on the field (EQUIP_ANYWHERE with target ``play``: Squad Bay and vehicles)."""
    if not ACTIONS.of(game).equip_anywhere:
        return False
    for h in (*game.havens, *game.turned_havens):
        fx = game.fx.get(h.cid)
        if fx is None:
            continue
        for _, e in fx.get(TRIGGER_ALWAYS, ()):
            if e.do is not ACT_EQUIP_ANYWHERE or e.target is not TARGET_PLAY:
                continue
            if card is None or card_matches(card, e.cards):
                if uses is not None:
                    what = card.name if card else "equipment"
                    uses.append(Use(h.card, h, f"lets {what} be played on the field"))
                return True
    return False


def traps(game: Game, party: list[Char], slot: int) -> bool:
    """Would stopping on this location keep the party in place (a STOPS effect that holds,
    disables or captures it, whose conditions the party with those already there meets)? A
    read for the player's route planning."""
    fx = game.fx.get(game.locs[slot].g.cid)
    if fx is None or TRIGGER_STOPS not in fx:
        return False
    who = [*party, *(c for c in game.at(slot) if c not in party)]
    for _, e in fx[TRIGGER_STOPS]:
        if e.do not in (ACT_HOLD, ACT_DISABLE, ACT_CAPTURE):
            continue
        if e.when_req is not None and not met(e.when_req, who):
            continue
        if e.unless_req is not None and met(e.unless_req, who):
            continue
        return True
    return False


def carried_movement(
    game: Game, party: list[Char], rides: Sequence[tuple[int, Char, Copy]], uses: Uses
) -> int:
    """How far a party with vehicles moves when a vehicle's card limits what it carries
    (CARRY): the fastest vehicle seats its holder and up to ``n - 1`` others, the slowest
    first; a character holding another vehicle rides only where ``cards`` lets a vehicle ride
    (set0 rulebook, "Vehicles": "Unless otherwise stated, a vehicle cannot carry another
    vehicle"); the rest go at their own pace, so the party goes at the slowest of them.
    ``rides`` holds (movement, holder, vehicle) for each vehicle with a movement. With
    ``uses``, a limit that slowed the party counts as a use of its card's effect."""
    holders = {holder.uid for _, holder, _ in rides}
    own = {c.uid: c.cur[MOV] for c in party if c.uid not in holders}
    for speed, holder, _ in rides:  # a vehicle's movement replaces its holder's
        own[holder.uid] = max(own.get(holder.uid, 0), speed)
    best, limiting = -1, None
    for speed, holder, x in rides:
        fx = game.fx.get(x.cid)
        e = next(iter(standing(fx, ACT_CARRY)), None)
        pace = speed
        if e is not None:
            seats, vehicles = e.n - 1, (1 if "vehicle" in e.cards else 0)
            for c in sorted((c for c in party if c is not holder), key=lambda c: own[c.uid]):
                rides_too = c.uid in holders
                if seats > 0 and (not rides_too or vehicles > 0):
                    seats -= 1
                    vehicles -= rides_too
                else:
                    pace = min(pace, own[c.uid])
        if pace > best:
            best, limiting = pace, (x if pace < speed else None)
    if uses is not None and limiting is not None:
        uses.append(Use(limiting.card, limiting, f"cannot carry the whole party: it moves {best}"))
    return best


def _equips_from_carried(game: Game, c: Char, uses: Uses, card: AnyCard | None) -> bool:
    """A card the character carries lets it be equipped on the field (EQUIP_ANYWHERE on
    equipment: Control Cube, The Masaki Van; on an item, ``max_times`` a game: Ship's
    Auto-Toilet); one naming ``cards`` only with those (Medical Scanner: weapons), each play
    spending one of its uses (set0 rulebook, "Equipment Cards With Usage Limits": discarded
    when they run out)."""
    for x in (*c.equipment, *c.items):
        fx = game.fx.get(x.cid)
        for i, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
            if e.do is not ACT_EQUIP_ANYWHERE:
                continue
            if e.cards and card is not None and not card_matches(card, e.cards):
                continue
            key = (x.uid, -1 - i)
            if e.max_times and game.fired.get(key, 0) >= e.max_times:
                continue
            if uses is not None:
                spends = bool(e.cards) and x.uses_left is not None
                uses.append(Use(x.card, key=key, spent=x if spends else None, holder=c))
            return True
    return False


def boost(game: Game, c: Char, vehicle: AnyCard, uses: Uses) -> int:
    """Movement a card adds to the non-flying vehicle ``c`` carries (BOOST): its holder's
    enhancements (Turbo Boost) and global effects for every vehicle on the field (Ready to
    Go, ``max_times`` moves at most). With ``uses`` the party really moves: each is a use."""
    if any("flying" in k.casefold() and "non" not in k.casefold() for k in vehicle.categories):
        return 0
    add = 0
    for x in c.enhancements:
        for e in standing(game.fx.get(x.cid), ACT_BOOST):
            add += e.n
            if uses is not None:
                uses.append(Use(x.card))
    if c.zone != "field":
        return add
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        for i, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
            key = (g.uid, -1 - i)
            if e.do is not ACT_BOOST:
                continue
            if e.max_times and game.fired.get(key, 0) >= e.max_times:
                continue
            add += e.n
            # One use per party move, however many of its vehicles the card speeds: counting
            # one per vehicle made a party's real movement fall short of the one it planned.
            if uses is not None and all(u.key != key for u in uses):
                uses.append(Use(g.card, key=key))
    return add


# --- flash effects the player holds for their moment ----------------------------------


def nearest_disaster(game: Game, slot: int, cards: Sequence[str], source: object) -> list[Dis]:
    """The combat disaster nearest ``slot`` along the path (the first to enter on a tie) that
    matches ``cards``, other than ``source``: the target ``nearest_disaster``; empty if none."""
    here = game.field.path_index[slot] if slot >= 0 else 0
    others = [d for d in game.disasters if d is not source and d.combat and matches(d.g, cards)]
    if not others:
        return []
    return [min(others, key=lambda d: (abs(d.pos - here), d.entered))]


def free_caster(game: Game) -> Copy | None:
    """The flash effect in the hand that pays another's energy cost (FREE_CAST: Supreme
    Battle Aura), if the player holds one."""
    for h in game.hand:
        if not isinstance(h, Copy) or h.g.kind != KIND_FLASH_EFFECT:
            continue
        fx = game.fx.get(h.cid)
        if fx is not None and any(e.do is ACT_FREE_CAST for _, e in fx.get(TRIGGER_PLAYED, ())):
            return h
    return None


def free_cast(game: Game) -> bool:
    """Can the player pay a flash effect's energy cost with a card from the hand?"""
    return free_caster(game) is not None


def frail_times(game: Game, card: AnyCard) -> int:
    """The multiplier of a flash effect's FRAIL (0: any loss defeats), or 1 when it has none.
    A read-only query for the policy."""
    fx = game.fx.get(card.id)
    if fx is None:
        return 1
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if e.do is ACT_FRAIL:
            return e.n
    return 1


def costs_a_life(game: Game, card: AnyCard) -> bool:
    """Does this flash effect kill the character it is played on to act (a DEFEAT paid with
    ``holder``: Ultimate Sacrifice)? A read-only query for the policy."""
    fx = game.fx.get(card.id)
    return fx is not None and any("holder" in e.pay for _, e in fx.get(TRIGGER_PLAYED, ()))


def charm_only(game: Game, card: AnyCard) -> bool:
    """A flash effect that acts only in a charm battle (``reverse_charm``, or modifiers of
    charm alone): no use in a combat round. A read-only query for the policy."""
    fx = game.fx.get(card.id)
    played = fx.get(TRIGGER_PLAYED, ()) if fx is not None else ()
    return bool(played) and all(
        e.do is ACT_REVERSE_CHARM or (e.do is ACT_MODIFY and all(a == "charm" for a, _ in e.mods))
        for _, e in played
    )


def waits_to_turn(game: Game, card: AnyCard, holder: Char | None) -> bool:
    """A REVERSE flash effect the player keeps until turning a disaster round would help
    (:func:`turning_helps`). A read-only query for the policy."""
    fx = game.fx.get(card.id)
    if fx is None or not any(e.do is ACT_REVERSE for _, e in fx.get(TRIGGER_PLAYED, ())):
        return False
    return not turning_helps(game, card, holder)


def turning_helps(game: Game, card: AnyCard, holder: Char | None) -> bool:
    """Would a REVERSE played on ``holder`` send a disaster out of play sooner: the combat
    disaster nearest it is a moving minor one, carrying nothing, closer to the entry end than
    to the exit? A read-only query for the policy."""
    fx = game.fx.get(card.id)
    if fx is None or holder is None:
        return False
    slot = holder.slot if holder.zone == "field" else -1
    n = len(game.field.path)
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if e.do is ACT_REVERSE:  # its one target: the nearest combat disaster
            for d in nearest_disaster(game, slot, e.cards, holder):
                if d.movement <= 0 or d.stationary or d.major or d.carrying or d.backward:
                    return False
                return d.pos + 1 < n - d.pos
    return False


def sends_to_goal(game: Game, card: AnyCard) -> bool:
    """The card sends a party straight to a location the player picks (Shortcut). A read-only
    query for the policy."""
    fx = game.fx.get(card.id)
    return fx is not None and any(
        e.do is ACT_SEND and e.to == "goal" for _, e in fx.get(TRIGGER_PLAYED, ())
    )


def forfeited(game: Game, card: AnyCard) -> tuple[str, ...]:
    """The skills a power card takes from the character it is on (FORFEIT: Blasters' -2 Chi).
    A read-only query for the policy."""
    return tuple(e.skill for e in standing(game.fx.get(card.id), ACT_FORFEIT))


def known_under(game: Game, slot: int) -> tuple[list[Dis], int]:
    """What the player has seen under a location (REVEAL): the disasters it knows of, in the
    order they will be met, up to the first it has not seen, and how many items it knows lie
    there. Unseen cards stay counts only (policy.py)."""
    loc = game.locs[slot]
    known = game.known
    dis: list[Dis] = []
    for d in loc.hidden_disasters:
        if d.uid not in known:
            break
        dis.append(d)
    items = sum(1 for x in loc.hidden_cards if x.uid in known and x.g.kind == KIND_ITEM)
    return dis, items


def draw_pile_disasters(game: Game) -> int:
    """How many disasters the draw pile holds, as the player counts them: the deck's disaster
    cards, less those it has seen leave the pile (face up, drawn, discarded, set aside) and
    those still face down under the locations, whose number is in plain view. A disaster shuffled
    back into the pile (RECYCLE, a reshuffled discard) went there face up, so it is counted in
    it. Never which cards: the pile's order stays unknown."""
    n = 0
    for d in game.disasters_dealt:
        if d.zone == "draw" or d.zone == "location":
            n += 1  # not seen out of the pile, or seen going back into it
    for loc in game.locs:
        n -= len(loc.hidden_disasters)
    return n


def draw_may_bring_disaster(game: Game) -> bool:
    """Whether the next Reload could draw a disaster: the draw pile holds one, or it holds fewer
    cards than a full hand and the discard pile, reshuffled when the pile runs out, holds one
    (set0 rulebook, "Reload Phase"). Public knowledge: pile sizes and the discard pile."""
    if draw_pile_disasters(game) > 0:
        return True
    if len(game.draw_pile) >= game.hand_limit:
        return False  # a Reload draws a hand at most: the pile cannot run out
    return any(isinstance(x, Dis) for x in game.discard)


# --- where a party may go ------------------------------------------------------------


HAVEN: Final = -1  # a route step into the haven annexed to the field's haven slot


def party_movement(game: Game, party: list[Char], uses: Uses = None) -> int:
    """A party moves as fast as its slowest member; a vehicle's movement replaces the
    movement of everyone aboard (set0 rulebook, "Party"; "Vehicles"), up to the number of
    characters its card says it carries (CARRY). ``uses``: the party really moves, and
    collects the cards whose effects shaped its pace."""
    speed = _pace(game, party, uses)
    if party and ACTIONS.of(game).leap:
        room = leap_room(game, party)  # a location jumped over (Jump): spent only when needed
        speed += room[0] if room is not None else 0
    return speed


def _pace(game: Game, party: list[Char], uses: Uses = None) -> int:
    """The party's movement before any card lends it more for one move (LEAP), in
    :func:`party_movement`."""
    vehicle = 0
    rides: list[tuple[int, Char, Copy]] | None = None  # listed once a vehicle is found
    for c in party:
        for e in c.equipment:
            if e.g.vehicle:
                mod = _movement_modifier(e.g)
                if mod is not None:
                    speed = apply_mod(mod, c.base[MOV])
                    if ACT_BOOST in game.acts:
                        speed += boost(game, c, e.card, uses)  # Turbo Boost, Ready to Go
                    vehicle = max(vehicle, speed)
                    if rides is None:
                        rides = []
                    rides.append((speed, c, e))
    speed = 0
    if rides is not None and vehicle and ACT_CARRY in game.acts:
        speed = carried_movement(game, party, rides, uses)
    elif vehicle:
        speed = vehicle
    elif party:
        speed = party[0].cur[MOV]  # the slowest member's
        for c in party:
            mov = c.cur[MOV]
            if mov < speed:
                speed = mov
    return speed


def _movement_modifier(g: GameCard) -> GameMod | None:
    """A power card's movement modifier (``PowerCard.modifier("movement")``: the first)."""
    for slot, mod in g.mod_slots:
        if slot == MOV:
            return mod
    return None


def leap_room(game: Game, party: list[Char]) -> tuple[int, Char, Copy, tuple[int, int], int] | None:
    """The extra locations a member's enhancement or equipment lets the party move (LEAP: Jump
    lets it jump over one, Goz' Flying Machine flies it two further once), with who holds it,
    the card, its use counter and its ``max_times``; one card lends it per move, while it has
    uses. A LEAP with ``mods`` changes its holder's movement instead (Speed: x2), which lends the
    party what its pace gains by it: nothing when another member, or a vehicle, sets the pace.
    None when no card lends any."""
    pace = -1  # the party's pace without the card, found at the first LEAP with mods
    for c in party:
        for x in (*c.enhancements, *c.equipment):
            fx = game.fx.get(x.cid)
            for i, e in fx.get(TRIGGER_ALWAYS, ()) if fx is not None else ():
                key = (x.uid, -1 - i)
                if e.do is not ACT_LEAP:
                    continue
                if e.max_times and game.fired.get(key, 0) >= e.max_times:
                    continue
                if not e.mods:
                    return e.n, c, x, key, e.max_times
                if pace < 0:
                    pace = _pace(game, list(party))
                gain = _modified_pace(party, c, e.mods) - pace
                if gain > 0:
                    return gain, c, x, key, e.max_times
    return None


def _modified_pace(party: list[Char], holder: Char, mods: Mods) -> int:
    """The party's walking pace with ``holder``'s movement changed by an enhancement's
    ``mods``, applied to its base movement as every enhancement is (set0 rulebook, "An
    enhancement that modifies abilities is always applied to the target character's base
    abilities")."""
    pace = -1
    for c in party:
        mov = c.cur[MOV]
        if c is holder:
            for stat, mod in mods:
                if stat == "movement":
                    mov += apply_mod(mod, c.base[MOV]) - c.base[MOV]
        if pace < 0 or mov < pace:
            pace = mov
    return max(0, pace)


def can_stop(game: Game, party: list[Char], slot: int) -> bool:
    """No stopping on destroyed locations, nor on planetary or dimensional ones without the
    symbol on a member or on a card a member carries (set0 rulebook, Part I), or dimensional
    access a card gives a member (a granted Dimensional skill: Great King Yemma)."""
    loc = game.locs[slot]
    if loc.destroyed or (game.blocked and blocked(game, slot)):
        return False
    if loc.planetary and not any(
        "Planetary" in c.categories or _carries(c, "Planetary") for c in party
    ):
        return False
    return not (
        loc.dimensional
        and not any(
            "Dimensional" in c.categories
            or _carries(c, "Dimensional")
            or c.skill_counts.get("Dimensional", 0)
            for c in party
        )
    )


def trim_to_stop(game: Game, party: list[Char], route: list[int]) -> list[int]:
    """Shorten a route until it ends where the party may stop (or in the haven)."""
    end = len(route)
    while end and route[end - 1] != HAVEN and not can_stop(game, party, route[end - 1]):
        end -= 1
    return route[:end]


def retreat_options(game: Game, party: list[Char], slot: int) -> list[int]:
    """Where retreating characters may go from ``slot``: "All retreating characters that survive
    must move one location in any legal direction" (set0 rulebook, "Declare Retreat"). That is
    an adjacent location the party may stop on, or the haven when it is annexed to this location
    ("Move Phase": a character may enter one of your havens if it is annexed to the current
    location). Empty when no direction is legal: then nobody can move and the party stays."""
    options = [s for s in game.field.neighbours[slot] if can_stop(game, party, s)]
    if slot == game.field.haven_slot:
        options.append(HAVEN)
    return options


def _carries(c: Char, symbol: str) -> bool:
    """A card on the character bears the symbol: equipment (set0 rulebook, "Dimensional
    Equipment Card": its user "gains the ability to interact with other cards with the matching
    symbol"), an item, or an enhancement whose card gives it (Interdimensional Teleport: its
    character may visit dimensional locations)."""
    for xs in (c.equipment, c.items, c.enhancements):
        for x in xs:
            if symbol in x.g.symbols:
                return True
    return False


# --- combat bonuses --------------------------------------------------------------------


def horde_bonus(game: Game, d: Dis) -> int:
    """+1 damage and defense for every *other* horde disaster in play sharing a category
    (set0 rulebook, Part III "Horde")."""
    cats = d.g.categories
    if not cats:
        return 0
    n = 0
    for other in game.disasters:
        g = other.g
        if other is not d and g.horde and any(c in cats for c in g.categories):
            n += 1
    return n


# --- who may use a card ----------------------------------------------------------------


def usable(c: Char, card: PowerCard) -> bool:
    """A character can use a power card whose requirement it meets ("Equipment"), or one its
    own card lets it use regardless (WAIVE: Specs and Science cards)."""
    return can_use(c, game_card(card))


def can_use(c: Char, g: GameCard) -> bool:
    """:func:`usable` on a power card's game-time record."""
    req = g.requirement
    if req is None or met(req, [c]):
        return True
    if c.fx is None:
        return False
    card = g.card
    assert isinstance(card, PowerCard)
    return _waived(c, card)


def _waived(c: Char, card: PowerCard) -> bool:
    """The character's standing WAIVE names the card's kind or one of its categories."""
    assert c.fx is not None
    words = {card.type.value, "power", *(x.casefold() for x in card.categories)}
    if card.vehicle:
        words.add("vehicle")
    if card.weapon:
        words.add("weapon")
    return any(
        e.do is ACT_WAIVE and any(w.casefold() in words for w in e.cards)
        for _, e in c.fx.get(TRIGGER_ALWAYS, ())
    )


def fits(e: GameEffect, c: Char) -> bool:
    """A character meets an effect's ``filter`` and not its ``exclude`` (their game-time
    forms, made with the effect's)."""
    req = e.filter_req
    if req is not None and not met_by(req, c):
        return False
    req = e.exclude_req
    return req is None or not met_by(req, c)


# --- items under locations, charm battles ---------------------------------------------------


def under_reach(game: Game, slot: int) -> bool:
    """The cards under the location at ``slot`` can be reached from above it (taken or
    destroyed by a disaster or a card): under the reading ``item_pickup=beneath`` only once no
    face-down disaster lies above them; under ``through``, always (``reachable_item``)."""
    return not (game.item_pickup == "beneath" and game.locs[slot].hidden_disasters)


def reachable_item(game: Game, slot: int) -> Copy | None:
    """The item card a disaster may take from under the location at ``slot``, if any. By default
    (rule option ``item_pickup=through``) the disaster reaches past the face-down disasters, as
    its pickup passages say with no condition (set0 "Maintenance Phase"; 1996 rules "Maintenance
    Phase"); under ``beneath`` the item lies beneath them ("Field Layouts") and is reached only
    once none is left ("Scavenge Phase": "all disaster cards underneath the location must be
    cleared"). Every path
    that lets a disaster take an item from under a location asks here: movement, the charm
    battle's special case and card effects; effects that destroy a card under a location ask
    ``under_reach``, the same reading."""
    loc = game.locs[slot]
    if loc.hidden_disasters and game.item_pickup == "beneath":
        return None
    for x in loc.hidden_cards:
        if x.g.kind == KIND_ITEM:
            return x
    return None


def apply_charm_half(half: CharmHalf, recipient: int, opponent: int) -> tuple[int, int]:
    """A combat card's charm half played on ``recipient``: its modifier changes the recipient's
    charm ("self") or its opponent's ("opponent"); a special target is card text, not simulated.
    Returns the new (recipient, opponent) charms."""
    if half.modifier is None or half.target == "special":
        return recipient, opponent
    if half.target == "self":
        return apply_mod(half.modifier, recipient), opponent
    return recipient, apply_mod(half.modifier, opponent)


def charm_halves(game: Game) -> tuple[tuple[CharmHalf, int], ...]:
    """The charm halves of the player's combat cards, with their counts: what the player knows
    of the combat pile (its make-up, never its order)."""
    # Counted by card record first (hashed by identity, no key to build), then by the half's
    # identity (cards are shared, hashing a half is not cheap): the halves in the order the
    # piles first show them, as counting card by card would list them.
    by_card: dict[GameCard, int] = {}
    _count_charm_cards(game.combat_pile, by_card)
    _count_charm_cards(game.combat_discard, by_card)
    # Every game of a deck has the same make-up: the answer is kept by the counts (a frozenset
    # of (card record, count): records are hashed by identity and held, so never mistaken).
    makeup = frozenset(by_card.items())
    known = _MAKEUPS.get(makeup)
    if known is not None:
        return known
    counts: dict[int, int] = {}
    halves: dict[int, CharmHalf] = {}
    for g, n in by_card.items():
        half = g.charm_half
        assert half is not None
        key = id(half)
        counts[key] = counts.get(key, 0) + n
        halves[key] = half
    made = tuple(sorted(((halves[k], n) for k, n in counts.items()), key=_by_half))
    if len(_MAKEUPS) >= _MAKEUPS_KEPT:
        _MAKEUPS.clear()
    _MAKEUPS[makeup] = made
    return made


def _count_charm_cards(pile: list[Copy], by_card: dict[GameCard, int]) -> None:
    """The combat cards of ``pile`` counted by card record into ``by_card``."""
    for x in pile:
        g = x.g
        if g.charm_half is not None:  # a combat card
            by_card[g] = by_card.get(g, 0) + 1


# charm_halves' answers by combat pile make-up (a run plays one or a few decks).
_MAKEUPS: Final[dict[frozenset[tuple[GameCard, int]], tuple[tuple[CharmHalf, int], ...]]] = {}
_MAKEUPS_KEPT: Final = 64


def _by_half(hn: tuple[CharmHalf, int]) -> tuple[tuple[str, str, str], int]:
    """The order of :func:`charm_halves`: by the half's name, target and modifier as printed
    (worked out once per half: the search player's rollouts ask for every copy of a game), then
    by count."""
    half = hn[0]
    known = _HALF_ORDER.get(id(half))
    if known is None or known[0] is not half:
        known = (half, (half.name, half.target, str(half.modifier)))
        _HALF_ORDER[id(half)] = known
    return known[1], hn[1]


# The order key of each charm half, by identity (halves are shared card data; with the half
# kept, so a recycled id never matches).
_HALF_ORDER: dict[int, tuple[CharmHalf, tuple[str, str, str]]] = {}


def charm_chance(
    halves: tuple[tuple[CharmHalf, int], ...], mine: int, theirs: int, tie_lost: bool = False
) -> tuple[float, float]:
    """(chance to win, chance to lose) of a charm battle between charms ``mine`` and ``theirs``
    when one card drawn from ``halves`` goes on the disaster and one on the character ("Your
    Character Charming a Disaster > Draw Combat Cards"); totals never below 0 (1998 guidelines
    1.5). Cards' encoded text and held flash effects are left out of this estimate."""
    total = sum(n for _, n in halves)
    if total < 2:
        diff = max(0, mine) - max(0, theirs)
        win = 1.0 if diff > 0 else 0.0
        return win, 1.0 - win if (diff < 0 or (tie_lost and diff == 0)) else 0.0
    win = lose = 0.0
    pairs = total * (total - 1)
    for a, na in halves:  # on the disaster
        t, m = apply_charm_half(a, theirs, mine)
        for b, nb in halves:  # on the character
            weight = na * (nb - 1 if a is b else nb)
            if not weight:
                continue
            m2, t2 = apply_charm_half(b, m, t)
            diff = max(0, m2) - max(0, t2)
            if diff > 0:
                win += weight
            elif diff < 0 or tie_lost:
                lose += weight
    return win / pairs, lose / pairs
