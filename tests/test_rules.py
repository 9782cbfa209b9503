"""The engine's rules one by one, each test citing the passage it follows (set0 rulebook unless
another document is named)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.chance import ScriptedChance
from deckkit.animayhem.engine.combat import GameOver, fight
from deckkit.animayhem.engine.endgame import check_end
from deckkit.animayhem.engine.movement import move_disasters, place_disaster
from deckkit.animayhem.engine.phases import reload_phase
from deckkit.animayhem.engine.policy import HeuristicPolicy, Policy, RandomPolicy
from deckkit.animayhem.engine.queries import HAVEN, party_movement
from deckkit.animayhem.engine.scavenge import location_attack, passes_skill_test
from deckkit.animayhem.engine.state import DEF, DMG, ENE, Game
from tests.engine_helpers import (
    NINE,
    ScriptedPolicy,
    add_char,
    bare_game,
    copy_of,
    edition,
    new_disaster,
    stack_combat_pile,
)


class Retreating(ScriptedPolicy):
    """Fights round 1, then retreats: one round to look at."""

    def retreat(self, game: Game, d: object, chars: list[object], rnd: int) -> bool:  # type: ignore[override]
        return rnd > 1


class RetreatAtOnce(ScriptedPolicy):
    def retreat(self, game: Game, d: object, chars: list[object], rnd: int) -> bool:  # type: ignore[override]
        return True


def _rounds(game: Game) -> list[dict[str, object]]:
    assert game.trace is not None
    return [e for e in game.trace.events if e["kind"] == "round"]


def test_retreat_takes_one_hit_and_moves_one_location() -> None:
    """ "Declare Retreat", the second step of every combat round, the first included ("You may
    immediately declare a retreat to run away from the disaster"): no combat cards are drawn,
    the disaster deals its current damage to one random retreating character, who loses that
    minus its defense, and the survivors "must move one location". Big Bug (damage 5) against
    Kami (defense 4): 5 - 4 = 1."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 4)  # 4 damage, 4 defense, health 4
    d = new_disaster(game, "Big Bug")  # 5 damage, 4 defense
    place_disaster(game, d, game.field.path_index[4])
    stack_combat_pile(game, ["Dodge", "Dodge"])
    result = fight(game, edition("guidelines1998"), RetreatAtOnce(), d, 4, "disaster")
    assert result == "retreat"
    assert not _rounds(game)  # retreat declared in round 1, before any blow
    [hit] = [e for e in game.trace.events if e["kind"] == "retreat"]  # type: ignore[union-attr]
    assert (hit["name"], hit["damage"], hit["loss"], hit["health"]) == ("Kami", 5, 1, 3)
    assert kami.health == kami.health_max  # healed at the end of combat
    assert kami.zone == "field" and kami.slot in game.field.neighbours[4]
    assert len(game.combat_pile) == 2  # no card drawn for the retreat


def test_retreat_with_no_legal_direction_stays_put() -> None:
    """set0 rulebook, "Declare Retreat": "All retreating characters that survive must move one
    location in any legal direction"; "Move Phase": a character may enter a haven only "if it is
    annexed to the current location". With every neighbour destroyed ("Location": characters
    cannot stop on a destroyed location) there is no legal direction: the party stays where it
    is, and is not carried off to a haven that is not beside it, whatever the policy asks."""

    class ToTheHaven(Retreating):
        def retreat_to(self, game, chars, slot):  # type: ignore[no-untyped-def]
            return HAVEN

    for policy in (Retreating(), ToTheHaven(), HeuristicPolicy(), RandomPolicy()):
        game = bare_game(NINE)  # slots 0 1 2 / 3 4 5 / 6 7 8; the haven is beside slot 1
        assert game.field.haven_slot != 8
        for slot in game.field.neighbours[8]:
            game.locs[slot].destroyed = True
        kami = add_char(game, "Kami", 8)  # 4/4
        nabiki = add_char(game, "Nabiki Tendo", 8)  # 1/3
        d = new_disaster(game, "Dr. Weelo")  # 2/5: nobody can hurt anybody
        place_disaster(game, d, game.field.path_index[8])
        game.combat_pile = []
        # Every policy retreats here: the heuristic from what it cannot beat, the random one
        # on the scripted roll 0.
        assert fight(game, edition("guidelines1998"), policy, d, 8, "disaster") == "retreat"
        assert [(c.zone, c.slot) for c in (kami, nabiki)] == [("field", 8)] * 2, policy


def test_retreat_goes_to_a_legal_neighbour_whatever_the_policy_asks() -> None:
    """ "Declare Retreat": one location "in any legal direction"; a policy asking for the haven
    from a location the haven is not annexed to is overruled."""

    class ToTheHaven(Retreating):
        def retreat_to(self, game, chars, slot):  # type: ignore[no-untyped-def]
            return HAVEN

    game = bare_game(NINE)
    kami = add_char(game, "Kami", 8)
    d = new_disaster(game, "Dr. Weelo")
    place_disaster(game, d, game.field.path_index[8])
    game.combat_pile = []
    assert fight(game, edition("guidelines1998"), ToTheHaven(), d, 8, "disaster") == "retreat"
    assert kami.zone == "field" and kami.slot in game.field.neighbours[8]


def test_a_plan_overtaken_by_a_retreat_is_revalidated() -> None:
    """ "Move Phase": a character moves one adjacent location at a time ("Field Layouts >
    Solitaire": side-to-side or corner-to-corner). Plans are made at the start of the phase; when
    an earlier party's combat makes a waiting party retreat ("Declare Retreat": "must move one
    location"), its old route no longer starts where it stands and is not followed."""
    from deckkit.animayhem.engine.phases import move_phase

    game = bare_game(NINE)  # slots 0 1 2 / 3 4 5 / 6 7 8
    kami = add_char(game, "Kami", 0)
    nabiki = add_char(game, "Nabiki Tendo", 1)
    d = new_disaster(game, "Dr. Weelo")  # stalemate: the party retreats in round 2
    place_disaster(game, d, game.field.path_index[1])
    game.combat_pile = []

    class Plans(Retreating):
        def moves(self, game, edition):  # type: ignore[no-untyped-def]
            # Kami walks onto Nabiki's location; Nabiki means to go 1 -> 3 -> 6.
            return [([kami], [1]), ([nabiki], [3, 6])]

        def retreat_to(self, game, chars, slot):  # type: ignore[no-untyped-def]
            return 2

    move_phase(game, edition("guidelines1998"), Plans())
    # Both retreated from 1 to 2; from 2, location 3 is not adjacent: the stale plan is dropped.
    assert (nabiki.zone, nabiki.slot) == ("field", 2)
    assert (kami.zone, kami.slot) == ("field", 2)


def test_charm_battle_won_against_a_minor_disaster() -> None:
    """ "Charm Battle": one combat card's charm half on the disaster, one on the charmer; a
    charmer who wins against a minor disaster may make one legal action for it (here, the
    disaster is incapacitated for the turn)."""
    game = bare_game(NINE)
    add_char(game, "Sylvie", 0)  # charm 6
    d = new_disaster(game, "33-S Sexaroid")  # minor, charm 7
    place_disaster(game, d, game.field.path_index[0])
    # First card for the disaster (Broken Heart: -1), second for Sylvie (Enchanted View: x2).
    stack_combat_pile(game, ["Bash", "Enchanted View"])
    result = fight(game, edition("guidelines1998"), Policy(), d, 0, "disaster")
    assert result == "charmed" and d.incapacitated_turn == game.turn


def test_charm_battle_lost_keeps_the_charmer_out_until_attacked() -> None:
    """ "Charm Battle > End of Charm Battle": a charmer who lost "cannot attack the disaster it
    tried to charm until that disaster attacks the charmer"; a tie changes nothing. Toma (charm
    3) against Kami (1: lost) and Akane Tendo (3: tie), no combat cards. Round 1 Toma attacks
    Akane: she fights alone (4 against defense 5). Round 2 it attacks Kami, who must retaliate
    ("one of the characters who is retaliating must be the character being attacked") and
    fights from then on: 8 - 5 = 3 in rounds 2 and 3 defeat Toma (health 5)."""
    game = bare_game(NINE, chance=ScriptedChance([1, 0, 1]))
    add_char(game, "Kami", 0)
    add_char(game, "Akane Tendo", 0)
    d = new_disaster(game, "Toma")
    place_disaster(game, d, game.field.path_index[0])
    game.combat_pile = []
    seen: list[set[str]] = []

    class Watch(ScriptedPolicy):
        def fighters(self, game, d, able, target, cap):  # type: ignore[no-untyped-def]
            seen.append({c.name for c in able})
            return super().fighters(game, d, able, target, cap)

    assert fight(game, edition("guidelines1998"), Watch(), d, 0, "disaster") == "defeated"
    both = {"Kami", "Akane Tendo"}
    assert seen == [{"Akane Tendo"}, both, both]
    assert [r["party_damage"] for r in _rounds(game)] == [4, 8, 8]


def test_disaster_incapacitated_by_charm_attacks_no_more_that_turn() -> None:
    """ "Charm Battle > End of Charm Battle": a charmer who wins against a minor disaster may
    "incapacitate the disaster for the current turn"; an incapacitated card cannot "deal damage
    in combat" (Lexicon "Incapacitated"). Later that turn the 33-S Sexaroid attacks nobody: not
    Sylvie again, not Kami passing through its location, who moves on."""
    from deckkit.animayhem.engine.movement import move_party

    game = bare_game(NINE)
    add_char(game, "Sylvie", 0)  # charm 6
    kami = add_char(game, "Kami", 1)
    d = new_disaster(game, "33-S Sexaroid")  # minor, charm 7
    place_disaster(game, d, game.field.path_index[0])
    stack_combat_pile(game, ["Bash", "Enchanted View"])  # Sylvie wins: 6 x 2 against 7 - 1
    ed = edition("guidelines1998")
    assert fight(game, ed, Policy(), d, 0, "disaster") == "charmed"
    assert fight(game, ed, Policy(), d, 0, "disaster") == "none"
    move_party(game, ed, Policy(), [kami], [0, 3])
    assert kami.slot == 3
    assert sum(e["kind"] == "combat" for e in game.trace.events) == 1  # type: ignore[union-attr]


def test_every_charmer_lost() -> None:
    """ "Special Case of a Character Charming a Disaster": when every character at its location
    loses its charm battle, "the disaster will take the item card underneath its location, if
    available, and leave that location on the next maintenance phase. The disaster will ignore
    the characters if they do not attack it." Kagato (charm 5) against Kami (charm 1), no
    combat cards: no combat; Kagato takes the Piece of Cake, ignores Kami, and moves on."""
    game = bare_game(NINE)
    slot = game.field.path[1]
    kami = add_char(game, "Kami", slot)
    cake = copy_of(game, "Piece of Cake")
    game.locs[slot].hidden_cards.append(cake)
    d = new_disaster(game, "Kagato")  # movement 3
    place_disaster(game, d, 1)
    d.first_move_done = True
    game.combat_pile = []
    ed = edition("guidelines1998")
    assert fight(game, ed, ScriptedPolicy(), d, slot, "disaster") == "ignored"
    assert d.carrying == [cake] and kami.uid in d.ignores and not _rounds(game)
    assert fight(game, ed, ScriptedPolicy(), d, slot, "disaster") == "none"
    move_disasters(game, ed, ScriptedPolicy(), [])
    assert d.pos == 4 and d.carrying == [cake] and not _rounds(game)


@pytest.mark.parametrize(
    ("rule", "trained", "state"),
    [
        ("set0", False, "discard"),
        ("guidelines1998", False, "discard"),
        ("set0", True, "discard"),
        ("guidelines1998", True, "bonked"),
    ],
)
def test_location_with_damage_attacks_a_party_without_the_skills(
    rule: str, trained: bool, state: str
) -> None:
    """ "Locations with Damage": a party that stops without the skills is attacked by every
    point of the location's damage, no combat cards. A.D. Police HQ (3) against the Farmer
    (defense 1, health 1) takes 2 health: killed under set0 (Lexicon "Killed": the attack's 3
    damage is 3 x his health of 1, health -1) and under the 1998 guidelines (health -1 = minus
    his base health). With Combat Training (+1 defense) he loses 1, health 0: set0 still kills
    (the damage of the attack counts, not the health lost); the 1998 guidelines bonk him."""
    game = bare_game(["A.D. Police HQ"])
    farmer = add_char(game, "Farmer with shotgun", 0)
    if trained:
        game.globals_in_play.append((copy_of(game, "Combat Training"), 99))
        refresh(game, farmer)
        assert farmer.cur[DEF] == 2
    location_attack(game, edition(rule), [farmer], 0)
    assert farmer.zone == state


def test_set0_kill_weighs_the_attack_not_the_health_lost() -> None:
    """set0 rulebook, "A Disaster Attacking Your Character > Check Health": killed when a
    character "receives damage from one attack that is 3 times that character's health at the
    beginning of combat" and ends at 0 or less. Toma's Guards (damage 6) against Nene Romanova
    (defense 2, health 2): the attack is 6 = 3 x 2 and takes 4 health (health -2), as Tenchi
    Masaki in "Combat Between Characters". Weighing the health lost (4 < 6) would only bonk her."""
    game = bare_game(NINE)
    nene = add_char(game, "Nene Romanova", 0)
    game.combat_pile = []
    first = _one_round(game, "Toma's Guards", rule="set0")
    assert first["hits"] == [{"name": "Nene Romanova", "damage": 6, "loss": 4, "health": -2}]
    assert nene.zone == "discard"


def test_location_with_defense_yields_to_combined_damage() -> None:
    """ "Locations with Defense": a group can scavenge without the skills when its combined
    damage is greater than the location's defense (Cest Lavie: 5)."""
    game = bare_game(["Cest Lavie"])
    first = add_char(game, "Nene Romanova", 0)  # 1 damage, no Streetwise or Seduction
    assert not passes_skill_test(game, [first], 0)
    party = [first, add_char(game, "Detective Kiyone", 0), add_char(game, "Akane Tendo", 0)]
    assert sum(c.cur[DMG] for c in party) > 5
    assert passes_skill_test(game, party, 0)


@pytest.mark.parametrize(("rule", "cards"), [("set0", 2), ("guidelines1998", 4)])
def test_combat_cards_per_edition(rule: str, cards: int) -> None:
    """set0: one combat card for the attacked character and one for the disaster; 1998
    guidelines 1.4: "draw a Combat card for every Attacking Character/Disaster"."""
    game = bare_game(NINE, chance=ScriptedChance([0]))
    for name in ("Nabiki Tendo", "Nene Romanova", "Bulma"):
        add_char(game, name, 0)
    d = new_disaster(game, "Toma's Guards")  # 6/6: survives round 1
    place_disaster(game, d, game.field.path_index[0])
    stack_combat_pile(game, ["Dodge"] * 12)
    fight(game, edition(rule), Retreating(), d, 0, "disaster")
    assert len(_rounds(game)[0]["cards"]) == cards  # type: ignore[arg-type]


def test_frenzy_hits_every_character_fighting() -> None:
    """Part III "Frenzy": the disaster "will inflict damage on every character opposing it.
    Characters who are not fighting the disaster are not affected." Big Bug (major, damage 5)
    against Nabiki Tendo (defense 3), Nene Romanova (2) and Bulma (2) fighting, and Kami standing
    by: each fighter takes 5 minus its own defense; Kami takes nothing."""

    game = bare_game(NINE)
    for name in ("Nabiki Tendo", "Nene Romanova", "Bulma", "Kami"):
        add_char(game, name, 0)
    d = new_disaster(game, "Big Bug")
    place_disaster(game, d, game.field.path_index[0])
    game.combat_pile = []
    policy = Retreating(["Nabiki Tendo", "Nene Romanova", "Bulma"])
    fight(game, edition("guidelines1998"), policy, d, 0, "disaster")
    assert _rounds(game)[0]["hits"] == [
        {"name": "Nabiki Tendo", "damage": 5, "loss": 2, "health": 1},
        {"name": "Nene Romanova", "damage": 5, "loss": 3, "health": -1},
        {"name": "Bulma", "damage": 5, "loss": 3, "health": -1},
    ]


def test_two_equipment_cannot_modify_the_same_ability() -> None:
    """ "Using Equipment Cards": with Blasters (+1 damage) a character cannot also use Linna's
    Hardsuit (+1 damage, defense, movement) for damage; a +defense card works alongside. (A
    weapon with uses, such as Leon's Boomer Rifle, adds its bonus only in combat rounds.)"""
    game = bare_game(NINE)
    c = add_char(game, "Nabiki Tendo", -1)
    base = c.cur
    c.equipment += [copy_of(game, "Blasters"), copy_of(game, "Linna's Hardsuit")]
    refresh(game, c)
    assert c.cur[DMG] - base[DMG] == 1  # one of them, never both (+2)
    c.equipment = [copy_of(game, "Blasters"), copy_of(game, "Ura, The Armor Cat")]
    refresh(game, c)
    assert (c.cur[DMG] - base[DMG], c.cur[DEF] - base[DEF]) == (1, 2)
    c.equipment = [copy_of(game, "Leon's Boomer Rifle")]
    refresh(game, c)
    assert c.cur[DMG] == base[DMG], "3 uses: its +2 is spent round by round in combat"


def test_vehicle_movement_replaces_the_party_movement() -> None:
    """ "Vehicles": a vehicle's movement replaces the movement of everyone aboard (Airbus: 3)."""
    game = bare_game(NINE)
    slow = add_char(game, "Yajirobe", 0)  # movement 1
    other = add_char(game, "Nabiki Tendo", 0)
    assert party_movement(game, [slow, other]) == 1
    other.equipment.append(copy_of(game, "Airbus"))
    assert party_movement(game, [slow, other]) == 3


def test_reload_draws_until_seven_or_a_disaster() -> None:
    """ "Reload Phase": draw one card at a time until 7 in hand or a disaster is drawn; the
    disaster enters in the Maintenance phase."""
    game = bare_game(NINE)
    d = new_disaster(game, "Goons")
    game.draw_pile = [copy_of(game, "Bash"), d, copy_of(game, "Parry")]  # drawn from the end
    reload_phase(game, edition("guidelines1998"), Policy())
    assert [x.card.name for x in game.hand] == ["Parry / Handsome Lad"]
    assert game.drawn == [d] and len(game.draw_pile) == 1


@pytest.mark.parametrize("rule", ["set0", "general1996"])
def test_bonked_character_returns_after_a_full_turn(rule: str) -> None:
    """ "Bonked": out of play for one complete turn of its owner, then back to the hand at the
    Reload phase, completely healed (set0 "Reload Phase"; 1996 rules, "Basic Terms": "you may
    place it back in your hand during the Reload phase")."""
    game = bare_game(NINE)
    c = add_char(game, "Nabiki Tendo", 0)
    c.zone, c.bonked_turn = "bonked", 1
    for turn, zone in ((2, "bonked"), (3, "hand")):
        game.turn = turn
        reload_phase(game, edition(rule), Policy())
        assert c.zone == zone


def test_steal_takes_an_item_and_runs() -> None:
    """Part III "Steal": the stealer takes a random item from a character at the same location
    and immediately receives one full movement instead of attacking."""
    game = bare_game(NINE)
    first = game.field.path[1]
    c = add_char(game, "Nabiki Tendo", first)
    c.items.append(copy_of(game, "Piece of Cake"))
    najato = new_disaster(game, "Najato (Phantom Prince)")  # movement 3
    move_disasters(game, edition("guidelines1998"), Policy(), [najato])
    assert not c.items and [x.card.name for x in najato.carrying] == ["Piece of Cake"]
    assert najato.pos == 1 + najato.movement  # ran a full movement from the theft
    assert not _rounds(game)


@pytest.mark.parametrize(
    ("rule", "stolen", "steals"),
    [("set0", True, True), ("guidelines1998", True, False), ("guidelines1998", False, True)],
)
def test_stealer_holding_a_card(rule: str, stolen: bool, steals: bool) -> None:
    """set0 Part III "Steal": a stealer that already has an item drops it under its location and
    steals; the 1998 guidelines ("Steal"): "A Disaster will not Steal if it already holds a
    Stolen Item" (it drops that and attacks, as any combat disaster meeting a carrier). Holding
    an item it picked up, it steals under every edition."""
    game = bare_game(NINE)
    slot = game.field.path[1]
    c = add_char(game, "Kami", slot)
    c.items.append(copy_of(game, "Piece of Cake"))
    najato = new_disaster(game, "Najato (Phantom Prince)")
    place_disaster(game, najato, 0)
    najato.first_move_done = True
    held = copy_of(game, "Keys")
    najato.carrying.append(held)
    if stolen:
        najato.stolen = held
    game.combat_pile = []
    move_disasters(game, edition(rule), Retreating(), [])
    assert held in game.locs[slot].hidden_cards  # dropped either way
    assert (not c.items) is steals
    assert bool(_rounds(game)) is not steals


def test_ally_joins_the_nearest_combat_disaster() -> None:
    """Part III "Ally Disaster": Kodachi Kuno moves at once to the nearest combat disaster and
    allies with it, staying with it."""
    game = bare_game(NINE)
    primary = new_disaster(game, "Toma's Guards")
    place_disaster(game, primary, 4)
    primary.first_move_done = True
    kodachi = new_disaster(game, "Kodachi Kuno (The Black Rose)")
    move_disasters(game, edition("guidelines1998"), Policy(), [kodachi])
    assert kodachi.ally_of is primary and kodachi.pos == primary.pos


def test_ally_is_attacked_only_after_its_primary() -> None:
    """Part III "Ally Disaster": "characters must defeat the primary disaster before attacking
    the ally disaster". A party that attacks everything it can at its location fights Kiriya,
    The Phantom Assassin and leaves Kodachi Kuno, its ally, alone."""
    from deckkit.animayhem.engine.phases import move_phase

    class Attacker(Retreating):
        def attack(self, game, d, chars):  # type: ignore[no-untyped-def]
            return True

    game = bare_game(NINE)
    add_char(game, "Kami", 4)
    kodachi = new_disaster(game, "Kodachi Kuno (The Black Rose)")
    kiriya = new_disaster(game, "Kiriya, The Phantom Assassin")
    for d in (kodachi, kiriya):
        place_disaster(game, d, game.field.path_index[4])
    kodachi.ally_of = kiriya
    game.combat_pile = []
    move_phase(game, edition("guidelines1998"), Attacker())
    fought = [e["text"] for e in game.trace.events if e["kind"] == "combat"]  # type: ignore[union-attr]
    assert len(fought) == 1 and fought[0].startswith("Kiriya")


def test_ally_returns_to_normal_when_its_primary_leaves() -> None:
    """Part III "Ally Disaster": "If the primary disaster is removed from play, the ally
    disaster will return to its normal behavior." Kiriya, The Phantom Assassin (minor) completes
    its cycle and is discarded; Kodachi Kuno, its ally, then moves on her own."""
    game = bare_game(NINE)
    kiriya = new_disaster(game, "Kiriya, The Phantom Assassin")
    kodachi = new_disaster(game, "Kodachi Kuno (The Black Rose)")
    for d in (kiriya, kodachi):
        place_disaster(game, d, 7)
        d.first_move_done = True
    kodachi.ally_of = kiriya
    move_disasters(game, edition("guidelines1998"), Policy(), [])
    assert kiriya.zone == "discard"
    assert kodachi.ally_of is None and kodachi.zone == "discard"  # she too left the field


def test_magnet_pulls_every_disaster() -> None:
    """Part III "Magnet Disaster": every disaster on the field able to move goes to the magnet's
    location at once, and counts as having made its full movement."""
    game = bare_game(NINE)
    others = [new_disaster(game, n) for n in ("Goons", "Ginger")]
    for pos, o in zip((2, 6), others, strict=True):
        place_disaster(game, o, pos)
        o.first_move_done = True
    magnet = new_disaster(game, "Everyone's After Me")
    move_disasters(game, edition("guidelines1998"), Policy(), [magnet])
    assert all(o.pos == 0 for o in others)  # where the magnet entered, before it moves on


def _items_game(held: int, carried_off: int, hidden: int) -> Game:
    game = bare_game(NINE)
    c = add_char(game, "Kami", 0)
    c.items = [copy_of(game, "Piece of Cake") for _ in range(held)]
    game.carried_off = [copy_of(game, "Go Board") for _ in range(carried_off)]
    game.locs[1].hidden_cards = [copy_of(game, "Keys") for _ in range(hidden)]
    game.items_in_play = held + carried_off + hidden
    return game


def test_majority_ends_the_game_at_once() -> None:
    """ "Object of the Game": when more than half the items are retrieved, the game immediately
    ends (set0); 4 of 9 is not yet a majority."""
    with pytest.raises(GameOver):
        check_end(_items_game(5, 0, 4), edition("set0"))
    check_end(_items_game(4, 1, 4), edition("set0"))
    game = _items_game(0, 5, 4)
    with pytest.raises(GameOver):
        check_end(game, edition("set0"))
    assert game.outcome == "loss"


def test_1998_end_conditions_are_checked_at_discard() -> None:
    """1998 guidelines 4.1: end conditions are checked "at the beginning of the Discard
    phase"."""
    game = _items_game(5, 0, 4)
    check_end(game, edition("guidelines1998"))  # mid-turn: no end yet
    with pytest.raises(GameOver):
        check_end(game, edition("guidelines1998"), at_discard=True)
    assert game.outcome == "win"


def test_1998_seven_dragon_balls() -> None:
    """1998 guidelines 4.1: a player who controls 7 Dragon Balls at one location with Kami in
    play wins."""
    game = _items_game(0, 0, 9)
    kami = game.chars[0]
    kami.items = [
        copy_of(game, "Dragon Ball"),
        copy_of(game, "Dragon Ball"),
        copy_of(game, "2 Dragon Balls"),
        copy_of(game, "3 Dragon Balls"),
    ]
    game.locs[1].hidden_cards = game.locs[1].hidden_cards[4:]
    with pytest.raises(GameOver):
        check_end(game, edition("guidelines1998"), at_discard=True)
    assert game.outcome == "win" and "Dragon Balls" in (game.ended or "")


def test_1998_dragon_balls_with_guru_or_guardian_of_the_earth_in_play() -> None:
    """1998 guidelines 4.1: 7 Dragon Balls at one location win "with Kami, Guru, or Guardian of
    the Earth in Play". Guru and Guardian of the Earth are global effects in the card data, not
    characters: a global effect in play is enough, without Kami."""
    for keeper in ("Guru", "Guardian of the Earth"):
        game = _items_game(0, 0, 9)
        game.chars[0].zone = "discard"  # no Kami in play
        nabiki = add_char(game, "Nabiki Tendo", 0)
        nabiki.items = [
            copy_of(game, n)
            for n in ("Dragon Ball", "2 Dragon Balls", "3 Dragon Balls", "Gohan's Dragon Ball")
        ]
        game.locs[1].hidden_cards = game.locs[1].hidden_cards[4:]
        check_end(game, edition("guidelines1998"), at_discard=True)  # no keeper yet
        game.globals_in_play.append((copy_of(game, keeper), game.turn + 4))
        with pytest.raises(GameOver):
            check_end(game, edition("guidelines1998"), at_discard=True)
        assert game.outcome == "win" and "Dragon Balls" in (game.ended or ""), keeper


def _with_cko(game: Game) -> Game:
    """Make one of the player's items C-ko Kotobuki."""
    game.chars[0].items[0] = copy_of(game, "C-ko Kotobuki")
    game.tally_extra = 1
    return game


def test_cko_counts_as_two_items_in_the_final_tally() -> None:
    """C-ko Kotobuki's card: she counts as 2 items for the final item tally (card text beats the
    rules). 1998 guidelines 4.1: the game ends when one side "Controls a majority of Items";
    when all locations are scavenged the disasters win "unless one and only one player has more
    Items than anyone else". 4 of 8 cards is no majority, but with C-ko the tally is 5 of 9;
    4 cards each after every location is scavenged is 5 to 4 with her."""
    game = _with_cko(_items_game(4, 0, 4))
    with pytest.raises(GameOver):
        check_end(game, edition("guidelines1998"), at_discard=True)
    assert game.outcome == "win" and "majority" in (game.ended or "")
    game = _with_cko(_items_game(4, 4, 1))
    game.scavenged = set(range(9))
    with pytest.raises(GameOver):
        check_end(game, edition("guidelines1998"), at_discard=True)
    assert game.outcome == "win" and "scavenged" in (game.ended or "")


def test_1998_all_locations_scavenged() -> None:
    """1998 guidelines 4.1: once all locations have been scavenged the disasters win unless the
    player holds more items than they do."""
    for held, outcome in ((4, "win"), (3, "loss")):
        game = _items_game(held, 3, 9 - held - 3)
        game.scavenged = set(range(9))
        with pytest.raises(GameOver):
            check_end(game, edition("guidelines1998"), at_discard=True)
        assert game.outcome == outcome


def test_a_disaster_drawn_again_has_no_memory() -> None:
    """ "Zones of Play": a card that leaves play loses all memory of what happened to it; a
    reshuffled disaster comes back without the charm it lost or the ally it had."""
    game = bare_game(NINE)
    d = new_disaster(game, "Goons")
    d.own_ignores().add(7)
    d.incapacitated_turn = 3
    d.first_move_done = True
    game.draw_pile = [d]
    reload_phase(game, edition("guidelines1998"), Policy())
    assert game.drawn == [d]
    assert not d.ignores and d.incapacitated_turn == -1 and not d.first_move_done


def test_majority_lost_mid_maintenance_ends_the_game_at_once() -> None:
    """set0 "Object of the Game": the game ends the moment the disasters hold the majority, even
    in the middle of a Maintenance phase; under the 1998 guidelines it waits for the Discard
    phase (4.1)."""
    for rule, ends in (("set0", True), ("guidelines1998", False)):
        game = _items_game(0, 4, 4)
        game.items_in_play = 9
        d = new_disaster(game, "Goons")
        place_disaster(game, d, game.field.size - 1)
        d.first_move_done = True
        d.carrying.append(copy_of(game, "Earrings"))
        if ends:
            with pytest.raises(GameOver):
                move_disasters(game, edition(rule), Policy(), [])
            assert game.outcome == "loss"
        else:
            move_disasters(game, edition(rule), Policy(), [])
            assert game.outcome is None and len(game.carried_off) == 5


def _one_round(
    game: Game, name: str, rule: str = "set0", policy: Policy | None = None
) -> dict[str, object]:
    d = new_disaster(game, name)
    place_disaster(game, d, game.field.path_index[0])
    fight(game, edition(rule), policy or Retreating(), d, 0, "disaster")
    return _rounds(game)[0]


def test_energy_enhancement_is_paid_each_round_and_restored() -> None:
    """ "Enhancement": a character pays the energy cost each time it is used, once per combat
    round, and the effect lasts the round; "Energy Gain": +1 for spending energy; "End of Combat
    and Revitalization": full energy again. Juraian Battlesuit (cost 2, +1 damage) on Kami."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)  # damage 4, energy 6
    kami.enhancements.append(copy_of(game, "Juraian Battlesuit"))
    refresh(game, kami)
    assert kami.cur[DMG] == 4  # not outside combat: it costs energy to use
    game.combat_pile = []
    first = _one_round(game, "Toma's Guards")
    assert first["party_damage"] == 5
    assert kami.cur[ENE] == 6  # restored after the combat


def test_weapon_reloads_to_the_hand_when_its_uses_run_out() -> None:
    """ "Weapons": once a weapon has reached its maximum number of uses, it returns to its owner's
    hand, restored to its full number of uses. Armitage's Gun: +1 damage, 6 uses."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    gun = copy_of(game, "Armitage's Gun")
    gun.uses_left = 1
    kami.equipment.append(gun)
    game.combat_pile = []
    first = _one_round(game, "Toma's Guards")
    assert first["party_damage"] == 5
    assert gun in game.hand and gun not in kami.equipment and gun.uses_left == 6


def test_flash_effect_played_in_combat() -> None:
    """ "Flash Effect": played at any time but the reload phase; the targeted character pays the
    energy cost; an ability modifier lasts the combat round. The sensible player spends Big
    Sucker Gas Slash (+2 damage, cost 2) when it decides the round: Toma's Guards weakened to
    defense (and so health) 3 fall to Kami's 4 + 2, not to his 4 alone."""
    from deckkit.animayhem.engine.policy import HeuristicPolicy

    class Retreat(HeuristicPolicy):
        def retreat(self, game, d, chars, rnd):  # type: ignore[no-untyped-def]
            return rnd > 1

    game = bare_game(NINE)
    add_char(game, "Kami", 0)
    slash = copy_of(game, "Big Sucker Gas Slash")
    game.hand.append(slash)
    game.combat_pile = []
    d = new_disaster(game, "Toma's Guards")
    d.defense = 3
    place_disaster(game, d, game.field.path_index[0])
    assert fight(game, edition("set0"), Retreat(), d, 0, "disaster") == "defeated"
    first = _rounds(game)[0]
    assert first["party_damage"] == 6 and slash in game.discard and slash not in game.hand


def test_global_effect_lasts_five_turns() -> None:
    """ "Global Effect": without uses or duration it lasts 5 of your turns, including the turn it
    is played, then is discarded; its modifiers apply to your characters on the field."""
    from deckkit.animayhem.engine.phases import GLOBAL_TURNS, expire_globals

    game = bare_game(NINE)
    c = add_char(game, "Nabiki Tendo", 0)
    training = copy_of(game, "Combat Training")  # +1 damage, +1 defense
    game.turn = 1
    game.globals_in_play.append((training, game.turn + GLOBAL_TURNS - 1))
    refresh(game, c)
    assert (c.cur[DMG], c.cur[DEF]) == (2, 4)
    for turn, in_play in ((5, True), (6, False)):
        game.turn = turn
        expire_globals(game)
        assert (training in game.discard) is not in_play
    assert (c.cur[DMG], c.cur[DEF]) == (1, 3)


def test_disaster_ending_its_movement_on_characters_attacks() -> None:
    """ "A Disaster Attacking Your Character": if a disaster completes a full movement at a
    location where there are any characters (carrying items or not), it attacks."""
    game = bare_game(NINE)
    add_char(game, "Kami", game.field.path[3])  # where a drawn movement-3 disaster stops
    game.combat_pile = []
    d = new_disaster(game, "Bugrom, Type 1")
    move_disasters(game, edition("guidelines1998"), Retreating(), [d])
    assert any(e["kind"] == "combat" for e in game.trace.events)  # type: ignore[union-attr]


def test_non_combat_disaster_met_while_moving() -> None:
    """ "Move Phase": characters passing through or stopping on a location with a non-combat
    disaster are automatically affected by it (its effect is card text: counted met, cleared)."""
    from deckkit.animayhem.engine.movement import move_party
    from deckkit.animayhem.engine.record import CardStat

    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    debris = new_disaster(game, "Falling Debris")
    place_disaster(game, debris, game.field.path_index[1])
    move_party(game, edition("guidelines1998"), Policy(), [kami], [1])
    assert debris.zone == "discard"
    assert game.record.counters[(debris.card.id, CardStat.MET)] == 1


def test_six_on_the_field_and_groups_of_four() -> None:
    """ "Character Cards": at most 6 characters on the field; fifth2018: at most 4 in a group.
    The engine holds to both whatever the policy asks."""
    from deckkit.animayhem.engine.phases import move_phase
    from deckkit.animayhem.engine.queries import HAVEN

    names = ["Kami", "Nabiki Tendo", "Nene Romanova", "Bulma", "Detective Kiyone",
             "Akane Tendo", "Sylvie", "Makoto Mizuhara"]  # fmt: skip

    class Everyone(Policy):
        def moves(self, game, edition):  # type: ignore[no-untyped-def]
            return [(game.in_haven(), [game.field.haven_slot])]

    for rule, on_field_before, expected in (("guidelines1998", 5, 6), ("fifth2018", 0, 4)):
        game = bare_game(NINE)
        for i, n in enumerate(names):
            add_char(game, n, 8 if i < on_field_before else HAVEN)
        move_phase(game, edition(rule), Everyone())
        assert len(game.on_field()) == expected, rule


def test_opening_hand_by_edition() -> None:
    """set0 "Deck Construction": "Draw 7 power cards for your starting hand"; 1996 rules
    "Setup": draw 7 from the characters and power cards together."""
    from pathlib import Path

    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.construction.cards import POWER_TYPES
    from deckkit.animayhem.construction.deck import read_deck
    from deckkit.animayhem.engine.play import prepare_game, start_game

    root = Path(__file__).resolve().parent.parent
    deck = read_deck(root / "tests/data/wild-solo.deck", load_card_db())
    kinds: dict[str, set[str]] = {}
    for rule in ("set0", "guidelines1998"):
        setup = prepare_game(deck, edition(rule))
        kinds[rule] = set()
        for seed in range(30):
            game = start_game(setup, Policy(), seed, 0)
            assert len(game.hand) == 7
            kinds[rule] |= {x.card.type.value for x in game.hand}
    assert kinds["set0"] <= {t.value for t in POWER_TYPES}
    assert "character" in kinds["guidelines1998"]


def test_engine_holds_the_retaliation_rules_whatever_the_policy_asks() -> None:
    """ "Determine Retaliators": at most 3 against a minor disaster, and one of them must be the
    character being attacked, even when a policy asks for something else."""

    class Greedy(Retreating):
        def fighters(self, game, d, able, target, cap):  # type: ignore[no-untyped-def]
            return [c for c in able if c is not target] * 2

    game = bare_game(NINE, chance=ScriptedChance([0]))
    chars = [
        add_char(game, n, 0) for n in ("Nabiki Tendo", "Kami", "Bulma", "Akane Tendo", "Sylvie")
    ]
    game.combat_pile = []
    first = _one_round(game, "Toma's Guards", policy=Greedy())
    # Nabiki (1) is attacked and must fight; two more join: Kami (4) and Bulma (2).
    assert chars[0].name == "Nabiki Tendo" and first["party_damage"] == 1 + 4 + 2


def test_categories_of_carried_cards_meet_a_skill_listing() -> None:
    """set0 rulebook, "Skill Listings": the listing names "the skills and other requirements a
    group of characters need"; "Vehicles": "An equipment card may be categorized as a vehicle";
    Lexicon "Categories": look for the matching category "on cards in play". Campground asks for
    a Vehicle (Airbus is one); Tea Room Transylvania for Money (Antiques is a << Money >>
    item). Kami has neither himself."""
    game = bare_game(["Campground", "Tea Room Transylvania"])
    kami = add_char(game, "Kami", 0)
    assert not passes_skill_test(game, [kami], 0)
    kami.equipment.append(copy_of(game, "Airbus"))
    refresh(game, kami)
    assert passes_skill_test(game, [kami], 0)
    kami.slot = 1
    assert not passes_skill_test(game, [kami], 1)
    kami.items.append(copy_of(game, "Antiques"))
    assert passes_skill_test(game, [kami], 1)
    kami.items.clear()  # dropped or stolen: the category goes with the card
    assert not passes_skill_test(game, [kami], 1)


def test_location_with_damage_attacks_once_every_turn() -> None:
    """set0 rulebook, "Locations with Damage": a group that stops on it without the skills is
    attacked, and "The location will attack once per turn": a party that stays on A.D. Police
    HQ (damage 3) is attacked again the next turn, and a second party stopping there the same
    turn does not bring a second attack."""
    from deckkit.animayhem.engine.phases import move_phase

    game = bare_game(["A.D. Police HQ", "Sewer"], cells=[(0, 0), (1, 0)])
    kami = add_char(game, "Kami", 0)  # defense 4: survives every attack
    nabiki = add_char(game, "Nabiki Tendo", 1)

    class Plans(Policy):
        def __init__(self, moves):  # type: ignore[no-untyped-def]
            self.plans = moves

        def moves(self, game, edition):  # type: ignore[no-untyped-def]
            return self.plans

    def attacks() -> int:
        assert game.trace is not None
        return sum(1 for e in game.trace.events if e["kind"] == "location_attack")

    move_phase(game, edition("set0"), Plans([]))  # Kami stays: still attacked this turn
    assert attacks() == 1
    game.turn += 1
    move_phase(game, edition("set0"), Plans([([nabiki], [0])]))  # one attack on both
    assert attacks() == 3 and kami.slot == nabiki.slot == 0


@pytest.mark.parametrize(
    ("name", "damage", "defense"),
    [
        ("Bugrom Horde", lambda n: n + 2, lambda n: n + 3),
        ("55-C Bodyguard Boomer", lambda n: 3, lambda n: n + 4),
    ],
)
def test_plus_characters_disasters_count_the_characters_at_the_location(
    name: str, damage: Callable[[int], int], defense: Callable[[int], int]
) -> None:
    """Card text beats the rules (rules README, precedence): Bugrom Horde prints +2 damage and +3
    defense, 55-C Bodyguard Boomer +4 defense, as bonuses on the number of characters at their
    location (set0 rulebook, Lexicon "Current Abilities": the values after counting every
    effect). With one and with three characters there, the combat uses that count plus the
    bonus, and the disaster's health starts at its defense."""
    for party in (["Kami"], ["Kami", "Nabiki Tendo", "Bulma"]):
        game = bare_game(NINE)
        for n in party:
            add_char(game, n, 0)
        d = new_disaster(game, name)
        place_disaster(game, d, game.field.path_index[0])
        game.combat_pile = []
        fight(game, edition("guidelines1998"), Retreating(), d, 0, "disaster")
        first = _rounds(game)[0]
        count = len(party)
        assert first["disaster_defense"] == defense(count)
        assert first["hits"][0]["damage"] == damage(count)  # type: ignore[index]
    assert new_disaster(game, name).defense == defense(0)  # off the field: the bonus alone
    # A lasting modifier from card effects (interpreter/on_abilities.py writes d.defense) shifts
    # the bonus; the characters are still counted, and forgetting the card restores the printed
    # bonus.
    d = new_disaster(game, name)
    place_disaster(game, d, game.field.path_index[0])
    here = len(game.at(0))
    d.defense = d.defense - 1
    assert d.defense == defense(here) - 1
    d.forget()
    d.zone = "draw"
    assert d.defense == defense(0)


def test_rocket_launcher_needs_the_weapons_skill() -> None:
    """set0 rulebook, "Equipment": "A character can use any equipment card that it is carrying as
    long as the character fulfills the equipment's requirements." Rocket Launcher's text asks
    for the Weapons skill (tools/card_corrections.toml): Kami cannot use it, Chi-Chi (Weapons)
    can."""
    from deckkit.animayhem.construction.cards import PowerCard
    from deckkit.animayhem.engine.queries import usable
    from tests.engine_helpers import card

    launcher = card("Rocket Launcher")
    assert isinstance(launcher, PowerCard)
    game = bare_game(NINE)
    assert not usable(add_char(game, "Kami", 0), launcher)
    assert usable(add_char(game, "Chi-Chi", 0), launcher)


def test_global_effect_reaches_a_character_entering_the_field() -> None:
    """set0 rulebook, "Global Effect": a global effect applies to the current abilities of your
    characters (the engine: those on the field). Nabiki leaves the haven while Combat Training
    (+1 damage, +1 defense) is in play: she fights with the bonus from her first step."""
    from deckkit.animayhem.engine.movement import move_party

    game = bare_game(NINE)
    nabiki = add_char(game, "Nabiki Tendo", HAVEN)
    game.globals_in_play.append((copy_of(game, "Combat Training"), 5))
    assert (nabiki.cur[DMG], nabiki.cur[DEF]) == (1, 3)  # in the haven
    move_party(game, edition("guidelines1998"), Policy(), [nabiki], [game.field.haven_slot])
    assert (nabiki.cur[DMG], nabiki.cur[DEF]) == (2, 4)
