"""The effect interpreter: plays the effects of ``card_db/animayhem/effects`` in a game.

One function per action of the vocabulary (:mod:`deckkit.animayhem.construction.vocabulary`),
one resolver per target, and the queries the rules ask in combat and movement (who a disaster
prefers or spares, bonuses that last, blocked locations). The rules of combat and movement call
in here at each trigger; what the interpreter needs of them back (knock a character out, defeat
a disaster, start a combat) it asks through ``game.hooks``, so this module imports neither and
the engine's import graph stays acyclic.

Where the rule documents define a term, the code follows them: "Duration" counts the turn an
effect starts in (set0 rulebook, Lexicon); a targeted ("explicit") card with no valid target
fizzles (Lexicon "Fizzle"; "Reload Phase"); "all X" means all X at a location unless it says
otherwise (1998 guidelines 3.7, encoded in each entry's target); discarded and destroyed items
count for the disasters (1998 guidelines 4.3).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from deckkit.animayhem.construction.cards import (
    AnyCard,
    CardType,
    CharacterCard,
    ItemCard,
    LocationCard,
    Modifier,
    PowerCard,
)
from deckkit.animayhem.construction.requirements import requirement_met, skill_totals
from deckkit.animayhem.construction.vocabulary import (
    Action,
    CardEffects,
    Effect,
    Scope,
    Target,
    Trigger,
)
from deckkit.animayhem.engine.abilities import conditional, enter_haven, refresh
from deckkit.animayhem.engine.queries import (
    _AT_DISASTER,
    _FIGHT_SCOPES,
    _PILE_ACTIONS,
    Use,
    _carried,
    _carried_standing,
    _lent,
    _party,
    _pile_matches,
    blocked,
    card_matches,
    conditions_hold,
    fits,
    free_caster,
    leap_room,
    nearest_disaster,
    reachable_item,
    standing,
    usable,
)
from deckkit.animayhem.engine.record import CardStat
from deckkit.animayhem.engine.state import ENE, Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.state import Mods

Source = Dis | Char | Copy
FOREVER = 1 << 30


def by_trigger(entry: CardEffects | None) -> dict[Trigger, tuple[tuple[int, Effect], ...]] | None:
    """A card's effects grouped by trigger (with their index, for ``every`` and
    ``max_times``); None when it has none, so the rules skip it at the cost of one test."""
    if entry is None or not entry.effects:
        return None
    out: dict[Trigger, list[tuple[int, Effect]]] = {}
    for i, e in enumerate(entry.effects):
        out.setdefault(e.when, []).append((i, e))
    return {k: tuple(v) for k, v in out.items()}


# --- matching ---------------------------------------------------------------------------


# --- targets ------------------------------------------------------------------------------


class Context:
    """Where and against whom an effect fires."""

    __slots__ = ("fought", "holder", "opponents", "slot", "source")

    def __init__(
        self,
        source: Source,
        slot: int,
        holder: Char | None = None,
        opponents: list[Char] | None = None,
        fought: Dis | None = None,
    ) -> None:
        self.source = source
        self.slot = slot  # the location it acts from (-1: off the field)
        self.holder = holder  # the character a power card or item is on
        self.opponents = opponents or []
        self.fought = fought  # the disaster a character-side effect is fighting


def _from_slot(game: Game, ctx: Context) -> int:
    """Distances are measured from the card's location; a card off the field measures from
    where disasters enter the field."""
    return ctx.slot if ctx.slot >= 0 else game.field.path[0]


def characters(game: Game, e: Effect, ctx: Context) -> list[Char]:
    """The characters an effect reaches; a disaster's never reach those immune to it."""
    who = _characters(game, e, ctx)
    src = ctx.source
    if who and isinstance(src, Dis) and Action.IMMUNE in game.acts:
        return [c for c in who if not immune(game, src, c)]
    return who


def _characters(game: Game, e: Effect, ctx: Context) -> list[Char]:
    t = e.target
    if t is Target.SELF:
        who = [ctx.source] if isinstance(ctx.source, Char) else []
        if ctx.holder is not None:
            who = [ctx.holder]
        return [c for c in who if c.zone in ("field", "haven") and fits(e, c)]
    if t is Target.OPPONENT:
        # In play, or just bonked by it (an effect on whom it knocks out).
        return [c for c in ctx.opponents if c.zone in ("field", "bonked") and fits(e, c)]
    if t in (Target.PLAY,):
        pool = [c for c in game.chars if c.zone in ("field", "haven")]
    else:
        pool = game.on_field()
    pool = [c for c in pool if fits(e, c)]
    if e.do is Action.SEND and e.to == "here" and isinstance(ctx.source, Copy):
        # A player's card brings characters from elsewhere to its holder (Transmitter Bra).
        pool = [c for c in pool if c.slot != ctx.slot] if ctx.slot >= 0 else []
    if not pool:
        return []
    if t is Target.FIELD or t is Target.PLAY:
        return pool
    if t is Target.STRONGEST:
        return [max(pool, key=lambda c: (c.cur[0] + c.cur[1], -c.uid))]
    start = _from_slot(game, ctx)
    dist = game.dist[start]
    if t is Target.WITHIN:
        return [c for c in pool if dist[c.slot] <= e.n]
    if t in (Target.NEAREST, Target.NEAREST_ONE):
        near = min(dist[c.slot] for c in pool)
        slot = min(c.slot for c in pool if dist[c.slot] == near)
        group = [c for c in pool if c.slot == slot]
        return group if t is Target.NEAREST else [game.chance.pick(group)]
    here = [c for c in pool if c.slot == ctx.slot]
    if not here:
        return []
    if t is Target.ONE_HERE:
        return [game.chance.pick(here)]
    if t is Target.STRONGEST_HERE:
        return [max(here, key=lambda c: (c.cur[0] + c.cur[1], -c.uid))]
    return here  # HERE


def _holders(game: Game, e: Effect, ctx: Context) -> list[Char]:
    """Whose carried cards an effect reaches; a disaster's never those immune to it."""
    who = _holders_of(game, e, ctx)
    src = ctx.source
    if who and isinstance(src, Dis) and Action.IMMUNE in game.acts:
        return [c for c in who if not immune(game, src, c)]
    return who


def _holders_of(game: Game, e: Effect, ctx: Context) -> list[Char]:
    if e.target is Target.CARRIED_HERE:
        return [c for c in game.at(ctx.slot) if fits(e, c)] if ctx.slot >= 0 else []
    if e.target is Target.CARDS_IN_PLAY:
        return [c for c in game.chars if c.zone in ("field", "haven") and fits(e, c)]
    return [c for c in game.on_field() if fits(e, c)]  # NEAREST_CARD


# --- actions on characters -------------------------------------------------------------


def _until(game: Game, e: Effect) -> int:
    """The last turn an effect lasts: ``turns`` counts the current one (Lexicon "Duration")."""
    return game.turn + max(1, e.turns) - 1


def _knock(game: Game, c: Char, how: str, by: Dis | None) -> None:
    game.hooks.knock_out(game, c, how, by)


def _say(game: Game, src: Source, text: str) -> None:
    if game.trace is not None:
        game.say("effect", f"{_name(src)} {text}", src)


def _name(src: Source) -> str:
    return src.name if isinstance(src, Char | Dis) else src.card.name


def _source_dis(ctx: Context) -> Dis | None:
    return ctx.source if isinstance(ctx.source, Dis) else None


def _send(game: Game, e: Effect, ctx: Context, who: list[Char]) -> bool:
    """Move the characters; True when someone was moved."""
    to = e.to
    if Action.STAY in game.acts:
        who = [c for c in who if not stays(game, c)]
    if to == "haven":
        for c in who:
            if c.zone == "field" and not stays(game, c):
                enter_haven(game, c)
        return True
    on = [c for c in who if c.zone == "field" and not stays(game, c)]
    if not on:
        return False
    if to == "here":
        dest = ctx.slot if ctx.slot >= 0 else -1
    elif to == "goal":
        # Straight to the location the player picks (Shortcut): the policy's next target.
        dest = game.hooks.destination(game, on)
    elif to == "dimensional":
        start = _from_slot(game, ctx)
        dims = [loc.slot for loc in game.locs if loc.dimensional and not loc.destroyed]
        pool = dims or [loc.slot for loc in game.locs if not loc.destroyed]
        far = not dims
        dest = (max if far else min)(pool, key=lambda s: (game.dist[start][s], -s)) if pool else -1
    else:
        # Right and left follow the field's reading order (row by row, left to right).
        cells = game.field.cells
        order = sorted(range(len(cells)), key=lambda s: (cells[s][1], cells[s][0]))
        step = e.n if to == "right" else -e.n
        i = order.index(on[0].slot) + step
        dest = order[min(max(i, 0), len(order) - 1)]
    if dest < 0 or (to == "goal" and all(c.slot == dest for c in on)):
        return False
    for c in on:
        c.slot = dest
    _say(game, ctx.source, f"sends {', '.join(c.name for c in on)} to {game.locs[dest].card.name}")
    return True


def stays(game: Game, c: Char) -> bool:
    """Card effects cannot send this character elsewhere (STAY): a card it or its group
    carries (`self` covers its carrier, `here` the whole group), or a global effect in play
    covering the field."""
    if not game.fx:
        return False
    for other in game.at(c.slot):
        for card, e in _carried_standing(game, other):
            if (
                e.do is Action.STAY
                and (e.target is Target.HERE or other is c)
                and fits(e, c)
                and conditions_hold(game, e, c.slot)
            ):
                _credit(game, card)
                return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.card.id)
        if fx is not None and any(
            e.do is Action.STAY and e.target in (Target.FIELD, Target.PLAY) and fits(e, c)
            for _, e in fx.get(Trigger.ALWAYS, ())
        ):
            _credit(game, g.card)
            return True
    return False


def _drop(game: Game, e: Effect, c: Char) -> None:
    if c.zone != "field":
        return
    loc = game.locs[c.slot]
    loc.hidden_cards.extend(c.items)
    c.items = []
    if e.cards and any(w.casefold() == "equipment" for w in e.cards):
        loc.hidden_cards.extend(c.equipment)
        c.equipment = []
        refresh(game, c)


def _heal_on_release(c: Char) -> None:
    """A captive comes back without the combat damage it was taken with: damage taken in a
    fight lasts only to the end of that fight (set0 rulebook, "Health": "After combat ends, any
    characters ... still in play are healed completely"); a card's direct damage
    heals at the next turn as everyone's does (``wounded_turn``)."""
    if c.wounded_turn < 0:
        c.health = c.health_max


def _capture(game: Game, e: Effect, ctx: Context, c: Char) -> None:
    if c.zone == "field":
        game.locs[c.slot].hidden_cards.extend(c.items)
        c.items = []
    elif c.zone == "haven":
        game.haven_cards.extend(c.items)
        c.items = []
    elif c.zone != "bonked":  # a bonked character has dropped what it carried
        return
    c.zone = "captured"
    c.slot = -1
    d = _source_dis(ctx)
    if e.turns <= 0 and d is not None:
        c.captor = d.uid
        c.return_turn = FOREVER
    else:
        c.captor = -1
        c.return_turn = game.turn + max(1, e.turns)


def _transform(game: Game, c: Char) -> None:
    card = c.card
    if card.alt is None:
        return
    a = card.alt if c.base == _base(card) else card.abilities
    c.base = (a.damage or 0, a.defense or 0, a.movement or 0, a.charm or 0, a.energy or 0)
    refresh(game, c)


def _base(card: CharacterCard) -> tuple[int, int, int, int, int]:
    a = card.abilities
    return (a.damage or 0, a.defense or 0, a.movement or 0, a.charm or 0, a.energy or 0)


# --- actions on abilities ----------------------------------------------------------------


def _modify_char(game: Game, e: Effect, ctx: Context, c: Char, sides: Sides | None) -> None:
    scope = e.scope
    if scope in (Scope.ROUND, Scope.COMBAT):
        if sides is not None and c.uid in sides.chars:
            sides.char_mod(c.uid, e.mods, scope is Scope.COMBAT)
        return
    if scope is Scope.NEXT_COMBAT:
        c.pending.append(e.mods)
        return
    last = FOREVER if scope is Scope.GAME else _until(game, e)
    c.timed.append((e.mods, last))
    refresh(game, c)


def _modify_dis(game: Game, e: Effect, d: Dis, sides: Sides | None) -> None:
    scope = e.scope
    if scope is Scope.RETREAT:
        return  # only the final attack on a retreat (retreat_attack)
    if scope in (Scope.ROUND, Scope.COMBAT):
        if sides is not None and sides.dis is d:
            sides.dis_mod(e.mods, scope is Scope.COMBAT)
        return
    if scope is Scope.NEXT_COMBAT:
        scope = Scope.TURNS  # a disaster's "next combat" is read as the rest of this turn
    old = (d.damage, d.defense, d.movement, d.charm)
    for ability, mod in e.mods:
        if ability == "damage":
            d.damage = max(0, mod.apply(d.damage))
        elif ability == "defense":
            d.defense = max(0, mod.apply(d.defense))
            d.health = max(d.health, 0) + (d.defense - old[1])
        elif ability == "movement":
            d.movement = max(0, mod.apply(d.movement))
        elif ability == "charm":
            d.charm = max(0, mod.apply(d.charm))
    if scope is Scope.TURNS:
        game.dis_timers.append((_until(game, e), d, old))


def disasters(game: Game, e: Effect, ctx: Context) -> list[Dis]:
    if e.target is Target.SELF:
        src = ctx.source
        if isinstance(src, Dis):
            return [src]
        return [ctx.fought] if ctx.fought is not None else []
    if e.target is Target.NEAREST_DISASTER:
        return nearest_disaster(game, ctx.slot, e.cards, ctx.source)
    if ctx.fought is not None:  # a character's effect reaches the disaster it fights
        return [ctx.fought] if card_matches(ctx.fought.card, e.cards) else []
    return [d for d in game.disasters if card_matches(d.card, e.cards)]


# --- actions on cards --------------------------------------------------------------------


def _destroy_card(
    game: Game,
    ctx: Context,
    holder: Char | None,
    pile: list[Copy],
    x: Copy,
    to_draw: bool = False,
) -> None:
    """``x`` leaves play: an item counts for the disasters (1998 guidelines 4.3); another card
    is discarded, or with ``to_draw`` shuffled into the draw pile (Have a Nice Trip)."""
    pile.remove(x)
    if isinstance(x.card, ItemCard):
        game.carried_off.append(x)  # destroyed items count for the disasters (4.3)
        d = _source_dis(ctx)
        if d is not None:
            game.record.bump(d.card.id, CardStat.ITEMS_CARRIED_OFF)
    else:
        x.uses_left = x.card.uses if isinstance(x.card, PowerCard) else None
        if to_draw or (
            holder is not None and Action.RECYCLE in game.acts and kept_in_deck(game, x)
        ):
            game.draw_pile.append(x)  # Raven's Garage: back into the draw pile, shuffled
            game.chance.shuffle(game.draw_pile)
        else:
            game.discard.append(x)
    if holder is not None:
        refresh(game, holder)
    _say(game, ctx.source, f"destroys {x.card.name}")


def _destroy(game: Game, e: Effect, ctx: Context) -> bool:
    n = e.n if e.n > 0 else FOREVER
    if e.target is Target.ITEMS_HERE:
        if ctx.slot < 0:
            return False
        loc = game.locs[ctx.slot]
        want = e.cards or ("item",)
        found = [x for x in loc.hidden_cards if card_matches(x.card, want)]
        for x in found[:n]:
            _destroy_card(game, ctx, None, loc.hidden_cards, x)
        return bool(found)
    if e.target is Target.HAND:
        found = [x for x in game.hand if isinstance(x, Copy) and card_matches(x.card, e.cards)]
        for x in found[:n]:
            game.hand.remove(x)
            game.discard.append(x)
        return bool(found)
    owned = [t for c in _holders(game, e, ctx) for t in _carried(c, e.cards)]
    if not owned:
        return False
    if e.target is Target.NEAREST_CARD:
        start = _from_slot(game, ctx)
        near = min(game.dist[start][h.slot] for h, _, _ in owned)
        owned = [t for t in owned if game.dist[start][t[0].slot] == near]
        owned = [game.chance.pick(owned)]
    elif n < len(owned):
        game.chance.shuffle(owned)
    for holder, pile, x in owned[:n]:
        if Action.PRESERVE in game.acts and preserved(game, x):
            continue
        _destroy_card(game, ctx, holder, pile, x, to_draw=e.to == "draw")
    return True


def _take(game: Game, e: Effect, ctx: Context) -> bool:
    d = _source_dis(ctx)
    if d is None or d.zone != "field":
        return False
    slot = game.slot_of(d)
    took = False
    for _ in range(max(1, e.n)):
        held = [t for c in game.at(slot) if fits(e, c) for t in _carried(c, e.cards)]
        if held and Action.SAFEGUARD in game.acts:
            # Items a card keeps from theft stay (Classy Crooks); equipment is not covered.
            held = [t for t in held if t[1] is not t[0].items or not safeguarded(game, t[0], t[2])]
        if e.target is Target.CARRIED_HERE and held:
            victim, pile, item = game.chance.pick(held)
            pile.remove(item)
            if pile is not victim.items:
                refresh(game, victim)  # equipment taken
        else:
            loc = game.locs[slot]
            found = reachable_item(game, slot)  # the one pickup reading (rule item_pickup)
            if found is None:
                break
            item = found
            loc.hidden_cards.remove(item)
        game.locs[slot].hidden_cards.extend(d.carrying)  # it holds one item at most
        d.carrying = [item]
        took = True
        _say(game, d, f"takes {item.card.name}")
    return took


# --- actions on disasters and locations --------------------------------------------------


def _move_to(game: Game, e: Effect, d: Dis) -> bool:
    if d.zone != "field":
        return False
    here = game.slot_of(d)
    if e.to == "nearest_character":
        chars = [c for c in game.on_field() if fits(e, c)]
        if not chars:
            return False
        dist = game.dist[here]
        slot = min((c.slot for c in chars), key=lambda s: (dist[s], s))
    else:
        others = [o for o in game.disasters if o is not d and o.combat]
        if not others:
            return False
        slot = game.slot_of(min(others, key=lambda o: (abs(o.pos - d.pos), o.entered)))
    d.pos = game.field.path_index[slot]
    _say(game, d, f"moves to {game.locs[slot].card.name}")
    return True


def _pull(game: Game, e: Effect, ctx: Context) -> bool:
    if ctx.slot < 0:
        return False
    pos = game.field.path_index[ctx.slot]
    pulled = 0
    for o in game.disasters:
        movable = o is not ctx.source and o.movement > 0 and not o.stationary
        if movable and card_matches(o.card, e.cards):
            o.pos = pos
            pulled += 1
    if pulled:
        _say(game, ctx.source, f"pulls {pulled} disasters to {game.locs[ctx.slot].card.name}")
    return pulled > 0


def _block(game: Game, e: Effect, ctx: Context) -> bool:
    if e.target is Target.LOCATION:
        slots = [ctx.slot] if ctx.slot >= 0 else []
    elif e.cards:  # locations named by kind (Lady Tokimi: dimensional ones)
        slots = [loc.slot for loc in game.locs if card_matches(loc.card, e.cards)]
    else:
        slots = [
            loc.slot
            for loc in game.locs
            if any(
                e.skill.casefold() in str(t).casefold()
                for alt in loc.card.requirement.alternatives
                for t in alt
            )
        ]
    src = ctx.source
    uid = src.uid if isinstance(src, Dis) and e.turns <= 0 else -1
    last = FOREVER if uid >= 0 else _until(game, e)
    for s in slots:
        game.blocked[s] = (last, uid)
    if slots:
        _say(game, src, "blocks " + ", ".join(game.locs[s].card.name for s in slots))
    return bool(slots)


def _destroy_location(game: Game, ctx: Context) -> bool:
    if ctx.slot < 0:
        return False
    loc = game.locs[ctx.slot]
    if loc.destroyed:
        return False
    loc.destroyed = True
    for x in loc.hidden_cards:
        if isinstance(x.card, ItemCard):
            game.carried_off.append(x)
        else:
            game.discard.append(x)
    loc.hidden_cards = []
    for d in loc.hidden_disasters:
        d.zone = "discard"
        game.discard.append(d)
    loc.hidden_disasters = []
    game.scavenged.add(ctx.slot)
    _say(game, ctx.source, f"destroys {loc.card.name}")
    return True


def gone(d: Dis) -> bool:
    """The disaster has left play: discarded, or shuffled back into the draw pile (RECYCLE)."""
    return d.zone == "discard" or d.recycled


def leave_play(game: Game, d: Dis) -> None:
    """A disaster leaves play without being defeated."""
    if d in game.disasters:
        game.disasters.remove(d)
    game.lasting = [(x, t) for x, t in game.lasting if x is not d]
    if d.carrying and d.pos >= 0:
        game.locs[game.slot_of(d)].hidden_cards.extend(d.carrying)
        d.carrying = []
    d.zone = "discard"
    d.pos = -1
    game.discard.append(d)


def _spend(game: Game, ctx: Context) -> bool:
    """A carried card gives itself up (an item "discarded to defeat" a disaster); a discarded
    item counts for the disasters (1998 guidelines 4.3)."""
    holder = ctx.holder
    src = ctx.source
    if holder is None or not isinstance(src, Copy):
        return False
    for pile in (holder.items, holder.equipment, holder.enhancements):
        if src in pile:
            _destroy_card(game, ctx, holder, pile, src)
            return True
    return False


def _pay(game: Game, e: Effect, ctx: Context) -> bool:
    """Discard one carried card matching ``pay`` from the party concerned: equipment before
    items, since a discarded item counts for the disasters (1998 guidelines 4.3); ``self`` is
    the carried card whose effect this is, given up only when the player judges it worth it."""
    if "holder" in e.pay:
        # The character the card is played on is killed to do it (Ultimate Sacrifice).
        holder = ctx.holder
        if holder is None or holder.zone != "field":
            return False
        _say(game, ctx.source, f"costs {holder.name}'s life")
        _knock(game, holder, "killed", None)
        return True
    if "self" in e.pay and isinstance(ctx.source, Copy):
        if isinstance(ctx.source.card, ItemCard) and not game.hooks.worth_an_item(
            game, ctx.fought or ctx.source
        ):
            return False
        return _spend(game, ctx)
    options = [t for c in _party(game, ctx.slot) for t in _carried(c, e.pay)]
    if not options:
        return False
    options.sort(key=lambda t: (isinstance(t[2].card, ItemCard), t[2].uid))
    holder, pile, x = options[0]
    if isinstance(x.card, ItemCard) and not game.hooks.worth_an_item(game, ctx.source):
        return False
    _destroy_card(game, ctx, holder, pile, x)
    return True


# --- the dispatcher -----------------------------------------------------------------------


class Sides:
    """Round-local modifiers the combat code reads back: per character and for the disaster,
    for this round or for the rest of the combat."""

    __slots__ = (
        "chars",
        "combat_chars",
        "combat_dis",
        "dis",
        "dis_round",
        "first",
        "lone",
        "loss_times",
        "round_chars",
    )

    def __init__(self, dis: Dis, chars: Sequence[Char]) -> None:
        self.dis = dis
        self.chars = {c.uid for c in chars}
        self.round_chars: dict[int, list[Mods]] = {}
        self.combat_chars: dict[int, list[Mods]] = {}
        self.dis_round: list[Mods] = []
        self.combat_dis: list[Mods] = []
        self.first = False  # the characters strike first this combat (FIRST_STRIKE)
        # This round only (flash additions): the disaster's health loss is multiplied by
        # loss_times (0: any loss defeats it: FRAIL); only the character ``lone`` deals damage
        # (CHARGE with everyone's energy); -1: no such card was played.
        self.loss_times = 1
        self.lone = -1

    def char_mod(self, uid: int, mods: Mods, whole: bool) -> None:
        (self.combat_chars if whole else self.round_chars).setdefault(uid, []).append(mods)

    def dis_mod(self, mods: Mods, whole: bool) -> None:
        (self.combat_dis if whole else self.dis_round).append(mods)

    def new_round(self) -> None:
        self.round_chars = {}
        self.dis_round = []
        self.loss_times = 1
        self.lone = -1

    def disaster_loss(self, loss: int, health: int) -> int:
        """The health the disaster loses this round after a FRAIL card: ``loss`` times its
        multiplier, or all of ``health`` when any loss defeats it."""
        if loss < 1 or self.loss_times == 1:
            return loss
        return max(loss, health) if self.loss_times == 0 else loss * self.loss_times


def apply_mods(mods: list[Mods], damage: int, defense: int) -> tuple[int, int]:
    for group in mods:
        for ability, mod in group:
            if ability == "damage":
                damage = mod.apply(damage)
            elif ability == "defense":
                defense = mod.apply(defense)
    return damage, defense


def run(
    game: Game,
    e: Effect,
    ctx: Context,
    sides: Sides | None = None,
) -> bool:
    """Carry out one effect; True when it found a target and did something. A DEFEAT or
    DISCARD that succeeds ends the source's remaining effects (the caller checks its zone)."""
    do = e.do
    if e.target is Target.OPPONENT and not isinstance(ctx.source, Dis):
        # From the characters' side, the opponent is the disaster being fought.
        if do is not Action.MODIFY or ctx.fought is None:
            return False
        _modify_dis(game, e, ctx.fought, sides)
        _say(game, ctx.source, f"changes {ctx.fought.name}")
        return True
    if do is Action.NO_RETREAT and e.target is not Target.SELF:
        who = characters(game, e, ctx)
        for c in who:
            c.pinned = True
        if who:
            _say(game, ctx.source, f"bars {', '.join(c.name for c in who)} from running away")
        return bool(who)
    if do in (
        Action.BONK,
        Action.KILL,
        Action.DAMAGE,
        Action.HEAL,
        Action.DISABLE,
        Action.HOLD,
        Action.CAPTURE,
        Action.SEND,
        Action.DROP,
        Action.GRANT,
        Action.TRANSFORM,
        Action.ATTACK,
    ) or (
        do is Action.MODIFY
        and e.target not in (Target.DISASTERS, Target.NEAREST_DISASTER)
        and not (e.target is Target.SELF and isinstance(ctx.source, Dis))
    ):
        who = characters(game, e, ctx)
        if not who:
            return False
        return _on_characters(game, e, ctx, who, sides)
    if do is Action.MODIFY:
        targets = disasters(game, e, ctx)
        for d in targets:
            _modify_dis(game, e, d, sides)
        if targets:
            _say(game, ctx.source, f"changes {', '.join(d.name for d in targets)}")
        return bool(targets)
    if do is Action.DESTROY:
        return _destroy(game, e, ctx)
    if do is Action.TAKE:
        return _take(game, e, ctx)
    if do is Action.DISCARD_HAND:
        cards = [x for x in game.hand if isinstance(x, Copy)]
        game.chance.shuffle(cards)
        for x in cards[: max(1, e.n)]:
            game.hand.remove(x)
            game.discard.append(x)
        if cards:
            _say(game, ctx.source, f"discards {min(len(cards), max(1, e.n))} cards from the hand")
        return bool(cards)
    if do is Action.RESHUFFLE_HAND:
        cards = [x for x in game.hand if isinstance(x, Copy)]
        for x in cards:
            game.hand.remove(x)
            game.draw_pile.append(x)
        game.chance.shuffle(game.draw_pile)
        drawn = 0
        while drawn < len(cards) and game.draw_pile and isinstance(game.draw_pile[-1], Copy):
            top = game.draw_pile.pop()
            assert isinstance(top, Copy)
            game.hand.append(top)
            drawn += 1
        _say(game, ctx.source, "has the hand reshuffled into the draw pile")
        return bool(cards)
    if do in _ADDED_EVENTS:
        return _added_event(game, e, ctx, sides)
    src = _source_dis(ctx) or ctx.fought
    if do is Action.MOVE_TO:
        return src is not None and _move_to(game, e, src)
    if do is Action.REVERSE:
        return _reverse(game, e, ctx)
    if do is Action.PULL:
        return _pull(game, e, ctx)
    if do is Action.BLOCK:
        return _block(game, e, ctx)
    if do is Action.DESTROY_LOCATION:
        return _destroy_location(game, ctx)
    if do is Action.BECOME_HAVEN:
        return _become_haven(game, ctx)
    if do in _PILE_ACTIONS:
        return _pile_action(game, e, ctx)
    if do is Action.REVEAL:
        return _reveal(game, e, ctx)
    if do in _UNDER_ACTIONS:
        return _under_action(game, e, ctx)
    if do is Action.DEFEAT or do is Action.DISCARD:
        if do is Action.DISCARD and e.target is Target.SELF and isinstance(ctx.source, Copy):
            return _spend(game, ctx)
        if e.target is Target.SELF:
            targets = [src] if src is not None else []
        else:
            targets = disasters(game, e, ctx)
        targets = [d for d in targets if not gone(d)][: e.n if e.n > 0 else None]
        if not targets:
            return False
        if e.pay and not _pay(game, e, ctx):
            return False
        for d in targets:
            if do is Action.DEFEAT:
                _say(game, d, f"is defeated by {_name(ctx.source)}")
                party = _party(game, ctx.slot) if ctx.slot >= 0 else []
                game.hooks.defeat(game, d, [c for c in party if c.zone == "field"])
            else:
                _say(game, d, "leaves play")
            if not gone(d):
                leave_play(game, d)
        return True
    # Standing rules (PREFER, SPARE, NO_RETREAT, IGNORE_CARDS, EXTRA_CARDS) are read by the
    # combat queries below; as events they change nothing.
    return False


def _pile_action(game: Game, e: Effect, ctx: Context) -> bool:
    """The actions on piles, cards and locations (queries._PILE_ACTIONS), by their handler."""
    return _PILE_HANDLERS[e.do](game, e, ctx)


def _on_characters(
    game: Game, e: Effect, ctx: Context, who: list[Char], sides: Sides | None
) -> bool:
    do = e.do
    by = _source_dis(ctx)
    n = len(who)
    if do is Action.BONK or do is Action.KILL:
        for c in who:
            _say(game, ctx.source, f"{'bonks' if do is Action.BONK else 'kills'} {c.name}")
            _knock(game, c, "bonked" if do is Action.BONK else "killed", by)
    elif do is Action.DAMAGE:
        for c in who:
            c.health -= e.n
            _say(game, ctx.source, f"deals {e.n} damage to {c.name} (health {c.health})")
            if c.health <= 0:
                _knock(game, c, "bonked", by)
            else:
                c.wounded_turn = game.turn
    elif do is Action.HEAL:
        # The n most hurt of the targets (Senzu Beans heals up to 3); a card given up to heal
        # is spent only on someone hurt.
        who = sorted(who, key=lambda c: (c.health - c.health_max, c.uid))
        who = who[: e.n] if e.n > 0 else who
        if e.pay and not (any(c.health < c.health_max for c in who) and _give_up(game, ctx, who)):
            return False
        for c in who:
            c.health = c.health_max
        _say(game, ctx.source, f"heals {', '.join(c.name for c in who)}")
    elif do is Action.DISABLE or do is Action.HOLD:
        last = _until(game, e)
        for c in who:
            if do is Action.DISABLE:
                c.disabled_until = max(c.disabled_until, last)
            else:
                c.held_until = max(c.held_until, last)
        verb = "disables" if do is Action.DISABLE else "holds"
        _say(game, ctx.source, f"{verb} {', '.join(c.name for c in who)} through turn {last}")
    elif do is Action.CAPTURE:
        for c in who:
            _capture(game, e, ctx, c)
        _say(game, ctx.source, f"captures {', '.join(c.name for c in who)}")
    elif do is Action.SEND:
        if not _send(game, e, ctx, who) and e.to == "goal":
            return False  # no better place to go: the card is not spent
    elif do is Action.DROP:
        for c in who:
            _drop(game, e, c)
        _say(game, ctx.source, f"makes {', '.join(c.name for c in who)} drop what they carry")
    elif do is Action.GRANT:
        last = _until(game, e) if e.turns else FOREVER
        if e.target in (Target.FIELD, Target.PLAY) and len(who) > e.n > 0:
            # "One of your characters may add the skill": the largest group's first member,
            # where one more skill opens the most.
            sizes = {c.slot: sum(1 for o in who if o.slot == c.slot) for c in who}
            who = sorted(who, key=lambda c: (-sizes[c.slot], c.uid))[: e.n]
        for c in who:
            c.grants.append((e.skill, last))
            refresh(game, c)
    elif do is Action.TRANSFORM:
        for c in who:
            _transform(game, c)
    elif do is Action.ATTACK:
        if by is None or not by.combat or by.zone != "field":
            return False
        slot = who[0].slot
        by.pos = game.field.path_index[slot]
        _say(game, by, f"attacks at {game.locs[slot].card.name}")
        game.hooks.attack(game, by, slot)
    elif do is Action.MODIFY:
        if e.pay and not _give_up(game, ctx, who):
            return False
        for c in who:
            _modify_char(game, e, ctx, c, sides)
        _say(game, ctx.source, f"changes {', '.join(c.name for c in who)}")
    return n > 0


def fire(
    game: Game,
    source: Source,
    trigger: Trigger,
    slot: int,
    *,
    holder: Char | None = None,
    opponents: list[Char] | None = None,
    fought: Dis | None = None,
    sides: Sides | None = None,
) -> bool:
    """Run ``source``'s effects for ``trigger``; True when any of them did something."""
    fx = source.fx if isinstance(source, Dis | Char) else game.fx.get(source.card.id)
    if fx is None:
        return False
    entries = fx.get(trigger)
    if not entries:
        return False
    ctx = Context(source, slot, holder, opponents, fought)
    did = False
    for i, e in entries:
        if e.every > 1:  # every n-th occurrence of the trigger
            key = (source.uid, i)
            seen = game.fired.get(key, 0) + 1
            game.fired[key] = seen
            if seen % e.every:
                continue
        if e.max_times and game.fired.get((source.uid, -1 - i), 0) >= e.max_times:
            continue  # it has acted as often as it may
        if fought is not None and e.against and not card_matches(fought.card, e.against):
            continue
        if not conditions_hold(game, e, slot):
            continue
        if run(game, e, ctx, sides):
            did = True
            game.record.bump(source.card.id, CardStat.EFFECTS)
            if e.max_times:
                acted = (source.uid, -1 - i)
                game.fired[acted] = game.fired.get(acted, 0) + 1
        if isinstance(source, Dis) and gone(source):
            break
    return did


def held_for_charm(game: Game, c: Char, d: Dis, mine: int, theirs: int) -> int:
    """``c`` is losing a charm battle against ``d`` (charms ``mine`` < ``theirs``): a flash
    effect held for it is played on ``c``, who pays its energy cost: one that turns the result
    (REVERSE_CHARM, Following Orders) or whose charm bonus for the round (against ``d``) is
    enough to win (Loving You). Returns the battle's new difference (below 0: still lost)."""
    for h in game.hand:
        if not isinstance(h, Copy) or not isinstance(h.card, PowerCard):
            continue
        fx = game.fx.get(h.card.id)
        if fx is None:
            continue
        cost = h.card.energy_cost or 0
        if cost > c.cur[ENE] or not usable(c, h.card):
            continue
        diff = mine - theirs
        for _, e in fx.get(Trigger.PLAYED, ()):
            if not fits(e, c) or not card_matches(d.card, e.against):
                continue
            if e.do is Action.REVERSE_CHARM:
                diff = 1
            elif e.do is Action.MODIFY and e.target is Target.SELF and e.scope is Scope.ROUND:
                diff = max(0, apply_charm([e.mods], mine)) - theirs
        if diff <= 0:
            continue
        game.hand.remove(h)
        game.discard.append(h)
        if cost:
            c.set_energy(c.cur[ENE] - cost)
        _credit(game, h.card)
        _say(game, h, f"is played on {c.name}: the charm battle is won instead")
        return diff
    return mine - theirs


def spend_free_cast(game: Game) -> bool:
    """Give up the flash effect in the hand that pays another's energy cost (FREE_CAST:
    Supreme Battle Aura) to pay one now (combat._flash_effects); False when none is held."""
    h = free_caster(game)
    if h is None:
        return False
    game.hand.remove(h)
    game.discard.append(h)
    _credit(game, h.card)
    _say(game, h, "is given up to pay an energy cost")
    return True


def flash_extra_cards(game: Game, card: AnyCard) -> int:
    """More combat cards a flash effect played in a round draws for its character."""
    fx = game.fx.get(card.id)
    if fx is None:
        return 0
    n = sum(
        e.n
        for _, e in fx.get(Trigger.PLAYED, ())
        if e.do is Action.EXTRA_CARDS and e.target is Target.SELF
    )
    if n > 0:
        _credit(game, card)
    return n


def play_in_combat(
    game: Game,
    copy: Copy,
    holder: Char,
    fought: Dis,
    slot: int,
    sides: Sides | None = None,
) -> tuple[list[Mods], list[Mods]]:
    """A flash effect played during a combat round: returns the modifiers for the holder's
    round and for the disaster's, and carries out its other effects now. A modifier for the
    ``combat`` scope also lasts the rest of the combat (``sides``); ``filter``/``exclude``
    name whom a modifier of ``self`` reaches and ``against`` the disaster it works on."""
    fx = game.fx.get(copy.card.id)
    mine: list[Mods] = []
    theirs: list[Mods] = []
    if fx is None:
        return mine, theirs
    ctx = Context(copy, slot, holder, [holder], fought)
    for _, e in fx.get(Trigger.PLAYED, ()):
        if not conditions_hold(game, e, slot):
            continue
        if e.against and not card_matches(fought.card, e.against):
            continue
        fight_mod = e.do is Action.MODIFY and e.scope in _FIGHT_SCOPES
        whole = e.scope is Scope.COMBAT and sides is not None
        if fight_mod and e.target is Target.SELF:
            if not fits(e, holder) or all(a == "charm" for a, _ in e.mods):
                continue  # charm acts only in a charm battle (held_for_charm: Loving You)
            mine.append(e.mods)
            if whole and sides is not None:
                sides.char_mod(holder.uid, e.mods, True)
            _credit(game, copy.card)
        elif fight_mod and e.target in _AT_DISASTER:
            if card_matches(fought.card, e.cards):
                theirs.append(e.mods)
                if whole and sides is not None:
                    sides.dis_mod(e.mods, True)
                _credit(game, copy.card)
        elif e.do is Action.EXTRA_CARDS and e.target is Target.SELF:
            continue  # drawn by the combat rules (flash_extra_cards)
        elif e.do is Action.FRAIL or e.do is Action.CHARGE:
            if sides is None or not fits(e, holder):
                continue
            if e.do is Action.FRAIL:
                # Meltdown, Frozen: the fought disaster's loss this round (combat.fight).
                sides.loss_times = e.n
                _say(game, copy, f"leaves {fought.name} frail this round")
            else:
                mine.append(_charge(game, e, holder, sides))
            _credit(game, copy.card)
        elif run(game, e, ctx):
            game.record.bump(copy.card.id, CardStat.EFFECTS)
    return mine, theirs


def _charge(game: Game, e: Effect, holder: Char, sides: Sides) -> Mods:
    """CHARGE: the holder's attack this round rises by ``n`` times energy: its own, which it
    spends (Kamehameha, Makkankoupousou), or every character in play's, and then its
    groupmates deal no damage this round (Genki-Dama)."""
    if e.target is Target.SELF:
        energy = holder.cur[ENE]
        holder.set_energy(0)
    else:
        energy = sum(c.cur[ENE] for c in game.chars if c.zone in ("field", "haven"))
        sides.lone = holder.uid
    _say(game, holder, f"charges {e.n * energy} energy into its attack")
    return (("damage", Modifier("+", e.n * energy)),)


def lone_attacker(sides: Sides | None) -> int:
    """The character whose CHARGE of everyone's energy leaves it the only one dealing damage
    this round, or -1."""
    return -1 if sides is None else sides.lone


# --- standing rules, read by combat and movement -----------------------------------------


def _credit(game: Game, card: AnyCard) -> None:
    """Count that one of the card's effects acted (the per-card statistic ``effects``)."""
    game.record.bump(card.id, CardStat.EFFECTS)


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
            _spend_use(game, u.holder, u.spent)
    uses.clear()


def _spend_use(game: Game, holder: Char, x: Copy) -> None:
    """One use of a carried card with a usage limit; out of uses, it is discarded (set0
    rulebook, "Equipment Cards With Usage Limits")."""
    if x.uses_left is None:
        return
    x.uses_left -= 1
    if x.uses_left <= 0:
        holder.equipment.remove(x)
        x.uses_left = x.card.uses if isinstance(x.card, PowerCard) else None
        game.discard.append(x)
        refresh(game, holder)


def safeguarded(game: Game, holder: Char, x: Copy) -> bool:
    """No disaster may steal or take this carried item (SAFEGUARD): a global effect in play
    names its kind for every character (Classy Crooks: Gift and Clothing items), or a card its
    carrier carries does for its carrier. Callers ask only for items, and only when SAFEGUARD
    is in the deck."""
    for g, _ in game.globals_in_play:
        for e in standing(game.fx.get(g.card.id), Action.SAFEGUARD):
            if e.target is Target.PLAY and fits(e, holder) and card_matches(x.card, e.cards):
                _credit(game, g.card)
                return True
    for pile in (holder.items, holder.equipment, holder.enhancements):
        for y in pile:
            for e in standing(game.fx.get(y.card.id), Action.SAFEGUARD):
                if e.target is not Target.SELF or not card_matches(x.card, e.cards):
                    continue
                # The first n matching items its carrier holds (Assassin Disguise: one).
                kept = [z for z in holder.items if card_matches(z.card, e.cards)][: max(1, e.n)]
                if x in kept:
                    _credit(game, y.card)
                    return True
    return False


def stealable(game: Game, holder: Char, pile: list[Copy]) -> list[Copy]:
    """The items of ``pile`` a disaster may steal or take from ``holder`` (SAFEGUARD)."""
    if Action.SAFEGUARD not in game.acts:
        return pile
    return [x for x in pile if not safeguarded(game, holder, x)]


def spared(game: Game, d: Dis, c: Char) -> bool:
    """The disaster never attacks this character (SPARE)."""
    if any(fits(e, c) for e in standing(d.fx, Action.SPARE)):
        _credit(game, d.card)
        return True
    return False


def attack_order(game: Game, d: Dis, pool: list[Char]) -> list[Char]:
    """Whom the disaster attacks first (PREFER); everyone when nobody matches."""
    prefs = standing(d.fx, Action.PREFER)
    if not prefs:
        return pool
    first = [c for c in pool if any(fits(e, c) for e in prefs)]
    if first and len(first) < len(pool):
        _credit(game, d.card)
    return first or pool


def has_rule(game: Game, d: Dis, rule: Action) -> bool:
    """The disaster carries this standing rule (NO_RETREAT, IGNORE_CARDS, DUEL, APART); each
    time it shapes a combat counts as a use of the card's effect."""
    if d.fx is not None and standing(d.fx, rule):
        _credit(game, d.card)
        return True
    return False


def shielded_from(game: Game, d: Dis, c: Char) -> bool:
    """The disaster takes no damage from this character (SHIELD)."""
    if any(fits(e, c) for e in standing(d.fx, Action.SHIELD)):
        _credit(game, d.card)
        return True
    return False


def _auras(game: Game) -> list[tuple[Source, Effect]]:
    """ALWAYS effects of cards in play that reach others: face-up and lasting disasters and
    global effects."""
    out: list[tuple[Source, Effect]] = []
    for d in game.disasters:
        if d.fx is not None:
            out.extend((d, e) for _, e in d.fx.get(Trigger.ALWAYS, ()))
    for d, _ in game.lasting:
        if d.fx is not None:
            out.extend((d, e) for _, e in d.fx.get(Trigger.ALWAYS, ()))
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.card.id)
        if fx is not None:
            out.extend((g, e) for _, e in fx.get(Trigger.ALWAYS, ()))
    return out


def extra_cards(game: Game, d: Dis) -> int:
    """Combat cards the disaster draws beyond its one (EXTRA_CARDS of itself and others)."""
    n = 0
    for src, e in _auras(game):
        if e.do is not Action.EXTRA_CARDS:
            continue
        if (src is d and e.target is Target.SELF) or (
            e.target is Target.DISASTERS and d.combat and card_matches(d.card, e.cards)
        ):
            n += e.n
            _credit(game, src.card)
    return n


def disaster_bonus(game: Game, d: Dis) -> tuple[int, int]:
    """Damage and defense a disaster gains while cards last: its own standing modifiers and
    those others lend (e.g. every Bugrom +2)."""
    dmg = dfn = 0
    for src, e in _auras(game):
        if e.do is not Action.MODIFY:
            continue
        own = src is d and e.target is Target.SELF
        if not own and (e.target is not Target.DISASTERS or src is d):
            continue
        if not card_matches(d.card, e.cards) or not conditions_hold(game, e, -1):
            continue
        _credit(game, src.card)
        add_dmg, add_dfn = _lent(e.mods, d)
        dmg += add_dmg
        dfn += add_dfn
    # A character in play may lend every disaster of a kind its bonus (Katsuhiko Jinnai).
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for _, e in c.fx.get(Trigger.ALWAYS, ()):
            lends = e.do is Action.MODIFY and e.target is Target.DISASTERS
            if lends and card_matches(d.card, e.cards) and conditions_hold(game, e, -1):
                _credit(game, c.card)
                add_dmg, add_dfn = _lent(e.mods, d)
                dmg += add_dmg
                dfn += add_dfn
    return dmg, dfn


def party_lenders(game: Game, slot: int) -> list[tuple[AnyCard, Effect]]:
    """The MODIFY effects lent to everyone at ``slot`` (target ``here``) by the characters there
    and the cards they carry, in table order: gathered once per combat, not once per fighter."""
    return [
        (card, e)
        for other in game.at(slot)
        for card, e in _carried_standing(game, other)
        if e.do is Action.MODIFY and e.target is Target.HERE
    ]


def combat_mods(
    game: Game,
    c: Char,
    d: Dis,
    slot: int,
    lenders: list[tuple[AnyCard, Effect]] | None = None,
) -> list[Mods]:
    """Modifiers a character fights with against ``d`` beyond its current abilities: its own
    and its cards' ALWAYS effects against this kind of disaster, a pending next-combat
    modifier, party bonuses (``lenders``, from :func:`party_lenders`), auras of disasters,
    global effects and the location."""
    out: list[Mods] = []

    def use(card: AnyCard, e: Effect) -> None:
        out.append(e.mods)
        _credit(game, card)

    for card, e in _carried_standing(game, c):
        if e.do is not Action.MODIFY or e.target is not Target.SELF or not fits(e, c):
            continue
        if not e.against and not conditional(e):
            continue  # unconditional: already in its current abilities (abilities.refresh)
        if e.against and not card_matches(d.card, e.against):
            continue
        if conditions_hold(game, e, slot):
            use(card, e)
    # Party bonuses: a character, or a card one carries, lending to everyone at its location.
    for card, e in party_lenders(game, slot) if lenders is None else lenders:
        if not fits(e, c):
            continue
        if e.against and not card_matches(d.card, e.against):
            continue
        if conditions_hold(game, e, slot):
            use(card, e)
    for src, e in _auras(game):
        if isinstance(src, Copy) and e.target is not Target.HERE:
            continue  # a global effect's reach is already in current abilities (refresh)
        if e.do is Action.MODIFY and e.target in (Target.FIELD, Target.PLAY, Target.HERE):
            if e.target is Target.HERE and (
                not isinstance(src, Dis) or src.pos < 0 or game.slot_of(src) != slot
            ):
                continue
            if fits(e, c) and conditions_hold(game, e, slot):
                use(src.card, e)
    loc = game.locs[slot].card
    loc_fx = game.fx.get(loc.id)
    if loc_fx is not None:
        for _, e in loc_fx.get(Trigger.ALWAYS, ()):
            here = e.do is Action.MODIFY and e.target is Target.HERE and fits(e, c)
            if here and conditions_hold(game, e, slot):
                use(loc, e)
    if c.pending:
        out.extend(c.pending)
        c.pending = []
    return out


def can_act(game: Game, c: Char) -> bool:
    return c.disabled_until < game.turn


def can_move(game: Game, c: Char) -> bool:
    return c.disabled_until < game.turn and c.held_until < game.turn


# --- turn bookkeeping ----------------------------------------------------------------------


def start_turn(game: Game) -> None:
    """Expire what lasted through the last turn: off-field disasters, disasters' timed
    changes; heal direct damage; release captives whose time is up or whose captor is gone
    (they return to the haven); refresh who carries timed modifiers."""
    turn = game.turn
    if game.forms:
        restore_forms(game)  # a form lasting through the last turn ends (REPLACE)
    if game.lasting:
        keep = []
        for d, last in game.lasting:
            if last < turn:
                d.zone = "discard"
                game.discard.append(d)
                _say(game, d, "ends and is discarded")
            else:
                keep.append((d, last))
        game.lasting = keep
    if game.dis_timers:
        keep_t = []
        # Newest first, so stacked changes ending together restore the oldest values.
        for last, d, old in reversed(game.dis_timers):
            if last < turn and d.zone == "field":
                d.damage, d.defense, d.movement, d.charm = old
                d.health = d.health_max
            elif last >= turn:
                keep_t.append((last, d, old))
        game.dis_timers = keep_t[::-1]
    for c in game.chars:
        if c.wounded_turn >= 0 and c.wounded_turn < turn:
            c.wounded_turn = -1
            c.health = c.health_max
        if c.zone == "captured":
            gone = c.captor >= 0 and not any(d.uid == c.captor for d in game.disasters)
            if gone or c.return_turn <= turn:
                c.captor = -1
                _heal_on_release(c)
                enter_haven(game, c)
                _say(game, c, "is released to the haven")
        elif (c.timed or c.grants) and c.zone in ("field", "haven"):
            refresh(game, c)


def lasting_turns(d: Dis) -> int:
    """How long a non-combat disaster stays in play after taking effect: the longest
    ``turns`` of its effects that keep acting (standing rules or its own turn effects)."""
    if d.fx is None:
        return 0
    n = 0
    for trig in (Trigger.ALWAYS, Trigger.TURN):
        for _, e in d.fx.get(trig, ()):
            n = max(n, e.turns)
    return n


def affect(game: Game, d: Dis, slot: int) -> bool:
    """A non-combat disaster takes effect at ``slot`` (-1: drawn, off the field). It is then
    discarded, or stays off the field while a standing effect of it lasts. Returns whether
    it found anything to act on (a targeted card with no target fizzles: set0 rulebook,
    "Reload Phase")."""
    if guarded(game, d, slot):
        return True  # an item the party carries stopped it
    did = fire(game, d, Trigger.AFFECT, slot)
    if gone(d):
        return True
    turns = lasting_turns(d)
    if d.carrying:  # what it took stays where it leaves the field
        here = game.slot_of(d) if d.pos >= 0 else slot
        if here >= 0:
            game.locs[here].hidden_cards.extend(d.carrying)
        else:
            game.carried_off.extend(d.carrying)
        d.carrying = []
    if d in game.disasters:
        game.disasters.remove(d)
        d.pos = -1
    if turns > 0:
        d.zone = "lasting"
        game.lasting.append((d, game.turn + turns - 1))
        return True
    d.zone = "discard"
    game.discard.append(d)
    return did


# --- character-side additions: health, protection, requirement waivers, disaster rules -------
# (IMMUNE, STAY, WAIVE, RECYCLE, FIRST_STRIKE; the HURT trigger; items acting on AFFECT.)

_ADDED_EVENTS = frozenset({Action.RECYCLE, Action.FIRST_STRIKE})


def _added_event(game: Game, e: Effect, ctx: Context, sides: Sides | None) -> bool:
    """RECYCLE and FIRST_STRIKE as one-off events (their standing forms are read by combat)."""
    if e.do is Action.RECYCLE:
        if e.target is not Target.DISASTERS:
            return False  # on itself it is a standing rule (recycled)
        game.recycle_next += max(1, e.n)
        _say(game, ctx.source, f"sends the next {max(1, e.n)} defeated disasters back to the deck")
        return True
    # FIRST_STRIKE for this combat (an item given up: Sleepy Grass).
    if sides is None or sides.first:
        return False
    if e.pay and not _give_up(game, ctx, [c for c in game.at(ctx.slot)]):
        return False
    sides.first = True
    _say(game, ctx.source, "lets the party strike first this combat")
    return True


def _give_up(game: Game, ctx: Context, who: list[Char]) -> bool:
    """A carried card is given up to act on ``who`` (pay = ["self"]) when the player judges it
    worth it; a discarded item counts for the disasters (1998 guidelines 4.3)."""
    src = ctx.source
    if not isinstance(src, Copy) or not game.hooks.worth_using(game, src, who, ctx.fought):
        return False
    return _spend(game, ctx)


def _ward_effects(game: Game, c: Char) -> list[tuple[AnyCard, Effect]]:
    """The IMMUNE effects covering ``c``: its own and its cards' (self), those of cards its
    group carries (here), and a haven's for the one character it names (play, n of them: the
    earliest in play; n = 0: all)."""
    out = [
        (card, e)
        for card, e in _carried_standing(game, c)
        if e.do is Action.IMMUNE and e.target is Target.SELF and fits(e, c)
    ]
    if c.zone == "field":
        for other in game.at(c.slot):
            out.extend(
                (card, e)
                for card, e in _carried_standing(game, other)
                if e.do is Action.IMMUNE and e.target is Target.HERE and fits(e, c)
            )
    for h in havens_in_play(game):
        fx = game.fx.get(h.card.id)
        if fx is None:
            continue
        for _, e in fx.get(Trigger.ALWAYS, ()):
            if e.do is Action.IMMUNE and e.target is Target.PLAY and fits(e, c):
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
    if Action.IMMUNE not in game.acts:
        return False
    slot = c.slot if c.zone == "field" else -1
    for card, e in _ward_effects(game, c):
        if card_matches(d.card, e.against) and conditions_hold(game, e, slot):
            _credit(game, card)
            if game.trace is not None:
                game.say("effect", f"{card.name} keeps {d.name} away from {c.name}")
            return True
    return False


# --- combat cards: the text of a card drawn in a combat round or a charm battle ----------


class _Foe:
    """A disaster as the skill-listing grammar sees it: its categories and current abilities;
    it has no skills or gender, so a filter naming those never matches it."""

    __slots__ = ("categories", "d", "gender", "name", "skill_counts")

    def __init__(self, d: Dis) -> None:
        self.d = d
        self.name = d.name
        self.gender = ""
        self.skill_counts: dict[str, int] = {}
        self.categories = frozenset(d.card.categories)

    def current(self, ability: str) -> int:
        d = self.d
        return {"damage": d.damage, "defense": d.defense, "movement": d.movement}.get(
            ability, d.charm if ability == "charm" else 0
        )

    def has_category(self, category: str) -> bool:
        return category in self.categories

    def carries(self, card_name: str) -> bool:
        return False  # a disaster's carried cards name no skill listing's term


def _meets(e: Effect, who: Char | Dis) -> bool:
    """``filter`` and ``exclude`` on a combat card's recipient or its opponent."""
    if isinstance(who, Char):
        return fits(e, who)
    foe = _Foe(who)
    if e.filter is not None and not requirement_met(e.filter, [foe]):
        return False
    return e.exclude is None or not requirement_met(e.exclude, [foe])


def combat_card(
    game: Game,
    card: AnyCard,
    who: Char | Dis,
    other: Char | Dis,
    slot: int,
    charm: bool,
    sides: Sides | None,
) -> tuple[list[Mods], list[Mods]]:
    """A combat card played on ``who`` against ``other`` (PLAYED): the modifiers for the
    recipient's side and for its opponent's this round. Charm modifiers belong to the card's
    charm half (a charm battle, ``charm``), everything else to its physical half (a combat
    round). ``if``/``unless`` test the party at the location, so they only reach a character;
    ``against`` names the disaster a character fights. A ``combat`` scope also lasts the rest
    of the combat (``sides``)."""
    mine: list[Mods] = []
    theirs: list[Mods] = []
    fx = game.fx.get(card.id)
    if fx is None:
        return mine, theirs
    acted = False
    for _, e in fx.get(Trigger.PLAYED, ()):
        char_side = isinstance(who, Char)
        if (e.when_met is not None or e.unless_met is not None or e.against) and not char_side:
            continue
        if e.against and not (isinstance(other, Dis) and card_matches(other.card, e.against)):
            continue
        if not conditions_hold(game, e, slot):
            continue
        on = who if e.target is Target.SELF else other
        if not _meets(e, on):
            continue
        if e.do is Action.HEAL:
            if charm:
                continue
            on.health = on.health_max
            acted = True
            continue
        mods = tuple((a, m) for a, m in e.mods if (a == "charm") is charm)
        if not mods:
            continue
        (mine if on is who else theirs).append(mods)
        if e.scope is Scope.COMBAT and sides is not None:
            if isinstance(on, Char):
                sides.char_mod(on.uid, mods, True)
            else:
                sides.dis_mod(mods, True)
        acted = True
    if acted:
        _credit(game, card)
    return mine, theirs


def apply_charm(mods: list[Mods], charm: int) -> int:
    for group in mods:
        for ability, mod in group:
            if ability == "charm":
                charm = mod.apply(charm)
    return charm


# --- the player's piles, captives, blocks, disasters' places and card uses ---------------
# Power cards that reach the discard pile or the draw pile, free captives, open blocked
# locations, push disasters, restore uses and spare lives. A "search" of the draw pile
# shuffles it afterwards (the cards' texts say so: Hidden Weapon, Guru, Equipment Retrieval).


def _pile_worth(x: Copy | Char | Dis) -> tuple[int, int]:
    """Which card a player takes first: characters, then power cards with the largest additive
    bonuses, then anything else."""
    if isinstance(x, Char):
        return (0, -(x.base[0] + x.base[1]))
    card = x.card
    if isinstance(card, PowerCard):
        return (1, -sum(m.value for _, m in card.modifiers if m.op == "+"))
    return (2, 0)


def _to_pile(game: Game, x: Copy | Char, to: str, holder: Char | None) -> str:
    """Put a card taken from a pile where the effect says; returns where it went."""
    if isinstance(x, Char):
        if to in ("play", "haven"):
            x.health = x.health_max
            enter_haven(game, x)
            return "the haven"
        x.zone = "hand" if to == "hand" else "draw"
    card = x.card
    if to == "holder" and holder is not None and isinstance(x, Copy):
        if isinstance(card, PowerCard) and usable(holder, card):
            if card.type is CardType.EQUIPMENT:
                holder.equipment.append(x)
                refresh(game, holder)
                return holder.name
            if card.type is CardType.ENHANCEMENT:
                holder.enhancements.append(x)
                refresh(game, holder)
                return holder.name
        to = "hand"
    if to == "haven" and isinstance(x, Copy) and card.type in (CardType.EQUIPMENT, CardType.ITEM):
        game.haven_cards.append(x)
        return "the haven"
    if to == "draw":
        game.draw_pile.append(x)
        game.chance.shuffle(game.draw_pile)
        return "the draw pile"
    game.hand.append(x)
    return "the hand"


def _recover(game: Game, e: Effect, ctx: Context) -> bool:
    pool = [x for x in game.discard if _pile_matches(x, e.cards)]
    if e.to == "play":
        pool = [x for x in pool if isinstance(x, Char)]
    if not pool:
        return False
    pool.sort(key=_pile_worth)
    for x in pool[: e.n if e.n > 0 else None]:
        assert not isinstance(x, Dis)
        game.discard.remove(x)
        where = _to_pile(game, x, e.to, ctx.holder)
        _say(game, ctx.source, f"brings {_name(x)} back from the discard pile to {where}")
    return True


def _fetch(game: Game, e: Effect, ctx: Context) -> bool:
    pool = [x for x in game.draw_pile if _pile_matches(x, e.cards)]
    holder = ctx.holder
    if e.to == "holder" and holder is None and ctx.slot >= 0:
        # From a location (Capsule Corporation): played on a character there who can use it;
        # with no one there able to, nothing is taken.
        users = [
            (x, c)
            for x in sorted(pool, key=_pile_worth)
            for c in game.at(ctx.slot)
            if isinstance(x.card, PowerCard) and usable(c, x.card)
        ]
        if not users:
            return False
        pool, holder = [users[0][0]], users[0][1]
    if e.to == "holder" and holder is not None:
        # One the holder can use comes first.
        pool = [x for x in pool if isinstance(x.card, PowerCard) and usable(holder, x.card)] or pool
    if not pool:
        return False
    pool.sort(key=_pile_worth)
    for x in pool[: max(1, e.n)]:
        assert not isinstance(x, Dis)
        game.draw_pile.remove(x)
        where = _to_pile(game, x, e.to, holder)
        _say(game, ctx.source, f"takes {_name(x)} from the draw pile to {where}")
    game.chance.shuffle(game.draw_pile)
    return True


def _draw(game: Game, e: Effect, ctx: Context) -> bool:
    drawn = 0
    for _ in range(max(1, e.n)):
        if not game.draw_pile:
            break
        x = game.draw_pile.pop()
        drawn += 1
        if isinstance(x, Dis):
            x.zone = "discard"
            game.discard.append(x)
            _say(game, ctx.source, f"draws {x.name} and discards it")
            continue
        if isinstance(x, Char):
            x.zone = "hand"
        game.hand.append(x)
        _say(game, ctx.source, f"draws {_name(x)}")
    return drawn > 0


def _free(game: Game, e: Effect, ctx: Context) -> bool:
    captives = [c for c in game.chars if c.zone == "captured" and fits(e, c)]
    for c in captives[: e.n if e.n > 0 else None]:
        c.captor = -1
        c.return_turn = 0
        _heal_on_release(c)
        enter_haven(game, c)
        _say(game, ctx.source, f"frees {c.name} to the haven")
    return bool(captives)


def _unblock(game: Game, e: Effect, ctx: Context) -> bool:
    if e.target is Target.LOCATION:
        slots = [ctx.slot] if ctx.slot >= 0 and blocked(game, ctx.slot) else []
    else:
        start = _from_slot(game, ctx)
        slots = sorted(
            (s for s in list(game.blocked) if blocked(game, s)),
            key=lambda s: (game.dist[start][s], s),
        )
    for s in slots[: e.n if e.n > 0 else None]:
        _, uid = game.blocked.pop(s)
        _say(game, ctx.source, f"opens {game.locs[s].card.name}")
        for d in [*game.disasters, *(d for d, _ in game.lasting)]:
            if d.uid == uid:  # the blocking card is discarded (Forceful Passage)
                leave_play(game, d)
                _say(game, d, "leaves play")
                break
    return bool(slots)


def _push(game: Game, e: Effect, ctx: Context) -> bool:
    """Each target moves ``n`` locations along the disaster path, in the direction that takes
    it farther from the holder's location (forward on a tie); it does not attack where it
    ends (it did not move by itself)."""
    targets = [d for d in disasters(game, e, ctx) if d.zone == "field" and d.combat]
    if not targets:
        return False
    path = game.field.path
    start = _from_slot(game, ctx)
    dist = game.dist[start]
    for d in targets:
        ahead = min(d.pos + e.n, len(path) - 1)
        back = max(d.pos - e.n, 0)
        d.pos = ahead if dist[path[ahead]] >= dist[path[back]] else back
        _say(game, ctx.source, f"pushes {d.name} to {game.locs[path[d.pos]].card.name}")
    return True


def _reload(game: Game, e: Effect, ctx: Context) -> bool:
    spent = [
        x
        for c in _holders(game, e, ctx)
        for _, _, x in _carried(c, e.cards or ("weapon",))
        if x.uses_left is not None
        and isinstance(x.card, PowerCard)
        and x.card.uses is not None
        and x.uses_left < x.card.uses
    ]
    spent.sort(key=lambda x: (x.uses_left or 0, x.uid))
    for x in spent[: e.n if e.n > 0 else None]:
        x.uses_left = x.card.uses if isinstance(x.card, PowerCard) else None
        _say(game, ctx.source, f"reloads {x.card.name}")
    return bool(spent)


def _reorder(game: Game, e: Effect, ctx: Context) -> bool:
    """The player looks at the top ``n`` cards of the draw pile and puts them back in the order
    it likes (Briefing): disasters deepest, so the Reload phase, which stops at a disaster
    drawn (set0 rulebook, "Reload Phase"), draws the other cards first; those keep their order.
    The pile's top is the end of the list."""
    pile = game.draw_pile
    n = min(max(1, e.n), len(pile))
    if n == 0:
        return False
    top = pile[-n:]
    order = [x for x in top if isinstance(x, Dis)] + [x for x in top if not isinstance(x, Dis)]
    pile[-n:] = order
    _say(game, ctx.source, f"puts the top {n} cards of the draw pile back, disasters last")
    return True


def _share(game: Game, e: Effect, ctx: Context) -> bool:
    """One printed skill passes for ``turns`` turns: to the holder from a character in play
    meeting ``filter`` (``self``: Data Stream, the skills of Computer characters), or from the
    holder to another character on the field (``field``: Mind Scanner). The player passes the
    skill that lets the receiver's party meet the requirement of most locations it still may
    scavenge (face-down cards under them); when none does, nothing passes."""
    holder = ctx.holder
    if holder is None or holder.zone not in ("field", "haven"):
        return False
    in_play = [c for c in game.chars if c.zone in ("field", "haven") and c is not holder]
    if e.target is Target.SELF:
        pairs = [(holder, c) for c in in_play if fits(e, c)]
    else:
        pairs = [(c, holder) for c in in_play if c.zone == "field" and fits(e, c)]
    open_reqs = [
        loc.card.requirement
        for loc in game.locs
        if not loc.destroyed and (loc.hidden_cards or loc.hidden_disasters)
    ]
    best: tuple[int, int, str, Char] | None = None
    for taker, giver in pairs:
        party = game.at(taker.slot) if taker.zone == "field" else game.in_haven()
        totals = skill_totals(party)
        before = [requirement_met(r, party, totals) for r in open_reqs]
        for skill, count in giver.base_skills.items():
            if count <= 0:
                continue
            more = dict(totals)
            more[skill] = more.get(skill, 0) + 1
            gain = sum(
                1
                for r, ok in zip(open_reqs, before, strict=True)
                if not ok and requirement_met(r, party, more)
            )
            key = (gain, -taker.uid, skill, taker)
            if gain > 0 and (best is None or key[:3] > best[:3]):
                best = key
    if best is None:
        return False
    _, _, skill, taker = best
    taker.grants.append((skill, _until(game, e)))
    refresh(game, taker)
    _say(game, ctx.source, f"passes {skill} to {taker.name}")
    return True


def spares_a_kill(game: Game, c: Char, by: Dis | None = None) -> bool:
    """A kill of ``c`` (by ``by``, when a disaster) becomes a bonk (SURVIVE): a standing effect
    of a card it carries or of a global effect in play, else a flash effect in the hand that
    says so, played now (a player holding it plays it at the only moment it helps). An
    ``against`` limits it to kills by those disasters."""
    for pile in (c.enhancements, c.equipment, c.items):
        for x in pile:
            fx = game.fx.get(x.card.id)
            if fx is None:
                continue
            for _, e in fx.get(Trigger.ALWAYS, ()):
                if e.against and (by is None or not card_matches(by.card, e.against)):
                    continue
                if e.do is Action.SURVIVE and e.target is Target.SELF and fits(e, c):
                    _credit(game, x.card)
                    if "self" in e.pay:  # it gives itself up to save the character
                        _destroy_card(game, Context(x, c.slot, c), c, pile, x)
                    return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.card.id)
        if fx is not None and any(
            e.do is Action.SURVIVE and e.target in (Target.FIELD, Target.PLAY) and fits(e, c)
            for _, e in fx.get(Trigger.ALWAYS, ())
        ):
            _credit(game, g.card)
            return True
    for h in game.hand:
        if not isinstance(h, Copy) or h.card.type is not CardType.FLASH_EFFECT:
            continue
        fx = game.fx.get(h.card.id)
        if fx is not None and any(
            e.do is Action.SURVIVE and fits(e, c) for _, e in fx.get(Trigger.PLAYED, ())
        ):
            game.hand.remove(h)
            game.discard.append(h)
            _credit(game, h.card)
            _say(game, h, f"is played: {c.name} is bonked, not killed")
            return True
    return False


def recycled(game: Game, d: Dis) -> bool:
    """A defeated disaster goes back into the draw pile (RECYCLE: its own rule, or the next
    ones after Willpower)."""
    if Action.RECYCLE not in game.acts:
        return False
    if game.recycle_next > 0:
        game.recycle_next -= 1
        return True
    return has_rule(game, d, Action.RECYCLE)


def strikes_first(game: Game, d: Dis, sides: Sides | None) -> bool:
    """The characters' damage lands before the disaster's this round (FIRST_STRIKE: Power
    Suit's own rule, or an item given up for the combat)."""
    if Action.FIRST_STRIKE not in game.acts:
        return False
    return (sides is not None and sides.first) or has_rule(game, d, Action.FIRST_STRIKE)


def hurt(game: Game, who: list[Char], slot: int, d: Dis, sides: Sides | None) -> None:
    """HURT: characters lost health this round, before health is checked. Each hurt
    character's own effects fire, then those of the cards carried by anyone at the location
    (a groupmate may give up Senzu Beans)."""
    for c in who:
        if c.fx is not None and c.zone == "field":
            fire(game, c, Trigger.HURT, slot, opponents=[c], fought=d, sides=sides)
    for c in game.at(slot):
        for x in (*c.items, *c.equipment, *c.enhancements):
            fx = game.fx.get(x.card.id)
            if fx is not None and Trigger.HURT in fx and c.zone == "field":
                fire(game, x, Trigger.HURT, slot, holder=c, opponents=who, fought=d, sides=sides)


def guarded(game: Game, d: Dis, slot: int) -> bool:
    """Before a non-combat disaster acts, the characters it reaches and the items they carry
    may stop it (AFFECT on a character or an item: Lt. Randolph defeats a Legal disaster,
    5 Yen Coin Shopping Spree). True when it left play."""
    for c in _party(game, slot):
        if c.fx is not None and Trigger.AFFECT in c.fx:
            fire(game, c, Trigger.AFFECT, slot, fought=d)
            if gone(d):
                return True
        for x in list(c.items):
            fx = game.fx.get(x.card.id)
            if fx is not None and Trigger.AFFECT in fx:
                fire(game, x, Trigger.AFFECT, slot, holder=c, fought=d)
                if gone(d):
                    return True
    return False


def havens_in_play(game: Game) -> list[Copy]:
    """The player's havens, and the locations turned havens (BECOME_HAVEN)."""
    return game.havens + game.turned_havens if game.turned_havens else game.havens


def _become_haven(game: Game, ctx: Context) -> bool:
    """The location joins the player's havens for good (1998 guidelines 10); its standing
    effects for every character apply from now on."""
    if ctx.slot < 0:
        return False
    loc = game.locs[ctx.slot]
    if loc.destroyed or loc.copy in game.turned_havens:
        return False
    game.turned_havens.append(loc.copy)
    for c in game.chars:
        if c.zone in ("field", "haven"):
            refresh(game, c)
    _say(game, ctx.source, "becomes a haven")
    return True


def _haven_rules(game: Game, do: Action) -> list[tuple[AnyCard, Effect]]:
    """The standing effects of this kind of the havens in play."""
    out: list[tuple[AnyCard, Effect]] = []
    for h in havens_in_play(game):
        fx = game.fx.get(h.card.id)
        if fx is not None:
            out.extend((h.card, e) for _, e in fx.get(Trigger.ALWAYS, ()) if e.do is do)
    return out


def kept_in_deck(game: Game, x: Copy) -> bool:
    """A destroyed card of the player goes back into the draw pile rather than the discard
    pile (RECYCLE of cards in play from a haven: Raven's Garage and equipment)."""
    for card, e in _haven_rules(game, Action.RECYCLE):
        if e.target is Target.CARDS_IN_PLAY and card_matches(x.card, e.cards):
            _credit(game, card)
            return True
    return False


def revived(game: Game, c: Char) -> bool:
    """A bonked character returns to the haven at once (REVIVE: West Side City Hospital)."""
    if Action.REVIVE not in game.acts:
        return False
    for card, e in _haven_rules(game, Action.REVIVE):
        if fits(e, c):
            _credit(game, card)
            return True
    return False


def waived_for(game: Game, c: Char, card: PowerCard) -> bool:
    """The character uses this card only by its own WAIVE (Specs and a Science card): count
    that as a use of the character's effect."""
    if Action.WAIVE not in game.acts or c.fx is None or card.requirement is None:
        return False
    if requirement_met(card.requirement, [c]):
        return False
    _credit(game, c.card)
    return True


def extra_equipment(game: Game) -> int:
    """Equipment cards the player may play beyond one each Equip phase (EXTRA_EQUIP of
    characters in play: Bulma)."""
    if Action.EXTRA_EQUIP not in game.acts:
        return 0
    n = 0
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for _, e in c.fx.get(Trigger.ALWAYS, ()):
            if e.do is Action.EXTRA_EQUIP:
                n += e.n
                _credit(game, c.card)
    return n


def preserved(game: Game, x: Copy) -> bool:
    """A character in play keeps this card from being destroyed (PRESERVE, at most
    ``max_times`` a game: Al and a vehicle)."""
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for i, e in c.fx.get(Trigger.ALWAYS, ()):
            if e.do is not Action.PRESERVE or not card_matches(x.card, e.cards):
                continue
            key = (c.uid, -1 - i)
            if e.max_times and game.fired.get(key, 0) >= e.max_times:
                continue
            game.fired[key] = game.fired.get(key, 0) + 1
            _credit(game, c.card)
            _say(game, c, f"keeps {x.card.name} from being destroyed")
            return True
    return False


def endures(game: Game, c: Char) -> bool:
    """No blow knocks this character out (ENDURE: Dr. Tofu's group). A read of the standing
    effects of the character and of its groupmates (``here``) whose conditions hold."""
    if Action.ENDURE not in game.acts or c.zone != "field":
        return False
    for other in game.at(c.slot):
        if other.fx is None:
            continue
        for _, e in other.fx.get(Trigger.ALWAYS, ()):
            if e.do is not Action.ENDURE or not fits(e, c):
                continue
            if e.target is Target.SELF and other is not c:
                continue
            if conditions_hold(game, e, c.slot):
                _credit(game, other.card)
                _say(game, other, f"keeps {c.name} standing")
                return True
    return False


def _own_rule(c: Char, do: Action) -> Effect | None:
    if c.fx is None:
        return None
    for _, e in c.fx.get(Trigger.ALWAYS, ()):
        if e.do is do:
            return e
    return None


def defends(game: Game, c: Char, target: Char) -> bool:
    """Does ``c`` fight to defend ``target`` from a disaster's attack? Not when its card makes
    it defend only characters meeting a filter (DEFENDS_ONLY: Piccolo and Gohan)."""
    if Action.DEFENDS_ONLY not in game.acts or c is target:
        return True
    e = _own_rule(c, Action.DEFENDS_ONLY)
    if e is None or fits(e, target):
        return True
    _credit(game, c.card)
    return False


def runs_alone(game: Game, c: Char, credit: bool = False) -> bool:
    """The character may run away on its own while its group fights on (RUN_ALONE)."""
    if Action.RUN_ALONE not in game.acts or _own_rule(c, Action.RUN_ALONE) is None:
        return False
    if credit:
        _credit(game, c.card)
    return True


def strikes(game: Game, d: Dis) -> int:
    """How many of the characters fighting it the disaster strikes each round (STRIKES:
    Saibamen, two); 1 without the rule."""
    if Action.STRIKES not in game.acts or d.fx is None:
        return 1
    rules = standing(d.fx, Action.STRIKES)
    return max((e.n for e in rules), default=1)


def _retrieve(game: Game, e: Effect, ctx: Context) -> bool:
    """Each disaster carrying a card (matching ``cards``) at a location with characters gives
    it up to the character standing there that carries the least."""
    took = 0
    for d in game.disasters:
        if took >= max(1, e.n) or not d.carrying or d.pos < 0:
            continue
        party = game.at(game.slot_of(d))
        wanted = [x for x in d.carrying if card_matches(x.card, e.cards or ("item", "equipment"))]
        if not (party or e.to == "location") or not wanted:
            continue
        x = wanted[0]
        d.carrying.remove(x)
        if d.stolen is x:
            d.stolen = None
        if e.to == "location":  # Fake Item: back under the location, out of its reach
            game.locs[game.slot_of(d)].hidden_cards.append(x)
            took += 1
            _say(game, ctx.source, f"puts {x.card.name} from {d.name} back under its location")
            continue
        c = min(party, key=lambda m: (len(m.items) + len(m.equipment), m.uid))
        if isinstance(x.card, ItemCard):
            c.items.append(x)
        else:
            c.equipment.append(x)
        refresh(game, c)
        took += 1
        _say(game, ctx.source, f"has {c.name} take {x.card.name} back from {d.name}")
    return took > 0


def edge(game: Game) -> int:
    """How many items the disasters may lead by and the player still win (EDGE of a global
    effect in play); -1 when no card gives the player an edge. Ties are won from 0 up."""
    best = -1
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.card.id)
        if fx is None:
            continue
        for _, e in fx.get(Trigger.ALWAYS, ()):
            if e.do is Action.EDGE:
                best = max(best, e.n)
    return best


def credit_edge(game: Game) -> None:
    """Count that an EDGE decided the game."""
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.card.id)
        if fx is not None and any(e.do is Action.EDGE for _, e in fx.get(Trigger.ALWAYS, ())):
            _credit(game, g.card)


def _swap(game: Game, e: Effect, ctx: Context) -> bool:
    """The combat disaster nearest the card changes places with the combat disaster farthest
    from it (Out of the Frying Pan)."""
    near = [d for d in disasters(game, e, ctx) if d.zone == "field" and d.combat]
    if not near:
        return False
    d = near[0]
    dist = game.dist[_from_slot(game, ctx)]
    others = [o for o in game.disasters if o is not d and o.combat and o.zone == "field"]
    if not others:
        return False
    far = max(others, key=lambda o: (dist[game.slot_of(o)], -o.entered))
    d.pos, far.pos = far.pos, d.pos
    _say(game, ctx.source, f"swaps {d.name} and {far.name}")
    return True


def _reverse(game: Game, e: Effect, ctx: Context) -> bool:
    """REVERSE: the disaster reached, if it moves, goes the other way along the disaster path
    from its next movement on, for good (Change Direction); completing its cycle at the entry
    end, a minor one is discarded and a major one starts again from the far end
    (movement.move_disaster)."""
    moving = [d for d in disasters(game, e, ctx) if d.movement > 0 and not d.stationary]
    for d in moving:
        d.backward = not d.backward
        _say(game, ctx.source, f"turns {d.name} round")
    return bool(moving)


def retreat_attack(game: Game, damage: int) -> int:
    """The health a party running away loses to the final attack, after a flash effect in the
    hand that changes it (a ``retreat`` scope on the opponent): the player plays it then, its
    only use."""
    for h in game.hand:
        if not isinstance(h, Copy) or h.card.type is not CardType.FLASH_EFFECT:
            continue
        fx = game.fx.get(h.card.id)
        if fx is None:
            continue
        mods = [
            e.mods
            for _, e in fx.get(Trigger.PLAYED, ())
            if e.do is Action.MODIFY and e.scope is Scope.RETREAT
        ]
        if mods:
            game.hand.remove(h)
            game.discard.append(h)
            _credit(game, h.card)
            damage, _ = apply_mods(mods, damage, 0)
            _say(game, h, f"is played: the final attack takes {damage}")
            return damage
    return damage


# --- vehicles and forms (field2 additions) ---------------------------------------------------


def vehicle_first(game: Game, pool: list[Char]) -> list[Char]:
    """Whom a disaster may strike of ``pool`` when one of them is a combat vehicle: "An attacker
    must attack the combat vehicle first before being able to attack the character aboard it"
    (set0 rulebook, "Vehicles"). GUARD: a character that carries up to ``n`` of its group while
    it meets ``filter`` (Ryo-Ohki in ship form); those beyond ``n`` may still be struck."""
    if Action.GUARD not in game.acts:
        return pool
    for c in pool:
        e = _own_rule(c, Action.GUARD)
        if e is None or not fits(e, c):
            continue
        aboard = [o for o in pool if o is not c][: e.n]
        if not aboard:
            return pool
        _credit(game, c.card)
        _say(game, c, f"carries {', '.join(o.name for o in aboard)} out of the disaster's reach")
        return [o for o in pool if o not in aboard]
    return pool


def _swap_form(game: Game, c: Char, other: Char) -> None:
    """Exchange what the two cards print (abilities, skills, categories, health, effects); who
    the character is in play (its name, place, carried cards, what others did to it) stays."""
    c.card, other.card = other.card, c.card
    c.base, other.base = other.base, c.base
    c.base_skills, other.base_skills = other.base_skills, c.base_skills
    c.categories, other.categories = other.categories, c.categories
    c.gender, other.gender = other.gender, c.gender
    c.health_base, other.health_base = other.health_base, c.health_base
    c.fx, other.fx = other.fx, c.fx
    for x in (c, other):
        x.skill_counts = x.base_skills
        x.health_max = x.health_base
        x.health = x.health_max
        refresh(game, x)


def waits_to_replace(c: Char) -> bool:
    """A form card that only ever enters by replacing a character (REPLACE): the player keeps
    it in the hand instead of bringing it into play."""
    return _own_rule(c, Action.REPLACE) is not None


def change_forms(game: Game) -> None:
    """Maintenance: a form card waiting in the hand replaces the character it names for
    ``turns`` turns, once its conditions hold and at most once every ``every`` turns (REPLACE:
    "If Goku is bonked but not killed 3 times, he can be replaced by this card every 3rd turn
    for a turn at a time"). The player always takes the stronger form."""
    if Action.REPLACE not in game.acts:
        return
    busy = {b.uid for b, _, _ in game.forms}
    for form in [x for x in game.hand if isinstance(x, Char)]:
        e = _own_rule(form, Action.REPLACE)
        key = (form.uid, -2)  # the turn it last replaced someone
        if e is None or (key in game.fired and game.turn < game.fired[key] + e.every):
            continue
        for b in game.chars:
            if b.zone not in ("field", "haven") or b.uid in busy or not fits(e, b):
                continue
            if e.when_met is not None and not requirement_met(e.when_met, [b]):
                continue
            if e.n and game.record.counters.get((b.card.id, CardStat.WAS_BONKED), 0) < e.n:
                continue
            game.fired[key] = game.turn
            game.hand.remove(form)
            form.zone = "aside"
            _swap_form(game, b, form)
            game.forms.append((b, form, _until(game, e)))
            busy.add(b.uid)
            _credit(game, b.card)
            _say(game, b, f"is replaced by {b.card.name} for {max(1, e.turns)} turn(s)")
            break


def restore_forms(game: Game) -> None:
    """The form's time is up: the character takes its own card back, and the form card returns
    to the hand (wherever the character is now: in play, bonked or discarded)."""
    keep = []
    for b, form, last in game.forms:
        if last >= game.turn:
            keep.append((b, form, last))
            continue
        _swap_form(game, b, form)
        form.zone = "hand"
        game.hand.append(form)
        _say(game, b, f"changes back from {form.card.name}")
    game.forms = keep


def stopped_at(game: Game, slot: int, party: Sequence[Char] = ()) -> None:
    """A party ended its move on this location: fire the location's STOPS effects (Crystal
    Tunnels holds a party that cannot attempt it), then those of the cards carried there."""
    loc = game.locs[slot]
    fx = game.fx.get(loc.card.id)
    if fx is not None and Trigger.STOPS in fx:
        fire(game, loc.copy, Trigger.STOPS, slot)
    # The cards the party carries act there too (Dream Mirror looks at what lies beneath).
    for c in party:
        for x in (*c.items, *c.equipment, *c.enhancements):
            cfx = game.fx.get(x.card.id)
            if cfx is not None and Trigger.STOPS in cfx:
                fire(game, x, Trigger.STOPS, slot, holder=c)


# --- carrying limits of vehicles (CARRY) ------------------------------------------------


# --- flash effects kept aside (STORE) ---------------------------------------------------


def stored(game: Game) -> int:
    """Flash effects in the hand that a global effect in play keeps aside (STORE: Refuge):
    they do not count toward the hand limit when the Reload phase draws."""
    room, src = 0, None
    for g, _ in game.globals_in_play:
        for e in standing(game.fx.get(g.card.id), Action.STORE):
            room, src = room + e.n, g
    if src is None:
        return 0
    flash = sum(
        1 for x in game.hand if isinstance(x, Copy) and x.card.type is CardType.FLASH_EFFECT
    )
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
        fx = game.fx.get(g.card.id)
        if fx is None:
            continue
        for i, e in fx.get(Trigger.ALWAYS, ()):
            key = (g.uid, -1 - i)
            if e.do is not Action.HIDE or (e.max_times and game.fired.get(key, 0) >= e.max_times):
                continue
            slot = max(
                sorted(groups),
                key=lambda s: (sum(len(c.items) for c in game.at(s)), len(game.at(s))),
            )
            game.fired[key] = game.fired.get(key, 0) + 1
            _credit(game, g.card)
            _say(game, g, f"hides the group at {game.locs[slot].card.name} from the disasters")
            return slot
    return -1


# --- a non-flying vehicle's extra movement (BOOST) -----------------------------------------


# --- element boosters (AMPLIFY) --------------------------------------------------------------


def amplified(game: Game, card: PowerCard) -> int:
    """How much more each additive modifier of ``card`` gives, from the characters in play
    (on the field or in the haven) whose card strengthens power cards like it (AMPLIFY:
    Shayla-Shayla, +1 to every Fire effect); each one that does counts as a use of its card."""
    if Action.AMPLIFY not in game.acts:
        return 0
    more = 0
    for c in game.chars:
        if c.zone not in ("field", "haven") or c.fx is None:
            continue
        for e in standing(c.fx, Action.AMPLIFY):
            if card_matches(card, e.cards):
                more += e.n
                _credit(game, c.card)
                _say(game, c, f"strengthens {card.name} by {e.n}")
    return more


# --- a party jumping over a location (LEAP) ---------------------------------------------------


def leaps(game: Game, party: Sequence[Char]) -> int:
    """The party's move needs the location a member's card lets it jump over (LEAP: Jump):
    one use of that card (``max_times``), which is discarded when its uses are spent ("use
    twice, then discard"). Returns the extra movement; 0 when no card lends it."""
    room = leap_room(game, party)
    if room is None:
        return 0
    n, c, x, key, limit = room
    game.fired[key] = game.fired.get(key, 0) + 1
    _credit(game, x.card)
    _say(game, x, f"lets {c.name}'s party move {n} further")
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
            fx = game.fx.get(x.card.id)
            for i, e in fx.get(Trigger.ALWAYS, ()) if fx is not None else ():
                if e.do is not Action.WEAR:
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


# --- information and the cards under locations (REVEAL, CLEAR, UNEARTH, BURY, SUPPLY, REMATCH) ---


def _names_skill(loc: LocationCard, skill: str) -> bool:
    low = skill.casefold()
    return any(low in str(t).casefold() for alt in loc.requirement.alternatives for t in alt)


def _unknown_under(game: Game, slot: int, words: Sequence[str]) -> list[Copy | Dis]:
    """The face-down cards under a location, disasters above items, matching ``words``, that
    the player has not seen yet."""
    loc = game.locs[slot]
    under: list[Copy | Dis] = [*loc.hidden_disasters, *loc.hidden_cards]
    return [x for x in under if x.uid not in game.known and card_matches(x.card, words)]


def _reveal_slots(game: Game, e: Effect, ctx: Context) -> list[int]:
    """Where a REVEAL looks: its own location; every location whose requirement names
    ``skill`` (Jacking In); else the one the player picks within ``n`` locations (0: any) of
    the holder (or the card), the nearest with something unseen, the lowest slot on a tie."""
    if e.target is Target.LOCATION:
        return [ctx.slot] if ctx.slot >= 0 else []
    live = [loc.slot for loc in game.locs if not loc.destroyed]
    if e.skill:
        return [s for s in live if _names_skill(game.locs[s].card, e.skill)]
    holder = ctx.holder
    start = ctx.slot
    if holder is not None:
        start = holder.slot if holder.zone == "field" else game.field.haven_slot
    elif start < 0:
        start = game.field.haven_slot
    near = game.dist[start]
    options = [
        s for s in live if (e.n <= 0 or 0 < near[s] <= e.n) and _unknown_under(game, s, e.cards)
    ]
    return [min(options, key=lambda s: (near[s], s))] if options else []


def _reveal(game: Game, e: Effect, ctx: Context) -> bool:
    """Face-down cards become known to the player (Security Camera, Surveillance, Survey): the
    top ``n`` of the draw pile, or the cards under locations (``n`` from the top of its own);
    True when it showed something not seen before."""
    seen: list[Copy | Char | Dis] = []
    if e.target is Target.DRAW_PILE:
        pile = game.draw_pile
        seen = [x for x in pile[len(pile) - max(1, e.n) :] if x.uid not in game.known]
    else:
        for slot in _reveal_slots(game, e, ctx):
            loc = game.locs[slot]
            under: list[Copy | Dis] = [*loc.hidden_disasters, *loc.hidden_cards]
            under = [x for x in under if card_matches(x.card, e.cards)]
            if e.target is Target.LOCATION and e.n > 0:
                under = under[: e.n]
            seen += [x for x in under if x.uid not in game.known]
    for x in seen:
        game.known.add(x.uid)
    if seen:
        _say(game, ctx.source, f"looks at {', '.join(_name(x) for x in seen)}")
    return bool(seen)


_UNDER_ACTIONS = frozenset(
    {Action.CLEAR, Action.UNEARTH, Action.BURY, Action.SUPPLY, Action.REMATCH}
)


def _under_action(game: Game, e: Effect, ctx: Context) -> bool:
    if e.do is Action.CLEAR:
        return _clear(game, e, ctx)
    if e.do is Action.UNEARTH:
        return _unearth(game, e, ctx)
    if e.do is Action.BURY:
        return _bury(game, e, ctx)
    if e.do is Action.REMATCH:
        return _rematch(game, e, ctx)
    return _supply(game, e, ctx)


def _nearest_slot(game: Game, ctx: Context, slots: list[int]) -> int:
    """The location the player picks: the nearest to the holder (or the card, else the
    haven), the lowest slot on a tie."""
    holder = ctx.holder
    start = ctx.slot
    if holder is not None:
        start = holder.slot if holder.zone == "field" else game.field.haven_slot
    elif start < 0:
        start = game.field.haven_slot
    near = game.dist[start]
    return min(slots, key=lambda s: (near[s], s))


def _clear(game: Game, e: Effect, ctx: Context) -> bool:
    """Random face-down disasters under the card's location are discarded, unrevealed (Julian's
    Gravesite); a character named in ``pay`` standing there is discarded to do it, which the
    player does whenever a disaster lies beneath."""
    if ctx.slot < 0:
        return False
    loc = game.locs[ctx.slot]
    if not loc.hidden_disasters:
        return False
    if e.pay:
        wanted = {p.casefold() for p in e.pay}
        payer = next((c for c in game.at(ctx.slot) if c.name.casefold() in wanted), None)
        if payer is None:
            return False
        _say(game, ctx.source, f"takes {payer.name} from play")
        _knock(game, payer, "killed", None)
    for _ in range(max(1, e.n)):
        if not loc.hidden_disasters:
            break
        d = loc.hidden_disasters.pop(game.chance.below(len(loc.hidden_disasters)))
        d.zone = "discard"
        game.discard.append(d)
        _say(game, ctx.source, "discards a face-down disaster from beneath")
    return True


def _unearth(game: Game, e: Effect, ctx: Context) -> bool:
    """Cards matching ``cards`` lying under a location go to the holder without scavenging
    (Capsule Army Knife: equipment); the location is the nearest with one."""
    holder = ctx.holder
    if holder is None or holder.zone not in ("field", "haven"):
        return False
    slots = [
        loc.slot
        for loc in game.locs
        if not loc.destroyed and any(card_matches(x.card, e.cards) for x in loc.hidden_cards)
    ]
    if not slots:
        return False
    loc = game.locs[_nearest_slot(game, ctx, slots)]
    for x in [x for x in loc.hidden_cards if card_matches(x.card, e.cards)][: max(1, e.n)]:
        loc.hidden_cards.remove(x)
        if isinstance(x.card, ItemCard):
            holder.items.append(x)
            game.record.bump(holder.card.id, CardStat.ITEMS_RETRIEVED)
        else:
            holder.equipment.append(x)
        _say(game, ctx.source, f"gives {holder.name} {x.card.name} from under {loc.card.name}")
    refresh(game, holder)
    return True


def _bury(game: Game, e: Effect, ctx: Context) -> bool:
    """Items the disasters hold as discarded (1998 guidelines 4.3: discarded items count for
    them) go back under a location that still hides a disaster (Presents): the nearest."""
    pool = [x for x in game.carried_off if card_matches(x.card, e.cards)]
    slots = [loc.slot for loc in game.locs if not loc.destroyed and loc.hidden_disasters]
    if not pool or not slots:
        return False
    loc = game.locs[_nearest_slot(game, ctx, slots)]
    for x in pool[: max(1, e.n)]:
        game.carried_off.remove(x)
        loc.hidden_cards.append(x)
        _say(game, ctx.source, f"puts {x.card.name} back under {loc.card.name}")
    return True


def _supply(game: Game, e: Effect, ctx: Context) -> bool:
    """The deck's items left out of play (beyond one per location) matching ``cards`` go into
    the player's haven, as items in play (Planet Namek: a Dragon Ball)."""
    pool = [x for x in game.unused if card_matches(x.card, e.cards)]
    for x in pool[: max(1, e.n)]:
        game.unused.remove(x)
        game.haven_cards.append(x)
        game.items_in_play += 1
        card = x.card
        if isinstance(card, ItemCard):
            game.tally_extra += card.tally - 1
        _say(game, ctx.source, f"adds {card.name} to the haven")
    return bool(pool)


def _rematch(game: Game, e: Effect, ctx: Context) -> bool:
    """A random combat disaster from the discard pile (matching ``cards``) enters face up at the
    card's location and attacks the party there at once, as one revealed while scavenging
    does; if the party defeats it, ``mods`` reach every character in play for the rest of the
    game (Pendulum Training Room)."""
    if ctx.slot < 0 or not game.at(ctx.slot):
        return False
    pool = [x for x in game.discard if isinstance(x, Dis) and x.combat]
    pool = [d for d in pool if card_matches(d.card, e.cards)]
    if not pool:
        return False
    d = pool[game.chance.below(len(pool))]
    game.discard.remove(d)
    d.forget()
    d.pos = game.field.path_index[ctx.slot]  # face up here (movement.place_disaster)
    d.zone = "field"
    d.game = game
    game.arrivals += 1
    d.entered = game.arrivals
    game.disasters.append(d)
    d.stationary = d.card.moves_times is not None
    _say(game, ctx.source, f"brings {d.name} back from the discard pile to fight")
    if d.fx is not None:
        fire(game, d, Trigger.ENTERS, ctx.slot)  # as a disaster revealed here (scavenge.py)
        if d.zone != "field":
            return True
    key = (d.card.id, CardStat.DEFEATED)
    before = game.record.counters.get(key, 0)
    game.hooks.attack(game, d, ctx.slot)
    if game.record.counters.get(key, 0) > before:
        for c in game.chars:
            if c.zone in ("field", "haven"):
                _modify_char(game, e, ctx, c, None)
        _say(game, ctx.source, f"rewards the victory over {d.name}")
    return True


# Defined last, once every handler is: one per action of queries._PILE_ACTIONS (a test holds
# the two equal).
_PILE_HANDLERS: dict[Action, Callable[[Game, Effect, Context], bool]] = {
    Action.RECOVER: _recover,
    Action.FETCH: _fetch,
    Action.DRAW: _draw,
    Action.FREE: _free,
    Action.UNBLOCK: _unblock,
    Action.RETRIEVE: _retrieve,
    Action.SWAP: _swap,
    Action.PUSH: _push,
    Action.RELOAD: _reload,
    Action.REORDER: _reorder,
    Action.SHARE: _share,
}
