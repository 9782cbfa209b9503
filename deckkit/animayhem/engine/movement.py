"""Movement: disasters along their fixed path (Maintenance phase) and parties (Move phase).

Set0 rulebook, Part II "Maintenance Phase" and "Move Phase"; Part I "Major/Minor Disaster",
"Planetary Location", "Dimensional Location", "Location" (destroyed locations); Part III
"Moves N", "Steal", "Ally Disaster"; 1996 rules "Maintenance Phase" for picking up items.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.abilities import enter_haven, refresh
from deckkit.animayhem.engine.codes import (
    ACT_HIDE,
    ACT_LEAP,
    ACT_SAFEGUARD,
    KIND_ITEM,
    STAT_ITEMS_CARRIED_OFF,
    STAT_MET,
    TRAIT_BIT_ALLY,
    TRAIT_BIT_MAGNET,
    TRAIT_BIT_STEALS_EQUIPMENT,
    TRAIT_BIT_STEALS_ITEM,
    TRIGGER_ENTERS,
    TRIGGER_LANDS,
    TRIGGER_PASSES,
)
from deckkit.animayhem.engine.combat import combat_rules, fight, take_item_here
from deckkit.animayhem.engine.endgame import check_end
from deckkit.animayhem.engine.interpreter.common import unplayed_label
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.standing import hiding_slot, leaps, record_uses, stealable
from deckkit.animayhem.engine.interpreter.turns import affect
from deckkit.animayhem.engine.interpreter.vehicles_and_forms import entered
from deckkit.animayhem.engine.queries import (
    HAVEN,
    Use,
    cycle_steps_left,
    leap_room,
    party_movement,
)
from deckkit.animayhem.engine.state import Char, Dis, Game, bump_card

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy


def place_disaster(game: Game, d: Dis, pos: int) -> None:
    """Put a disaster face up on the field at path position ``pos``."""
    d.pos = pos
    d.zone = "field"
    d.game = game
    game.arrivals += 1
    d.entered = game.arrivals
    game.disasters.append(d)


def _next_pos(
    game: Game, path: tuple[int, ...], skip_destroyed: bool, pos: int, step: int = 1
) -> int:
    """The next path position (``step`` -1: back along the path, for a disaster a card turned
    round); with ``skip_destroyed`` (the edition's ``disasters_skip_destroyed``), destroyed
    locations do not count for disaster movement (set0 rulebook, "Location"; fifth2018 lets
    disasters stop on them). ``path`` is the field's disaster path. Returns -1 past either end."""
    n = len(path)
    nxt = pos + step
    if skip_destroyed:
        locs = game.locs
        while 0 <= nxt < n and locs[path[nxt]].destroyed:
            nxt += step
    return nxt if 0 <= nxt < n else -1


def _leave_field(game: Game, edition: Edition, d: Dis) -> bool:
    """Completing a cycle: carried items are destroyed; a minor disaster is discarded, a major
    one returns to the top of the rightmost column at no cost. True when it stays in play."""
    for item in d.carrying:
        if item.g.kind != KIND_ITEM:
            # Stolen equipment not recovered before the disaster exits is discarded.
            game.discard.append(item)
            continue
        game.carried_off.append(item)
        bump_card(game, d, STAT_ITEMS_CARRIED_OFF)
        if game.trace is not None:
            game.say("carried_off", f"{d.name} carries {item.g.name} off the field", d, item)
    d.carrying = []
    if not d.major:
        game.disasters.remove(d)
        d.zone = "discard"
        d.pos = -1
        game.discard.append(d)
        for ally in game.disasters:
            if ally.ally_of is d:
                ally.ally_of = None  # without its primary it "will return to its normal behavior"
        if game.trace is not None:
            game.say("cycle", f"{d.name} completes its cycle and is discarded", d)
        return False
    d.pos = _entry_pos(game, edition, d.backward)
    if game.trace is not None:
        game.say("cycle", f"{d.name} completes its cycle and starts again", d)
    return True


def _entry_pos(game: Game, edition: Edition, backward: bool = False) -> int:
    """Where a disaster enters: the top of the rightmost column (the first open one when
    destroyed locations do not count for disasters); for a disaster moving back along the path
    (Change Direction), the path's other end."""
    path = game.field.path
    n = len(path)
    first = n - 1 if backward else 0
    if not combat_rules(edition).skip_destroyed:
        return first
    step = -1 if backward else 1
    locs = game.locs
    i = first
    while 0 <= i < n:
        if not locs[path[i]].destroyed:
            return i
        i += step
    return first


def _affect(game: Game, d: Dis, slot: int) -> None:
    """A non-combat disaster reaches characters: it counts as met, takes effect (its encoded
    effects, interpreter/turns.py) and, its condition done, is discarded or stays off the field
    while its effect lasts (set0 rulebook, "Maintenance Phase")."""
    bump_card(game, d, STAT_MET)
    if game.trace is not None:
        how = unplayed_label(d.card)
        game.say(
            "affect",
            f"{d.name} affects the party at {game.locs[slot].g.name}{how}",
            d,
            game.at(slot),
        )
    affect(game, d, slot)


def _steal(game: Game, d: Dis, carriers: list[Char], equipment: bool = False) -> None:
    """Steal: drop any item held under the location, take a random item (or equipment) from a
    random carrier, then run with one full movement (set0 rulebook, Part III "Steal": "If Najato
    already has an item card when it steals from a character, Najato will drop the item card it
    is carrying underneath its current location and then steals a new item card")."""
    loc = game.locs[game.field.path[d.pos]]
    loc.hidden_cards.extend(d.carrying)
    d.carrying = []
    victim = game.chance.pick(carriers)
    pile = victim.equipment if equipment else victim.items
    if ACT_SAFEGUARD in game.acts and not equipment:
        # Only items no card keeps from theft (SAFEGUARD: Classy Crooks); callers pass only
        # carriers holding such an item.
        options = stealable(game, victim, pile)
        item = options[game.chance.below(len(options))]
        pile.remove(item)
    else:
        item = pile.pop(game.chance.below(len(pile)))
    if equipment:
        refresh(game, victim)
    d.carrying.append(item)
    d.stolen = item
    bump_card(game, d, STAT_MET)
    if game.trace is not None:
        game.say(
            "steal",
            f"{d.name} steals {item.g.name} from {victim.name}",
            d,
            victim,
            item=item.cid,
        )


def move_disaster(
    game: Game, edition: Edition, policy: Policy, d: Dis, steps: int, hidden: int = -1
) -> None:
    """Move one disaster up to ``steps`` locations along the path, meeting characters as the
    set0 rulebook's "Maintenance Phase" describes; it passes over the group at ``hidden``
    (a card hides it: HIDE)."""
    rules = combat_rules(edition)  # the edition's rule options, read once per edition
    pickup_first = rules.pickup_first
    steal_again = rules.steal_again
    skip_destroyed = rules.skip_destroyed
    path = game.field.path
    chars = game.on_field()  # nobody moves during maintenance but the disasters
    if hidden >= 0:
        chars = [c for c in chars if c.slot != hidden]
    # A disaster's effects never change in play: look up once whether it has any for passing
    # and landing (most have none), rather than calling ``fire`` at every step.
    fx = d.fx
    on_passes = fx is not None and TRIGGER_PASSES in fx
    on_lands = fx is not None and TRIGGER_LANDS in fx
    fought = False
    while steps > 0 and d.zone == "field":
        nxt = _next_pos(game, path, skip_destroyed, d.pos, -1 if d.backward else 1)
        steps -= 1
        if nxt < 0:
            if not _leave_field(game, edition, d):
                return
            # A major disaster re-enters at the top right and keeps its remaining movement.
        else:
            d.pos = nxt
        slot = path[d.pos]
        if on_passes:
            fire(game, d, TRIGGER_PASSES, slot)
            if d.zone != "field":
                return
            slot = path[d.pos]
        # Most steps meet nobody: look before building the list of those met.
        met = _anyone_at(chars, slot)
        if not d.combat:
            if met:
                _affect(game, d, slot)
                return
            continue
        if pickup_first and not d.carrying:
            take_item_here(game, d)
        if not met:
            continue
        here = [c for c in chars if c.slot == slot and c.zone == "field"]
        # A stealer holding an item drops it and steals; under the 1998 guidelines not while
        # the item it holds is one it stole.
        may_steal = steal_again or d.stolen is None or d.stolen not in d.carrying
        if d.g.traits & TRAIT_BIT_STEALS_EQUIPMENT and may_steal:
            holders = [c for c in here if c.equipment and c.uid not in d.ignores]
            if holders:
                _steal(game, d, holders, equipment=True)
                steps = d.movement  # one full movement after a steal
                continue
        carriers = [c for c in here if c.items and c.uid not in d.ignores]
        if carriers:
            marks = carriers
            if ACT_SAFEGUARD in game.acts:
                marks = [c for c in carriers if stealable(game, c, c.items)]
            if d.g.traits & TRAIT_BIT_STEALS_ITEM and may_steal and marks:
                _steal(game, d, marks)
                steps = d.movement  # one full movement after a steal
                continue
            # It drops what it carries under the location and attacks the carrier.
            game.locs[slot].hidden_cards.extend(d.carrying)
            d.carrying = []
            fight(game, edition, policy, d, slot, "disaster")
            fought = True
            break
    if d.zone != "field":
        return
    if game.trace is not None:
        game.say(
            "disaster_move",
            f"{d.name} moves to {game.locs[path[d.pos]].g.name}",
            d,
            game.locs[path[d.pos]],
        )
    if on_lands and not fought:
        fire(game, d, TRIGGER_LANDS, path[d.pos])
        if d.zone != "field":
            return
    if not d.first_move_done and not fought:
        d.first_move_done = True
        # set0 rulebook: "After completing its first full movement, a combat disaster will
        # take an item card from underneath its current location." A movement cut short by a
        # combat is not complete: the pickup waits for the first full movement it completes.
        if d.combat and not pickup_first and not d.carrying:
            take_item_here(game, d)
    if not fought and d.combat and d.incapacitated_turn != game.turn:
        slot = path[d.pos]
        if slot != hidden and _any_unignored_at(game, d, slot):
            # "if the disaster completes a full movement and is at a location where there are
            # any characters, the disaster will also automatically declare an attack"
            fight(game, edition, policy, d, slot, "disaster")


def _anyone_at(chars: list[Char], slot: int) -> bool:
    """Any of ``chars`` still on the field at ``slot``."""
    return any(c.slot == slot and c.zone == "field" for c in chars)


def still_here(party: list[Char], slot: int) -> list[Char]:
    """The members of ``party`` still on the field at ``slot``: ``party`` itself when all are
    (most often: no list made), which nobody changes."""
    for c in party:
        if c.zone != "field" or c.slot != slot:
            return [c for c in party if c.zone == "field" and c.slot == slot]
    return party


def disaster_at(game: Game, slot: int) -> bool:
    """A face-up disaster at ``slot`` (``game.disasters_at`` without the list)."""
    path = game.field.path
    return any(path[d.pos] == slot for d in game.disasters)


def _any_unignored_at(game: Game, d: Dis, slot: int) -> bool:
    """Anyone on the field at ``slot`` whom ``d`` does not ignore (``game.at`` without the list)."""
    ignores = d.ignores
    return any(c.zone == "field" and c.slot == slot and c.uid not in ignores for c in game.chars)


def steal_when_revealed(
    game: Game, edition: Edition, policy: Policy, d: Dis, party: list[Char]
) -> bool:
    """A stealer revealed while scavenging "will steal an item from a scavenging character and
    will move" one full movement; the party may go on scavenging (set0 rulebook, Part III
    "Steal", the Najato example). False when nobody there has what it steals."""
    if d.g.traits & TRAIT_BIT_STEALS_ITEM:
        victims = [c for c in party if c.items and c.uid not in d.ignores]
        equipment = False
    else:
        victims = [c for c in party if c.equipment and c.uid not in d.ignores]
        equipment = True
    if victims and ACT_SAFEGUARD in game.acts and not equipment:
        victims = [c for c in victims if stealable(game, c, c.items)]
    if not victims:
        return False
    _steal(game, d, victims, equipment)
    move_disaster(game, edition, policy, d, d.movement)
    return True


def move_disasters(game: Game, edition: Edition, policy: Policy, newcomers: list[Dis]) -> None:
    """Maintenance: the disaster closest to completing its cycle moves first. Disasters drawn
    this turn enter at the top of the rightmost column at no cost; "Moves N" disasters drawn
    from the draw pile make N full movements, then stay for the rest of the game."""
    held: set[int] | None = None  # those a magnet pulled (none, most turns: no set made)
    for d in newcomers:
        start = _entry_pos(game, edition)
        place_disaster(game, d, start)
        if d.g.traits & TRAIT_BIT_ALLY and join_primary(game, d):
            continue
        if d.g.traits & TRAIT_BIT_MAGNET:
            pulled = _magnet(game, d)
            held = pulled if held is None else held | pulled
        if game.trace is not None:
            game.say(
                "enter",
                f"{d.name} enters the field at {game.locs[game.field.path[start]].g.name}",
                d,
                game.locs[game.field.path[start]],
            )
        if d.fx is not None:
            fire(game, d, TRIGGER_ENTERS, game.field.path[d.pos])
    order = _moving_order(game)
    hidden = hiding_slot(game) if ACT_HIDE in game.acts else -1  # Hiding Out
    for d in order:
        if d.zone != "field" or d.stationary or d.movement <= 0:
            continue
        if held is not None and d.uid in held:
            continue
        if d.incapacitated_turn == game.turn or d.ally_of is not None:
            continue
        times = d.g.moves_times
        if times is not None:
            if d in newcomers:
                for _ in range(times):
                    move_disaster(game, edition, policy, d, d.movement, hidden)
            d.stationary = True
        else:
            move_disaster(game, edition, policy, d, d.movement, hidden)
        # "When more than half the item cards are retrieved or removed from play, the game
        # immediately ends" (set0 rulebook, "Object of the Game"): check after every disaster.
        check_end(game, edition)
    for d in game.disasters:  # allies stay with their primary disaster
        if d.ally_of is not None and d.ally_of.zone == "field":
            d.pos = d.ally_of.pos


def _moving_order(game: Game) -> list[Dis]:
    """The face-up disasters by the steps left in their cycle, then by arrival: a stable
    insertion sort (a handful of disasters), the order ``sorted`` with the key
    ``(steps left, entered)`` gives, without a key tuple per disaster."""
    n = len(game.field.path)
    order: list[Dis] = []
    for d in game.disasters:
        left = cycle_steps_left(d, n)
        entered = d.entered
        i = len(order)
        while i > 0:
            o = order[i - 1]
            o_left = cycle_steps_left(o, n)
            if o_left < left or (o_left == left and o.entered <= entered):
                break
            i -= 1
        order.insert(i, d)
    return order


def join_primary(game: Game, d: Dis) -> bool:
    """An ally disaster moves at once to the nearest combat disaster and allies with it; it then
    stays with it and cannot attack (set0 rulebook, Part III "Ally Disaster")."""
    others = [o for o in game.disasters if o is not d and o.combat and o.ally_of is None]
    if not others:
        return False
    primary = min(others, key=lambda o: (abs(o.pos - d.pos), o.entered))
    d.pos = primary.pos
    d.ally_of = primary
    if game.trace is not None:
        game.say("ally", f"{d.name} allies with {primary.name}", d, primary)
    return True


def _magnet(game: Game, d: Dis) -> set[int]:
    """A magnet disaster pulls every face-up disaster able to move to its location; they count
    as having made their full movement (set0 rulebook, Part III "Magnet Disaster")."""
    pulled = set()
    for o in game.disasters:
        if o is not d and o.movement > 0 and not o.stationary:
            o.pos = d.pos
            pulled.add(o.uid)
    if game.trace is not None:
        game.say("magnet", f"{d.name} pulls {len(pulled)} disasters to its location")
    return pulled


def legal_route(game: Game, start: int, route: list[int]) -> list[int]:
    """The longest beginning of ``route`` whose every step is a legal move from the one before:
    to an adjacent location, from the haven onto its location, or into the haven from its
    location ("Move Phase"). A plan made before an earlier combat moved the party is cut where
    it stops being legal from where the party now stands."""
    field = game.field
    here = start
    for i, step in enumerate(route):
        if here == HAVEN:
            ok = step == field.haven_slot
        elif step == HAVEN:
            ok = here == field.haven_slot
        else:
            ok = step in field.neighbours[here]
        if not ok:
            return route[:i]
        if step == HAVEN:
            return route[: i + 1]
        here = step
    return route


def _names(party: list[Char]) -> str:
    """The party as the trace names it, at the moment it is named: a member bonked on the way
    has left ``party`` by then, so is not said to go on with it."""
    return ", ".join(c.name for c in party)


def move_party(
    game: Game,
    edition: Edition,
    policy: Policy,
    party: list[Char],
    route: list[int],
    paced: tuple[int, list[Use]] | None = None,
) -> list[Char]:
    """Walk a party along ``route`` (slots, or HAVEN). Entering the field from the haven costs 1,
    as does returning to it. Combat disasters on the way attack automatically; non-combat ones
    affect the party. Returns the members still standing where the party stopped. ``paced``:
    the party's movement and the uses that shaped it (``party_movement`` given a list of uses)
    when the caller has just worked them out for this party in this state, not worked out
    again."""
    if paced is None:
        uses: list[Use] = []
        budget = party_movement(game, party, uses)
    else:
        budget, uses = paced
    return [
        c
        for c in walk_party(game, edition, policy, party, route, budget, uses)
        if c.zone == "field"
    ]


def walk_party(
    game: Game,
    edition: Edition,
    policy: Policy,
    party: list[Char],
    route: list[int],
    budget: int,
    uses: list[Use],
) -> list[Char]:
    """:func:`move_party` given the party's movement and the uses that shaped it (worked out
    by the caller, phases.move_phase, for this party in this state), returning those it last
    kept with it, some perhaps since gone from the field (``move_party`` leaves them out): the
    Move phase, which never reads them, builds no list of them."""
    record_uses(game, uses)
    if len(route) > budget:
        raise ValueError(f"route of {len(route)} steps exceeds movement {budget}")
    if ACT_LEAP in game.acts:
        room = leap_room(game, party)
        if room is not None and len(route) > budget - room[0]:
            leaps(game, party)  # the move needs the jump: a use of the card (Jump)
    for i, step in enumerate(route):
        if step == HAVEN:
            for c in party:
                if c.zone == "field":
                    enter_haven(game, c)
            if game.trace is not None:
                verb = "returns" if len(party) == 1 else "return"
                game.say("move", f"{_names(party)} {verb} to the haven", party)
            return []
        for c in party:
            entering = c.zone != "field"
            c.zone = "field"
            c.slot = step
            if entering:
                refresh(game, c)  # global effects apply to characters on the field
        if game.fx:
            entered(game, step)  # ENTERS: the location moved onto (Capsule Corporation)
        last = i == len(route) - 1
        if game.trace is not None:
            game.say(
                "move",
                f"{_names(party)} {'stop at' if last else 'pass through'} {game.locs[step].g.name}",
                party,
                game.locs[step],
            )
        if not disaster_at(game, step):
            continue  # most steps meet none: no list of them made
        for d in game.disasters_at(step):  # a new list: a fight may change game.disasters
            if d.zone != "field" or d.ally_of is not None:
                continue
            if not d.combat:
                _affect(game, d, step)
                # Whom it bonked, killed, captured or sent away leaves the party at once: "The
                # bonked character must be removed from play for 1 complete turn" (set0
                # rulebook, Lexicon "Bonked"); it walks, scavenges and fights no more this turn.
                party = still_here(party, step)
                if not party:
                    return party
                continue
            if d.incapacitated_turn == game.turn or all(c.uid in d.ignores for c in party):
                continue  # incapacitated by a charm battle, or ignoring every one of them
            # "the disaster will automatically attack your characters whether they are
            # carrying item cards or not"
            result = fight(game, edition, policy, d, step, "disaster")
            party = still_here(party, step)
            # Defeated, or charmed out of the fight (incapacitated, or ignoring them all): the
            # party passes on.
            if result not in ("defeated", "charmed", "ignored") or not party:
                return party
    return party
