"""Cards that print a usage limit ("N uses") count a use where they are used, and are discarded
when the uses run out (set0 rulebook, "Equipment Cards With Usage Limits" and "Global Effect Cards
With Usage Limits": "once per phase or once per combat round", an ability modifier lasting "until
the end of the phase or combat round"; "Once the maximum number of uses has been reached, then
equipment card is discarded")."""

from __future__ import annotations

from deckkit.animayhem.engine.abilities import refresh
from deckkit.animayhem.engine.combat import fight
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.movement import place_disaster
from deckkit.animayhem.engine.state import DMG, MOV, Char, Copy, Game
from tests.engine_helpers import (
    NINE,
    ScriptedPolicy,
    add_char,
    bare_game,
    copy_of,
    edition,
    new_disaster,
)


class _OneRound(ScriptedPolicy):
    """Fights round 1, then retreats: one round a fight."""

    def retreat(self, game: Game, d: object, chars: list[object], rnd: int) -> bool:  # type: ignore[override]
        return rnd > 1


def _round_damage(game: Game) -> int:
    """The party's damage in the last combat round of the trace."""
    assert game.trace is not None
    rounds = [e for e in game.trace.events if e["kind"] == "round"]
    damage = rounds[-1]["party_damage"]
    assert isinstance(damage, int)
    return damage


def _fight_one_round(game: Game, c: Char) -> int:
    """A fresh Big Bug (5/4) attacks ``c`` where it stands; one round, then the party retreats
    (a defense of 4 takes 1 a hit: a character with 4 health survives)."""
    d = new_disaster(game, "Big Bug")
    place_disaster(game, d, game.field.path_index[c.slot])
    game.combat_pile = []
    fight(game, edition("set0"), _OneRound(), d, c.slot, "disaster")
    assert c.zone != "bonked"
    c.zone, c.slot = "field", 0  # back where the next one attacks, wherever it retreated
    return _round_damage(game)


def test_enhancement_uses_buy_one_round_each_then_the_card_is_discarded() -> None:
    """Akagiyama Missiles: +3 damage, "Usage Limit" 2 (the uses column). Like Dimensional
    Hammer's worked example ("Declare 1 use to have character carrying Dimensional Hammer gain
    +2 damage for one combat round"), each use is one combat round's bonus: no standing +3 out of
    combat, +3 in each of two rounds, then the card is discarded and the third round has none.
    Before, the enhancement's columns were a standing bonus for good."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)  # damage 4
    missiles = copy_of(game, "Akagiyama Missiles")
    assert missiles.uses_left == 2
    kami.enhancements.append(missiles)
    refresh(game, kami)
    assert kami.cur[DMG] == 4  # no standing bonus: it is used a round at a time
    assert _fight_one_round(game, kami) == 7
    assert missiles.uses_left == 1 and missiles in kami.enhancements
    assert _fight_one_round(game, kami) == 7
    assert missiles not in kami.enhancements and missiles in game.discard
    assert missiles.uses_left == 2  # a copy played again starts whole
    assert _fight_one_round(game, kami) == 4


def test_enhancement_without_a_usage_limit_stays_a_standing_bonus() -> None:
    """set0 rulebook, "Enhancement": "If an enhancement card has no energy costs, its effects are
    permanent": Clean Livin' (+1 damage, no uses) keeps applying out of combat. Wrist Lasers
    (+2 damage, 4 uses) applies only in the round a use is spent on it."""
    game = bare_game(NINE)
    kami = add_char(game, "Kami", 0)
    kami.enhancements.append(copy_of(game, "Clean Livin'"))
    lasers = copy_of(game, "Wrist Lasers")
    kami.enhancements.append(lasers)
    refresh(game, kami)
    assert kami.cur[DMG] == 5
    assert _fight_one_round(game, kami) == 7 and lasers.uses_left == 3


def _line_of_nine() -> tuple[Game, Char]:
    """Nine empty locations in a line, A-ko Magami (movement 4) on the first."""
    game = bare_game(NINE, cells=[(x, 0) for x in range(9)])
    game.turn = 1
    for loc in game.locs:
        loc.hidden_cards, loc.hidden_disasters = [], []
    return game, add_char(game, "A-ko Magami", 0)


def _ship(game: Game, x: Copy) -> None:
    """The game plays ``x``'s shipped effects."""
    fx = by_trigger(x.card.effects)
    assert fx is not None
    game.fx[x.cid] = fx
    game.acts = game.acts | {e.do for t in fx.values() for _, e in t}


def test_speed_doubles_movement_for_the_moves_that_need_it_three_times() -> None:
    """Speed: "Doubles a Character's movement", 3 uses (the uses column). A use lasts "until the
    end of the phase": one Move phase's move that needs more than A-ko's own 4 locations spends
    one, a shorter move none; after the third the card is discarded and she walks 4 again.
    Before, its x2 column was a standing bonus for good."""
    from deckkit.animayhem.engine.movement import move_party
    from deckkit.animayhem.engine.queries import party_movement

    game, ako = _line_of_nine()
    speed = copy_of(game, "Speed")
    ako.enhancements.append(speed)
    refresh(game, ako)
    assert ako.cur[MOV] == 4  # no standing x2
    _ship(game, speed)
    assert party_movement(game, [ako]) == 8
    ed, policy = edition("set0"), ScriptedPolicy()
    move_party(game, ed, policy, [ako], [1, 2, 3])  # within her own 4: no use
    assert speed.uses_left == 3
    move_party(game, ed, policy, [ako], [4, 5, 6, 7, 8])
    assert speed.uses_left == 2
    move_party(game, ed, policy, [ako], [7, 6, 5, 4, 3])
    assert speed.uses_left == 1
    move_party(game, ed, policy, [ako], [4, 5, 6, 7, 8])
    assert speed not in ako.enhancements and speed in game.discard
    assert party_movement(game, [ako]) == 4


def test_speed_lends_a_party_nothing_when_another_member_sets_its_pace() -> None:
    """set0 rulebook, "Party": a party moves as fast as its slowest member. Speed doubles its own
    character's movement only, so with a slower companion the party gains nothing from it (and
    spends no use), and with a faster one as much as the new slowest allows."""
    from deckkit.animayhem.engine.queries import party_movement

    game, ako = _line_of_nine()
    slow = add_char(game, "Ranma Saotome (boy type)", 0)  # movement 2
    assert slow.cur[MOV] == 2
    speed = copy_of(game, "Speed")
    slow.enhancements.append(speed)
    refresh(game, slow)
    assert slow.cur[MOV] == 2  # no standing x2
    _ship(game, speed)
    assert party_movement(game, [ako, slow]) == 4  # Ranma x2 = 4, A-ko 4
    ako.enhancements.append(slow.enhancements.pop())
    refresh(game, ako)
    refresh(game, slow)
    assert party_movement(game, [ako, slow]) == 2  # A-ko's x2 is no use to the party


def test_electronic_day_planner_eases_two_scavenging_attempts_then_is_discarded() -> None:
    """Electronic Day Planner, 2 uses: "On Locations requiring more than 1 skill, you may ignore
    any one skill requirement". A-ko (Strength x3, no Flying) meets Alien Ship's "Flying &
    Strength x2" but for one skill: each attempt the planner eases spends a use, and after the
    second it is discarded, so the third attempt fails. Before, it eased every attempt."""
    from deckkit.animayhem.engine.scavenge import passes_skill_test

    game = bare_game(["Alien Ship", *NINE[1:]])
    ako = add_char(game, "A-ko Magami", 0)
    planner = copy_of(game, "Electronic Day Planner")
    _ship(game, planner)
    ako.equipment.append(planner)
    assert passes_skill_test(game, [ako], 0) and planner.uses_left == 1
    assert passes_skill_test(game, [ako], 0)
    assert planner not in ako.equipment and planner in game.discard
    assert not passes_skill_test(game, [ako], 0)
