"""Anima Tactics: a character off the table (the data's Towards The Clouds, Forced Landing and
Pumpkin Bomb, Kaori's). The rulebook does not define a living character off the table; deckkit
reads it by the rules it does give (engine/abilities.py): "Movement" (once per turn, never in
Hand-to-hand combat), "Hand-to-hand Combat" (bases touching) and "Ranged Attacks" (Line of Sight
and range: no one can attack a character off the table), "Winning" ("levels on the table")."""

from __future__ import annotations

import random

from fakes import Dice

from deckkit.animatactics.analysis.matrix import kit_for
from deckkit.animatactics.construction.carddb import abilities_csv
from deckkit.animatactics.engine.abilities import (
    APPROXIMATE,
    NONE,
    AbilityRow,
    Kit,
    Special,
    by_character,
    coverage,
    options,
)
from deckkit.animatactics.engine.duel import PLANS, Duellist
from deckkit.animatactics.engine.players import Heuristic
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import (
    ATTACK,
    LAND,
    LEAVE,
    NO_REACTION,
    Action,
    GameState,
    Policy,
    Side,
    Trace,
    _activation,
    _recovery,
    perform,
)

ALL_OUT, GUARDED = PLANS[0], PLANS[1]
CLOUDS = Special("Clouds", "leave", 3)
LANDING = Special("Landing", "land", 1)
BOMB = Special("Bomb", "attack", 3, attack=1, damage=4, area=True, off_table=True)
KITE = Kit(specials=(BOMB,), leave=CLOUDS, land=LANDING)


def _kite(ap: int = 4) -> Duellist:
    return Duellist("Kite", 4, 1, 9, 0, 11, ap, 3, KITE)


ALLY = Duellist("Ally", 5, 5, 8, 0, 20, 4, 3)
FOE = Duellist("Foe", 5, 5, 8, 1, 20, 4, 3)
SHOOTER = Duellist("Shooter", 5, 5, 8, 0, 20, 4, 3, Kit(ranged=True))


class _Still(Policy):
    """Never reacts; ends every activation at once (the engine's forced landing then acts)."""

    name = "still"

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        return None

    def react(self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
              rng: random.Random) -> int:  # fmt: skip
        return NO_REACTION


POLS = (_Still(), _Still())


def _game(kite: Duellist) -> GameState:
    """The Kite (out of contact) and an Ally engaged with the Foe; a Shooter on the Foe's side."""
    g = GameState((Side((kite, ALLY), (35, 40), GUARDED), Side((FOE, SHOOTER), (40, 40), GUARDED)),
                  0)  # fmt: skip
    g.teams[0][1].engaged = 1  # Ally with Foe
    g.teams[1][0].engaged = 1 << 1
    return g


def test_the_data_takes_kaori_off_the_table_and_back() -> None:
    """The data's rows: a leave special (3 actions), a landing (1) and an Attack special usable
    only off the table, which hits every unit near her; all three approximate (a board-free
    table), her other movement special still not played."""
    kit = kit_for("Kaori")
    assert kit.leave is not None and (kit.leave.name, kit.leave.cost) == ("Towards The Clouds", 3)
    assert kit.land is not None and (kit.land.name, kit.land.cost) == ("Forced Landing", 1)
    bomb = next(sp for sp in kit.specials if sp.off_table)
    assert (bomb.name, bomb.cost, bomb.attack, bomb.damage, bomb.area) == (
        "Pumpkin Bomb", 3, 1, 4, True)  # fmt: skip
    assert bomb.party_only and bomb.arcane
    rows = next(r for name, r in by_character_rows().items() if name == "Kaori")
    levels = {r.ability: coverage(r, rows)[0] for r in rows}
    assert levels["Towards The Clouds"] == levels["Forced Landing"] == APPROXIMATE
    assert levels["Pumpkin Bomb"] == APPROXIMATE and levels["Cat's Trick"] == NONE
    # no other character can leave the table, so no one else gains an off-table special
    assert [n for n, r in by_character_rows().items() if kit_for(n).leave is not None] == ["Kaori"]


def by_character_rows() -> dict[str, list[AbilityRow]]:
    return by_character(abilities_csv())


def test_leaving_is_a_movement_of_a_character_out_of_contact() -> None:
    """ "A character can only move once per Turn" and "can not move if it is in Hand-to-hand
    combat" ("Movement"): the leave special is offered only out of contact, before any Charge
    that turn, and never by the exact duel (no table there: no off-table special is offered)."""
    g = _game(_kite())
    assert Action(LEAVE, -1, -1, 3) in g.legal(0, 0)
    g.teams[0][0].moved = True
    assert all(a.kind != LEAVE for a in g.legal(0, 0))
    g = _game(_kite())
    g.teams[0][0].engaged = 1
    g.teams[1][0].engaged |= 1
    assert all(a.kind != LEAVE for a in g.legal(0, 0))
    assert all(o.special != 0 for o in options(KITE, 4, 0, False, False, 0, False, 11))


def test_off_the_table_no_one_attacks_it_and_it_is_not_counted() -> None:
    """Off the table there is no base to touch ("Hand-to-hand Combat") nor one in Line of Sight
    ("Ranged Attacks"): no enemy may attack it; it takes no further action that turn; "the most
    levels on the table" ("Winning") leaves it out until it is back."""
    g = _game(_kite())
    perform(g, 0, 0, Action(LEAVE, -1, -1, 3), POLS, Dice([]), random.Random(0))
    kite = g.teams[0][0]
    assert (kite.off_table, kite.ap, kite.moved) == (0, 1, True)
    assert g.legal(0, 0) == []
    assert all(a.target != 0 for a in g.legal(1, 1))  # the Shooter: the Ally only
    assert g.legal(1, 1) and g.standing(0) == 40


def test_the_next_turn_it_comes_back_by_the_bomb_hitting_friends_in_contact() -> None:
    """On its next turn it comes back by the landing or the off-table Attack, at any enemy on
    the table. The bomb places it beside its target (engaged with it, its move of the turn spent:
    "cannot move after") and attacks the target and the units within 3 inches: the friends in
    contact with the target. Rolls: the Foe's d10 7 (4 + 1 + 7 = 12 against Defense 8: Level of
    Success 4, 1 + 4 + 4 - Armor 1 = 8 Life Points); the Ally's 2 (7, a miss)."""
    g = _game(_kite())
    perform(g, 0, 0, Action(LEAVE, -1, -1, 3), POLS, Dice([]), random.Random(0))
    g.turn = 1
    _recovery(g)
    assert g.teams[0][0].ap == 4
    assert g.legal(0, 0) == [
        Action(ATTACK, 0, 0, 3), Action(ATTACK, 1, 0, 3), Action(LAND, -1, -1, 1)
    ]  # fmt: skip
    trace = Trace(("Mine", "Theirs"))
    trace.start(g.sides)
    g.log = trace
    act = Action(ATTACK, 0, 0, 3)
    trace.add(trace.action(g, 0, 0, act))
    perform(g, 0, 0, act, POLS, Dice([7, 2]), random.Random(0))
    kite = g.teams[0][0]
    assert (kite.off_table, kite.moved, kite.engaged, kite.ap) == (-1, True, 1, 1)
    assert g.teams[1][0].life == 12 and g.teams[0][1].life == 20
    assert g.teams[1][0].engaged == 0b11
    assert trace.lines == [
        "Kite comes back beside Foe and attacks with Bomb: 3 actions",
        "  Foe does not react; hit: Foe loses 8 LP, 12 LP left",
        "  Bomb reaches Ally, a friend in contact with the target; it does not react; miss",
    ]
    g2 = _game(_kite())  # the bomb takes a friend's Life Points like anyone's
    g2.teams[0][1].life = 5
    perform(g2, 0, 0, Action(LEAVE, -1, -1, 3), POLS, Dice([]), random.Random(0))
    g2.turn = 1
    _recovery(g2)
    perform(g2, 0, 0, act, POLS, Dice([1, 9]), random.Random(0))  # a miss; then 1 + 4 + 6
    assert g2.teams[1][0].life == 20 and g2.teams[0][1].life == 0


def test_its_activation_must_bring_it_back() -> None:
    """ "During [its] activation on the next turn you are forced to use" the landing or the
    bomb (the leave special's own rule): a player ending the activation off the table lands it,
    apart from every enemy (its move of the turn); with the heuristic it bombs when its plan's
    reserve stays, else it lands."""
    g = _game(_kite())
    perform(g, 0, 0, Action(LEAVE, -1, -1, 3), POLS, Dice([]), random.Random(0))
    g.turn = 1
    _recovery(g)
    g.active_side, g.active = 0, 0
    _activation(g, POLS, Dice([]), random.Random(0))
    kite = g.teams[0][0]
    assert (kite.off_table, kite.engaged, kite.moved, kite.ap) == (-1, 0, True, 3)
    assert g.standing(0) == 75
    h = Heuristic()
    for ap, kind in ((4, ATTACK), (3, None)):
        g = _game(_kite())
        perform(g, 0, 0, Action(LEAVE, -1, -1, 3), POLS, Dice([]), random.Random(0))
        g.turn = 1
        _recovery(g)
        g.teams[0][0].ap = ap
        act = h.choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
        assert (act.kind if act is not None else None) == kind


def test_the_heuristic_never_leaves_and_the_others_may() -> None:
    """Leaving takes no Life Points, so the heuristic (Life Points per action point) never takes
    it; random players do, and a party game with it plays to its end, the same twice; the search
    player weighs it among its candidates."""
    g = _game(_kite())
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.kind != LEAVE
    kite = Duellist("Kite", 4, 1, 9, 0, 11, 4, 3, KITE)
    sides = (Side((kite, ALLY), (35, 40), GUARDED, "random"),
             Side((FOE, SHOOTER), (40, 40), GUARDED, "random"))  # fmt: skip
    left = 0
    for i in range(40):
        trace = Trace(("Mine", "Theirs"))
        r = play_game(sides, 5, i, trace=trace)
        assert r == play_game(sides, 5, i)
        left += sum(1 for line in trace.lines if "leaves the table" in line)
        back = sum(1 for line in trace.lines if "comes back" in line)
        assert back <= sum(1 for line in trace.lines if "leaves the table" in line)
    assert left > 0
    searched = (Side((kite, ALLY), (35, 40), GUARDED, "search:2"), sides[1])
    for i in range(2):
        assert play_game(searched, 5, i) == play_game(searched, 5, i)
