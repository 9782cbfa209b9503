"""Anima Tactics' rule options (deckkit/animatactics/construction/rules.toml; docs/
interpretations.md, "Anima Tactics"): each reading the Saga I rulebook (anima-tactics-rulebook.txt)
leaves open, with the passage it reads, played as its value says by the exact duel and by party
games, and reached from the game interface and the command line."""

from __future__ import annotations

import json
import random
import tomllib
from fractions import Fraction
from pathlib import Path

import pytest
from fakes import Dice
from typer.testing import CliRunner

from deckkit.animatactics.analysis.readings import duel_rules, rule_set
from deckkit.animatactics.construction.rules import RULES_FILE, parse_settings, rule_options
from deckkit.animatactics.engine.abilities import CHARGE as CHARGE_SPECIAL
from deckkit.animatactics.engine.abilities import Kit, Special
from deckkit.animatactics.engine.combat import CHARGE_BONUS, Fighter, attack_odds
from deckkit.animatactics.engine.duel import (
    PLANS,
    Duellist,
    _Tables,
    duel,
    play_branching,
    play_exact,
    schedule,
    starting_actions,
)
from deckkit.animatactics.engine.options import DEFAULT_RULES, RuleSet
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import (
    CHARGE,
    COUNTER,
    DODGE,
    NO_REACTION,
    Action,
    GameState,
    Policy,
    Side,
    _activation,
    _recovery,
    perform,
)
from deckkit.animatactics.game import GAME
from deckkit.cli.main import app
from deckkit.errors import UsageError

ROOT = Path(__file__).resolve().parent.parent
UNALIGNED, DARK = ROOT / "decks" / "at-unaligned.party", ROOT / "decks" / "at-samael-darkness.party"
ALL_OUT, GUARDED, COUNTERING = PLANS
runner = CliRunner()

# Two characters that can never hurt each other (no Level of Success past Defense 20, Armor 10
# above any Damage; a natural 10 still hits, for 0 Life Points): every fight between them
# stands after the last turn.
TANK = Duellist("Tank", 0, 0, 20, 10, 10, 4, 3)
WALL = Duellist("Wall", 0, 0, 20, 10, 10, 4, 3)
FIGHTER = Duellist("Fighter", 6, 5, 5, 1, 12, 6, 5)
TARGET = Duellist("Target", 4, 4, 6, 1, 40, 6, 5)


class Reacting(Policy):
    """A player that always reacts with ``reaction`` (and is asked nothing else here)."""

    def __init__(self, reaction: int) -> None:
        self.reaction = reaction

    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        return self.reaction


def _state(
    a: Duellist, b: Duellist, rules: RuleSet, levels: tuple[int, int] = (40, 40)
) -> GameState:
    return GameState(
        (Side((a,), (levels[0],), GUARDED), Side((b,), (levels[1],), GUARDED)), 0, rules=rules
    )


def test_the_options_data_and_the_engine_defaults_agree() -> None:
    """rules.toml lists each option's values with the default first; the engine's RuleSet
    defaults are those values, and each option quotes the rulebook passage it reads."""
    data = tomllib.loads(RULES_FILE.read_text(encoding="utf-8"))
    assert list(data) == ["time_limit", "counter_dodge", "opening_charge", "initiative", "board"]
    assert rule_set() == DEFAULT_RULES == RuleSet()
    docs = (ROOT / "docs" / "interpretations.md").read_text(encoding="utf-8")
    section = docs.split("# Anima Tactics", 1)[1].split("\n# ", 1)[0]
    for option in rule_options():
        quoted = option.passage.split('"')[1]
        assert len(quoted) > 20, option.name
        # docs/interpretations.md quotes the same passage in the option's row
        row = next(line for line in section.splitlines() if line.startswith(f"| `{option.name}`"))
        assert quoted in row, option.name
        assert len(option.values) >= 2


# --- time_limit: "Winning" ---


def test_time_limit_a_duel_still_standing_goes_to_the_most_levels() -> None:
    """ "The standard scenario is that the player with the most levels on the table at the end
    of 10 turns is the winner" (Winning): a duel still standing after turn 10 is a win for the
    character worth more levels (default ``time_limit=levels``); ``draw`` counts half a win."""
    assert duel(TANK, WALL, levels=(40, 30)).value == pytest.approx(1.0)
    assert duel(TANK, WALL, levels=(30, 40)).value == pytest.approx(0.0)
    assert duel(TANK, WALL, levels=(35, 35)).value == pytest.approx(0.5)
    drawn = RuleSet(time_limit="draw")
    assert duel(TANK, WALL, rules=drawn, levels=(40, 30)).value == pytest.approx(0.5)


def test_time_limit_a_party_game_still_standing_goes_to_the_most_levels() -> None:
    """The same passage in party games: the most levels on the table win; ``draw`` a draw."""
    sides = (Side((TANK,), (40,), GUARDED), Side((WALL,), (30,), GUARDED))
    for game in range(3):
        assert play_game(sides, 1, game).winner == 0
        assert play_game(sides, 1, game, rules=RuleSet(time_limit="draw")).winner is None


# --- counter_dodge: "Defending and Counterattacks" ---


@pytest.mark.parametrize(("setting", "dodged"), [(False, False), (True, True)])
def test_counter_dodge_the_attacker_may_dodge_the_counterattacks_attack(
    setting: bool, dodged: bool
) -> None:
    """ "the defender can automatically make an Attack Action against the enemy at no additional
    cost, but with a -2 to the roll" (Defending and Counterattacks); "When an enemy declares the
    intention to attack a character, the targeted character can spend an Action point to roll a
    die and add the result to its Defense" (Dodge). By default (``counter_dodge=no``) that
    attack comes undefended; under ``yes`` the attacker's player may Dodge it."""
    g = _state(FIGHTER, TARGET, RuleSet(counter_dodge=setting))
    g.teams[0][0].engaged = g.teams[1][0].engaged = 1
    g.teams[0][0].ap = 3
    # the attack roll 1 misses Defense 6 + 10; the counter rolls 7 (4 + 7 - 2 = 9 against
    # Defense 5, plus the Dodge's 1 under yes: 6)
    dice = Dice([1, 10, 7, 1])
    pols = (Reacting(DODGE), Reacting(COUNTER))
    perform(g, 0, 0, Action(0, 0), pols, dice, random.Random(0))
    assert g.teams[1][0].ap == starting_actions(TARGET) - 3  # paid its Counterattack
    assert dice.rolled == (4 if dodged else 3)
    assert g.teams[0][0].ap == (0 if dodged else 1)
    # the counter's Level of Success: 9 - 5 = 4 undefended (Damage 4 + 4 - Armor 1 = 7 lost),
    # 9 - 6 = 3 against the Dodge (6 lost)
    assert g.teams[0][0].life == FIGHTER.life - (6 if dodged else 7)


def test_counter_dodge_no_dodge_back_with_damage_resistance() -> None:
    """Damage Resistance: the unit "can't use Action Points to Dodge attacks or Counterattack"
    (the data's rule), so under ``counter_dodge=yes`` it takes the free attack back undefended
    in party games as in the exact duel."""
    hard = Duellist("Hard", 6, 5, 5, 1, 12, 6, 5, Kit(damage_resistance=True))
    g = _state(hard, TARGET, RuleSet(counter_dodge=True))
    g.teams[0][0].engaged = g.teams[1][0].engaged = 1
    g.teams[0][0].ap = 3
    dice = Dice([1, 10, 7])  # the attack misses, the counter hits: no Dodge die rolled
    perform(g, 0, 0, Action(0, 0), (Reacting(DODGE), Reacting(COUNTER)), dice, random.Random(0))
    assert dice.rolled == 3 and g.teams[0][0].ap == 1
    assert g.teams[0][0].life == hard.life - 7  # 4 + 7 - 2 = 9 against Defense 5: 4 + 4 - 1


def test_counter_dodge_the_exact_duel_dodges_the_free_attack_back() -> None:
    """ "the defender can automatically make an Attack Action against the enemy at no additional
    cost, but with a -2 to the roll" (Defending and Counterattacks); "When an enemy declares the
    intention to attack a character, the targeted character can spend an Action point to roll a
    die and add the result to its Defense" (Dodge). The exact duel plays ``yes`` as party games
    do: an attacker with an action left Dodges the free attack, and that action is gone for
    the rest of the turn only where its attack missed.

    One turn, the Striker first (1 Life Point, 4 actions): its Charge (3 actions, +2) against
    the Guard's Counterattack, then the Guard's Attack (2 actions) against the Striker's Dodge
    (its last action), or undefended where it already spent it on the free attack back. Each
    attack's odds come from :func:`attack_odds`, apart from the duel's tables."""
    striker = Duellist("Striker", 4, 4, 7, 0, 1, 4, 3)
    guard = Duellist("Guard", 4, 4, 6, 1, 40, 6, 5)
    assert starting_actions(striker) == 4 and starting_actions(guard) == 6
    s, g = (Fighter(d.attack, d.damage, d.defense, d.armor) for d in (striker, guard))

    def hits(att: Fighter, dfn: Fighter, defends: bool, mod: int = 0) -> Fraction:
        return attack_odds(att, dfn, defends=defends, mod=mod).hit  # every hit takes a Point

    missed = 1 - hits(s, g, True, CHARGE_BONUS)
    back, back_dodged = hits(g, s, False, -2), hits(g, s, True, -2)
    attack, attack_dodged = hits(g, s, False), hits(g, s, True)
    falls = {
        False: missed * back + (1 - missed * back) * attack_dodged,
        True: missed * (back_dodged + (1 - back_dodged) * attack) + (1 - missed) * attack_dodged,
    }
    tables = _Tables(striker, guard)
    for setting in (False, True):
        got = play_branching(tables, ALL_OUT, COUNTERING, True, RuleSet(counter_dodge=setting),
                             turns=1)  # fmt: skip
        assert got.b_wins == pytest.approx(float(falls[setting]), abs=1e-12)
        assert got.a_wins == 0.0
    assert falls[True] != falls[False]


def test_counter_dodge_changes_the_duel_only_where_a_dodge_back_is_possible() -> None:
    """The two readings give different exact duels when a Counterattack can miss-and-return
    against an attacker with an action left, and the same where no Dodge of a free attack back
    can happen: no plan that Counterattacks, or an attacker with Damage Resistance ("can't use
    Action Points to Dodge attacks or Counterattack", the data's rule)."""
    yes = RuleSet(counter_dodge=True)
    with_dodge, without = duel(FIGHTER, TARGET, rules=yes), duel(FIGHTER, TARGET)
    for i, plan_a in enumerate(PLANS):
        for j, plan_b in enumerate(PLANS):
            same = with_dodge.payoff[i][j] == without.payoff[i][j]
            assert same is not (plan_a.counter or plan_b.counter), (plan_a.name, plan_b.name)
    only_countering = (COUNTERING,)
    assert duel(FIGHTER, TARGET, only_countering, rules=yes).value != pytest.approx(
        duel(FIGHTER, TARGET, only_countering).value
    )
    resists = Kit(damage_resistance=True)
    hard = Duellist("Hard", 6, 5, 5, 1, 12, 6, 5, resists)
    assert duel(hard, TARGET, rules=yes).payoff == duel(hard, TARGET).payoff
    # without a branch the duel played turn by turn is the fixed schedule's, to the last bit
    tables = _Tables(FIGHTER, TARGET)
    for plan_a, plan_b in ((ALL_OUT, COUNTERING), (COUNTERING, GUARDED)):
        for first in (True, False):
            assert play_branching(tables, plan_a, plan_b, first) == play_exact(
                tables, schedule(FIGHTER, TARGET, plan_a, plan_b, first)
            )
    with pytest.raises(ValueError, match="counter_dodge"):
        schedule(FIGHTER, TARGET, ALL_OUT, COUNTERING, True, rules=yes)


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_counter_dodge_reaches_the_commands_that_play_duels(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """`simulate PARTY` alone (exact duels against the roster) plays and records the option.
    Against a dozen of the roster's characters, not all 88 (test_animatactics_cli.py runs the
    command against the whole roster)."""
    from deckkit.animatactics.analysis import matrix as matrix_mod
    from tests.test_animatactics_cli import _small_roster

    small = _small_roster()
    monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    args = ["simulate", str(UNALIGNED), "-f", "json"]
    yes = runner.invoke(app, [*args, "--rule", "counter_dodge=yes"])
    no = runner.invoke(app, args)
    assert yes.exit_code == 0 and no.exit_code == 0, yes.output
    doc_yes, doc_no = json.loads(yes.stdout), json.loads(no.stdout)
    assert doc_yes["rules"]["counter_dodge"] == "yes" and doc_no["rules"]["counter_dodge"] == "no"
    assert len(doc_no["odds"]) == len(small) and doc_yes["odds"] != doc_no["odds"]


def test_duel_rules_refuses_an_option_the_duel_does_not_play(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An option rules.toml marks ``duel = false`` is refused by the commands that play exact
    duels alone (every shipped option is played by the duel, so one is made here)."""
    from deckkit.animatactics.analysis import readings
    from deckkit.animatactics.construction.rules import RuleOption

    fake = RuleOption("counter_dodge", ("no", "yes"), "", "", False)
    monkeypatch.setattr(readings, "by_name", lambda: {"counter_dodge": fake})
    with pytest.raises(UsageError, match="exact duel"):
        duel_rules({"counter_dodge": "yes"})
    assert duel_rules({"counter_dodge": "no"}) == DEFAULT_RULES


# --- opening_charge: "Charge (3 Actions, Once per Turn)" ---


def test_opening_charge_a_fight_opens_with_the_charges_plus_two() -> None:
    """ "The character moves at its listed Running Speed and the player then rolls a die for the
    attack, adding +2 to the roll" (Charge): by default every fight opens with a Charge; under
    ``opening_charge=no`` it opens with a Walk into contact and an Attack, the same 3 actions
    without the +2."""
    for rules, mod in ((DEFAULT_RULES, 2), (RuleSet(opening_charge=False), 0)):
        strikes = schedule(FIGHTER, TARGET, ALL_OUT, ALL_OUT, True, turns=1, rules=rules)
        assert strikes[0].by_a and strikes[0].mod == mod
        assert all(s.mod == 0 for s in strikes[1:])
        g = _state(FIGHTER, TARGET, rules)
        dice = Dice([5])  # 6 + 5 (+2) against Defense 6: Level of Success 5 (7)
        perform(g, 0, 0, Action(CHARGE, 0), (Reacting(NO_REACTION),) * 2, dice, random.Random(0))
        assert g.teams[0][0].ap == starting_actions(FIGHTER) - 3
        assert g.teams[1][0].life == TARGET.life - (5 + 5 + mod - 1)


def test_opening_charge_no_takes_a_charge_specials_plus_two_too() -> None:
    """The same passage with the abilities played (card_db/animatactics/abilities.csv): a Charge
    special is a Charge, "adding +2 to the roll"; under ``opening_charge=no`` the fight opens
    with a Walk into contact and the special's attack without the +2, in the exact duel (whose
    choice weighs the roll as played) and in party games (where the players weigh it alike)."""
    rush = Special("Rush", CHARGE_SPECIAL, 3, attack=1, damage=2)
    charger = Duellist("Charger", 6, 5, 5, 1, 12, 6, 5, Kit(specials=(rush,)))
    for rules, mod in ((DEFAULT_RULES, 2), (RuleSet(opening_charge=False), 0)):
        strikes = schedule(charger, TARGET, ALL_OUT, ALL_OUT, True, turns=1, rules=rules)
        assert strikes[0].special == 0 and strikes[0].mod == mod
        g = _state(charger, TARGET, rules)
        act = next(a for a in g.legal(0, 0) if a.special == 0)
        assert act.kind == CHARGE and g.roll_mod(act) == mod
        dice = Dice([5])  # 6 + 1 + 5 (+2) against Defense 6: Level of Success 6 (8)
        perform(g, 0, 0, act, (Reacting(NO_REACTION),) * 2, dice, random.Random(0))
        assert g.teams[1][0].life == TARGET.life - (5 + 2 + 6 + mod - 1)


# --- initiative: "decide who takes the first action" ---


def test_initiative_the_first_player_holds_or_alternates() -> None:
    """ "each player rolls a die, with the high roller deciding who will act first": by default
    (``initiative=once``) that player acts first in every turn; ``alternate`` hands the first
    activation of each later turn to the player who acted second in the one before."""
    for rules, second_turn_first in ((DEFAULT_RULES, 0), (RuleSet(initiative="alternate"), 1)):
        g = _state(FIGHTER, TARGET, rules)
        g.turn = 1
        _recovery(g)
        assert g.to_move == second_turn_first
        g.turn = 2
        _recovery(g)
        assert g.to_move == 0
        one = schedule(TANK, WALL, GUARDED, GUARDED, True, turns=1, rules=rules)
        two = schedule(TANK, WALL, GUARDED, GUARDED, True, turns=2, rules=rules)
        assert two[: len(one)] == one and two[len(one)].by_a is (second_turn_first == 0)


# --- board: "Deploy your parties" ---


def test_board_apart_spends_the_first_turn_running_into_reach() -> None:
    """ "each player chooses his deployment zone as shown in Diagram I" (Deploy your parties;
    the diagram is not in the text). Without a board every enemy is within Charge reach from the
    start (``board=open``); under ``apart`` each character spends its first turn on a "Run (2
    Actions, Once per Turn)" and attacks nobody."""
    assert schedule(FIGHTER, TARGET, ALL_OUT, ALL_OUT, True, turns=1)
    apart = RuleSet(board="apart")
    assert schedule(FIGHTER, TARGET, ALL_OUT, ALL_OUT, True, turns=1, rules=apart) == ()
    g = _state(FIGHTER, TARGET, apart)
    assert g.legal(0, 0) == []
    g.active, g.active_side = 0, 0
    _activation(g, (Reacting(NO_REACTION),) * 2, Dice([]), random.Random(0))
    assert g.teams[0][0].ap == starting_actions(FIGHTER) - 2 and g.teams[0][0].moved
    g.turn = 1
    _recovery(g)
    assert g.legal(0, 0)  # within reach from the second turn


# --- where the options are set ---


def test_the_game_interface_takes_every_option() -> None:
    """parse_rule knows each option and its values; prepare(rules=...) plays them."""
    names = {c.name for c in GAME.rule_options()}
    assert {o.name for o in rule_options()} <= names
    assert GAME.parse_rule("initiative=alternate") == ("initiative", "alternate")
    with pytest.raises(UsageError):
        GAME.parse_rule("initiative=sometimes")
    parties = [GAME.read(UNALIGNED), GAME.read(DARK)]
    assert GAME.prepare(parties).rules == DEFAULT_RULES
    setup = GAME.prepare(parties, rules={"time_limit": "draw", "board": "apart"})
    assert setup.rules == RuleSet(time_limit="draw", board="apart")
    assert parse_settings(["opening_charge=no"]) == {"opening_charge": "no"}


def test_simulate_takes_rule_and_records_every_option() -> None:
    """`--rule NAME=VALUE` on simulate: the JSON records every option's value as played."""
    args = ["simulate", str(UNALIGNED), "--vs", str(DARK), "-n", "20", "-f", "json"]
    base = json.loads(runner.invoke(app, args).stdout)
    drawn = json.loads(runner.invoke(app, [*args, "--rule", "time_limit=draw"]).stdout)
    assert base["rules"]["time_limit"] == "levels" and drawn["rules"]["time_limit"] == "draw"
    assert base["draw"]["count"] == 0 < drawn["draw"]["count"]
    assert runner.invoke(app, [*args, "--rule", "board=hills"]).exit_code == 2


def test_build_takes_rule_and_records_every_option() -> None:
    """`deckkit build --rule`: the race's party games play it and the JSON records it."""
    args = ["build", "--vs", str(DARK), "--pool", str(UNALIGNED), "-n", "8", "--confirm", "4"]
    result = runner.invoke(app, [*args, "--rule", "initiative=alternate", "-f", "json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["rules"]["initiative"] == "alternate"


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_report_takes_rule_for_its_duels_and_games(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`deckkit report --rule`: the matrix's duels and the --vs games play it, the sidecar
    records it, counter_dodge too."""
    from deckkit.animatactics.analysis import matrix as matrix_mod
    from tests.test_animatactics_cli import _small_roster

    small = _small_roster()[:6]
    monkeypatch.setattr(matrix_mod, "roster", lambda db: small)
    page = tmp_path / "p.html"
    args = ["report", str(UNALIGNED), "--vs", str(DARK), "-n", "10", "-o", str(page)]
    assert runner.invoke(app, [*args, "--rule", "time_limit=draw"]).exit_code == 0
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert doc["rules"]["time_limit"] == "draw" and doc["versus"]["rules"]["time_limit"] == "draw"
    assert doc["versus"]["draw"]["count"] > 0
    dodging = runner.invoke(app, [*args, "--force", "--rule", "counter_dodge=yes"])
    assert dodging.exit_code == 0, dodging.output
    doc = json.loads(page.with_suffix(".json").read_text(encoding="utf-8"))
    assert doc["rules"]["counter_dodge"] == "yes" == doc["versus"]["rules"]["counter_dodge"]
