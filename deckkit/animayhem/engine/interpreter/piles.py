"""The player's piles, captives, blocks, disasters' places and card uses.

Power cards that reach the discard pile or the draw pile, free captives, open blocked locations,
push disasters, restore uses and spare lives, and the standing rules of these cards that combat
reads (SURVIVE, RECYCLE, FIRST_STRIKE, REVIVE, WAIVE, EXTRA_EQUIP, ENDURE, EDGE...). The pile
actions' handlers are in ``_PILE_HANDLERS``, one per action of ``queries._PILE_ACTIONS``."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import PowerCard
from deckkit.animayhem.construction.vocabulary import Action
from deckkit.animayhem.engine.abilities import enter_haven, refresh
from deckkit.animayhem.engine.cardrules import requirement_met, skill_totals
from deckkit.animayhem.engine.codes import (
    ACT_DEFENDS_ONLY,
    ACT_DRAW,
    ACT_EDGE,
    ACT_ENDURE,
    ACT_EXTRA_EQUIP,
    ACT_FETCH,
    ACT_FIRST_STRIKE,
    ACT_FREE,
    ACT_MODIFY,
    ACT_PUSH,
    ACT_RECOVER,
    ACT_RECYCLE,
    ACT_RELOAD,
    ACT_REORDER,
    ACT_RETRIEVE,
    ACT_REVIVE,
    ACT_RUN_ALONE,
    ACT_SHARE,
    ACT_STRIKES,
    ACT_SURVIVE,
    ACT_SWAP,
    ACT_UNBLOCK,
    ACT_WAIVE,
    KIND_FLASH_EFFECT,
    KIND_ITEM,
    SCOPE_RETREAT,
    TARGET_FIELD,
    TARGET_LOCATION,
    TARGET_PLAY,
    TARGET_SELF,
    TRIGGER_ALWAYS,
    TRIGGER_PLAYED,
    TYPE_ENHANCEMENT,
    TYPE_EQUIPMENT,
    TYPE_ITEM,
)
from deckkit.animayhem.engine.gamecards import matches
from deckkit.animayhem.engine.interpreter.common import (
    Sides,
    _credit,
    _name,
    _say,
    _until,
    apply_mods,
)
from deckkit.animayhem.engine.interpreter.on_abilities import disasters
from deckkit.animayhem.engine.interpreter.on_cards import _destroy_card
from deckkit.animayhem.engine.interpreter.on_characters import _heal_on_release
from deckkit.animayhem.engine.interpreter.on_disasters_and_locations import leave_play
from deckkit.animayhem.engine.interpreter.standing import _haven_rules, has_rule
from deckkit.animayhem.engine.interpreter.targets import Context, _from_slot, _holders
from deckkit.animayhem.engine.queries import (
    _carried,
    _pile_matches,
    blocked,
    can_use,
    conditions_hold,
    fits,
    standing,
    usable,
)
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.cardrules import GameEffect

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
            if card.type is TYPE_EQUIPMENT:
                holder.equipment.append(x)
                refresh(game, holder)
                return holder.name
            if card.type is TYPE_ENHANCEMENT:
                holder.enhancements.append(x)
                refresh(game, holder)
                return holder.name
        to = "hand"
    if to == "haven" and isinstance(x, Copy) and card.type in (TYPE_EQUIPMENT, TYPE_ITEM):
        game.haven_cards.append(x)
        return "the haven"
    if to == "draw":
        game.draw_pile.append(x)
        game.chance.shuffle(game.draw_pile)
        return "the draw pile"
    game.hand.append(x)
    return "the hand"


def _recover(game: Game, e: GameEffect, ctx: Context) -> bool:
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


def _fetch(game: Game, e: GameEffect, ctx: Context) -> bool:
    pool = [x for x in game.draw_pile if _pile_matches(x, e.cards)]
    holder = ctx.holder
    if e.to == "holder" and holder is None and ctx.slot >= 0:
        # From a location (Capsule Corporation): played on a character there who can use it;
        # with no one there able to, nothing is taken.
        users = [
            (x, c)
            for x in sorted(pool, key=_pile_worth)
            for c in game.at(ctx.slot)
            if x.g.power and can_use(c, x.g)
        ]
        if not users:
            return False
        pool, holder = [users[0][0]], users[0][1]
    if e.to == "holder" and holder is not None:
        # One the holder can use comes first.
        pool = [x for x in pool if x.g.power and can_use(holder, x.g)] or pool
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


def _draw(game: Game, e: GameEffect, ctx: Context) -> bool:
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


def _free(game: Game, e: GameEffect, ctx: Context) -> bool:
    captives = [c for c in game.chars if c.zone == "captured" and fits(e, c)]
    for c in captives[: e.n if e.n > 0 else None]:
        c.captor = -1
        c.return_turn = 0
        _heal_on_release(c)
        enter_haven(game, c)
        _say(game, ctx.source, f"frees {c.name} to the haven")
    return bool(captives)


def _unblock(game: Game, e: GameEffect, ctx: Context) -> bool:
    if e.target is TARGET_LOCATION:
        slots = [ctx.slot] if ctx.slot >= 0 and blocked(game, ctx.slot) else []
    else:
        start = _from_slot(game, ctx)
        slots = sorted(
            (s for s in list(game.blocked) if blocked(game, s)),
            key=lambda s: (game.dist[start][s], s),
        )
    for s in slots[: e.n if e.n > 0 else None]:
        _, uid = game.blocked.pop(s)
        _say(game, ctx.source, f"opens {game.locs[s].g.name}")
        for d in [*game.disasters, *(d for d, _ in game.lasting)]:
            if d.uid == uid:  # the blocking card is discarded (Forceful Passage)
                leave_play(game, d)
                _say(game, d, "leaves play")
                break
    return bool(slots)


def _push(game: Game, e: GameEffect, ctx: Context) -> bool:
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
        _say(game, ctx.source, f"pushes {d.name} to {game.locs[path[d.pos]].g.name}")
    return True


def _reload(game: Game, e: GameEffect, ctx: Context) -> bool:
    spent = [
        x
        for c in _holders(game, e, ctx)
        for _, _, x in _carried(c, e.cards or ("weapon",))
        if x.uses_left is not None and x.g.power and x.g.uses is not None and x.uses_left < x.g.uses
    ]
    spent.sort(key=lambda x: (x.uses_left or 0, x.uid))
    for x in spent[: e.n if e.n > 0 else None]:
        x.uses_left = x.g.uses if x.g.power else None
        _say(game, ctx.source, f"reloads {x.g.name}")
    return bool(spent)


def _reorder(game: Game, e: GameEffect, ctx: Context) -> bool:
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


def _share(game: Game, e: GameEffect, ctx: Context) -> bool:
    """One printed skill passes for ``turns`` turns: to the holder from a character in play
    meeting ``filter`` (``self``: Data Stream, the skills of Computer characters), or from the
    holder to another character on the field (``field``: Mind Scanner). The player passes the
    skill that lets the receiver's party meet the requirement of most locations it still may
    scavenge (face-down cards under them); when none does, nothing passes."""
    holder = ctx.holder
    if holder is None or holder.zone not in ("field", "haven"):
        return False
    in_play = [c for c in game.chars if c.zone in ("field", "haven") and c is not holder]
    if e.target is TARGET_SELF:
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
            fx = game.fx.get(x.cid)
            if fx is None:
                continue
            for _, e in fx.get(TRIGGER_ALWAYS, ()):
                if e.against and (by is None or not matches(by.g, e.against)):
                    continue
                if e.do is ACT_SURVIVE and e.target is TARGET_SELF and fits(e, c):
                    _credit(game, x.card)
                    if "self" in e.pay:  # it gives itself up to save the character
                        _destroy_card(game, Context(x, c.slot, c), c, pile, x)
                    return True
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is not None and any(
            e.do is ACT_SURVIVE and e.target in (TARGET_FIELD, TARGET_PLAY) and fits(e, c)
            for _, e in fx.get(TRIGGER_ALWAYS, ())
        ):
            _credit(game, g.card)
            return True
    for h in game.hand:
        if not isinstance(h, Copy) or h.g.kind != KIND_FLASH_EFFECT:
            continue
        fx = game.fx.get(h.cid)
        if fx is not None and any(
            e.do is ACT_SURVIVE and fits(e, c) for _, e in fx.get(TRIGGER_PLAYED, ())
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
    if ACT_RECYCLE not in game.acts:
        return False
    if game.recycle_next > 0:
        game.recycle_next -= 1
        return True
    return has_rule(game, d, ACT_RECYCLE)


def strikes_first(game: Game, d: Dis, sides: Sides | None) -> bool:
    """The characters' damage lands before the disaster's this round (FIRST_STRIKE: Power
    Suit's own rule, or an item given up for the combat)."""
    if ACT_FIRST_STRIKE not in game.acts:
        return False
    return (sides is not None and sides.first) or has_rule(game, d, ACT_FIRST_STRIKE)


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


def revived(game: Game, c: Char) -> bool:
    """A bonked character returns to the haven at once (REVIVE: West Side City Hospital)."""
    if ACT_REVIVE not in game.acts:
        return False
    for card, e in _haven_rules(game, ACT_REVIVE):
        if fits(e, c):
            _credit(game, card)
            return True
    return False


def waived_for(game: Game, c: Char, card: PowerCard) -> bool:
    """The character uses this card only by its own WAIVE (Specs and a Science card): count
    that as a use of the character's effect."""
    if ACT_WAIVE not in game.acts or c.fx is None or card.requirement is None:
        return False
    if requirement_met(card.requirement, [c]):
        return False
    _credit(game, c.card)
    return True


def extra_equipment(game: Game) -> int:
    """Equipment cards the player may play beyond one each Equip phase (EXTRA_EQUIP of
    characters in play: Bulma)."""
    if ACT_EXTRA_EQUIP not in game.acts:
        return 0
    n = 0
    for c in game.chars:
        if c.fx is None or c.zone not in ("field", "haven"):
            continue
        for _, e in c.fx.get(TRIGGER_ALWAYS, ()):
            if e.do is ACT_EXTRA_EQUIP:
                n += e.n
                _credit(game, c.card)
    return n


def endures(game: Game, c: Char) -> bool:
    """No blow knocks this character out (ENDURE: Dr. Tofu's group). A read of the standing
    effects of the character and of its groupmates (``here``) whose conditions hold."""
    if ACT_ENDURE not in game.acts or c.zone != "field":
        return False
    for other in game.at(c.slot):
        if other.fx is None:
            continue
        for _, e in other.fx.get(TRIGGER_ALWAYS, ()):
            if e.do is not ACT_ENDURE or not fits(e, c):
                continue
            if e.target is TARGET_SELF and other is not c:
                continue
            if conditions_hold(game, e, c.slot):
                _credit(game, other.card)
                _say(game, other, f"keeps {c.name} standing")
                return True
    return False


def _own_rule(c: Char, do: Action) -> GameEffect | None:
    if c.fx is None:
        return None
    for _, e in c.fx.get(TRIGGER_ALWAYS, ()):
        if e.do is do:
            return e
    return None


def defends(game: Game, c: Char, target: Char) -> bool:
    """Does ``c`` fight to defend ``target`` from a disaster's attack? Not when its card makes
    it defend only characters meeting a filter (DEFENDS_ONLY: Piccolo and Gohan)."""
    if ACT_DEFENDS_ONLY not in game.acts or c is target:
        return True
    e = _own_rule(c, ACT_DEFENDS_ONLY)
    if e is None or fits(e, target):
        return True
    _credit(game, c.card)
    return False


def runs_alone(game: Game, c: Char, credit: bool = False) -> bool:
    """The character may run away on its own while its group fights on (RUN_ALONE)."""
    if ACT_RUN_ALONE not in game.acts or _own_rule(c, ACT_RUN_ALONE) is None:
        return False
    if credit:
        _credit(game, c.card)
    return True


def strikes(game: Game, d: Dis) -> int:
    """How many of the characters fighting it the disaster strikes each round (STRIKES:
    Saibamen, two); 1 without the rule."""
    if ACT_STRIKES not in game.acts or d.fx is None:
        return 1
    rules = standing(d.fx, ACT_STRIKES)
    return max((e.n for e in rules), default=1)


def _retrieve(game: Game, e: GameEffect, ctx: Context) -> bool:
    """Each disaster carrying a card (matching ``cards``) at a location with characters gives
    it up to the character standing there that carries the least."""
    took = 0
    for d in game.disasters:
        if took >= max(1, e.n) or not d.carrying or d.pos < 0:
            continue
        party = game.at(game.slot_of(d))
        wanted = [x for x in d.carrying if matches(x.g, e.cards or ("item", "equipment"))]
        if not (party or e.to == "location") or not wanted:
            continue
        x = wanted[0]
        d.carrying.remove(x)
        if d.stolen is x:
            d.stolen = None
        if e.to == "location":  # Fake Item: back under the location, out of its reach
            game.locs[game.slot_of(d)].hidden_cards.append(x)
            took += 1
            _say(game, ctx.source, f"puts {x.g.name} from {d.name} back under its location")
            continue
        c = min(party, key=lambda m: (len(m.items) + len(m.equipment), m.uid))
        if x.g.kind == KIND_ITEM:
            c.items.append(x)
        else:
            c.equipment.append(x)
        refresh(game, c)
        took += 1
        _say(game, ctx.source, f"has {c.name} take {x.g.name} back from {d.name}")
    return took > 0


def edge(game: Game) -> int:
    """How many items the disasters may lead by and the player still win (EDGE of a global
    effect in play); -1 when no card gives the player an edge. Ties are won from 0 up."""
    best = -1
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is None:
            continue
        for _, e in fx.get(TRIGGER_ALWAYS, ()):
            if e.do is ACT_EDGE:
                best = max(best, e.n)
    return best


def credit_edge(game: Game) -> None:
    """Count that an EDGE decided the game."""
    for g, _ in game.globals_in_play:
        fx = game.fx.get(g.cid)
        if fx is not None and any(e.do is ACT_EDGE for _, e in fx.get(TRIGGER_ALWAYS, ())):
            _credit(game, g.card)


def _swap(game: Game, e: GameEffect, ctx: Context) -> bool:
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


def _reverse(game: Game, e: GameEffect, ctx: Context) -> bool:
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
        if not isinstance(h, Copy) or h.g.kind != KIND_FLASH_EFFECT:
            continue
        fx = game.fx.get(h.cid)
        if fx is None:
            continue
        mods = [
            e.mods
            for _, e in fx.get(TRIGGER_PLAYED, ())
            if e.do is ACT_MODIFY and e.scope is SCOPE_RETREAT
        ]
        if mods:
            game.hand.remove(h)
            game.discard.append(h)
            _credit(game, h.card)
            damage, _ = apply_mods(mods, damage, 0)
            _say(game, h, f"is played: the final attack takes {damage}")
            return damage
    return damage


# Defined last, once every handler is: one per action of queries._PILE_ACTIONS (a test holds
# the two equal).
_PILE_HANDLERS: Final[dict[Action, Callable[[Game, GameEffect, Context], bool]]] = {
    ACT_RECOVER: _recover,
    ACT_FETCH: _fetch,
    ACT_DRAW: _draw,
    ACT_FREE: _free,
    ACT_UNBLOCK: _unblock,
    ACT_RETRIEVE: _retrieve,
    ACT_SWAP: _swap,
    ACT_PUSH: _push,
    ACT_RELOAD: _reload,
    ACT_REORDER: _reorder,
    ACT_SHARE: _share,
}
