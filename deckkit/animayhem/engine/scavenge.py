"""Scavenging a location: the skill test, revealing disasters one at a time, retrieving items.

Set0 rulebook, Part II "Scavenge Phase"; Part I "Skill Listings", "Locations with Defense",
"Locations with Damage"; the sample "Scavenging & Combat With One Disaster"; 1998 guidelines 2.9
(a character may only start scavenging once per turn).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.cardrules import met, requirement_met
from deckkit.animayhem.engine.codes import (
    KIND_ITEM,
    STAT_ITEMS_RETRIEVED,
    STAT_MET,
    STAT_SCAVENGE_ATTEMPTS,
    STAT_SCAVENGE_SUCCESSES,
    TRAIT_BIT_ALLY,
    TRAIT_BIT_STEALS_EQUIPMENT,
    TRAIT_BIT_STEALS_ITEM,
    TRIGGER_ENTERS,
    TRIGGER_SCAVENGED,
)
from deckkit.animayhem.engine.combat import combat_rules, fight, health_state, knock_out
from deckkit.animayhem.engine.interpreter.common import unplayed_label
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.standing import can_act, record_uses
from deckkit.animayhem.engine.interpreter.turns import affect
from deckkit.animayhem.engine.movement import (
    join_primary,
    place_disaster,
    steal_when_revealed,
    still_here,
)
from deckkit.animayhem.engine.queries import Use, barred, blocked, unlocked
from deckkit.animayhem.engine.state import DEF, DMG, Char, Game, bump_card

if TYPE_CHECKING:
    from deckkit.animayhem.construction.editions import Edition
    from deckkit.animayhem.engine.policy import Policy


def passes_skill_test(game: Game, party: list[Char], slot: int) -> bool:
    """The party has the listed skills, or (a location with defense) can attack it with a
    combined damage greater than its defense; no combat cards are drawn for that."""
    place = game.locs[slot]
    uses: list[Use] = []
    if game.acts and barred(game, party, slot, uses):
        record_uses(game, uses)
        return False  # the location's own rule bars one of them (BAR)
    req = place.g.requirement
    assert req is not None  # every location prints a skill listing
    if met(req, party):
        return True
    if game.fx and unlocked(game, party, slot, uses):
        record_uses(game, uses)
        return True
    loc = place.card
    return loc.defense is not None and sum(c.cur[DMG] for c in party) > loc.defense


def location_attack(game: Game, edition: Edition, party: list[Char], slot: int) -> None:
    """A location with damage attacks a party that stops on it without the required skills,
    every member, no combat cards (set0 rulebook, "Locations with Damage"). The Move phase calls
    it once per turn for every group on the field. The same passage's "once per combat round"
    during a combat at the location needs a call from the combat round and is not simulated."""
    loc = game.locs[slot].card
    if loc.damage is None or requirement_met(loc.requirement, party):
        return
    for c in party:
        loss = loc.damage - c.cur[DEF]
        loss = loss if loss >= 1 else 0
        start = c.health
        c.health -= loss
        if game.trace is not None:
            game.say(
                "location_attack",
                f"{loc.name} deals {loc.damage} - {c.cur[DEF]} = {loss} to {c.name}",
            )
        state = health_state(combat_rules(edition).kill, c.health, start, loc.damage, c.health_max)
        if state != "ok":
            knock_out(game, c, state, None)
        else:
            c.health = c.health_max


def scavenge(game: Game, edition: Edition, policy: Policy, party: list[Char], slot: int) -> bool:
    """Try to scavenge ``slot`` with ``party``; True when the location was cleared."""
    loc = game.locs[slot]
    if slot in game.done_scavenging or not (loc.hidden_disasters or loc.hidden_cards):
        return False
    if any(c.uid in game.scavenge_started for c in party):
        return False
    if game.fx:
        if blocked(game, slot):
            return False
        for c in party:
            if not can_act(game, c):  # disabled characters cannot scavenge
                party = [c for c in party if can_act(game, c)]
                if not party:
                    return False
                break
    if not passes_skill_test(game, party, slot):
        return False
    bump_card(game, loc.copy, STAT_SCAVENGE_ATTEMPTS)
    for c in party:
        game.scavenge_started.add(c.uid)
    if game.trace is not None:
        game.say(
            "scavenge", f"{', '.join(c.name for c in party)} scavenge {loc.g.name}", party, loc
        )
    while loc.hidden_disasters:
        d = loc.hidden_disasters.pop(0)
        if game.trace is not None:
            game.say("reveal", f"revealed {d.name}" + (" (combat)" if d.combat else ""), target=d)
        if not d.combat:
            # A non-combat disaster takes effect on the scavenging party, then is cleared.
            bump_card(game, d, STAT_MET)
            if game.trace is not None:
                how = unplayed_label(d.card)
                game.say("affect", f"{d.name} takes effect on the party{how}", d)
            affect(game, d, slot)
        else:
            # A disaster revealed from under a location starts there, face up; "since the
            # disaster is encountered during scavenging, the disaster will attack".
            place_disaster(game, d, game.field.path_index[slot])
            # "If this disaster is revealed from a location, however, it does not move."
            d.stationary = d.g.moves_times is not None
            if d.fx is not None:
                fire(game, d, TRIGGER_ENTERS, slot)
                # An effect as it enters may knock scavengers out: they leave the party now.
                party = still_here(party, slot)
            if d.zone != "field" or not party:
                pass  # it left play as it entered, or nobody is left to meet it
            elif d.g.traits & TRAIT_BIT_ALLY and join_primary(game, d):
                pass
            else:
                steals = d.g.traits & (TRAIT_BIT_STEALS_ITEM | TRAIT_BIT_STEALS_EQUIPMENT) != 0
                if steals and steal_when_revealed(game, edition, policy, d, party):
                    result = "stole"  # it ran off with the card: the party may scavenge on
                else:
                    result = fight(game, edition, policy, d, slot, "disaster")
                # A disaster charmed instead of fought (incapacitated, or ignoring the party)
                # is dealt with unless the rule option scavenge_after_charm says the attempt
                # stops ("Scavenge Phase": "must defeat it in combat to continue").
                passed = result in ("defeated", "stole") or (
                    result in ("charmed", "ignored") and combat_rules(edition).passes_charmed
                )
                if not passed:
                    game.done_scavenging.add(slot)
                    return False
        # Whoever the disaster knocked out, captured or sent away has left the party at once
        # (set0 rulebook, Lexicon "Bonked": "removed from play for 1 complete turn").
        party = still_here(party, slot)
        if game.fx and blocked(game, slot):
            # The disaster just cleared blocked the location (BLOCK: Falling Debris blocks it
            # for 3 turns): no party may scavenge it (docs/effects.md, ``block``), so the
            # attempt ends here, before the next disaster or the cards underneath ("Scavenge
            # Phase": the party clears each disaster "to continue").
            game.done_scavenging.add(slot)
            if game.trace is not None:
                game.say("scavenge", f"{loc.g.name} is blocked: the party stops scavenging it")
            return False
        if not party:
            game.done_scavenging.add(slot)
            return False
        if loc.hidden_disasters and not policy.continue_scavenging(game, party, slot):
            game.done_scavenging.add(slot)
            if game.trace is not None:
                game.say("scavenge", f"the party stops scavenging {loc.g.name}")
            return False
    # All disasters cleared: retrieve every non-disaster card underneath.
    cards, loc.hidden_cards = loc.hidden_cards, []
    for x in cards:
        carrier = policy.carrier_for(game, party, x)
        if x.g.kind == KIND_ITEM:
            carrier.items.append(x)
            if x.cid in game.fx:
                refresh(game, carrier)  # an item's standing effects (interpreter/)
            bump_card(game, carrier, STAT_ITEMS_RETRIEVED)
        else:
            carrier.equipment.append(x)
            refresh(game, carrier)
        if game.trace is not None:
            game.say("retrieve", f"{carrier.name} retrieves {x.g.name}", carrier, x)
    bump_card(game, loc.copy, STAT_SCAVENGE_SUCCESSES)
    fire(game, loc.copy, TRIGGER_SCAVENGED, slot)
    game.scavenged.add(slot)
    game.done_scavenging.add(slot)
    return True
