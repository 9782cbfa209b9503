"""Anima Tactics abilities as data (card_db/animatactics/abilities.csv, engine/abilities.py): each
rule the engine now plays, quoted, and the exact duel still exact with them."""

from __future__ import annotations

import itertools
import random
from fractions import Fraction
from pathlib import Path

import pytest
from duel_checks import assert_exact_within_sampled
from fakes import Dice

from deckkit.animatactics.analysis.coverage import entries, groups
from deckkit.animatactics.analysis.matrix import kit_for
from deckkit.animatactics.construction.carddb import load_card_db
from deckkit.animatactics.engine.abilities import (
    APPROXIMATE,
    FULL,
    INNATE,
    NONE,
    AbilityRow,
    Kit,
    Special,
    Swing,
    choose,
    coverage,
    initiative_first,
    make_swing,
    options,
    swing_odds,
)
from deckkit.animatactics.engine.combat import Fighter, attack_odds
from deckkit.animatactics.engine.duel import PLANS, Duellist, _Tables, duel, play_exact, schedule
from deckkit.animatactics.engine.players import Heuristic
from deckkit.animatactics.engine.playing import initiative_roll, play_game
from deckkit.animatactics.engine.skirmish import (
    COUNTER,
    SHOT,
    GameState,
    Policy,
    Side,
    perform,
)
from deckkit.core.estimates import wilson_interval

ALL_OUT, GUARDED, COUNTERING = PLANS


def _fielded(name: str) -> Duellist:
    """A roster character with its abilities, as the matrix fields it."""
    c = load_card_db().character(name)
    assert c is not None and c.recovery is not None
    return Duellist(
        c.name, c.attack, c.damage, c.defense, c.armor, c.life, c.actions_max, c.recovery,
        kit_for(c.name),
    )  # fmt: skip


def _row(**fields: str) -> AbilityRow:
    base = {"character": "X", "ability": "Y", "kind": "special", "source": "test"}
    base.update(fields)
    return AbilityRow(base["character"], base["ability"], base["kind"], tuple(base.items()))


def test_a_plain_swing_is_the_basic_attack() -> None:
    """ "Follow the normal rules for these actions, applying the modifiers from Special Abilities
    as needed" (Special Abilities): with no special and no innate ability, one attack's exact
    odds are combat.attack_odds's."""
    for att, dfn, mod, defends in itertools.product(range(3, 9), range(6, 12), (0, 2, -2), (0, 1)):
        odds = attack_odds(Fighter(att, 5, 0, 0), Fighter(0, 0, dfn, 2), defends=bool(defends),
                           mod=mod)  # fmt: skip
        miss, dist = swing_odds(make_swing(att, 5, False, dfn, 2, None, mod), bool(defends))
        assert miss == odds.miss
        assert {k: p for k, p in enumerate(dist) if p} == odds.damage


def test_special_modifiers_apply_to_the_attack() -> None:
    """ "+5 Damage" (Nuala) adds 5 to every hit's damage; "-2 Armor" lowers the target's Armor,
    never below 0; "+2 Attack" shifts the roll."""
    plain = swing_odds(make_swing(5, 5, False, 9, 3, None, 0), True)
    nuala = swing_odds(make_swing(5, 5, False, 9, 3, Special("N", "attack", 3, damage=5), 0), True)
    assert nuala[0] == plain[0]
    shifted = {k + 5: p for k, p in enumerate(plain[1]) if p}
    # Armor 3 absorbed hits of 0-2 before; +5 moves every hit up by exactly 5 only past Armor
    assert sum(nuala[1]) == sum(plain[1])
    assert sum(k * p for k, p in enumerate(nuala[1])) > sum(k * p for k, p in shifted.items()) - 5
    sunder = make_swing(5, 5, False, 9, 1, Special("K", "attack", 3, armor=-2), 0)
    assert sunder.armor == 0
    plus = make_swing(5, 5, False, 9, 1, Special("S", "attack", 3, attack=2), 0)
    assert plus.attack == 7


def test_critical_mastery_hits_on_nine_or_ten() -> None:
    """ "a result of 10 on an attack roll is automatically a success" (Attacking and hitting);
    "A unit with Critical Mastery receives a Critical Hit on a result of 9 or 10 on any of its
    attacks" (the data's rule): against a Defense no roll reaches, plain attacks hit 1 in 10,
    Critical Mastery 2 in 10."""
    plain = swing_odds(Swing(0, 5, 30, 0), False)
    mastery = swing_odds(Swing(0, 5, 30, 0, critical=9), False)
    assert 1 - plain[0] == Fraction(1, 10)
    assert 1 - mastery[0] == Fraction(2, 10)
    kit = Kit(critical_mastery=True)
    assert make_swing(0, 5, kit.critical_mastery, 30, 0, None, 0).critical == 9


def test_two_dice_keep_the_highest() -> None:
    """ "Roll two dice and keep the highest result": the kept die, enumerated over both dice."""
    sw = Swing(3, 4, 10, 1, dice=2)
    miss, dist = swing_odds(sw, False)
    hits: dict[int, Fraction] = {}
    missed = Fraction(0)
    for a, b in itertools.product(range(1, 11), repeat=2):
        kept = max(a, b)
        total = 3 + kept
        if total < 10 and kept != 10:
            missed += Fraction(1, 100)
        else:
            dmg = max(4 + max(total - 10, 0) - 1, 0)
            hits[dmg] = hits.get(dmg, Fraction(0)) + Fraction(1, 100)
    assert miss == missed
    assert {k: p for k, p in enumerate(dist) if p} == hits


def test_ranged_attacks_take_no_counterattack_and_not_from_contact() -> None:
    """ "no Counterattacks are possible against Ranged Attacks"; "Characters engaged in
    hand-to-hand combat cannot make ranged attacks"; "Ranged Attacks against characters already
    engaged in hand-to-hand combat receive -1 to their Attack value" (Ranged Attacks)."""
    shot = Special("Shot", "ranged", 3, damage=4)
    kit = Kit(specials=(shot,))
    apart = options(kit, 5, 0, False, False, 0, False, 10)
    assert any(o.special == 0 and o.ranged for o in apart)
    assert not any(o.special == 0 for o in options(kit, 5, 0, True, False, 0, False, 10))
    busy = [o for o in options(kit, 5, 0, False, False, 0, True, 10) if o.special == 0]
    assert busy[0].mod == -1
    # The duel: a countering target dodges a shot (1 action), never counters it.
    archer = Duellist("Archer", 9, 6, 5, 0, 30, 5, 4, Kit(specials=(shot,)))
    wall = Duellist("Wall", 0, 0, 9, 9, 60, 5, 4)
    strikes = schedule(archer, wall, ALL_OUT, COUNTERING, a_first=True, turns=1)
    first = strikes[0]
    assert first.special == 0 and first.defends and not first.counter


class _Countering(Policy):
    name = "countering"

    def react(self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
              rng: random.Random) -> int:  # fmt: skip
        return COUNTER


def test_party_game_refuses_a_counter_to_a_shot_and_any_reaction_of_damage_resistance() -> None:
    """A player asking to Counterattack a Ranged Attack Dodges instead (Ranged Attacks); a
    Damage Resistance unit "can't use Action Points to Dodge attacks or Counterattack" (the
    data's rule): its actions stay."""
    shot = Special("Shot", "ranged", 2)
    archer = Duellist("Archer", 5, 5, 5, 0, 20, 5, 4, Kit(specials=(shot,)))
    target = Duellist("Target", 5, 5, 5, 0, 20, 5, 4)
    giant = Duellist("Giant", 5, 5, 5, 0, 20, 5, 4, Kit(damage_resistance=True))
    pols = (_Countering(), _Countering())
    for foe, spent in ((target, 1), (giant, 0)):
        g = GameState((Side((archer,), (10,), ALL_OUT), Side((foe,), (10,), ALL_OUT)), 0)
        before = g.teams[1][0].ap
        act = next(a for a in g.legal(0, 0) if a.kind == SHOT)
        perform(g, 0, 0, act, pols, random.Random(1), random.Random(2))
        assert before - g.teams[1][0].ap == spent
        assert g.teams[0][0].ap == 5 - 2  # "each costs the number of Action points" of its spheres
        assert g.teams[1][0].engaged == 0  # a shot brings no one into contact
    resisting = schedule(target, giant, ALL_OUT, COUNTERING, a_first=True)
    assert resisting and not any(s.defends for s in resisting if s.by_a)


def test_initiative_adds_one_per_character_to_the_first_roll() -> None:
    """ "each player rolls a die, with the high roller deciding who will act first"
    (rulebook); "Characters with this ability add +1 to the result ... a party with several
    characters with Initiative add +1 for each" (the data's rule); ties roll again."""
    assert initiative_first(0, 0) == Fraction(1, 2)
    assert initiative_first(1, 0) == Fraction(55, 91)
    assert initiative_first(2, 0) == Fraction(64, 92)  # 64 wins, 8 ties, 28 losses
    rng = random.Random(5)
    n = 20_000
    wins = sum(initiative_roll(rng, 1, 0) for _ in range(n))
    low, high = wilson_interval(wins, n, 0.999)
    assert low <= 55 / 91 <= high
    # The duel: the roll's winner picks the better order; without Initiative the mean of both.
    a = Duellist("Quick", 5, 5, 8, 2, 14, 4, 3, Kit(initiative=True))
    b = Duellist("Slow", 5, 5, 8, 2, 14, 4, 3)
    plain = Duellist("Quick", 5, 5, 8, 2, 14, 4, 3)
    t = _Tables(a, b)
    v = [play_exact(t, schedule(a, b, ALL_OUT, ALL_OUT, f)).value for f in (True, False)]
    p = 55 / 91
    expected = p * max(v) + (1 - p) * min(v)
    one = duel(a, b, plans=(ALL_OUT,))
    assert one.value == pytest.approx(expected, abs=1e-12)
    assert duel(plain, b, plans=(ALL_OUT,)).value == pytest.approx(sum(v) / 2, abs=1e-12)


def test_a_once_per_game_special_is_used_once() -> None:
    """ "Limit: Once per game" (Tuatha De Danann): the schedule uses it once at most."""
    claire = _fielded("Claire Adelheid")
    names = [s.name for s in claire.kit.specials]
    tuatha = names.index("Tuatha De Danann")
    # a foe with no actions never closes in: Claire could shoot every turn, but once only
    post = Duellist("Post", 0, 0, 5, 0, 200, actions_max=0, recovery=0)
    strikes = schedule(claire, post, ALL_OUT, ALL_OUT, a_first=True)
    assert strikes[0].special == tuatha
    assert sum(1 for s in strikes if s.by_a and s.special == tuatha) == 1


# The exact duel against 1,000 sampled games (a 99.9% interval about 0.1 wide) in the fast
# suite; against 3,000 (0.06 wide) in `make test-slow`.
@pytest.mark.parametrize("n", [1000, pytest.param(3000, marks=pytest.mark.slow)])
def test_a_special_of_several_attacks_makes_them_all(n: int) -> None:
    """ "Lilith makes 2 consecutive Attacks against the same target" (Dream of Lust; the row's
    ``strikes``): each is an attack of its own, each met by the target's reaction, and the exact
    duel agrees with sampled games."""
    twin = Duellist("Twin", 6, 4, 8, 1, 14, 5, 3, Kit(specials=(Special("T", "attack", 3,
                    damage=2, strikes=2),)))  # fmt: skip
    foe = Duellist("Foe", 5, 5, 8, 1, 14, 5, 3)
    strikes = schedule(twin, foe, ALL_OUT, GUARDED, a_first=True)
    uses = [i for i, s in enumerate(strikes) if s.by_a and s.special == 0]
    assert uses and len(uses) % 2 == 0
    assert all(strikes[i + 1].by_a and strikes[i + 1].special == 0 for i in uses[::2])
    exact = play_exact(_Tables(twin, foe), strikes)
    games = [
        play_game((Side((twin,), (40,), ALL_OUT), Side((foe,), (40,), GUARDED)), 9, i)
        for i in range(n)
    ]
    mine = [g for g in games if g.a_first]
    k = sum(1 for g in mine if g.by_ko and g.winner == 0)
    low, high = wilson_interval(k, len(mine), 0.999)
    assert low <= exact.a_wins <= high


def test_a_special_is_chosen_when_worth_its_action_points() -> None:
    """The players spend a special when it takes more Life Points per action point than the
    basic action, and the basic action otherwise."""
    strong = Special("Strong", "attack", 3, damage=6)
    weak = Special("Weak", "attack", 3, damage=1)
    for spec, picked in ((strong, 0), (weak, -1)):
        kit = Kit(specials=(spec,))
        pick = choose(6, 5, kit, 9, 3, Kit(), 6, 0, True, False, 0, 6, False, 0)
        assert pick is not None and pick.special == picked
        me = Duellist("Me", 6, 5, 9, 3, 20, 6, 5, kit)
        foe = Duellist("Foe", 6, 5, 9, 3, 20, 6, 5)
        g = GameState((Side((me,), (10,), ALL_OUT), Side((foe,), (10,), ALL_OUT)), 0)
        g.teams[0][0].engaged = g.teams[1][0].engaged = 1
        act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
        assert act is not None and act.special == picked


# 6,000 sampled games: `make test-slow`. The fast suite checks the duel's schedule with abilities
# against the party game move by move (test_one_against_one_with_abilities_is_still_the_duel).
@pytest.mark.slow
def test_exact_duel_with_abilities_agrees_with_sampled_games() -> None:
    """The exact duel with specials, Critical Mastery, two dice kept and ranged attacks, against
    sampled party games of the same two characters (99.9% Wilson intervals)."""
    a, b = _fielded("Griever"), _fielded("Daniella Meris")
    assert a.kit.critical_mastery and b.kit.ranged and b.kit.specials
    n = 3000
    for pa, pb in ((GUARDED, GUARDED), (ALL_OUT, COUNTERING)):
        exact = [play_exact(_Tables(a, b), schedule(a, b, pa, pb, f)) for f in (True, False)]
        games = [play_game((Side((a,), (60,), pa), Side((b,), (60,), pb)), 3, i) for i in range(n)]
        assert_exact_within_sampled(exact, games, pa.name, pb.name)


def test_one_against_one_with_abilities_is_still_the_duel() -> None:
    """With one character a side the heuristic spends actions as the duel's schedule does,
    specials included (both weigh Life Points per action point, reading no dice)."""
    a, b = _fielded("Claire Adelheid"), _fielded("Ophiel")
    assert all(s.strikes == 1 and not s.follow_up for s in (*a.kit.specials, *b.kit.specials))
    checked = 0
    for plan_a, plan_b in itertools.product(PLANS, PLANS):
        for game in range(3):
            sides = (Side((a,), (45,), plan_a), Side((b,), (75,), plan_b))
            r = play_game(sides, 2, game, turns=2)
            strikes = schedule(a, b, plan_a, plan_b, a_first=r.a_first, turns=2)
            if not r.by_ko:
                charges = sum(1 for s in strikes if s.mod == 2)
                assert (r.charges, r.attacks) == (charges, len(strikes) - charges)
                checked += 1
    assert checked >= 10


def test_coverage_is_derived_from_the_row_and_the_engine() -> None:
    """A special's level follows what the engine plays of its row: a condition it cannot see
    makes it none, a clause it leaves out approximate; the innate abilities played in full are
    the kit's."""
    assert coverage(_row(ap="3", action="attack", damage="5"))[0] == FULL
    assert coverage(_row(ap="3", action="attack", unplayed="throw"))[0] == APPROXIMATE
    assert coverage(_row(ap="3", action="attack", requires="reaction"))[0] == NONE
    assert coverage(_row(ap="3", action="ranged", requires="hidden"))[0] == NONE
    stealth = _row(ability="Stealth", ap="2", action="other")
    hidden = _row(ap="2", action="ranged", requires="hidden")
    assert coverage(hidden, [stealth, hidden])[0] == APPROXIMATE
    assert coverage(_row(ap="3", action="other"))[0] == NONE
    full_innate = {name for name, (level, _) in INNATE.items() if level == FULL}
    assert full_innate == {"Critical Mastery", "Initiative", "Damage Resistance", "Pilot"}
    found = entries()
    by_group = {g.group: g for g in groups(found)}
    assert by_group["all"].abilities == len(found)
    # of the other specials, only leaving the table and landing again are played (Kaori's)
    assert by_group["special: other"].full == 0
    assert sorted(e.ability for e in found if e.group == "special: other" and e.level != NONE) == [
        "Forced Landing", "Towards The Clouds"]  # fmt: skip


def test_power_tokens_bought_with_actions_pay_for_a_special() -> None:
    """Power tokens (October's data): his Ranged Attack special spends one token, one more buys
    +1 Attack and +2 Damage, and his power buys tokens in the Maintenance Phase at an action each
    ("Phases and Turns": "Recovery, Maintenance and Action", the Maintenance Phase coming right
    before the Action Phase of the same turn). So the special is played at its action plus an
    action a token: 2 actions, or 3 for the bonus. Without a power that buys tokens it is not
    played, and the power counts as played (approximate) only through such a special."""
    from deckkit.animatactics.engine.abilities import kit_of

    shot = _row(ap="1", action="ranged", range="16", tokens="1", token_bonus="1/2",
                requires="power tokens", unplayed="second target")  # fmt: skip
    buyer = _row(ability="Tokens", kind="power", tokens="actions")
    other_power = _row(ability="Else", kind="power")
    assert coverage(shot, [shot])[0] == NONE
    assert "power tokens" in coverage(shot, [shot])[1]
    assert coverage(shot, [shot, buyer])[0] == APPROXIMATE
    assert coverage(buyer, [shot, buyer])[0] == APPROXIMATE
    assert coverage(buyer, [buyer])[0] == NONE
    assert coverage(other_power, [shot, buyer, other_power])[0] == NONE
    assert kit_of([shot, other_power]).specials == ()
    plain, more = kit_of([shot, buyer]).specials
    assert (plain.cost, plain.attack, plain.damage, plain.tokens) == (2, 0, 0, 1)
    assert (more.cost, more.attack, more.damage, more.tokens) == (3, 1, 2, 2)
    october = kit_for("October")
    assert [(sp.cost, sp.attack, sp.damage) for sp in october.specials] == [(2, 0, 0), (3, 1, 2)]


def test_readme_coverage_table_is_the_commands() -> None:
    """The README's Anima Tactics coverage table is what `cards coverage --game anima-tactics`
    derives."""
    from pathlib import Path

    text = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = text.split("#### Anima Tactics abilities", 1)[1].split("####", 1)[0]
    rows = {
        cells[0]: cells[1:5]
        for line in section.splitlines()
        if line.startswith("| ") and not line.startswith("| group")
        for cells in [[c.strip() for c in line.strip("|").split("|")]]
    }
    derived = {g.group: [str(g.abilities), str(g.full), str(g.approximate), str(g.none)]
               for g in groups(entries())}  # fmt: skip
    assert rows == derived


def test_a_hidden_shot_pays_for_stealth_and_low_life_attacks_wait_for_it() -> None:
    """ "This skill can only be used if ... is Hidden" (Dark Sniper and others): made right after
    Stealth, whose 2 actions it adds ("When a hidden character makes an attack ... loses the state
    of hidden", Hide). "To use this attack, Azriel must have 6 or fewer Life points" (Wings of
    Sin): never in the exact duel (Life Points unknown), in party games at 6 or fewer."""
    from deckkit.animatactics.engine.abilities import kit_of

    stealth = _row(ability="Stealth", ap="2", action="other")
    sniper = _row(ability="Sniper", ap="2", action="ranged", attack="5", requires="hidden")
    kit = kit_of([stealth, sniper])
    assert [(s.name, s.cost, s.hide) for s in kit.specials] == [("Sniper", 4, 2)]
    assert kit_of([sniper]).specials == ()  # no Stealth, no hidden shot
    wings = kit_of([_row(ability="Wings", ap="3", action="attack", attack="6",
                         requires="low life 6")])  # fmt: skip
    assert [s.max_life for s in wings.specials] == [6]
    offered = {
        life: [o.special for o in options(wings, 5, 0, True, False, 0, False, life)]
        for life in (0, 6, 7)
    }
    assert offered == {0: [-1], 6: [-1, 0], 7: [-1]}


def test_equipment_adds_its_bonus_to_its_bearer(tmp_path: Path) -> None:
    """ "Equipment and Power cards are placed on characters at the beginning of play ... others
    have a continuous effect" (ADVANTAGE CARDS, Equipment and Powers): a card whose data gives its
    bearer a bonus with no condition (Heavy Armor +2 Armor, its halved Speed left out; Elemental
    Weapon +1 Damage) changes that character's stats in party games and in its party's duels;
    a card on no one, on someone not in the party, or with no such bonus changes nothing, and the
    character's level cost stays its own."""
    from deckkit.animatactics.analysis.parties import fighters
    from deckkit.animatactics.construction.carddb import advantage_bonuses
    from deckkit.animatactics.construction.party import read_party

    bonuses = advantage_bonuses()
    assert (bonuses["heavy armor"].armor, bonuses["heavy armor"].unplayed) == (2, "speed halved")
    assert bonuses["elemental weapon"].damage == 1 and "tactics" not in bonuses
    db = load_card_db()
    party = tmp_path / "p.party"
    party.write_text(
        "game: anima-tactics\nname: P\nlevels: 250\n\n[characters]\nGriever\nTiamat\n\n"
        "[advantages]\nHeavy Armor on Griever\nElemental Weapon on tiamat\nTactics\n"
        "Heavy Armor on Kira\n",
        encoding="utf-8",
    )
    plain = {c: db.character(c) for c in ("Griever", "Tiamat")}
    got = {e.name: e for e in fighters(read_party(party, db))}
    griever, tiamat = plain["Griever"], plain["Tiamat"]
    assert griever is not None and tiamat is not None
    assert got["Griever"].duellist.armor == griever.armor + 2
    assert got["Griever"].duellist.damage == griever.damage
    assert got["Tiamat"].duellist.damage == tiamat.damage + 1
    assert got["Tiamat"].duellist.armor == tiamat.armor
    assert got["Griever"].levels == griever.level_cost
    assert "Heavy Armor" in got["Griever"].note


def test_a_bad_advantages_file_names_its_line(tmp_path: Path) -> None:
    """A bonus that is not a whole number in a designer's advantages.csv is a card data error
    naming the file and the line, not a traceback."""
    from deckkit.animatactics.construction.carddb import _bonuses
    from deckkit.errors import CardDataError

    bad = tmp_path / "advantages.csv"
    bad.write_text(
        "advantage,subtype,attack,damage,defense,armor,unplayed,source\n"
        "Heavy Armor,Equipment,,,,two,,x\n",
        encoding="utf-8",
    )
    with pytest.raises(CardDataError, match=r"advantages\.csv: line 2"):
        _bonuses(bad)


def test_powers_that_change_every_attack() -> None:
    """Two powers of the data the engine plays in full, in the exact duel and party games alike:
    Damien's (his every attack leaves the target's Armor out of "Calculating Damage": Damage +
    Level of Success - Armor) and Crimson Death's (one attack takes at most 6 Life Points from
    her, however many a hit would; several attacks take 6 each)."""
    from deckkit.animatactics.engine.duel import damage_table
    from deckkit.animatactics.engine.skirmish import _strike

    assert kit_for("Damien").ignore_armor and not kit_for("Griever").ignore_armor
    assert kit_for("Crimson Death").damage_cap == 6 and kit_for("Griever").damage_cap == 0
    slasher = Duellist("Slasher", 6, 5, 8, 1, 20, 6, 5, Kit(ignore_armor=True))
    plain = Duellist("Plain", 6, 5, 8, 1, 20, 6, 5)
    wall, bare = Duellist("Wall", 4, 4, 8, 4, 20, 6, 5), Duellist("Bare", 4, 4, 8, 0, 20, 6, 5)
    for defends in (False, True):
        miss, hits = damage_table(slasher, wall, 0, defends)
        bare_miss, bare_hits = damage_table(plain, bare, 0, defends)
        assert miss == bare_miss and list(hits) == list(bare_hits)
        assert list(damage_table(plain, wall, 0, defends)[1]) != list(hits)
    shade = Duellist("Shade", 4, 4, 5, 0, 20, 6, 5, Kit(damage_cap=6))
    open_ = Duellist("Open", 4, 4, 5, 0, 20, 6, 5)
    miss, capped = damage_table(slasher, shade, 2, False)
    _, full = damage_table(slasher, open_, 2, False)
    assert len(capped) == 7 and sum(full[6:]) > 0
    assert capped[6] == pytest.approx(sum(full[6:])) and list(capped[:6]) == list(full[:6])
    # party games: a roll of 10 at +2 (6 + 10 + 2 = 18 against Defense 5) would take 5 + 13
    assert _strike(Dice([10]), slasher, open_, 2, False) == 18
    assert _strike(Dice([10]), slasher, shade, 2, False) == 6


def test_a_power_that_deters_attackers() -> None:
    """Crimson Death's Fearbringer (the data's power: whoever attacks her rolls Resistance
    against Effect 14 first, and on a failure the attack misses, its actions spent). "Resistances":
    resisted when the die plus Resistance is greater than the difficulty, so an attacker with
    Resistance 10 fails on a 1 to 4, one with 14 never; the exact duel scales every attack at her
    by that chance, party games roll the die before the attack."""
    from deckkit.animatactics.engine.duel import damage_table
    from deckkit.animatactics.engine.skirmish import _strike

    assert kit_for("Crimson Death").deter == 14 and kit_for("Griever").deter == 0
    shade = Duellist("Shade", 4, 4, 7, 1, 20, 6, 5, Kit(deter=14))
    open_ = Duellist("Open", 4, 4, 7, 1, 20, 6, 5)
    timid = Duellist("Timid", 6, 5, 8, 1, 20, 6, 5, resistance=10)
    bold = Duellist("Bold", 6, 5, 8, 1, 20, 6, 5, resistance=14)
    for defends in (False, True):
        miss, hits = damage_table(timid, shade, 0, defends)
        base_miss, base_hits = damage_table(timid, open_, 0, defends)
        assert miss == pytest.approx(0.4 + 0.6 * base_miss)
        assert list(hits) == pytest.approx([0.6 * p for p in base_hits])
        bold_miss, bold_hits = damage_table(bold, shade, 0, defends)
        assert bold_miss == base_miss and list(bold_hits) == list(base_hits)
    assert _strike(Dice([4, 10]), timid, shade, 0, False) == -1  # 4 + 10 = 14: not resisted
    assert _strike(Dice([5, 10]), timid, shade, 0, False) == 5 + 9 - 1  # resisted, then rolls 10


def test_the_duel_weighs_a_cap_on_life_points_lost() -> None:
    """The exact duel's schedule weighs each action by the Life Points it takes per action point
    with the powers the attack applies (engine/abilities.py, powers_between): against a foe who
    loses at most 6 Life Points to one attack (Crimson Death's Immortal Shadow), a special's
    +8 Damage is lost on hits that take 6 anyway, so the cheaper Attack is used; without the
    cap the special is."""
    heavy = Special("Heavy", "attack", 3, damage=8)
    brute = Duellist("Brute", 6, 6, 8, 1, 20, 6, 5, Kit(specials=(heavy,)))
    for kit, used in ((Kit(damage_cap=6), False), (Kit(), True)):
        shade = Duellist("Shade", 5, 5, 5, 0, 20, 6, 5, kit)
        for plan in PLANS:
            strikes = schedule(brute, shade, plan, plan, True, turns=2)
            assert any(s.special == 0 for s in strikes if s.by_a) is used, plan.name


@pytest.mark.slow
def test_exact_duel_with_powers_agrees_with_sampled_games() -> None:
    """Damien (every attack ignores Armor) against Crimson Death (at most 6 Life Points an
    attack; her attackers resist Effect 14 or miss): the exact duel against 3,000 sampled party
    games of the same two, 99.9% Wilson intervals (the players weigh their actions alike)."""
    from deckkit.animatactics.analysis.matrix import entrant

    found = [load_card_db().character(n) for n in ("Damien", "Crimson Death")]
    a, b = (entrant(c).duellist for c in found if c is not None)
    assert a.kit.ignore_armor and b.kit.damage_cap and b.kit.deter and a.resistance
    n = 3000
    for pa, pb in ((GUARDED, GUARDED), (ALL_OUT, COUNTERING)):
        exact = [play_exact(_Tables(a, b), schedule(a, b, pa, pb, f)) for f in (True, False)]
        games = [play_game((Side((a,), (45,), pa), Side((b,), (50,), pb)), 3, i) for i in range(n)]
        assert_exact_within_sampled(exact, games, pa.name, pb.name)
