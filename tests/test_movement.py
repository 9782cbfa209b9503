"""Disaster paths and movement, party movement (set0 rulebook, Part II "Maintenance Phase",
"Move Phase", "Field Layouts"; Part I "Major/Minor Disaster", "Planetary Location")."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from deckkit.animayhem.construction.carddb import load_card_db
from deckkit.animayhem.construction.deck import read_deck
from deckkit.animayhem.construction.editions import load_edition
from deckkit.animayhem.engine.chance import SeededChance
from deckkit.animayhem.engine.field import (
    build_field,
    compact_cells,
    disaster_path,
    line_cells,
    random_cells,
)
from deckkit.animayhem.engine.movement import (
    _moving_order,
    move_disasters,
    move_party,
    place_disaster,
)
from deckkit.animayhem.engine.phases import PHASES, occupied_slots, play_turn
from deckkit.animayhem.engine.play import GameOptions, prepare_game, start_game
from deckkit.animayhem.engine.policy import Policy, make_policy
from deckkit.animayhem.engine.queries import HAVEN, can_stop
from tests.engine_helpers import NINE, add_char, bare_game, copy_of, edition, new_disaster


def test_path_on_three_by_three() -> None:
    """A drawn disaster enters at the top of the rightmost column, moves down it, then down the
    next column to the left; the bottom-left location ends the cycle ("Maintenance Phase")."""
    # Slots are numbered row by row: 0 1 2 / 3 4 5 / 6 7 8.
    assert disaster_path(compact_cells(9)) == (2, 5, 8, 1, 4, 7, 0, 3, 6)


def test_path_on_ragged_layout_skips_gaps() -> None:
    """ "disaster cards will ignore blank spaces in the layout and cannot make diagonal
    movements" ("Field Layouts > Solitaire")."""
    #  A . B
    #  . C .
    #  D . E
    cells = [(0, 0), (2, 0), (1, 1), (0, 2), (2, 2)]
    f = build_field(cells)
    names = "ABCDE"
    assert "".join(names[s] for s in f.path) == "BECAD"
    # Characters move corner-to-corner: C touches every other location.
    assert sorted(f.neighbours[2]) == [0, 1, 3, 4]


def test_straight_line_moves_right_to_left() -> None:
    """ "Disasters will move to the left" from the right end of the line ("Solitaire: Straight
    Line")."""
    assert disaster_path(line_cells(5)) == (4, 3, 2, 1, 0)


def test_random_layout_is_connected() -> None:
    """Each new location is placed adjacent, side or corner, to one already on the field."""
    for seed in range(20):
        f = build_field(random_cells(9, SeededChance(seed)))
        assert all(d >= 0 for d in f.distances_from(0))


def _field_with(game_names: list[str]):  # type: ignore[no-untyped-def]
    return bare_game(game_names)


def test_disaster_cycle_minor_discarded_item_destroyed() -> None:
    """Leaving the field costs 1 movement; a minor disaster is discarded and the item it carries
    destroyed ("Maintenance Phase")."""
    game = bare_game(NINE)
    ed = edition("guidelines1998")
    d = new_disaster(game, "Bugrom, Type 1")  # minor, movement 3
    place_disaster(game, d, 7)  # two steps before the end of the path
    d.first_move_done = True
    item = copy_of(game, "Piece of Cake")
    d.carrying.append(item)
    move_disasters(game, ed, Policy(), [])
    assert d.zone == "discard"
    assert item in game.carried_off


def test_major_disaster_starts_again_at_top_right() -> None:
    """A major disaster leaving the field returns to the top right at no cost and keeps moving
    ("Maintenance Phase")."""
    game = bare_game(NINE)
    ed = edition("guidelines1998")
    d = new_disaster(game, "Big Bug")  # major, movement 3
    place_disaster(game, d, 8)  # last location on the path
    d.first_move_done = True
    move_disasters(game, ed, Policy(), [])
    # 1 movement to leave, re-enter at position 0 free, then 2 more steps.
    assert d.zone == "field" and d.pos == 2


def test_drawn_disaster_enters_free_then_moves_full_movement() -> None:
    """Moving from the draw pile to the field costs nothing; then a full movement."""
    game = bare_game(NINE)
    d = new_disaster(game, "Bugrom, Type 1")  # movement 3
    move_disasters(game, edition("guidelines1998"), Policy(), [d])
    assert d.pos == 3


def test_closest_to_completing_moves_first() -> None:
    """ "you move the disaster 'closest' to completing its cycle first" ("Maintenance Phase")."""
    game = bare_game(NINE)
    far = new_disaster(game, "Bugrom, Type 1")
    near = new_disaster(game, "Goons")
    place_disaster(game, far, 0)
    place_disaster(game, near, 5)
    far.first_move_done = near.first_move_done = True
    move_disasters(game, edition("guidelines1998"), Policy(), [])
    moved = [e["text"] for e in game.trace.events if e["kind"] == "disaster_move"]  # type: ignore[union-attr]
    assert len(moved) == 2 and moved[0].startswith("Goons")


def test_pickup_after_first_full_movement_set0() -> None:
    """set0: "After completing its first full movement, a combat disaster will take an item card
    from underneath its current location"."""
    game = bare_game(NINE)
    for loc in game.locs:
        loc.hidden_cards.append(copy_of(game, "Piece of Cake"))
    d = new_disaster(game, "Bugrom, Type 1")
    move_disasters(game, edition("set0"), Policy(), [d])
    assert d.pos == 3 and len(d.carrying) == 1
    assert not game.locs[game.field.path[3]].hidden_cards


def test_pickup_first_item_location_1996() -> None:
    """1996 rules: "At the first Location the Disaster moves to that has an Item, it will pick
    the Item up"."""
    game = bare_game(NINE)
    first = game.field.path[1]
    game.locs[first].hidden_cards.append(copy_of(game, "Piece of Cake"))
    d = new_disaster(game, "Bugrom, Type 1")
    move_disasters(game, edition("general1996"), Policy(), [d])
    assert len(d.carrying) == 1 and not game.locs[first].hidden_cards


def test_destroyed_locations_do_not_count_for_disasters() -> None:
    """1996 rules: "Disasters ignore destroyed Locations"; fifth2018: they still count."""
    for name, expected in (("guidelines1998", 4), ("fifth2018", 3)):
        game = bare_game(NINE)
        game.locs[game.field.path[2]].destroyed = True
        d = new_disaster(game, "Bugrom, Type 1")
        move_disasters(game, edition(name), Policy(), [d])
        assert d.pos == expected, name


def test_moves_once_then_stays() -> None:
    """ "Moves N": drawn, it makes N full movements, then remains for the rest of the game
    (Part III "Moves N")."""
    game = bare_game(NINE)
    d = new_disaster(game, "The Pit")  # moves once, movement 2
    assert d.card.moves_times == 1
    ed = edition("guidelines1998")
    move_disasters(game, ed, Policy(), [d])
    assert d.pos == d.movement
    move_disasters(game, ed, Policy(), [])
    assert d.pos == d.movement and d.stationary


def test_combat_disaster_attacks_item_carrier_it_passes() -> None:
    """A combat disaster moving through a location with a character carrying items drops what
    it carries there and attacks ("Maintenance Phase")."""
    game = bare_game(NINE)
    slot = game.field.path[1]
    c = add_char(game, "A-ko Magami", slot)
    c.items.append(copy_of(game, "Piece of Cake"))
    d = new_disaster(game, "Bugrom, Type 1")
    d.carrying.append(copy_of(game, "Go Board"))
    game.combat_pile = []
    move_disasters(game, edition("guidelines1998"), Policy(), [d])
    assert any(e["kind"] == "combat" for e in game.trace.events)  # type: ignore[union-attr]
    assert any(x.card.name == "Go Board" for x in game.locs[slot].hidden_cards)


def test_party_moves_at_slowest_pace_and_pays_to_leave_haven() -> None:
    """A party moves as fast as its slowest member; entering from the haven costs 1 ("Move
    Phase")."""
    game = bare_game(NINE)
    fast = add_char(game, "A-ko Magami", HAVEN)  # movement 4
    slow = add_char(game, "Nene Romanova", HAVEN)  # movement 2
    h = game.field.haven_slot
    far = max(range(9), key=lambda s: game.dist[h][s])
    step = min(game.field.neighbours[h], key=lambda s: game.dist[s][far])
    with pytest.raises(ValueError):
        move_party(game, edition("guidelines1998"), Policy(), [fast, slow], [h, step, far])
    move_party(game, edition("guidelines1998"), Policy(), [fast, slow], [h, step])
    assert fast.slot == slow.slot == step


def test_planetary_location_needs_the_symbol_to_stop() -> None:
    """A group cannot stop on a planetary location unless a member or its equipment has the
    symbol (Part I "Planetary Location")."""
    game = bare_game(["Sewer", "Alien Jungle"])
    c = add_char(game, "A-ko Magami", 0)
    assert not can_stop(game, [c], 1)
    c.equipment.append(copy_of(game, "Control Cube"))  # dimensional, not planetary
    assert not can_stop(game, [c], 1)
    c2 = add_char(game, "Ryo-Ohki (Ship)", 0)  # planetary
    assert can_stop(game, [c, c2], 1)


def test_no_pickup_after_a_combat() -> None:
    """Pickups happen only as "Maintenance Phase" says (set0: "After completing its first full
    movement"; 1996 rules: "At the first Location the Disaster moves to that has an Item"); no
    rule has a disaster take an item when a combat ends. The Farmer falls and his item is
    dropped under the location (1998 guidelines, "Drop": it "must be Scavenged"); Toma's Guards,
    left standing, leave it there."""
    from deckkit.animayhem.engine.combat import fight

    game = bare_game(NINE)
    farmer = add_char(game, "Farmer with shotgun", 0)
    cake = copy_of(game, "Piece of Cake")
    farmer.items.append(cake)
    d = new_disaster(game, "Toma's Guards")
    place_disaster(game, d, game.field.path_index[0])
    game.combat_pile = []
    assert fight(game, edition("guidelines1998"), Policy(), d, 0, "disaster") == "wiped"
    assert farmer.zone == "discard" and not d.carrying
    assert game.locs[0].hidden_cards == [cake]


def test_set0_pickup_waits_for_a_completed_full_movement() -> None:
    """set0 "Maintenance Phase": "After completing its first full movement, a combat disaster
    will take an item card from underneath its current location." Bugrom, Type 1 (movement 3)
    is stopped on its first movement by a combat with Nabiki Tendo (a stalemate she leaves by a
    retreat): that movement is not complete, so it takes nothing there. Its next movement is
    its first full one and ends under an item, which it takes."""
    game = bare_game(NINE)
    ed = edition("set0")
    stop, end = game.field.path[1], game.field.path[4]
    nabiki = add_char(game, "Nabiki Tendo", stop)  # 1 damage, 3 defense: neither side hurts
    nabiki.items.append(copy_of(game, "Go Board"))
    game.locs[stop].hidden_cards.append(copy_of(game, "Piece of Cake"))
    game.locs[end].hidden_cards.append(copy_of(game, "Keys"))
    game.combat_pile = []
    d = new_disaster(game, "Bugrom, Type 1")
    move_disasters(game, ed, Policy(), [d])
    assert d.pos == 1 and nabiki.slot != stop  # the combat ended in a retreat
    assert not d.carrying and len(game.locs[stop].hidden_cards) == 1
    nabiki.zone = "haven"  # out of the way
    move_disasters(game, ed, Policy(), [])
    assert d.pos == 4 and [x.card.name for x in d.carrying] == ["Keys"]


def test_pickup_reaches_past_the_face_down_disasters_by_default() -> None:
    """set0 "Maintenance Phase": "After completing its first full movement, a combat disaster
    will take an item card from underneath its current location"; 1996 rules "Maintenance
    Phase": "At the first Location the Disaster moves to that has an Item, it will pick the
    Item up". Neither names a condition: by default (rule option item_pickup=through) a moving
    disaster takes the item though face-down disasters lie above it. Under item_pickup=beneath
    (set0 "Field Layouts" puts the disasters "above the item card"; "Scavenge Phase": "all
    disaster cards underneath the location must be cleared") it cannot."""
    for name, pos in (("set0", 3), ("general1996", 1)):
        for reading in ("", "beneath", "through"):
            game = bare_game(NINE)
            if reading:
                game.item_pickup = reading
            for loc in game.locs:
                loc.hidden_disasters = [new_disaster(game, "Goons"), new_disaster(game, "Goons")]
                loc.hidden_cards.append(copy_of(game, "Piece of Cake"))
            d = new_disaster(game, "Bugrom, Type 1")
            move_disasters(game, edition(name), Policy(), [d])
            slot = game.field.path[pos]
            if reading == "beneath":
                assert not d.carrying and game.locs[slot].hidden_cards, (name, reading)
            else:
                assert len(d.carrying) == 1 and not game.locs[slot].hidden_cards, (name, reading)
            assert len(game.locs[slot].hidden_disasters) == 2, name


def test_moving_order_is_the_sorted_order() -> None:
    """The disasters move closest to completing their cycle first, the earlier arrival first on
    a tie (moving back along the path counts from the other end): the insertion sort gives the
    order of a stable sort on ``(steps left, entered)``, ties and all."""
    rng = random.Random(7)
    game = bare_game(NINE)
    n = len(game.field.path)
    for _ in range(300):
        game.disasters = []
        for _ in range(rng.randrange(0, 8)):
            d = new_disaster(game, rng.choice(("Bugrom, Type 1", "Goons")))
            d.pos = rng.randrange(n)
            d.backward = rng.random() < 0.3
            d.entered = rng.randrange(4)  # repeated on purpose: stable on equal keys
            game.disasters.append(d)
        expected = sorted(
            game.disasters, key=lambda d: (d.pos + 1 if d.backward else n - d.pos, d.entered)
        )
        assert [d.uid for d in _moving_order(game)] == [d.uid for d in expected]


def test_play_turn_plays_the_phases_in_order() -> None:
    """``play_turn`` calls the phases by name; they are those of ``PHASES``, in its order."""
    cards = read_deck(
        Path(__file__).resolve().parent.parent / "decks/demo-solo.deck", load_card_db()
    )
    setup = prepare_game(cards, load_edition("guidelines1998"), GameOptions())
    policy = make_policy("heuristic")
    game = start_game(setup, policy, 3, 0)
    seen: list[str] = []
    play_turn(game, setup.edition, policy, lambda g: seen.append(g.phase))
    assert seen == [p.__name__.removesuffix("_phase") for p in PHASES]


def test_occupied_slots_are_the_sorted_slots_on_the_field() -> None:
    """The locations the phases visit, party by party: each slot with a character on the
    field, once, in slot order (not the order the characters came into play)."""
    game = bare_game(NINE)
    for slot in (5, 2, 5, HAVEN, 0, 7):
        add_char(game, "A-ko Magami", slot)
    game.chars[-1].zone = "bonked"  # off the field, though its slot is still set
    assert occupied_slots(game) == [0, 2, 5]
    assert occupied_slots(game) == sorted({c.slot for c in game.on_field()})
