"""Anima Tactics party games played by a player who chooses (anima-tactics-rulebook.txt, "Action
Phase", "Basic abilities", "Movement", "Hand-to-hand Combat"): activation, target and action are
the player's; Charge once per character per turn; no result depends on a party file's order."""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from deckkit.animatactics.engine.duel import PLANS, Duellist
from deckkit.animatactics.engine.players import Heuristic, Search, make_policy
from deckkit.animatactics.engine.playing import play_game
from deckkit.animatactics.engine.skirmish import (
    ATTACK,
    CHARGE,
    COUNTER,
    Action,
    GameState,
    Side,
    perform,
)
from deckkit.cli.main import app
from deckkit.errors import UsageError

REPO = Path(__file__).resolve().parent.parent
DECKS = REPO / "decks"
UNALIGNED, DARK = DECKS / "at-unaligned.party", DECKS / "at-samael-darkness.party"
runner = CliRunner()
ALL_OUT, GUARDED = PLANS[0], PLANS[1]

# A fighter that always hits and kills (Attack 30, Damage 30) with 10 actions a turn, and
# harmless foes with 1 Life Point: what limits the killer is only the rules on its actions.
KILLER = Duellist("Killer", 30, 30, 0, 0, 50, actions_max=10, recovery=9)
SHEEP = Duellist("Sheep", 0, 0, 0, 0, 1, actions_max=1, recovery=0)
LAMB = Duellist("Lamb", 0, 0, 0, 0, 1, actions_max=1, recovery=0)


def _permuted(src: Path, order: tuple[int, ...], out: Path) -> Path:
    """``src`` with its [characters] lines in ``order`` (everything else as it is)."""
    lines = src.read_text().splitlines()
    start = lines.index("[characters]") + 1
    end = start
    while end < len(lines) and lines[end].strip():
        end += 1
    chars = lines[start:end]
    lines[start:end] = [chars[i] for i in order]
    out.write_text("\n".join(lines) + "\n")
    return out


def _simulate(a: Path, b: Path, *extra: str) -> dict[str, Any]:
    result = runner.invoke(
        app, ["simulate", str(a), "--vs", str(b), "-f", "json", "--seed", "3", *extra]
    )
    assert result.exit_code == 0, result.output
    doc: dict[str, Any] = json.loads(result.stdout)
    if doc.get("player_gap"):  # its command names the files, which these tests rename
        doc["player_gap"] = {k: v for k, v in doc["player_gap"].items() if k != "command"}
    return doc


# Six runs of the command: `make test-slow`. The fast suite plays orderings of a party at the
# engine (test_reversed_swapped_and_rotated_orderings_of_a_party_play_the_same_games, below).
@pytest.mark.slow
def test_results_do_not_depend_on_the_order_of_a_party_file(tmp_path: Path) -> None:
    """ "The player who acts first chooses one of his characters" (Action Phase): the player's
    choice, never the file's order. Orderings of both sample parties give the very same JSON."""
    orders = [(0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (2, 0, 4, 1, 3), (1, 4, 0, 3, 2)]
    docs = []
    for k, (mine, theirs) in enumerate(zip(orders, orders[1:] + orders[:1], strict=True)):
        a = _permuted(UNALIGNED, mine, tmp_path / f"a{k}.party")
        b = _permuted(DARK, theirs, tmp_path / f"b{k}.party")
        docs.append(_simulate(a, b, "--games", "40"))
    assert all(d == docs[0] for d in docs[1:])
    search = ["--games", "3", "--policy", "search", "--rollouts", "2", "--vs-policy", "heuristic"]
    searched = [
        _simulate(_permuted(UNALIGNED, o, tmp_path / f"s{k}.party"), DARK, *search)
        for k, o in enumerate(orders[:2])
    ]
    assert searched[0] == searched[1]


# Orderings of the five characters that move each one: the file's, its reversal, the first and
# last swapped, two neighbours swapped at each end, a rotation and a shuffle. The fast suite
# plays these; all 120 orderings are `make test-slow`
# (test_every_permutation_of_a_party_plays_the_same_games).
SOME_ORDERS = (
    (0, 1, 2, 3, 4),
    (4, 3, 2, 1, 0),
    (4, 1, 2, 3, 0),
    (1, 0, 2, 3, 4),
    (0, 1, 2, 4, 3),
    (1, 2, 3, 4, 0),
    (2, 0, 4, 1, 3),
)


def _orderings_play_the_same_games(orders: Iterable[tuple[int, ...]]) -> None:
    """``orders`` of the Unaligned party, 2 games each, at the engine: the same results, for
    the heuristic player and for the random one (whose draws are by position). A game's record
    (winner, turns, every life total, charges, attacks) changes with any order effect."""
    from deckkit.animatactics.analysis.parties import fighters
    from deckkit.animatactics.construction.carddb import load_card_db
    from deckkit.animatactics.construction.party import read_party

    db = load_card_db()
    mine = fighters(read_party(UNALIGNED, db))
    theirs = fighters(read_party(DARK, db))
    enemy = Side(tuple(e.duellist for e in theirs), tuple(e.levels for e in theirs), GUARDED)
    seen = set()
    for order, policy in itertools.product(orders, ("heuristic", "random")):
        assert sorted(order) == list(range(len(mine)))
        fs, lv = tuple(mine[i].duellist for i in order), tuple(mine[i].levels for i in order)
        side = Side(fs, lv, GUARDED, policy)
        results = []
        for game in range(2):
            r = play_game((side, enemy), 11, game)
            by_name = sorted(zip((mine[i].name for i in order), r.life[0], strict=True))
            results.append((r.winner, r.turns, r.life[1], tuple(by_name), r.charges, r.attacks))
        seen.add((policy, tuple(results)))
    assert len(seen) == 2


def test_reversed_swapped_and_rotated_orderings_of_a_party_play_the_same_games() -> None:
    _orderings_play_the_same_games(SOME_ORDERS)


@pytest.mark.slow
def test_every_permutation_of_a_party_plays_the_same_games() -> None:
    """All 120 orderings of the Unaligned party (about 500 games)."""
    _orderings_play_the_same_games(itertools.permutations(range(5)))


def test_charge_once_per_character_per_turn() -> None:
    """ "Charge (3 Actions , Once per Turn) ... Although it is an Attack action, Charging also
    counts as a Movement action, so a character can only Charge once per turn": the killer
    charges and kills one foe in turn 1, may not Charge the other until turn 2, and may not
    Attack it either (it was never in contact)."""
    result = play_game(
        (Side((KILLER,), (50,), ALL_OUT), Side((SHEEP, LAMB), (5, 5), ALL_OUT)), 1, 0
    )
    assert result.winner == 0 and result.by_ko
    assert result.turns == 2
    assert (result.charges, result.attacks) == (2, 0)


def test_each_character_charges_in_its_own_turn() -> None:
    """Charge is once per turn for each character, not once per game: two killers against two
    foes each Charge in turn 1 and the game ends by knock-out in turn 1."""
    other = Duellist("Other killer", 30, 30, 0, 0, 50, actions_max=10, recovery=9)
    result = play_game(
        (Side((KILLER, other), (50, 50), ALL_OUT), Side((SHEEP, LAMB), (5, 5), ALL_OUT)), 1, 0
    )
    assert (result.winner, result.by_ko, result.turns) == (0, True, 1)
    assert (result.charges, result.attacks) == (2, 0)


def test_engaged_characters_attack_and_cannot_charge() -> None:
    """ "A character can not move if it is in Hand-to-hand combat; first it must Escape from
    combat" (Movement) and "A character can't Charge against an enemy it's already engaged in
    combat with" (Charge): after a Charge both fighters attack each other and Charge no one."""
    wall = Duellist("Wall", 0, 0, 40, 9, 99, 10, 9)
    sides = (
        Side((KILLER, Duellist("Bystander", 1, 1, 40, 9, 99, 10, 9)), (50, 5), ALL_OUT),
        Side((wall, SHEEP), (5, 5), ALL_OUT),
    )
    g = GameState(sides, first=0)
    assert g.legal(0, 0) == [Action(CHARGE, 0), Action(CHARGE, 1)]
    assert g.legal(1, 0) == [Action(CHARGE, 0), Action(CHARGE, 1)]
    pols = (Heuristic(), Heuristic())
    rng = random.Random(0)
    perform(g, 0, 0, Action(CHARGE, 0), pols, rng, rng)
    assert g.legal(0, 0) == [Action(ATTACK, 0)]  # the Sheep is out of reach
    assert g.legal(1, 0) == [Action(ATTACK, 0)]  # the Wall may not leave the Killer
    assert g.legal(1, 1) == []  # the Sheep has 1 action: no Charge
    assert g.legal(0, 1) == [Action(CHARGE, 0), Action(CHARGE, 1)]  # free to Charge either


def test_the_heuristic_focuses_the_enemy_it_knocks_out_soonest() -> None:
    """Of its characters and their targets, the heuristic picks the pair with the fewest
    expected attacks to a knock-out (exact single-attack odds), whatever the listing order."""
    weak = Duellist("Weak", 5, 5, 5, 0, 3, 4, 3)
    strong = Duellist("Strong", 5, 5, 5, 0, 20, 4, 3)
    poke = Duellist("Poke", 1, 1, 5, 0, 10, 4, 3)
    punch = Duellist("Punch", 8, 8, 5, 0, 10, 4, 3)
    for mine in ((poke, punch), (punch, poke)):
        for theirs in ((weak, strong), (strong, weak)):
            g = GameState((Side(mine, (30, 30), GUARDED), Side(theirs, (30, 30), GUARDED)), 0)
            h = Heuristic()
            actor = h.choose_actor(g, 0, g.ready(0), random.Random(0))
            assert mine[actor] is punch
            act = h.choose_action(g, 0, actor, g.legal(0, actor), random.Random(0))
            assert act is not None and act.kind == CHARGE and theirs[act.target] is weak


def test_one_against_one_is_still_the_duel() -> None:
    """With one character a side the heuristic spends actions as the duel's schedule does: the
    opening Charge, then Attacks while the plan's reserve stays (duel.schedule)."""
    from deckkit.animatactics.engine.abilities import Kit, Special
    from deckkit.animatactics.engine.duel import schedule

    a = Duellist("Erika", 5, 5, 6, 1, 12, 4, 3)
    b = Duellist("Sho", 6, 4, 6, 1, 12, 4, 3)
    # with specials and the every-attack powers, both weighed alike (a special of 3 actions
    # changes the count of attacks a turn holds)
    pierce = Special("Pierce", "attack", 3, attack=3, ignore_armor=True)
    slasher = Duellist("Slasher", 5, 4, 9, 1, 20, 4, 3, Kit(specials=(pierce,), ignore_armor=True),
                       resistance=9)  # fmt: skip
    dread = Duellist("Dread", 5, 5, 7, 3, 20, 4, 3, Kit(damage_cap=6, deter=14))
    checked = 0
    for (one, two), plan_a, plan_b in itertools.product(((a, b), (slasher, dread)), PLANS, PLANS):
        for game in range(4):
            sides = (Side((one,), (40,), plan_a), Side((two,), (40,), plan_b))
            r = play_game(sides, 2, game, turns=2)
            strikes = schedule(one, two, plan_a, plan_b, a_first=r.a_first, turns=2)
            if not r.by_ko:
                charges = sum(1 for s in strikes if s.mod == 2)
                assert (r.charges, r.attacks) == (charges, len(strikes) - charges)
                checked += 1
    assert checked >= 50


def test_search_plays_from_its_own_dice_and_is_seeded() -> None:
    """The search player rolls its rollouts' dice from its own stream: a game played with it is
    the same twice, and its choice at a position depends on its stream alone."""
    sides = (
        Side((KILLER, SHEEP), (50, 5), GUARDED, "search:2"),
        Side((LAMB, Duellist("Wall", 0, 0, 40, 9, 99, 10, 9)), (5, 5), GUARDED),
    )
    assert play_game(sides, 4, 0) == play_game(sides, 4, 0)
    g = GameState(sides, 0)
    picks = {Search(2).choose_actor(g, 0, g.ready(0), random.Random(9)) for _ in range(3)}
    assert len(picks) == 1


def test_unknown_players_are_usage_errors() -> None:
    with pytest.raises(UsageError):
        make_policy("clever")
    with pytest.raises(UsageError):
        make_policy("search:0")
    result = runner.invoke(
        app, ["simulate", str(UNALIGNED), "--vs", str(DARK), "-n", "2", "--rollouts", "3"]
    )
    assert result.exit_code == 2


# Worker processes playing search games: `make test-slow`; the fast suite checks workers with
# the heuristic (test_animatactics_cli.py) and the search player's games in-process.
@pytest.mark.slow
def test_search_is_the_same_for_any_workers() -> None:
    # two games: one chunk for each of the two workers
    args = ["--games", "2", "--policy", "search", "--rollouts", "1", "--vs-policy", "random"]
    one = _simulate(UNALIGNED, DARK, *args)
    two = _simulate(UNALIGNED, DARK, *args, "--workers", "2")
    assert one == two and one["policy"] == "search:1" and one["vs_policy"] == "random"


@pytest.mark.slow  # end to end, in make test-slow (CI runs it): the fast suite's time
def test_the_ladder_pairs_each_player_with_the_heuristic_on_the_same_games() -> None:
    """The heuristic against itself on the same games differs by exactly nothing; the random
    player, on the sample parties, loses ground against it."""
    from deckkit.animatactics.analysis.ladder import PARTIES, _side, paired_gap

    sides = (_side(PARTIES[0], "guarded"), _side(PARTIES[1], "guarded"))
    same = paired_gap(sides, 0, "heuristic", 10, 1)
    assert same["gap"] == 0 and same["ci95"] == [0, 0]
    worse = paired_gap(sides, 0, "random", 20, 1)  # gap -0.325, ci95 up to -0.107
    assert worse["ci95"][1] < 0


class _AlwaysCounter(Heuristic):
    def react(
        self, g: GameState, side: int, defender: int, attacker: int, charge: bool,
        rng: random.Random,
    ) -> int:  # fmt: skip
        return COUNTER


def test_the_defender_chooses_its_reaction_and_pays_for_it() -> None:
    """ "Counterattack (3 Actions, Reactive)"; "if your character doesn't have enough Action
    points available, you can't use the Ability" (Actions): a Counterattack costs the defender
    3 actions, and one it cannot pay for is no reaction at all (not a cheaper Dodge)."""
    for ap, left in ((3, 0), (2, 2)):
        g = GameState((Side((KILLER,), (50,), ALL_OUT), Side((SHEEP,), (5,), ALL_OUT)), 0)
        g.teams[1][0].ap = ap
        rng = random.Random(0)
        perform(g, 0, 0, Action(CHARGE, 0), (Heuristic(), _AlwaysCounter()), rng, rng)
        assert g.teams[1][0].ap == left and g.teams[0][0].ap == 7


def test_the_game_interface_names_every_player() -> None:
    """Through the shared game interface a player is a plan (the heuristic spending actions by
    it), ``random`` or ``search``; another name is a usage error."""
    from deckkit.animatactics.game import GAME

    entries = [GAME.read(UNALIGNED), GAME.read(DARK)]
    assert GAME.players() == ("guarded", "all-out", "counter", "random", "search")
    for player, plan, policy in (
        ("counter", "counter", "heuristic"),
        ("search", "guarded", "search"),
    ):
        setup = GAME.prepare(entries, player=player)
        assert {(s.plan.name, s.policy) for s in setup.sides} == {(plan, policy)}
    with pytest.raises(UsageError):
        GAME.prepare(entries, player="clever")


def _engaged_pair(me: Duellist, foe: Duellist) -> GameState:
    """One against one, already in contact, the guarded plan on both sides."""
    g = GameState((Side((me,), (30,), GUARDED), Side((foe,), (30,), GUARDED)), 0)
    g.teams[0][0].engaged = g.teams[1][0].engaged = 1
    return g


def test_the_heuristic_counts_no_life_points_beyond_a_knock_out() -> None:
    """ "Damage and Death": a character at 0 Life Points is removed from play, so damage beyond
    the Life Points left is worth nothing. Against a foe at 2 Life Points a sure special (a hit
    on any roll) beats a wild Attack whose bigger hits only overkill, though the Attack takes
    more Life Points per action point counted without that cap (the sure one takes a fixed 2
    on a hit, its Effect beyond any Resistance roll)."""
    from deckkit.animatactics.engine.abilities import Kit, Special, use_value

    sure = Special("Sure", "attack", 3, attack=20, loss=2, effect=20)
    me = Duellist("Me", 3, 12, 8, 0, 20, 6, 5, Kit(specials=(sure,)))
    foe = Duellist("Foe", 4, 4, 9, 0, 20, 6, 5)
    plain, special = (use_value(3, 12, False, 9, 0, s, 0, True) for s in (None, sure))
    assert plain / 2 > special / 3  # uncapped, the Attack looks the better buy
    g = _engaged_pair(me, foe)
    g.teams[1][0].life = 2
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == 0


def test_the_heuristic_values_a_paralyze_by_the_actions_it_takes() -> None:
    """ "Paralyzed: The character is paralyzed and cannot use any Actions during the Turn"
    ("STATE"): a Paralyze at a foe yet to act takes its Attacks of this turn, worth the Life
    Points they would take; at a foe whose card is turned it takes nothing this turn, and the
    damage alone decides."""
    from deckkit.animatactics.engine.abilities import Kit, Special

    tail = Special("Tail", "attack", 2, damage=-3, paralyze=1, effect=15)
    me = Duellist("Me", 6, 6, 7, 1, 20, 6, 5, Kit(specials=(tail,)))
    foe = Duellist("Foe", 7, 8, 7, 1, 20, 6, 5, resistance=5)
    g = _engaged_pair(me, foe)
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == 0
    g.teams[1][0].acted = True
    g.teams[1][0].ap = 1
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == -1


def test_the_heuristic_opens_a_follow_on_chain() -> None:
    """A follow-on special is usable only right after the action it names (its ``after``, the
    special's own rule: "Special Abilities" modify the normal rules): a special that opens one
    is worth the follow-on's Life Points too, when the actions to pay for both are there. An
    opener no better than an Attack by itself is then chosen over it."""
    from deckkit.animatactics.engine.abilities import Kit, Special

    opener = Special("Opener", "attack", 2)
    closer = Special("Closer", "attack", 1, damage=5, after="hit:opener")
    me = Duellist("Me", 6, 5, 7, 1, 20, 6, 5, Kit(specials=(opener, closer)))
    foe = Duellist("Foe", 6, 5, 7, 1, 20, 6, 5)
    g = _engaged_pair(me, foe)
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == 0
    g.teams[0][0].ap = 3  # the guarded plan's reserve: no action left for the Closer
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == -1


# The powers the engine applies to every attack (engine/abilities.py, powers_between), weighed by
# the heuristic as the attack applies them: each position below is one where a player blind to
# the power chose otherwise.


def test_the_heuristic_weighs_an_armor_bypass() -> None:
    """Damien's Lightning Slash (the data's power: "all of [his] attacks ignore the target's
    Armor"): a special whose worth is ignoring Armor buys nothing his Attack does not already
    have, so against an armored foe the cheaper Attack is worth more per action point."""
    from deckkit.animatactics.engine.abilities import Kit, Special

    pierce = Special("Pierce", "attack", 3, attack=3, ignore_armor=True)
    me = Duellist("Slasher", 5, 4, 9, 1, 14, 4, 3, Kit(specials=(pierce,), ignore_armor=True))
    foe = Duellist("Wall", 5, 5, 7, 3, 20, 4, 3)
    g = _engaged_pair(me, foe)
    g.teams[1][0].ap = 0  # no Dodge
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == -1
    blind = Duellist("Blind", 5, 4, 9, 1, 14, 4, 3, Kit(specials=(pierce,)))  # no such power
    g = _engaged_pair(blind, foe)
    g.teams[1][0].ap = 0
    act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
    assert act is not None and act.special == 0


def test_the_heuristic_weighs_a_cap_on_life_points_lost() -> None:
    """Crimson Death's Immortal Shadow (the data's power: at most 6 damage from one attack): a
    special's extra Damage is lost on a hit that already takes 6, so the Attack, cheaper, is
    the better buy; against a foe without the cap the special is."""
    from deckkit.animatactics.engine.abilities import Kit, Special

    heavy = Special("Heavy", "attack", 3, damage=8)
    me = Duellist("Brute", 6, 6, 8, 1, 20, 6, 5, Kit(specials=(heavy,)))
    for kit, picked in ((Kit(damage_cap=6), -1), (Kit(), 0)):
        foe = Duellist("Shade", 5, 5, 5, 0, 20, 6, 5, kit)
        g = _engaged_pair(me, foe)
        act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
        assert act is not None and act.special == picked


def test_the_heuristic_weighs_a_deterrent() -> None:
    """Crimson Death's Fearbringer (the data's power: an attacker at her resists Effect 14 or
    misses; "Resistances": resisted when the die plus Resistance is greater than 14). A foe of
    Resistance 4 never resists it, so none of its attacks can hurt her: knocking it out takes
    no Attacks from her, and the heuristic buys Life Points per action point (the Attack)
    rather than a likelier knock-out at a higher price. A foe of Resistance 14 always resists:
    its Attacks count, and the special's likelier knock-out is worth its price."""
    from deckkit.animatactics.engine.abilities import Kit, Special

    finisher = Special("Finisher", "attack", 3, attack=2)
    me = Duellist("Dread", 6, 5, 8, 1, 20, 6, 5, Kit(specials=(finisher,), deter=14))
    for resistance, picked in ((4, -1), (14, 0)):
        foe = Duellist("Foe", 8, 8, 8, 1, 20, 6, 5, resistance=resistance)
        g = _engaged_pair(me, foe)
        g.teams[1][0].life = 3
        act = Heuristic().choose_action(g, 0, 0, g.legal(0, 0), random.Random(0))
        assert act is not None and act.special == picked


class _Recomputing(Heuristic):
    """The heuristic that checks its kept pick: every first action it returns from what
    choose_actor found must be the action it works out again from the state it is asked in."""

    kept = 0

    def choose_action(
        self, g: GameState, side: int, actor: int, legal: list[Action], rng: random.Random
    ) -> Action | None:
        fresh = Heuristic.choose_action(Heuristic(), g, side, actor, legal, rng)
        picked = self._picked
        act = super().choose_action(g, side, actor, legal, rng)
        if picked is not None and picked[0] is g and picked[2] == actor:
            _Recomputing.kept += 1
        assert act == fresh
        return act


def test_the_heuristic_s_kept_first_action_is_the_one_it_would_work_out_again() -> None:
    """choose_actor keeps the action it found for the actor it picks, and choose_action returns
    it when asked at once in that state (both sides, both plans, every pairing of the sample
    parties, the three board and initiative options that change who acts when)."""
    from deckkit.animatactics.analysis.ladder import _side
    from deckkit.animatactics.engine.options import RuleSet
    from deckkit.animatactics.engine.skirmish import advance

    parties = (UNALIGNED, DARK, DECKS / "at-empire-light.party")
    _Recomputing.kept = 0
    games = 0
    for (a, b), plan, rules in itertools.product(
        itertools.permutations(parties, 2),
        ("all-out", "counter"),
        (RuleSet(), RuleSet(board="apart"), RuleSet(initiative="alternate")),
    ):
        sides = (_side(a, plan), _side(b, plan))
        for game in range(2):
            g = GameState(sides, game % 2, rules=rules)
            dice, prng = random.Random(game), random.Random(-game)
            advance(g, (_Recomputing(), _Recomputing()), dice, prng)
            games += 1
    assert games == 72 and _Recomputing.kept > 1000


def test_a_hidden_character_s_shot_costs_no_stealth_and_the_kept_actions_stay_as_they_are() -> None:
    """GameState.legal takes a character's actions against each enemy from one kept tuple
    (skirmish.actions_kept); a character already hidden pays no Stealth first, so its hidden
    shot costs its price less the Stealth in it ("Hide"), in its own list, while the kept tuple,
    which the same character asks for once seen, keeps the full price."""
    from deckkit.animatactics.engine.abilities import RANGED, Kit, Special
    from deckkit.animatactics.engine.skirmish import SHOT

    sniper = Special("Sniper", RANGED, 4, attack=5, hide=2)
    shooter = Duellist("Shooter", 5, 5, 5, 0, 10, 6, 3, Kit(specials=(sniper,)))
    sides = (Side((shooter,), (30,), GUARDED), Side((SHEEP,), (5,), GUARDED))
    g = GameState(sides, 0)
    g.teams[0][0].moved = True  # no Charge: the shot alone
    shots: dict[bool, list[list[tuple[int, int, int]]]] = {True: [], False: []}
    for hidden in (True, False, True):
        g.teams[0][0].hidden = hidden
        legal = g.legal(0, 0)
        shots[hidden].append([(a.kind, a.special, a.price) for a in legal if a.special >= 0])
    assert shots[True] == [[(SHOT, 0, 2)], [(SHOT, 0, 2)]]
    assert shots[False] == [[(SHOT, 0, 4)]]
