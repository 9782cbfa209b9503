"""Charm battles and item pickup by each edition's rules, each test with the passage it follows.

Sources (../shared/rules/): the Set 0 rulebook ("Charm Battle", "End of Charm Battle", "Special
Case of a Character Charming a Disaster", "Determine Attackers", "Field Layouts", "Scavenge
Phase"), the 1996 general-play rules ("Combat"), the Fifth Edition summary and the 1998
guidelines (1.5: totals never below 0). The charm decision is the player's wherever the rules
make it one: the tests script the player.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

from deckkit.animayhem.construction.cards import CombatCard
from deckkit.animayhem.construction.editions import Edition
from deckkit.animayhem.construction.readings import apply_rules
from deckkit.animayhem.construction.vocabulary import Trigger
from deckkit.animayhem.engine.combat import fight
from deckkit.animayhem.engine.interpreter.common import by_trigger
from deckkit.animayhem.engine.interpreter.dispatcher import fire
from deckkit.animayhem.engine.policy import HeuristicPolicy, Policy, RandomPolicy
from deckkit.animayhem.engine.queries import charm_chance, charm_halves, reachable_item
from deckkit.animayhem.engine.scavenge import scavenge
from deckkit.animayhem.engine.state import Char, Dis, Game
from tests.engine_helpers import (
    NINE,
    add_char,
    bare_game,
    copy_of,
    edition,
    effect_table,
    new_disaster,
    on_field,
    stack_combat_pile,
)


class Charmers(Policy):
    """Declares the named characters, in that order; makes a charmed minor take ``action``."""

    def __init__(
        self, names: tuple[str, ...] = (), action: str = "incapacitate", run: int = 0
    ) -> None:
        self.names = names
        self.action = action
        self.run = run  # retreat from this round on (0: never)
        self.asked: list[tuple[list[str], int]] = []

    def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
        return 0 < self.run <= rnd

    def charmers(self, game: Game, d: Dis, options: list[Char], automatic: int) -> list[Char]:
        self.asked.append(([c.name for c in options], automatic))
        return [c for n in self.names for c in options if c.name == n]

    def charm_action(self, game: Game, d: Dis, c: Char, options: list[str]) -> str:
        return self.action if self.action in options else options[-1]


def _charm_events(game: Game) -> list[str]:
    assert game.trace is not None
    return [e["text"] for e in game.trace.events if e["kind"] == "charm"]


def _battles(game: Game) -> list[str]:
    return [t for t in _charm_events(game) if t.startswith("charm battle")]


def _with(name: str, **rules: str) -> Edition:
    return apply_rules(edition(name), rules)


def _choice() -> Edition:
    """Set 0 with the player's own declarations only (rule option charm=choice: "Charm Battle",
    "you may declare"), where a test is about what the player declares."""
    return _with("set0", charm="choice")


def _table(chars: tuple[str, ...], disaster: str, slot: int = 0) -> tuple[Game, Dis]:
    game = bare_game(NINE)
    game.turn = 1
    for n in chars:
        add_char(game, n, slot)
    d = on_field(game, new_disaster(game, disaster), slot)
    return game, d


def test_choice_charm_battle_is_declared_by_the_player() -> None:
    """Set 0 "Charm Battle": "you may declare that one of your characters is attempting to charm
    a disaster with a charm ability" (rule option charm=choice). Declared by nobody, there is no
    charm battle and Sylvie fights; declared, she charms first (Enchanted View x2: 12 against
    7 - 1) and the minor 33-S Sexaroid is incapacitated, no combat."""
    ed = _choice()
    game, d = _table(("Sylvie",), "33-S Sexaroid")
    stack_combat_pile(game, [])
    assert fight(game, ed, Charmers(()), d, 0, "disaster") != "charmed"
    assert not _battles(game)
    game, d = _table(("Sylvie",), "33-S Sexaroid")
    stack_combat_pile(game, ["Bash", "Enchanted View"])
    assert fight(game, ed, Charmers(("Sylvie",)), d, 0, "disaster") == "charmed"
    assert len(_battles(game)) == 1 and d.incapacitated_turn == game.turn


def test_fifth2018_charm_is_a_choice_and_can_be_agreed_off() -> None:
    """Fifth Edition summary: "Charm combat is optional, agreed before play": a player's choice,
    and with the rule option charm=off no charm battle happens even when declared."""
    game, d = _table(("Sylvie",), "33-S Sexaroid")
    stack_combat_pile(game, [])
    fight(game, edition("fifth2018"), Charmers(()), d, 0, "disaster")
    assert not _battles(game)
    game, d = _table(("Sylvie",), "33-S Sexaroid")
    stack_combat_pile(game, ["Bash", "Enchanted View"])
    assert fight(game, _with("fifth2018", charm="off"), Charmers(("Sylvie",)), d, 0, "disaster")
    assert not _battles(game)


def test_1996_one_charm_combat_is_automatic() -> None:
    """1996 rules, "Combat": "If you enter Combat with a Disaster that has a Charm score, it will
    automatically engage in Charm Combat first." A player who declares nobody still has one
    charm battle, by one of its characters; against a minor disaster, only that one."""
    for name in ("general1996", "guidelines1998"):
        game, d = _table(("Kami", "Akane Tendo"), "33-S Sexaroid")
        stack_combat_pile(game, [])
        policy = Charmers(())
        fight(game, edition(name), policy, d, 0, "disaster")
        assert len(_battles(game)) == 1, name
        assert policy.asked == [(["Kami", "Akane Tendo"], 1)], name
        game, d = _table(("Kami", "Akane Tendo"), "33-S Sexaroid")
        stack_combat_pile(game, [])
        fight(game, edition(name), Charmers(("Akane Tendo", "Kami")), d, 0, "disaster")
        assert [t.split(" (")[0] for t in _battles(game)] == ["charm battle Akane Tendo"], name


def test_1996_further_charm_combat_against_a_major_if_the_player_wishes() -> None:
    """1996 rules, "Combat": "Each person at the location may engage in a Charm Combat with a
    Major Disaster if the player wishes." Against Toma (major, charm 3) the automatic battle
    and then those the player declares, no more."""
    ed = edition("general1996")
    game, d = _table(("Kami", "Akane Tendo", "A-ko Magami"), "Toma")
    stack_combat_pile(game, [])
    fight(game, ed, Charmers(("Kami", "A-ko Magami")), d, 0, "disaster")
    assert [t.split(" (")[0] for t in _battles(game)] == [
        "charm battle Kami",
        "charm battle A-ko Magami",
    ]


def test_set0_disaster_declares_against_each_character_it_attacks() -> None:
    """Set 0 "A Disaster Attacking Your Character" > "Determine Attackers": "the disaster will
    automatically declare a charm battle against each character at its location before combat
    begins. After this charm battle, if you have any non-charmed characters remaining at
    disaster's location, you may declare a charm battle against the attacking disaster" (the
    edition's default, charm=disaster). With an empty combat pile Kami (1) loses to Toma (3)
    and Akane (3) ties: the player declared nobody, yet both had a battle; only Akane, not
    charmed, is offered the player's own; declared, she has a second one. The disaster's
    declarations spend neither character's one declared battle of the turn."""
    ed = edition("set0")
    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    policy = Charmers(())
    fight(game, ed, policy, d, 0, "disaster")
    assert [t.split(" (")[0] for t in _battles(game)] == [
        "charm battle Kami",
        "charm battle Akane Tendo",
    ]
    assert policy.asked == [(["Akane Tendo"], 0)]
    assert all(c.charm_turn != game.turn for c in game.chars)
    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    fight(game, ed, Charmers(("Akane Tendo",)), d, 0, "disaster")
    assert [t.split(" (")[0] for t in _battles(game)] == [
        "charm battle Kami",
        "charm battle Akane Tendo",
        "charm battle Akane Tendo",
    ]


def test_set0_disaster_declares_against_each_attacking_character() -> None:
    """Set 0 "Your Characters Attacking a Disaster" > "Determine Attackers": "the disaster will
    declare a charm battle against each attacking character before combat begins". The party
    attacks Toma and the player declares nobody: Kami loses hers and sits out the first round
    ("End of Charm Battle": she "cannot attack the disaster it tried to charm until that
    disaster attacks the charmer")."""
    seen: list[set[str]] = []

    class Watch(Charmers):
        def fighters(self, game, d, able, target, cap):  # type: ignore[no-untyped-def]
            seen.append({c.name for c in able})
            return super().fighters(game, d, able, target, cap)

        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            return rnd > 1

    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    fight(game, edition("set0"), Watch(()), d, 0, "party")
    assert len(_battles(game)) == 2 and "Kami" not in seen[0]


def test_set0_disaster_declared_battles_make_no_special_case() -> None:
    """Set 0 "Special Case of a Character Charming a Disaster" needs the player's own
    declarations ("If you decide to declare a charm attempt against a disaster for each of your
    characters at its location, and they all lose"). Kami loses the battle Kagato declares: a
    combat follows, Kagato takes no item and does not ignore her (under charm=every, which
    counts each battle as declared, the special case follows)."""
    game, d = _table(("Kami",), "Kagato")
    cake = copy_of(game, "Piece of Cake")
    game.locs[0].hidden_cards.append(cake)
    stack_combat_pile(game, [])
    assert fight(game, edition("set0"), Charmers(()), d, 0, "disaster") != "ignored"
    assert len(_battles(game)) == 1 and not d.carrying and not d.ignores
    game, d = _table(("Kami",), "Kagato")
    stack_combat_pile(game, [])
    assert fight(game, _with("set0", charm="every"), Charmers(()), d, 0, "disaster") == "ignored"


def test_every_reading_charms_with_every_character() -> None:
    """Set 0 "Determine Attackers": "the disaster will automatically declare a charm battle
    against each character at its location before combat begins" (rule option charm=every):
    whatever the player wants, each character there has one."""
    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    fight(game, _with("set0", charm="every"), Charmers(()), d, 0, "disaster")
    assert len(_battles(game)) == 2


def test_one_declared_charm_battle_per_character_a_turn() -> None:
    """Set 0 "Charm Battle": "you can only declare one charm battle for each of your characters
    in any given turn": in a second combat the same turn Kami is not offered again; next turn
    she is."""
    ed = _choice()
    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    policy = Charmers(("Kami",), run=1)
    for turn in (1, 1, 2):
        game.turn = turn
        for c in game.chars:  # back where they stood after each retreat
            c.zone, c.slot, c.health = "field", 0, c.health_max
        fight(game, ed, policy, d, 0, "party")
    assert [names for names, _ in policy.asked] == [
        ["Kami", "Akane Tendo"],
        ["Akane Tendo"],
        ["Kami", "Akane Tendo"],
    ]


def test_lost_charmer_cannot_attack_until_attacked() -> None:
    """Set 0 "End of Charm Battle": "If your charmer lost the charm battle, the charmer cannot
    attack the disaster it tried to charm until that disaster attacks the charmer." Kami (1)
    loses to Toma (3) and the party attacks: Akane alone is offered as a fighter."""
    game, d = _table(("Kami", "Akane Tendo"), "Toma")
    stack_combat_pile(game, [])
    seen: list[set[str]] = []

    class Watch(Charmers):
        def fighters(self, game, d, able, target, cap):  # type: ignore[no-untyped-def]
            seen.append({c.name for c in able})
            return super().fighters(game, d, able, target, cap)

        def retreat(self, game: Game, d: Dis, chars: list[Char], rnd: int) -> bool:
            return rnd > 1

    fight(game, _choice(), Watch(("Kami",)), d, 0, "party")
    assert seen[0] == {"Akane Tendo"}


def test_special_case_only_when_every_character_there_declared() -> None:
    """Set 0 "Special Case of a Character Charming a Disaster": "If you decide to declare a
    charm attempt against a disaster for each of your characters at its location, and they all
    lose their charm battles, then the disaster will take the item card underneath its
    location". Kami loses to Kagato (5) but Akane never declared: a combat, no special case;
    both declare and lose: no combat, Kagato takes the (uncovered) item and ignores them."""
    ed = _choice()
    game, d = _table(("Kami", "Akane Tendo"), "Kagato")
    stack_combat_pile(game, [])
    assert fight(game, ed, Charmers(("Kami",)), d, 0, "disaster") != "ignored"
    game, d = _table(("Kami", "Akane Tendo"), "Kagato")
    cake = copy_of(game, "Piece of Cake")
    game.locs[0].hidden_cards.append(cake)
    stack_combat_pile(game, [])
    assert fight(game, ed, Charmers(("Kami", "Akane Tendo")), d, 0, "disaster") == "ignored"
    assert d.carrying == [cake] and {c.uid for c in game.chars} <= d.ignores


def test_special_case_item_beneath_face_down_disasters_stays() -> None:
    """The item pickup reading applies to the special case too: "Field Layouts" puts the item
    beneath the face-down disasters, so Kagato cannot take it while one lies above it; with the
    rule option item_pickup=through it can."""
    for reading, taken in (("beneath", False), ("through", True)):
        game, d = _table(("Kami",), "Kagato")
        game.item_pickup = reading
        cake = copy_of(game, "Piece of Cake")
        game.locs[0].hidden_cards.append(cake)
        game.locs[0].hidden_disasters.append(new_disaster(game, "Goons"))
        stack_combat_pile(game, [])
        assert fight(game, _choice(), Charmers(("Kami",)), d, 0, "disaster") == "ignored"
        assert (d.carrying == [cake]) is taken, reading


def test_ignored_until_they_attack_it() -> None:
    """Special Case: "The disaster will ignore the characters if they do not attack it"; a
    major that lost: "that disaster will ignore the charmer until the charmer attacks it". The
    party may attack Kagato after the special case (a new combat: the charmers' "cannot attack
    ... until that disaster attacks" held for the combat it was lost in), and once they do it
    no longer ignores them."""
    ed = _choice()
    game, d = _table(("Kami",), "Kagato")
    stack_combat_pile(game, [])
    assert fight(game, ed, Charmers(("Kami",)), d, 0, "disaster") == "ignored"
    assert fight(game, ed, Charmers(()), d, 0, "disaster") == "none"  # it ignores her
    result = fight(game, ed, Charmers(()), d, 0, "party")
    assert result in ("wiped", "retreat", "defeated")
    assert not d.ignores


def test_won_charm_against_a_minor_lets_the_player_choose_the_action() -> None:
    """Set 0 "End of Charm Battle": "If your charmer won the charm battle against a minor
    disaster, you may make one legal action for the disaster", among them "The disaster gives
    one item card to the charmer" and "You can incapacitate the disaster for the current turn"
    (1996 rules: "hand over an Item"). The player chooses: the item, and the fight goes on; or
    incapacitated, and no combat."""
    ed = _choice()
    for action in ("item", "incapacitate"):
        game, d = _table(("Sylvie",), "33-S Sexaroid")
        cake = copy_of(game, "Piece of Cake")
        d.carrying.append(cake)
        stack_combat_pile(game, ["Bash", "Enchanted View"])
        sylvie = game.chars[0]
        result = fight(game, ed, Charmers(("Sylvie",), action, run=1), d, 0, "party")
        if action == "item":
            assert cake in sylvie.items and not d.carrying and result == "retreat"
        else:
            assert result == "charmed" and d.carrying == [cake]
            assert d.incapacitated_turn == game.turn


def test_charm_tie_reading() -> None:
    """Set 0 "Check Charm" names a higher charm (won) and a lower one (lost), not a tie. By
    default a tie changes nothing; with charm_tie=lost the charmer who did not win lost: Akane
    (3) against Toma (3) then sits out the fight the party started."""
    seen: list[set[str]] = []

    class Watch(Charmers):
        def fighters(self, game, d, able, target, cap):  # type: ignore[no-untyped-def]
            seen.append({c.name for c in able})
            return super().fighters(game, d, able, target, cap)

    for reading, out in (("nothing", False), ("lost", True)):
        game, d = _table(("Kami", "Akane Tendo"), "Toma")
        stack_combat_pile(game, [])
        seen.clear()
        policy = Watch(("Akane Tendo",), run=2)
        fight(game, _with("set0", charm="choice", charm_tie=reading), policy, d, 0, "party")
        assert ("Akane Tendo" not in seen[0]) is out, reading


def test_charming_a_revealed_disaster_does_not_end_scavenging() -> None:
    """Set 0 "Scavenge Phase": revealed disasters are cleared one by one; a charmed one
    (incapacitated: "End of Charm Battle") no longer stands in the way, so the party may go on
    and retrieve the item. The rule option scavenge_after_charm=stop reads "your party must
    defeat it in combat to continue" strictly and ends the attempt."""
    for reading, cleared in (("continue", True), ("stop", False)):
        game = bare_game(NINE)
        game.turn = 1
        sylvie = add_char(game, "Sylvie", 0)
        loc = game.locs[0]
        loc.hidden_disasters = [new_disaster(game, "33-S Sexaroid")]
        cake = copy_of(game, "Piece of Cake")
        loc.hidden_cards = [cake]
        stack_combat_pile(game, ["Bash", "Enchanted View"])
        ed = _with("set0", charm="choice", scavenge_after_charm=reading)
        assert scavenge(game, ed, Charmers(("Sylvie",)), [sylvie], 0) is cleared, reading
        assert (cake in sylvie.items) is cleared, reading


def test_take_effect_follows_the_same_pickup_reading() -> None:
    """Card effects take an item from under a location by the same reading as movement (7 Lucky
    Gods Martial Artists: "lands", take an item here): under item_pickup=beneath, not while a
    face-down disaster covers it, once none does, yes; under the default (through), at once."""
    game = effect_table()
    game.item_pickup = "beneath"
    d = on_field(game, new_disaster(game, "7 Lucky Gods Martial Artists"), 4)
    fx = by_trigger(d.card.effects)
    assert fx is not None
    d.fx = fx
    game.fx[d.card.id] = fx
    cake = copy_of(game, "Piece of Cake")
    game.locs[4].hidden_cards.append(cake)
    game.locs[4].hidden_disasters.append(new_disaster(game, "Goons"))
    assert reachable_item(game, 4) is None
    fire(game, d, Trigger.LANDS, 4)
    assert not d.carrying
    game.locs[4].hidden_disasters.clear()
    fire(game, d, Trigger.LANDS, 4)
    assert d.carrying == [cake]
    game = effect_table()
    assert game.item_pickup == "through"
    d = on_field(game, new_disaster(game, "7 Lucky Gods Martial Artists"), 4)
    d.fx = game.fx[d.card.id] = fx
    cake = copy_of(game, "Piece of Cake")
    game.locs[4].hidden_cards.append(cake)
    game.locs[4].hidden_disasters.append(new_disaster(game, "Goons"))
    fire(game, d, Trigger.LANDS, 4)
    assert d.carrying == [cake]


def test_charm_odds_from_the_pile_make_up() -> None:
    """The players' estimate: one card on the disaster, one on the charmer, drawn from the
    pile's make-up (never its order); totals never below 0 (1998 guidelines 1.5)."""
    game = bare_game(NINE)
    stack_combat_pile(game, ["Bash", "Bash"])  # Broken Heart: -1 charm on whoever gets it
    halves = charm_halves(game)
    assert charm_chance(halves, 4, 3) == (1.0, 0.0)
    assert charm_chance(halves, 3, 3) == (0.0, 0.0)  # 2 against 2: a tie
    assert charm_chance(halves, 3, 3, tie_lost=True) == (0.0, 1.0)
    stack_combat_pile(game, ["Bash", "Enchanted View"])
    win, lose = charm_chance(charm_halves(game), 6, 7)
    assert win == 0.5 and lose == 0.5  # x2 on Sylvie wins; x2 on the disaster loses


def test_charm_halves_are_the_pile_s_make_up_in_printed_order() -> None:
    """The make-up the odds are worked out on: each charm half of the combat pile and discard
    (read from its game-time record) with its count, by the half's name, target and modifier as
    printed, then count; a card that is no combat card has none."""
    game = bare_game(NINE)
    stack_combat_pile(game, ["Enchanted View", "Bash", "Bash", "Enchanted View", "Bash"])
    game.combat_discard.append(game.combat_pile.pop())
    cards = [x.card for x in (*game.combat_pile, *game.combat_discard)]
    assert all(isinstance(c, CombatCard) for c in cards)
    counts = Counter(id(c.charm) for c in cards)  # type: ignore[union-attr]
    by_id = {id(c.charm): c.charm for c in cards}  # type: ignore[union-attr]
    expected = sorted(
        ((by_id[k], n) for k, n in counts.items()),
        key=lambda hn: (hn[0].name, hn[0].target, str(hn[0].modifier), hn[1]),
    )
    halves = charm_halves(game)
    assert len(halves) == 2 and sum(n for _, n in halves) == 5
    assert [(id(h), n) for h, n in halves] == [(id(h), n) for h, n in expected]
    assert all(x.g.charm_half is x.card.charm for x in game.combat_pile)  # type: ignore[union-attr]
    assert all(loc.copy.g.charm_half is None for loc in game.locs)  # location cards


def test_heuristic_charms_only_with_likely_winners() -> None:
    """The heuristic player declares only charmers more likely than not to win, and none when
    the party can beat the disaster anyway; the automatic one goes to the likeliest winner."""
    policy = HeuristicPolicy()
    game, d = _table(("Kami", "Sylvie"), "Kagato")  # major 6/8: Kami and Sylvie cannot beat it
    stack_combat_pile(game, ["Bash", "Bash", "Bash"])
    kami, sylvie = game.chars
    assert policy.charmers(game, d, [kami, sylvie], 0) == [sylvie]
    assert policy.charmers(game, d, [kami, sylvie], 1) == [sylvie]
    assert policy.charmers(game, d, [kami], 0) == []
    game, d = _table(("Kami", "Akane Tendo", "A-ko Magami"), "33-S Sexaroid")
    stack_combat_pile(game, ["Bash", "Bash", "Bash"])
    assert policy.charmers(game, d, list(game.chars), 0) == []  # 12 damage beat defense 3


def test_random_player_chooses_among_legal_charmers() -> None:
    """The random player names only legal charmers, in a random order, and at random whether
    each declares; the automatic one always goes first."""
    from deckkit.animayhem.engine.chance import SeededChance

    names: set[tuple[str, ...]] = set()
    for seed in range(40):
        game = bare_game(NINE, chance=SeededChance(seed))
        chars = [add_char(game, n, 0) for n in ("Kami", "Sylvie", "Akane Tendo")]
        d = on_field(game, new_disaster(game, "Toma"), 0)
        picked = RandomPolicy().charmers(game, d, chars[:2], 1)
        assert picked and set(picked) <= set(chars[:2])
        names.add(tuple(c.name for c in picked))
    assert len(names) >= 3


def test_rule_options_reach_the_play_rules() -> None:
    """Each rule option sets its play-rule field; the edition's own value is the default."""
    ed = edition("general1996")
    assert ed.play.charm == "first_automatic" and edition("set0").play.charm == "disaster"
    assert edition("fifth2018").play.charm == "choice"
    # The disaster's pickup passages name no condition in any edition (item_pickup=through).
    for name in ("set0", "general1996", "guidelines1998", "fifth2018"):
        assert edition(name).play.item_pickup == "through", name
    changed = apply_rules(ed, {"charm": "every", "stalemate_rounds": "5"})
    assert changed.play == replace(ed.play, charm="every", stalemate_rounds=5)
    assert apply_rules(ed, {}) is ed
