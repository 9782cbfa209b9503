"""Every trigger and action of the effect vocabulary, played from a real card's shipped entry.

tests/test_effects_engine.py writes its entries inline; here each card gets the entry that
ships in ``card_db/animayhem/effects`` (``card.effects``), so a test fails when the interpreter
stops playing the rule or when the shipped entry stops saying it. Each test is registered with
the (trigger, action) pairs it exercises; the last test checks that the registry reaches the
whole vocabulary and that every claimed pair really is in that card's shipped entry.
"""

from __future__ import annotations

from collections.abc import Callable, MutableSequence, Sequence
from dataclasses import replace
from typing import Any, TypeVar

from deckkit.animayhem.construction.cards import (
    CardType,
    CharacterCard,
    ItemCard,
    Modifier,
    PowerCard,
)
from deckkit.animayhem.construction.requirements import parse_requirement, requirement_met
from deckkit.animayhem.construction.vocabulary import Action, Coverage, Trigger
from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.chance import ScriptedChance, SeededChance
from deckkit.animayhem.engine.codes import STAT_WAS_BONKED
from deckkit.animayhem.engine.combat import fight
from deckkit.animayhem.engine.interpreter.common import apply_mods, by_trigger
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.interpreter.standing import can_act, can_move, disaster_bonus, immune
from deckkit.animayhem.engine.interpreter.turns import affect, start_turn
from deckkit.animayhem.engine.movement import move_disaster, move_disasters, place_disaster
from deckkit.animayhem.engine.phases import (
    discard_phase,
    equip_phase,
    maintenance_phase,
    move_phase,
)
from deckkit.animayhem.engine.policy import HeuristicPolicy, equip_targets, known_outlook
from deckkit.animayhem.engine.queries import (
    blocked,
    can_stop,
    equips_anywhere,
    traps,
    unlocked,
    usable,
)
from deckkit.animayhem.engine.record import CardStat
from deckkit.animayhem.engine.scavenge import passes_skill_test, scavenge
from deckkit.animayhem.engine.state import DEF, DMG, MOV, Char, Copy, Dis, Game, Loc, bump
from tests.engine_helpers import (
    ScriptedPolicy,
    add_char,
    card,
    copy_of,
    db,
    edition,
    effect_table,
    new_disaster,
    on_field,
    stack_combat_pile,
)

ED = edition("guidelines1998")
SET0 = edition("set0")

F = TypeVar("F", bound=Callable[[], None])
T = TypeVar("T")
Pair = tuple[Trigger, Action]

# test name -> (card name, the (trigger, action) pairs of its shipped entry the test plays)
COVERS: dict[str, tuple[str, tuple[Pair, ...]]] = {}

# Actions no shipped entry uses yet, so no real card can carry their rule test. The last test
# recomputes this set from the effect files: when a card starts using one, it fails until a test
# here covers it.
UNSHIPPED: frozenset[Action] = frozenset()


def covers(card_name: str, *pairs: Pair) -> Callable[[F], F]:
    """Register the test as the rule test of these pairs of ``card_name``'s shipped entry."""

    def mark(fn: F) -> F:
        COVERS[fn.__name__] = (card_name, pairs)
        return fn

    return mark


# --- building blocks ------------------------------------------------------------------------


def table(policy: ScriptedPolicy | None = None, chance: SeededChance | None = None) -> Game:
    return effect_table(policy, chance)


def shipped(game: Game, x: Dis | Char) -> None:
    """Give a disaster or character on the table its shipped effects."""
    fx = by_trigger(x.card.effects)
    assert fx is not None, f"{x.card.name} ships no effects"
    x.fx = fx
    game.fx[x.card.id] = fx


def shipped_copy(game: Game, name: str) -> Copy:
    """A copy of a non-character, non-disaster card whose shipped effects the game plays."""
    x = copy_of(game, name)
    fx = by_trigger(x.card.effects)
    assert fx is not None, f"{name} ships no effects"
    game.fx[x.card.id] = fx
    return x


def rounds(game: Game) -> list[dict[str, Any]]:
    assert game.trace is not None
    return [e for e in game.trace.events if e["kind"] == "round"]


def combats(game: Game, c: Char) -> int:
    return game.record.counters.get((c.card.id, CardStat.COMBATS), 0)


class ReversingChance(ScriptedChance):
    """Like ScriptedChance, picks the first option; a shuffle turns the pile over (deterministic,
    but it moves cards, so a reshuffle can be seen)."""

    def shuffle(self, cards: MutableSequence[T]) -> None:
        cards.reverse()

    def pick(self, options: Sequence[T]) -> T:
        return options[0]

    def below(self, n: int) -> int:
        return 0


class PlaysFlash(ScriptedPolicy):
    """Plays the given flash effects out of the hand on the given character."""

    def __init__(self, flashes: Sequence[Copy], on: Char) -> None:
        super().__init__()
        self.flashes = list(flashes)
        self.on = on

    def discards(self, game: Game) -> list[Copy | Char]:
        return list(self.flashes)

    def flash_target(self, game: Game, card: Copy) -> Char | None:
        return self.on


# --- triggers and actions on characters ---------------------------------------------------


@covers("Falling I-Beam", (Trigger.AFFECT, Action.BONK))
def test_affect_bonk_falling_i_beam() -> None:
    """Falling I-Beam: a party lacking Strength x2 and Blind Luck has one member bonked."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    akane = add_char(game, "Akane Tendo", 4)
    d = new_disaster(game, "Falling I-Beam")
    shipped(game, d)
    assert affect(game, d, 4)
    assert nene.zone == "bonked" and akane.zone == "field"
    assert d.zone == "discard"


@covers("Runaway Elevator", (Trigger.AFFECT, Action.KILL))
def test_affect_kill_runaway_elevator() -> None:
    """Runaway Elevator: with no Robot in the party, one random member there is killed."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    akane = add_char(game, "Akane Tendo", 4)
    d = new_disaster(game, "Runaway Elevator")
    shipped(game, d)
    assert affect(game, d, 4)
    assert nene.zone == "discard" and nene in game.discard
    assert akane.zone == "field"


@covers("Watch that 1st step...", (Trigger.AFFECT, Action.DAMAGE))
def test_affect_damage_watch_that_first_step() -> None:
    """Watch that 1st step...: non-flyers there lose 2 health, healed once the turn ends."""
    game = table()
    akane = add_char(game, "Akane Tendo", 4)
    nail = add_char(game, "Nail", 4)  # Flying
    d = new_disaster(game, "Watch that 1st step...")
    shipped(game, d)
    assert affect(game, d, 4)
    assert akane.health == akane.health_max - 2
    assert nail.health == nail.health_max
    start_turn(game)  # still this turn
    assert akane.health == akane.health_max - 2
    game.turn = 2
    start_turn(game)
    assert akane.health == akane.health_max


@covers("Medical Treatment", (Trigger.PLAYED, Action.HEAL))
def test_played_heal_medical_treatment() -> None:
    """Medical Treatment, played from the hand, heals a wounded character to full."""
    game = table()
    c = add_char(game, "A-ko Magami", 4)
    c.health = 1
    flash = shipped_copy(game, "Medical Treatment")
    game.hand.append(flash)
    discard_phase(game, SET0, PlaysFlash([flash], c))
    assert flash in game.discard and flash not in game.hand
    assert c.health == c.health_max


@covers("Akane's Cooking", (Trigger.AFFECT, Action.DISABLE))
def test_affect_disable_akanes_cooking() -> None:
    """Akane's Cooking: without Cooking x2 the party can do nothing this turn and the next."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    ako = add_char(game, "A-ko Magami", 4)
    d = new_disaster(game, "Akane's Cooking")
    shipped(game, d)
    assert affect(game, d, 4)
    for turn in (1, 2):
        game.turn = turn
        assert not can_act(game, nene) and not can_act(game, ako)
        assert not can_move(game, nene)
    game.turn = 3
    assert can_act(game, nene) and can_move(game, ako)


@covers("Hounded by the Press", (Trigger.AFFECT, Action.HOLD))
def test_affect_hold_hounded_by_the_press() -> None:
    """Hounded by the Press: Police or Investigation members there cannot move this turn."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)  # Police
    ako = add_char(game, "A-ko Magami", 4)
    d = new_disaster(game, "Hounded by the Press")
    shipped(game, d)
    assert affect(game, d, 4)
    assert not can_move(game, nene) and can_act(game, nene)
    assert can_move(game, ako)
    game.turn = 2
    assert can_move(game, nene)


@covers("Kidnapped", (Trigger.PASSES, Action.CAPTURE))
def test_passes_capture_kidnapped() -> None:
    """Kidnapped takes a passed character under Attack 4 away until the disaster is gone."""
    game = table()
    path = game.field.path
    ako = add_char(game, "A-ko Magami", path[1])  # Attack 4: left alone
    nene = add_char(game, "Nene Romanova", path[1])
    d = new_disaster(game, "Kidnapped")
    shipped(game, d)
    place_disaster(game, d, 0)
    move_disaster(game, SET0, ScriptedPolicy(), d, 2)
    assert nene.zone == "captured" and nene.captor == d.uid
    assert ako.zone == "field"
    game.turn = 2
    start_turn(game)
    assert nene.zone == "captured", "held while the kidnapper is in play"
    game.disasters.remove(d)
    d.zone = "discard"
    game.turn = 3
    start_turn(game)
    assert nene.zone == "haven"


def test_a_captive_comes_back_healed_of_the_fight_it_was_taken_in() -> None:
    """set0 rulebook, "Health": "Loss of health is cumulative during combat. After combat ends,
    any characters and disasters still in play are healed completely." A character captured
    mid-combat is released without that combat's damage; a card's direct damage of this turn
    (``wounded_turn``) is not a combat's and heals with the turn as usual."""
    game = table()
    path = game.field.path
    nene = add_char(game, "Nene Romanova", path[1])
    d = new_disaster(game, "Kidnapped")
    shipped(game, d)
    place_disaster(game, d, 0)
    move_disaster(game, SET0, ScriptedPolicy(), d, 2)
    assert nene.zone == "captured"
    nene.health = nene.health_max - 1  # hurt in the fight it was taken from
    game.disasters.remove(d)
    d.zone = "discard"
    game.turn = 2
    start_turn(game)
    assert nene.zone == "haven" and nene.health == nene.health_max


@covers("Dinner with Mom and Dad", (Trigger.AFFECT, Action.SEND))
def test_affect_send_dinner_with_mom_and_dad() -> None:
    """Dinner with Mom and Dad: every Student in play goes home to the haven; others stay."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # Student
    nene = add_char(game, "Nene Romanova", 2)
    ball = copy_of(game, "Dragon Ball")
    ako.items.append(ball)
    d = new_disaster(game, "Dinner with Mom and Dad")
    shipped(game, d)
    assert affect(game, d, -1)
    assert ako.zone == "haven" and ball in game.haven_cards
    assert nene.zone == "field" and nene.slot == 2


@covers("Princess Snake", (Trigger.COMBAT, Action.DROP), (Trigger.COMBAT, Action.CAPTURE))
def test_combat_drop_and_capture_princess_snake() -> None:
    """Princess Snake: a male under Charm 7 drops his gear and is captured as combat begins."""
    game = table()
    ryoga = add_char(game, "Ryoga Hibiki", 4)
    van = copy_of(game, "The Masaki Van")
    ryoga.equipment.append(van)
    d = on_field(game, new_disaster(game, "Princess Snake"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    assert van in game.locs[4].hidden_cards and not ryoga.equipment
    assert ryoga.zone == "captured" and ryoga.captor == d.uid


@covers("Barbells", (Trigger.ALWAYS, Action.GRANT))
def test_always_grant_barbells() -> None:
    """Barbells gives the character carrying it the Strength skill."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    assert nene.skill_counts.get("Strength", 0) == 0
    barbells = shipped_copy(game, "Barbells")
    nene.items.append(barbells)
    refresh(game, nene)
    assert nene.skill_counts.get("Strength", 0) == 1
    nene.items.remove(barbells)
    refresh(game, nene)
    assert nene.skill_counts.get("Strength", 0) == 0


def test_a_standing_effect_counts_once_per_character_it_reaches() -> None:
    """The per-card ``effects`` statistic ("its text acted") counts Barbells once for the one
    character it strengthens, however often that character's abilities are recomputed, and once
    more for a second character that carries it later."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    ryoga = add_char(game, "Ryoga Hibiki", 4)
    barbells = shipped_copy(game, "Barbells")
    nene.items.append(barbells)
    for _ in range(5):
        refresh(game, nene)
    used = (card("Barbells").id, CardStat.EFFECTS)
    assert game.record.counters[used] == 1
    nene.items.remove(barbells)
    ryoga.items.append(barbells)
    refresh(game, nene)
    refresh(game, ryoga)
    refresh(game, ryoga)
    assert game.record.counters[used] == 2


@covers("Assisted Flight", (Trigger.PLAYED, Action.GRANT))
def test_played_grant_assisted_flight() -> None:
    """Assisted Flight lets the character it is played on fly for 3 turns (this one too)."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    flash = shipped_copy(game, "Assisted Flight")
    game.hand.append(flash)
    assert ako.skill_counts.get("Flying", 0) == 0
    discard_phase(game, SET0, PlaysFlash([flash], ako))
    for turn in (1, 2, 3):
        game.turn = turn
        start_turn(game)
        assert ako.skill_counts.get("Flying", 0) == 1, f"flying in turn {turn}"
    game.turn = 4
    start_turn(game)
    assert ako.skill_counts.get("Flying", 0) == 0


@covers("Old Woman", (Trigger.AFFECT, Action.TRANSFORM), (Trigger.AFFECT, Action.MODIFY))
def test_affect_transform_old_woman() -> None:
    """Old Woman: transforming characters change form; the rest get -1/-1 next combat."""
    game = table()
    ryoga = add_char(game, "Ryoga Hibiki", 4)
    ako = add_char(game, "A-ko Magami", 2)
    alt = ryoga.card.alt
    assert alt is not None
    d = new_disaster(game, "Old Woman")
    shipped(game, d)
    assert affect(game, d, -1)
    assert (ryoga.cur[DMG], ryoga.cur[DEF], ryoga.cur[MOV]) == (
        alt.damage,
        alt.defense,
        alt.movement,
    )
    assert not ryoga.pending, "Ryoga is named among those spared the penalty"
    assert apply_mods(ako.pending, ako.cur[DMG], ako.cur[DEF]) == (3, 3)
    assert (ako.cur[DMG], ako.cur[DEF]) == (4, 4), "the penalty waits for the next combat"


# --- triggers and actions on disasters ------------------------------------------------------


@covers("Nappa", (Trigger.ENTERS, Action.MODIFY))
def test_enters_modify_nappa_under_a_full_moon() -> None:
    """Nappa enters transformed (9/12) while Full Moon is in play, else as printed (6/8)."""
    game = table()
    on_field(game, new_disaster(game, "Full Moon"), game.field.path[5])
    nappa = new_disaster(game, "Nappa")
    shipped(game, nappa)
    move_disasters(game, SET0, ScriptedPolicy(), [nappa])
    assert (nappa.damage, nappa.defense) == (9, 12)
    plain = table()
    other = new_disaster(plain, "Nappa")
    shipped(plain, other)
    move_disasters(plain, SET0, ScriptedPolicy(), [other])
    assert (other.damage, other.defense) == (6, 8)


@covers("Zarbon", (Trigger.ROUND, Action.MODIFY))
def test_round_modify_zarbon_transforms_in_the_third_round() -> None:
    """Zarbon becomes 10/10 for the rest of the game once 2 combat rounds have passed."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99  # outlast the fight
    d = on_field(game, new_disaster(game, "Zarbon"), 4)
    shipped(game, d)
    d.charm = 0  # no charm battle in this test
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    damage = [e["hits"][0]["damage"] for e in rounds(game)]
    assert damage[:2] == [6, 6]
    assert (d.damage, d.defense) == (10, 10)
    # From round 4 at least (round 3 itself: the test below).
    assert damage[3:] and set(damage[3:]) == {10}


@covers("Zarbon", (Trigger.ROUND, Action.MODIFY))
def test_round_modify_zarbon_third_round_already_transformed() -> None:
    """Zarbon already fights its third combat round at 10/10 (round fires before damage)."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99
    d = on_field(game, new_disaster(game, "Zarbon"), 4)
    shipped(game, d)
    d.charm = 0
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    third = rounds(game)[2]
    assert third["hits"][0]["damage"] == 10
    assert third["disaster_defense"] == 10


@covers("Ebi-Furiya", (Trigger.HITS, Action.MODIFY))
def test_hits_modify_ebi_furiya() -> None:
    """Ebi-Furiya: each of its hits that takes health costs that character 1 movement."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # first in line: the one attacked
    helpers = [add_char(game, n, 4) for n in ("Akane Tendo", "Mr. Masamichi Fujisawa")]
    moves = [c.cur[MOV] for c in (ako, *helpers)]
    d = on_field(game, new_disaster(game, "Ebi-Furiya"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "party") == "defeated"
    (only,) = rounds(game)
    assert [(h["name"], h["loss"]) for h in only["hits"]] == [(ako.name, 1)]
    assert [c.cur[MOV] for c in (ako, *helpers)] == [moves[0] - 1, *moves[1:]]


@covers("Kagato", (Trigger.LANDS, Action.DESTROY))
def test_lands_destroy_kagato() -> None:
    """Kagato destroys one item under each location it lands on; it counts for the disasters."""
    game = table()
    game.items_in_play = 2
    slot = game.field.path[2]
    first, second = copy_of(game, "Dragon Ball"), copy_of(game, "Antiques")
    assert isinstance(first.card, ItemCard) and isinstance(second.card, ItemCard)
    game.locs[slot].hidden_cards.extend([first, second])
    d = new_disaster(game, "Kagato")
    shipped(game, d)
    place_disaster(game, d, 0)
    d.first_move_done = True  # past the first-movement pickup (set0 rulebook)
    move_disaster(game, SET0, ScriptedPolicy(), d, 2)
    assert game.slot_of(d) == slot
    assert game.carried_off == [first] and game.items_disasters() == 1
    assert game.locs[slot].hidden_cards == [second], "one item a landing"


@covers("Falling Debris", (Trigger.LANDS, Action.BLOCK))
def test_lands_block_falling_debris() -> None:
    """Falling Debris blocks the location it lands on for 3 turns: no party may stop there."""
    game = table()
    c = add_char(game, "A-ko Magami", game.field.path[6])
    d = new_disaster(game, "Falling Debris")
    shipped(game, d)
    place_disaster(game, d, 0)
    move_disaster(game, SET0, ScriptedPolicy(), d, 2)
    slot = game.field.path[2]
    assert game.slot_of(d) == slot
    assert blocked(game, slot) and not can_stop(game, [c], slot)
    game.turn = 3
    assert blocked(game, slot)
    game.turn = 4
    assert not blocked(game, slot) and can_stop(game, [c], slot)


@covers("Tank Special", (Trigger.DEFEATED, Action.BLOCK))
def test_defeated_block_tank_special() -> None:
    """Tank Special, once defeated, leaves its location blocked for 3 turns."""
    game = table()
    for name in ("A-ko Magami", "Akane Tendo", "Mr. Masamichi Fujisawa"):
        add_char(game, name, 4)
    d = on_field(game, new_disaster(game, "Tank Special"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    assert not blocked(game, 4)
    assert fight(game, ED, ScriptedPolicy(), d, 4, "party") == "defeated"
    assert d.zone == "discard"
    assert blocked(game, 4)
    game.turn = 4
    assert not blocked(game, 4)


@covers("Angry Schoolgirls", (Trigger.WINS, Action.TAKE))
def test_wins_take_angry_schoolgirls() -> None:
    """Angry Schoolgirls, winning a combat, take the item their bonked victim dropped."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    ball = copy_of(game, "Dragon Ball")
    nene.items.append(ball)
    d = on_field(game, new_disaster(game, "Angry Schoolgirls"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "wiped"
    assert nene.zone == "bonked"
    assert d.carrying == [ball] and ball not in game.locs[4].hidden_cards


@covers("Kiriya, The Phantom Assassin", (Trigger.KNOCKS_OUT, Action.DISCARD_HAND))
def test_knocks_out_discard_hand_kiriya() -> None:
    """Kiriya, The Phantom Assassin costs a card from the hand per character it knocks out."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    hand = [copy_of(game, "Sewer"), copy_of(game, "Dragon Ball")]
    game.hand.extend(hand)
    d = on_field(game, new_disaster(game, "Kiriya, The Phantom Assassin"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    assert nene.zone == "bonked"
    assert len(game.hand) == 1
    assert sum(1 for x in hand if x in game.discard) == 1


@covers("Tatewaki Kuno", (Trigger.KNOCKS_OUT, Action.CAPTURE))
def test_knocks_out_capture_tatewaki_kuno() -> None:
    """Tatewaki Kuno takes the opponent it beats out of play for 3 turns, not just bonked."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    d = on_field(game, new_disaster(game, "Tatewaki Kuno"), 4)
    shipped(game, d)
    d.charm = 0  # no charm battle in this test
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    assert nene.zone == "captured"
    for turn in (2, 3):
        game.turn = turn
        start_turn(game)
        assert nene.zone == "captured", f"still away in turn {turn}"
    game.turn = 4
    start_turn(game)
    assert nene.zone == "haven"


@covers("Red Tape", (Trigger.AFFECT, Action.RESHUFFLE_HAND))
def test_affect_reshuffle_hand_red_tape() -> None:
    """Red Tape: the hand goes back into the shuffled draw pile and as many cards are drawn."""
    game = table(chance=ReversingChance())
    hand = [copy_of(game, "Sewer"), copy_of(game, "Cathedral")]
    pile = [copy_of(game, "Dragon Ball"), copy_of(game, "Antiques"), copy_of(game, "Barbells")]
    game.hand = list(hand)
    game.draw_pile = list(pile)
    d = new_disaster(game, "Red Tape")
    shipped(game, d)
    assert affect(game, d, -1)
    assert len(game.hand) == 2
    assert set(map(id, game.hand)) == {id(pile[0]), id(pile[1])}
    assert all(x in game.draw_pile for x in hand)
    assert len(game.draw_pile) == 3


@covers("Dobermans", (Trigger.LANDS, Action.MOVE_TO))
def test_lands_move_to_dobermans() -> None:
    """Dobermans jump to the nearest character after moving and attack it there."""
    game = table()
    path = game.field.path
    target = path[6]
    nene = add_char(game, "Nene Romanova", target)
    d = new_disaster(game, "Dobermans")
    shipped(game, d)
    place_disaster(game, d, 0)
    move_disaster(game, SET0, ScriptedPolicy(), d, 1)
    assert game.slot_of(d) == target
    assert combats(game, nene) == 1


@covers("Akane's Rage", (Trigger.TURN, Action.ATTACK))
def test_turn_attack_akanes_rage_goes_for_the_nearest_male() -> None:
    """Akane's Rage attacks the nearest male each Maintenance, passing a nearer female by."""
    game = table()
    path = game.field.path
    akane = add_char(game, "Akane Tendo", path[1])
    ryoga = add_char(game, "Ryoga Hibiki", path[8])
    d = new_disaster(game, "Akane's Rage")
    shipped(game, d)
    place_disaster(game, d, 0)
    stack_combat_pile(game, [])
    maintenance_phase(game, SET0, ScriptedPolicy())
    assert combats(game, ryoga) == 1
    assert combats(game, akane) == 0


@covers("Everyone's After Me", (Trigger.AFFECT, Action.PULL))
def test_affect_pull_everyones_after_me() -> None:
    """Everyone's After Me pulls every disaster on the field to where it takes effect."""
    game = table()
    path = game.field.path
    kagato = on_field(game, new_disaster(game, "Kagato"), path[1])
    dogs = on_field(game, new_disaster(game, "Dobermans"), path[7])
    c = add_char(game, "A-ko Magami", 4)
    d = new_disaster(game, "Everyone's After Me")
    shipped(game, d)
    assert affect(game, d, c.slot)
    assert game.slot_of(kagato) == game.slot_of(dogs) == 4


@covers("Soja Guardians", (Trigger.PASSES, Action.ATTACK))
def test_passes_attack_soja_guardians() -> None:
    """Soja Guardians attack every character they pass, carrying an item or not."""
    game = table()
    path = game.field.path
    nene = add_char(game, "Nene Romanova", path[1])  # carries nothing
    d = new_disaster(game, "Soja Guardians")
    shipped(game, d)
    place_disaster(game, d, 0)
    stack_combat_pile(game, [])
    move_disaster(game, SET0, ScriptedPolicy(), d, 3)
    assert combats(game, nene) == 1
    assert nene.zone == "bonked"


def bridge_party(game: Game) -> tuple[Char, Copy, Copy]:
    """Seito Bridge at location 4 with an item under it, and Al (Tech) there holding a planetary
    vehicle: (Al, the vehicle, the item)."""
    bridge = shipped_copy(game, "Seito Bridge")
    game.locs[4] = Loc(4, bridge)
    ball = copy_of(game, "Dragon Ball")
    game.locs[4].hidden_cards.append(ball)
    al = add_char(game, "Al", 4)  # Tech
    ship = copy_of(game, "Gravity Ship")  # Planetary Vehicle
    al.equipment.append(ship)
    return al, ship, ball


@covers("Seito Bridge", (Trigger.SCAVENGED, Action.DESTROY))
def test_scavenged_destroy_seito_bridge_costs_the_vehicle() -> None:
    """Seito Bridge: scavenging it with a planetary vehicle costs the party the vehicle."""
    game = table()
    al, ship, ball = bridge_party(game)
    assert scavenge(game, ED, ScriptedPolicy(), [al], 4)
    assert ball in al.items
    assert ship not in al.equipment and ship in game.discard


@covers("Seito Bridge", (Trigger.SCAVENGED, Action.DESTROY_LOCATION))
def test_scavenged_destroy_location_seito_bridge_is_wrecked() -> None:
    """Seito Bridge: scavenging it with a planetary vehicle wrecks the bridge as well."""
    game = table()
    al, ship, _ = bridge_party(game)
    assert scavenge(game, ED, ScriptedPolicy(), [al], 4)
    assert game.locs[4].destroyed
    assert ship in game.discard


@covers("Galaxy Destroyer", (Trigger.LANDS, Action.DESTROY_LOCATION), (Trigger.LANDS, Action.KILL))
def test_lands_destroy_location_galaxy_destroyer() -> None:
    """Galaxy Destroyer's every 4th landing kills all there and removes the location."""
    game = table()
    path = game.field.path
    nene = add_char(game, "Nene Romanova", path[4])
    d = new_disaster(game, "Galaxy Destroyer")
    shipped(game, d)
    place_disaster(game, d, 0)
    for step in (1, 2, 3):
        move_disaster(game, SET0, ScriptedPolicy(), d, 1)
        assert not game.locs[path[step]].destroyed
    move_disaster(game, SET0, ScriptedPolicy(), d, 1)
    assert game.slot_of(d) == path[4]
    assert game.locs[path[4]].destroyed
    assert nene.zone == "discard"


@covers("Brian J. Mason", (Trigger.ALWAYS, Action.EXTRA_CARDS))
def test_always_extra_cards_brian_j_mason() -> None:
    """Brian J. Mason, in play off the field, gives combat disasters one more combat card."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    add_char(game, "A-ko Magami", 4)
    brian = new_disaster(game, "Brian J. Mason")
    shipped(game, brian)
    affect(game, brian, -1)
    assert brian.zone == "lasting"
    soja = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 12)
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), soja, 4, "party")
    first = rounds(game)[0]
    assert len(first["cards"]) == 3  # A-ko's one, the disaster's two


@covers("Brian J. Mason", (Trigger.TURN, Action.DISCARD), (Trigger.AFFECT, Action.DISCARD))
def test_turn_discard_brian_j_mason_with_largo() -> None:
    """Brian J. Mason leaves play (not defeated) as soon as Largo is in play."""
    game = table()
    brian = new_disaster(game, "Brian J. Mason")
    shipped(game, brian)
    affect(game, brian, -1)
    assert brian.zone == "lasting"
    maintenance_phase(game, SET0, ScriptedPolicy())
    assert brian.zone == "lasting", "no Largo yet"
    on_field(game, new_disaster(game, "Largo"), game.field.path[0])
    maintenance_phase(game, SET0, ScriptedPolicy())
    assert brian.zone == "discard" and brian in game.discard
    assert not game.lasting
    assert game.record.counters.get((brian.card.id, CardStat.DEFEATED), 0) == 0
    again = new_disaster(game, "Brian J. Mason")
    shipped(game, again)
    affect(game, again, -1)
    assert again.zone == "discard" and not game.lasting


@covers("Kirin", (Trigger.ALWAYS, Action.IGNORE_CARDS))
def test_always_ignore_cards_kirin() -> None:
    """Kirin is unaffected by combat cards, whether they would help or hurt it."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99
    d = on_field(game, new_disaster(game, "Kirin"), 4)
    shipped(game, d)
    d.charm = 0  # no charm battle in this test
    # A-ko draws Hammer (her opponent -1 defense), Kirin draws Assault (+2 attack).
    stack_combat_pile(game, ["Hammer / Lover's Kiss", "Assault / Shining Knight"])
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    first = rounds(game)[0]
    assert first["cards"] and len(first["cards"]) == 2
    assert first["disaster_defense"] == 5
    assert first["hits"][0]["damage"] == 6


@covers("Martian Security Forces", (Trigger.ALWAYS, Action.PREFER))
def test_always_prefer_martian_security_forces() -> None:
    """Martian Security Forces attack Police, Robot or Android characters first."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # first in line for a random pick
    nene = add_char(game, "Nene Romanova", 4)  # Police
    nene.health = nene.health_max = 99
    d = on_field(game, new_disaster(game, "Martian Security Forces"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(["A-ko Magami", "Nene Romanova"]), d, 4, "disaster")
    first = rounds(game)[0]
    assert [h["name"] for h in first["hits"]] == [nene.name]
    assert ako.health == ako.health_max


@covers("Happosai", (Trigger.ALWAYS, Action.SPARE))
def test_always_spare_happosai() -> None:
    """Happosai only starts fights with females: a male at his location is left alone."""
    game = table()
    ryoga = add_char(game, "Ryoga Hibiki", 4)
    d = on_field(game, new_disaster(game, "Happosai"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "none"
    assert combats(game, ryoga) == 0
    akane = add_char(game, "Akane Tendo", 4)
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    assert combats(game, akane) == 1 and combats(game, ryoga) == 0


@covers("Kishiime", (Trigger.ALWAYS, Action.SHIELD))
def test_always_shield_kishiime() -> None:
    """Kishiime takes damage only from Speed characters; the rest of the party's is lost."""
    fighters = ScriptedPolicy(["A-ko Magami", "Piccolo"])
    game = table(fighters)
    add_char(game, "A-ko Magami", 4)  # attack 4, no Speed
    piccolo = add_char(game, "Piccolo", 4)  # attack 5, Speed
    d = on_field(game, new_disaster(game, "Kishiime"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, fighters, d, 4, "party")
    first = rounds(game)[0]
    assert first["party_damage"] == piccolo.cur[DMG] == 5


@covers("The Pit", (Trigger.ALWAYS, Action.DUEL))
def test_always_duel_the_pit() -> None:
    """Only one character may fight The Pit at a time: a party of three attacks with one."""
    fighters = ScriptedPolicy(["A-ko Magami", "Piccolo", "Krillin"])
    game = table(fighters)
    for name in ("A-ko Magami", "Piccolo", "Krillin"):
        add_char(game, name, 4)
    d = on_field(game, new_disaster(game, "The Pit"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, fighters, d, 4, "party")
    first = rounds(game)[0]
    assert first["party_damage"] in {c.cur[DMG] for c in game.chars}


@covers("Toma's Guards", (Trigger.ALWAYS, Action.APART))
def test_always_apart_tomas_guards() -> None:
    """Toma's Guards defend against each attack on its own: 4 and 5 damage against defense 6
    take nothing, where 9 together would take 3."""
    fighters = ScriptedPolicy(["A-ko Magami", "Piccolo"])
    game = table(fighters)
    add_char(game, "A-ko Magami", 4)
    add_char(game, "Piccolo", 4)
    d = on_field(game, new_disaster(game, "Toma's Guards"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    fight(game, ED, fighters, d, 4, "party")
    first = rounds(game)[0]
    assert first["disaster_defense"] == 6
    assert first["disaster_loss"] == 0 < first["party_damage"] - 6


@covers("Dobermans", (Trigger.COMBAT, Action.DEFEAT))
def test_combat_defeat_dobermans_for_a_vehicle() -> None:
    """Dobermans are defeated when the party gives up a vehicle as combat begins."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    van = copy_of(game, "The Masaki Van")
    ako.equipment.append(van)
    d = on_field(game, new_disaster(game, "Dobermans"), 4)
    shipped(game, d)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "defeated"
    assert van in game.discard and not ako.equipment
    assert d.zone == "discard" and not rounds(game)
    assert game.record.counters.get((d.card.id, CardStat.DEFEATED), 0) == 1


@covers("Antiques", (Trigger.ALWAYS, Action.UNLOCK))
def test_always_unlock_antiques() -> None:
    """Antiques lets its carrier's party scavenge a Museum without the listed skills."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    game.locs[4] = Loc(4, copy_of(game, "Museum"))
    assert not passes_skill_test(game, [nene], 4)
    nene.items.append(shipped_copy(game, "Antiques"))
    game.locs[4].hidden_cards.append(copy_of(game, "Keys"))  # something to scavenge there
    used = (card("Antiques").id, CardStat.EFFECTS)
    assert 4 in HeuristicPolicy()._targets(game, [nene])  # the player sees the way in...
    assert used not in game.record.counters  # ...and weighing it is no use of the card
    assert passes_skill_test(game, [nene], 4)
    assert game.record.counters[used] == 1


# --- character-side additions: health, protection, requirement waivers, disaster rules -----


class UsesItems(ScriptedPolicy):
    """Gives up every carried card it is asked for (to heal, strike first, stop a disaster)."""

    def use_item(self, game: Game, card: Copy, who: list[Char], fought: Dis | None) -> bool:
        return True

    def pay_item(self, game: Game, source: Dis | Char | Copy) -> bool:
        return True


class Runs(ScriptedPolicy):
    """Asks to run away from every fight."""

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return True


# --- combat cards: their text played as they are drawn -------------------------------------


def combat_card_table(*names: str) -> Game:
    """A table whose game plays the shipped text of these combat cards."""
    game = table(ScriptedPolicy(["A-ko Magami"]))
    for name in names:
        game.fx[card(name).id] = shipped_fx(name)
    return game


def shipped_fx(name: str) -> Any:
    fx = by_trigger(card(name).effects)
    assert fx is not None, f"{name} ships no effects"
    return fx


@covers("Screw Kick / Comfy?", (Trigger.PLAYED, Action.MODIFY))
def test_played_modify_combat_card_screw_kick() -> None:
    """Screw Kick, drawn for A-ko (Strength x3), adds 2 to her attack and 1 more for Strength;
    drawn for the disaster, only the 2 (it has no Strength)."""
    game = combat_card_table("Screw Kick / Comfy?")
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99
    d = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    stack_combat_pile(game, ["Screw Kick / Comfy?", "Screw Kick / Comfy?"])
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    first = rounds(game)[0]
    assert first["party_damage"] == 4 + 3
    assert first["hits"][0]["damage"] == 4 + 2
    assert game.record.counters[(card("Screw Kick / Comfy?").id, CardStat.EFFECTS)] >= 2
    # Without its text the same draw adds nothing (its columns print no attack).
    plain = table(ScriptedPolicy(["A-ko Magami"]))
    ako2 = add_char(plain, "A-ko Magami", 4)
    ako2.health = ako2.health_max = 99
    d2 = on_field(plain, new_disaster(plain, "Soja Guardians"), 4)
    stack_combat_pile(plain, ["Screw Kick / Comfy?", "Screw Kick / Comfy?"])
    fight(plain, ED, ScriptedPolicy(["A-ko Magami"]), d2, 4, "party")
    assert rounds(plain)[0]["party_damage"] == 4


def test_played_combat_card_charm_half_in_a_charm_battle() -> None:
    """Startled / Pretty Lady: a Female recipient gets +1 charm in a charm battle; the
    disaster, with no gender, does not."""
    game = combat_card_table("Startled / Pretty Lady")
    ako = add_char(game, "A-ko Magami", 4)  # Female, charm 3
    d = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    d.charm = 4
    stack_combat_pile(game, ["Startled / Pretty Lady", "Startled / Pretty Lady"])
    half = card("Startled / Pretty Lady").charm  # type: ignore[attr-defined]
    from deckkit.animayhem.engine.combat import apply_charm_half, charm_battle

    theirs, mine = apply_charm_half(half, 4, 3)
    mine, theirs = apply_charm_half(half, mine, theirs)
    assert charm_battle(game, ako, d) == max(0, mine + 1) - max(0, theirs)


@covers("Lunch Break / All Dressed Up", (Trigger.PLAYED, Action.HEAL))
def test_played_heal_combat_card_lunch_break() -> None:
    """Lunch Break restores both sides' health in the round it is drawn."""
    game = combat_card_table("Lunch Break / All Dressed Up")
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = 1
    d = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    d.charm = 0
    stack_combat_pile(game, ["Lunch Break / All Dressed Up"] * 2)
    fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
    first = rounds(game)[0]
    # A-ko fought the round at full health (4) and took 4 - 4 = 0; the disaster healed to 4.
    assert first["hits"][0]["health"] == ako.health_max
    assert first["disaster_health"] == 4


# --- the player's piles, captives, blocks, pushes, uses and spared lives --------------------


def play_flash(game: Game, name: str, on: Char) -> Copy:
    """Play a flash effect's shipped text out of the hand on ``on`` (the Discard phase)."""
    flash = shipped_copy(game, name)
    game.hand.append(flash)
    discard_phase(game, SET0, PlaysFlash([flash], on))
    assert flash in game.discard and flash not in game.hand
    return flash


@covers("Rescue", (Trigger.PLAYED, Action.RECOVER))
def test_played_recover_rescue() -> None:
    """Rescue shuffles two discarded cards back into the draw pile: a killed character first,
    then the power card with the larger bonus; never an item, never a disaster."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    dead = add_char(game, "Krillin", 4)
    from deckkit.animayhem.engine.combat import knock_out

    knock_out(game, dead, "killed", None)
    assert dead.zone == "discard"
    gun, kiss, item = (copy_of(game, n) for n in ("Leon's Missle Gun", "Hand Gun", "Keys"))
    dis = new_disaster(game, "Ginger")
    dis.zone = "discard"
    game.discard += [kiss, item, dis, gun]
    play_flash(game, "Rescue", ako)
    assert dead in game.draw_pile and dead.zone == "draw"
    assert gun in game.draw_pile  # +3 beats the Hand Gun's +1
    assert kiss in game.discard and item in game.discard and dis in game.discard


@covers("Angel of Mercy", (Trigger.PLAYED, Action.RECOVER))
def test_played_recover_angel_of_mercy_back_to_play() -> None:
    """Angel of Mercy brings a killed character back into play, in the haven at full health."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    dead = add_char(game, "Krillin", 4)
    from deckkit.animayhem.engine.combat import knock_out

    knock_out(game, dead, "killed", None)
    play_flash(game, "Angel of Mercy", ako)
    assert dead.zone == "haven" and dead not in game.discard
    assert dead.health == dead.health_max


@covers("Hidden Weapon", (Trigger.PLAYED, Action.FETCH))
def test_played_fetch_hidden_weapon() -> None:
    """Hidden Weapon equips the character with a weapon searched out of the draw pile."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    gun = copy_of(game, "Leon's Missle Gun")
    other = copy_of(game, "Keys")
    game.draw_pile = [gun, other]
    play_flash(game, "Hidden Weapon", ako)
    assert ako.equipment == [gun]
    assert game.draw_pile == [other]


@covers("Go Fish", (Trigger.PLAYED, Action.DRAW))
def test_played_draw_go_fish() -> None:
    """Go Fish draws one card: a disaster drawn is discarded, anything else joins the hand."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    keys = copy_of(game, "Keys")
    dis = new_disaster(game, "Ginger")
    game.draw_pile = [keys, dis]  # drawn from the end
    play_flash(game, "Go Fish", ako)
    assert dis in game.discard and dis.zone == "discard" and dis not in game.hand
    play_flash(game, "Go Fish", ako)
    assert keys in game.hand and not game.draw_pile


@covers("Jail Break", (Trigger.PLAYED, Action.FREE))
def test_played_free_jail_break() -> None:
    """Jail Break frees a captured character: it returns to the haven now."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    nene = add_char(game, "Nene Romanova", 4)
    captor = on_field(game, new_disaster(game, "Ginger"), 4)
    nene.zone, nene.slot, nene.captor, nene.return_turn = "captured", -1, captor.uid, 1 << 30
    play_flash(game, "Jail Break", ako)
    assert nene.zone == "haven" and nene.captor == -1


@covers("Forceful Passage", (Trigger.PLAYED, Action.UNBLOCK))
def test_played_unblock_forceful_passage() -> None:
    """Forceful Passage opens a blocked location and discards the card blocking it."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    debris = on_field(game, new_disaster(game, "Falling Debris"), 5)
    game.blocked[5] = (1 << 30, debris.uid)
    assert blocked(game, 5)
    play_flash(game, "Forceful Passage", ako)
    assert not blocked(game, 5)
    assert debris.zone == "discard" and debris not in game.disasters


@covers("Power Push", (Trigger.PLAYED, Action.PUSH))
def test_played_push_power_push() -> None:
    """Power Push moves the combat disaster at the party's location one location away."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    pos = d.pos
    play_flash(game, "Power Push", ako)
    assert abs(d.pos - pos) == 1 and game.slot_of(d) != 4
    assert d.zone == "field"


@covers("Reload", (Trigger.PLAYED, Action.RELOAD))
def test_played_reload_restores_a_weapons_uses() -> None:
    """Reload gives a partly spent weapon its printed uses back."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    pistol = copy_of(game, "Mihoshi's Laser Pistol")
    assert pistol.uses_left == 6  # uses from the card text (card_db README)
    pistol.uses_left = 2
    ako.equipment.append(pistol)
    play_flash(game, "Reload", ako)
    assert pistol.uses_left == 6


@covers("Immortality", (Trigger.ALWAYS, Action.SURVIVE))
def test_always_survive_immortality() -> None:
    """Immortality: its character cannot be killed, only bonked."""
    from deckkit.animayhem.engine.combat import knock_out

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.enhancements.append(shipped_copy(game, "Immortality"))
    knock_out(game, ako, "killed", None)
    assert ako.zone == "bonked" and ako not in game.discard
    plain = table()
    nene = add_char(plain, "Nene Romanova", 4)
    knock_out(plain, nene, "killed", None)
    assert nene.zone == "discard"


@covers("Hey, you're not dead!", (Trigger.PLAYED, Action.SURVIVE))
def test_played_survive_hey_youre_not_dead_from_the_hand() -> None:
    """Hey, you're not dead!, held in the hand, is played when a character would be killed:
    the character is bonked instead, and the card is spent."""
    from deckkit.animayhem.engine.combat import knock_out

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    flash = shipped_copy(game, "Hey, you're not dead!")
    game.hand.append(flash)
    knock_out(game, ako, "killed", None)
    assert ako.zone == "bonked"
    assert flash in game.discard and flash not in game.hand
    nene = add_char(game, "Nene Romanova", 4)
    knock_out(game, nene, "killed", None)
    assert nene.zone == "discard", "spent: the next kill stands"


def genom_tower_table() -> tuple[Game, Char, int]:
    """A-ko (Strength x3, attack 4, no Police) before Genom Tower: Computer & Tech, or Police &
    Strength & Attack 4+."""
    game = table()
    slot = 4
    game.locs[slot] = Loc(slot, copy_of(game, "Genom Tower"))
    ako = add_char(game, "A-ko Magami", slot)
    assert not passes_skill_test(game, [ako], slot)
    return game, ako, slot


@covers("Electronic Day Planner", (Trigger.ALWAYS, Action.EASE))
def test_always_ease_electronic_day_planner() -> None:
    """Electronic Day Planner ignores one listed skill of a location needing more than one:
    A-ko lacks only Police in the second alternative."""
    game, ako, slot = genom_tower_table()
    ako.equipment.append(shipped_copy(game, "Electronic Day Planner"))
    assert passes_skill_test(game, [ako], slot)
    nene_game, nene, nslot = genom_tower_table()
    nene.equipment.append(shipped_copy(nene_game, "Electronic Day Planner"))
    nene.base = (1, 2, 2, 3, 0)  # attack below 4: two terms missing, one ignored is not enough
    refresh(nene_game, nene)
    assert not passes_skill_test(nene_game, [nene], nslot)


@covers("Breaking and Entering", (Trigger.ALWAYS, Action.EASE))
def test_always_ease_breaking_and_entering() -> None:
    """Breaking and Entering, in play, lets a party in with only one of the listed skills."""
    game, ako, slot = genom_tower_table()
    g = shipped_copy(game, "Breaking and Entering")
    game.globals_in_play.append((g, 5))
    assert passes_skill_test(game, [ako], slot)


@covers("Comm Phone", (Trigger.TURN, Action.RECOVER))
def test_turn_recover_comm_phone_equipment_fires_each_maintenance() -> None:
    """Comm Phone, equipped, brings an enhancement back from the discard pile to the hand at a
    Maintenance phase; its two uses spent, it brings no more."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.equipment.append(shipped_copy(game, "Comm Phone"))
    enh = [copy_of(game, "Immortality") for _ in range(3)]
    game.discard += enh
    for turn in (2, 3, 4):
        game.turn = turn
        maintenance_phase(game, SET0, ScriptedPolicy())
    assert sum(x in game.hand for x in enh) == 2
    assert sum(x in game.discard for x in enh) == 1


@covers("Heavy Gravity Training", (Trigger.TURN, Action.MODIFY))
def test_turn_modify_heavy_gravity_training_enhancement() -> None:
    """Heavy Gravity Training adds 1 attack at each Maintenance phase, at most 3."""
    game = table()
    ako = add_char(game, "A-ko Magami", -1)
    ako.enhancements.append(shipped_copy(game, "Heavy Gravity Training"))
    refresh(game, ako)
    for turn in range(2, 7):
        game.turn = turn
        maintenance_phase(game, SET0, ScriptedPolicy())
    assert ako.cur[DMG] == 4 + 3


class FlashInCombat(ScriptedPolicy):
    """Plays one flash effect in the first combat round, on the given character."""

    def __init__(self, flash: Copy, on: str) -> None:
        super().__init__([on])
        self.flash: Copy | None = flash
        self.on = on

    def combat_flash(
        self, game: Game, fighters: list[Char], target: Char, short_damage: int, short_defense: int
    ) -> list[tuple[Copy, Char]]:
        if self.flash is None:
            return []
        who = next(c for c in fighters if c.name == self.on)
        flash, self.flash = self.flash, None
        return [(flash, who)]


def fight_with_flash(
    name: str, fighter: str, disaster: str, defense: int | None = None
) -> tuple[Game, Char]:
    game = table()
    c = add_char(game, fighter, 4)
    c.health = c.health_max = 99
    c.set_energy(9)
    d = on_field(game, new_disaster(game, disaster), 4)
    d.charm = 0
    if defense is not None:
        d.defense = defense
    flash = shipped_copy(game, name)
    game.hand.append(flash)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)  # no numbers, text not played
    fight(game, ED, FlashInCombat(flash, fighter), d, 4, "party")
    return game, c


@covers("Crazy Eyes", (Trigger.PLAYED, Action.EXTRA_CARDS))
def test_played_extra_cards_crazy_eyes_in_a_round() -> None:
    """Crazy Eyes, played in a round, draws one more combat card for its character."""
    game, _ = fight_with_flash("Crazy Eyes", "A-ko Magami", "Ginger")
    assert game.record.counters[(card("Crazy Eyes").id, CardStat.EFFECTS)] == 1
    assert game.trace is not None
    flashes = [e for e in game.trace.events if e["kind"] == "flash"]
    assert len(flashes) == 1
    # Each round A-ko's card and the disaster's; in the first, Crazy Eyes' extra one for A-ko.
    assert len(game.combat_discard) == 2 * len(rounds(game)) + 1


def test_played_modify_split_form_lasts_the_combat() -> None:
    """Split Form doubles its character's attack for the rest of the combat, not one round."""
    game, c = fight_with_flash("Split Form", "Piccolo", "Sabre-toothed Tiger", defense=8)
    r = rounds(game)
    assert len(r) >= 2, "the fight lasts long enough to see the second round"
    base = c.cur[DMG]
    assert r[0]["party_damage"] == 2 * base and r[1]["party_damage"] == 2 * base


def test_played_modify_who_sows_the_wind_lasts_the_combat_as_printed() -> None:
    """Who Sows the Wind: -5 attack and defense to the disaster "for the duration of this
    Combat" (its card text; card text beats the rules): played in the first round by Adult
    Gohan (Chi x2), the Sabre-toothed Tiger's defense of 8 is 3 in every round after too. The
    entry plays the card as printed, so it is full (its old note said one round)."""
    who = card("Who Sows the Wind")
    assert who.coverage is Coverage.FULL and "round" not in who.coverage_note
    game, _ = fight_with_flash("Who Sows the Wind", "Adult Gohan", "Sabre-toothed Tiger", 8)
    r = rounds(game)
    assert len(r) >= 2, "the fight lasts long enough to see the second round"
    assert r[0]["disaster_defense"] == r[1]["disaster_defense"] == 8 - 5


def test_played_modify_gohan_is_angry_only_below_attack_3() -> None:
    """Gohan is Angry... adds 4 only to a character whose attack is below 3."""
    weak, nene = fight_with_flash("Gohan is Angry...", "Nene Romanova", "Ginger")
    assert rounds(weak)[0]["party_damage"] == nene.cur[DMG] + 4
    strong, ako = fight_with_flash("Gohan is Angry...", "A-ko Magami", "Ginger")
    assert rounds(strong)[0]["party_damage"] == ako.cur[DMG]


@covers("Robot Slave", (Trigger.ALWAYS, Action.SURVIVE))
def test_always_survive_robot_slave_gives_itself_up() -> None:
    """Robot Slave saves its character from one kill (a bonk instead) and is discarded."""
    from deckkit.animayhem.engine.combat import knock_out

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    slave = shipped_copy(game, "Robot Slave")
    ako.equipment.append(slave)
    knock_out(game, ako, "killed", None)
    assert ako.zone == "bonked"
    assert slave in game.discard and slave not in ako.equipment


@covers("Interrogation", (Trigger.PLAYED, Action.RETRIEVE))
def test_played_retrieve_interrogation() -> None:
    """Interrogation: the party at a disaster's location takes back the item it carries."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    keys = copy_of(game, "Keys")
    d.carrying = [keys]
    far = on_field(game, new_disaster(game, "Sabre-toothed Tiger"), 0)
    lamp = copy_of(game, "Go Board")
    far.carrying = [lamp]
    g = shipped_copy(game, "Interrogation")
    game.hand.append(g)
    from deckkit.animayhem.engine.phases import equip_phase

    class PlaysGlobal(ScriptedPolicy):
        def global_effect(self, game: Game) -> Copy | None:
            return g

    equip_phase(game, SET0, PlaysGlobal())
    assert keys in ako.items and not d.carrying
    assert far.carrying == [lamp], "no party stands with that one"


@covers("Happy Ending", (Trigger.ALWAYS, Action.EDGE))
def test_always_edge_happy_ending() -> None:
    """Happy Ending: a game the disasters win by one item is the player's, and so is a tie when
    every location is scavenged; a lead of two still loses."""
    from deckkit.animayhem.engine.combat import GameOver
    from deckkit.animayhem.engine.endgame import check_end

    def ending(mine: int, theirs: int, happy: bool, scavenged: bool = False) -> str | None:
        game = table()
        ako = add_char(game, "A-ko Magami", 4)
        ako.items = [copy_of(game, "Keys") for _ in range(mine)]
        game.carried_off = [copy_of(game, "Keys") for _ in range(theirs)]
        game.items_in_play = 9
        if scavenged:
            game.scavenged = set(range(len(game.locs)))
        if happy:
            game.globals_in_play.append((shipped_copy(game, "Happy Ending"), 5))
        try:
            check_end(game, ED, at_discard=True)
        except GameOver:
            return game.outcome
        return None

    assert ending(4, 5, happy=False) == "loss"
    assert ending(4, 5, happy=True) == "win"
    assert ending(3, 5, happy=True) == "loss"
    assert ending(2, 2, happy=False, scavenged=True) == "loss"
    assert ending(2, 2, happy=True, scavenged=True) == "win"
    assert ending(2, 3, happy=True, scavenged=True) == "win"
    assert ending(1, 3, happy=True, scavenged=True) == "loss"


@covers("Power Grip", (Trigger.ALWAYS, Action.STAY))
def test_always_stay_power_grip() -> None:
    """Power Grip, in play: Dinner with Mom and Dad cannot send the Student home."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # Student
    game.globals_in_play.append((shipped_copy(game, "Power Grip"), 5))
    d = new_disaster(game, "Dinner with Mom and Dad")
    shipped(game, d)
    affect(game, d, -1)
    assert ako.zone == "field" and ako.slot == 4


@covers("Out of the Frying Pan", (Trigger.PLAYED, Action.SWAP))
def test_played_swap_out_of_the_frying_pan() -> None:
    """Out of the Frying Pan: the combat disaster at the party's location and the one farthest
    from it change places."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    near = on_field(game, new_disaster(game, "Ginger"), 4)
    path = game.field.path
    far_slot = max(path, key=lambda s: game.dist[4][s])
    far = on_field(game, new_disaster(game, "Sabre-toothed Tiger"), far_slot)
    play_flash(game, "Out of the Frying Pan", ako)
    assert game.slot_of(near) == far_slot and game.slot_of(far) == 4


class RunsAtOnce(ScriptedPolicy):
    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return True


def arm(game: Game) -> Game:
    """Tell the game which actions its effects use (setup does this for a real deck)."""
    game.acts = frozenset(e.do for fx in game.fx.values() for t in fx.values() for _, e in t)
    return game


def effect_texts(game: Game) -> list[str]:
    assert game.trace is not None
    return [e["text"] for e in game.trace.events if e["kind"] == "effect"]


def hitter(game: Game, damage: int) -> Dis:
    """33-S Sexaroid (3/3) at slot 4, without its own effects or charm, hitting for ``damage``."""
    d = on_field(game, new_disaster(game, "33-S Sexaroid"), 4)
    d.damage = damage
    d.charm = 0
    return d


@covers("Sylvie", (Trigger.ALWAYS, Action.IMMUNE))
def test_always_immune_sylvie_is_never_attacked_by_33s() -> None:
    """Sylvie cannot be attacked by 33-S: alone she is left alone, beside A-ko only A-ko is
    attacked, and when she attacks it the disaster's hits on her deal nothing."""
    game = table()
    sylvie = add_char(game, "Sylvie", 4)
    shipped(game, sylvie)
    d = hitter(game, 3)
    arm(game)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "none"
    assert combats(game, sylvie) == 0
    fight(game, ED, ScriptedPolicy(), d, 4, "party")
    assert all(h["damage"] == 0 for r in rounds(game) for h in r["hits"])
    assert sylvie.zone == "field" and sylvie.health == sylvie.health_max
    ako = add_char(game, "A-ko Magami", 4)
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    assert combats(game, ako) == 1 and combats(game, sylvie) == 1  # only her own attack


@covers("Bills and Calculator", (Trigger.ALWAYS, Action.IMMUNE))
def test_always_immune_bills_and_calculator_against_shopping_spree() -> None:
    """Bills and Calculator keeps the Money disaster off its holder: Shopping Spree destroys
    the Money cards of everyone else."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    nene = add_char(game, "Nene Romanova", 4)
    bills = shipped_copy(game, "Bills and Calculator")
    mine, theirs = copy_of(game, "Antiques"), copy_of(game, "Antiques")  # Money items
    ako.items += [bills, mine]
    nene.items.append(theirs)
    d = new_disaster(game, "Shopping Spree")
    shipped(game, d)
    arm(game)
    assert affect(game, d, 4)
    assert ako.items == [bills, mine]
    assert not nene.items and theirs in game.carried_off


@covers("Katsuhiko Jinnai", (Trigger.ALWAYS, Action.IMMUNE), (Trigger.ALWAYS, Action.MODIFY))
def test_always_immune_jinnai_and_his_bonus_to_combat_disasters() -> None:
    """Jinnai cannot be attacked by combat disasters, and every combat disaster is +1/+1
    while he is in play (even from the haven)."""
    game = table()
    jinnai = add_char(game, "Katsuhiko Jinnai", 4)
    shipped(game, jinnai)
    d = hitter(game, 3)
    arm(game)
    assert disaster_bonus(game, d) == (1, 1)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(), d, 4, "disaster") == "none"
    jinnai.zone, jinnai.slot = "haven", -1
    assert disaster_bonus(game, d) == (1, 1)
    jinnai.zone = "discard"
    assert disaster_bonus(game, d) == (0, 0)


@covers("Oolong", (Trigger.HURT, Action.TRANSFORM))
def test_hurt_transform_oolong_reverts_when_first_hurt() -> None:
    """Oolong keeps his 4/4 shape until an attack takes health, then reverts to 1/1 for good."""
    game = table()
    oolong = add_char(game, "Oolong", 4)  # attacked first
    add_char(game, "A-ko Magami", 4)
    shipped(game, oolong)
    arm(game)
    assert oolong.cur[DMG] == 4
    d = hitter(game, 6)
    stack_combat_pile(game, [])
    assert fight(game, ED, ScriptedPolicy(["Oolong", "A-ko Magami"]), d, 4, "party") == "defeated"
    assert rounds(game)[0]["hits"][0]["loss"] == 2
    assert (oolong.cur[DMG], oolong.cur[DEF]) == (1, 1)


@covers("Senzu Beans", (Trigger.HURT, Action.HEAL))
def test_hurt_heal_senzu_beans_saves_a_character_from_a_bonk() -> None:
    """Senzu Beans, given up when a hit would bonk Akane, restore her before health is checked;
    the discarded item counts for the disasters."""
    game = table(UsesItems(["Akane Tendo", "A-ko Magami"]))
    akane = add_char(game, "Akane Tendo", 4)
    add_char(game, "A-ko Magami", 4)
    beans = shipped_copy(game, "Senzu Beans")
    akane.items.append(beans)  # the carrier is attacked first
    arm(game)
    d = hitter(game, 9)
    stack_combat_pile(game, [])
    fight(game, ED, UsesItems(["Akane Tendo", "A-ko Magami"]), d, 4, "party")
    assert rounds(game)[0]["hits"][0]["health"] == 4 - 5
    assert akane.zone == "field" and akane.health == akane.health_max
    assert beans in game.carried_off and beans not in akane.items
    assert any("heals Akane Tendo" in t for t in effect_texts(game))


def test_hurt_heal_senzu_beans_kept_when_the_player_declines() -> None:
    """A player who keeps the beans sees Akane bonked by the same hit."""
    game = table(ScriptedPolicy(["Akane Tendo", "A-ko Magami"]))
    akane = add_char(game, "Akane Tendo", 4)
    add_char(game, "A-ko Magami", 4)
    beans = shipped_copy(game, "Senzu Beans")
    akane.items.append(beans)
    arm(game)
    d = hitter(game, 9)
    stack_combat_pile(game, [])
    fight(game, ED, ScriptedPolicy(["Akane Tendo", "A-ko Magami"]), d, 4, "party")
    assert akane.zone == "bonked" and beans not in game.carried_off


@covers("King Yemma's Fruit", (Trigger.HURT, Action.MODIFY))
def test_hurt_modify_health_king_yemmas_fruit() -> None:
    """King Yemma's Fruit doubles its carrier's health for 3 turns: a 5-point loss on 4 health
    leaves 3 of 8, and the health returns to 4 when the 3 turns are over."""
    game = table(UsesItems(["Akane Tendo", "A-ko Magami"]))
    akane = add_char(game, "Akane Tendo", 4)
    add_char(game, "A-ko Magami", 4)
    fruit = shipped_copy(game, "King Yemma's Fruit")
    akane.items.append(fruit)
    arm(game)
    d = hitter(game, 9)
    stack_combat_pile(game, [])
    fight(game, ED, UsesItems(["Akane Tendo", "A-ko Magami"]), d, 4, "party")
    assert akane.zone == "field" and akane.health_max == 8 and akane.health == 8
    assert fruit in game.carried_off
    game.turn = 3
    start_turn(game)
    assert akane.health_max == 8
    game.turn = 4
    start_turn(game)
    assert akane.health_max == 4 and akane.health == 4


@covers("Tail Steak", (Trigger.ALWAYS, Action.MODIFY))
def test_always_modify_health_tail_steak() -> None:
    """Tail Steak adds 1 to its carrier's health while carried."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    steak = shipped_copy(game, "Tail Steak")
    ako.items.append(steak)
    refresh(game, ako)
    assert (ako.health_max, ako.health) == (5, 5)
    ako.items.remove(steak)
    refresh(game, ako)
    assert (ako.health_max, ako.health) == (4, 4)


@covers("5 Yen Coin", (Trigger.AFFECT, Action.DEFEAT))
def test_affect_defeat_5_yen_coin_stops_shopping_spree() -> None:
    """The 5 Yen Coin, given up, defeats the Money disaster before it acts: the party keeps
    its Money cards, and the coin counts for the disasters."""
    game = table(UsesItems())
    ako = add_char(game, "A-ko Magami", 4)
    coin = shipped_copy(game, "5 Yen Coin")
    money = copy_of(game, "Antiques")
    ako.items += [coin, money]
    d = new_disaster(game, "Shopping Spree")
    shipped(game, d)
    arm(game)
    assert affect(game, d, 4)
    assert ako.items == [money] and coin in game.carried_off
    assert d.zone == "discard"
    assert game.record.counters.get((d.card.id, CardStat.DEFEATED), 0) == 1


@covers("Priss' First Live Concert Poster", (Trigger.AFFECT, Action.DEFEAT))
def test_affect_defeat_priss_poster_keeps_the_party_moving() -> None:
    """The poster defeats Priss and the Replicants, so the party is not held by the crowd."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.items.append(shipped_copy(game, "Priss' First Live Concert Poster"))
    d = new_disaster(game, "Priss and the Replicants")
    shipped(game, d)
    arm(game)
    assert affect(game, d, 4)
    assert can_move(game, ako) and d.zone == "discard"


@covers("Lt. Randolph", (Trigger.AFFECT, Action.DEFEAT))
def test_affect_defeat_lt_randolph_defeats_political_investigation() -> None:
    """With Lt. Randolph in play the Legal disaster is defeated as it is drawn: no Police or
    Bureaucracy character is disabled."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)  # Police
    randolph = add_char(game, "Lt. Randolph", -1)  # in the haven
    shipped(game, randolph)
    d = new_disaster(game, "Political Investigation")
    shipped(game, d)
    arm(game)
    assert affect(game, d, -1)
    assert can_act(game, nene) and d.zone == "discard"


@covers("Mountain Sign Post", (Trigger.ALWAYS, Action.STAY))
def test_always_stay_mountain_sign_post() -> None:
    """Dinner with Mom and Dad sends Students home, but not a group carrying the sign post."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # Student
    akane = add_char(game, "Akane Tendo", 4)  # Student
    ako.items.append(shipped_copy(game, "Mountain Sign Post"))
    away = add_char(game, "Alielle", 2)  # Student, another group
    d = new_disaster(game, "Dinner with Mom and Dad")
    shipped(game, d)
    arm(game)
    affect(game, d, -1)
    assert (ako.zone, akane.zone, away.zone) == ("field", "field", "haven")


@covers("Specs", (Trigger.ALWAYS, Action.WAIVE))
def test_always_waive_specs_uses_science_cards() -> None:
    """Specs uses Data Stream (a Science card needing Computer) though he lacks Computer."""
    game = table()
    specs = add_char(game, "Specs", 4)
    ako = add_char(game, "A-ko Magami", 4)
    shipped(game, specs)
    stream = card("Data Stream")
    assert isinstance(stream, PowerCard)
    assert usable(specs, stream) and not usable(ako, stream)


@covers("Willpower", (Trigger.AFFECT, Action.RECYCLE))
def test_affect_recycle_willpower_sends_defeated_disasters_back() -> None:
    """After Willpower the next 3 disasters defeated are shuffled into the draw pile; the
    fourth is discarded."""
    game = table()
    d = new_disaster(game, "Willpower")
    shipped(game, d)
    arm(game)
    assert affect(game, d, -1)
    beaten = [on_field(game, new_disaster(game, "33-S Sexaroid"), 4) for _ in range(4)]
    for x in beaten:
        game.hooks.defeat(game, x, [])
    assert [x.zone for x in beaten] == ["draw", "draw", "draw", "discard"]
    assert all(x in game.draw_pile for x in beaten[:3]) and beaten[3] in game.discard


@covers("Garlic, Jr.", (Trigger.ALWAYS, Action.RECYCLE))
def test_always_recycle_garlic_jr_returns_to_the_draw_pile() -> None:
    """Garlic Jr., defeated, is shuffled back into the draw pile as printed."""
    game = table()
    d = on_field(game, new_disaster(game, "Garlic, Jr."), 4)
    shipped(game, d)
    arm(game)
    d.damage = 0
    game.hooks.defeat(game, d, [])
    assert d in game.draw_pile and d not in game.discard
    assert d.zone == "draw" and d.pos == -1 and d.damage == 5


@covers("Power Suit", (Trigger.ALWAYS, Action.FIRST_STRIKE))
def test_always_first_strike_power_suit_deals_nothing_in_the_round_it_falls() -> None:
    """Power Suit (3/3) beaten in round 1 by A-ko and Akane never gets its attack in."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    add_char(game, "Akane Tendo", 4)
    d = on_field(game, new_disaster(game, "Power Suit"), 4)
    shipped(game, d)
    arm(game)
    d.damage = 9
    stack_combat_pile(game, [])
    policy = ScriptedPolicy(["A-ko Magami", "Akane Tendo"])
    assert fight(game, ED, policy, d, 4, "party") == "defeated"
    assert rounds(game)[0]["hits"][0]["damage"] == 0
    assert ako.zone == "field"


@covers("Sleepy Grass", (Trigger.COMBAT, Action.FIRST_STRIKE))
def test_combat_first_strike_sleepy_grass() -> None:
    """Sleepy Grass, given up as combat begins, lets the party strike first for the combat."""
    game = table(UsesItems(["A-ko Magami", "Akane Tendo"]))
    ako = add_char(game, "A-ko Magami", 4)
    add_char(game, "Akane Tendo", 4)
    grass = shipped_copy(game, "Sleepy Grass")
    ako.items.append(grass)
    arm(game)
    d = hitter(game, 9)
    stack_combat_pile(game, [])
    fight(game, ED, UsesItems(["A-ko Magami", "Akane Tendo"]), d, 4, "party")
    assert rounds(game)[0]["hits"][0]["damage"] == 0
    assert ako.zone == "field" and grass in game.carried_off


@covers("No Way Out", (Trigger.AFFECT, Action.NO_RETREAT))
def test_affect_no_retreat_no_way_out_for_the_next_fight_only() -> None:
    """After No Way Out the group cannot run from its next fight; the one after, it may."""
    game = table(Runs(["A-ko Magami"]))
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99
    d = new_disaster(game, "No Way Out")
    shipped(game, d)
    arm(game)
    assert affect(game, d, 4) and ako.pinned
    stack_combat_pile(game, [])
    assert fight(game, ED, Runs(["A-ko Magami"]), hitter(game, 3), 4, "party") != "retreat"
    assert not ako.pinned
    assert fight(game, ED, Runs(["A-ko Magami"]), hitter(game, 3), 4, "party") == "retreat"


@covers("Lady Tokimi", (Trigger.AFFECT, Action.BLOCK))
def test_affect_block_lady_tokimi_closes_dimensional_locations() -> None:
    """Lady Tokimi blocks the dimensional locations for 6 turns, and only those."""
    game = table()
    game.locs[4] = Loc(4, copy_of(game, "The Reversed World"))
    d = new_disaster(game, "Lady Tokimi")
    shipped(game, d)
    arm(game)
    assert affect(game, d, -1)
    assert blocked(game, 4) and not blocked(game, 3)
    game.turn = 6
    assert blocked(game, 4)
    game.turn = 7
    assert not blocked(game, 4)


@covers("Disguise Revealed", (Trigger.AFFECT, Action.DESTROY))
def test_affect_destroy_disguise_revealed_by_name() -> None:
    """Disguise Revealed discards the disguises in play, named card by card, and nothing else."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    disguise, other = copy_of(game, "Police Disguise"), copy_of(game, "Data Stream")
    ako.enhancements += [disguise, other]
    d = new_disaster(game, "Disguise Revealed")
    shipped(game, d)
    arm(game)
    assert affect(game, d, -1)
    assert ako.enhancements == [other] and disguise in game.discard


@covers("Ancient Pottery", (Trigger.ALWAYS, Action.GRANT))
def test_always_grant_ancient_pottery_meets_archaeology() -> None:
    """Archaeology, printed on no character, is still a skill: Ancient Pottery's carrier meets
    the Museum's "... or Archaeology"."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    game.locs[4] = Loc(4, copy_of(game, "Museum"))
    assert not passes_skill_test(game, [ako], 4)
    ako.items.append(shipped_copy(game, "Ancient Pottery"))
    refresh(game, ako)
    assert passes_skill_test(game, [ako], 4)


@covers("Raven's Garage", (Trigger.ALWAYS, Action.RECYCLE))
def test_always_recycle_ravens_garage_keeps_destroyed_equipment_in_the_deck() -> None:
    """With Raven's Garage as haven, equipment a disaster destroys goes back into the draw
    pile; an item it destroys is still lost (it counts for the disasters)."""
    game = table()
    game.havens.append(shipped_copy(game, "Raven's Garage"))
    ako = add_char(game, "A-ko Magami", 4)
    van, antiques = copy_of(game, "The Masaki Van"), copy_of(game, "Antiques")
    ako.equipment.append(van)
    ako.items.append(antiques)
    d = new_disaster(game, "Satellite Strike")
    shipped(game, d)
    arm(game)
    affect(game, d, 4)
    assert van in game.draw_pile and van not in game.discard
    assert antiques in game.carried_off


@covers("West Side City Hospital", (Trigger.ALWAYS, Action.REVIVE))
def test_always_revive_west_side_city_hospital() -> None:
    """A character bonked while West Side City Hospital is the haven is back in it at once,
    having dropped what it carried."""
    game = table()
    game.havens.append(shipped_copy(game, "West Side City Hospital"))
    ako = add_char(game, "A-ko Magami", 4)
    antiques = copy_of(game, "Antiques")
    ako.items.append(antiques)
    arm(game)
    game.hooks.knock_out(game, ako, "bonked", None)
    assert ako.zone == "haven" and not ako.items
    assert antiques in game.locs[4].hidden_cards
    ako.zone, ako.slot = "field", 4
    game.hooks.knock_out(game, ako, "killed", None)
    assert ako.zone == "discard"  # a kill is not a bonk


@covers("Shinjuku Police Building", (Trigger.ALWAYS, Action.BAR))
def test_always_bar_shinjuku_police_building() -> None:
    """A party with Kozo Karino cannot scavenge the Shinjuku Police Building; without him the
    same skills do."""
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Shinjuku Police Building"))
    nene = add_char(game, "Nene Romanova", 4)  # Police
    arm(game)
    assert passes_skill_test(game, [nene], 4)
    kozo = add_char(game, "Kozo Karino", 4)
    assert not passes_skill_test(game, [nene, kozo], 4)


@covers("Dailey Wong", (Trigger.AFFECT, Action.DISCARD))
def test_affect_discard_dailey_wong_cancels_red_tape() -> None:
    """With Dailey Wong in play, Red Tape leaves play without touching the hand."""
    game = table()
    dailey = add_char(game, "Dailey Wong", -1)
    shipped(game, dailey)
    hand = [copy_of(game, "Medical Treatment")]
    game.hand = list(hand)
    d = new_disaster(game, "Red Tape")
    shipped(game, d)
    arm(game)
    assert affect(game, d, -1)
    assert game.hand == hand and d.zone == "discard"
    assert game.record.counters.get((d.card.id, CardStat.DEFEATED), 0) == 0


@covers("Leona Ozaki", (Trigger.ALWAYS, Action.GRANT))
def test_always_grant_leona_ozaki_counts_as_a_male() -> None:
    """Leona Ozaki counts toward a location's "Male" requirement; another female does not."""
    game = table()
    leona = add_char(game, "Leona Ozaki", 4)
    shipped(game, leona)
    refresh(game, leona)
    ryoga = add_char(game, "Ryoga Hibiki", 4)  # male
    akane = add_char(game, "Akane Tendo", 4)
    two_males = parse_requirement("Male x2", db().vocabulary)
    assert requirement_met(two_males, [leona, ryoga])
    assert not requirement_met(two_males, [akane, ryoga])


class EquipsAll(ScriptedPolicy):
    """Plays every equipment card it may, each on the first character in the haven."""

    def power_card(self, game: Game, kind: CardType, anywhere: bool) -> tuple[Copy, Char] | None:
        cards = [x for x in game.hand if isinstance(x, Copy) and x.card.type is kind]
        return (cards[0], game.in_haven()[0]) if cards else None


@covers("Bulma", (Trigger.ALWAYS, Action.EXTRA_EQUIP))
def test_always_extra_equip_bulma() -> None:
    """With Bulma in play two equipment cards are played in one Equip phase; without her, one."""
    for with_bulma, played in ((True, 2), (False, 1)):
        game = table()
        ako = add_char(game, "A-ko Magami", -1)
        if with_bulma:
            shipped(game, add_char(game, "Bulma", -1))
        arm(game)
        game.hand = [copy_of(game, "Attack Pods"), copy_of(game, "Blasters")]
        equip_phase(game, ED, EquipsAll())
        assert len(ako.equipment) == played


@covers("Al", (Trigger.ALWAYS, Action.PRESERVE))
def test_always_preserve_al_saves_a_vehicle_once() -> None:
    """Al keeps a vehicle from Sudden Stop's destruction once a game; the second Sudden Stop
    destroys it."""
    game = table()
    al = add_char(game, "Al", 4)
    shipped(game, al)
    hog = copy_of(game, "Yajirobe's Hog")  # a Non-flying Vehicle
    al.equipment.append(hog)
    stop = new_disaster(game, "Sudden Stop")
    shipped(game, stop)
    arm(game)
    affect(game, stop, 4)
    assert al.equipment == [hog]
    assert any("keeps Yajirobe's Hog" in t for t in effect_texts(game))
    again = new_disaster(game, "Sudden Stop")
    again.fx = stop.fx
    affect(game, again, 4)
    assert not al.equipment and hog in game.discard


@covers("Mousse", (Trigger.ALWAYS, Action.EQUIP_ANYWHERE))
def test_always_equip_anywhere_mousse() -> None:
    """Equipment may go on Mousse on the field; A-ko on the field cannot receive it."""
    game = table()
    mousse = add_char(game, "Mousse", 4)
    ako = add_char(game, "A-ko Magami", 4)
    shipped(game, mousse)
    arm(game)
    assert equip_targets(game, CardType.EQUIPMENT, anywhere=True) == [mousse]
    game.hand = [copy_of(game, "Attack Pods")]
    equip_phase(game, ED, HeuristicPolicy())
    assert [x.card.name for x in mousse.equipment] == ["Attack Pods"] and not ako.equipment


def test_recycle_a_disaster_stopped_by_an_item_is_shuffled_back_once() -> None:
    """After Willpower, Shopping Spree defeated by the 5 Yen Coin goes back into the draw pile
    (only there) and does not act."""
    game = table(UsesItems())
    ako = add_char(game, "A-ko Magami", 4)
    money = copy_of(game, "Antiques")
    ako.items += [shipped_copy(game, "5 Yen Coin"), money]
    will = new_disaster(game, "Willpower")
    shipped(game, will)
    spree = new_disaster(game, "Shopping Spree")
    shipped(game, spree)
    arm(game)
    affect(game, will, -1)
    spree.zone = "drawn"
    assert affect(game, spree, -1)
    assert ako.items == [money]
    assert game.draw_pile.count(spree) == 1 and spree not in game.discard
    assert spree.zone == "draw" and spree.recycled


@covers("Dr. Tofu", (Trigger.ALWAYS, Action.ENDURE), (Trigger.TURN, Action.DISABLE))
def test_always_endure_dr_tofu_keeps_his_group_standing() -> None:
    """With Dr. Tofu in her group a hit that would bonk A-ko leaves her at 1 health; alone, or
    with Kasumi in play (Tofu then does nothing at all), the same hit bonks."""
    cases = ((True, False, True), (False, False, False), (True, True, False))
    for with_tofu, kasumi, standing in cases:
        game = table(ScriptedPolicy(["A-ko Magami"]))
        ako = add_char(game, "A-ko Magami", 4)  # attacked first
        if with_tofu:
            tofu = add_char(game, "Dr. Tofu", 4)
            shipped(game, tofu)
        if kasumi:
            game.globals_in_play.append((copy_of(game, "Kasumi"), 99))
            maintenance_phase(game, ED, ScriptedPolicy())
            assert not can_act(game, tofu)
        arm(game)
        d = hitter(game, 20)
        stack_combat_pile(game, [])
        fight(game, ED, ScriptedPolicy(["A-ko Magami"]), d, 4, "party")
        assert (ako.zone == "field") is standing, (with_tofu, kasumi)


@covers("Galaxy Police HQ", (Trigger.SCAVENGED, Action.BECOME_HAVEN))
def test_scavenged_become_haven_galaxy_police_hq() -> None:
    """Scavenged by Mihoshi and Kiyone holding the Galaxy Police Flag, Galaxy Police HQ becomes
    a haven: every character, even one in the other haven, gains Police. Without the flag it
    stays a location."""
    for flag, police in ((False, 0), (True, 1)):
        game = table()
        hq = shipped_copy(game, "Galaxy Police HQ")
        game.locs[4] = Loc(4, hq)
        mihoshi = add_char(game, "Detective Mihoshi", 4)
        add_char(game, "Detective Kiyone", 4)
        ako = add_char(game, "A-ko Magami", -1)
        if flag:
            mihoshi.items.append(copy_of(game, "Galaxy Police Flag"))
        arm(game)
        fire(game, hq, Trigger.SCAVENGED, 4)
        assert game.turned_havens == ([hq] if flag else [])
        assert ako.skill_counts.get("Police", 0) == police


def test_become_haven_bugrom_homeland_keeps_bugrom_away() -> None:
    """Once Bugrom Homeland is the player's haven, Bugrom disasters attack nobody."""
    game = table()
    home = shipped_copy(game, "Bugrom Homeland")
    game.locs[4] = Loc(4, home)
    jinnai = add_char(game, "Katsuhiko Jinnai", 4)
    jinnai.items += [
        copy_of(game, "Bugrom Big Raid Medal"),
        copy_of(game, "Ifurita's Power Key Staff"),
    ]
    ako = add_char(game, "A-ko Magami", 3)
    arm(game)
    d = on_field(game, new_disaster(game, "Bugrom Horde"), 3)
    assert not immune(game, d, ako)
    fire(game, home, Trigger.SCAVENGED, 4)
    assert immune(game, d, ako) and immune(game, d, jinnai)


class Everyone(ScriptedPolicy):
    """Sends every able character into every round; Yajirobe always runs alone when he may."""

    def fighters(self, game: Game, d: Dis, able: list[Char], target: Char, cap: int) -> list[Char]:
        return list(able)

    def run_alone(self, game: Game, d: Dis, c: Char) -> bool:
        return True


@covers("Piccolo", (Trigger.ALWAYS, Action.DEFENDS_ONLY))
def test_always_defends_only_piccolo_fights_only_for_gohan() -> None:
    """Attacked by a disaster, Piccolo does not fight to defend A-ko, but does defend Gohan."""
    for other, joins in (("A-ko Magami", False), ("Young Gohan", True)):
        game = table()
        mate = add_char(game, other, 4)  # attacked first
        mate.health = mate.health_max = 99
        piccolo = add_char(game, "Piccolo", 4)
        shipped(game, piccolo)
        arm(game)
        d = hitter(game, 1)
        d.defense = 60  # a long fight: only its first round is read
        stack_combat_pile(game, [])
        fight(game, ED, Everyone(), d, 4, "disaster")
        first = rounds(game)[0]
        fighters = first["party_damage"] - mate.cur[DMG]
        assert (fighters == piccolo.cur[DMG]) is joins, other


@covers("Yajirobe", (Trigger.ALWAYS, Action.RUN_ALONE))
def test_always_run_alone_yajirobe_leaves_his_group_fighting() -> None:
    """Yajirobe runs from the fight on his own; A-ko fights on and wins."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    yajirobe = add_char(game, "Yajirobe", 4)
    shipped(game, yajirobe)
    arm(game)
    d = hitter(game, 1)
    stack_combat_pile(game, [])
    assert fight(game, ED, Everyone(), d, 4, "disaster") == "defeated"
    assert ako.slot == 4 and yajirobe.slot != 4
    assert combats(game, yajirobe) == 1


@covers("Saibamen", (Trigger.ALWAYS, Action.STRIKES))
def test_always_strikes_saibamen_hits_two_fighters() -> None:
    """Saibamen strike two of the characters fighting them each round, both at full damage."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    akane = add_char(game, "Akane Tendo", 4)
    for c in (ako, akane):
        c.health = c.health_max = 99
    d = on_field(game, new_disaster(game, "Saibamen"), 4)
    shipped(game, d)
    arm(game)
    d.charm = 0
    stack_combat_pile(game, [])
    fight(game, ED, Everyone(), d, 4, "disaster")
    first = rounds(game)[0]
    assert [h["name"] for h in first["hits"]] == [ako.name, akane.name]
    assert all(h["damage"] == d.damage for h in first["hits"])


@covers("Know When to Run", (Trigger.PLAYED, Action.MODIFY))
def test_played_modify_retreat_know_when_to_run() -> None:
    """Know When to Run, held in the hand, halves the health a retreating party loses to the
    final attack, and is spent."""
    lost = []
    for held in (False, True):
        game = table()
        nene = add_char(game, "Nene Romanova", 4)  # defense 2
        nene.health = nene.health_max = 20
        d = on_field(game, new_disaster(game, "Raditz"), 4)  # damage 7
        d.charm = 0
        if held:
            flash = shipped_copy(game, "Know When to Run")
            game.hand.append(flash)
        fight(game, ED, RunsAtOnce(), d, 4, "disaster")
        assert game.trace is not None
        lost += [e["loss"] for e in game.trace.events if e["kind"] == "retreat"]
        if held:
            assert flash in game.discard and flash not in game.hand
    assert lost == [5, 2]


def test_always_survive_against_bio_ball_remover() -> None:
    """Bio-Ball Remover saves its carrier from Bio Ball's kill, and from no other."""
    from deckkit.animayhem.engine.combat import knock_out

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.equipment.append(shipped_copy(game, "Bio-Ball Remover"))
    bio = new_disaster(game, "Bio Ball")
    shipped(game, bio)
    assert affect(game, bio, 4)
    assert ako.zone == "bonked"
    other = table()
    nene = add_char(other, "Nene Romanova", 4)
    nene.equipment.append(shipped_copy(other, "Bio-Ball Remover"))
    knock_out(other, nene, "killed", new_disaster(other, "Ginger"))
    assert nene.zone == "discard"


def test_turn_servant_fetches_equipment_then_leaves() -> None:
    """Servant, at a Maintenance phase, brings one equipment from the draw pile to the hand and
    is discarded."""
    game = table()
    ako = add_char(game, "A-ko Magami", -1)
    servant = shipped_copy(game, "Servant")
    ako.enhancements.append(servant)
    gun = copy_of(game, "Leon's Missle Gun")
    game.draw_pile = [gun, copy_of(game, "Keys")]
    game.turn = 2
    maintenance_phase(game, SET0, ScriptedPolicy())
    assert gun in game.hand
    assert servant in game.discard and not ako.enhancements


# --- field2 additions: bars, vehicles and forms ------------------------------------------------


@covers("Forest Glade", (Trigger.ALWAYS, Action.BAR))
def test_always_bar_forest_glade_keeps_vehicles_out() -> None:
    """Afura Mann flies in and scavenges the Forest Glade; carrying a vehicle, she cannot."""
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Forest Glade"))
    afura = add_char(game, "Afura Mann", 4)  # Flying
    arm(game)
    assert passes_skill_test(game, [afura], 4)
    afura.equipment.append(copy_of(game, "Swamp Boat"))
    assert not passes_skill_test(game, [afura], 4)


@covers("Tank Police HQ", (Trigger.ALWAYS, Action.BAR))
def test_always_bar_tank_police_hq_wants_police_scavengers() -> None:
    """Leona (Police) scavenges the Tank Police HQ alone, not with A-ko (1 of 2 is not over
    half); with Nene instead, both have Police."""
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Tank Police HQ"))
    leona = add_char(game, "Leona Ozaki", 4)
    ako = add_char(game, "A-ko Magami", 4)
    arm(game)
    assert passes_skill_test(game, [leona], 4)
    assert not passes_skill_test(game, [leona, ako], 4)
    assert passes_skill_test(game, [leona, add_char(game, "Nene Romanova", 4)], 4)


class MovesTo(ScriptedPolicy):
    """Moves one party along a given route in the Move phase."""

    def __init__(self, party: list[Char], route: list[int]) -> None:
        super().__init__()
        self.plan = (party, route)

    def moves(self, game: Game, edition: Any) -> list[Any]:
        return [self.plan]


@covers("Crystal Tunnels", (Trigger.STOPS, Action.HOLD))
def test_stops_hold_crystal_tunnels_keeps_a_party_without_the_skills() -> None:
    """A-ko, without Survival & Streetwise or Blind Luck, stops in the Crystal Tunnels and is
    stuck there through the next turn; Goten (Blind Luck) moves on."""
    for name, stuck in (("A-ko Magami", True), ("Goten", False)):
        game = table()
        game.locs[4] = Loc(4, shipped_copy(game, "Crystal Tunnels"))
        start = game.field.neighbours[4][0]
        c = add_char(game, name, start)
        arm(game)
        assert traps(game, [c], 4) is stuck  # the heuristic player stops short of a trap
        move_phase(game, ED, MovesTo([c], [4]))
        assert c.slot == 4
        game.turn += 1
        start_turn(game)
        assert can_move(game, c) is not stuck, name
        assert any("Crystal Tunnels" in t for t in effect_texts(game)) is stuck


@covers("Squad Bay", (Trigger.ALWAYS, Action.EQUIP_ANYWHERE))
def test_always_equip_anywhere_squad_bay_sends_vehicles_to_the_field() -> None:
    """With Squad Bay as the haven a vehicle may be played on A-ko on the field; other
    equipment still goes only to characters in the haven."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    pods = copy_of(game, "Attack Pods")  # a vehicle
    game.hand = [pods]
    arm(game)
    equip_phase(game, ED, HeuristicPolicy())
    assert pods in game.hand  # no Squad Bay: nobody in the haven to take it
    game.havens.append(shipped_copy(game, "Squad Bay"))
    arm(game)
    gun = copy_of(game, "Armitage's Gun")  # equipment, not a vehicle
    assert usable(ako, gun.card)  # so only the haven's rule keeps it off the field
    game.hand = [gun]
    equip_phase(game, ED, HeuristicPolicy())
    assert gun in game.hand and not ako.equipment
    game.hand = [pods]
    equip_phase(game, ED, HeuristicPolicy())
    assert [x.card.name for x in ako.equipment] == ["Attack Pods"]
    assert any("Squad Bay lets Attack Pods" in t for t in effect_texts(game))


@covers("Ryo-Ohki (Ship)", (Trigger.ALWAYS, Action.GUARD))
def test_always_guard_ryo_ohki_ship_is_struck_before_those_aboard() -> None:
    """In ship form Ryo-Ohki is a combat vehicle: "An attacker must attack the combat vehicle
    first before being able to attack the character aboard it" (set0 rulebook, "Vehicles"), so
    the disaster strikes her and not A-ko; turned into the cabbit she carries nobody."""
    for ship, struck in ((True, "Ryo-Ohki (Ship)"), (False, "A-ko Magami")):
        game = table()
        ako = add_char(game, "A-ko Magami", 4)  # first in line when nobody guards her
        ryo = add_char(game, "Ryo-Ohki (Ship)", 4)
        if not ship:
            ryo.base = (1, 2, 1, 5, 0)  # her cabbit form's abilities
            refresh(game, ryo)
        for c in (ako, ryo):
            c.health = c.health_max = 99
        shipped(game, ryo)
        arm(game)
        d = hitter(game, 1)
        d.defense = 60  # a long fight: only its first round is read
        stack_combat_pile(game, [])
        fight(game, ED, Everyone(), d, 4, "disaster")
        assert [h["name"] for h in rounds(game)[0]["hits"]] == [struck], ship
        carried = any("carries A-ko Magami" in t for t in effect_texts(game))
        assert carried is ship


def _form_in_hand(game: Game, name: str) -> Char:
    form = add_char(game, name, -1)
    form.zone = "hand"
    game.hand.append(form)
    shipped(game, form)
    return form


@covers("Super Saiyan (Goku)", (Trigger.ALWAYS, Action.REPLACE), (Trigger.ROUND, Action.DAMAGE))
def test_always_replace_super_saiyan_goku_for_a_turn_every_third_turn() -> None:
    """The form card stays in the hand until Goku survived 3 bonks, then replaces him for one
    turn (its round effect hurts A-ko beside him), gives Goku back, and waits two turns more:
    "If Goku is bonked but not killed 3 times, he can be replaced by this card every 3rd turn
    for a turn at a time"."""
    game = table()
    goku_card = db().get("am032")  # Goku (two cards share the name)
    assert isinstance(goku_card, CharacterCard) and goku_card.name == "Goku"
    goku = Char(90_000, goku_card)
    goku.zone, goku.slot = "field", 4
    game.chars.append(goku)
    refresh(game, goku)
    ako = add_char(game, "A-ko Magami", 4)
    form = _form_in_hand(game, "Super Saiyan (Goku)")
    arm(game)
    printed = goku.base
    equip_phase(game, ED, ScriptedPolicy())
    assert form in game.hand and form.zone == "hand"  # never brought into play on its own
    bump(game, goku.card.id, STAT_WAS_BONKED, 2)
    maintenance_phase(game, ED, ScriptedPolicy())
    assert goku.base == printed and form in game.hand  # two bonks are not enough
    bump(game, goku.card.id, STAT_WAS_BONKED)
    maintenance_phase(game, ED, ScriptedPolicy())
    assert goku.card.name == "Super Saiyan (Goku)" and goku.base == (7, 9, 4, 0, 7)
    assert goku.skill_counts["Chi"] == 5 and goku.name == "Goku"
    assert form not in game.hand and form.zone == "aside" and form.card.name == "Goku"
    # In a fight his form's round effect costs A-ko 1 health a round; Goku is spared.
    ako.health = ako.health_max = 99
    d = hitter(game, 0)
    d.defense = 60
    stack_combat_pile(game, [])
    fight(game, ED, Everyone(), d, 4, "disaster")
    hurt = [t for t in effect_texts(game) if "deals 1 damage" in t]
    assert hurt and all("to A-ko Magami" in t for t in hurt)
    for turn, shape in ((2, "Goku"), (3, "Goku"), (4, "Super Saiyan (Goku)")):
        game.turn = turn
        start_turn(game)
        maintenance_phase(game, ED, ScriptedPolicy())
        assert goku.card.name == shape, turn
    game.turn = 5
    start_turn(game)
    assert goku.base == printed and form in game.hand and form.card.name == "Super Saiyan (Goku)"


# --- vehicles' carrying limits (carry) -------------------------------------------------


def _rides(game: Game, *pairs: tuple[str, str | None]) -> list[Char]:
    """Characters at slot 4, each holding the named vehicle (its shipped entry) or nothing."""
    party = []
    for who, vehicle in pairs:
        c = add_char(game, who, 4)
        if vehicle is not None:
            c.equipment.append(shipped_copy(game, vehicle))
        party.append(c)
    game.acts = frozenset(e.do for fx in game.fx.values() for t in fx.values() for _, e in t)
    return party


@covers("Attack Pods", (Trigger.ALWAYS, Action.CARRY))
def test_always_carry_attack_pods_leaves_the_others_walking() -> None:
    """Attack Pods carries one character: A-ko flies at 4, Nene and Tenchi walk at 2, so the
    party moves 2 (set0 rulebook, "Vehicles"); the pods counted as acting. Without a carrying
    limit the vehicle's movement is everyone's, as before."""
    from deckkit.animayhem.engine.queries import party_movement

    game = table()
    party = _rides(game, ("A-ko Magami", "Attack Pods"), ("Nene Romanova", None),
                   ("Tenchi Masaki", None))  # fmt: skip
    assert party_movement(game, party) == 2
    assert not game.record.counters.get((card("Attack Pods").id, CardStat.EFFECTS))
    assert _really_moves(game, party) == 2
    assert game.record.counters[(card("Attack Pods").id, CardStat.EFFECTS)] == 1
    assert party_movement(game, party[:1]) == 4  # alone aboard: the pods' movement
    van = table()
    aboard = _rides(van, ("A-ko Magami", "The Masaki Van"), ("Nene Romanova", None),
                    ("Tenchi Masaki", None))  # fmt: skip
    assert party_movement(van, aboard) == 3  # five seats: everyone rides at the van's 3


@covers("Royal Flying Barge", (Trigger.ALWAYS, Action.CARRY))
def test_always_carry_a_vehicle_rides_only_where_the_card_says() -> None:
    """Royal Flying Barge takes a vehicle aboard: Nene's Floating Car rides and the party moves
    at the barge's 4. Desert Skimmer carries no vehicle ("Unless otherwise stated, a vehicle
    cannot carry another vehicle"), nor does the Floating Car: Ryoga's skimmer (7) waits for
    Nene's car (3)."""
    from deckkit.animayhem.engine.queries import party_movement

    game = table()
    party = _rides(game, ("Tenchi Masaki", "Royal Flying Barge"), ("Nene Romanova", "Floating Car"))
    assert party_movement(game, party) == 4
    other = table()
    party = _rides(other, ("Ryoga Hibiki", "Desert Skimmer"), ("Nene Romanova", "Floating Car"))
    assert party_movement(other, party) == 3
    assert party_movement(other, party[:1]) == 7


@covers("Refuge", (Trigger.ALWAYS, Action.STORE))
def test_always_store_refuge_keeps_flash_effects_outside_the_hand_limit() -> None:
    """With Refuge in play, two flash effects in a full hand of 7 do not count: the Reload phase
    draws two more cards (set0 rulebook, "Reload Phase": draw until the hand holds 7)."""
    from deckkit.animayhem.engine.phases import reload_phase

    game = table()
    refuge = shipped_copy(game, "Refuge")
    game.globals_in_play.append((refuge, 99))
    game.acts = frozenset({Action.STORE})
    game.hand = [copy_of(game, "Avoid Fire"), copy_of(game, "Avoid Fire")]
    game.hand += [copy_of(game, "Keys") for _ in range(5)]
    game.draw_pile = [copy_of(game, "Earrings") for _ in range(4)]
    reload_phase(game, ED, ScriptedPolicy())
    assert len(game.hand) == 9 and len(game.draw_pile) == 2
    assert game.record.counters[(card("Refuge").id, CardStat.EFFECTS)] == 1
    plain = table()
    plain.hand = [copy_of(plain, "Avoid Fire") for _ in range(7)]
    plain.draw_pile = [copy_of(plain, "Earrings") for _ in range(4)]
    reload_phase(plain, ED, ScriptedPolicy())
    assert len(plain.hand) == 7


@covers("Gene Doubling", (Trigger.ALWAYS, Action.DOUBLE_SKILLS))
def test_always_double_skills_gene_doubling() -> None:
    """Gene Doubling: Nene holds Computer x2 and Police; with it, Computer x4 and Police x2."""
    game = table()
    nene = add_char(game, "Nene Romanova", 4)
    nene.enhancements.append(shipped_copy(game, "Gene Doubling"))
    refresh(game, nene)
    assert nene.skill_counts["Computer"] == 4 and nene.skill_counts["Police"] == 2
    assert nene.base_skills["Computer"] == 2  # the printed skills are untouched
    nene.enhancements.clear()
    refresh(game, nene)
    assert nene.skill_counts["Computer"] == 2


def test_always_equip_anywhere_from_control_cube() -> None:
    """Control Cube lets its holder take equipment on the field, not only in the haven."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    game.acts = frozenset({Action.EQUIP_ANYWHERE})
    assert ako not in equip_targets(game, CardType.EQUIPMENT, False)
    ako.equipment.append(shipped_copy(game, "Control Cube"))
    assert ako in equip_targets(game, CardType.EQUIPMENT, False)


@covers("Hiding Out", (Trigger.ALWAYS, Action.HIDE))
def test_always_hide_hiding_out_disasters_pass_over_the_group() -> None:
    """Ginger moves 3 and would stop on A-ko, who carries Keys, and fight her; with Hiding Out
    in play it passes over her group, and the card's two uses are spent by two phases."""
    game = table()
    ako = add_char(game, "A-ko Magami", game.field.path[3])
    ako.items.append(copy_of(game, "Keys"))
    on_field(game, new_disaster(game, "Ginger"), game.field.path[0])
    stack_combat_pile(game, [])
    move_disasters(game, ED, ScriptedPolicy(), [])
    assert combats(game, ako) == 1, "without the card Ginger attacks the carrier"
    hidden = table()
    ako = add_char(hidden, "A-ko Magami", hidden.field.path[3])
    ako.items.append(copy_of(hidden, "Keys"))
    ginger = on_field(hidden, new_disaster(hidden, "Ginger"), hidden.field.path[0])
    hidden.globals_in_play.append((shipped_copy(hidden, "Hiding Out"), 99))
    hidden.acts = frozenset({Action.HIDE})
    move_disasters(hidden, ED, ScriptedPolicy(), [])
    assert combats(hidden, ako) == 0 and ginger.pos == 3 and ako.items
    for _ in range(2):
        ginger.pos = 0
        move_disasters(hidden, ED, ScriptedPolicy(), [])
    assert hidden.record.counters[(card("Hiding Out").id, CardStat.EFFECTS)] == 2
    assert combats(hidden, ako) == 1, "its two uses spent, the third phase finds her"


@covers("Fake Item", (Trigger.PLAYED, Action.RETRIEVE))
def test_played_retrieve_to_location_fake_item() -> None:
    """Fake Item puts the item a disaster carries back under the disaster's location, with no
    party there; the heuristic player keeps the card while no disaster carries an item."""
    game = table()
    ako = add_char(game, "A-ko Magami", 0)
    from deckkit.animayhem.engine.queries import waits_for_a_use

    fake = shipped_copy(game, "Fake Item")
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    assert waits_for_a_use(game, fake.card)
    keys = copy_of(game, "Keys")
    d.carrying = [keys]
    assert not waits_for_a_use(game, fake.card)
    play_flash(game, "Fake Item", ako)
    assert not d.carrying and keys in game.locs[4].hidden_cards and not ako.items


@covers("Turbo Boost", (Trigger.ALWAYS, Action.BOOST))
def test_always_boost_turbo_boost_on_a_non_flying_vehicle() -> None:
    """Turbo Boost adds 1 to the movement of a non-flying vehicle: A-ko's Floating Car moves 4,
    not 3; Mars Shuttle, a flying vehicle, keeps its 2."""
    from deckkit.animayhem.engine.queries import party_movement

    game = table()
    (ako,) = _rides(game, ("A-ko Magami", "Floating Car"))
    assert party_movement(game, [ako]) == 3
    ako.enhancements.append(shipped_copy(game, "Turbo Boost"))
    game.acts = game.acts | {Action.BOOST}
    assert party_movement(game, [ako]) == 4
    ako.equipment = [shipped_copy(game, "Mars Shuttle")]
    assert party_movement(game, [ako]) == 2


def _really_moves(game: Game, party: list[Char]) -> int:
    """A party's movement when it really moves: the cards that shaped it are recorded."""
    from deckkit.animayhem.engine.interpreter.standing import record_uses
    from deckkit.animayhem.engine.queries import Use, party_movement

    uses: list[Use] = []
    budget = party_movement(game, party, uses)
    record_uses(game, uses)
    return budget


@covers("Ready to Go", (Trigger.ALWAYS, Action.BOOST))
def test_always_boost_ready_to_go_for_three_moves() -> None:
    """Ready to Go adds 3 to a non-flying vehicle's movement on the field, for 3 moves."""
    from deckkit.animayhem.engine.queries import party_movement

    game = table()
    (ako,) = _rides(game, ("A-ko Magami", "Floating Car"))
    game.globals_in_play.append((shipped_copy(game, "Ready to Go"), 99))
    game.acts = game.acts | {Action.BOOST}
    assert party_movement(game, [ako]) == 6  # planning spends no use
    assert [_really_moves(game, [ako]) for _ in range(4)] == [6, 6, 6, 3]
    assert game.record.counters[(card("Ready to Go").id, CardStat.EFFECTS)] == 3


def test_ready_to_go_spends_one_use_per_party_move_however_many_vehicles() -> None:
    """Ready to Go counts moves, not vehicles: a party of two car drivers plans the movement it
    really gets (counting a use per vehicle once cut a planned 6-step route to 3 mid-phase), and
    its third move spends the card's last use."""
    from deckkit.animayhem.engine.queries import party_movement

    game = table()
    party = _rides(game, ("A-ko Magami", "Floating Car"), ("Nene Romanova", "Floating Car"))
    game.globals_in_play.append((shipped_copy(game, "Ready to Go"), 99))
    game.acts = game.acts | {Action.BOOST}
    moves = []
    for _ in range(4):
        planned = party_movement(game, party)
        moves.append(_really_moves(game, party))
        assert moves[-1] == planned
    assert moves == [6, 6, 6, 3]
    assert game.record.counters[(card("Ready to Go").id, CardStat.EFFECTS)] == 3


def test_granted_dimensional_access_lets_a_party_stop_on_a_dimensional_location() -> None:
    """Computer Link grants a Dimensional skill: A-ko may then stop on Computer Core, a
    dimensional location (set0 rulebook, Part I), which she could not before."""
    from tests.engine_helpers import bare_game

    game = bare_game(["Sewer", "Computer Core", "Mt. Muldoon", "Cathedral"])
    core = next(loc.slot for loc in game.locs if loc.card.name == "Computer Core")
    ako = add_char(game, "A-ko Magami", 0)
    assert not can_stop(game, [ako], core)
    ako.equipment.append(shipped_copy(game, "Computer Link"))
    refresh(game, ako)
    assert can_stop(game, [ako], core)


# --- flash effects played in a fight or held for a charm battle (flash additions) ----------


def _flash_fight(
    name: str, fighters: Sequence[str], on: str, disaster: str = "Ginger", held: str = ""
) -> tuple[Game, Dis, list[Char]]:
    """``fighters`` at slot 4 attack ``disaster`` (no charm); ``name`` is played on ``on`` in
    the first round, with ``held`` in the hand too; combat cards without numbers."""
    game = table()
    chars = [add_char(game, n, 4) for n in fighters]
    for c in chars:
        c.health = c.health_max = 99
    d = on_field(game, new_disaster(game, disaster), 4)
    d.charm = 0
    flash = shipped_copy(game, name)
    game.hand.append(flash)
    if held:
        game.hand.append(shipped_copy(game, held))
    arm(game)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)

    class Plays(FlashInCombat):
        def fighters(
            self, game: Game, d: Dis, able: list[Char], target: Char, cap: int
        ) -> list[Char]:
            return list(able)

    fight(game, ED, Plays(flash, on), d, 4, "party")
    return game, d, chars


@covers("Meltdown", (Trigger.PLAYED, Action.FRAIL))
def test_played_frail_meltdown_any_loss_defeats() -> None:
    """Meltdown: A-ko's 4 against Ginger's defense 3 takes 1 health; with Meltdown that one
    point defeats it in the first round, where without it the fight lasts three."""
    game, d, _ = _flash_fight("Meltdown", ["A-ko Magami"], "A-ko Magami")
    first = rounds(game)
    assert len(first) == 1 and d.zone != "field"
    assert first[0]["disaster_loss"] == d.card.abilities.defense  # type: ignore[attr-defined]
    plain = table()
    add_char(plain, "A-ko Magami", 4).health_max = 99
    g = on_field(plain, new_disaster(plain, "Ginger"), 4)
    g.charm = 0
    stack_combat_pile(plain, ["Bench Brawl / Tantrum"] * 40)
    fight(plain, ED, ScriptedPolicy(["A-ko Magami"]), g, 4, "party")
    assert len(rounds(plain)) == 3


@covers("Frozen", (Trigger.PLAYED, Action.FRAIL))
def test_played_frail_frozen_doubles_the_loss_for_one_round() -> None:
    """Frozen: Ginger loses 2 (twice 4 - 3) in the round it is played, 1 in the next."""
    game, _, _ = _flash_fight("Frozen", ["A-ko Magami"], "A-ko Magami")
    losses = [r["disaster_loss"] for r in rounds(game)]
    assert losses == [2, 1]


def test_frail_nothing_through_defense_stays_nothing() -> None:
    """Meltdown needs a successful attack: Soja Guardians' defense stops A-ko's 4 entirely,
    so nothing is lost and nothing is defeated that round."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.health = ako.health_max = 99
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    d.charm = 0
    d.defense = 9
    flash = shipped_copy(game, "Meltdown")
    game.hand.append(flash)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)
    fight(game, ED, FlashInCombat(flash, "A-ko Magami"), d, 4, "party")
    assert rounds(game)[0]["disaster_loss"] <= 0 and rounds(game)[0]["disaster_health"] > 0


def test_heuristic_spends_meltdown_only_when_it_finishes() -> None:
    """The heuristic player plays Meltdown in a round where damage gets through a disaster it
    cannot beat otherwise, and keeps Frozen when doubling the loss would not finish it."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    d.defense = d.health = 30
    melt = shipped_copy(game, "Meltdown")
    frozen = shipped_copy(game, "Frozen")
    game.hand.extend([frozen, melt])
    arm(game)
    policy = HeuristicPolicy()
    assert policy.frail_blow(game, d, [ako], 0) is None, "nothing gets through"
    assert policy.frail_blow(game, d, [ako], 1) == (melt, ako)
    game.hand.remove(melt)
    assert policy.frail_blow(game, d, [ako], 1) is None, "1 x 2 does not finish 30"
    assert policy.frail_blow(game, d, [ako], 15) == (frozen, ako)


@covers("Kamehameha", (Trigger.PLAYED, Action.CHARGE))
def test_played_charge_kamehameha_adds_and_spends_its_energy() -> None:
    """Kamehameha: Adult Gohan (Chi x2) adds his energy to his attack for the round and spends
    it; Krillin (Chi once) may not play it."""
    game, _, (gohan,) = _flash_fight("Kamehameha", ["Adult Gohan"], "Adult Gohan")
    base = gohan.card.abilities  # type: ignore[attr-defined]
    r = rounds(game)
    assert r[0]["party_damage"] == base.damage + base.energy
    assert len(r) == 1 or r[1]["party_damage"] == base.damage
    game, _, (krillin,) = _flash_fight("Kamehameha", ["Krillin"], "Krillin")
    assert rounds(game)[0]["party_damage"] == krillin.card.abilities.damage  # type: ignore[attr-defined]


@covers("Genki-Dama", (Trigger.PLAYED, Action.CHARGE))
def test_played_charge_genki_dama_takes_everyones_energy() -> None:
    """Genki-Dama: Kami (Chi x3) pays 8 energy and attacks with every character in play's
    energy added; A-ko, fighting beside him, deals nothing that round."""
    game = table()
    kami = add_char(game, "Kami", 4)
    ako = add_char(game, "A-ko Magami", 4)
    home = add_char(game, "Krillin", -1)  # in the haven: in play, lends energy too
    for c in (kami, ako):
        c.health = c.health_max = 99
    kami.set_energy(10)
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    d.charm = 0
    d.defense = 20  # health 20: the fight lasts past the first round
    flash = shipped_copy(game, "Genki-Dama")
    game.hand.append(flash)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)
    lent = 2 + ako.cur[4] + home.cur[4]  # Kami keeps 10 - 8 = 2

    class Both(FlashInCombat):
        def fighters(
            self, game: Game, d: Dis, able: list[Char], target: Char, cap: int
        ) -> list[Char]:
            return list(able)

    fight(game, ED, Both(flash, "Kami"), d, 4, "party")
    r = rounds(game)
    assert r[0]["party_damage"] == kami.cur[DMG] + lent
    assert r[1]["party_damage"] == kami.cur[DMG] + ako.cur[DMG]


@covers("Following Orders", (Trigger.PLAYED, Action.REVERSE_CHARM))
def test_played_reverse_charm_following_orders_wins_a_lost_charm_battle() -> None:
    """Following Orders, held in the hand, turns A-ko's lost charm battle into a win: the minor
    disaster is incapacitated instead of ignoring her; the card is spent."""
    from deckkit.animayhem.engine.combat import charm_battle

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    d = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    d.charm = 99
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 4)
    assert charm_battle(game, ako, d) < 0
    orders = shipped_copy(game, "Following Orders")
    game.hand.append(orders)
    arm(game)
    assert charm_battle(game, ako, d) > 0
    assert orders in game.discard and orders not in game.hand
    assert charm_battle(game, ako, d) < 0, "spent: the next battle is lost"


def test_played_modify_loving_you_charm_in_a_lost_charm_battle() -> None:
    """Loving You, held in the hand: +3 charm turns A-ko's charm battle against an Android
    (charm 3 + 3 against 5), not against a disaster of no such kind; it is kept when 3 would
    not be enough."""
    from deckkit.animayhem.engine.combat import charm_battle

    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # charm 3
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 8)
    loving = shipped_copy(game, "Loving You")
    game.hand.append(loving)
    ginger = on_field(game, new_disaster(game, "Ginger"), 4)
    ginger.charm = 5
    assert charm_battle(game, ako, ginger) < 0 and loving in game.hand, "Ginger is no Android"
    robot = next(
        new_disaster(game, c.name)
        for c in db().cards
        if c.type is CardType.DISASTER and "Android" in c.categories
    )
    on_field(game, robot, 4)
    robot.charm = 9
    assert charm_battle(game, ako, robot) < 0 and loving in game.hand, "3 is not enough"
    robot.charm = 5
    assert charm_battle(game, ako, robot) > 0 and loving in game.discard


@covers("Ultimate Sacrifice", (Trigger.PLAYED, Action.DEFEAT))
def test_played_defeat_ultimate_sacrifice_costs_a_life() -> None:
    """Ultimate Sacrifice in a fight defeats the combat disaster and kills the character it is
    played on; out of the hand it takes a combat disaster anywhere, and with none on the field
    it kills nobody."""
    _, d, (ako, krillin) = _flash_fight("Ultimate Sacrifice", ["A-ko Magami", "Krillin"], "Krillin")
    assert d.zone != "field" and krillin.zone == "discard" and ako.zone == "field"
    quiet = table()
    nene = add_char(quiet, "Nene Romanova", 4)
    play_flash(quiet, "Ultimate Sacrifice", nene)
    assert nene.zone == "field", "no combat disaster to destroy: no life is paid"
    far = table()
    nene = add_char(far, "Nene Romanova", 4)
    ginger = on_field(far, new_disaster(far, "Ginger"), 0)
    play_flash(far, "Ultimate Sacrifice", nene)
    assert ginger.zone != "field" and nene.zone == "discard"


def test_a_character_killed_by_a_flash_effect_takes_no_hit_that_round() -> None:
    """Krillin, attacked (he carries the item), gives his life for Ultimate Sacrifice before
    the round's damage: the disaster's blow does not land on him (his health stays whole for a
    later return to play)."""
    game = table()
    krillin = add_char(game, "Krillin", 4)
    krillin.items.append(copy_of(game, "Keys"))
    d = on_field(game, new_disaster(game, "Ginger"), 4)
    d.charm = 0
    d.damage = 20
    flash = shipped_copy(game, "Ultimate Sacrifice")
    game.hand.append(flash)
    stack_combat_pile(game, ["Bench Brawl / Tantrum"] * 40)
    fight(game, ED, FlashInCombat(flash, "Krillin"), d, 4, "disaster")
    assert krillin.zone == "discard" and d.zone != "field"
    assert krillin.health == krillin.health_max
    assert rounds(game)[0]["hits"] == []


def test_heuristic_sacrifices_the_weakest_only_for_a_major_or_a_carrier() -> None:
    """The heuristic player gives a life only against a major disaster or one carrying an
    item, and then the weakest fighter's."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    nene = add_char(game, "Nene Romanova", 4)
    minor = on_field(game, new_disaster(game, "Soja Guardians"), 4)
    minor.defense = 99
    game.hand.append(shipped_copy(game, "Ultimate Sacrifice"))
    policy = HeuristicPolicy()
    assert policy.finisher(game, minor, [ako, nene]) is None
    minor.carrying = [copy_of(game, "Keys")]
    pick = policy.finisher(game, minor, [ako, nene])
    assert pick is not None and pick[1] is nene


@covers("Change Direction", (Trigger.PLAYED, Action.REVERSE))
def test_played_reverse_change_direction_turns_a_disaster_back() -> None:
    """Change Direction: Ginger, two steps along the path, moves back from then on; at the entry
    end a major disaster starts again from the far end and keeps going back, and a minor one
    (Soja Guardians) is discarded."""
    game = table()
    path = game.field.path
    ako = add_char(game, "A-ko Magami", path[-1])  # far from both: nobody is met on the way
    ginger = on_field(game, new_disaster(game, "Ginger"), path[4])
    play_flash(game, "Change Direction", ako)
    assert ginger.backward
    move_disaster(game, ED, ScriptedPolicy(), ginger, 2)
    assert ginger.pos == 2
    move_disaster(game, ED, ScriptedPolicy(), ginger, 4)  # 1, 0, then the far end, then back
    assert ginger.zone == "field" and ginger.pos == len(path) - 2
    minor = table()
    ako = add_char(minor, "A-ko Magami", path[-1])
    soja = on_field(minor, new_disaster(minor, "Soja Guardians"), path[1])
    play_flash(minor, "Change Direction", ako)
    move_disaster(minor, ED, ScriptedPolicy(), soja, 3)
    assert soja.zone == "discard" and soja not in minor.disasters


def test_heuristic_keeps_change_direction_until_it_sends_a_disaster_out_sooner() -> None:
    """The heuristic player plays Change Direction when the combat disaster nearest its
    strongest character is a minor one nearer the entry end, carrying nothing; it keeps the card
    for a disaster nearer the exit or carrying an item."""
    game = table()
    path = game.field.path
    ako = add_char(game, "A-ko Magami", path[-1])
    soja = on_field(game, new_disaster(game, "Soja Guardians"), path[-2])
    turn = shipped_copy(game, "Change Direction")
    game.hand.append(turn)
    policy = HeuristicPolicy()
    assert turn not in policy.discards(game), "it leaves sooner going on"
    soja.pos = 1
    assert turn in policy.discards(game)
    soja.carrying = [copy_of(game, "Keys")]
    assert turn not in policy.discards(game), "its item would go off the field with it"
    assert ako.zone == "field"


@covers("Supreme Battle Aura", (Trigger.PLAYED, Action.FREE_CAST))
def test_played_free_cast_supreme_battle_aura_pays_for_genki_dama() -> None:
    """Kami (energy 6) cannot pay Genki-Dama's 8: the card fizzles. With Supreme Battle Aura in
    the hand the aura is given up instead and the energy goes into his attack."""
    game, _, (kami,) = _flash_fight("Genki-Dama", ["Kami"], "Kami")
    assert rounds(game)[0]["party_damage"] == kami.cur[DMG]
    game, _, (kami,) = _flash_fight("Genki-Dama", ["Kami"], "Kami", held="Supreme Battle Aura")
    assert rounds(game)[0]["party_damage"] == kami.cur[DMG] + kami.card.abilities.energy  # type: ignore[attr-defined]
    assert not game.hand and card("Supreme Battle Aura").id in {x.card.id for x in game.discard}


def test_heuristic_counts_supreme_battle_aura_for_a_cost() -> None:
    """The heuristic player keeps the aura in the hand, and with it plays a card whose cost its
    fighter could not pay."""
    game = table()
    kami = add_char(game, "Kami", 4)
    aura = shipped_copy(game, "Supreme Battle Aura")
    genki = shipped_copy(game, "Genki-Dama")
    game.hand.extend([aura, genki])
    arm(game)
    policy = HeuristicPolicy()
    assert aura not in policy.discards(game)
    assert policy.combat_flash(game, [kami], kami, 5, 0) == [(genki, kami)]
    game.hand.remove(aura)
    assert policy.combat_flash(game, [kami], kami, 5, 0) == []


# --- the draw pile's order, stealing, a global's gated columns, sending (powers) ------------


class PlaysOneGlobal(ScriptedPolicy):
    """Plays the given global effect at the Equip phase; a Shortcut's destination is fixed."""

    def __init__(self, g: Copy, goal: int = -1) -> None:
        super().__init__()
        self.g = g
        self.goal = goal

    def global_effect(self, game: Game) -> Copy | None:
        return self.g if self.g in game.hand else None

    def destination(self, game: Game, party: list[Char]) -> int:
        return self.goal


def play_global(game: Game, g: Copy, goal: int = -1) -> None:
    """Play ``g`` from the hand at the Equip phase (its ``played`` effects act then)."""
    game.hand.append(g)
    policy = PlaysOneGlobal(g, goal)
    game.hooks.policy = policy  # type: ignore[attr-defined]
    equip_phase(game, SET0, policy)
    assert any(x is g for x, _ in game.globals_in_play)


@covers("Briefing", (Trigger.PLAYED, Action.REORDER), (Trigger.TURN, Action.REORDER))
def test_played_and_turn_reorder_briefing_puts_disasters_last() -> None:
    """Briefing: the disasters among the top 4 cards go beneath the others, so the Reload phase
    (which stops at a disaster drawn: set0 rulebook, "Reload Phase") draws the others first;
    its second use acts at the next Maintenance phase, and there is no third."""
    from deckkit.animayhem.engine.phases import reload_phase

    game = table()
    add_char(game, "A-ko Magami", 4)
    goons, tiger = new_disaster(game, "Goons"), new_disaster(game, "Sabre-toothed Tiger")
    bash, parry, keys = copy_of(game, "Bash"), copy_of(game, "Parry"), copy_of(game, "Keys")
    game.draw_pile = [keys, bash, goons, parry]  # drawn from the end: Parry first
    play_global(game, shipped_copy(game, "Briefing"))
    assert game.draw_pile == [goons, keys, bash, parry]
    game.hand.clear()
    reload_phase(game, ED, ScriptedPolicy())
    assert game.hand[:3] == [parry, bash, keys]
    assert game.drawn == [goons]
    game.draw_pile = [parry, tiger, bash, keys, goons]
    maintenance_phase(game, ED, ScriptedPolicy())
    assert game.draw_pile == [parry, tiger, goons, bash, keys]
    game.draw_pile = [tiger, bash]
    maintenance_phase(game, ED, ScriptedPolicy())
    assert game.draw_pile == [tiger, bash], "two uses only"


@covers("Palace Guard", (Trigger.ROUND, Action.MODIFY))
def test_round_modify_palace_guard_only_for_royalty_and_two_uses() -> None:
    """Palace Guard: its +1/+2 is no standing bonus (columns = false); it reaches the whole
    party fighting, and only a party with Royalty, for two combat rounds."""
    from deckkit.animayhem.engine.interpreter.common import Sides

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ayeka = add_char(game, "Princess Ayeka", 4)  # Royalty
    nabiki = add_char(game, "Nabiki Tendo", 0)
    before = {c.uid: c.cur for c in (ako, ayeka, nabiki)}
    guard = shipped_copy(game, "Palace Guard")
    game.globals_in_play.append((guard, 5))
    for c in (ako, ayeka, nabiki):
        refresh(game, c)
        assert c.cur == before[c.uid], "its columns give no standing bonus"
    d = on_field(game, new_disaster(game, "Goons"), 4)
    lone = Sides(d, [nabiki])
    assert not fire(game, guard, Trigger.ROUND, 0, holder=nabiki, fought=d, sides=lone)
    for _ in range(3):
        sides = Sides(d, [ako, ayeka])
        fire(game, guard, Trigger.ROUND, 4, holder=ako, fought=d, sides=sides)
        got = [apply_mods(sides.round_chars.get(c.uid, []), 0, 0) for c in (ako, ayeka)]
        last = got
    assert game.record.counters[(guard.card.id, CardStat.EFFECTS)] == 2
    assert last == [(0, 0), (0, 0)], "the third round has no use left"
    sides = Sides(d, [ako, ayeka])
    game.fired.clear()
    fire(game, guard, Trigger.ROUND, 4, holder=ako, fought=d, sides=sides)
    assert apply_mods(sides.round_chars[ako.uid], 0, 0) == (1, 2)
    assert apply_mods(sides.round_chars[ayeka.uid], 0, 0) == (1, 2)


@covers(
    "Police Reinforcements",
    (Trigger.PLAYED, Action.MODIFY),
    (Trigger.TURN, Action.MODIFY),
)
def test_police_reinforcements_one_police_character_a_turn() -> None:
    """Police Reinforcements: +1/+1 for the turn to one Police character (the strongest on the
    field), as it is played and at each Maintenance phase; nobody else gains the columns."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    kiyone = add_char(game, "Detective Kiyone", 4)  # Police, 3/3
    mihoshi = add_char(game, "Detective Mihoshi", 0)  # Police, 2/3
    base = {c.uid: c.cur for c in (ako, kiyone, mihoshi)}
    play_global(game, shipped_copy(game, "Police Reinforcements"))
    assert ako.cur == base[ako.uid] and mihoshi.cur == base[mihoshi.uid]
    assert kiyone.cur[DMG] == base[kiyone.uid][DMG] + 1
    assert kiyone.cur[DEF] == base[kiyone.uid][DEF] + 1
    game.turn = 2
    maintenance_phase(game, ED, ScriptedPolicy())
    for c in (ako, kiyone, mihoshi):
        refresh(game, c)
    assert kiyone.cur[DMG] == base[kiyone.uid][DMG] + 1  # this turn's gain
    game.turn = 3
    kiyone.zone = "haven"
    kiyone.slot = -1
    maintenance_phase(game, ED, ScriptedPolicy())
    refresh(game, kiyone)
    refresh(game, mihoshi)
    assert kiyone.cur == base[kiyone.uid]
    assert mihoshi.cur[DMG] == base[mihoshi.uid][DMG] + 1


@covers("Classy Crooks", (Trigger.ALWAYS, Action.SAFEGUARD))
def test_always_safeguard_classy_crooks_keeps_gift_and_clothing_from_a_stealer() -> None:
    """Classy Crooks: a stealer takes no Gift or Clothing item; with nothing else to take it
    attacks the carrier, as any combat disaster meeting one; a plain item is still stolen."""

    def steal(names: Sequence[str], crooks: bool) -> tuple[Char, Dis, Game]:
        game = table()
        c = add_char(game, "Nabiki Tendo", game.field.path[1])
        c.items = [copy_of(game, n) for n in names]
        if crooks:
            game.globals_in_play.append((shipped_copy(game, "Classy Crooks"), 5))
            game.acts = game.acts | {Action.SAFEGUARD}
        najato = new_disaster(game, "Najato (Phantom Prince)")
        game.combat_pile = []
        move_disasters(game, ED, ScriptedPolicy(), [najato])
        return c, najato, game

    c, najato, _ = steal(["Compact"], crooks=False)
    assert not c.items and najato.carrying[0].card.name == "Compact"
    c, najato, game = steal(["Compact", "Cross"], crooks=True)
    assert [x.card.name for x in c.items] == ["Compact", "Cross"]
    assert not any(x.card.name in ("Compact", "Cross") for x in najato.carrying)
    assert game.trace is not None
    assert any(e["kind"] == "combat" for e in game.trace.events), "it attacks instead"
    assert game.record.counters[(card("Classy Crooks").id, CardStat.EFFECTS)] >= 1
    c, najato, _ = steal(["Compact", "Keys"], crooks=True)
    assert [x.card.name for x in c.items] == ["Compact"]
    assert [x.card.name for x in najato.carrying] == ["Keys"]


@covers("Shortcut", (Trigger.PLAYED, Action.SEND))
def test_played_send_to_goal_shortcut() -> None:
    """Shortcut: the strongest character's group goes straight to the location the player picks;
    a pick of where it already stands spends nothing."""
    game = table()
    ako = add_char(game, "A-ko Magami", 0)
    ranma = add_char(game, "Nabiki Tendo", 0)
    other = add_char(game, "Kami", 4)
    play_global(game, shipped_copy(game, "Shortcut"), goal=8)
    assert (ako.slot, ranma.slot, other.slot) == (8, 8, 4)
    game.globals_in_play.clear()
    play_global(game, shipped_copy(game, "Shortcut"), goal=8)
    assert game.record.counters[(card("Shortcut").id, CardStat.EFFECTS)] == 1


def test_the_heuristic_plays_shortcut_only_to_a_target_beyond_its_reach() -> None:
    """The heuristic player plays Shortcut when the location its party would scavenge next is
    farther than the party moves, and sends the party there."""
    from deckkit.animayhem.engine.hooks import EngineHooks
    from tests.engine_helpers import bare_game

    names = [
        "Telephone Pole",
        "Cathedral",
        "Country Bar",
        "Survival Shot",
        "Furinkan High",
        "Tokyo Mega Dome",
        "Mt. Muldoon",
        "Sewer",
        "Tea Room Transylvania",
    ]
    for start, plays in ((0, True), (6, False)):
        game = bare_game(names, cells=[(x, 0) for x in range(9)])
        policy = HeuristicPolicy()
        game.hooks = EngineHooks(ED, policy)
        game.turn = 1
        for loc in game.locs:
            loc.hidden_cards = []
            loc.hidden_disasters = []
        game.locs[8].hidden_cards = [copy_of(game, "Keys")]  # A-ko, a Student, may scavenge it
        ako = add_char(game, "A-ko Magami", start)
        short = shipped_copy(game, "Shortcut")
        game.hand.append(short)
        assert (policy.global_effect(game) is short) is plays
        if plays:
            equip_phase(game, ED, policy)
            assert ako.slot == 8


@covers("Transmitter Bra", (Trigger.TURN, Action.SEND))
def test_turn_send_here_transmitter_bra_brings_the_strongest_from_elsewhere() -> None:
    """Transmitter Bra: the strongest character elsewhere on the field joins its wearer, at two
    Maintenance phases; nobody is pulled while the wearer waits in the haven."""
    game = table()
    wearer = add_char(game, "Nabiki Tendo", -1)
    wearer.equipment.append(shipped_copy(game, "Transmitter Bra"))
    ako = add_char(game, "A-ko Magami", 8)
    kami = add_char(game, "Kami", 8)
    weak = add_char(game, "Princess Sasami", 2)
    maintenance_phase(game, ED, ScriptedPolicy())
    assert (ako.slot, kami.slot, weak.slot) == (8, 8, 2), "from the haven it pulls nobody"
    wearer.zone, wearer.slot = "field", 0
    strongest = max((ako, kami, weak), key=lambda c: (c.cur[DMG] + c.cur[DEF], -c.uid))
    maintenance_phase(game, ED, ScriptedPolicy())
    assert strongest.slot == 0
    maintenance_phase(game, ED, ScriptedPolicy())
    maintenance_phase(game, ED, ScriptedPolicy())
    here = [c for c in (ako, kami, weak) if c.slot == 0]
    assert len(here) == 2, "two uses: two characters joined"


def _ako_on_a_line_of_nine() -> tuple[Game, Char]:
    """Nine empty locations in a line, A-ko Magami (movement 4) on the first: room to see how
    far a party moves."""
    from tests.engine_helpers import NINE, bare_game

    game = bare_game(NINE, cells=[(x, 0) for x in range(9)])
    game.turn = 1
    for loc in game.locs:
        loc.hidden_cards, loc.hidden_disasters = [], []
    return game, add_char(game, "A-ko Magami", 0)


@covers("Jump", (Trigger.ALWAYS, Action.LEAP))
def test_always_leap_jump_one_more_location_for_two_moves() -> None:
    """Jump: the party moves one location more; a move that needs the jump spends a use, one
    that does not spends none, and after two uses the card is discarded."""
    from deckkit.animayhem.engine.movement import move_party
    from deckkit.animayhem.engine.queries import party_movement

    game, ako = _ako_on_a_line_of_nine()
    walk = ako.cur[MOV]
    jump = shipped_copy(game, "Jump")
    ako.enhancements.append(jump)
    game.acts = game.acts | {Action.LEAP}
    assert party_movement(game, [ako]) == walk + 1
    assert walk == 4  # the line of nine: 0 -> 3 walking, 3 -> 8 jumping, 8 -> 3 jumping
    move_party(game, ED, ScriptedPolicy(), [ako], [1, 2, 3])  # no jump needed
    assert game.record.counters.get((jump.card.id, CardStat.EFFECTS), 0) == 0
    move_party(game, ED, ScriptedPolicy(), [ako], [4, 5, 6, 7, 8])
    assert game.record.counters[(jump.card.id, CardStat.EFFECTS)] == 1 and jump in ako.enhancements
    move_party(game, ED, ScriptedPolicy(), [ako], [7, 6, 5, 4, 3])
    assert jump not in ako.enhancements and jump in game.discard
    assert party_movement(game, [ako]) == walk


def test_always_leap_goz_flying_machine_two_locations_further_once() -> None:
    """Goz' Flying Machine ("Immediately Moves one Character two Locations"): its movement
    column is that distance, not a movement its carrier takes on, so the carrier keeps its own;
    once, a move that needs it takes the party two locations further, and the machine is
    discarded."""
    from deckkit.animayhem.engine.movement import move_party
    from deckkit.animayhem.engine.queries import party_movement

    game, ako = _ako_on_a_line_of_nine()
    walk = ako.cur[MOV]
    machine = shipped_copy(game, "Goz' Flying Machine")
    assert isinstance(machine.card, PowerCard) and machine.card.modifiers  # the "2" column
    ako.equipment.append(machine)
    refresh(game, ako)
    assert ako.cur[MOV] == walk == 4  # not set to 2 by the column
    game.acts = game.acts | {Action.LEAP}
    assert party_movement(game, [ako]) == walk + 2
    move_party(game, ED, ScriptedPolicy(), [ako], [1, 2, 3, 4])  # walking: the machine waits
    assert machine in ako.equipment
    move_party(game, ED, ScriptedPolicy(), [ako], [5, 6, 7, 8, 7, 6])
    assert game.record.counters[(machine.card.id, CardStat.EFFECTS)] == 1
    assert machine not in ako.equipment and machine in game.discard
    assert party_movement(game, [ako]) == walk


@covers("Shayla-Shayla", (Trigger.ALWAYS, Action.AMPLIFY))
def test_always_amplify_shayla_shayla_fire_effects_one_more() -> None:
    """Shayla-Shayla: "+1 all Fire effects". While she is in the haven (or on the field), Panic
    Attack, the Fire effect of the card data (+2 attack), adds 3 in a fight; a power card that is
    no Fire effect gets nothing more, and once she is out of play Panic Attack adds 2 again."""
    from deckkit.animayhem.construction.carddb import load_card_db
    from deckkit.animayhem.engine.combat import _apply_round_modifiers, _Side

    game = table()
    shayla = add_char(game, "Shayla-Shayla", -1)
    shipped(game, shayla)
    game.acts = game.acts | {Action.AMPLIFY}
    ako = add_char(game, "A-ko Magami", 4)
    panic = card("Panic Attack")
    assert isinstance(panic, PowerCard) and "Fire" in panic.categories
    side = _Side(ako, 5, 3)
    _apply_round_modifiers(game, side, Copy(900, panic))
    assert (side.damage, side.defense) == (5 + 3, 3)
    assert game.record.counters[(shayla.card.id, CardStat.EFFECTS)] == 1
    plain = next(
        c
        for c in load_card_db().cards
        if isinstance(c, PowerCard)
        and c.type is CardType.FLASH_EFFECT
        and "Fire" not in c.categories
        and c.modifiers == (("damage", Modifier("+", 2)),)
    )
    side = _Side(ako, 5, 3)
    _apply_round_modifiers(game, side, Copy(901, plain))
    assert side.damage == 5 + 2
    shayla.zone = "draw"
    side = _Side(ako, 5, 3)
    _apply_round_modifiers(game, side, Copy(900, panic))
    assert side.damage == 5 + 2
    assert game.record.counters[(shayla.card.id, CardStat.EFFECTS)] == 1


@covers("Medical Scanner", (Trigger.ALWAYS, Action.EQUIP_ANYWHERE))
def test_always_equip_anywhere_medical_scanner_weapons_only_for_three_uses() -> None:
    """Medical Scanner: a weapon from the hand goes on its carrier on the field, other
    equipment does not; each weapon spends a use, and the third discards the scanner."""
    from deckkit.animayhem.engine.policy import may_equip

    class EquipsOnField(ScriptedPolicy):
        def power_card(
            self, game: Game, kind: CardType, anywhere: bool
        ) -> tuple[Copy, Char] | None:
            cards = [x for x in game.hand if isinstance(x, Copy) and x.card.type is kind]
            return (cards[0], ako) if cards else None

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    scanner = shipped_copy(game, "Medical Scanner")
    ako.equipment.append(scanner)
    game.acts = game.acts | {Action.EQUIP_ANYWHERE}
    gun = copy_of(game, "Armitage's Gun")
    assert isinstance(gun.card, PowerCard) and gun.card.weapon
    pods = card("Attack Pods")
    assert isinstance(pods, PowerCard)
    assert ako in equip_targets(game, CardType.EQUIPMENT, False)
    assert may_equip(game, ako, gun.card) and not may_equip(game, ako, pods)
    for uses_left in (2, 1):
        game.hand = [copy_of(game, "Armitage's Gun")]
        equip_phase(game, ED, EquipsOnField())
        assert scanner.uses_left == uses_left and scanner in ako.equipment
    game.hand = [copy_of(game, "Armitage's Gun")]
    equip_phase(game, ED, EquipsOnField())
    assert scanner not in ako.equipment and scanner in game.discard
    assert sum(1 for x in ako.equipment if x.card.name == "Armitage's Gun") == 3
    assert not may_equip(game, ako, gun.card)


@covers("Blasters", (Trigger.ALWAYS, Action.FORFEIT))
def test_always_forfeit_blasters_takes_two_chi() -> None:
    """Blasters: +1 attack (a column) and -2 Chi on its wearer, an anti-skill that cancels Chi
    its party holds; the heuristic player keeps it off a character holding Chi."""
    game = table()
    krillin = add_char(game, "Krillin", -1)  # Chi
    ako = add_char(game, "A-ko Magami", -1)
    blasters = shipped_copy(game, "Blasters")
    chi = parse_requirement("Chi", db().vocabulary)
    assert requirement_met(chi, [krillin, ako])
    game.hand = [blasters]
    choice = HeuristicPolicy().power_card(game, CardType.EQUIPMENT, False)
    assert choice is not None and choice[1] is ako
    attack = ako.cur[DMG]
    ako.equipment.append(blasters)
    refresh(game, ako)
    assert ako.cur[DMG] == attack + 1 and ako.skill_counts.get("Chi") == -2
    assert not requirement_met(chi, [krillin, ako]), "her -2 cancels Krillin's Chi"
    assert requirement_met(chi, [krillin])


@covers("Ross' Battle Suit", (Trigger.ALWAYS, Action.WEAR))
def test_always_wear_ross_battle_suit_goes_after_eight_damage() -> None:
    """Ross' Battle Suit: its stats replace its wearer's (columns); once its wearer has lost 8
    health in fights while wearing it, it is discarded and the wearer's own stats return."""
    from deckkit.animayhem.engine.interpreter.standing import wear

    game = table()
    leon = add_char(game, "Leon McNichol", 4)  # Police
    own = leon.cur
    suit = shipped_copy(game, "Ross' Battle Suit")
    leon.equipment.append(suit)
    refresh(game, leon)
    assert (leon.cur[DMG], leon.cur[DEF], leon.cur[MOV]) == (6, 4, 3)
    wear(game, [(leon, 3)])
    wear(game, [(leon, 0)])
    wear(game, [(leon, 4)])
    assert suit in leon.equipment, "7 points so far"
    wear(game, [(leon, 1)])
    assert suit not in leon.equipment and suit in game.discard
    assert leon.cur == own


def test_ross_battle_suit_wears_out_in_a_fight() -> None:
    """The suit counts the health its wearer loses in combat rounds (combat.fight)."""
    game = table()
    leon = add_char(game, "Leon McNichol", 4)
    suit = shipped_copy(game, "Ross' Battle Suit")
    leon.equipment.append(suit)
    refresh(game, leon)
    leon.health = 99  # a long fight, to see the suit go
    game.acts = game.acts | {Action.WEAR}
    d = on_field(game, new_disaster(game, "Sabre-toothed Tiger"), 4)
    d.damage = 9  # 5 a round through the suit's defense of 4
    d.defense = 40  # and it outlasts two rounds
    game.combat_pile = []
    fight(game, ED, ScriptedPolicy(), d, 4, "disaster")
    losses = [h["loss"] for r in rounds(game) for h in r["hits"] if h["name"] == leon.name]
    assert sum(losses) >= 8 and losses[:2] == [5, 5]
    assert suit not in leon.equipment and suit in game.discard


@covers("Assassin Disquise", (Trigger.ALWAYS, Action.SAFEGUARD))
def test_always_safeguard_assassin_disguise_hides_one_item() -> None:
    """Assassin Disguise: the first item its character carries cannot be stolen; a second one
    can."""
    game = table()
    c = add_char(game, "Nabiki Tendo", game.field.path[1])
    c.enhancements.append(shipped_copy(game, "Assassin Disquise"))
    c.items = [copy_of(game, "Keys")]
    game.acts = game.acts | {Action.SAFEGUARD}
    najato = new_disaster(game, "Najato (Phantom Prince)")
    game.combat_pile = []
    move_disasters(game, ED, ScriptedPolicy(), [najato])
    assert [x.card.name for x in c.items] == ["Keys"] and not najato.carrying
    game2 = table()
    c2 = add_char(game2, "Nabiki Tendo", game2.field.path[1])
    c2.enhancements.append(shipped_copy(game2, "Assassin Disquise"))
    c2.items = [copy_of(game2, "Keys"), copy_of(game2, "Compact")]
    game2.acts = game2.acts | {Action.SAFEGUARD}
    thief = new_disaster(game2, "Najato (Phantom Prince)")
    game2.combat_pile = []
    move_disasters(game2, ED, ScriptedPolicy(), [thief])
    assert [x.card.name for x in c2.items] == ["Keys"]
    assert [x.card.name for x in thief.carrying] == ["Compact"]


@covers("Power Up", (Trigger.COMBAT, Action.MODIFY))
def test_combat_modify_power_up_strongest_chi_fighter() -> None:
    """Power Up: the strongest Chi character at a fight gains +1/+1 for the combat; a party
    without Chi gains nothing."""
    from deckkit.animayhem.engine.interpreter.common import Sides

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    krillin = add_char(game, "Krillin", 4)
    roshi = add_char(game, "Master Roshi", 4)
    nabiki = add_char(game, "Nabiki Tendo", 0)
    up = shipped_copy(game, "Power Up")
    d = on_field(game, new_disaster(game, "Goons"), 4)
    sides = Sides(d, [ako, krillin, roshi])
    assert fire(game, up, Trigger.COMBAT, 4, holder=ako, fought=d, sides=sides)
    assert apply_mods(sides.combat_chars[krillin.uid], 0, 0) == (1, 1)
    assert ako.uid not in sides.combat_chars and roshi.uid not in sides.combat_chars
    alone = Sides(d, [nabiki])
    assert not fire(game, up, Trigger.COMBAT, 0, holder=nabiki, fought=d, sides=alone)


def _only_open(game: Game, *slots: int) -> None:
    """Face-down cards lie under these locations only: the others are scavenged."""
    for loc in game.locs:
        loc.hidden_cards = [copy_of(game, "Keys")] if loc.slot in slots else []
        loc.hidden_disasters = []


@covers("Data Stream", (Trigger.TURN, Action.SHARE))
def test_turn_share_data_stream_borrows_a_computer_characters_skill() -> None:
    """Data Stream: at the Maintenance phase its holder takes, for the turn, the skill of a
    Computer character in play that opens a location its party cannot scavenge yet."""
    game = table()
    eddie = add_char(game, "Eddie", 4)  # Computer; no Streetwise, no Strength
    add_char(game, "Future Trunks", -1)  # Computer, Streetwise, Strength, ...
    eddie.enhancements.append(shipped_copy(game, "Data Stream"))
    sewer = next(loc for loc in game.locs if loc.card.name == "Sewer")  # Streetwise or Strength
    _only_open(game, sewer.slot)
    assert not requirement_met(sewer.card.requirement, [eddie])
    maintenance_phase(game, ED, ScriptedPolicy())
    assert requirement_met(sewer.card.requirement, [eddie])
    assert game.record.counters[(card("Data Stream").id, CardStat.EFFECTS)] == 1
    game.turn += 1
    _only_open(game)
    maintenance_phase(game, ED, ScriptedPolicy())
    refresh(game, eddie)
    assert not requirement_met(sewer.card.requirement, [eddie]), "a turn only; none needed now"
    assert game.record.counters[(card("Data Stream").id, CardStat.EFFECTS)] == 1


@covers("Mind Scanner", (Trigger.TURN, Action.SHARE))
def test_turn_share_mind_scanner_copies_its_characters_skill_to_another() -> None:
    """Mind Scanner: at the Maintenance phase another character on the field gets, for the
    turn, the skill of the scanner's character that opens a location to its party."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)  # Acrobatics, Strength x3, Student, Communications
    nabiki = add_char(game, "Nabiki Tendo", 0)
    ako.enhancements.append(shipped_copy(game, "Mind Scanner"))
    muldoon = next(loc for loc in game.locs if loc.card.name == "Mt. Muldoon")
    _only_open(game, muldoon.slot)  # Climbing or Acrobatics or Flying
    assert not requirement_met(muldoon.card.requirement, [nabiki])
    maintenance_phase(game, ED, ScriptedPolicy())
    assert nabiki.skill_counts.get("Acrobatics") == 1
    assert requirement_met(muldoon.card.requirement, [nabiki])
    game.turn += 1
    refresh(game, nabiki)
    assert not nabiki.skill_counts.get("Acrobatics")


# --- locations turned havens, equipment from the draw pile, text-only categories ----------


def test_scavenged_become_haven_the_reversed_world_needs_washu_with_the_cube() -> None:
    """The Reversed World becomes a haven only when Washu scavenges it holding the Control
    Cube."""
    for cube in (False, True):
        game = table()
        world = shipped_copy(game, "The Reversed World")
        game.locs[4] = Loc(4, world)
        washu = add_char(game, "Washu", 4)
        if cube:
            washu.equipment.append(copy_of(game, "Control Cube"))
        arm(game)
        fire(game, world, Trigger.SCAVENGED, 4)
        assert game.turned_havens == ([world] if cube else [])


@covers("Capsule Corporation", (Trigger.ENTERS, Action.FETCH))
def test_enters_fetch_capsule_corporation_plays_equipment_from_the_draw_pile() -> None:
    """A party stopping at Capsule Corporation takes an equipment card from the draw pile onto
    a member who can use it; the draw pile is shuffled and keeps everything else. Equipment no
    member can use is left in the pile."""
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Capsule Corporation"))
    ako = add_char(game, "A-ko Magami", game.field.neighbours[4][0])
    suit = copy_of(game, "Blasters")
    other = copy_of(game, "Medical Treatment")
    game.draw_pile = [suit, other]
    arm(game)
    move_phase(game, ED, MovesTo([ako], [4]))
    assert ako.slot == 4 and suit in ako.equipment
    assert game.draw_pile == [other]
    # Equipment no one there can use (A-ko has no Tech) stays in the draw pile.
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Capsule Corporation"))
    ako = add_char(game, "A-ko Magami", game.field.neighbours[4][0])
    gun = copy_of(game, "Hand Gun")
    game.draw_pile = [gun]
    arm(game)
    move_phase(game, ED, MovesTo([ako], [4]))
    assert ako.slot == 4 and game.draw_pile == [gun] and not ako.equipment and not game.hand


def test_enters_fetch_capsule_corporation_also_as_a_party_passes_over_it() -> None:
    """Capsule Corporation: "A Player who enters this Location". To enter is to move onto it,
    stopping or not (1998 guidelines, glossary: "Move": "To go from one Location or Haven to
    another Haven or Location"; "Pass over": "To Move onto a Location without ending your
    Movement for that phase"): A-ko, walking through it to the location beyond, takes the
    equipment there too. Before, it acted only on a party that stopped on it."""
    game = table()
    game.locs[4] = Loc(4, shipped_copy(game, "Capsule Corporation"))
    start, beyond = game.field.neighbours[4][0], game.field.neighbours[4][-1]
    assert start != beyond
    ako = add_char(game, "A-ko Magami", start)
    suit = copy_of(game, "Blasters")
    game.draw_pile = [suit]
    arm(game)
    move_phase(game, ED, MovesTo([ako], [4, beyond]))
    assert ako.slot == beyond and suit in ako.equipment and not game.draw_pile


def dream_location(game: Game) -> Copy:
    """A location of the Dream category: the card pool has none, so the test makes one."""
    return Copy(10_000_000, replace(card("Museum"), categories=("Dream",)))  # type: ignore[call-arg]


def test_always_unlock_alarm_clock_opens_one_dream_location_once_a_game() -> None:
    """The Alarm Clock lets its carrier's party scavenge a Dream location without the skills,
    once a game; planning does not use it up. A location without the category stays shut."""
    game = table()
    dream = dream_location(game)
    game.locs[4] = Loc(4, dream)
    nene = add_char(game, "Nene Romanova", 4)
    assert not passes_skill_test(game, [nene], 4)
    nene.items.append(shipped_copy(game, "Alarm Clock"))
    arm(game)
    assert unlocked(game, [nene], 4) and unlocked(game, [nene], 4)  # planning reads
    assert passes_skill_test(game, [nene], 4)  # the one real use
    assert not passes_skill_test(game, [nene], 4)
    game.locs[3] = Loc(3, copy_of(game, "Museum"))  # the real one: no Dream category
    assert not unlocked(game, [nene], 3)


def test_always_immune_breather_mask_against_a_vapor_card() -> None:
    """The Breather Mask keeps a Vapor disaster (none is in the card pool: the test makes one)
    off its carrier, and no other disaster."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.items.append(shipped_copy(game, "Breather Mask"))
    arm(game)
    plain = hitter(game, 3)
    vapor = on_field(game, Dis(10_000_001, replace(plain.card, categories=("Vapor",))), 4)  # type: ignore[call-arg]
    assert immune(game, vapor, ako)
    assert not immune(game, plain, ako)


def test_always_equip_anywhere_ships_auto_toilet_once_a_game() -> None:
    """Carrying the Ship's Auto-Toilet, A-ko may take equipment on the field once a game."""
    from deckkit.animayhem.engine.interpreter.standing import record_uses
    from deckkit.animayhem.engine.queries import Use

    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    ako.items.append(shipped_copy(game, "Ship's Auto-Toilet"))
    arm(game)
    assert ako in equip_targets(game, CardType.EQUIPMENT, False)
    uses: list[Use] = []
    assert equips_anywhere(game, ako, uses)  # the player equips her: one use of the card
    record_uses(game, uses)
    assert ako not in equip_targets(game, CardType.EQUIPMENT, False)


# --- information: face-down cards the player looks at (REVEAL) ----------------------------


def hide(game: Game, slot: int, defense: int) -> Dis:
    """33-S Sexaroid face down under ``slot``, its defense set (50: no party here beats it)."""
    d = new_disaster(game, "33-S Sexaroid")
    d.defense = defense
    game.locs[slot].hidden_disasters.insert(0, d)
    return d


@covers("Dream Mirror", (Trigger.STOPS, Action.REVEAL))
def test_stops_reveal_dream_mirror_and_the_player_weighs_what_it_saw() -> None:
    """Stopping with the Dream Mirror shows the first disaster beneath, and only that one; the
    heuristic player then leaves a location whose disaster it cannot beat and scavenges one
    whose disaster it can. Without the mirror it knows nothing of that one and scavenges (the
    disasters it has not seen, three Goons in the draw pile among them, are mostly ones it
    could beat: ``COUNTED_THREAT``)."""
    for mirror, defense, goes in ((True, 50, False), (True, 0, True), (False, 50, True)):
        game = table()
        ako = add_char(game, "A-ko Magami", game.field.neighbours[4][0])
        if mirror:
            ako.equipment.append(shipped_copy(game, "Dream Mirror"))
        game.draw_pile.extend(new_disaster(game, "Goons") for _ in range(3))
        second = hide(game, 4, 0)
        first = hide(game, 4, defense)
        arm(game)
        move_phase(game, ED, MovesTo([ako], [4]))
        assert (first.uid in game.known) is mirror and second.uid not in game.known
        policy = HeuristicPolicy()
        assert policy.scavenge(game, [ako], 4) is goes, (mirror, defense)
        assert policy.continue_scavenging(game, [ako], 4) is goes or not mirror


@covers("Surveillance", (Trigger.TURN, Action.REVEAL))
def test_turn_reveal_surveillance_looks_under_two_locations() -> None:
    """Surveillance shows everything under one location at a time, the nearest with cards not
    yet seen, for two uses; the player then counts the location known to hide a disaster it
    cannot beat as 3 steps farther, and breaks ties toward the one known to hold an item."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    near = sorted(game.field.neighbours[4])
    strong = hide(game, near[0], 50)
    item = copy_of(game, "Antiques")
    game.locs[near[1]].hidden_cards.append(item)
    cam = shipped_copy(game, "Surveillance")
    game.globals_in_play.append((cam, 5))
    arm(game)
    for _ in range(3):
        fire(game, cam, Trigger.TURN, -1, holder=ako)
    assert strong.uid in game.known and item.uid in game.known
    assert len(game.known) == 2  # two uses, one location each
    assert known_outlook(game, [ako], near[0]) == (3, 0)
    assert known_outlook(game, [ako], near[1]) == (0, -1)
    assert known_outlook(game, [ako], 0 if 0 not in near else 8) == (0, 0)


@covers("Jacking In", (Trigger.TURN, Action.REVEAL))
def test_turn_reveal_jacking_in_sees_under_computer_locations() -> None:
    """Jacking In shows the cards under every location whose requirement names Computer, and
    nothing under the others."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    computer = [loc.slot for loc in game.locs if "Computer" in str(loc.card.requirement)]
    game.locs[0] = Loc(0, copy_of(game, "Washu's Lab"))  # Genius x2 & Computer & Tech or ...
    other = next(s for s in range(1, 9) if s not in computer)
    lab, plain = hide(game, 0, 1), hide(game, other, 1)
    jack = shipped_copy(game, "Jacking In")
    ako.enhancements.append(jack)
    arm(game)
    assert fire(game, jack, Trigger.TURN, 4, holder=ako)
    assert lab.uid in game.known and plain.uid not in game.known


@covers("Security Camera", (Trigger.TURN, Action.REVEAL))
def test_turn_reveal_security_camera_shows_the_top_of_the_draw_pile() -> None:
    """The Security Camera shows the draw pile's top card (the end of the list), three times
    at most."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    cam = shipped_copy(game, "Security Camera")
    game.draw_pile = [copy_of(game, "Antiques") for _ in range(5)]
    arm(game)
    for _ in range(4):
        fire(game, cam, Trigger.TURN, -1, holder=ako)
        game.draw_pile.pop()
    assert len(game.known) == 3


@covers("Reference Books", (Trigger.TURN, Action.REVEAL), (Trigger.ALWAYS, Action.GRANT))
def test_turn_reveal_reference_books_every_fourth_maintenance() -> None:
    """Carried through Maintenance phases, the Reference Books show an item under a location at
    the fourth, and its carrier holds Student."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    item = copy_of(game, "Antiques")
    game.locs[2].hidden_cards.append(item)
    ako.items.append(shipped_copy(game, "Reference Books"))
    refresh(game, ako)
    arm(game)
    assert ako.skill_counts.get("Student", 0) >= 1
    for turn in range(1, 5):
        maintenance_phase(game, ED, HeuristicPolicy())
        assert (item.uid in game.known) is (turn == 4)


# --- cards under locations, moved without scavenging --------------------------------------


@covers("Julian's Gravesite", (Trigger.STOPS, Action.CLEAR))
def test_stops_clear_julians_gravesite_costs_julian_one_disaster() -> None:
    """Julian stopping at his gravesite is discarded to discard one face-down disaster there;
    with nothing beneath, he stays; A-ko alone changes nothing."""
    for who, beneath, cleared in (
        ('Julian "Pluto" Moore', 2, True),
        ('Julian "Pluto" Moore', 0, False),
        ("A-ko Magami", 2, False),
    ):
        game = table()
        game.locs[4] = Loc(4, shipped_copy(game, "Julian's Gravesite"))
        c = add_char(game, who, game.field.neighbours[4][0])
        for _ in range(beneath):
            hide(game, 4, 1)
        arm(game)
        move_phase(game, ED, MovesTo([c], [4]))
        assert len(game.locs[4].hidden_disasters) == (beneath - 1 if cleared else beneath)
        assert (c.zone == "discard") is cleared, who
        assert (len([x for x in game.discard if isinstance(x, Dis)]) == 1) is cleared


@covers("Capsule Army Knife", (Trigger.TURN, Action.UNEARTH))
def test_turn_unearth_capsule_army_knife_once_a_game() -> None:
    """The Capsule Army Knife gives its carrier one equipment card lying under a location,
    without scavenging it, once a game; items stay where they are."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    knife = shipped_copy(game, "Capsule Army Knife")
    ako.items.append(knife)
    first, second, item = (
        copy_of(game, "Blasters"),
        copy_of(game, "Jet Pack"),
        copy_of(game, "Antiques"),
    )
    game.locs[2].hidden_cards += [item, first]
    game.locs[7].hidden_cards.append(second)
    arm(game)
    fire(game, knife, Trigger.TURN, 4, holder=ako)
    fire(game, knife, Trigger.TURN, 4, holder=ako)
    taken = [x for x in (first, second) if x in ako.equipment]
    assert len(taken) == 1 and item in game.locs[2].hidden_cards


@covers("Presents", (Trigger.TURN, Action.BURY))
def test_turn_bury_presents_puts_a_discarded_item_back_under_a_disaster() -> None:
    """Presents takes an item the disasters hold as discarded and hides it again under the
    nearest location that still hides a disaster, once a game."""
    game = table()
    ako = add_char(game, "A-ko Magami", 4)
    gift = shipped_copy(game, "Presents")
    ako.items.append(gift)
    lost, lost2 = copy_of(game, "Antiques"), copy_of(game, "Antiques")
    game.carried_off += [lost, lost2]
    slot = sorted(game.field.neighbours[4])[-1]
    hide(game, slot, 1)
    arm(game)
    before = game.items_disasters()
    fire(game, gift, Trigger.TURN, 4, holder=ako)
    fire(game, gift, Trigger.TURN, 4, holder=ako)
    assert game.locs[slot].hidden_cards == [lost]
    assert game.items_disasters() == before - 1


@covers("Planet Namek", (Trigger.SCAVENGED, Action.SUPPLY))
def test_scavenged_supply_planet_namek_adds_a_dragon_ball_to_the_haven() -> None:
    """Scavenging Planet Namek adds one of the deck's left-over Dragon Balls to the haven as an
    item in play; other left-over items stay out."""
    game = table()
    namek = shipped_copy(game, "Planet Namek")
    game.locs[4] = Loc(4, namek)
    add_char(game, "A-ko Magami", 4)
    ball, other = copy_of(game, "Dragon Ball"), copy_of(game, "Antiques")
    game.unused += [other, ball]
    arm(game)
    assert fire(game, namek, Trigger.SCAVENGED, 4)
    assert game.haven_cards == [ball] and game.unused == [other]
    assert game.items_in_play == 1 and game.items_player() == 1
    assert not fire(game, namek, Trigger.SCAVENGED, 4)  # none left over


@covers("Pendulum Training Room", (Trigger.SCAVENGED, Action.REMATCH))
def test_scavenged_rematch_pendulum_training_room_rewards_a_victory() -> None:
    """Scavenging the Pendulum Training Room brings a discarded combat disaster back to fight
    the party there; beating it gives every character in play +1 damage and defense for the
    rest of the game. A disaster the party cannot beat gives nothing."""
    for name, beaten in (("Goons", True), ("Kagato", False)):
        game = table()
        room = shipped_copy(game, "Pendulum Training Room")
        game.locs[4] = Loc(4, room)
        add_char(game, "A-ko Magami", 4)
        home = add_char(game, "Nene Romanova", -1)
        d = new_disaster(game, name)
        d.zone = "discard"
        game.discard.append(d)
        arm(game)
        stack_combat_pile(game, [])
        before = (home.cur[DMG], home.cur[DEF])
        assert fire(game, room, Trigger.SCAVENGED, 4)
        won = game.record.counters.get((d.card.id, CardStat.DEFEATED), 0) == 1
        assert won is beaten, name
        gain = 1 if beaten else 0
        assert (home.cur[DMG], home.cur[DEF]) == (before[0] + gain, before[1] + gain)
        assert d.zone == ("discard" if beaten else "field")


def test_always_immune_miss_ayumi_against_a_school_disaster() -> None:
    """Miss Ayumi is out of reach of a School disaster (none is in the card pool: the test
    makes one), and of no other."""
    game = table()
    ayumi = add_char(game, "Miss Ayumi", 4)
    shipped(game, ayumi)
    arm(game)
    plain = hitter(game, 3)
    school = on_field(game, Dis(10_000_002, replace(plain.card, categories=("School",))), 4)  # type: ignore[call-arg]
    assert immune(game, school, ayumi)
    assert not immune(game, plain, ayumi)


# --- the registry ---------------------------------------------------------------------------


def test_every_trigger_and_action_has_a_rule_test_on_a_shipped_card() -> None:
    """Every trigger and action has a rule test above, on a card whose shipped entry pairs them."""
    tests = {name for name, fn in globals().items() if name.startswith("test_") and callable(fn)}
    used: set[Trigger | Action] = set()
    for test, (name, pairs) in COVERS.items():
        assert test in tests, f"{test} is registered but not defined"
        entry = card(name).effects
        assert entry is not None, f"{name} ships no entry"
        shipped_pairs = {(e.when, e.do) for e in entry.effects}
        for pair in pairs:
            assert pair in shipped_pairs, f"{test}: {name} does not ship {pair[0]} {pair[1]}"
            used.update(pair)
    in_files = {e.do for entry in db().effects.values() for e in entry.effects}
    assert set(Action) - in_files == UNSHIPPED, "update UNSHIPPED and add tests for new actions"
    missing = (set(Trigger) | set(Action)) - used - UNSHIPPED
    assert not missing, f"no rule test for {sorted(missing)}"
