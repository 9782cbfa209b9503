"""Anima Tactics combat (anima-tactics-rulebook.txt, COMBAT and ABILITIES AND POWERS): the
worked example, the attack rules, exact distributions against a Monte Carlo of the same attacks,
and exact duels against sampled ones."""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from duel_checks import assert_exact_within_sampled

from deckkit.analysis.summary import wilson_interval
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.engine.combat import (
    Fighter,
    attack_odds,
    expected_attacks_to_defeat,
    resolve,
)
from deckkit.animatactics.engine.duel import (
    PLANS,
    Duellist,
    Strike,
    _Tables,
    damage_table,
    duel,
    play_branching,
    play_exact,
    recover,
    schedule,
    starting_actions,
)
from deckkit.animatactics.engine.options import RuleSet
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import Side

LEMURES = Fighter(attack=5, damage=4, defense=0, armor=0)  # as the example gives him
CELIA_EXAMPLE = Fighter(attack=0, damage=0, defense=9, armor=2)  # "Celia (Defense 9 and Armor 2)"


def _duellist(name: str) -> Duellist:
    c = load_card_db().character(name)
    assert c is not None and c.recovery is not None
    return Duellist(
        c.name, c.attack, c.damage, c.defense, c.armor, c.life, c.actions_max, c.recovery
    )


def test_lemures_against_celia_as_the_rulebook_tells_it() -> None:
    """COMBAT, "Calculating Damage": Celia defends and rolls 2 (Defense 11), Lemures rolls 9
    (9 + 5 = 14), three Levels of Success: 3 + 4 Damage = 7, minus 2 Armor: Celia loses 5 LP."""
    blow = resolve(LEMURES, CELIA_EXAMPLE, attack_roll=9, defense_roll=2)
    assert blow.hit and blow.level_of_success == 3 and blow.damage == 5


def test_lemures_against_celia_as_the_card_data_has_her() -> None:
    """The data difference: the card data gives Celia Defense 10 and Armor 0 (the example says
    9 and 2). The same rolls then make Defense 12, two Levels of Success, 4 + 2 - 0 = 6 LP."""
    c = load_card_db().character("Celia")
    assert c is not None and (c.defense, c.armor) == (10, 0)
    celia = Fighter(c.attack, c.damage, c.defense, c.armor)
    blow = resolve(LEMURES, celia, attack_roll=9, defense_roll=2)
    assert blow.level_of_success == 2 and blow.damage == 6


def test_damage_is_damage_plus_success_minus_armor() -> None:
    """ "a character with a Damage Attribute of 3 that achieves four Levels of Success removes 7
    Life points, minus the defender's Armor value"."""
    att = Fighter(attack=4, damage=3, defense=0, armor=0)
    assert resolve(att, Fighter(0, 0, 10, 0), attack_roll=10, defense_roll=None).damage == 7
    assert resolve(att, Fighter(0, 0, 10, 2), attack_roll=10, defense_roll=None).damage == 5
    # Armor never heals: damage stops at 0
    assert resolve(att, Fighter(0, 0, 10, 9), attack_roll=10, defense_roll=None).damage == 0


def test_hit_on_equal_and_natural_ten() -> None:
    """ "successful if the sum is equal to or greater than the defender's Defense"; "a result of
    10 on an attack roll is automatically a success, even if the Defense value is still higher"."""
    att = Fighter(attack=5, damage=4, defense=0, armor=0)
    assert resolve(att, Fighter(0, 0, 9, 0), 4, None).hit  # 9 >= 9: Level of Success 0
    assert resolve(att, Fighter(0, 0, 9, 0), 4, None).damage == 4
    assert not resolve(att, Fighter(0, 0, 9, 0), 3, None).hit
    blow = resolve(att, Fighter(0, 0, 30, 1), 10, None)
    assert blow.hit and blow.level_of_success == 0 and blow.damage == 3
    assert not resolve(att, Fighter(0, 0, 30, 1), 9, None).hit


def test_charge_and_counterattack_modifiers() -> None:
    """Charge: "adding +2 to the roll"; Counterattack: "applying -2 to his roll"."""
    att, dfn = Fighter(5, 4, 0, 0), Fighter(0, 0, 12, 0)
    assert not resolve(att, dfn, 6, None).hit
    assert resolve(att, dfn, 6, None, mod=2).hit
    assert not resolve(att, Fighter(0, 0, 9, 0), 5, None, mod=-2).hit


def test_exact_odds_sum_to_one_and_count_every_roll() -> None:
    odds = attack_odds(LEMURES, CELIA_EXAMPLE, defends=True)
    assert odds.miss + sum(odds.damage.values()) == 1
    # by hand: without a defence roll, Lemures needs 4+ on the d10: 7 in 10 hit
    plain = attack_odds(LEMURES, CELIA_EXAMPLE, defends=False)
    assert plain.hit == Fraction(7, 10)
    assert plain.damage == {k: Fraction(1, 10) for k in range(2, 9)}


def test_expected_attacks_to_defeat_by_hand() -> None:
    """Only a natural 10 hits (1 in 10), for 5 - 0 = 5 damage: 10 Life Points take 2 hits, 20
    attacks on average."""
    odds = attack_odds(Fighter(-20, 5, 0, 0), Fighter(0, 0, 5, 0), defends=False)
    assert expected_attacks_to_defeat(odds, 10) == 20
    assert (
        expected_attacks_to_defeat(attack_odds(LEMURES, Fighter(0, 0, 9, 20), defends=False), 5)
        is None
    )


@pytest.mark.parametrize(
    ("attacker", "defender", "defends", "mod"),
    [
        (LEMURES, CELIA_EXAMPLE, True, 0),
        (LEMURES, CELIA_EXAMPLE, False, 2),
        (Fighter(7, 8, 0, 0), Fighter(0, 0, 8, 5), True, -2),
        (Fighter(4, 1, 0, 0), Fighter(0, 0, 10, 0), False, 0),
    ],
)
def test_exact_distribution_agrees_with_monte_carlo(
    attacker: Fighter, defender: Fighter, defends: bool, mod: int
) -> None:
    """Every outcome's exact probability lies in the 99.9% Wilson interval of 20,000 sampled
    attacks (seeded)."""
    rng = random.Random(16)
    n = 20_000
    counts: dict[object, int] = {}
    for _ in range(n):
        a = rng.randint(1, 10)
        d = rng.randint(1, 10) if defends else None
        blow = resolve(attacker, defender, a, d, mod)
        key: object = blow.damage if blow.hit else "miss"
        counts[key] = counts.get(key, 0) + 1
    odds = attack_odds(attacker, defender, defends=defends, mod=mod)
    exact: dict[object, Fraction] = {"miss": odds.miss, **odds.damage}
    assert set(counts) <= set(exact)
    for key, p in exact.items():
        low, high = wilson_interval(counts.get(key, 0), n, 0.999)
        assert low <= float(p) <= high, (key, float(p), low, high)


def test_fast_tables_equal_the_exact_fractions() -> None:
    """The duel's float tables are the exact distributions, to rounding."""
    for a, b in [("Legion", "Celia"), ("Kira", "Macbeth"), ("Erika", "Sho")]:
        x, y = _duellist(a), _duellist(b)
        for mod in (0, 2, -2):
            for defends in (False, True):
                miss, table = damage_table(x, y, mod, defends)
                odds = attack_odds(
                    Fighter(x.attack, x.damage, x.defense, x.armor),
                    Fighter(y.attack, y.damage, y.defense, y.armor),
                    defends=defends,
                    mod=mod,
                )
                assert miss == pytest.approx(float(odds.miss), abs=1e-12)
                for k, p in odds.damage.items():
                    assert table[k] == pytest.approx(float(p), abs=1e-12)


def test_duel_schedule_follows_the_action_rules() -> None:
    """First turn: Recovery + 1 actions; Charge 3 (+2); Attack 2; Dodge 1; Counterattack 3."""
    a, b = _duellist("Erika"), _duellist("Sho")  # both 4 actions, recovery 3
    strikes = schedule(a, b, PLANS[0], PLANS[0], a_first=True)
    # turn 1: Erika charges (4 -> 1), Sho dodges (4 -> 3); Sho attacks (3 -> 1), Erika dodges
    # with her last action (1 -> 0)
    assert strikes[:2] == (Strike(True, 2, True, False), Strike(False, 0, True, False))
    counter = schedule(a, b, PLANS[0], PLANS[2], a_first=True)
    assert counter[0] == Strike(True, 2, True, True)  # Sho (4 actions) can pay a Counterattack


# 8,000 sampled games: `make test-slow`. The fast suite checks the duel's schedule against the
# party game move by move (test_animatactics_players.py::test_one_against_one_is_still_the_duel)
# and the exact attack distribution against sampled rolls (above).
@pytest.mark.slow
def test_exact_duel_agrees_with_sampled_games() -> None:
    """The exact duel under fixed plans against 4,000 sampled games of the same duel."""
    a, b = _duellist("Claire Adelheid"), _duellist("Yuri Olsen")
    for pa, pb in [(PLANS[2], PLANS[2]), (PLANS[0], PLANS[1])]:
        exact = [play_exact(_Tables(a, b), schedule(a, b, pa, pb, f)) for f in (True, False)]
        n = 4000
        games = [play_game((Side((a,), (45,), pa), Side((b,), (55,), pb)), 7, i) for i in range(n)]
        assert_exact_within_sampled(exact, games, pa.name, pb.name)


@pytest.mark.slow
def test_exact_duel_with_counter_dodge_agrees_with_sampled_games() -> None:
    """Under ``counter_dodge=yes`` (the attacker may Dodge a Counterattack's free attack back)
    the exact duel, carried branch by branch, against 3,000 sampled games of the same duel: the
    plans Counterattack, so the branches are taken; 99.9% Wilson intervals."""
    a, b = _duellist("Claire Adelheid"), _duellist("Yuri Olsen")
    rules = RuleSet(counter_dodge=True)
    n = 3000
    for pa, pb in [(PLANS[2], PLANS[2]), (PLANS[1], PLANS[2])]:
        exact = [play_branching(_Tables(a, b), pa, pb, f, rules) for f in (True, False)]
        sides = (Side((a,), (45,), pa), Side((b,), (55,), pb))
        games = [play_game(sides, 7, i, rules=rules) for i in range(n)]
        assert_exact_within_sampled(exact, games, pa.name, pb.name)


def test_duel_values_are_zero_sum() -> None:
    a, b = _duellist("Griever"), _duellist("Legion")
    assert duel(a, b).value + duel(b, a).value == pytest.approx(1.0)
    assert duel(a, a).value == pytest.approx(0.5)


def test_recovery_and_total_actions() -> None:
    """ "a character with a maximum of four Actions available per turn ends his turn with two
    Action points remaining. Although his Recovery value is 3, in the next Recovery Phase the
    character will have his maximum of four Actions, no more"; "a character with Recovery 3
    starts with 4 Actions"."""
    four = Duellist("x", 5, 5, 9, 0, 10, actions_max=4, recovery=3)
    assert recover(2, four) == 4 and recover(0, four) == 3
    assert starting_actions(four) == 4
    lilith = _duellist("Lilith")  # 5 spheres, recovery 4
    assert starting_actions(lilith) == 5


def test_plan_game_value() -> None:
    """The plans' zero-sum game: a saddle point when there is one, else mixed strategies."""
    import numpy as np

    from deckkit.animatactics.engine.duel import game_value

    assert game_value(np.array([[1.0, 0.0], [0.0, 1.0]])) == pytest.approx(0.5)
    # row mixes 1/4 : 3/4 -> 0.45 against either column
    assert game_value(np.array([[0.3, 0.6], [0.5, 0.4]])) == pytest.approx(0.45)
    assert game_value(np.array([[0.2, 0.9], [0.4, 0.7]])) == pytest.approx(0.4)  # saddle
