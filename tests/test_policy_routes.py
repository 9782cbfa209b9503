"""The heuristic player's routes and goals around non-combat disasters and emptied locations.

A face-up non-combat disaster acts on the characters it reaches, on every step of a party's move
(movement.move_party) and on every location it passes in its own movement (set0 rulebook,
"Maintenance Phase"; movement.move_disaster); Satellite Strike destroys what they carry. The
player sees how many cards lie under each location (a disaster that takes an item away does so
in plain view), so it knows a location with only disasters beneath holds nothing to retrieve.

On the nine-location test field the haven is annexed to slot 1, and the disasters' path is
slots 2, 5, 8, 1, 4, 7, 0, 3, 6.
"""

from __future__ import annotations

from deckkit.animayhem.engine.field import random_cells
from deckkit.animayhem.engine.play import effects_of
from deckkit.animayhem.engine.policy import (
    CARRY_ALONE_REST,
    HUNT_PASS_ON,
    HUNT_SPOILS_SAFE,
    HUNT_STEPS,
    PILED_ITEM_STEPS,
    URGENT_HUNT_STEPS,
    HeuristicPolicy,
    can_beat,
    route_to,
    safe_route,
)
from deckkit.animayhem.engine.queries import HAVEN
from deckkit.animayhem.engine.state import Dis, Game
from deckkit.core.chance import SeededChance
from tests.engine_helpers import (
    NINE,
    add_char,
    bare_game,
    copy_of,
    edition,
    effect_table,
    new_disaster,
    on_field,
)

ED = edition("guidelines1998")


def _strike(game: Game, slot: int) -> Dis:
    """Satellite Strike face up at ``slot``, with its encoded text."""
    d = new_disaster(game, "Satellite Strike")
    fx = effects_of([d.card])[d.card.id]
    d.fx = fx
    game.fx[d.card.id] = fx
    return on_field(game, d, slot)


def _item_under(game: Game, slot: int) -> None:
    game.locs[slot].hidden_cards.append(copy_of(game, "Earrings"))


def _route_of(game: Game) -> list[int]:
    plans = HeuristicPolicy().moves(game, ED)
    assert len(plans) == 1
    return plans[0][1]


def test_a_carrier_goes_home_around_a_satellite_strike() -> None:
    """A carrier at slot 7 heads for the haven (slot 1, then the haven) with no combat disaster
    on the field, and steps around the Satellite Strike at slot 3, the first step of the plain
    shortest route."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", 7)
    c.items.append(copy_of(game, "Earrings"))
    _item_under(game, 8)  # something left to scavenge: without the items it would go there
    _strike(game, 3)
    route = _route_of(game)
    assert route[-2:] == [1, HAVEN]
    assert 3 not in route
    assert len(route) == 3


def test_a_carrier_heads_home_with_no_disaster_on_the_field() -> None:
    """Items carried on the field can still be taken or destroyed; the haven keeps them."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", 7)
    c.items.append(copy_of(game, "Earrings"))
    _item_under(game, 8)
    assert _route_of(game) == [3, 1, HAVEN]


def test_safe_route_stops_short_when_no_way_around() -> None:
    """With every way blocked the route ends before the first blocked step."""
    game = effect_table()
    # From slot 6 (neighbours 3, 4, 7) to slot 1 with 3, 4 and 7 all blocked: no step at all.
    assert safe_route(game, 6, 1, 4, [3, 4, 7], False) == []
    # Slot 5 blocked only: from 8 to 1 the way round goes through 4.
    assert safe_route(game, 8, 1, 4, [5], False) == [4, 1]
    # The goal itself may be entered when asked (a party that does not carry).
    assert safe_route(game, 4, 1, 4, [1], True) == [1]
    assert safe_route(game, 4, 1, 4, [1], False) == []


def test_the_goal_avoids_where_a_strike_will_pass() -> None:
    """Two goals one step from the party: Sewer (slot 0), which the Satellite Strike at slot 1
    reaches in its next movement (slots 4, 7, 0, 3), and Mt. Muldoon (slot 2), which it does
    not. Sewer, further along the disaster path, would win the tie; the strike's path decides
    it. (The strike stood at slot 7 before; moving 4 from there it also starts its cycle again
    at slot 2, the path's start, so both goals lie in its way.)"""
    game = effect_table()
    add_char(game, "A-ko Magami", 4)
    _item_under(game, 0)
    _item_under(game, 2)
    assert _route_of(game) == [0]  # no disaster yet: slot 0 is further along the path
    d = _strike(game, 1)
    assert d.movement == 4
    assert _route_of(game) == [2]


def test_a_location_with_only_disasters_beneath_waits_for_the_last_items() -> None:
    """Sewer (slot 0) has only a face-down disaster left; Mt. Muldoon (slot 2), as near, an
    item. The player goes for the item and does not scavenge Sewer; once no item lies under any
    location, Sewer is a goal again (scavenging it is what lets "all locations scavenged" end
    the game: 1998 guidelines 4.1)."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", 4)
    game.locs[0].hidden_disasters.append(new_disaster(game, "Goons"))
    _item_under(game, 2)
    policy = HeuristicPolicy()
    assert _route_of(game) == [2]
    assert not policy.scavenge(game, [c], 0)
    assert policy.scavenge(game, [c], 2)
    game.locs[2].hidden_cards.clear()
    assert _route_of(game) == [0]
    assert policy.scavenge(game, [c], 0)


def test_the_goal_with_fewer_disasters_above_its_item_first() -> None:
    """Two goals one step from the party, each with an item: Sewer (slot 0) under two face-down
    disasters, Mt. Muldoon (slot 2) under none. The smaller slot would win the tie; the count
    of cards beneath, in plain view, decides it."""
    game = effect_table()
    add_char(game, "A-ko Magami", 4)
    _item_under(game, 0)
    _item_under(game, 2)
    game.locs[0].hidden_disasters += [new_disaster(game, "Goons"), new_disaster(game, "Goons")]
    assert _route_of(game) == [2]


def test_equally_far_goals_the_one_further_along_the_path_first() -> None:
    """Two goals one step from the party at slot 4, each with an item the party may scavenge:
    Mt. Muldoon (slot 2, path position 0) and Tea Room Transylvania (slot 7, path position 5).
    The disasters entering at the path's start reach slot 2 first; the party goes to slot 7,
    where it also stands in their way off the field. Before the path key, the smaller slot
    won the tie."""
    game = effect_table()
    add_char(game, "A-ko Magami", 4)
    _item_under(game, 2)
    _item_under(game, 7)
    assert game.field.path_index[7] > game.field.path_index[2]
    assert _route_of(game) == [7]


def test_items_piled_under_a_location_bring_it_a_step_nearer_each() -> None:
    """As above, two goals one step from the party at slot 4; now two items lie under Mt.
    Muldoon (slot 2: one dropped there by a knocked-out carrier, 1998 guidelines "Drop": "they
    go under a Location (and must be Scavenged)"), one under Tea Room Transylvania (slot 7).
    One scavenge takes both, so slot 2 counts a step nearer (``PILED_ITEM_STEPS``) and wins
    over the path key. Dropped equipment is no item: with it in place of the second item,
    slot 7 again."""
    game = effect_table()
    add_char(game, "A-ko Magami", 4)
    _item_under(game, 2)
    _item_under(game, 7)
    assert PILED_ITEM_STEPS == 1
    game.locs[2].hidden_cards.append(copy_of(game, "Armitage's Gun"))
    assert _route_of(game) == [7]
    game.locs[2].hidden_cards[-1] = copy_of(game, "Keys")
    assert _route_of(game) == [2]


def test_a_beatable_disaster_carrying_an_item_is_hunted_three_steps_nearer() -> None:
    """From the haven (annexed to slot 1), an item lies under Sewer (slot 0), two steps away
    counting the step into the field, and Goons, which the party can beat, carries an item at
    slot 6, three steps away. Counted ``HUNT_STEPS`` (3) nearer, the hunt goes first; counted
    one step nearer, as before, it tied with Sewer, and Sewer's smaller slot won. With steps to
    spare the party passes on past the hunted disaster (``HUNT_PASS_ON``)."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", HAVEN)
    _item_under(game, 0)
    d = on_field(game, new_disaster(game, "Goons"), 6)
    d.carrying.append(copy_of(game, "Earrings"))
    assert HUNT_STEPS == 3
    assert can_beat(game, [c], d)
    assert game.field.haven_slot == 1 and game.dist[1][6] == 2
    route = _route_of(game)
    assert route[2] == 6  # the haven's slot, one step, then Goons
    d.carrying.clear()  # nothing to take back: the item nearby is the goal
    assert _route_of(game) == [1, 0]  # from the haven through its annexed slot


def test_a_hunted_disaster_about_to_leave_the_field_with_its_item_comes_first() -> None:
    """From the haven (annexed to slot 1), two Goons (movement 2), both beatable, carry items:
    one at slot 2, the path's first location, two steps away counting the step into the field;
    one at slot 6, the path's last, three steps away, which leaves the field at the next
    Maintenance and takes its item out of play for good (1996 general play rules: "If it
    completes its cycle, the Item is removed from play, and can't be retrieved"). Counted
    ``URGENT_HUNT_STEPS`` nearer still, the one at slot 6 is the goal; before, the nearer one
    was. At slot 7 instead, as far (four steps left on the path, more than its movement), the
    far one waits and the near one is the goal."""
    for slot, route in ((6, [1, 3, 6]), (7, [1, 2])):
        game = effect_table()
        c = add_char(game, "A-ko Magami", HAVEN)
        near = on_field(game, new_disaster(game, "Goons"), 2)
        near.carrying.append(copy_of(game, "Earrings"))
        far = on_field(game, new_disaster(game, "Goons"), slot)
        far.carrying.append(copy_of(game, "Keys"))
        assert URGENT_HUNT_STEPS == 4 and far.movement == 2
        assert game.field.path[0] == 2 and game.field.path[-1] == 6
        assert game.dist[1][2] == 1 and game.dist[1][slot] == 2
        assert can_beat(game, [c], near) and can_beat(game, [c], far)
        assert _route_of(game) == route


def test_a_party_passes_on_past_a_hunted_disaster_toward_its_next_goal() -> None:
    """From the haven, Goons, which the party can beat, carries an item at slot 1, the haven's
    own slot, and an item lies under Sewer (slot 0, next to slot 1). The hunt is the goal, but
    the fight comes on the way ("pass through or stop": set0 rulebook, "Move Phase") and a won
    fight lets the party pass on, so it goes on to Sewer with its steps to spare
    (``HUNT_PASS_ON``); before, it stopped at slot 1 with steps unused."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", HAVEN)
    _item_under(game, 0)
    d = on_field(game, new_disaster(game, "Goons"), 1)
    d.carrying.append(copy_of(game, "Earrings"))
    assert HUNT_PASS_ON
    assert can_beat(game, [c], d) and game.dist[1][0] == 1
    assert _route_of(game) == [1, 0]
    d.carrying.clear()  # no hunt: Sewer is the goal all the same, through slot 1
    assert _route_of(game) == [1, 0]


def test_past_a_won_hunt_the_party_steps_around_a_satellite_strike() -> None:
    """From the haven, Goons, which the party can beat, carries an item at slot 1, the haven's
    own slot, and an item lies under Tea Room Transylvania (slot 7, two steps on). A Satellite
    Strike stands at slot 3, the first step of the plain way from slot 1 to slot 7. The party
    passes on past the hunted disaster only once it has beaten it, holding the item it took
    back, so it goes round the strike as any carrier does (``HUNT_SPOILS_SAFE``); before, it set
    out carrying nothing and walked through slot 3, where the strike destroys what it carries."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", HAVEN)
    _item_under(game, 7)
    d = on_field(game, new_disaster(game, "Goons"), 1)
    d.carrying.append(copy_of(game, "Earrings"))
    _strike(game, 3)
    assert HUNT_SPOILS_SAFE
    assert can_beat(game, [c], d) and game.dist[1][7] == 2
    route = _route_of(game)
    assert route[0] == 1 and route[-1] == 7 and len(route) == 3
    assert 3 not in route


def _plans(game: Game) -> dict[tuple[str, ...], list[int]]:
    """The Move phase's plans, by the names of each moving group."""
    return {
        tuple(c.name for c in party): route for party, route in HeuristicPolicy().moves(game, ED)
    }


def test_the_carrier_takes_its_item_home_alone_while_the_others_go_on() -> None:
    """Three characters at slot 4, next to the haven's slot 1; A-ko Magami carries an item and
    an item lies under Tea Room Transylvania (slot 7, next to slot 4). Each character moves on
    its own movement and may enter an annexed haven (set0 rulebook, "Move Phase"), so A-ko takes
    the item home (slot 1, then the haven) while Krillin and Goten go on to slot 7; before, the
    whole party went home with her and the goal waited a turn."""
    game = effect_table()
    a = add_char(game, "A-ko Magami", 4)
    add_char(game, "Krillin", 4)
    add_char(game, "Goten", 4)
    a.items.append(copy_of(game, "Earrings"))
    _item_under(game, 7)
    assert CARRY_ALONE_REST == 2
    assert _plans(game) == {("A-ko Magami",): [1, HAVEN], ("Krillin", "Goten"): [7]}


def test_a_carrier_with_one_companion_takes_the_party_home() -> None:
    """With only one member not carrying, the carrier does not leave a lone character on the
    field: the party of two goes home together, as before."""
    game = effect_table()
    a = add_char(game, "A-ko Magami", 4)
    add_char(game, "Krillin", 4)
    a.items.append(copy_of(game, "Earrings"))
    _item_under(game, 7)
    assert _plans(game) == {("A-ko Magami", "Krillin"): [1, HAVEN]}


def test_a_major_strike_about_to_start_its_cycle_again_threatens_the_paths_start() -> None:
    """A party at Survival Shot (slot 5); items under Mt. Muldoon (slot 2, one step) and Sewer
    (slot 0, two steps). The Satellite Strike at Cathedral (slot 3, path position 7) moves 4:
    to slot 6, off the field and, being a major disaster, back at the path's start "to start
    its cycle again", at no cost of movement (set0 rulebook, "Maintenance Phase"), on to slots
    2, 5 and 8. Slot 2 is in its way, Sewer is not: the party heads for Sewer. Before, the
    goal's risk stopped at the path's end, and the nearer slot 2 won."""
    game = effect_table()
    add_char(game, "A-ko Magami", 5)
    _item_under(game, 2)
    _item_under(game, 0)
    assert _route_of(game) == [2]  # no disaster yet: the nearer goal
    d = _strike(game, 3)
    assert d.major and d.movement == 4
    assert game.field.path_index[3] == 7 and game.field.path[0] == 2
    assert _route_of(game)[-1] == 0


def test_a_party_walks_around_a_combat_disaster_it_could_not_beat() -> None:
    """A-ko Magami at Sewer (slot 0) heads for the item under Mt. Muldoon (slot 2), two steps
    away through Telephone Pole (slot 1) or Country Bar (slot 4). Freeza (1st form) stands at
    slot 1: one passing "through ... a location where there is a combat disaster" is attacked
    (set0 rulebook, "Move Phase"), and a fight she cannot win ends her move there. She goes
    through slot 4 instead; against Goons, whom she can beat, she keeps the first way. Before,
    she walked into Freeza."""
    game = effect_table()
    c = add_char(game, "A-ko Magami", 0)
    _item_under(game, 2)
    assert _route_of(game) == [1, 2]
    d = on_field(game, new_disaster(game, "Freeza (1st form)"), 1)
    assert not can_beat(game, [c], d)
    assert _route_of(game) == [4, 2]
    game.disasters.remove(d)
    goons = on_field(game, new_disaster(game, "Goons"), 1)
    assert can_beat(game, [c], goons)
    assert _route_of(game) == [1, 2]


def _route_by_neighbours(game: Game, start: int, goal: int, budget: int) -> list[int]:
    """The route of ``route_to``'s rule read straight from the field: from the haven, first its
    slot; then each step the first neighbour nearest the goal."""
    route: list[int] = []
    here = start
    if here == HAVEN:
        if budget <= 0:
            return []
        here = game.field.haven_slot
        route.append(here)
        budget -= 1
    while here != goal and budget > 0:
        here = min(game.field.neighbours[here], key=lambda s: game.dist[s][goal])
        route.append(here)
        budget -= 1
    return route


def test_routes_take_the_first_nearest_neighbour_on_every_field() -> None:
    """``route_to``'s table of next steps (kept while the games' distances are the same
    object) gives the rule's route between every pair of slots and from the haven, on fields
    asked in turn: a fixed layout's table is not read for a random layout's field, nor the
    other way round."""
    fields = [
        bare_game(NINE),
        bare_game(NINE[:7], random_cells(7, SeededChance(3))),
        bare_game(NINE),  # a field like the first, its own distances
        bare_game((NINE * 2)[:12], random_cells(12, SeededChance(8))),
    ]
    for _ in range(2):
        for game in fields:
            n = len(game.locs)
            for goal in range(n):
                for start in [HAVEN, *range(n)]:
                    for budget in (0, 1, 3, n):
                        expected = _route_by_neighbours(game, start, goal, budget)
                        assert route_to(game, start, goal, budget) == expected
