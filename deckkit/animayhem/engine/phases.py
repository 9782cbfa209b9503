"""The six phases of a solitaire turn: Discard, Reload, Maintenance, Equip, Move, Scavenge.

Set0 rulebook, Part II "Phases of the Turn" and Part III "Phase Structure"; the 1996 rules'
"Reload" and "Equip" paragraphs; 1998 guidelines 4.1 (end conditions checked at Discard).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Final

from deckkit.animayhem.construction.cards import CardType, PowerCard
from deckkit.animayhem.engine.abilities import carries_effects_for, enter_haven, refresh
from deckkit.animayhem.engine.codes import (
    ACT_STORE,
    KIND_FLASH_EFFECT,
    STAT_MET,
    TRIGGER_AFFECT,
    TRIGGER_PLAYED,
    TRIGGER_TURN,
    TYPE_ENHANCEMENT,
    TYPE_EQUIPMENT,
)
from deckkit.animayhem.engine.combat import GameOver, fight, take_from_hand
from deckkit.animayhem.engine.endgame import check_end, game_over
from deckkit.animayhem.engine.havens import build_havens, stop_abandoned
from deckkit.animayhem.engine.interpreter.common import unplayed_label
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.piles import extra_equipment, waived_for
from deckkit.animayhem.engine.interpreter.standing import can_move, record_uses, stored
from deckkit.animayhem.engine.interpreter.turns import affect, start_turn
from deckkit.animayhem.engine.interpreter.vehicles_and_forms import (
    change_forms,
    stopped_at,
    waits_to_replace,
)
from deckkit.animayhem.engine.movement import disaster_at, legal_route, move_disasters, walk_party
from deckkit.animayhem.engine.queries import (
    HAVEN,
    Use,
    equips_anywhere,
    haven_equips,
    party_movement,
    trim_to_stop,
)
from deckkit.animayhem.engine.scavenge import location_attack, scavenge
from deckkit.animayhem.engine.state import Char, Copy, Dis, Game, bump_card

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy

# A global effect without uses or duration lasts 5 of your turns (set0 rulebook, "Global Effect").
GLOBAL_TURNS: Final = 5
# The Equip phase's plays: one enhancement, one equipment (set0 rulebook, "Equip Phase").
_KINDS: Final[tuple[CardType, ...]] = (TYPE_ENHANCEMENT, TYPE_EQUIPMENT)


def last_turn(turn: int, duration: int) -> int:
    """The last turn a card played on ``turn`` for ``duration`` turns is in play: the duration
    counts the turn it is played (set0 rulebook, Lexicon "Duration"); ``expire_globals`` discards
    it at the start of the turn after."""
    return turn + duration - 1


class _PhaseRules:
    """The rule options the phases read, settled once per edition: each is an attribute of an
    interpreted dataclass (``Edition.play``), read here once instead of several times a turn."""

    __slots__ = (
        "bonked_to_hand",
        "bonked_to_haven",
        "edition",
        "enhance_anywhere",
        "guidelines",
        "hand_limit",
        "haven_abandoned",
        "max_on_field",
        "max_party",
        "stopped",
    )

    def __init__(self, edition: Edition) -> None:
        self.edition = edition  # held, so its id is not reused while this record lives
        play = edition.play
        self.guidelines = play.end_conditions == "guidelines1998"
        self.hand_limit = play.hand_limit
        self.bonked_to_hand = play.bonked_return == "hand"
        self.bonked_to_haven = play.bonked_return == "haven"
        self.haven_abandoned: str = play.haven_abandoned
        self.enhance_anywhere = not play.enhance_in_haven_only
        self.stopped = play.location_attack == "stopped"
        self.max_on_field = play.max_on_field
        self.max_party = play.max_party


class _LatestRules:
    """The phase rules read last: a game asks for the same edition's a few times a turn."""

    __slots__ = ("rules",)

    def __init__(self) -> None:
        self.rules: _PhaseRules | None = None


_LATEST: Final = _LatestRules()
# The phase rules by edition id (an edition is frozen: the same edition, the same rules);
# cleared when full, as the other identity-keyed tables are.
_RULES: Final[dict[int, _PhaseRules]] = {}
_RULES_KEPT: Final = 64


def _rules(edition: Edition) -> _PhaseRules:
    """The phase rule options of ``edition``."""
    r = _LATEST.rules
    if r is not None and r.edition is edition:
        return r
    r = _RULES.get(id(edition))
    if r is None or r.edition is not edition:
        r = _PhaseRules(edition)
        if len(_RULES) >= _RULES_KEPT:
            _RULES.clear()
        _RULES[id(edition)] = r
    _LATEST.rules = r
    return r


def discard_phase(game: Game, edition: Edition, policy: Policy) -> None:
    """Discard any cards from the hand (set0 rulebook, "Discard Phase")."""
    game.phase = "discard"
    if _rules(edition).guidelines:
        check_end(game, edition, at_discard=True)
    _discard(game, policy)


def _discard(game: Game, policy: Policy) -> None:
    """The Discard phase after its end check."""
    for x in policy.discards(game):
        take_from_hand(game, x)
        set_zone(x, "discard")
        game.discard.append(x)
        played = x.g.kind == KIND_FLASH_EFFECT
        if game.trace is not None:
            # A discarded card's text never acts; a played one's is labelled by its coverage.
            how = unplayed_label(x.card) if played else ""
            game.say("discard", f"{'plays' if played else 'discards'} {x.g.name}{how}")
        if played and isinstance(x, Copy) and x.cid in game.fx:
            # A flash effect played out of the hand acts on the character the player picks.
            on = policy.flash_target(game, x)
            fire(game, x, TRIGGER_PLAYED, on.slot if on is not None else -1, holder=on)


def set_zone(x: Copy | Char | Dis, zone: str) -> None:
    """Characters and disasters remember their zone; other cards are placed by list alone."""
    if isinstance(x, (Char, Dis)):  # a tuple: no union object built per call
        x.zone = zone


def _rested(game: Game) -> list[Char]:
    """Bonked characters who have sat out one full turn of their owner's (set0 rulebook,
    "Reload Phase"; 1998 guidelines, "Bonked": "Set Aside for 1 Turn")."""
    return [c for c in game.chars if c.zone == "bonked" and game.turn >= c.bonked_turn + 2]


def reload_phase(game: Game, edition: Edition, policy: Policy) -> None:
    """Bonked characters who sat out a full turn return to the hand where the edition sends them
    there, then draw one card at a time until the hand holds 7 or a disaster is drawn (set0
    rulebook, "Reload Phase"). A disaster drawn waits in ``game.drawn`` to enter the field in the
    Maintenance phase."""
    game.phase = "reload"
    rules = _rules(edition)
    limit = rules.hand_limit
    if ACT_STORE in game.acts:
        limit += stored(game)  # flash effects kept aside do not count (Refuge)
    if rules.bonked_to_hand:
        for c in _rested(game):
            c.zone = "hand"
            c.health = c.health_max
            game.hand.append(c)
            if game.trace is not None:
                game.say("reload", f"{c.name} returns to the hand")
    reshuffled = False
    while len(game.hand) < limit:
        if not game.draw_pile:
            if not game.discard or reshuffled:
                # Once through the whole deck: what is left fizzles without a target, and a
                # player would stop drawing rather than cycle it forever.
                break
            reshuffled = True
            # Reshuffle the discard pile, defeated disasters included.
            game.draw_pile, game.discard = game.discard, []
            for x in game.draw_pile:
                set_zone(x, "draw")
            game.chance.shuffle(game.draw_pile)
            if game.trace is not None:
                game.say("reload", "reshuffles the discard pile into a new draw pile")
        x = game.draw_pile.pop()
        if isinstance(x, Dis):
            x.forget()
            x.zone = "drawn"
            if game.trace is not None:
                game.say("draw", f"draws disaster {x.name}", target=x)
            if not x.combat and x.movement <= 0:
                # Without movement it goes straight to its target and takes effect. A targeted
                # card with no valid target is discarded and the draw goes on (set0 rulebook,
                # "Reload Phase": "you simply discard it. Then, you continue to draw").
                if game.trace is not None:
                    how = unplayed_label(x.card)
                    game.say("affect", f"{x.name} takes effect{how}", x)
                if x.fx is not None and TRIGGER_AFFECT in x.fx and not affect(game, x, -1):
                    if game.trace is not None:
                        game.say("affect", f"{x.name} finds no target and is discarded", x)
                    continue
                bump_card(game, x, STAT_MET)
                if x.fx is None or TRIGGER_AFFECT not in x.fx:
                    x.zone = "discard"
                    game.discard.append(x)
            else:
                game.drawn.append(x)
            break
        set_zone(x, "hand")
        game.hand.append(x)


def equip_phase(game: Game, edition: Edition, policy: Policy) -> None:
    """Bonked characters back to the haven (1998 guidelines), characters from the hand to the
    haven; one enhancement, one equipment (on a character in a haven) and one global effect
    (set0 rulebook, "Equip Phase")."""
    game.phase = "equip"
    rules = _rules(edition)
    if rules.bonked_to_haven:
        # 1998 guidelines, "Bonked": back in play, health restored, "at his owner's starting
        # Haven during the owner's next Equip phase" (not through the hand).
        for c in _rested(game):
            c.health = c.health_max
            enter_haven(game, c)
            if game.trace is not None:
                game.say("equip", f"{c.name} returns from being bonked to the haven", c)
    # Extra havens drawn: built on the field (havens.py; rule option haven_abandoned).
    build_havens(game, policy, rules.haven_abandoned)
    for c in [x for x in game.hand if isinstance(x, Char)]:
        if game.acts and waits_to_replace(c):
            continue  # a form card enters only by replacing its character (REPLACE)
        if policy.bring_character(game, c):
            take_from_hand(game, c)
            enter_haven(game, c)
            if game.trace is not None:
                game.say("equip", f"{c.name} enters the haven", c)
    anywhere = rules.enhance_anywhere
    kinds = _KINDS
    if game.acts:
        more = extra_equipment(game)  # Bulma (EXTRA_EQUIP)
        if more:
            kinds = _KINDS + (TYPE_EQUIPMENT,) * more
    for kind in kinds:
        choice = policy.power_card(game, kind, anywhere)
        if choice is None:
            continue
        copy, c = choice
        card = copy.card
        assert isinstance(card, PowerCard)
        take_from_hand(game, copy)
        (c.enhancements if kind is TYPE_ENHANCEMENT else c.equipment).append(copy)
        refresh(game, c)
        if game.acts:
            waived_for(game, c, card)  # played on a character only its own rule lets use it
            if c.zone == "field" and kind is TYPE_EQUIPMENT:
                # On the field: its own rule (Mousse), else its haven's (Squad Bay).
                uses: list[Use] = []
                equips_anywhere(game, c, uses, card) or haven_equips(game, card, uses)
                record_uses(game, uses)
        if game.trace is not None:
            game.say("equip", f"plays {card.name} on {c.name}", target=c, card=card.id)
    g = policy.global_effect(game)
    if g is not None:
        card = g.card
        assert isinstance(card, PowerCard)
        take_from_hand(game, g)
        game.globals_in_play.append((g, last_turn(game.turn, GLOBAL_TURNS)))
        for c in game.on_field():
            refresh(game, c)
        if game.trace is not None:
            game.say("equip", f"plays global effect {card.name}", card=card.id)
        if card.id in game.fx:
            on = policy.flash_target(game, g)
            fire(game, g, TRIGGER_PLAYED, on.slot if on is not None else -1, holder=on)


def expire_globals(game: Game) -> None:
    keep = []
    for g, last in game.globals_in_play:
        if game.turn > last:
            game.discard.append(g)
        else:
            keep.append((g, last))
    if len(keep) != len(game.globals_in_play):
        game.globals_in_play = keep
        for c in game.on_field():
            refresh(game, c)


def move_phase(game: Game, edition: Edition, policy: Policy) -> None:
    """Parties move; every group standing on a location with damage it cannot scavenge, having
    stopped there or stayed, is attacked by it once this turn; the party may then attack a
    combat disaster it shares a location with."""
    game.phase = "move"
    rules = _rules(edition)
    # Who ended a move on a location this turn, kept only under location_attack=stopped.
    stopped: set[int] | None = set() if rules.stopped else None
    max_on_field = rules.max_on_field
    max_party = rules.max_party
    for planned, route in policy.moves(game, edition):
        # A plan made at the start of the phase can be overtaken by an earlier party's combat
        # (a member bonked, a vehicle dropped): move who is still there, as far as they can.
        # (Most often everyone is: the plan's own list, never changed, is moved then.)
        start = planned[0].slot if planned and planned[0].zone == "field" else HAVEN
        party = planned
        for c in planned:
            if not _still_at(c, start):
                party = [c for c in planned if _still_at(c, start)]
                break
        if game.fx:
            for c in party:
                if not can_move(game, c):  # disabled or held in place
                    party = [c for c in party if can_move(game, c)]
                    break
        if start == HAVEN:
            # At most 6 characters on the field ("Character Cards"; "Equip Phase").
            room = max(0, max_on_field - _on_field_count(game))
            if len(party) > room:
                party = party[:room]
        if max_party and len(party) > max_party:
            party = party[:max_party]  # fifth2018: at most 4 in a group
        if not party or not route:
            continue
        # Re-validate the plan from where the party stands now (a retreat may have moved it).
        route = legal_route(game, start, route)
        # The uses that shape the pace listed now, and both handed to the move: its movement
        # not worked out twice (nothing in between changes it; the uses count only if it moves).
        uses: list[Use] = []
        budget = party_movement(game, party, uses)
        if len(route) > budget:
            route = route[:budget]
        route = trim_to_stop(game, party, route)
        if not route:
            continue
        walk_party(game, edition, policy, party, route, budget, uses)
        # Who is still on the field: most often the whole party (no list made then).
        arrived = party
        for c in party:
            if c.zone != "field":
                arrived = [c for c in party if c.zone == "field"]
                break
        if stopped is not None:
            stopped.update(c.uid for c in arrived)
        if game.fx and arrived:
            stopped_at(game, arrived[0].slot, arrived)  # STOPS: the location, cards carried
        check_end(game, edition)  # the game ends the moment a side holds the majority
    # set0 rulebook, "Locations with Damage": "The location will attack once per turn" the
    # group that stops on it without the skills; a group that stays is still stopped there
    # (rule option location_attack=standing), or only one that ended a move there this turn
    # (location_attack=stopped).
    if _any_damaging(game):  # (most fields have none: no slots listed then)
        locs = game.locs
        for slot in occupied_slots(game):
            if not locs[slot].damaging:
                continue  # no damage: no attack (location_attack's own first test), no list
            group = game.at(slot)
            if stopped is not None:
                group = [c for c in group if c.uid in stopped]
                if not group:
                    continue
            location_attack(game, edition, group, slot)
    check_end(game, edition)
    if game.building:
        stop_abandoned(game, rules.haven_abandoned)  # a builder knocked out just now
    party_attacks(game, edition, policy)


def _any_damaging(game: Game) -> bool:
    """A location of the field prints damage (``Loc.damaging``)."""
    return any(loc.damaging for loc in game.locs)


def _still_at(c: Char, start: int) -> bool:
    """A planned mover still where the plan found it (``start``: a slot, or HAVEN)."""
    return (c.zone == "field" and c.slot == start) or (c.zone == "haven" and start == HAVEN)


def occupied_slots(game: Game) -> list[int]:
    """The locations characters stand on, in slot order (``sorted({c.slot for c in
    game.on_field()})`` without the set and the list of characters)."""
    occupied = 0  # a bit per slot: no look-up in the list, no sort
    for c in game.chars:
        if c.zone == "field":
            occupied |= 1 << c.slot
    slots: list[int] = []
    slot = 0
    while occupied:
        if occupied & 1:
            slots.append(slot)
        occupied >>= 1
        slot += 1
    return slots


def _on_field_count(game: Game) -> int:
    """``len(game.on_field())`` without the list."""
    return sum(1 for c in game.chars if c.zone == "field")


def party_attacks(game: Game, edition: Edition, policy: Policy) -> None:
    """The end of the Move phase: each party may attack a combat disaster at its location."""
    if not game.disasters:
        return  # none face up: no slots listed
    for slot in occupied_slots(game):
        if not disaster_at(game, slot):
            continue  # most parties share a location with none: no list of them made
        for d in game.disasters_at(slot):  # a new list: a fight may change game.disasters
            if d.ally_of is not None:
                continue  # "characters must defeat the primary disaster before attacking the ally"
            if d.combat and d.zone == "field" and policy.attack(game, d, game.at(slot)):
                fight(game, edition, policy, d, slot, "party")
                check_end(game, edition)


def scavenge_phase(game: Game, edition: Edition, policy: Policy) -> None:
    game.phase = "scavenge"
    for slot in occupied_slots(game):
        party = game.at(slot)
        if party and policy.scavenge(game, party, slot):
            scavenge(game, edition, policy, party, slot)
            check_end(game, edition)


def maintenance_phase(game: Game, edition: Edition, policy: Policy) -> None:
    """Disasters drawn this turn enter; every disaster moves (set0 rulebook, "Maintenance")."""
    game.phase = "maintenance"
    drawn, game.drawn = game.drawn, []
    if game.fx:
        if _turn_effects(game):  # (most often none: no list of them made)
            acting = game.disasters.copy()  # face up, then lasting off the field
            for d, _ in game.lasting:
                acting.append(d)
            for d in acting:
                if d.fx is not None and TRIGGER_TURN in d.fx:
                    fire(game, d, TRIGGER_TURN, game.slot_of(d) if d.zone == "field" else -1)
        for c in game.chars:
            if c.zone not in ("field", "haven"):
                continue
            if c.fx is not None and TRIGGER_TURN in c.fx:
                fire(game, c, TRIGGER_TURN, c.slot)
            if not (c.items or c.equipment or c.enhancements):
                continue  # carries nothing (most): no pile looked at
            if not carries_effects_for(game, c, TRIGGER_TURN):
                continue
            for x in (*c.equipment, *c.enhancements, *c.items):
                fx = game.fx.get(x.cid)
                if fx is not None and TRIGGER_TURN in fx:
                    fire(game, x, TRIGGER_TURN, c.slot, holder=c)
        for h in game.havens:
            fx = game.fx.get(h.cid)
            if fx is not None and TRIGGER_TURN in fx:
                fire(game, h, TRIGGER_TURN, -1)
        if game.globals_in_play:
            for g, _ in list(game.globals_in_play):
                fx = game.fx.get(g.cid)
                if fx is not None and TRIGGER_TURN in fx:
                    fire(game, g, TRIGGER_TURN, -1, holder=policy.flash_target(game, g))
        change_forms(game)  # a form card in the hand replaces its character (REPLACE)
    move_disasters(game, edition, policy, drawn)


def _turn_effects(game: Game) -> bool:
    """A face-up or lasting disaster has effects at the start of the turn (TURN): those the
    Maintenance phase fires first, from a list of them made only then (a disaster fired may
    change ``game.disasters``)."""
    for d in game.disasters:
        if d.fx is not None and TRIGGER_TURN in d.fx:
            return True
    return any(d.fx is not None and TRIGGER_TURN in d.fx for d, _ in game.lasting)


def play_turn(
    game: Game,
    edition: Edition,
    policy: Policy,
    after_phase: Callable[[Game], None] | None = None,
) -> None:
    """One full turn: the six phases in order, end conditions checked after each as the edition
    says (immediately, or at the Discard phase under the 1998 guidelines); GameOver raised when
    the game ends. ``after_phase`` lets tests check invariants between phases."""
    if turn(game, edition, policy, after_phase):
        raise GameOver(game.ended or "")


def turn(
    game: Game,
    edition: Edition,
    policy: Policy,
    after_phase: Callable[[Game], None] | None = None,
) -> bool:
    """:func:`play_turn`, True when the game ended in it. The end checks between the phases
    return instead of raising GameOver (the 1998 guidelines' games all end at the Discard
    phase's: endgame.game_over); an end within a phase (a fight, a move) still raises."""
    game.turn += 1
    game.scavenge_started.clear()
    game.done_scavenging.clear()
    expire_globals(game)
    if game.fx:
        start_turn(game)
    # The phases of PHASES, called by name: the compiled engine calls each directly, not
    # through a function object.
    game.phase = "discard"
    if _rules(edition).guidelines and game_over(game, edition, at_discard=True):
        return True
    _discard(game, policy)
    if _phase_done(game, edition, after_phase):
        return True
    reload_phase(game, edition, policy)
    if _phase_done(game, edition, after_phase):
        return True
    maintenance_phase(game, edition, policy)
    if _phase_done(game, edition, after_phase):
        return True
    equip_phase(game, edition, policy)
    if _phase_done(game, edition, after_phase):
        return True
    move_phase(game, edition, policy)
    if _phase_done(game, edition, after_phase):
        return True
    scavenge_phase(game, edition, policy)
    return _phase_done(game, edition, after_phase)


def _phase_done(game: Game, edition: Edition, after_phase: Callable[[Game], None] | None) -> bool:
    """After each phase: the end conditions (True: the game is over), a haven's building a
    builder left stopped (its other builders free again: havens.stop_abandoned), then the
    tests' check."""
    if game_over(game, edition):
        return True
    if game.building:
        stop_abandoned(game, _rules(edition).haven_abandoned)
    if after_phase is not None:
        after_phase(game)
    return False


PHASES: tuple[Callable[[Game, Edition, Policy], None], ...] = (
    discard_phase,
    reload_phase,
    maintenance_phase,
    equip_phase,
    move_phase,
    scavenge_phase,
)
