"""Engine paths held to the passage they follow: a scavenge stopped by the block its own
disaster puts down, knocked-out characters leaving their party at once, builders set free when
a haven's building stops, one reach for every effect that takes or destroys a card under a
location, and the special case of a charm battle lost by everyone by edition. Each test sets up
the position by hand on the nine-location field (tests/engine_helpers.py)."""

from __future__ import annotations

from dataclasses import replace

from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.vocabulary import Trigger
from deckkit.animayhem.engine.combat import fight, knock_out
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.standing import can_act
from deckkit.animayhem.engine.movement import move_party
from deckkit.animayhem.engine.phases import equip_phase, move_phase
from deckkit.animayhem.engine.policy import Policy
from deckkit.animayhem.engine.scavenge import scavenge
from deckkit.animayhem.engine.state import DMG, Char, Copy, Dis, Game
from tests.engine_helpers import (
    ScriptedPolicy,
    add_char,
    copy_of,
    edition,
    effect_table,
    entry_of,
    new_disaster,
    on_field,
    stack_combat_pile,
)

ED = edition("guidelines1998")
CATHEDRAL = 3  # NINE's "Cathedral": Investigation or Priest


def encode(game: Game, x: Dis | Char, body: str) -> None:
    """Give a card on the table the effects ``body`` encodes (TOML of one entry)."""
    x.fx = game.fx[x.card.id] = entry_of(x.card, body)


DEBRIS = (
    'effects = [{ when = "affect", do = "bonk", target = "here", exclude = "Flying" }, '
    '{ when = "affect", do = "block", target = "location", turns = 3 }]'
)


def test_scavenge_stops_at_the_block_its_revealed_disaster_puts_down() -> None:
    """set0 rulebook, "Scavenge Phase": the party clears each disaster underneath "in order for
    the party to continue"; Falling Debris blocks its location for 3 turns (its card_db entry),
    and no party may scavenge a blocked location (docs/effects.md, ``block``). Krillin (Flying,
    Priest) is not bonked by the Debris he reveals at Cathedral, but the location it blocks is
    closed to him: he neither reveals the next disaster nor retrieves the item underneath."""
    game = effect_table()
    krillin = add_char(game, "Krillin", CATHEDRAL)
    debris = new_disaster(game, "Falling Debris")
    encode(game, debris, DEBRIS)
    behind = new_disaster(game, "Bugrom, Type 1")
    picture = copy_of(game, "Family Picture")
    loc = game.locs[CATHEDRAL]
    loc.hidden_disasters = [debris, behind]
    loc.hidden_cards = [picture]
    assert not scavenge(game, ED, ScriptedPolicy(), [krillin], CATHEDRAL)
    assert krillin.zone == "field" and debris.zone == "discard"
    assert loc.hidden_disasters == [behind] and loc.hidden_cards == [picture]
    assert picture not in krillin.items
    assert CATHEDRAL in game.done_scavenging


def test_scavenge_with_only_the_blocking_disaster_retrieves_nothing() -> None:
    """The same block with the Debris the last disaster underneath: the cards under a blocked
    location are not retrieved (set0 "Scavenge Phase"; Falling Debris' card text)."""
    game = effect_table()
    krillin = add_char(game, "Krillin", CATHEDRAL)
    debris = new_disaster(game, "Falling Debris")
    encode(game, debris, DEBRIS)
    picture = copy_of(game, "Family Picture")
    loc = game.locs[CATHEDRAL]
    loc.hidden_disasters = [debris]
    loc.hidden_cards = [picture]
    assert not scavenge(game, ED, ScriptedPolicy(), [krillin], CATHEDRAL)
    assert loc.hidden_cards == [picture] and not krillin.items
    assert CATHEDRAL not in game.scavenged


def test_scavenger_bonked_by_a_revealed_disaster_retrieves_nothing() -> None:
    """set0 rulebook, Lexicon "Bonked" ("removed from play for 1 complete turn") on the
    scavenging path: a combat disaster whose effect as it enters bonks A-ko and then takes it out
    of play leaves Krillin to go on; the item underneath goes to him, never to the bonked A-ko,
    who drops everything and sits the turn out."""
    game = effect_table()
    a = add_char(game, "A-ko Magami", CATHEDRAL)
    k = add_char(game, "Krillin", CATHEDRAL)
    ambush = new_disaster(game, "Bugrom, Type 1")
    encode(
        game,
        ambush,
        'effects = [{ when = "enters", do = "bonk", target = "here", exclude = "Flying" }, '
        '{ when = "enters", do = "discard", target = "self" }]',
    )
    picture = copy_of(game, "Family Picture")
    loc = game.locs[CATHEDRAL]
    loc.hidden_disasters = [ambush]
    loc.hidden_cards = [picture]
    assert scavenge(game, ED, ScriptedPolicy(), [a, k], CATHEDRAL)
    assert a.zone == "bonked" and not a.items
    assert k.items == [picture]


BONK_HERE = 'effects = [{ when = "affect", do = "bonk", target = "here" }]'


def test_bonked_while_walking_leaves_the_party_at_once() -> None:
    """set0 rulebook, Lexicon "Bonked": "The bonked character must be removed from play for 1
    complete turn". A non-combat disaster passed on the way (Satellite Strike, which bonks
    everyone there) ends the walk: the party is not put back on the field at the next step, and
    the combat disaster further on meets nobody."""
    game = effect_table()
    a = add_char(game, "A-ko Magami", 0)
    b = add_char(game, "Krillin", 0)
    strike = on_field(game, new_disaster(game, "Satellite Strike"), 1)
    encode(game, strike, BONK_HERE)
    ahead = on_field(game, new_disaster(game, "Bugrom, Type 1"), 2)
    stack_combat_pile(game, ["Kick"] * 20)
    route = [1, 2]  # along the top row of the 3 x 3 field
    assert 2 in game.field.neighbours[1]
    left = move_party(game, ED, ScriptedPolicy(), [a, b], route)
    assert left == []
    for c in (a, b):
        assert c.zone == "bonked" and c.slot == -1, c.name
        assert c.bonked_turn == game.turn
    assert ahead.zone == "field" and ahead.health == ahead.health_max
    assert not any(
        e["kind"] == "combat"
        for e in game.trace.events  # type: ignore[union-attr]
    )


def test_one_bonked_on_the_way_the_others_walk_on_without_it() -> None:
    """The same passage, one of two bonked (Falling Debris spares Flying): Krillin walks on
    alone and stops at the end of the route; A-ko stays out of play, bonked."""
    game = effect_table()
    a = add_char(game, "A-ko Magami", 0)
    k = add_char(game, "Krillin", 0)
    debris = on_field(game, new_disaster(game, "Falling Debris"), 1)
    encode(game, debris, DEBRIS)
    route = [1, 2]  # along the top row of the 3 x 3 field
    assert 2 in game.field.neighbours[1]
    left = move_party(game, ED, ScriptedPolicy(), [a, k], route)
    assert left == [k] and k.slot == route[-1] and k.zone == "field"
    assert a.zone == "bonked" and a.slot == -1


def test_fighter_bonked_by_a_round_effect_deals_no_damage() -> None:
    """set0 rulebook, Lexicon "Bonked" within a combat round: a fighter knocked out by a round
    effect before damage is dealt (Super Saiyan's 1 damage to those beside him, encoded on
    Krillin here) is out of play at once and adds nothing to the party's damage."""
    game = effect_table()
    k = add_char(game, "Krillin", CATHEDRAL)
    a = add_char(game, "A-ko Magami", CATHEDRAL)
    encode(
        game,
        k,
        'effects = [{ when = "round", do = "damage", target = "here", exclude = "Krillin", '
        "n = 1 }]",
    )
    k.items.append(copy_of(game, "Family Picture"))  # the disaster strikes the carrier first
    a.health = 1
    d = on_field(game, new_disaster(game, "Bugrom, Type 1"), CATHEDRAL)
    game.combat_pile = []
    fight(game, ED, ScriptedPolicy(), d, CATHEDRAL, "party")
    assert a.zone == "bonked"
    first = next(
        e
        for e in game.trace.events
        if e["kind"] == "round"  # type: ignore[union-attr]
    )
    assert first["party_damage"] == k.cur[DMG]


class _Attacking(ScriptedPolicy):
    """Attacks every combat disaster it shares a location with."""

    def attack(self, game: Game, d: Dis, chars: list[Char]) -> bool:
        return True


def _building(abandoned: str) -> tuple[Game, Copy, list[Char], Policy]:
    """Three characters build The Silky Doll at slot 4 from turn 1's Equip phase (the default
    player builds it: nothing is left there), under haven_abandoned=``abandoned``."""
    game = effect_table()
    game.field = replace(game.field, haven_slot=0)
    silky = copy_of(game, "The Silky Doll")
    fx = by_trigger(silky.card.effects)  # type: ignore[arg-type]
    assert fx is not None
    game.fx[silky.card.id] = fx
    game.hand.append(silky)
    builders = [add_char(game, n, 4) for n in ("Nabiki Tendo", "A-ko Magami", "Kami")]
    policy = _Attacking()
    equip_phase(game, _ed_with(abandoned), policy)
    assert [b.slot for b in game.building] == [4]
    assert not any(can_act(game, c) for c in builders)
    return game, silky, builders, policy


def _ed_with(abandoned: str) -> Edition:
    ed = edition("set0")
    return replace(ed, play=replace(ed.play, haven_abandoned=abandoned))


def _party_damage(game: Game) -> list[object]:
    return [e["party_damage"] for e in game.trace.events if e["kind"] == "round"]  # type: ignore[union-attr]


def test_builders_left_behind_are_free_once_the_building_stops() -> None:
    """set0 rulebook, "Haven": the three builders "must remain at the location and cannot
    perform any actions" for the two turns of the building; "Equip Phase": a turn they act "does
    not count toward the completion". Their rest is the building's: Nabiki bonked in turn 2's
    Maintenance stops it (the card back to the hand, or discarded under
    haven_abandoned=discard), and A-ko and Kami act again that turn: they attack a disaster at
    their location and deal damage, where they were left disabled ("party deals 0")."""
    for abandoned in ("hand", "discard"):
        game, silky, builders, policy = _building(abandoned)
        game.turn = 2
        knock_out(game, builders[0], "bonked", None)  # struck down in the Maintenance phase
        equip_phase(game, _ed_with(abandoned), policy)
        assert not game.building and not game.annexed
        assert (silky in game.hand, silky in game.discard) == (
            abandoned == "hand",
            abandoned == "discard",
        )
        assert all(can_act(game, c) for c in builders[1:]), abandoned
        on_field(game, new_disaster(game, "Bugrom, Type 1"), 4)
        game.combat_pile = []
        move_phase(game, _ed_with(abandoned), policy)
        assert _party_damage(game)[0] == sum(c.cur[DMG] for c in builders[1:])


def test_a_building_stops_the_moment_a_builder_leaves() -> None:
    """The same passages within a turn: a builder knocked out after the Equip phase (Nabiki, by
    the location or a disaster in the Move phase) stops the building at once, so A-ko and Kami
    may attack that same Move phase; the card goes back to the hand then, not a turn later."""
    game, silky, builders, policy = _building("hand")
    game.turn = 2
    equip_phase(game, _ed_with("hand"), policy)
    assert game.building and silky not in game.hand  # still building
    knock_out(game, builders[0], "bonked", None)
    on_field(game, new_disaster(game, "Bugrom, Type 1"), 4)
    game.combat_pile = []
    move_phase(game, _ed_with("hand"), policy)
    assert not game.building and silky in game.hand
    assert _party_damage(game)[0] == sum(c.cur[DMG] for c in builders[1:])


COMMANDOS = 'effects = [{ when = "lands", do = "destroy", target = "items_here", n = 1 }]'


def test_destroying_under_a_location_follows_the_pickup_reach() -> None:
    """set0 rulebook, "Field Layouts": the disasters lie "face down, underneath each location
    card but above the item card", and "Scavenge Phase": "all disaster cards underneath the
    location must be cleared" to reach it. One reading (option item_pickup) for every path that
    reaches an item under a location: Red Commandos landing on a location destroys the item
    under it exactly when a disaster could take it there. Under ``beneath`` the item under a
    face-down disaster is out of its reach (and reachable once none is left); under
    ``through`` it is destroyed."""
    for reading in ("beneath", "through"):
        game = effect_table()
        game.item_pickup = reading
        commandos = on_field(game, new_disaster(game, "Red Commandos"), CATHEDRAL)
        encode(game, commandos, COMMANDOS)
        loc = game.locs[CATHEDRAL]
        picture = copy_of(game, "Family Picture")
        loc.hidden_disasters = [new_disaster(game, "Bugrom, Type 1")]
        loc.hidden_cards = [picture]
        fire(game, commandos, Trigger.LANDS, CATHEDRAL)
        assert (picture in loc.hidden_cards) == (reading == "beneath"), reading
        assert (picture in game.carried_off) == (reading == "through"), reading
        loc.hidden_disasters = []  # scavenged clear: in reach under either reading
        loc.hidden_cards = [copy_of(game, "Family Picture")]
        fire(game, commandos, Trigger.LANDS, CATHEDRAL)
        assert loc.hidden_cards == [], reading


class _Declares(ScriptedPolicy):
    """Declares every character offered for a charm battle; never retreats."""

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        return list(options)


def _lone_charm(name: str, disaster: str, charm: str | None = None) -> tuple[str, Dis, Copy]:
    """Kami (charm 1) alone against ``disaster`` with an uncovered item under the location and
    no combat cards: the charm battle is lost. Returns the combat's result, the disaster and
    the item. ``charm`` sets the rule option (else the edition's default)."""
    game = effect_table()
    add_char(game, "Kami", CATHEDRAL)
    d = on_field(game, new_disaster(game, disaster), CATHEDRAL)
    picture = copy_of(game, "Family Picture")
    game.locs[CATHEDRAL].hidden_cards = [picture]
    game.combat_pile = []
    ed = edition(name)
    if charm is not None:
        ed = replace(ed, play=replace(ed.play, charm=charm))
    return fight(game, ed, _Declares(), d, CATHEDRAL, "disaster"), d, picture


def test_everyone_lost_against_a_minor_is_a_set0_case_only() -> None:
    """1996 rules, "Combat" (which take precedence over the Set 0 booklet, as the 1998
    guidelines do): "If you lose, the Charming Character may not attack the Disaster until it
    attacks that Character"; only of a Major Disaster does it say "Each person at the location
    may engage in a Charm Combat ... That Disaster will then discontinue Combat and leave with
    the Item". Set 0's "Special Case of a Character Charming a Disaster" names any disaster.
    Kami, alone, loses to 33-S Sexaroid (minor, charm 7): under general1996 and guidelines1998
    the combat goes on and the item stays; under set0 the disaster takes it and ignores her
    when the player declared the battle (``charm=choice``: "If you decide to declare"; the
    battles set0's default has the disaster declare do not set it off). Against Kagato (major)
    every edition plays the special case."""
    for name in ("general1996", "guidelines1998"):
        result, d, picture = _lone_charm(name, "33-S Sexaroid")
        assert result != "ignored" and picture not in d.carrying, name
        result, d, picture = _lone_charm(name, "Kagato")
        assert result == "ignored" and d.carrying == [picture], name
    result, d, picture = _lone_charm("set0", "33-S Sexaroid", charm="choice")
    assert result == "ignored" and d.carrying == [picture]


def test_a_search_copy_keeps_the_haven_being_built() -> None:
    """The search player plans on copies of the game (determinize.clone): a haven being built
    (set0 rulebook, "Haven") is part of the position, so the copy keeps it, with its own
    builders (the copy's characters, never the game's), the turns left and each builder's rest;
    played on, the copy's building ends as the game's would."""
    import random

    from deckkit.animayhem.engine.determinize import clone

    game, silky, builders, _ = _building("hand")
    copy = clone(game, random.Random(1))
    assert [(b.slot, b.last_turn, b.before) for b in copy.building] == [
        (b.slot, b.last_turn, b.before) for b in game.building
    ]
    (built,) = copy.building
    assert [c.uid for c in built.builders] == [c.uid for c in builders]
    assert not {id(c) for c in built.builders} & {id(c) for c in builders}
    assert set(map(id, built.builders)) <= set(map(id, copy.chars))
    # a haven card has no usage limit, so the copy shares it: the copies build anew only the
    # cards whose state can change (test_search.py, the copy's shared cards)
    assert built.haven is silky
