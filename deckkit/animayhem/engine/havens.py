"""Extra havens: built on the field instead of sitting dead in the hand.

set0 rulebook, "Haven": "Additional havens are put into your draw pile. When you draw a haven
card during the game, you can choose to have it be 'built' adjacent to a location card. To build
a haven, 3 of your characters must be at the location ... For two of your turns, including your
current turn, those 3 characters must remain at the location and cannot perform any actions,
except receive damage from combat." "Equip Phase": the haven card is played in the Equip phase;
"Each location card, however, can only have a maximum of one haven card annexed"; the three are
"incapacitated for two of your full turns".

How deckkit plays it (docs/interpretations.md): the builders are disabled (no move, scavenge or
attack; they still defend and may run away, 1998 guidelines 1.2) through the turn after the one
they start in; at the next Equip phase the haven is annexed and joins the player's havens, so
its standing effects reach the player's characters as the starting haven's do. A builder who
leaves the location (bonked, killed, captured, run away) ends the building at once
(``stop_abandoned``, after every phase): the other builders are free to act again and the haven
card goes back to the hand (rule option haven_abandoned; ``discard`` discards it). Characters do not
enter or leave by a built haven (the engine moves parties through the starting haven only),
and the 1998 bonk rule returns characters to the starting haven.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.codes import KIND_HAVEN
from deckkit.animayhem.engine.interpreter.standing import can_act
from deckkit.animayhem.engine.state import Building, Char, Copy, Game

if TYPE_CHECKING:
    from deckkit.animayhem.engine.policy import Policy

BUILDERS = 3  # "3 of your characters must be at the location"
BUILD_TURNS = 2  # "For two of your turns, including your current turn"


def annexed_slots(game: Game) -> set[int]:
    """Locations with a haven annexed or being built (at most one each)."""
    slots = {game.field.haven_slot, *game.annexed}
    slots.update(b.slot for b in game.building)
    return slots


def haven_sites(game: Game) -> list[tuple[int, list[Char]]]:
    """Where a haven could be started now: a location with no haven annexed or being built, not
    destroyed, where at least three of the player's characters stand able to act (with the
    characters there, in the order they came into play)."""
    taken = annexed_slots(game)
    building = {c.uid for b in game.building for c in b.builders}
    sites: dict[int, list[Char]] = {}
    for c in game.on_field():
        if c.slot in taken or game.locs[c.slot].destroyed or c.uid in building:
            continue
        if game.fx and not can_act(game, c):
            continue
        sites.setdefault(c.slot, []).append(c)
    return [(slot, chars) for slot, chars in sorted(sites.items()) if len(chars) >= BUILDERS]


def start_building(game: Game, haven: Copy, slot: int, builders: list[Char]) -> None:
    """Play ``haven`` from the hand: ``builders`` (three of the player's characters at ``slot``)
    rest this turn and the next."""
    assert haven.g.kind == KIND_HAVEN and len(builders) == BUILDERS
    assert all(c.zone == "field" and c.slot == slot for c in builders)
    game.hand.remove(haven)
    last = game.turn + BUILD_TURNS - 1
    before = [c.disabled_until for c in builders]
    for c in builders:
        c.disabled_until = max(c.disabled_until, last)
    if not game.fx:
        # The rest is enforced where the engine checks disabled characters, which it does in a
        # game with card effects live (a haven card always has an entry). A new table for this
        # game: the empty one is the run's (GameSetup.fx), shared by every game of the process,
        # and filling it would switch effects on in the games that follow.
        game.fx = {haven.cid: {}}
    game.building.append(Building(haven, slot, list(builders), last, before))
    if game.trace is not None:
        names = ", ".join(c.name for c in builders)
        game.say("equip", f"{names} start building {haven.g.name} at {game.locs[slot].g.name}")


def _stayed(b: Building) -> bool:
    """All of ``b``'s builders are still at its location."""
    return all(c.zone == "field" and c.slot == b.slot for c in b.builders)


def _stop(game: Game, b: Building, abandoned: str) -> None:
    """A building one of whose builders left stops: the haven card goes back to the hand, or to
    the discard pile under the rule option haven_abandoned=discard (set0 "Haven": "those 3
    characters must remain at the location"; no passage says what becomes of the card when one
    does not). The builders' rest was for building it ("cannot perform any actions" while they
    build): with the building stopped, those still in play are free to act again, unless
    something else disabled them beyond it."""
    (game.discard if abandoned == "discard" else game.hand).append(b.haven)
    for i, c in enumerate(b.builders):
        if c.disabled_until == b.last_turn:
            c.disabled_until = b.before[i]
    if game.trace is not None:
        to = "discarded" if abandoned == "discard" else "back to the hand"
        game.say("equip", f"building {b.haven.g.name} stops: a builder left ({to})")


def stop_abandoned(game: Game, abandoned: str = "hand") -> None:
    """Stop at once every building a builder has left (knocked out, captured, run away or sent
    off), freeing the others (``_stop``). The phases call it after each phase and before the
    Move phase's attacks, so builders left behind never rest for a building that has ended."""
    if not game.building:
        return
    keep: list[Building] = []
    for b in game.building:
        if _stayed(b):
            keep.append(b)
        else:
            _stop(game, b, abandoned)
    game.building = keep


def progress(game: Game, abandoned: str = "hand") -> None:
    """At the Equip phase: a haven whose builders rested their two turns is annexed; one whose
    builders did not all stay stops (``_stop``)."""
    keep: list[Building] = []
    for b in game.building:
        if not _stayed(b):
            _stop(game, b, abandoned)
        elif game.turn > b.last_turn:
            game.havens.append(b.haven)
            game.annexed[b.slot] = b.haven
            for c in game.chars:
                if c.zone in ("field", "haven"):
                    refresh(game, c)  # its standing bonuses reach the player's characters
            if game.trace is not None:
                where = game.locs[b.slot].g.name
                game.say("equip", f"{b.haven.g.name} is built beside {where}")
        else:
            keep.append(b)
    game.building = keep


def build_havens(game: Game, policy: Policy, abandoned: str = "hand") -> None:
    """The Equip phase's havens: finish or abandon those being built (``abandoned``: the rule
    option haven_abandoned), then play a haven card from the hand where the player chooses to
    build one ("You may play any number of haven cards")."""
    if game.building:
        progress(game, abandoned)
    for haven in [x for x in game.hand if isinstance(x, Copy) and x.g.kind == KIND_HAVEN]:
        sites = haven_sites(game)
        if not sites:
            return
        choice = policy.build_haven(game, haven, sites)
        if choice is None:
            continue
        slot, builders = choice
        allowed = dict(sites)
        if slot not in allowed or len(builders) != BUILDERS:
            continue  # the engine holds the rule whatever the player asks
        if any(c not in allowed[slot] for c in builders):
            continue
        start_building(game, haven, slot, builders)
