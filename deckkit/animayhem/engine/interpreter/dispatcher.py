"""The dispatcher: ``fire`` runs a card's effects for a trigger, ``run`` hands each effect to the
function of its action (in the ``on_*`` modules, :mod:`.piles`, :mod:`.under_locations`,
:mod:`.events`).

The entry points that fire effects from inside combat live here too: flash effects played in a
round (CHARGE, FREE_CAST, extra cards), a charm battle's held card, HURT, items and characters
acting on AFFECT (``guarded``), and REMATCH, whose disaster fires its own effects as it enters."""

from __future__ import annotations

from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import AnyCard, Modifier
from deckkit.animayhem.construction.vocabulary import Trigger
from deckkit.animayhem.engine.abilities import answered, carries_effects_for, refresh
from deckkit.animayhem.engine.codes import (
    ACT_ATTACK,
    ACT_BECOME_HAVEN,
    ACT_BLOCK,
    ACT_BONK,
    ACT_BURY,
    ACT_CAPTURE,
    ACT_CHARGE,
    ACT_CLEAR,
    ACT_DAMAGE,
    ACT_DEFEAT,
    ACT_DESTROY,
    ACT_DESTROY_LOCATION,
    ACT_DISABLE,
    ACT_DISCARD,
    ACT_DISCARD_HAND,
    ACT_DROP,
    ACT_EXTRA_CARDS,
    ACT_FRAIL,
    ACT_GRANT,
    ACT_HEAL,
    ACT_HOLD,
    ACT_KILL,
    ACT_MODIFY,
    ACT_MOVE_TO,
    ACT_NO_RETREAT,
    ACT_PULL,
    ACT_REMATCH,
    ACT_RESHUFFLE_HAND,
    ACT_REVEAL,
    ACT_REVERSE,
    ACT_REVERSE_CHARM,
    ACT_SEND,
    ACT_TAKE,
    ACT_TRANSFORM,
    ACT_UNEARTH,
    SCOPE_COMBAT,
    SCOPE_ROUND,
    STAT_DEFEATED,
    STAT_EFFECTS,
    TARGET_DISASTERS,
    TARGET_FIELD,
    TARGET_NEAREST_DISASTER,
    TARGET_OPPONENT,
    TARGET_PLAY,
    TARGET_SELF,
    TRIGGER_AFFECT,
    TRIGGER_ENTERS,
    TRIGGER_HURT,
    TRIGGER_PLAYED,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.combat_cards import apply_charm
from deckkit.animayhem.engine.interpreter.common import (
    FOREVER,
    Sides,
    Source,
    _credit,
    _knock,
    _name,
    _say,
    _until,
)
from deckkit.animayhem.engine.interpreter.events import _ADDED_EVENTS, _added_event, _give_up
from deckkit.animayhem.engine.interpreter.on_abilities import _modify_char, _modify_dis, disasters
from deckkit.animayhem.engine.interpreter.on_cards import _destroy, _take
from deckkit.animayhem.engine.interpreter.on_characters import _capture, _drop, _send, _transform
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import (
    _block,
    _destroy_location,
    _move_to,
    _pay,
    _pull,
    _spend,
    gone,
    leave_play,
)
from deckkit.animayhem.engine.interpreter.piles import _PILE_HANDLERS, _become_haven, _reverse
from deckkit.animayhem.engine.interpreter.targets import Context, _source_dis, characters
from deckkit.animayhem.engine.interpreter.under_locations import (
    _UNDER_ACTIONS,
    _bury,
    _clear,
    _reveal,
    _supply,
    _unearth,
)
from deckkit.animayhem.engine.queries import (
    _AT_DISASTER,
    _FIGHT_SCOPES,
    _PILE_ACTIONS,
    _party,
    can_use,
    conditions_hold,
    fits,
    free_caster,
)
from deckkit.animayhem.engine.state import ENE, Char, Copy, Dis, Game, bump_card, count

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect
    from deckkit.animayhem.engine.state import Mods


# The actions on characters (``_on_characters``). A set: one hashed look-up where a tuple would
# compare the action's text with each member in turn.
_ON_CHARACTERS: Final = frozenset(
    {
        ACT_BONK,
        ACT_KILL,
        ACT_DAMAGE,
        ACT_HEAL,
        ACT_DISABLE,
        ACT_HOLD,
        ACT_CAPTURE,
        ACT_SEND,
        ACT_DROP,
        ACT_GRANT,
        ACT_TRANSFORM,
        ACT_ATTACK,
    }
)


def run(
    game: Game,
    e: GameEffect,
    ctx: Context,
    sides: Sides | None = None,
) -> bool:
    """Carry out one effect; True when it found a target and did something. A DEFEAT or
    DISCARD that succeeds ends the source's remaining effects (the caller checks its zone)."""
    do = e.do
    if e.target is TARGET_OPPONENT and not isinstance(ctx.source, Dis):
        # From the characters' side, the opponent is the disaster being fought.
        if do is not ACT_MODIFY or ctx.fought is None:
            return False
        _modify_dis(game, e, ctx.fought, sides)
        _say(game, ctx.source, f"changes {ctx.fought.name}")
        return True
    if do is ACT_NO_RETREAT and e.target is not TARGET_SELF:
        who = characters(game, e, ctx)
        for c in who:
            c.pinned = True
        if who:
            _say(game, ctx.source, f"bars {', '.join(c.name for c in who)} from running away")
        return bool(who)
    if do in _ON_CHARACTERS or (
        do is ACT_MODIFY
        and e.target is not TARGET_DISASTERS
        and e.target is not TARGET_NEAREST_DISASTER
        and not (e.target is TARGET_SELF and isinstance(ctx.source, Dis))
    ):
        who = characters(game, e, ctx)
        if not who:
            return False
        return _on_characters(game, e, ctx, who, sides)
    if do is ACT_MODIFY:
        targets = disasters(game, e, ctx)
        for d in targets:
            _modify_dis(game, e, d, sides)
        if targets:
            _say(game, ctx.source, f"changes {', '.join(d.name for d in targets)}")
        return bool(targets)
    if do is ACT_DESTROY:
        return _destroy(game, e, ctx)
    if do is ACT_TAKE:
        return _take(game, e, ctx)
    if do is ACT_DISCARD_HAND:
        cards = [x for x in game.hand if isinstance(x, Copy)]
        game.chance.shuffle(cards)
        for x in cards[: max(1, e.n)]:
            game.hand.remove(x)
            game.discard.append(x)
        if cards:
            _say(game, ctx.source, f"discards {min(len(cards), max(1, e.n))} cards from the hand")
        return bool(cards)
    if do is ACT_RESHUFFLE_HAND:
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
    if do is ACT_MOVE_TO:
        return src is not None and _move_to(game, e, src)
    if do is ACT_REVERSE:
        return _reverse(game, e, ctx)
    if do is ACT_PULL:
        return _pull(game, e, ctx)
    if do is ACT_BLOCK:
        return _block(game, e, ctx)
    if do is ACT_DESTROY_LOCATION:
        return _destroy_location(game, ctx)
    if do is ACT_BECOME_HAVEN:
        return _become_haven(game, ctx)
    if do in _PILE_ACTIONS:
        return _pile_action(game, e, ctx)
    if do is ACT_REVEAL:
        return _reveal(game, e, ctx)
    if do in _UNDER_ACTIONS:
        return _under_action(game, e, ctx)
    if do is ACT_DEFEAT or do is ACT_DISCARD:
        if do is ACT_DISCARD and e.target is TARGET_SELF and isinstance(ctx.source, Copy):
            return _spend(game, ctx)
        if e.target is TARGET_SELF:
            targets = [src] if src is not None else []
        else:
            targets = disasters(game, e, ctx)
        targets = [d for d in targets if not gone(d)][: e.n if e.n > 0 else None]
        if not targets:
            return False
        if e.pay and not _pay(game, e, ctx):
            return False
        for d in targets:
            if do is ACT_DEFEAT:
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


def _pile_action(game: Game, e: GameEffect, ctx: Context) -> bool:
    """The actions on piles, cards and locations (queries._PILE_ACTIONS), by their handler."""
    return _PILE_HANDLERS[e.do](game, e, ctx)


def _on_characters(
    game: Game, e: GameEffect, ctx: Context, who: list[Char], sides: Sides | None
) -> bool:
    do = e.do
    by = _source_dis(ctx)
    n = len(who)
    if do is ACT_BONK or do is ACT_KILL:
        for c in who:
            if game.trace is not None:  # the message is built only for a trace
                _say(game, ctx.source, f"{'bonks' if do is ACT_BONK else 'kills'} {c.name}")
            _knock(game, c, "bonked" if do is ACT_BONK else "killed", by)
    elif do is ACT_DAMAGE:
        for c in who:
            c.health -= e.n
            if game.trace is not None:  # the message is built only for a trace
                _say(game, ctx.source, f"deals {e.n} damage to {c.name} (health {c.health})")
            if c.health <= 0:
                _knock(game, c, "bonked", by)
            else:
                c.wounded_turn = game.turn
    elif do is ACT_HEAL:
        # The n most hurt of the targets (Senzu Beans heals up to 3); a card given up to heal
        # is spent only on someone hurt.
        who = sorted(who, key=_most_hurt_first)
        who = who[: e.n] if e.n > 0 else who
        if e.pay and not (any(c.health < c.health_max for c in who) and _give_up(game, ctx, who)):
            return False
        for c in who:
            c.health = c.health_max
        if game.trace is not None:  # the message is built only for a trace
            _say(game, ctx.source, f"heals {', '.join(c.name for c in who)}")
    elif do is ACT_DISABLE or do is ACT_HOLD:
        last = _until(game, e)
        for c in who:
            if do is ACT_DISABLE:
                c.disabled_until = max(c.disabled_until, last)
            else:
                c.held_until = max(c.held_until, last)
        verb = "disables" if do is ACT_DISABLE else "holds"
        if game.trace is not None:  # the message is built only for a trace
            _say(game, ctx.source, f"{verb} {', '.join(c.name for c in who)} through turn {last}")
    elif do is ACT_CAPTURE:
        for c in who:
            _capture(game, e, ctx, c)
        if game.trace is not None:  # the message is built only for a trace
            _say(game, ctx.source, f"captures {', '.join(c.name for c in who)}")
    elif do is ACT_SEND:
        if not _send(game, e, ctx, who) and e.to == "goal":
            return False  # no better place to go: the card is not spent
    elif do is ACT_DROP:
        for c in who:
            _drop(game, e, c)
        if game.trace is not None:  # the message is built only for a trace
            _say(game, ctx.source, f"makes {', '.join(c.name for c in who)} drop what they carry")
    elif do is ACT_GRANT:
        last = _until(game, e) if e.turns else FOREVER
        if e.target in (TARGET_FIELD, TARGET_PLAY) and len(who) > e.n > 0:
            # "One of your characters may add the skill": the largest group's first member,
            # where one more skill opens the most.
            who = _in_largest_groups(who, e.n)
        for c in who:
            c.grants.append((e.skill, last))
            refresh(game, c)
    elif do is ACT_TRANSFORM:
        for c in who:
            _transform(game, c)
    elif do is ACT_ATTACK:
        if by is None or not by.combat or by.zone != "field":
            return False
        slot = who[0].slot
        by.pos = game.field.path_index[slot]
        if game.trace is not None:  # the message is built only for a trace
            _say(game, by, f"attacks at {game.locs[slot].g.name}")
        game.hooks.attack(game, by, slot)
    elif do is ACT_MODIFY:
        if e.pay and not _give_up(game, ctx, who):
            return False
        for c in who:
            _modify_char(game, e, ctx, c, sides)
        if game.trace is not None:  # the message is built only for a trace
            _say(game, ctx.source, f"changes {', '.join(c.name for c in who)}")
    return n > 0


def _most_hurt_first(c: Char) -> tuple[int, int]:
    """Sort key of HEAL's targets: the most hurt first, then by uid."""
    return (c.health - c.health_max, c.uid)


def _in_largest_groups(who: list[Char], n: int) -> list[Char]:
    """The first ``n`` of ``who`` by the size of their group at one location (largest first),
    then by uid. Each entry is sorted as (-size, uid, position): uids differ, so a character is
    never compared (the order of ``sorted(who, key=lambda c: (-size, c.uid))``), and no closure
    is made per effect. For one (the usual "one of your characters"), the first in that order,
    found in one pass."""
    if n == 1:
        best = who[0]
        best_size = 0
        for c in who:
            size = 0
            for o in who:
                if o.slot == c.slot:
                    size += 1
            if size > best_size or (size == best_size and c.uid < best.uid):
                best, best_size = c, size
        return [best]
    ranked: list[tuple[int, int, int]] = []
    for i, c in enumerate(who):
        size = 0
        for o in who:
            if o.slot == c.slot:
                size += 1
        ranked.append((-size, c.uid, i))
    ranked.sort()
    return [who[i] for _, _, i in ranked[:n]]


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
    # A tuple, not ``Dis | Char``: the compiled engine would build that union at every call.
    fx = source.fx if isinstance(source, (Dis, Char)) else game.fx.get(source.cid)
    if fx is None:
        return False
    entries = fx.get(trigger)
    if not entries:
        return False
    ctx: Context | None = None  # made for the first effect that runs
    did = False
    for i, e in entries:
        if e.every > 1:  # every n-th occurrence of the trigger
            key = (source.uid, i)
            seen = game.fired.get(key, 0) + 1
            game.fired[key] = seen
            if seen % e.every:
                continue
        max_times = e.max_times
        if max_times and game.fired.get((source.uid, -1 - i), 0) >= max_times:
            continue  # it has acted as often as it may
        if fought is not None and e.against and not matches(fought.g, e.against):
            continue
        if not conditions_hold(game, e, slot):
            continue
        if ctx is None:
            ctx = Context(source, slot, holder, opponents, fought)
        if run(game, e, ctx, sides):
            did = True
            bump_card(game, source, STAT_EFFECTS)
            if max_times:
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
        if not isinstance(h, Copy) or not h.g.power:
            continue
        fx = game.fx.get(h.cid)
        if fx is None:
            continue
        cost = h.g.energy_cost or 0
        if cost > c.cur[ENE] or not can_use(c, h.g):
            continue
        diff = mine - theirs
        for _, e in fx.get(TRIGGER_PLAYED, ()):
            if not fits(e, c) or not matches(d.g, e.against):
                continue
            if e.do is ACT_REVERSE_CHARM:
                diff = 1
            elif e.do is ACT_MODIFY and e.target is TARGET_SELF and e.scope is SCOPE_ROUND:
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
        for _, e in fx.get(TRIGGER_PLAYED, ())
        if e.do is ACT_EXTRA_CARDS and e.target is TARGET_SELF
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
    fx = game.fx.get(copy.cid)
    mine: list[Mods] = []
    theirs: list[Mods] = []
    if fx is None:
        return mine, theirs
    ctx = Context(copy, slot, holder, [holder], fought)
    for _, e in fx.get(TRIGGER_PLAYED, ()):
        if not conditions_hold(game, e, slot):
            continue
        if e.against and not matches(fought.g, e.against):
            continue
        fight_mod = e.do is ACT_MODIFY and e.scope in _FIGHT_SCOPES
        whole = e.scope is SCOPE_COMBAT and sides is not None
        if fight_mod and e.target is TARGET_SELF:
            if not fits(e, holder) or all(a == "charm" for a, _ in e.mods):
                continue  # charm acts only in a charm battle (held_for_charm: Loving You)
            mine.append(e.mods)
            if whole and sides is not None:
                sides.char_mod(holder.uid, e.mods, True)
            _credit(game, copy.card)
        elif fight_mod and e.target in _AT_DISASTER:
            if matches(fought.g, e.cards):
                theirs.append(e.mods)
                if whole and sides is not None:
                    sides.dis_mod(e.mods, True)
                _credit(game, copy.card)
        elif e.do is ACT_EXTRA_CARDS and e.target is TARGET_SELF:
            continue  # drawn by the combat rules (flash_extra_cards)
        elif e.do is ACT_FRAIL or e.do is ACT_CHARGE:
            if sides is None or not fits(e, holder):
                continue
            if e.do is ACT_FRAIL:
                # Meltdown, Frozen: the fought disaster's loss this round (combat.fight).
                sides.loss_times = e.n
                _say(game, copy, f"leaves {fought.name} frail this round")
            else:
                mine.append(_charge(game, e, holder, sides))
            _credit(game, copy.card)
        elif run(game, e, ctx):
            bump_card(game, copy, STAT_EFFECTS)
    return mine, theirs


def _charge(game: Game, e: GameEffect, holder: Char, sides: Sides) -> Mods:
    """CHARGE: the holder's attack this round rises by ``n`` times energy: its own, which it
    spends (Kamehameha, Makkankoupousou), or every character in play's, and then its
    groupmates deal no damage this round (Genki-Dama)."""
    if e.target is TARGET_SELF:
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


# --- triggers fired in combat and before a disaster acts (HURT, AFFECT) -----------------------


def hurt(game: Game, who: list[Char], slot: int, d: Dis, sides: Sides | None) -> None:
    """HURT: characters lost health this round, before health is checked. Each hurt
    character's own effects fire, then those of the cards carried by anyone at the location
    (a groupmate may give up Senzu Beans)."""
    for c in who:
        if c.fx is not None and TRIGGER_HURT in c.fx and c.zone == "field":
            fire(game, c, TRIGGER_HURT, slot, opponents=[c], fought=d, sides=sides)
    # Most often nobody there carries a card with a HURT effect: asked first without the list
    # of those there (``game.at``), nothing fired in between; and not at all when no card of
    # the game has one.
    if not answered(game, TRIGGER_HURT):
        return
    for c in game.chars:
        if c.slot != slot or c.zone != "field" or not (c.items or c.equipment or c.enhancements):
            continue
        if carries_effects_for(game, c, TRIGGER_HURT):
            break
    else:
        return
    for c in game.at(slot):
        if not (c.items or c.equipment or c.enhancements):
            continue
        if not carries_effects_for(game, c, TRIGGER_HURT):
            continue
        for x in (*c.items, *c.equipment, *c.enhancements):
            fx = game.fx.get(x.cid)
            if fx is not None and TRIGGER_HURT in fx and c.zone == "field":
                fire(game, x, TRIGGER_HURT, slot, holder=c, opponents=who, fought=d, sides=sides)


def guarded(game: Game, d: Dis, slot: int) -> bool:
    """Before a non-combat disaster acts, the characters it reaches and the items they carry
    may stop it (AFFECT on a character or an item: Lt. Randolph defeats a Legal disaster,
    5 Yen Coin Shopping Spree). True when it left play."""
    for c in _party(game, slot):
        if c.fx is not None and TRIGGER_AFFECT in c.fx:
            fire(game, c, TRIGGER_AFFECT, slot, fought=d)
            if gone(d):
                return True
        for x in list(c.items):
            fx = game.fx.get(x.cid)
            if fx is not None and TRIGGER_AFFECT in fx:
                fire(game, x, TRIGGER_AFFECT, slot, holder=c, fought=d)
                if gone(d):
                    return True
    return False


# --- the cards under locations (the others in under_locations.py) and REMATCH -----------------
# REMATCH fires the effects of the disaster it brings back, so it is played here, by the
# dispatcher, and the modules below it never import it back.


def _under_action(game: Game, e: GameEffect, ctx: Context) -> bool:
    if e.do is ACT_CLEAR:
        return _clear(game, e, ctx)
    if e.do is ACT_UNEARTH:
        return _unearth(game, e, ctx)
    if e.do is ACT_BURY:
        return _bury(game, e, ctx)
    if e.do is ACT_REMATCH:
        return _rematch(game, e, ctx)
    return _supply(game, e, ctx)


def _rematch(game: Game, e: GameEffect, ctx: Context) -> bool:
    """A random combat disaster from the discard pile (matching ``cards``) enters face up at the
    card's location and attacks the party there at once, as one revealed while scavenging
    does; if the party defeats it, ``mods`` reach every character in play for the rest of the
    game (Pendulum Training Room)."""
    if ctx.slot < 0 or not game.at(ctx.slot):
        return False
    pool = [x for x in game.discard if isinstance(x, Dis) and x.combat]
    pool = [d for d in pool if matches(d.g, e.cards)]
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
    d.stationary = d.g.moves_times is not None
    _say(game, ctx.source, f"brings {d.name} back from the discard pile to fight")
    if d.fx is not None:
        fire(game, d, TRIGGER_ENTERS, ctx.slot)  # as a disaster revealed here (scavenge.py)
        if d.zone != "field":
            return True
    before = count(game, d.cid, STAT_DEFEATED)
    game.hooks.attack(game, d, ctx.slot)
    if count(game, d.cid, STAT_DEFEATED) > before:
        for c in game.chars:
            if c.zone in ("field", "haven"):
                _modify_char(game, e, ctx, c, None)
        _say(game, ctx.source, f"rewards the victory over {d.name}")
    return True
