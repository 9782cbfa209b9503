"""Golden tests: each rule of Animus v3.5 the engine implements, citing its passage
(animus-rules-v3.5.txt, section in the docstring). Dice are scripted; side 0 plays first."""

from __future__ import annotations

import pytest

from deckkit.animus.construction.cards import Kind
from deckkit.animus.construction.options import RuleOptions
from deckkit.animus.construction.rules import rule_numbers
from deckkit.animus.engine import abilities, endgame, phases, positions, queries
from deckkit.animus.engine.combat import fight
from deckkit.animus.engine.play import Lineup, high_roller, setup
from deckkit.animus.engine.queries import targets, value_kind
from deckkit.animus.engine.state import MELEE, RANGE, SUPPORT
from tests.animus_helpers import battle, card, dice, filler, hand, put, roll_more


def test_rule_numbers_are_the_texts() -> None:
    """Setup and Game Objective: teams of 9 from 18 cards, hand 3, 3 damage tokens kill, 10
    levels win, six-sided dice, two dice with advantage."""
    n = rule_numbers()
    assert (n.team_size, n.pyramid_size, n.hand_size, n.opening_hand) == (9, 18, 3, 3)
    assert (n.kill_tokens, n.levels_to_win, n.die_sides, n.advantage_dice) == (3, 10, 6, 2)
    assert n.range_slots == 2 and n.entities_dealt == 2


def test_setup_shuffles_nine_and_draws_three() -> None:
    """Setup: "each player shuffles their 9 cards to form a deck and draws 3 cards"."""
    team = filler("a", 9)
    b = setup((Lineup(tuple(team)), Lineup(tuple(filler("b", 9)))), RuleOptions(), dice(), first=0)
    for side in b.sides:
        assert len(side.hand) == 3 and len(side.deck) == 6


def test_high_roller_plays_first_and_a_tie_rolls_again() -> None:
    """Setup: "Both players roll their die, high roller plays first." (a tie rolls again)"""
    assert high_roller(dice(2, 5), 6) == 1
    assert high_roller(dice(4, 4, 6, 1), 6) == 0


def test_melee_first_then_range_then_support() -> None:
    """Combat Positions: "You must have a character in Melee Position in order to place one in
    Range Position. You must have a character in Range Position in order to place one in
    Support Position." """
    a, b_, c = filler("a", 3)
    b = battle([a, b_, c], filler("z", 1))
    s = b.sides[0]
    assert queries.open_slots(b, s) == [(MELEE, 0)]
    put(b, 0, a, MELEE)
    assert queries.open_slots(b, s) == [(RANGE, 0), (RANGE, 1)]
    put(b, 0, b_, RANGE, 1)
    assert (SUPPORT, 0) in queries.open_slots(b, s)
    with pytest.raises(ValueError):
        positions.place(b, s, positions.Unit(c, 0, 2), (MELEE, 0))


def test_playing_is_mandatory_only_with_nothing_in_play_and_once_per_turn() -> None:
    """Turn Order: "You may play one card from your hand" in Tactical Phase 1, in Phase 2
    "only if you have not already done so"; "It is only mandatory to play a card if you have
    no cards in play." """
    team = filler("a", 4)
    b = battle(team, filler("z", 1))
    hand(b, 0, *team[:3])

    class Shy(type(b.policies[0])):  # type: ignore[misc]
        def choose_play(self, battle, side, mandatory):  # type: ignore[no-untyped-def]
            return None

    b.policies = (Shy(), b.policies[1])
    phases.tactical_phase(b, b.sides[0])
    assert b.sides[0].melee is not None and len(b.sides[0].hand) == 2  # forced
    phases.tactical_phase(b, b.sides[0])
    assert len(b.sides[0].hand) == 2  # not forced again, and already played


def test_switches_move_one_position_or_laterally_with_two_characters() -> None:
    """Switching Positions: "one position forward or backwards ... You may not skip positions
    ... switch your Range Position characters with each other ... All switches require two
    characters to be switched." Once per turn."""
    m, r0, r1, s0 = filler("a", 4)
    b = battle([m, r0, r1, s0], filler("z", 1))
    put(b, 0, m, MELEE)
    put(b, 0, r0, RANGE, 0)
    put(b, 0, r1, RANGE, 1)
    put(b, 0, s0, SUPPORT)
    legal = queries.switches(b.sides[0])
    assert ((MELEE, 0), (RANGE, 0)) in legal and ((RANGE, 0), (RANGE, 1)) in legal
    assert ((RANGE, 1), (SUPPORT, 0)) in legal
    assert all({a[0], c[0]} != {MELEE, SUPPORT} for a, c in legal)  # no skipping
    positions.switch(b.sides[0], (MELEE, 0), (RANGE, 1))
    assert b.sides[0].melee.card is r1 and b.sides[0].range[1].card is m  # type: ignore[union-attr]
    assert b.sides[0].switched
    lone = battle(filler("c", 1), filler("z", 1))
    put(lone, 0, lone.sides[0].team[0], MELEE)
    assert queries.switches(lone.sides[0]) == []  # nobody to switch with


def test_who_may_fight_whom() -> None:
    """Combat Positions: Melee fights the opposing Melee or either opposing Range; Range fights
    the Range opposite or the opposing Melee; "Characters in Support position can not Fight"."""
    mine = filler("a", 4)
    theirs = filler("z", 3)
    b = battle(mine, theirs)
    m = put(b, 0, mine[0], MELEE)
    r = put(b, 0, mine[1], RANGE, 0)
    put(b, 0, mine[2], RANGE, 1)
    sup = put(b, 0, mine[3], SUPPORT)
    em = put(b, 1, theirs[0], MELEE)
    el = put(b, 1, theirs[1], RANGE, 0)
    er = put(b, 1, theirs[2], RANGE, 1)
    assert targets(b, m) == [em, el, er]
    assert targets(b, r) == [er, em]  # my left faces their right
    assert targets(b, sup) == []


def test_which_value_each_fighter_uses() -> None:
    """Combat Positions and the Combat example: Melee against Melee uses Melee values; a Range
    character attacking Melee and a Melee character attacking Range both use Range values,
    the defender too."""
    mine, theirs = filler("a", 2), filler("z", 2)
    b = battle(mine, theirs)
    m, r = put(b, 0, mine[0], MELEE), put(b, 0, mine[1], RANGE, 0)
    em, er = put(b, 1, theirs[0], MELEE), put(b, 1, theirs[1], RANGE, 1)
    assert value_kind(b, m, em) == MELEE
    assert value_kind(b, m, er) == RANGE
    assert value_kind(b, r, em) == RANGE
    assert value_kind(b, r, er) == RANGE


def test_the_higher_total_wins_and_the_loser_takes_one_token() -> None:
    """Combat: "Roll a die and add the proper value ... The character that has the highest
    total wins the fight and the loser gets 1 Damage token." Melee 3 + 2 beats melee 1 + 3;
    the attacker rolls first."""
    a = card("A", melee=3, type="Skill", advantage="Nothing")
    z = card("Z", melee=1, type="Skill", advantage="Nothing")
    b = battle([a], [z], rolls=[2, 3])
    ua, uz = put(b, 0, a, MELEE), put(b, 1, z, MELEE)
    fight(b, ua, uz)
    assert (ua.damage, uz.damage) == (0, 1)


def test_a_defender_causes_return_damage() -> None:
    """Combat: "A character can always cause return damage when attacked"; the defender rolls
    too and the attacker who loses takes the token."""
    a = card("A", melee=1, type="Skill", advantage="Nothing")
    z = card("Z", melee=2, type="Skill", advantage="Nothing")
    b = battle([a], [z], rolls=[3, 4])
    ua, uz = put(b, 0, a, MELEE), put(b, 1, z, MELEE)
    fight(b, ua, uz)
    assert (ua.damage, uz.damage) == (1, 0)


def test_a_tie_damages_both() -> None:
    """Combat: "In the case of a tie, both characters take Damage." """
    a = card("A", melee=2, type="Skill", advantage="Nothing")
    z = card("Z", melee=1, type="Skill", advantage="Nothing")
    b = battle([a], [z], rolls=[3, 4])
    ua, uz = put(b, 0, a, MELEE), put(b, 1, z, MELEE)
    fight(b, ua, uz)
    assert (ua.damage, uz.damage) == (1, 1)


def test_advantage_rolls_two_dice_and_keeps_the_better() -> None:
    """Card types and Combat Advantage: a card whose small gem shows the other's type "will
    roll 2 dice instead of one and either will be chosen as the final result". Power beats
    Talent: the Power card rolls 1 and 6 and keeps 6; 6 + 0 beats 5 + 0."""
    p = card("P", type="Power", advantage="Talent", melee=0)
    t = card("T", type="Talent", advantage="Skill", melee=0)
    b = battle([p], [t], rolls=[1, 6, 5])
    up, ut = put(b, 0, p, MELEE), put(b, 1, t, MELEE)
    assert queries.has_advantage(b, up, ut) and not queries.has_advantage(b, ut, up)
    fight(b, up, ut)
    assert (up.damage, ut.damage) == (0, 1)
    assert b.chance._picks == []  # type: ignore[attr-defined]  # exactly three dice rolled


def test_three_tokens_kill_and_those_behind_shift_up() -> None:
    """Combat: "all characters are Killed and discarded if they receive 3 Damage tokens. If a
    character is Killed, the player must immediately shift up any characters that are behind"
    (the Melee killed: a Range character moves up, the Support character into Range); "This
    does not count against your one switch per turn." """
    mine = [card("M", level=2, melee=0), card("R", melee=0, range=5), card("S", range=4)]
    z = card("Z", melee=5, type="Skill", advantage="Nothing")
    b = battle(mine, [z], rolls=[6, 1])
    m = put(b, 0, mine[0], MELEE, damage=2)
    put(b, 0, mine[1], RANGE, 0)
    put(b, 0, mine[2], SUPPORT)
    uz = put(b, 1, z, MELEE)
    b.active = 1
    fight(b, uz, m)
    s = b.sides[0]
    assert s.discard == [mine[0]] and s.levels_lost == 2
    assert s.melee.card is mine[1] and s.range[0].card is mine[2] and s.support == []  # type: ignore[union-attr]
    assert not s.switched


def test_a_support_character_moved_up_in_combat_can_attack() -> None:
    """Combat Positions: "If a Support Position character is somehow moved into Melee or Range
    Position during the Combat phase, that character can now attack." """
    mine = [card("M", melee=0), card("R", range=0), card("S", range=3)]
    z = card("Z", melee=0, range=9, type="Skill", advantage="Nothing")
    b = battle(mine, [z])
    put(b, 0, mine[0], MELEE)
    r = put(b, 0, mine[1], RANGE, 0, damage=2)
    sup = put(b, 0, mine[2], SUPPORT)
    uz = put(b, 1, z, MELEE)
    assert all(u is not sup for _, u, _ in queries.combat_options(b, b.sides[0]))
    roll_more(b, 1, 6)  # R (range 0) attacks Z (range 9) and is killed
    fight(b, r, uz)
    assert b.sides[0].range[0] is sup
    assert any(u is sup for _, u, _ in queries.combat_options(b, b.sides[0]))


def test_end_phase_levels_lose_ties_play_on() -> None:
    """End Phase: "If a player has 10 levels or more of cards in their discard pile, they lose."
    Winning The Game: "If the total character levels are tied, play continues until one player
    ends their turn with less eliminated character levels." """
    b = battle(filler("a", 2), filler("z", 2))
    b.sides[1].levels_lost = 10
    b.sides[0].levels_lost = 9
    endgame.end_phase(b)
    assert b.over and b.record.winner == 0 and b.record.reason == "levels"
    b = battle(filler("a", 2), filler("z", 2))
    b.sides[0].levels_lost = b.sides[1].levels_lost = 10
    endgame.end_phase(b)
    assert not b.over
    b.sides[0].levels_lost = 11
    endgame.end_phase(b)
    assert b.over and b.record.winner == 1


def test_levels_below_ten_do_not_end_the_game() -> None:
    """Game Objective: "eliminate 10 Animus Levels": 9 eliminated levels do not win."""
    b = battle(filler("a", 2), filler("z", 2))
    b.sides[1].levels_lost = 9
    endgame.end_phase(b)
    assert not b.over


def test_last_characters_killed_together_the_active_player_wins() -> None:
    """Winning The Game: "If both players have their last character in play and both are
    Killed simultaneously, the player whose turn it is will be declared the winner." """
    a = card("A", melee=1, type="Skill", advantage="Nothing")
    z = card("Z", melee=1, type="Skill", advantage="Nothing")
    b = battle([a], [z], rolls=[4, 4])
    ua, uz = put(b, 0, a, MELEE, damage=2), put(b, 1, z, MELEE, damage=2)
    b.active = 1
    fight(b, uz, ua)
    assert b.over and b.record.winner == 1 and b.record.reason == "simultaneous_last"


def test_reset_phase_bottoms_one_card_and_draws_to_three() -> None:
    """Reset Phase: "You may choose a single card in your hand and place it on the bottom of
    your deck. Then you must draw up to your hand size of 3." """
    team = filler("a", 6)
    b = battle(team, filler("z", 1))
    hand(b, 0, team[0])
    phases.reset_phase(b, b.sides[0])
    assert len(b.sides[0].hand) == 3


def test_a_reset_card_is_revealed_bottomed_and_applies() -> None:
    """Card Ability Definitions, Reset: "While this is in your hand during your Reset Phase,
    you may reveal this card to your opponent and place it on the bottom of your deck to apply
    this effect. This counts as the one card you can normally Reset." """
    r = card("R", text="Reset: damage(1)")
    team = [r, *filler("a", 4)]
    z = card("Z")
    b = battle(team, [z])
    hand(b, 0, r)
    uz = put(b, 1, z, MELEE)
    phases.reset_phase(b, b.sides[0])
    assert uz.damage == 1 and b.sides[0].deck[0] is r  # on the bottom
    assert len(b.sides[0].hand) == 3 and r not in b.sides[0].hand
    assert b.record.cards[0][0][5] == 1


def test_play_ability_applies_when_played() -> None:
    """Play: "When you Play this card from your hand, apply this effect." """
    p = card("P", text="Play: damage(2)")
    z = card("Z")
    b = battle([p], [z])
    hand(b, 0, p)
    uz = put(b, 1, z, MELEE)
    phases.play_card(b, b.sides[0], p, (MELEE, 0))
    assert uz.damage == 2


def test_tactical_once_per_turn() -> None:
    """Tactical: "While this card is in play and during one of your Tactical Phases, you may
    apply this effect. You can only do this once per turn." """
    t = card("T", text="Tactical: damage(1)")
    z = card("Z", melee=0)
    b = battle([t], [z])
    put(b, 0, t, MELEE)
    uz = put(b, 1, z, MELEE)
    phases.tactical_phase(b, b.sides[0])
    phases.tactical_phase(b, b.sides[0])
    assert uz.damage == 1


def test_combat_ability_instead_of_attacking_even_from_support() -> None:
    """Combat: "During your Combat Phase, while this is in play, you may apply this effect
    instead of attacking with this card. This can be done even in Support Position." """
    m, r = card("M"), card("R")
    h = card("H", text="Combat: heal(2)")
    z = card("Z")
    b = battle([m, r, h], [z])
    um = put(b, 0, m, MELEE, damage=2)
    put(b, 0, r, RANGE, 0)
    uh = put(b, 0, h, SUPPORT)
    put(b, 1, z, MELEE)
    options = queries.combat_options(b, b.sides[0])
    assert ("ability", uh, h.abilities[0]) in options
    assert not any(kind == "attack" and u is uh for kind, u, _ in options)
    abilities.resolve(b, [(0, h, uh, h.abilities[0])])
    assert um.damage == 0


def test_kill_and_death_abilities() -> None:
    """Kill: "When this card Kills another card, apply this effect." Death: "When this card is
    Killed and removed from play, apply this effect." """
    k = card("K", melee=5, text="Kill: draw(1)")
    d = card("D", melee=0, text="Death: damage(1)")
    b = battle([k, *filler("a", 2)], [d, card("Y")], rolls=[6, 1])
    uk = put(b, 0, k, MELEE)
    ud = put(b, 1, d, MELEE, damage=2)
    fight(b, uk, ud)
    assert len(b.sides[0].hand) == 1  # Kill: drew a card
    assert uk.damage == 1  # Death: its damage went to the only enemy
    assert b.record.cards[0][0][3] == 1  # K's kills


def test_ongoing_applies_while_in_play() -> None:
    """Ongoing: "As long as this card is in Play, this ability is in effect." """
    boost = card("B", text="Ongoing: boost(melee=2, who=team)")
    m = card("M", melee=1)
    b = battle([m, boost], [card("Z")])
    um = put(b, 0, m, MELEE)
    assert b.value(um, MELEE) == 1
    put(b, 0, boost, RANGE, 0)
    assert b.value(um, MELEE) == 3


def test_reaction_when_its_condition_happens() -> None:
    """Reaction: "When the listed condition happens, apply this effect." (ally_killed)"""
    watcher = card("W", text="Reaction(ally_killed): draw(1)")
    m = card("M", melee=0)
    z = card("Z", melee=9, type="Skill", advantage="Nothing")
    b = battle([m, watcher, *filler("a", 2)], [z], rolls=[6, 1])
    um = put(b, 0, m, MELEE, damage=2)
    put(b, 0, watcher, RANGE, 0)
    uz = put(b, 1, z, MELEE)
    b.active = 1
    fight(b, uz, um)
    assert len(b.sides[0].hand) == 1


def test_the_active_players_triggers_resolve_first() -> None:
    """Timing of abilities: "The player who's turn it is, decides what order the abilities
    resolve." Both die in a tie; side 1 (active) resolves its Death draw before side 0."""
    log: list[str] = []
    a = card("A", melee=1, type="Skill", advantage="Nothing", text="Death: draw(1)")
    z = card("Z", melee=1, type="Skill", advantage="Nothing", text="Death: draw(1)")
    b = battle([a, *filler("a", 2)], [z, *filler("z", 2)], rolls=[3, 3], log=log)
    ua, uz = put(b, 0, a, MELEE, damage=2), put(b, 1, z, MELEE, damage=2)
    b.active = 1
    fight(b, uz, ua)
    fired = [line for line in log if line.startswith("ability")]
    assert fired == ["ability: Z Death: draw(1)", "ability: A Death: draw(1)"]


def test_damaged_reaction_and_tough_and_entity_hand_size() -> None:
    """Reaction(damaged) applies when its character takes a token and lives; "Unless stated
    otherwise, all characters are Killed ... if they receive 3 Damage tokens" (tough(1): 4);
    an Entity's Ongoing ability is in effect all game (hand(1): hand size 4 in the Reset
    Phase)."""
    r = card("R", melee=0, text="Reaction(damaged): draw(1); Ongoing: tough(1)")
    z = card("Z", melee=9, type="Skill", advantage="Nothing")
    ent = card("E", kind=Kind.ENTITY, text="Ongoing: hand(1)")
    team = [r, *filler("a", 6)]
    b = battle(team, [z], rolls=[6, 1], entity=(ent, None))
    ur = put(b, 0, r, MELEE, damage=2)
    uz = put(b, 1, z, MELEE)
    b.active = 1
    fight(b, uz, ur)
    assert ur.damage == 3 and b.sides[0].melee is ur  # alive at 3 tokens
    assert len(b.sides[0].hand) == 1  # its Reaction drew
    phases.reset_phase(b, b.sides[0])
    assert len(b.sides[0].hand) == 4
